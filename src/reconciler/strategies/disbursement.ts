import { isReferenceConflictError } from '../../errors/reference-conflict-error.js';
import type { TransactionRecord } from '../../references/index.js';
import { type Contradiction, contradictions } from '../../references/review.js';
import type { DisbursementPayment } from '../../schemas/disbursement.js';
import {
  backToPending,
  type CheckOutcome,
  type PassState,
  type RecordCheck,
  review,
  settle,
} from '../check-context.js';
import type { ResolvedOptions } from '../options.js';
import { attemptTime } from '../schedule.js';

/** Clocks differ: how far around our own times a platform row may fall and still match. */
const clockSkewMs = 2 * 60_000;

/** What a payout check reads: a reconciler's pass, or one `disbursement.status()` call. */
export type PayoutCheck = RecordCheck & {
  margin: { until: number };
  pass: Pick<PassState, 'payouts'>;
  options: Pick<ResolvedOptions, 'settleWindowMs'>;
};

/** Payouts: found in the payout history by refid/txnid, or (unknown) by recipient, amount and time. */
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
    if (!row) {
      return {
        kind: 'pending',
        pulled: true,
        answer: { found: false, refid: record.refid, txnid: record.txnid, pages: history.pages },
      };
    }
    return decide(ctx, row);
  }
  return matchWithoutReference(ctx, history.rows, history.covers, history.fetchedAt);
}

async function decide(ctx: PayoutCheck, row: DisbursementPayment): Promise<CheckOutcome> {
  const { record } = ctx;
  if (row.status === 'completed') {
    const contradicted = rowContradictions(record, row);
    if (contradicted.length === 0) return settle(ctx, 'success', { payload: row });
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
  const moved = await backToPending(ctx, row);
  return { kind: 'pending', pulled: true, answer: { row }, record: moved };
}

/** Unknown payout: matched by MSISDN, amount (and name) in the window; the refid claim is unique. */
async function matchWithoutReference(
  ctx: PayoutCheck,
  rows: readonly DisbursementPayment[],
  covers: boolean,
  fetchedAt: Date,
): Promise<CheckOutcome> {
  const { record, options } = ctx;
  const from = record.createdAt.getTime() - clockSkewMs;
  const until = attemptTime(record).getTime() + options.settleWindowMs;
  const candidates: DisbursementPayment[] = [];
  for (const row of rows) {
    if (!isCandidate(record, row, from, until)) continue;
    const owner = await ctx.store.find({ field: 'refid', value: row.refid });
    if (owner && owner.merchantReference !== record.merchantReference) continue;
    candidates.push(row);
  }
  const window = { from: new Date(from), until: new Date(until) };
  if (candidates.length > 1) {
    return review(ctx, {
      reason: 'ambiguous_match',
      message:
        `${candidates.length} payouts of ${record.amount} TZS to ${record.msisdn} match ` +
        `${record.merchantReference} in its time window; pesakit does not guess. Find the one ` +
        'this record made (refids in the evidence) and resolve it.',
      evidence: { window, candidates },
    });
  }
  const [match] = candidates;
  if (match) {
    try {
      await ctx.store.attachReferences(record.merchantReference, {
        refid: match.refid,
        txnid: match.txnid,
      });
    } catch (error) {
      // Another record claimed this row first: it is theirs. Look again next time.
      if (isReferenceConflictError(error)) {
        return { kind: 'pending', pulled: true, answer: { claimedElsewhere: match.refid } };
      }
      throw error;
    }
    const claimed = (await ctx.store.get(record.merchantReference)) ?? record;
    return decide({ ...ctx, record: claimed }, match);
  }
  const windowOver = fetchedAt.getTime() >= until;
  if (windowOver && covers) {
    return settle(ctx, 'failed', {
      payload: { window, searched: rows.length },
      reason:
        'never reached the platform: no payout to this number for this amount in the history ' +
        'for the whole settle window',
    });
  }
  return {
    kind: 'pending',
    pulled: true,
    answer: { window, candidates: 0, covers },
    ...(windowOver ? {} : { dueAt: new Date(until) }),
  };
}

function isCandidate(
  record: TransactionRecord,
  row: DisbursementPayment,
  from: number,
  until: number,
): boolean {
  const created = Date.parse(row.created_at);
  const inWindow = Number.isFinite(created) && created >= from && created <= until;
  return inWindow && rowContradictions(record, row).length === 0;
}

/** Where a history row is not the payout asked for: amount, recipient, name (when stored). */
function rowContradictions(record: TransactionRecord, row: DisbursementPayment): Contradiction[] {
  const name = record.metadata['name']?.trim().toLowerCase();
  return contradictions({
    amount: [record.amount, row.amount],
    msisdn: [record.msisdn, row.msisdn],
    name: [name, name && row.name.trim().toLowerCase()],
  });
}
