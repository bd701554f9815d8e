// Tests of the simulated square board behind a MockBinding port: handshake, frames in real time, commands, a live script.
import { afterEach, describe, expect, test } from 'vitest';
import { isOccupied, startSimulatedGridBoard, type BoardLink, type CountsMessage, type GridMessage, type SimulatedGridBoard } from '../../firmware-bridge/index.ts';

/** Resolves with the first `n` events of a kind. */
function collect<T>(link: BoardLink, event: 'grid' | 'counts', n: number): Promise<T[]> {
  return new Promise((resolve) => {
    const got: T[] = [];
    const on = (x: T): void => {
      got.push(x);
      if (got.length === n) {
        link.off(event, on as never);
        resolve(got);
      }
    };
    link.on(event, on as never);
  });
}

describe('the simulated square board behind a mock port', () => {
  let sim: SimulatedGridBoard | null = null;
  afterEach(async () => {
    await sim?.close();
    sim = null;
  });

  test('handshakes as a grid board, streams consecutive C frames of what stands on it, and answers commands', async () => {
    const pieces = [{ cell: 0, beads: 2 }, { cell: 35, beads: 5 }];
    sim = await startSimulatedGridBoard({ seed: 'grid-link', sense: 'count', pieces, simSpeed: 20, virtualTimestamps: true });
    expect(sim.link.hello).toMatchObject({ board: 'grid', cols: 6, rows: 6, sense: 'count', cells: null });
    const frames = await collect<CountsMessage>(sim.link, 'counts', 10);
    for (let i = 1; i < frames.length; i++) expect(frames[i].seq).toBe((frames[i - 1].seq + 1) >>> 0);
    for (const f of frames) expect(f.receivedAt).toBeGreaterThanOrEqual(f.seq * 50);
    expect(frames[9].cells).toEqual(sim.table.counts());
    expect(frames[9].cells[35]).toBe(6);

    await sim.link.request({ kind: 'rate', hz: 50 });
    expect(sim.table.frameRateHz).toBe(50);
    await sim.link.request({ kind: 'led', cell: 35, color: 'ff0000' });
    expect(sim.table.ledColors()[35]).toBe('ff0000');
    await expect(sim.link.request({ kind: 'tare' })).rejects.toThrow(/ERR unsupported/);
    expect(sim.link.stats().dropped).toEqual({ checksum: 0, malformed: 0, overlong: 0, nonAscii: 0 });
  });

  test('a piece slid on the live board shows up in the G frames', async () => {
    sim = await startSimulatedGridBoard({ seed: 'grid-live', pieces: [{ cell: 1, beads: 3 }], simSpeed: 50, lineEnding: '\n' });
    await new Promise<void>((resolve) => sim!.table.perform([{ kind: 'slide', from: 1, to: 19, ms: 400 }], resolve));
    const doneAt = sim.scheduler.now;
    const frame = await new Promise<GridMessage>((resolve) => {
      const on = (f: GridMessage): void => {
        if (f.seq * 50 <= doneAt) return;
        sim!.link.off('grid', on);
        resolve(f);
      };
      sim!.link.on('grid', on);
    });
    expect(frame.occupancy).toBe(1n << 19n);
    expect(isOccupied(frame, 19)).toBe(true);
    expect(sim.table.occupancy()[19]).toBe(1);
  });
});
