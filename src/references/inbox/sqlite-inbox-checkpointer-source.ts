import { sqliteThreadSource } from '../sql/sqlite-thread-source.js';

/**
 * The code of a SQLite store file's checkpointer thread, after the start every store thread
 * shares (sql/sqlite-thread-source.ts). Started (lazily) by the store's checkpointer
 * (sql/sqlite-checkpointer.ts), and poked both for the store's own connection and for the inbox
 * writer thread's.
 *
 * Why a thread of its own: SQLite's automatic checkpoint runs inside the COMMIT of whichever
 * connection pushed the WAL past `wal_autocheckpoint` pages — on the writer, so every few
 * hundred groups one commit also copied ~4 MB of WAL into the database file and fsynced it
 * (30–130 ms measured), and every callback waiting on that group or queued behind it waited
 * too: that was the fixed-rate p99. A checkpoint on another connection runs beside the writer's
 * commits (WAL: the checkpointer copies frames already committed while new ones are appended),
 * so the writer only commits. The same holds for the store's own connection (money calls'
 * intents and answers, the reconciler's leases), whose commits run on the event loop.
 *
 * - in  `{ changed: true }` (some connection committed a few MiB of WAL) → a PASSIVE checkpoint
 *   at once: about as often as SQLite's own (every 1,000 pages), so no more work
 *   than before, only elsewhere. When the WAL is not fully copied (commits kept coming), once
 *   more `settleMs` later, so that after a burst the WAL is copied in full and starts over.
 * - in  `{ close: true }` → stops the timer, closes the connection; the thread ends.
 * A failed checkpoint (busy, I/O) is only a late one: the writer's own `wal_autocheckpoint`
 * (set high, not off, on every connection of the file) still bounds the WAL if this thread falls behind or is gone.
 */
export const checkpointerThreadSource = sqliteThreadSource(`
let timer;
const run = () => {
  timer = undefined;
  let result;
  try {
    [result] = database.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    return; // the next commit's poke tries again
  }
  if (result && (result.busy !== 0 || result.log > result.checkpointed)) {
    timer = setTimeout(run, workerData.settleMs);
  }
};
serve(
  () => {
    clearTimeout(timer);
    timer = setTimeout(run, 0);
  },
  () => clearTimeout(timer),
);
`);
