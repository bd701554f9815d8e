// The console's warning tone on an illegal move: a short WebAudio beep, a mute switch remembered in localStorage,
// and the browsers' rule that a page may make no sound before the person has touched it.
import type { Alert } from '../../../server/http/messages.ts';

const MUTED_KEY = 'spieltisch.console.muted';

/** The alerts that call for the tone: errors (a move against the rules, a board that differs) new since `before`. */
export function alertsToSound(before: readonly Alert[], after: readonly Alert[]): Alert[] {
  const known = new Set(before.map((a) => a.id));
  return after.filter((a) => a.level === 'error' && !known.has(a.id));
}

export function storedMuted(): boolean {
  try {
    return localStorage.getItem(MUTED_KEY) === '1';
  } catch {
    // Storage refused (a private window): the tone is on, and the switch lasts as long as the page.
    return false;
  }
}

export function rememberMuted(muted: boolean): void {
  try {
    localStorage.setItem(MUTED_KEY, muted ? '1' : '0');
  } catch {
    // See storedMuted.
  }
}

/** What happened to a tone asked for. `blocked`: the browser waits for a tap before it lets the page sound. */
export type ToneResult = 'played' | 'muted' | 'blocked' | 'unsupported';

type AudioContextClass = typeof AudioContext;

export class WarningTone {
  private context: AudioContext | null = null;

  /** Call from a user gesture (a tap, a key): only then may a suspended context start. Resolves to whether it runs. */
  async unlock(): Promise<boolean> {
    const context = this.ensure();
    if (!context) return false;
    if (context.state !== 'running') await context.resume().catch(() => undefined);
    return context.state === 'running';
  }

  get ready(): boolean {
    return this.context?.state === 'running';
  }

  play(muted: boolean): ToneResult {
    if (muted) return 'muted';
    const context = this.ensure();
    if (!context) return 'unsupported';
    if (context.state !== 'running') {
      // Outside a gesture this is refused as a rule; inside one (the "enable sound" button) it works.
      void context.resume().catch(() => undefined);
      return 'blocked';
    }
    // Two falling beeps, 0.3 s in all: heard across the table, over before anyone is startled.
    const start = context.currentTime + 0.01;
    for (const [offset, frequency] of [
      [0, 880],
      [0.17, 660],
    ] as const) {
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.type = 'square';
      oscillator.frequency.value = frequency;
      const t0 = start + offset;
      gain.gain.setValueAtTime(0.0001, t0);
      gain.gain.exponentialRampToValueAtTime(0.18, t0 + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + 0.13);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(t0);
      oscillator.stop(t0 + 0.14);
    }
    return 'played';
  }

  close(): void {
    void this.context?.close().catch(() => undefined);
    this.context = null;
  }

  private ensure(): AudioContext | null {
    if (this.context) return this.context;
    const Context = (globalThis as { AudioContext?: AudioContextClass; webkitAudioContext?: AudioContextClass }).AudioContext ??
      (globalThis as { webkitAudioContext?: AudioContextClass }).webkitAudioContext;
    if (!Context) return null;
    try {
      this.context = new Context();
    } catch {
      return null;
    }
    return this.context;
  }
}
