import { sqliteThreadSource } from './sqlite-thread-source.js';

/**
 * The code of the reconciler's schedule thread (see sqlite-schedule-worker.ts), after the start
 * every store thread shares (sqlite-thread-source.ts: its connection, `close`,
 * `walAutocheckpoint`). On its own connection to the store's file it runs the lease pages and release batches that `SqliteScheduleWrites` (schedule-sqlite.ts) runs on the
 * store's connection: the same statements (`workerData.sql`, from schedule-sqlite-rows.ts), the
 * same IMMEDIATE transactions, the same fence (a release whose token is no longer the record's
 * writes nothing and answers false).
 * - in  `{ id, lease: { key, dueSql, parameters, expires, observations } }`
 *   → out `{ id, rows, logs?, changes }`: the leased rows as arrays of values (the main thread
 *   builds the records), the check-log entries when asked for.
 * - in  `{ id, release: { rows, now } }` → out `{ id, released, changes }`: one boolean per row.
 * - out `{ id, error: { name, message, code } }` when SQLite refused (busy past the timeout, I/O).
 * `changes`: rows this connection changed since its last answer, for the main thread to poke
 * the store file's checkpointer (it cannot see this connection's writes).
 */
export const scheduleThreadSource = sqliteThreadSource(`
const sql = workerData.sql;
const maxObservations = workerData.maxObservations;
const statements = {
  release: database.prepare(sql.release),
  append: database.prepare(sql.append),
  trim: database.prepare(sql.trim),
  lease: database.prepare(sql.lease),
  leased: database.prepare(sql.leased).raw(true),
  logs: database.prepare(sql.logs).raw(true),
};
const totalChanges = database.prepare('select total_changes()').pluck();
let changesAnswered = totalChanges.get();
const dueStatements = new Map();
const lease = database.transaction((due, parameters, expires) => {
  const references = due.all(parameters);
  if (references.length === 0) return [];
  const list = JSON.stringify(references);
  statements.lease.run(expires, list);
  return statements.leased.all(list);
});
const releaseOne = (row, now) => {
  const counted = row[3];
  const observation = row[5];
  const done = statements.release.get(
    row[2], counted, row[4], counted, counted, now, observation === null ? 0 : 1, row[0], row[1],
  );
  if (!done) return false;
  if (observation !== null) {
    const seq = Number(done.check_log_seq);
    statements.append.run(row[0], seq, observation);
    if (seq > maxObservations) statements.trim.run(row[0], seq - maxObservations);
  }
  return true;
};
const release = database.transaction((rows, now) => rows.map((row) => releaseOne(row, now)));
const changes = () => {
  const total = totalChanges.get();
  const since = total - changesAnswered;
  changesAnswered = total;
  return since;
};
serve((message) => {
  try {
    if (message.lease) {
      const asked = message.lease;
      let due = dueStatements.get(asked.key);
      if (!due) {
        due = database.prepare(asked.dueSql).pluck(true);
        dueStatements.set(asked.key, due);
      }
      const rows = lease.immediate(due, asked.parameters, asked.expires);
      const logs = asked.observations
        ? statements.logs.all(JSON.stringify(rows.map((row) => row[workerData.referenceColumn])))
        : undefined;
      parentPort.postMessage({ id: message.id, rows, logs, changes: changes() });
      return;
    }
    const released = release.immediate(message.release.rows, message.release.now);
    parentPort.postMessage({ id: message.id, released, changes: changes() });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: described(error) });
  }
});
`);
