import { type Kysely, sql } from 'kysely';
import { type InboxDatabase, inboxTable, toInboxEntry } from '../sql/inbox-table.js';
import type { InboxEntry } from './types.js';

export interface Appended {
  entry: InboxEntry;
  duplicate: boolean;
}

/** A row to insert, with the entry it becomes when the insert wins. */
export interface PendingAppend {
  row: {
    id: string;
    dedup_key: string;
    method: string;
    url: string;
    headers: string;
    body: string;
    claim: string;
    payment_reference: string;
    due_at: Date;
    received_at: Date;
  };
  entry: InboxEntry;
}

/** 13 parameters a row: well under PostgreSQL's 65,535 bind parameters. */
const MAX_GROUP = 500;

interface Waiting extends PendingAppend {
  resolve(appended: Appended): void;
  reject(error: unknown): void;
}

/**
 * Group commit for the PostgreSQL inbox: the appends of one event-loop turn go to the server as
 * ONE multi-row `INSERT … ON CONFLICT (dedup_key) DO NOTHING RETURNING id` (one round trip and
 * one commit for the group), then one `UPDATE … FROM (VALUES …)` counts the duplicates. Each
 * caller is answered after the statement that committed its row (or counted it) — durability
 * before the answer, unchanged. Dedup stays atomic: the unique key decides, also between two
 * equal callbacks of one group (the first is inserted, the second is a duplicate) and against
 * other processes (a concurrent insert of the same key waits for theirs to commit, then does
 * nothing). A group whose insert fails is tried again one callback per statement, so one bad
 * row fails alone.
 */
export class PostgresGroupAppender {
  readonly #db: () => Kysely<InboxDatabase>;
  #waiting: Waiting[] = [];
  #scheduled = false;

  constructor(db: () => Kysely<InboxDatabase>) {
    this.#db = db;
  }

  append(pending: PendingAppend): Promise<Appended> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ ...pending, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  #flush(): void {
    this.#scheduled = false;
    while (this.#waiting.length > 0) void this.#commit(this.#waiting.splice(0, MAX_GROUP));
  }

  async #commit(group: Waiting[]): Promise<void> {
    let won: Set<string>;
    try {
      won = await this.#insert(group);
    } catch (error) {
      // One statement: nothing of the group was written. Again one by one, so a bad row
      // fails alone.
      if (group.length === 1) group[0]?.reject(error);
      else await Promise.all(group.map((one) => this.#commit([one])));
      return;
    }
    const duplicates: Waiting[] = [];
    for (const one of group) {
      // Committed: the winners may be answered now.
      if (won.has(one.row.id)) one.resolve({ entry: one.entry, duplicate: false });
      else duplicates.push(one);
    }
    if (duplicates.length === 0) return;
    try {
      const counted = await this.#countDuplicates(duplicates);
      for (const one of duplicates) {
        const entry = counted.get(one.row.dedup_key);
        if (entry) one.resolve({ entry, duplicate: true });
        else
          one.reject(
            new Error('The inbox entry this callback repeats was not found; send it again.'),
          );
      }
    } catch (error) {
      // Already stored once: a duplicate answered 503 is sent again and counted then.
      for (const one of duplicates) one.reject(error);
    }
  }

  /** Inserts the group in one statement; the ids that were inserted (the others conflicted). */
  async #insert(group: Waiting[]): Promise<Set<string>> {
    const inserted = await this.#db()
      .insertInto(inboxTable)
      .values(
        // In key order: two processes inserting overlapping groups then wait on each other's
        // keys in the same order, never in a cycle (a deadlock PostgreSQL would break after a
        // second by aborting one group).
        [...group]
          .sort((a, b) => (a.row.dedup_key < b.row.dedup_key ? -1 : 1))
          .map(({ row }) => ({ ...row, status: 'pending', duplicates: 0, attempts: 0 })),
      )
      // Also between two rows of this statement: the first is inserted, the next does nothing.
      .onConflict((oc) => oc.column('dedup_key').doNothing())
      .returning('id')
      .execute();
    return new Set(inserted.map(({ id }) => id));
  }

  /** One UPDATE for every repeated key of the group; the entries as counted, by key. */
  async #countDuplicates(duplicates: Waiting[]): Promise<Map<string, InboxEntry>> {
    const perKey = new Map<string, number>();
    for (const { row } of duplicates)
      perKey.set(row.dedup_key, (perKey.get(row.dedup_key) ?? 0) + 1);
    const increments = [...perKey].map(([key, n]) => sql`when ${key} then ${n}::integer`);
    // A builder, not raw SQL, so that the store's schema applies to the table name.
    const rows = await this.#db()
      .updateTable(inboxTable)
      .set((eb) => ({
        duplicates: eb(
          'duplicates',
          '+',
          sql<number>`case ${sql.ref('dedup_key')} ${sql.join(increments, sql` `)} else 0 end`,
        ),
      }))
      // Rows locked in key order (see #insert): concurrent groups cannot deadlock here either.
      .where('id', 'in', (eb) =>
        eb
          .selectFrom(inboxTable)
          .select('id')
          .where('dedup_key', 'in', [...perKey.keys()])
          .orderBy('dedup_key')
          .forUpdate(),
      )
      .returningAll()
      .execute();
    return new Map(rows.map((row) => [row.dedup_key, toInboxEntry(row)]));
  }
}
