// The table's outbox: in order, each event until the broker has it, bounded.
import { describe, expect, test } from 'vitest';
import { Outbox } from '../../server/mqtt/index.ts';

describe('Outbox', () => {
  test('hands events out oldest first and forgets each once acknowledged', () => {
    const box = new Outbox(10);
    for (let seq = 1; seq <= 3; seq++) box.push(seq, `e${seq}`);
    const a = box.next();
    const b = box.next();
    expect([a?.seq, b?.seq]).toEqual([1, 2]);
    expect([box.size, box.waiting, box.inFlight]).toEqual([3, 1, 2]);
    // Acknowledgements may come out of order; the front moves once the oldest is in.
    box.acked(b!);
    expect(box.size).toBe(3);
    box.acked(a!);
    expect([box.size, box.waiting, box.inFlight]).toEqual([1, 1, 0]);
    expect(box.next()?.seq).toBe(3);
    expect(box.next()).toBeNull();
  });

  test('an event that never reached the broker goes out again before the ones after it', () => {
    const box = new Outbox(10);
    for (let seq = 1; seq <= 4; seq++) box.push(seq, `e${seq}`);
    const sent = [box.next()!, box.next()!];
    box.failed(sent[0]);
    box.failed(sent[1]);
    expect([box.next()?.seq, box.next()?.seq, box.next()?.seq, box.next()?.seq]).toEqual([1, 2, 3, 4]);
  });

  test('a second acknowledgement of the same event changes nothing', () => {
    const box = new Outbox(10);
    box.push(1, 'e1');
    box.push(2, 'e2');
    const first = box.next()!;
    box.acked(first);
    box.acked(first);
    box.failed(first);
    expect([box.size, box.waiting]).toEqual([1, 1]);
  });

  test('full: new events are counted and dropped, the held ones keep their order', () => {
    const box = new Outbox(3);
    const kept = [1, 2, 3, 4, 5].map((seq) => box.push(seq, `e${seq}`));
    expect(kept).toEqual([true, true, true, false, false]);
    expect(box.dropped).toBe(2);
    const out: number[] = [];
    for (let e = box.next(); e; e = box.next()) {
      out.push(e.seq);
      box.acked(e);
    }
    expect(out).toEqual([1, 2, 3]);
    expect(box.size).toBe(0);
    expect(box.push(6, 'e6')).toBe(true);
  });

  test('a long run through the outbox keeps every event once, in order', () => {
    const box = new Outbox(5000);
    const out: number[] = [];
    let seq = 0;
    for (let round = 0; round < 300; round++) {
      for (let i = 0; i < 17; i++) box.push(++seq, String(seq));
      const sent = [];
      for (let i = 0; i < 13; i++) {
        const e = box.next();
        if (e) sent.push(e);
      }
      // The connection drops now and then: what was out comes back.
      if (round % 7 === 3) for (const e of sent) box.failed(e);
      else
        for (const e of sent) {
          out.push(e.seq);
          box.acked(e);
        }
    }
    for (let e = box.next(); e; e = box.next()) {
      out.push(e.seq);
      box.acked(e);
    }
    expect(out).toEqual(Array.from({ length: seq }, (_, i) => i + 1));
    expect(box.size).toBe(0);
  });
});
