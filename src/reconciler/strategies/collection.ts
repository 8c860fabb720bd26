import { isNotFoundError } from '../../errors/not-found-error.js';
import { settleCollection } from '../../ledger/settle-collection.js';
import {
  type CheckContext,
  type CheckOutcome,
  collectionOutcome,
  review,
  settle,
} from '../check-context.js';
import { attemptTime } from '../schedule.js';

/** Collections: pulled by control number (or engine reference), decided by `settleCollection`. */
export async function checkCollection(ctx: CheckContext): Promise<CheckOutcome> {
  const { record, now, options } = ctx;
  const refId = record.controlNumber ?? record.paymentReference;
  if (refId === null) return withoutReference(ctx);

  let transaction: Awaited<ReturnType<typeof ctx.platform.collectionStatus>>;
  try {
    transaction = await ctx.platform.collectionStatus(refId, ctx.margin);
  } catch (error) {
    if (isNotFoundError(error)) return notFound(ctx, refId);
    throw error;
  }
  const answer = { refId, at: now, data: transaction };
  const result = await settleCollection(ctx.ledger, record, transaction);
  const decided = collectionOutcome(result, answer);
  if (decided) return decided;
  // An unpaid secure checkout stays pending at the platform forever: failed past the expiry.
  if (
    record.flow === 'secure' &&
    now.getTime() - record.createdAt.getTime() >= options.checkoutExpiryMs
  ) {
    return settle(ctx, 'failed', { payload: transaction, reason: 'expired' });
  }
  // settleCollection moved an `unknown` record back to `pending` (the platform has it).
  return { kind: 'pending', pulled: true, answer, record: result.record };
}

/** Nothing to pull by: wait for the callback, then a person decides — never `failed` (it may be paid). */
async function withoutReference(ctx: CheckContext): Promise<CheckOutcome> {
  const { record, now, options } = ctx;
  const deadline = attemptTime(record).getTime() + options.noReferenceWindowMs;
  if (now.getTime() < deadline) {
    return { kind: 'pending', pulled: false, dueAt: new Date(deadline) };
  }
  return review(ctx, {
    reason: 'no_platform_reference',
    message:
      `The outcome of ${record.merchantReference} is unknown and the platform gave no reference to ` +
      'pull it by; no callback arrived. Check the customer’s statement or the platform portal for ' +
      `a payment of ${record.amount} TZS${record.msisdn ? ` from ${record.msisdn}` : ''}.`,
    evidence: {
      attemptedAt: attemptTime(record),
      windowMs: options.noReferenceWindowMs,
      lastPayload: record.lastPayload,
      statusReason: record.statusReason,
    },
  });
}

/**
 * The platform answers 404 for a reference this account gave it. Within `noReferenceWindowMs`
 * that may be the platform not listing it yet: keep checking. Past it a person looks
 * (`not_visible`) rather than the record waiting for `maxAgeMs` — never `failed`: 404 is no
 * refusal, and a transaction made with another account answers 404 just the same.
 */
async function notFound(ctx: CheckContext, refId: string): Promise<CheckOutcome> {
  const { record, now, options } = ctx;
  const answer = { refId, found: false, at: now };
  const deadline = attemptTime(record).getTime() + options.noReferenceWindowMs;
  if (now.getTime() < deadline) return { kind: 'pending', pulled: true, answer };
  return review(ctx, {
    reason: 'not_visible',
    message:
      `The platform does not know ${refId} (${record.merchantReference}, ${record.amount} TZS) ` +
      `${Math.round(options.noReferenceWindowMs / 60_000)} min after it was sent. If it was made ` +
      'with another account or in another environment, check it there; else ask the platform ' +
      'about the reference before resolving it.',
    evidence: {
      ...answer,
      attemptedAt: attemptTime(record),
      windowMs: options.noReferenceWindowMs,
      account: record.account,
      lastPayload: record.lastPayload,
    },
  });
}
