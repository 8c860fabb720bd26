import { randomUUID } from 'node:crypto';
import { type Kysely, sql, type Updateable } from 'kysely';
import { monotonicFactory } from 'ulid';
import { inboxTable, toInboxEntry } from '../sql/inbox-table.js';
import type { InboxTable } from '../sql/table.js';
import { type SqlDialectName, type StoreDatabase, toInstant } from '../sql/table.js';
import * as rules from './input-rules.js';
import type {
  CallbackInbox,
  InboxAppend,
  InboxBacklog,
  InboxClaim,
  InboxClaimOptions,
  InboxEntry,
  InboxFinish,
  InboxListOptions,
  InboxPruneOptions,
} from './types.js';
import { inboxPruneBatchSize } from './types.js';

const nextId = monotonicFactory();

/** The SQL stores' inbox: the unique `dedup_key` makes dedup atomic across processes. */
export class SqlCallbackInbox implements CallbackInbox {
  readonly #db: () => Kysely<StoreDatabase>;
  readonly #dialect: SqlDialectName;
  readonly #now: () => Date;
  /** `db` is asked on every call, so a closed store's inbox refuses work too. */
  constructor(db: () => Kysely<StoreDatabase>, dialect: SqlDialectName, now: () => Date) {
    this.#db = db;
    this.#dialect = dialect;
    this.#now = now;
  }
  /** One INSERT, one commit: durable when it resolves; a concurrent duplicate waits, then counts. */
  async append(input: InboxAppend): Promise<{ entry: InboxEntry; duplicate: boolean }> {
    const parsed = rules.parseAppend(input);
    const db = this.#db();
    const receivedAt = this.#instant(parsed.receivedAt ?? this.#now());
    const inserted = await db
      .insertInto(inboxTable)
      .values({
        id: nextId(),
        dedup_key: parsed.dedupKey,
        method: parsed.method,
        url: parsed.url,
        headers: JSON.stringify(parsed.headers),
        body: parsed.body,
        claim: JSON.stringify(parsed.claim),
        payment_reference: parsed.claim.paymentReference,
        status: 'pending',
        duplicates: 0,
        attempts: 0,
        due_at: parsed.dueAt ? this.#instant(parsed.dueAt) : receivedAt,
        received_at: receivedAt,
      })
      .onConflict((oc) => oc.column('dedup_key').doNothing())
      .returningAll()
      .executeTakeFirst();
    if (inserted) return { entry: toInboxEntry(inserted), duplicate: false };
    const counted = await db
      .updateTable(inboxTable)
      .set((eb) => ({ duplicates: eb('duplicates', '+', 1) }))
      .where('dedup_key', '=', parsed.dedupKey)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { entry: toInboxEntry(counted), duplicate: true };
  }
  async claim(options: InboxClaimOptions): Promise<InboxClaim[]> {
    const { leaseMs, limit } = rules.parseClaimOptions(options);
    const now = this.#now();
    const nowValue = this.#instant(now);
    const token = randomUUID();
    const leaseUntil = this.#instant(new Date(now.getTime() + leaseMs));
    const db = this.#db();
    const due = db
      .selectFrom(inboxTable)
      .select('id')
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'pending'), eb('due_at', '<=', nowValue)]),
          eb.and([eb('status', '=', 'processing'), eb('lease_until', '<=', nowValue)]),
        ]),
      )
      .orderBy('due_at')
      .orderBy('id')
      .limit(limit)
      .$if(this.#dialect === 'postgres', (qb) => qb.forUpdate().skipLocked());
    const rows = await db
      .updateTable(inboxTable)
      .set((eb) => ({
        status: 'processing',
        lease_token: token,
        lease_until: leaseUntil,
        attempts: eb('attempts', '+', 1),
      }))
      .where('id', 'in', due)
      .returningAll()
      .execute();
    return rows
      .map(toInboxEntry)
      .sort((a, b) => a.dueAt.getTime() - b.dueAt.getTime() || a.id.localeCompare(b.id))
      .map((entry) => ({ entry, token }));
  }
  async finish(id: string, token: string, finish: InboxFinish): Promise<boolean> {
    const parsed = rules.parseFinish(id, token, finish);
    if (parsed.status === 'pending') {
      const { dueAt, error } = parsed;
      return this.#fenced(id, token, {
        status: 'pending',
        due_at: this.#instant(dueAt),
        ...(error === undefined ? {} : { last_error: error }),
      });
    }
    const processed_at = this.#instant(this.#now());
    return parsed.status === 'done'
      ? this.#fenced(id, token, { status: 'done', outcome: parsed.outcome, processed_at })
      : this.#fenced(id, token, {
          status: 'dead',
          outcome: 'dead',
          last_error: parsed.error,
          processed_at,
        });
  }
  async requeue(id: string): Promise<InboxEntry> {
    rules.parseEntryId('inbox.requeue', id);
    // One conditional statement: of two people requeuing at once, one wins, the other is told.
    const row = await this.#db()
      .updateTable(inboxTable)
      .set({
        status: 'pending',
        attempts: 0,
        due_at: this.#instant(this.#now()),
        outcome: null,
        processed_at: null,
      })
      .where('id', '=', id)
      .where('status', '=', 'dead')
      .returningAll()
      .executeTakeFirst();
    if (row) return toInboxEntry(row);
    throw rules.notRequeued(id, (await this.get(id))?.status);
  }
  async get(id: string): Promise<InboxEntry | undefined> {
    rules.parseEntryId('inbox.get', id);
    const row = await this.#db()
      .selectFrom(inboxTable)
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toInboxEntry(row);
  }
  async backlog(): Promise<InboxBacklog> {
    const now = this.#instant(this.#now());
    // One statement, one snapshot.
    const row = await this.#db()
      .selectFrom(inboxTable)
      .select([
        sql<number>`count(case when status = 'pending' and due_at <= ${now} then 1 end)`.as('due'),
        sql<number>`count(case when status = 'processing' then 1 end)`.as('processing'),
        sql<number>`count(case when status = 'pending' and due_at > ${now} then 1 end)`.as(
          'scheduled',
        ),
      ])
      .where('status', 'in', ['pending', 'processing'])
      .executeTakeFirstOrThrow();
    return {
      due: Number(row.due),
      processing: Number(row.processing),
      scheduled: Number(row.scheduled),
    };
  }
  async list(options?: InboxListOptions): Promise<InboxEntry[]> {
    const { status, outcome, paymentReference, limit } = rules.parseListOptions(options);
    const rows = await this.#db()
      .selectFrom(inboxTable)
      .selectAll()
      .$if(status !== undefined, (qb) => qb.where('status', '=', status as string))
      .$if(outcome !== undefined, (qb) => qb.where('outcome', '=', outcome as string))
      .$if(paymentReference !== undefined, (qb) =>
        qb.where('payment_reference', '=', paymentReference as string),
      )
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toInboxEntry);
  }
  async prune(options: InboxPruneOptions): Promise<{ deleted: number }> {
    const { olderThan, limit, outcomes } = rules.parsePruneOptions(options, this.#now());
    const cutoff = this.#instant(olderThan);
    let deleted = 0;
    while (deleted < limit) {
      const batch = Math.min(inboxPruneBatchSize, limit - deleted);
      const db = this.#db();
      const finished = db
        .selectFrom(inboxTable)
        .select('id')
        // Served by the partial index on processed_at, in finish order.
        .where('processed_at', '<', cutoff)
        // `not in`, which no index serves: `in ('done', 'dead')` led SQLite to the due index.
        .where('status', 'not in', ['pending', 'processing'])
        .$if(outcomes !== undefined, (qb) => qb.where('outcome', 'in', outcomes as string[]))
        .orderBy('processed_at')
        .limit(batch)
        .$if(this.#dialect === 'postgres', (qb) => qb.forUpdate().skipLocked());
      const result = await db.deleteFrom(inboxTable).where('id', 'in', finished).executeTakeFirst();
      const count = Number(result.numDeletedRows);
      deleted += count;
      if (count < batch) break;
    }
    return { deleted };
  }
  async #fenced(id: string, token: string, values: Updateable<InboxTable>): Promise<boolean> {
    const result = await this.#db()
      .updateTable(inboxTable)
      .set({ ...values, lease_token: null, lease_until: null })
      .where('id', '=', id)
      .where('status', '=', 'processing')
      .where('lease_token', '=', token)
      .where('lease_until', '>', this.#instant(this.#now()))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
  #instant(value: Date): Date | string {
    return toInstant(this.#dialect, value);
  }
}
