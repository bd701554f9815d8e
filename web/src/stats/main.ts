// Entry of the statistics page (/stats): the page's ground styles and the element.
import '../common/page.css';
import '../common/index.ts';
import './stats-page.ts';
