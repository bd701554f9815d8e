// Entry of the tournament pages (/tournament and /tournament/<site>/<board>).
import '../common/page.css';
import './index.ts';
