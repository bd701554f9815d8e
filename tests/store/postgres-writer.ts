// Child process of postgres-serve.test.ts: one table's service writing to the shared PostgreSQL log at
// the same time as others. Starts its own games, and appends to one game every writer shares; prints
// every seq the log gave it, as JSON, once done.
import { writeSync } from 'node:fs';
import { openGameLog } from '../../server/store/index.ts';

const [url, board, gamesText, eventsText, sharedText] = process.argv.slice(2);
const [games, events, shared] = [Number(gamesText), Number(eventsText), Number(sharedText)];
const log = openGameLog(url);
const own: Record<number, number[]> = {};
const toShared: number[] = [];
for (let g = 0; g < games; g++) {
  const id = log.startGame({ game: 'kalaha', options: {}, players: { south: board, north: 'Ben' }, boardId: board, source: 'simulated', at: g });
  own[id] = [];
  for (let e = 1; e <= events; e++) {
    own[id].push(log.append(id, { kind: 'move', at: e, payload: { board, game: g, e } }));
    // Every writer's appends to one game interleave: the hard case for seq.
    toShared.push(log.append(shared, { kind: 'note', at: e, payload: { board, n: toShared.length + 1 } }));
  }
  own[id].push(log.endGame(id, { at: events + 1, result: { winner: 'south' } }));
}
log.close();
writeSync(1, `${JSON.stringify({ own, shared: toShared })}\n`);
