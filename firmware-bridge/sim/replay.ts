// Replaying a sensor trace as if a board sent it: the recorded lines, at the recorded times, through a mock serial port.
import { BoardLink, type BoardLinkOptions } from '../link.ts';
import { openMockPort, type MockBoardPort } from '../mock-port.ts';
import type { TraceEntry } from '../trace.ts';
import { RealTimeDriver, Scheduler, type WallClock } from './clock.ts';

/**
 * Schedules trace lines on a scheduler, `t` counted from the scheduler's present. Lazily, one
 * entry ahead, so a long trace is never all in the queue.
 */
export function scheduleTrace(
  scheduler: Scheduler,
  entries: Iterable<TraceEntry>,
  emit: (line: string, t: number) => void,
  onEnd?: () => void,
): void {
  const start = scheduler.now;
  const it = entries[Symbol.iterator]();
  const next = (): void => {
    const r = it.next();
    if (r.done) {
      onEnd?.();
      return;
    }
    const entry = r.value;
    scheduler.at(start + entry.t, () => {
      emit(entry.line, scheduler.now);
      next();
    });
  };
  next();
}

export interface TraceReplay {
  readonly link: BoardLink;
  readonly port: MockBoardPort;
  readonly driver: RealTimeDriver;
  /** Resolves when the last line has been sent. */
  readonly done: Promise<void>;
  close(): Promise<void>;
}

/** A BoardLink that receives a trace's lines over a mock port, paced in real time at `simSpeed`. */
export async function replayTraceToLink(
  entries: Iterable<TraceEntry>,
  options: {
    readonly simSpeed?: number;
    readonly path?: string;
    readonly lineEnding?: '\r\n' | '\n';
    readonly link?: BoardLinkOptions;
    readonly wallClock?: WallClock;
  } = {},
): Promise<TraceReplay> {
  const scheduler = new Scheduler();
  const driver = new RealTimeDriver(scheduler, { speed: options.simSpeed ?? 1, clock: options.wallClock });
  const port = await openMockPort(options.path);
  const link = new BoardLink(port.stream, options.link);
  const ending = options.lineEnding ?? '\n';
  const done = new Promise<void>((resolve) => {
    scheduleTrace(scheduler, entries, (line) => port.emit(line + ending), resolve);
  });
  driver.start();
  return {
    link,
    port,
    driver,
    done,
    close: async () => {
      driver.stop();
      await link.close();
    },
  };
}
