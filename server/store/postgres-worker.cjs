// The thread that talks to PostgreSQL for one game log, so the service's thread can wait for each answer.
//
// Plain CommonJS: a worker thread does not inherit the TypeScript loader of the thread that starts it,
// and a require()d entry skips the ESM loader hooks, which slow a worker's start three times over.
// One request at a time arrives on `port` (the caller is blocked until it has its answer); the answer
// is posted back first and `signal` raised after, so it is there when the caller wakes.
'use strict';
const { workerData } = require('node:worker_threads');
const pg = require('pg');

const { port, signal, connection } = workerData;

// Times, ids and counts are whole numbers the store checked to be safe integers on the way in.
pg.types.setTypeParser(pg.types.builtins.INT8, Number);
// JSON comes back as the text that was written; the store parses it, as it does SQLite's.
pg.types.setTypeParser(pg.types.builtins.JSON, (text) => text);

let client = null;
/** The connection broke between requests: the next request says so, or reconnects. */
let lost = null;
/** Statements every connection runs first (its durability settings), again after a reconnect. */
let setup = [];
/** The server process of the connection now (or of the one a new thread replaces): `{ pid, start }`. */
let backend = null;

port.on('message', async (request) => {
  let answer;
  try {
    answer = { ok: true, value: await perform(request) };
  } catch (error) {
    answer = { ok: false, error: { message: error?.message ?? String(error), code: error?.code, detail: error?.detail } };
  }
  port.postMessage(answer);
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
});

async function perform(request) {
  switch (request.op) {
    case 'connect':
      setup = request.setup;
      backend = request.replaces ?? null;
      await connect();
      return backend;
    case 'query': {
      // A connection lost between transactions (the server restarted) is replaced; one lost inside
      // a transaction is not, since what the transaction wrote is gone with it.
      if (lost && request.reconnect) {
        try {
          await connect();
        } catch (error) {
          // Whatever the server said (not accepting connections, too many of them), the log is out of reach.
          lost = new Error(`the connection to PostgreSQL was lost and could not be made again (${error?.message ?? String(error)})`);
          throw lost;
        }
      }
      if (lost) throw lost;
      if (!client) throw new Error('not connected');
      const result = await client.query({ text: request.sql, values: request.params, name: request.name });
      return { rows: result.rows, rowCount: result.rowCount, command: result.command, backend };
    }
    case 'end': {
      const ending = client;
      client = null;
      if (!lost) await ending?.end();
      return null;
    }
    default:
      throw new Error(`unknown request ${String(request.op)}`);
  }
}

async function connect() {
  const old = client;
  client = null;
  lost = null;
  old?.end().catch(() => {});
  const fresh = new pg.Client({ connectionString: connection.url, connectionTimeoutMillis: connection.timeoutMs, application_name: 'spieltisch' });
  fresh.on('error', (error) => {
    if (client === fresh) lost = error;
  });
  fresh.on('end', () => {
    if (client === fresh) lost ??= new Error('the connection to PostgreSQL was closed');
  });
  await fresh.connect();
  for (const sql of setup) await fresh.query(sql);
  // A write the old connection was making when it was lost may still be under way on the server, and
  // commit later. It is ended, and waited for, so that what it did is settled before the log looks for
  // it or writes it again. Its start time tells it apart from a later process given the same pid.
  if (backend) {
    await fresh
      .query('SELECT pg_terminate_backend(pid, $3) FROM pg_stat_activity WHERE pid = $1 AND backend_start = $2::timestamptz', [backend.pid, backend.start, Math.floor(connection.timeoutMs / 2)])
      .catch(() => {});
  }
  const { rows } = await fresh.query(`SELECT pg_backend_pid() AS pid, backend_start::text AS start FROM pg_stat_activity WHERE pid = pg_backend_pid()`);
  backend = rows[0] ?? null;
  client = fresh;
}
