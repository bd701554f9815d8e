// Performing a planned game on a simulated board in virtual time, as fast as the CPU goes, and
// telling when each mark of the script was reached.
import type { Scheduler, SimulatedFirmware } from '../../firmware-bridge/index.ts';

/** Longest game a generator will simulate (virtual time) before declaring the script broken. */
const MAX_VIRTUAL_MS = 8 * 3600_000;

/**
 * Boots the board, performs the script, and returns when each mark was reached. Throws if the
 * board could not perform the script: a generated trace must be what the plan says.
 */
export function performInVirtualTime<Action extends { readonly kind: string }>(
  board: SimulatedFirmware<Action>,
  scheduler: Scheduler,
  script: readonly Action[],
): (label: string) => number {
  const marks = new Map<string, number>();
  board.onMark = (label, t) => marks.set(label, t);
  board.boot();
  board.perform(script);
  if (!scheduler.runWhile(() => board.busy, MAX_VIRTUAL_MS, 1000)) throw new Error('the simulated game did not finish');
  if (board.faults > 0) throw new Error(`the board could not perform the script (${board.faults} faults)`);
  return (label) => {
    const t = marks.get(label);
    if (t === undefined) throw new Error(`mark ${label} was never reached`);
    return t;
  };
}
