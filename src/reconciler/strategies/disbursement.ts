import { isReferenceConflictError } from '../../errors/reference-conflict-error.js';
import type { References, TransactionRecord } from '../../references/index.js';
import { openStatuses } from '../../references/transitions.js';
import type { DisbursementHistoryRow } from '../../schemas/disbursement.js';
import {
  backToPending,
  type CheckOutcome,
  type PassState,
  type RecordCheck,
  review,
  settle,
} from '../check-context.js';
import type { ResolvedOptions } from '../options.js';
import type { HistoryView } from '../payout-history.js';
import { attemptTime } from '../schedule.js';
import { rowContradictions, rowMatch } from './payout-rows.js';

/** Clocks differ: how far around our own times a platform row may fall and still match. */
const clockSkewMs = 2 * 60_000;

/** What a payout check reads: a reconciler's pass, or one `disbursement.status()` call. */
export type PayoutCheck = RecordCheck & {
  margin: { until: number };
  pass: Pick<PassState, 'payouts'>;
  options: Pick<ResolvedOptions, 'settleWindowMs'>;
};

/** Payouts: found in the payout history by refid/txnid, or without them by `matchWithoutReference`. */
export async function checkDisbursement(ctx: PayoutCheck): Promise<CheckOutcome> {
  const { record } = ctx;
  const since = new Date(record.createdAt.getTime() - clockSkewMs);
  const history = await ctx.pass.payouts.covering(since, ctx.margin.until);
  if (record.refid !== null || record.txnid !== null) {
    const row = history.rows.find(
      (candidate) =>
        (record.refid !== null && candidate.refid === record.refid) ||
        (record.txnid !== null && candidate.txnid === record.txnid),
    );
    if (!row) return rowAbsent(ctx, history);
    return decide(ctx, row);
  }
  return matchWithoutReference(ctx, history.rows, history.covers, history.fetchedAt);
}

/**
 * The platform gave this payout a refid/txnid, yet its history shows no such row. Within the
 * settle window the history may not list it yet: keep checking. Once the window is over and the
 * pages cover it, a person looks (`not_visible`) rather than the record waiting for `maxAgeMs` —
 * never `failed`: the platform accepted it, and absence is no proof.
 */
async function rowAbsent(ctx: PayoutCheck, history: HistoryView): Promise<CheckOutcome> {
  const { record, options } = ctx;
  const answer = { found: false, refid: record.refid, txnid: record.txnid, pages: history.pages };
  const until = attemptTime(record).getTime() + options.settleWindowMs;
  if (history.fetchedAt.getTime() < until || !history.covers) {
    return { kind: 'pending', pulled: true, answer };
  }
  const reference = record.refid ?? record.txnid;
  return review(ctx, {
    reason: 'not_visible',
    message:
      `The payout history still shows no row for ${reference} (${record.merchantReference}, ` +
      `${record.amount} TZS) ${Math.round(options.settleWindowMs / 60_000)} min after it was ` +
      'sent. If it was made with another account or in another environment, check it there; ' +
      'else ask the platform about the reference before paying again or resolving it.',
    evidence: {
      ...answer,
      attemptedAt: attemptTime(record),
      windowMs: options.settleWindowMs,
      account: record.account,
      lastPayload: record.lastPayload,
    },
  });
}

/** The row's status decides; with `claim`, its references are attached in the same commit. */
async function decide(
  ctx: PayoutCheck,
  row: DisbursementHistoryRow,
  claim?: References,
): Promise<CheckOutcome> {
  const { record } = ctx;
  if (row.status === 'completed') {
    const contradicted = rowContradictions(record, row);
    if (contradicted.length === 0) return settle(ctx, 'success', { payload: row }, claim);
    const fields = contradicted.map((c) => c.field).join(' and ');
    return review(ctx, {
      reason: fields === 'amount' ? 'amount_mismatch' : 'answer_contradicts_request',
      message:
        `Payout ${record.merchantReference} completed with another ${fields} than asked. Check ` +
        'the payout history before paying a difference, recovering it or resolving it.',
      evidence: { contradictions: contradicted, row },
    });
  }
  if (row.status === 'failed') {
    return settle(ctx, 'failed', { payload: row, reason: 'The payout failed at the gateway.' });
  }
  // Pending, or a row with no status (the spec's shape): in progress, not yet an outcome.
  const moved = await backToPending(ctx, row, claim);
  return { kind: 'pending', pulled: true, answer: { row }, record: moved };
}

/**
 * A payout with no refid/txnid (its answer was lost). Only the window's rows count (a row with
 * no readable time counts as inside it) that no record owns and that did not fail:
 * 1. exactly one row equal on amount and MSISDN (and name, where both carry one) is claimed,
 *    fenced, and its status decides; two or more go to a person (`ambiguous_match`);
 * 2. once the history covers the window and the window is over, a row equal on MSISDN or on
 *    amount, or with no MSISDN, goes to a person (`history_partial_match`): it may be this
 *    payout, told differently. A row that exactly matches another open payout holds this one
 *    for another pass instead (the rows of a cut bulk run must not block each other);
 * 3. no such row either: `failed`, the platform never received it.
 */
async function matchWithoutReference(
  ctx: PayoutCheck,
  rows: readonly DisbursementHistoryRow[],
  covers: boolean,
  fetchedAt: Date,
): Promise<CheckOutcome> {
  const { record, options } = ctx;
  const from = record.createdAt.getTime() - clockSkewMs;
  const until = attemptTime(record).getTime() + options.settleWindowMs;
  const window = { from: new Date(from), until: new Date(until) };
  const exact: DisbursementHistoryRow[] = [];
  const partial: DisbursementHistoryRow[] = [];
  // A failed row proves nothing about this payout while another may still appear: evidence only.
  const failedRows: DisbursementHistoryRow[] = [];
  for (const row of rows) {
    if (!inWindow(row, from, until)) continue;
    const match = rowMatch(record, row);
    if (row.status === 'failed') {
      if (match === 'exact') failedRows.push(row);
      continue;
    }
    // Ownership is read only for the rows that could decide: unrelated rows cost nothing.
    if (match === 'unrelated' || (await ownedElsewhere(ctx, row))) continue;
    (match === 'exact' ? exact : partial).push(row);
  }
  if (exact.length > 1) {
    return review(ctx, {
      reason: 'ambiguous_match',
      message:
        `${exact.length} payouts of ${record.amount} TZS to ${record.msisdn} match ` +
        `${record.merchantReference} in its time window; pesakit does not guess. Find the one ` +
        'this record made (refids in the evidence) and resolve it.',
      evidence: { window, candidates: exact },
    });
  }
  const [match] = exact;
  if (match) {
    try {
      return await decide(ctx, match, { refid: match.refid, txnid: match.txnid });
    } catch (error) {
      // Another record claimed this row first: it is theirs. Look again next time.
      if (!isReferenceConflictError(error)) throw error;
      return { kind: 'pending', pulled: true, answer: { claimedElsewhere: match.refid } };
    }
  }
  const windowOver = fetchedAt.getTime() >= until;
  if (!windowOver || !covers) {
    return {
      kind: 'pending',
      pulled: true,
      answer: { window, candidates: 0, partial: partial.length, covers },
      ...(windowOver ? {} : { dueAt: new Date(until) }),
    };
  }
  if (partial.length > 0) {
    const heldFor = await openPayoutMatching(ctx, partial);
    if (heldFor !== undefined) {
      return { kind: 'pending', pulled: true, answer: { window, partial, heldFor } };
    }
    return review(ctx, {
      reason: 'history_partial_match',
      message:
        `No payout in the history matches ${record.merchantReference} exactly, but ` +
        `${partial.length} ${partial.length === 1 ? 'row agrees' : 'rows agree'} with it on the ` +
        'MSISDN or the amount (or carry no MSISDN): it may have been paid. Check the rows in the ' +
        'evidence against the platform before paying again, then resolve it.',
      evidence: { window, rows: partial },
    });
  }
  const nothingElse =
    'no payout to this number or for this amount in the history for the whole settle window';
  return settle(ctx, 'failed', {
    payload: { window, searched: rows.length, ...(failedRows.length > 0 && { failedRows }) },
    reason:
      failedRows.length > 0
        ? `failed at the gateway: a failed payout matches it, and ${nothingElse} but that one`
        : `never reached the platform: ${nothingElse}`,
  });
}

/** Inside `[from, until]`; a row with no readable time may be anywhere, so it counts as inside. */
function inWindow(row: DisbursementHistoryRow, from: number, until: number): boolean {
  const created = row.created_at === undefined ? Number.NaN : Date.parse(row.created_at);
  return !Number.isFinite(created) || (created >= from && created <= until);
}

/** True when another record holds the row's refid or txnid: it is theirs, not a candidate. */
async function ownedElsewhere(ctx: PayoutCheck, row: DisbursementHistoryRow): Promise<boolean> {
  for (const field of ['refid', 'txnid'] as const) {
    const owner = await ctx.store.records.find({ field, value: row[field] });
    if (owner && owner.merchantReference !== ctx.record.merchantReference) return true;
  }
  return false;
}

/** The first open payout without a platform reference that one of `rows` matches exactly. */
async function openPayoutMatching(
  ctx: PayoutCheck,
  rows: readonly DisbursementHistoryRow[],
): Promise<string | undefined> {
  const open = await ctx.store.records.list({
    statuses: openStatuses,
    product: 'disbursement',
    limit: 10_000,
  });
  const others = open.filter(
    (other: TransactionRecord) =>
      other.merchantReference !== ctx.record.merchantReference &&
      other.refid === null &&
      other.txnid === null,
  );
  return others.find((other) => rows.some((row) => rowMatch(other, row) === 'exact'))
    ?.merchantReference;
}
