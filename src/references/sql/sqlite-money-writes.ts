import type Database from 'better-sqlite3';
import { isInvalidTransitionError } from '../../errors/invalid-transition-error.js';
import { TransactionNotFoundError } from '../../errors/transaction-not-found-error.js';
import type { EffectState } from '../effects.js';
import type { ParsedTransition } from '../input-rules.js';
import {
  newReferences,
  ownedElsewhere,
  platformReferenceFields,
  type StatusChange,
  statusChange,
} from '../record-changes.js';
import { fileBusyElsewhere } from '../sqlite-open-files.js';
import type { References, TransactionIntent, TransactionRecord } from '../types.js';
import {
  recordColumns,
  referenceColumns,
  type TransactionRow,
  toCents,
  toRecord,
  transactionsTable,
} from './table.js';

/**
 * The money call's two writes on SQLite — the intent before sending, the answer after — as
 * hand-written SQL on statements prepared once, run synchronously on better-sqlite3. Through
 * Kysely each query was built, compiled and awaited, with a read back after every write; that
 * was most of a money call's store cost, far above SQLite's own work. The rules are the same
 * ones every store applies (record-changes.ts), the unique constraints stay the authority, and
 * the answer is one IMMEDIATE transaction: the write lock is taken at BEGIN, so no other
 * connection can claim a reference between the ownership check and the UPDATE.
 *
 * Both methods answer `undefined` when the connection is inside a transaction someone else
 * opened (a Kysely transaction awaiting between statements): a statement run now would join
 * that transaction and share its fate, so the caller takes its ordinary path, which waits its
 * turn.
 */
export class SqliteMoneyWrites {
  readonly #database: Database.Database;
  #statements: Statements | undefined;
  /** UPDATE statements by the columns they set (a handful of shapes). */
  readonly #updates = new Map<string, Database.Statement>();
  /** Ownership queries by the number of values checked (1–5). */
  readonly #owners = new Map<number, Database.Statement>();
  #answer: ((input: AnswerInput) => AnswerResult) | undefined;

  constructor(database: Database.Database) {
    this.#database = database;
  }

  /** Stores a parsed intent; its record, or undefined (see the class). */
  createIntent(intent: TransactionIntent, now: Date): TransactionRecord | undefined {
    if (this.#database.inTransaction || fileBusyElsewhere(this.#database)) return undefined;
    const at = now.toISOString();
    const cents = toCents(intent.amount);
    const metadata = JSON.stringify(intent.metadata ?? {});
    this.#prepared().insertIntent.run(
      intent.merchantReference,
      intent.product,
      intent.flow,
      cents,
      intent.msisdn ?? null,
      at,
      at,
      metadata,
    );
    // What the row reads back as (table.ts toRecord), without reading it back.
    return toRecord({
      merchant_reference: intent.merchantReference,
      product: intent.product,
      flow: intent.flow,
      amount_cents: cents,
      msisdn: intent.msisdn ?? null,
      status: 'initiating',
      status_reason: null,
      control_number: null,
      payment_reference: null,
      external_reference: null,
      txnid: null,
      refid: null,
      created_at: at,
      updated_at: at,
      attempted_at: null,
      last_checked_at: null,
      check_count: 0,
      last_payload: null,
      metadata,
      review: null,
      resolution: null,
      effect_status: 'none',
      effect_attempts: 0,
      effect_due_at: null,
      effect_last_error: null,
      effect_completed_at: null,
      effect_lease_token: null,
      effect_lease_until: null,
    });
  }

  /**
   * attachAndTransition without a lease token (see SqlReferenceStore.attachAndTransition for
   * the rules); undefined (see the class). A move the status table refuses is returned as
   * `refused`, for the caller to throw after the commit that still wrote the references.
   */
  attachAndTransition(input: AnswerInput): AnswerResult | undefined {
    if (this.#database.inTransaction || fileBusyElsewhere(this.#database)) return undefined;
    if (this.#answer === undefined) {
      const answer = this.#database.transaction((given: AnswerInput) => this.#writeAnswer(given));
      this.#answer = (given) => answer.immediate(given);
    }
    return this.#answer(input);
  }

  #writeAnswer({ merchantReference, refs, transition, now }: AnswerInput): AnswerResult {
    const statements = this.#prepared();
    const row = statements.readRecord.get(merchantReference) as LockedRow | undefined;
    if (row === undefined) throw new TransactionNotFoundError(merchantReference);
    const record = toRecord(row);
    const fresh = newReferences(record, refs);
    const claimed = platformReferenceFields.filter((field) => fresh[field] !== undefined);
    if (claimed.length > 0) this.#assertUnowned(merchantReference, claimed, fresh);
    let change: StatusChange | undefined;
    let refused: unknown;
    try {
      change = statusChange(record, transition, now);
    } catch (error) {
      if (!isInvalidTransitionError(error)) throw error;
      refused = error;
    }
    if (claimed.length === 0 && change === undefined) {
      return { record, changed: false, refused };
    }

    const at = now.toISOString();
    const columns: string[] = [];
    const values: unknown[] = [];
    const set = (column: string, value: unknown) => {
      columns.push(column);
      values.push(value);
    };
    const updated: TransactionRecord = { ...record, updatedAt: new Date(at) };
    for (const field of claimed) {
      set(referenceColumns[field], fresh[field]);
      updated[field] = fresh[field] as string;
    }
    set('updated_at', at);
    if (change !== undefined) {
      const attemptedAt = change.attemptedAt === null ? null : change.attemptedAt.toISOString();
      const review = change.review === null ? null : JSON.stringify(change.review);
      set('status', change.status);
      set('status_reason', change.statusReason);
      set('attempted_at', attemptedAt);
      updated.status = change.status;
      updated.statusReason = change.statusReason;
      updated.attemptedAt = attemptedAt === null ? null : new Date(attemptedAt);
      if (transition.hasPayload) {
        // parseTransition made the payload from this text: it is the store's own copy.
        set('last_payload', transition.payloadText);
        updated.lastPayload = change.lastPayload;
      }
      set('review', review);
      updated.review = review === null ? null : JSON.parse(review);
      // The effect columns are written when they change, or when a lease must be dropped (a
      // new state always drops any lease, as effectColumns does); else they hold these values.
      if (
        change.effect !== record.effect ||
        row.effect_lease_token !== null ||
        row.effect_lease_until !== null
      ) {
        for (const [column, value] of effectValues(change.effect)) set(column, value);
        updated.effect = copyEffect(change.effect);
      }
    }
    values.push(merchantReference);
    this.#update(columns).run(...values);
    return { record: updated, changed: change !== undefined, refused };
  }

  /**
   * Refuses a new reference value another record holds under any kind — one query for all of
   * them; only when it finds one, the values are checked one by one, in order, to name the
   * first conflict exactly as the per-value check does.
   */
  #assertUnowned(self: string, fields: readonly (keyof References)[], fresh: References): void {
    const values = fields.map((field) => fresh[field] as string);
    const anyOwner = this.#ownerQuery(values.length).get(self, ...repeat(values, 6));
    if (anyOwner === undefined) return;
    for (const field of fields) {
      const value = fresh[field] as string;
      const owner = this.#ownerQuery(1).get(self, ...repeat([value], 6)) as
        | { merchant_reference: string }
        | undefined;
      if (owner !== undefined) throw ownedElsewhere(self, field, value, owner.merchant_reference);
    }
  }

  #ownerQuery(count: number): Database.Statement {
    let statement = this.#owners.get(count);
    if (statement === undefined) {
      const list = `(${Array.from({ length: count }, () => '?').join(', ')})`;
      const kinds = ['merchant_reference', ...Object.values(referenceColumns)];
      statement = this.#database.prepare(
        `select merchant_reference from ${transactionsTable} where merchant_reference <> ? and (` +
          kinds.map((column) => `${column} in ${list}`).join(' or ') +
          ') limit 1',
      );
      this.#owners.set(count, statement);
    }
    return statement;
  }

  #update(columns: readonly string[]): Database.Statement {
    const key = columns.join(',');
    let statement = this.#updates.get(key);
    if (statement === undefined) {
      statement = this.#database.prepare(
        `update ${transactionsTable} set ${columns.map((column) => `${column} = ?`).join(', ')} ` +
          'where merchant_reference = ?',
      );
      this.#updates.set(key, statement);
    }
    return statement;
  }

  #prepared(): Statements {
    this.#statements ??= {
      insertIntent: this.#database.prepare(
        `insert into ${transactionsTable} (merchant_reference, product, flow, amount_cents, ` +
          'msisdn, status, status_reason, created_at, updated_at, check_count, last_payload, ' +
          'metadata, effect_status, effect_attempts) ' +
          "values (?, ?, ?, ?, ?, 'initiating', null, ?, ?, 0, null, ?, 'none', 0)",
      ),
      readRecord: this.#database.prepare(
        `select ${recordColumns.join(', ')} from ${transactionsTable} where merchant_reference = ?`,
      ),
    };
    return this.#statements;
  }
}

export interface AnswerInput {
  merchantReference: string;
  refs: References;
  transition: ParsedTransition;
  now: Date;
}

export interface AnswerResult {
  record: TransactionRecord;
  changed: boolean;
  refused: unknown;
}

interface Statements {
  insertIntent: Database.Statement;
  readRecord: Database.Statement;
}

type LockedRow = TransactionRow;
/** The effect columns as effectColumns (effects.ts) writes them on SQLite. */
function effectValues(effect: EffectState): Array<[string, unknown]> {
  return [
    ['effect_status', effect.status],
    ['effect_attempts', effect.attempts],
    ['effect_due_at', effect.dueAt === null ? null : effect.dueAt.toISOString()],
    ['effect_last_error', effect.lastError],
    ['effect_completed_at', effect.completedAt === null ? null : effect.completedAt.toISOString()],
    ['effect_lease_token', null],
    ['effect_lease_until', null],
  ];
}

/** The effect as it reads back: its instants are new Dates, at millisecond precision. */
function copyEffect(effect: EffectState): EffectState {
  return {
    ...effect,
    dueAt: effect.dueAt === null ? null : new Date(effect.dueAt.getTime()),
    completedAt: effect.completedAt === null ? null : new Date(effect.completedAt.getTime()),
  };
}

function repeat<T>(values: readonly T[], times: number): T[] {
  const all: T[] = [];
  for (let i = 0; i < times; i++) all.push(...values);
  return all;
}
