// Entry of the display page (/ and /display): the element, the page's ground styles, and a screen that stays on.
import '../common/page.css';
import './index.ts';

// A scoreboard nobody touches must not fall asleep. Browsers grant this only on secure pages and
// drop it when the tab is hidden, so ask again each time it becomes visible; refusal is harmless.
async function keepScreenOn(): Promise<void> {
  try {
    await navigator.wakeLock?.request('screen');
  } catch {
    // Not allowed here (plain http, battery saver): the screen's own settings decide.
  }
}

void keepScreenOn();
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') void keepScreenOn();
});
