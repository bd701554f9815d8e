// Entry of the pages that arrive later (/setup, /games): one stand-in element each.
import '../common/page.css';
import './index.ts';
