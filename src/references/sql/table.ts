import type { ColumnType, Selectable } from 'kysely';
import type { Environment } from '../../core/endpoints.js';
import { centsToAmount } from '../../schemas/amount.js';
import type { Product } from '../../schemas/product.js';
import type { TransactionStatus } from '../../schemas/transaction-status.js';
import type { EffectStatus, Flow, PlatformReferenceField, TransactionRecord } from '../record.js';
import type { Resolution, ReviewVerdict } from '../review.js';

export type SqlDialectName = 'sqlite' | 'postgres';

/** SQLite keeps instants as ISO-8601 text (UTC, sortable); PostgreSQL as timestamptz. */
export type Instant = ColumnType<Date | string, Date | string, Date | string>;

export interface TransactionsTable {
  merchant_reference: string;
  product: string;
  flow: string;
  /** Whole cents; PostgreSQL's bigint reads as text. */
  amount_cents: ColumnType<number | string, number, number>;
  msisdn: string | null;
  provider: string | null;
  status: string;
  status_reason: string | null;
  control_number: string | null;
  payment_reference: string | null;
  external_reference: string | null;
  txnid: string | null;
  refid: string | null;
  created_at: Instant;
  updated_at: Instant;
  attempted_at: Instant | null;
  final_at: Instant | null;
  last_checked_at: Instant | null;
  check_count: number;
  /** JSON text, as are metadata, review and resolution. */
  last_payload: string | null;
  metadata: string;
  /** The record's account (`RecordAccount`); both NULL for a record written without one. */
  account_environment: string | null;
  account_login: string | null;
  review: string | null;
  resolution: string | null;
  effect_status: string;
  effect_attempts: number;
  effect_due_at: Instant | null;
  effect_last_error: string | null;
  effect_completed_at: Instant | null;
  effect_lease_token: string | null;
  effect_lease_until: Instant | null;
  /** The reconciler's schedule (NULL: due now) and lease. */
  next_check_at: Instant | null;
  lease_token: string | null;
  lease_expires_at: Instant | null;
  /** Generated: an open record's next check ('-infinity': never scheduled); NULL when not open. */
  check_due_at: ColumnType<Date | string | null, never, never>;
  /** The seq of the record's latest check-log entry (0: none yet). */
  check_log_seq: number;
  /** An open payout's hold on its account's wallet (amount plus charge); NULL once final. */
  float_account: string | null;
  float_cents: ColumnType<number | string | null, number | null, number | null>;
}

/** One row per observation, never rewritten; the oldest dropped past `maxObservations`. */
export interface CheckLogTable {
  merchant_reference: string;
  seq: number;
  observation: string;
}

/** A disbursement account's float: free = `balance_cents - (held_cents - settled_cents)`. */
export interface WalletsTable {
  account: string;
  /** The last balance read from the platform. */
  balance_cents: ColumnType<number | string, number, number>;
  /** Every hold since the row was made, less what failures released: open holds and successes. */
  held_cents: ColumnType<number | string, number, number>;
  /** The part of `held_cents` the last balance read already shows (successes before it began). */
  settled_cents: ColumnType<number | string, number, number>;
  read_at: Instant;
}

export interface InboxTable {
  id: string;
  dedup_key: string;
  method: string;
  url: string;
  /** JSON text, as is `claim`. */
  headers: string;
  body: string;
  claim: string;
  payment_reference: string;
  status: string;
  duplicates: number;
  attempts: number;
  due_at: Instant;
  lease_until: Instant | null;
  lease_token: string | null;
  last_error: string | null;
  outcome: string | null;
  received_at: Instant;
  processed_at: Instant | null;
}

/** A merchant account's shared rate limit: a token bucket (see `rate-limit/bucket.ts`). */
export interface RateLimitsTable {
  key: string;
  /** When the bucket is full again (`BucketState.fullAt`). */
  full_at: Instant;
  /** The end of the last pause a platform 429 asked for. */
  paused_until: Instant | null;
}

export interface StoreDatabase {
  pesakit_transactions: TransactionsTable;
  pesakit_check_log: CheckLogTable;
  pesakit_callback_inbox: InboxTable;
  pesakit_wallets: WalletsTable;
  pesakit_rate_limits: RateLimitsTable;
}

export const checkLogTable = 'pesakit_check_log';

export const transactionsTable = 'pesakit_transactions';

export const referenceColumns = {
  controlNumber: 'control_number',
  paymentReference: 'payment_reference',
  externalReference: 'external_reference',
  txnid: 'txnid',
  refid: 'refid',
} as const satisfies Record<PlatformReferenceField, keyof TransactionsTable>;

export type ReferenceColumn = (typeof referenceColumns)[PlatformReferenceField];

export function toInstant(dialect: SqlDialectName, value: Date): Date | string {
  return dialect === 'sqlite' ? value.toISOString() : value;
}

export function fromInstant(value: Date | string): Date;
export function fromInstant(value: Date | string | null): Date | null;
export function fromInstant(value: Date | string | null): Date | null {
  if (value === null) return null;
  return value instanceof Date ? value : new Date(value);
}

export function toRecord(row: Selectable<TransactionsTable>): TransactionRecord {
  return {
    merchantReference: row.merchant_reference,
    product: row.product as Product,
    flow: row.flow as Flow,
    amount: centsToAmount(Number(row.amount_cents)),
    msisdn: row.msisdn,
    provider: row.provider,
    status: row.status as TransactionStatus,
    statusReason: row.status_reason,
    controlNumber: row.control_number,
    paymentReference: row.payment_reference,
    externalReference: row.external_reference,
    txnid: row.txnid,
    refid: row.refid,
    createdAt: fromInstant(row.created_at),
    updatedAt: fromInstant(row.updated_at),
    attemptedAt: fromInstant(row.attempted_at),
    finalAt: fromInstant(row.final_at),
    lastCheckedAt: fromInstant(row.last_checked_at),
    checkCount: Number(row.check_count),
    lastPayload: row.last_payload === null ? null : JSON.parse(row.last_payload),
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    account:
      row.account_environment === null
        ? null
        : { environment: row.account_environment as Environment, login: row.account_login },
    review: row.review === null ? null : (JSON.parse(row.review) as ReviewVerdict),
    resolution: row.resolution === null ? null : toResolution(row.resolution),
    effect: {
      status: row.effect_status as EffectStatus,
      attempts: Number(row.effect_attempts),
      dueAt: fromInstant(row.effect_due_at),
      lastError: row.effect_last_error,
      completedAt: fromInstant(row.effect_completed_at),
    },
  };
}

function toResolution(text: string): Resolution {
  const stored = JSON.parse(text) as Omit<Resolution, 'at'> & { at: string };
  return { ...stored, at: new Date(stored.at) };
}
