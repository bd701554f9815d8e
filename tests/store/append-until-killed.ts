// Child process of durability.test.ts: appends to its board's live game (or a new one) until it is
// killed, acknowledging each event on stdout only after append has returned.
import { writeSync } from 'node:fs';
import { openGameLog } from '../../server/store/index.ts';

const [file] = process.argv.slice(2);
const log = openGameLog(file);
const gameId =
  log.liveGame('durability')?.id ??
  log.startGame({ game: 'kalaha', options: {}, players: { south: 'Anna', north: 'Ben' }, boardId: 'durability', source: 'simulated', at: 0 });
// writeSync, because stdout on a pipe is asynchronous on some platforms and this loop never yields.
writeSync(1, `game ${gameId}\n`);
let seq = log.events(gameId).at(-1)?.seq ?? 0;
// A cap, so a child whose parent died does not write forever; the parent sees an exit, not a kill, and fails.
for (let n = 0; n < 200_000; n++) {
  seq += 1;
  // Time and payload are functions of the seq, so the parent checks contents, not only counts.
  const written = log.append(gameId, { kind: 'move', at: seq, payload: { seq, pit: seq % 12 } });
  if (written !== seq) throw new Error(`expected seq ${seq}, the log gave ${written}`);
  writeSync(1, `ack ${seq}\n`);
}
process.exitCode = 3;
