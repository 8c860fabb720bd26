import type Database from 'better-sqlite3';

/**
 * The file behind `database` when another connection (a thread's) can share it: a file on disk
 * in WAL mode, open for writing. `undefined` for `:memory:`, a read-only handle or a rollback
 * journal — the inbox writer and the checkpointer then have nothing to share.
 */
export function sharedWalFile(database: Database.Database): string | undefined {
  if (database.memory || database.readonly) return undefined;
  const mode = String(database.pragma('journal_mode', { simple: true })).toLowerCase();
  if (mode !== 'wal') return undefined;
  const [main] = database.pragma('database_list') as Array<{ name: string; file: string }>;
  return main?.file ? main.file : undefined;
}
