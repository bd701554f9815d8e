// Entry of the referee console (/referee): the element and the page's ground styles.
import '../common/page.css';
import './index.ts';
