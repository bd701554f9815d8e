// Entry of the games page (/games): the page's ground styles and the element.
import '../common/page.css';
import '../common/index.ts';
import './games-page.ts';
