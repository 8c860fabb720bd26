import type Database from 'better-sqlite3';
import { type InboxRow, inboxTable } from '../sql/inbox-table.js';
import { inFileTurn } from '../sqlite-open-files.js';

/** The columns an append writes, in the order of {@link insertSql}'s parameters. */
export type InboxInsert = readonly [
  id: string,
  dedupKey: string,
  method: string,
  url: string,
  headers: string,
  body: string,
  claim: string,
  paymentReference: string,
  dueAt: string,
  receivedAt: string,
];

/**
 * What became of one insert of a group: stored new, counted as a duplicate of the stored row
 * (returned as it is now), or refused by the database.
 */
export type RowOutcome =
  | { kind: 'inserted' }
  | { kind: 'duplicate'; row: InboxRow }
  | { kind: 'failed'; error: unknown };

/**
 * Writes a group of inserts and resolves once they are committed, with one outcome per insert
 * in order. A group is one transaction; when it fails, its inserts are tried again one per
 * transaction so one bad row cannot fail the others.
 */
export type GroupWrite = (inserts: readonly InboxInsert[]) => Promise<RowOutcome[]>;

export const insertSql = `insert into ${inboxTable}
  (id, dedup_key, method, url, headers, body, claim, payment_reference, status, duplicates,
   attempts, due_at, received_at)
  values (?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, 0, ?, ?)
  on conflict (dedup_key) do nothing`;
export const countDuplicateSql = `update ${inboxTable} set duplicates = duplicates + 1
  where dedup_key = ? returning *`;

/**
 * The group write on the store's own connection, on the event loop: for databases another
 * connection cannot share (`:memory:`) or that are not in WAL mode. While its commit (and fsync)
 * runs, the event loop waits; {@link SqliteInboxWriter} is the file-backed default.
 */
export function inThreadGroupWrite(database: Database.Database): GroupWrite {
  let transaction: ((inserts: readonly InboxInsert[]) => Array<InboxRow | null>) | undefined;
  const prepared = () => {
    if (transaction) return transaction;
    const insert = database.prepare(insertSql);
    const countDuplicate = database.prepare(countDuplicateSql);
    const group = database.transaction((inserts: readonly InboxInsert[]) =>
      inserts.map((values) =>
        insert.run(...values).changes === 1 ? null : (countDuplicate.get(values[1]) as InboxRow),
      ),
    );
    // IMMEDIATE: take the write lock at BEGIN, so a busy database fails (or waits) before any
    // statement runs, never half-way.
    transaction = (inserts) => {
      // Inside someone else's transaction better-sqlite3 would nest (a SAVEPOINT), and their
      // rollback would take these callbacks with it after they were acknowledged: refuse.
      if (database.inTransaction) {
        throw new Error('The SQLite connection is inside another transaction; try again.');
      }
      return group.immediate(inserts);
    };
    return transaction;
  };
  // Another store of this process on the file goes first (sqlite-open-files.ts).
  return (inserts) =>
    inFileTurn(database, () => {
      const write = prepared();
      try {
        return write(inserts).map(toOutcome);
      } catch {
        return inserts.map((values): RowOutcome => {
          try {
            return toOutcome(write([values])[0] ?? null);
          } catch (error) {
            return { kind: 'failed', error };
          }
        });
      }
    });
}

function toOutcome(row: InboxRow | null): RowOutcome {
  return row === null ? { kind: 'inserted' } : { kind: 'duplicate', row };
}
