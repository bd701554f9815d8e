// Entry of the display page (/ and /display): the element, the page's ground styles, and a screen that stays on.
import '../common/page.css';
import './index.ts';

// A scoreboard nobody touches must not fall asleep. Browsers grant the Wake Lock only on secure pages (https, or
// localhost) and drop it when the tab is hidden or the battery runs low, so ask again each time the page is visible
// and whenever it is let go; refusal is harmless.
let lock: WakeLockSentinel | null = null;
/** Lets go while visible since the page was last shown: a browser that keeps taking the lock back is not pestered. */
let letGo = 0;

async function keepScreenOn(): Promise<void> {
  if (document.visibilityState !== 'visible' || (lock && !lock.released) || !('wakeLock' in navigator)) return;
  try {
    lock = await navigator.wakeLock.request('screen');
    lock.addEventListener('release', () => {
      lock = null;
      // Let go while visible (a power saver): ask once more, not again and again.
      if (document.visibilityState === 'visible' && ++letGo <= 1) void keepScreenOn();
    });
  } catch {
    // Not allowed here (plain http, battery saver): the screen's own settings decide.
  }
}

void keepScreenOn();
document.addEventListener('visibilitychange', () => {
  if (document.visibilityState === 'visible') letGo = 0;
  void keepScreenOn();
});
