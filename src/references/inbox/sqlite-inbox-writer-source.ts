import { sqliteThreadSource } from '../sql/sqlite-thread-source.js';

/**
 * The code of the SQLite inbox's writer thread (see sqlite-inbox-writer.ts), after the start
 * every store thread shares (sql/sqlite-thread-source.ts: its connection, `close`,
 * `walAutocheckpoint`). It answers each group only once it is committed:
 * - in  `{ id, inserts }`                → out `{ id, outcomes }` (one per insert, in order):
 *   `null` stored new; `{ row }` a duplicate, counted; `{ error: { name, message, code } }`.
 * - in  `{ id, settings: true }`        → out `{ id, settings }`: the connection's
 *   `wal_autocheckpoint`, `synchronous` and `busy_timeout` (what a test checks it kept).
 * The group logic is the same as `inThreadGroupWrite` (sqlite-group-write.ts).
 *
 * Checkpoints (copying the WAL into the database file) are not run by this connection's
 * commits but by the store file's one checkpointer thread (sql/sqlite-checkpointer.ts), which
 * the main thread pokes as groups are answered. This connection's own `wal_autocheckpoint`
 * (`workerData`, then messages) stays on, set high, as the bound on the WAL should the
 * checkpointer fall behind; if the checkpointer cannot start or dies, the default comes back
 * and commits checkpoint as before.
 */
export const writerThreadSource = sqliteThreadSource(`
const insert = database.prepare(workerData.insertSql);
const countDuplicate = database.prepare(workerData.countDuplicateSql);
const group = database.transaction((inserts) =>
  inserts.map((values) => (insert.run(...values).changes === 1 ? null : { row: countDuplicate.get(values[1]) })),
);
serve((message) => {
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
});
`);
