import { isNotFoundError } from '../../errors/not-found-error.js';
import { settleCollection } from '../../ledger/settle-collection.js';
import {
  type CheckContext,
  type CheckOutcome,
  collectionOutcome,
  review,
} from '../check-context.js';
import { attemptTime } from '../schedule.js';

/** Airtime purchase: no status route, and a balance cannot name the sale: a person decides. */
export async function checkAirtimePurchase(ctx: CheckContext): Promise<CheckOutcome> {
  const { record, now } = ctx;
  const user = await ctx.pass.airtimeUser(ctx.margin.until);
  return review(ctx, {
    reason: 'ambiguous_evidence',
    message:
      `Airtime sale ${record.merchantReference} (${record.amount} TZS to ${record.msisdn}) got no ` +
      'answer and the platform has no route to ask for it; the wallet balance alone cannot prove ' +
      'the sale. Ask the customer or the vendor whether the airtime arrived.',
    evidence: {
      attemptedAt: attemptTime(record),
      wallet: walletOf(user),
      observedAt: now,
      lastPayload: record.lastPayload,
      statusReason: record.statusReason,
    },
  });
}

/** Airtime recharge: pulled by control number when it can be, else pending until max age. */
export async function checkAirtimeRecharge(ctx: CheckContext): Promise<CheckOutcome> {
  const { record, now } = ctx;
  if (record.controlNumber === null) {
    const deadline = attemptTime(record).getTime() + ctx.options.noReferenceWindowMs;
    if (now.getTime() < deadline)
      return { kind: 'pending', pulled: false, dueAt: new Date(deadline) };
    return review(ctx, {
      reason: 'no_platform_reference',
      message:
        `Recharge ${record.merchantReference} got no control number back; nothing can be pulled. ` +
        'Check the wallet statement in the portal.',
      evidence: { attemptedAt: attemptTime(record), lastPayload: record.lastPayload },
    });
  }
  if (ctx.platform.canUse('collection')) {
    try {
      const transaction = await ctx.platform.collectionStatus(record.controlNumber, ctx.margin);
      const result = await settleCollection(ctx.ledger, record, transaction);
      const decided = collectionOutcome(result, transaction);
      if (decided) return decided;
    } catch (error) {
      if (!isNotFoundError(error)) throw error;
    }
  }
  const user = await ctx.pass.airtimeUser(ctx.margin.until);
  return {
    kind: 'pending',
    pulled: true,
    answer: { controlNumber: record.controlNumber, wallet: walletOf(user), observedAt: now },
  };
}

function walletOf(user: unknown): unknown {
  return (user as { user?: { wallet?: unknown } } | undefined)?.user?.wallet ?? null;
}
