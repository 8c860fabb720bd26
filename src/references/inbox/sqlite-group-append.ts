import type Database from 'better-sqlite3';
import { type InboxRow, inboxTable, toInboxEntry } from '../sql/inbox-table.js';
import type { InboxEntry } from './types.js';

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

export interface Appended {
  entry: InboxEntry;
  duplicate: boolean;
}

/** Runs `work` while no other statement or transaction can use the connection. */
export type ExclusiveUse = (work: () => void) => Promise<void>;

const insertSql = `insert into ${inboxTable}
  (id, dedup_key, method, url, headers, body, claim, payment_reference, status, duplicates,
   attempts, due_at, received_at)
  values (?, ?, ?, ?, ?, ?, ?, ?, 'pending', 0, 0, ?, ?)
  on conflict (dedup_key) do nothing`;
const countDuplicateSql = `update ${inboxTable} set duplicates = duplicates + 1
  where dedup_key = ? returning *`;

/** At most this many callbacks in one transaction; more wait for the next one. */
const MAX_GROUP = 512;

interface Waiting {
  insert: InboxInsert;
  /** The entry as it will be stored, when the insert wins: no need to read it back. */
  entry: InboxEntry;
  resolve(appended: Appended): void;
  reject(error: unknown): void;
}

/**
 * Group commit for the SQLite inbox. Appends that arrive while a group is being gathered (one
 * turn of the event loop: everything the server parsed in the same I/O phase) are written in
 * ONE `BEGIN IMMEDIATE … COMMIT` — one WAL commit and fsync for the group instead of one per
 * callback — with statements prepared once on the raw better-sqlite3 handle. Each caller's
 * promise resolves only after the commit that contains its callback (durability before the
 * answer, unchanged). Dedup stays atomic: the unique `dedup_key` decides inside the
 * transaction, so the second of two equal callbacks in one group is a duplicate.
 *
 * When a group's transaction fails, its callbacks are tried again one per transaction, so one
 * bad row cannot fail the others; each caller gets its own callback's outcome.
 */
export class SqliteGroupAppender {
  readonly #database: Database.Database;
  readonly #exclusive: ExclusiveUse;
  #waiting: Waiting[] = [];
  #scheduled = false;
  #write: ((group: Waiting[]) => Appended[]) | undefined;

  constructor(database: Database.Database, exclusive: ExclusiveUse) {
    this.#database = database;
    this.#exclusive = exclusive;
  }

  append(insert: InboxInsert, entry: InboxEntry): Promise<Appended> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ insert, entry, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        // After the I/O phase: every callback parsed in it joins this group.
        setImmediate(() => this.#flush());
      }
    });
  }

  #flush(): void {
    this.#scheduled = false;
    this.#exclusive(() => {
      while (this.#waiting.length > 0) this.#commit(this.#waiting.splice(0, MAX_GROUP));
    }).catch((error: unknown) => {
      // The connection could not be had (the store closed meanwhile): nobody was written.
      for (const waiting of this.#waiting.splice(0)) waiting.reject(error);
    });
  }

  #commit(group: Waiting[]): void {
    let results: Appended[];
    try {
      results = this.#writer()(group);
    } catch {
      for (const one of group) {
        try {
          const [result] = this.#writer()([one]);
          one.resolve(result as Appended);
        } catch (error) {
          one.reject(error);
        }
      }
      return;
    }
    // Committed: only now may anyone be told their callback is stored.
    for (const [index, one] of group.entries()) one.resolve(results[index] as Appended);
  }

  #writer(): (group: Waiting[]) => Appended[] {
    if (this.#write) return this.#write;
    const insert = this.#database.prepare(insertSql);
    const countDuplicate = this.#database.prepare(countDuplicateSql);
    const transaction = this.#database.transaction((group: Waiting[]): Appended[] =>
      group.map(({ insert: values, entry }) => {
        if (insert.run(...values).changes === 1) return { entry, duplicate: false };
        const counted = countDuplicate.get(values[1]) as InboxRow;
        return { entry: toInboxEntry(counted), duplicate: true };
      }),
    );
    // IMMEDIATE: take the write lock at BEGIN, so a busy database fails (or waits) before any
    // statement runs, never half-way.
    this.#write = (group) => {
      // Inside someone else's transaction better-sqlite3 would nest (a SAVEPOINT), and their
      // rollback would take these callbacks with it after they were acknowledged: refuse.
      if (this.#database.inTransaction) {
        throw new Error('The SQLite connection is inside another transaction; try again.');
      }
      return transaction.immediate(group);
    };
    return this.#write;
  }
}
