import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { EffectClaim, EffectState } from '../effects.js';
import {
  type SqlDialectName,
  type StoreDatabase,
  toInstant,
  toRecord,
  transactionsTable,
} from './table.js';

/**
 * The effect outbox in SQL (docs/reference-store.md § Effects): the columns an effect state
 * writes, the claim, and the fenced writes that finish a claim.
 */

/** The columns of an effect state; a new state always drops any lease. */
export function effectColumns(dialect: SqlDialectName, effect: EffectState) {
  return {
    effect_status: effect.status,
    effect_attempts: effect.attempts,
    effect_due_at: effect.dueAt && toInstant(dialect, effect.dueAt),
    effect_last_error: effect.lastError,
    effect_completed_at: effect.completedAt && toInstant(dialect, effect.completedAt),
    effect_lease_token: null,
    effect_lease_until: null,
  };
}

/**
 * Leases due effects (and running ones whose lease expired) under one fresh token: with the
 * merchant reference it names exactly one lease. Concurrent claimers on PostgreSQL skip each
 * other's rows instead of waiting.
 */
export async function claimEffectRows(
  db: Kysely<StoreDatabase>,
  dialect: SqlDialectName,
  options: { leaseMs: number; limit: number; merchantReference: string | undefined },
  now: Date,
): Promise<EffectClaim[]> {
  const { leaseMs, limit, merchantReference } = options;
  const at = toInstant(dialect, now);
  const token = randomUUID();
  return db.transaction().execute(async (trx) => {
    const picked = await trx
      .selectFrom(transactionsTable)
      .select('merchant_reference')
      .where((eb) =>
        eb.or([
          eb.and([eb('effect_status', '=', 'due'), eb('effect_due_at', '<=', at)]),
          eb.and([eb('effect_status', '=', 'running'), eb('effect_lease_until', '<=', at)]),
        ]),
      )
      .$if(merchantReference !== undefined, (qb) =>
        qb.where('merchant_reference', '=', merchantReference as string),
      )
      .orderBy('effect_due_at', 'asc')
      .orderBy('merchant_reference', 'asc')
      .limit(limit)
      .$if(dialect === 'postgres', (qb) => qb.forUpdate().skipLocked())
      .execute();
    if (picked.length === 0) return [];
    const rows = await trx
      .updateTable(transactionsTable)
      .set((eb) => ({
        effect_status: 'running',
        effect_attempts: eb('effect_attempts', '+', 1),
        effect_lease_token: token,
        effect_lease_until: toInstant(dialect, new Date(now.getTime() + leaseMs)),
      }))
      .where(
        'merchant_reference',
        'in',
        picked.map((row) => row.merchant_reference),
      )
      .returningAll()
      .execute();
    // UPDATE … RETURNING has no order: give the claims back in the order they were picked.
    const order = picked.map((row) => row.merchant_reference);
    return rows
      .map((row) => ({ record: toRecord(row), token }))
      .sort(
        (a, b) =>
          order.indexOf(a.record.merchantReference) - order.indexOf(b.record.merchantReference),
      );
  });
}

/**
 * Writes `columns` only while `token` holds an unexpired lease on the running effect — one
 * statement, so a worker whose lease expired (and was claimed by another) writes nothing.
 */
export async function fencedEffectWrite(
  db: Kysely<StoreDatabase>,
  dialect: SqlDialectName,
  reference: string,
  token: string,
  now: Date,
  columns: {
    effect_status: string;
    effect_due_at: Date | string | null;
    effect_last_error: string | null;
    effect_completed_at?: Date | string;
  },
): Promise<boolean> {
  const result = await db
    .updateTable(transactionsTable)
    .set({ ...columns, effect_lease_token: null, effect_lease_until: null })
    .where('merchant_reference', '=', reference)
    .where('effect_status', '=', 'running')
    .where('effect_lease_token', '=', token)
    .where('effect_lease_until', '>', toInstant(dialect, now))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
