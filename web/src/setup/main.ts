// Entry of the setup page (/setup): the element and the page's ground styles.
import '../common/page.css';
import './index.ts';
