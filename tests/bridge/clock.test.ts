// Tests of the simulation clock: event order on the virtual clock, and real-time pacing against a fake wall clock.
import { describe, expect, test } from 'vitest';
import { RealTimeDriver, Scheduler, type WallClock } from '../../firmware-bridge/index.ts';

/** A wall clock that moves only when the test says so. */
class FakeWall implements WallClock {
  t = 0;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private ids = 0;
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.ids;
    this.timers.push({ at: this.t + ms, fn, id });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.timers = this.timers.filter((x) => x.id !== handle);
  }
  advance(ms: number): void {
    const end = this.t + ms;
    while (true) {
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.t = Math.max(this.t, next.at);
      next.fn();
    }
    this.t = end;
  }
  get armed(): number {
    return this.timers.length;
  }
}

describe('Scheduler', () => {
  test('runs events in time order, ties in the order scheduled, and skips cancelled ones', () => {
    const s = new Scheduler();
    const log: string[] = [];
    s.at(30, () => log.push('c'));
    s.at(10, () => log.push('a1'));
    s.at(10, () => log.push('a2'));
    const x = s.at(20, () => log.push('cancelled'));
    s.at(20, () => {
      log.push('b');
      s.after(0, () => log.push('b+0'));
      s.after(15, () => log.push('b+15'));
    });
    x.cancel();
    expect(s.runUntil(25)).toBe(4);
    expect(log).toEqual(['a1', 'a2', 'b', 'b+0']);
    expect(s.now).toBe(25);
    s.runUntil(100);
    expect(log).toEqual(['a1', 'a2', 'b', 'b+0', 'c', 'b+15']);
    expect(s.nextTime()).toBe(Infinity);
  });

  test('many events at one time run in the order they were scheduled', () => {
    const s = new Scheduler();
    const log: number[] = [];
    for (let i = 0; i < 50; i++) s.at(i % 3 === 0 ? 5 : 7, () => log.push(i));
    s.runUntil(10);
    const expected = [...Array.from({ length: 50 }, (_, i) => i).filter((i) => i % 3 === 0), ...Array.from({ length: 50 }, (_, i) => i).filter((i) => i % 3 !== 0)];
    expect(log).toEqual(expected);
  });

  test('the clock stands at each event while it runs; the past means now', () => {
    const s = new Scheduler();
    const seen: number[] = [];
    s.at(40, () => seen.push(s.now));
    s.runUntil(50);
    s.at(10, () => seen.push(s.now));
    s.runUntil(50);
    expect(seen).toEqual([40, 50]);
  });

  test('runWhile stops when the work is done or the limit is reached', () => {
    const s = new Scheduler();
    let done = false;
    s.at(1234, () => (done = true));
    expect(s.runWhile(() => !done, 10_000)).toBe(true);
    expect(s.now).toBeLessThan(1400);
    expect(s.runWhile(() => true, 2000)).toBe(false);
    expect(s.now).toBe(2000);
  });
});

describe('RealTimeDriver', () => {
  test('at speed 10 an event 1000 virtual ms away fires after 100 wall ms, not before', () => {
    const s = new Scheduler();
    const wall = new FakeWall();
    const d = new RealTimeDriver(s, { speed: 10, clock: wall });
    const fired: number[] = [];
    s.at(1000, () => fired.push(wall.now()));
    d.start();
    wall.advance(99);
    expect(fired).toEqual([]);
    wall.advance(1);
    expect(fired).toEqual([100]);
    expect(s.now).toBe(1000);
  });

  test('periodic events keep pace; an idle scheduler arms no timer', () => {
    const s = new Scheduler();
    const wall = new FakeWall();
    const d = new RealTimeDriver(s, { speed: 2, clock: wall });
    let frames = 0;
    const frame = (): void => {
      frames++;
      if (frames < 20) s.after(50, frame);
    };
    s.at(0, frame);
    d.start();
    wall.advance(250); // 500 virtual ms: frames at 0, 50, …, 500
    expect(frames).toBe(11);
    wall.advance(10_000);
    expect(frames).toBe(20);
    expect(wall.armed).toBe(0);
  });

  test('an event scheduled from outside re-arms the timer, and sync runs what is due', () => {
    const s = new Scheduler();
    const wall = new FakeWall();
    const d = new RealTimeDriver(s, { speed: 1, clock: wall });
    const fired: string[] = [];
    s.at(10_000, () => fired.push('late'));
    d.start();
    wall.t = 300; // time passes with no timer due
    expect(d.sync()).toBe(300);
    s.after(5, () => fired.push('soon'));
    wall.advance(5);
    expect(fired).toEqual(['soon']);
  });

  test('changing speed keeps the virtual clock continuous', () => {
    const s = new Scheduler();
    const wall = new FakeWall();
    const d = new RealTimeDriver(s, { speed: 1, clock: wall });
    d.start();
    wall.advance(100);
    d.speed = 10;
    expect(d.virtualNow()).toBe(100);
    wall.advance(10);
    expect(d.virtualNow()).toBe(200);
    expect(() => (d.speed = 0)).toThrow(RangeError);
  });
});
