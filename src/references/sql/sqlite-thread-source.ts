/**
 * The start every store thread's code shares (the inbox writer's, the schedule thread's, the
 * checkpointer's). Their code is text run with `new Worker(source, { eval: true })` rather than
 * a file of its own, so that the ESM and CJS builds need no extra entry point and no path to
 * find at run time. This part opens the thread's own connection to the store's file with the
 * store connection's settings (`workerData`: a SqliteThreadConnection, and
 * `walAutocheckpoint` when the thread writes), and gives the rest two names:
 * - `described(error)`: an error as plain data, for `errorFrom` (sqlite-thread-client.ts) on
 *   the main thread.
 * - `serve(answer, closing?)`: handles what every thread is sent the same way —
 *   `{ close: true }` closes the connection and ends the thread (after `closing()`),
 *   `{ walAutocheckpoint }` sets it on the connection (the file's checkpointer started or is
 *   gone) — and hands every other message to `answer`.
 */
const preamble = `
'use strict';
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const database = new Database(workerData.file, { fileMustExist: true });
database.pragma('busy_timeout = ' + workerData.busyTimeoutMs);
database.pragma('synchronous = ' + workerData.synchronous);
if (workerData.walAutocheckpoint !== undefined) {
  database.pragma('wal_autocheckpoint = ' + workerData.walAutocheckpoint);
}
const described = (error) => ({
  name: error && error.name ? String(error.name) : 'Error',
  message: error && error.message ? String(error.message) : String(error),
  code: error && error.code ? String(error.code) : undefined,
});
const serve = (answer, closing) => {
  parentPort.on('message', (message) => {
    if (message.close) {
      if (closing) closing();
      database.close();
      parentPort.close();
      return;
    }
    if (message.walAutocheckpoint !== undefined) {
      database.pragma('wal_autocheckpoint = ' + message.walAutocheckpoint);
      return;
    }
    answer(message);
  });
};
`;

/** A store thread's code: the shared start above, then `body` (which calls `serve`). */
export function sqliteThreadSource(body: string): string {
  return preamble + body;
}
