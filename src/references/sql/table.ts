import type { ColumnType, Selectable } from 'kysely';
import type { Product } from '../../core/endpoints.js';
import { amountToCents, centsToAmount } from '../../schemas/amount.js';
import type { EffectStatus } from '../effects.js';
import type { Resolution, ReviewVerdict } from '../review.js';
import type {
  Flow,
  PlatformReferenceField,
  TransactionRecord,
  TransactionStatus,
} from '../types.js';
import type { InboxTable } from './inbox-table.js';

/** The SQL dialects the store runs on. */
export type SqlDialectName = 'sqlite' | 'postgres';

/** SQLite keeps instants as ISO-8601 text (UTC, sortable); PostgreSQL as timestamptz. */
type Instant = ColumnType<Date | string, Date | string, Date | string>;

/** One row of `pesakit_transactions`. */
export interface TransactionsTable {
  merchant_reference: string;
  product: string;
  flow: string;
  /** Whole cents, so no amount ever drifts through a float; PostgreSQL's bigint reads as text. */
  amount_cents: ColumnType<number | string, number, number>;
  msisdn: string | null;
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
  last_checked_at: Instant | null;
  check_count: number;
  /** JSON text; NULL when no payload was ever recorded. */
  last_payload: string | null;
  /** JSON text of a flat string → string map. */
  metadata: string;
  /** JSON text of the ReviewVerdict; NULL unless the record went to needs_review. */
  review: string | null;
  /** JSON text of the Resolution (its `at` as ISO text); NULL until a person resolves. */
  resolution: string | null;
  effect_status: string;
  effect_attempts: number;
  effect_due_at: Instant | null;
  effect_last_error: string | null;
  effect_completed_at: Instant | null;
  /** Fences effect claims: only the holder of this token may complete or fail the effect. */
  effect_lease_token: string | null;
  effect_lease_until: Instant | null;
  /** The reconciler's schedule: when the record is next due (NULL: due now). */
  next_check_at: Instant | null;
  /** The fencing token of the reconciler's lease, and its expiry. */
  lease_token: string | null;
  lease_expires_at: Instant | null;
  /** The sequence number of the record's latest check-log entry (0: none yet). */
  check_log_seq: number;
}

/**
 * What the checks of each record saw, one row per observation: appended by a release, never
 * rewritten; the oldest dropped past `maxObservations`.
 */
export interface CheckLogTable {
  merchant_reference: string;
  /** 1, 2, 3 … per record, in the order the checks were written. */
  seq: number;
  /** The observation as JSON text, exactly as the release gave it. */
  observation: string;
}

export interface StoreDatabase {
  pesakit_transactions: TransactionsTable;
  pesakit_check_log: CheckLogTable;
  pesakit_callback_inbox: InboxTable;
}

export const checkLogTable = 'pesakit_check_log';

export type TransactionRow = Selectable<TransactionsTable>;

export const transactionsTable = 'pesakit_transactions';

/** The column of each platform reference kind. */
export const referenceColumns = {
  controlNumber: 'control_number',
  paymentReference: 'payment_reference',
  externalReference: 'external_reference',
  txnid: 'txnid',
  refid: 'refid',
} as const satisfies Record<PlatformReferenceField, keyof TransactionsTable>;

export type ReferenceColumn = (typeof referenceColumns)[PlatformReferenceField];

/** How a value is written for, and read back from, each dialect. */
export function toInstant(dialect: SqlDialectName, value: Date): Date | string {
  return dialect === 'sqlite' ? value.toISOString() : value;
}

function fromInstant(value: Date | string): Date {
  return value instanceof Date ? value : new Date(value);
}

export const toCents = amountToCents;

export function toRecord(row: TransactionRow): TransactionRecord {
  return {
    merchantReference: row.merchant_reference,
    product: row.product as Product,
    flow: row.flow as Flow,
    amount: centsToAmount(Number(row.amount_cents)),
    msisdn: row.msisdn,
    status: row.status as TransactionStatus,
    statusReason: row.status_reason,
    controlNumber: row.control_number,
    paymentReference: row.payment_reference,
    externalReference: row.external_reference,
    txnid: row.txnid,
    refid: row.refid,
    createdAt: fromInstant(row.created_at),
    updatedAt: fromInstant(row.updated_at),
    attemptedAt: row.attempted_at === null ? null : fromInstant(row.attempted_at),
    lastCheckedAt: row.last_checked_at === null ? null : fromInstant(row.last_checked_at),
    checkCount: Number(row.check_count),
    lastPayload: row.last_payload === null ? null : JSON.parse(row.last_payload),
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    review: row.review === null ? null : (JSON.parse(row.review) as ReviewVerdict),
    resolution: row.resolution === null ? null : toResolution(row.resolution),
    effect: {
      status: row.effect_status as EffectStatus,
      attempts: Number(row.effect_attempts),
      dueAt: row.effect_due_at === null ? null : fromInstant(row.effect_due_at),
      lastError: row.effect_last_error,
      completedAt: row.effect_completed_at === null ? null : fromInstant(row.effect_completed_at),
    },
  };
}

function toResolution(text: string): Resolution {
  const stored = JSON.parse(text) as Omit<Resolution, 'at'> & { at: string };
  return { ...stored, at: new Date(stored.at) };
}
