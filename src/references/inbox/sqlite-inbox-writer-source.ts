/**
 * The code of the SQLite inbox's writer thread (see sqlite-inbox-writer.ts), run with
 * `new Worker(source, { eval: true })`. Kept as text rather than a file of its own so that the
 * ESM and CJS builds need no extra entry point and no path to find at run time. It opens its
 * own connection to the store's file and answers each group only once it is committed:
 * - in  `{ id, inserts }`                → out `{ id, outcomes }` (one per insert, in order):
 *   `null` stored new; `{ row }` a duplicate, counted; `{ error: { name, message, code } }`.
 * - in  `{ id, settings: true }`        → out `{ id, settings }`: the connection's
 *   `wal_autocheckpoint`, `synchronous` and `busy_timeout` (what a test checks it kept).
 * - in  `{ walAutocheckpoint }`         → sets it on the connection (the checkpointer started or
 *   is gone).
 * - out `{ changed: true }`             → `pokeRows` more callbacks committed: the main thread
 *   pokes the store file's checkpointer.
 * - in  `{ close: true }`                → closes the connection; the thread ends.
 * The group logic is the same as `inThreadGroupWrite` (sqlite-group-write.ts).
 *
 * Checkpoints (copying the WAL into the database file) are not run by this connection's
 * commits but by the store file's one checkpointer thread (sql/sqlite-checkpointer.ts), which
 * this thread pokes through the main thread. Its own `wal_autocheckpoint` (`workerData`, then
 * messages) stays on, set high, as the bound on the WAL should the checkpointer fall behind; if
 * the checkpointer cannot start or dies, the default comes back and commits checkpoint as
 * before.
 */
export const writerThreadSource = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const database = new Database(workerData.file, { fileMustExist: true });
database.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
database.pragma('synchronous = ' + workerData.synchronous);
database.pragma('wal_autocheckpoint = ' + workerData.walAutocheckpoint);
let rowsSinceCheckpoint = 0;
const insert = database.prepare(workerData.insertSql);
const countDuplicate = database.prepare(workerData.countDuplicateSql);
const group = database.transaction((inserts) =>
  inserts.map((values) => (insert.run(...values).changes === 1 ? null : { row: countDuplicate.get(values[1]) })),
);
const described = (error) => ({
  name: error && error.name ? String(error.name) : 'Error',
  message: error && error.message ? String(error.message) : String(error),
  code: error && error.code ? String(error.code) : undefined,
});
parentPort.on('message', (message) => {
  if (message.close) {
    database.close();
    parentPort.close();
    return;
  }
  if (message.walAutocheckpoint !== undefined) {
    database.pragma('wal_autocheckpoint = ' + message.walAutocheckpoint);
    return;
  }
  if (message.settings) {
    parentPort.postMessage({
      id: message.id,
      settings: {
        walAutocheckpoint: database.pragma('wal_autocheckpoint', { simple: true }),
        synchronous: database.pragma('synchronous', { simple: true }),
        busyTimeout: database.pragma('busy_timeout', { simple: true }),
      },
    });
    return;
  }
  let outcomes;
  try {
    outcomes = group.immediate(message.inserts);
  } catch {
    outcomes = message.inserts.map((values) => {
      try {
        return group.immediate([values])[0];
      } catch (error) {
        return { error: described(error) };
      }
    });
  }
  parentPort.postMessage({ id: message.id, outcomes });
  rowsSinceCheckpoint += message.inserts.length;
  if (workerData.pokeRows > 0 && rowsSinceCheckpoint >= workerData.pokeRows) {
    rowsSinceCheckpoint = 0;
    parentPort.postMessage({ changed: true });
  }
});
`;
