import { isNotFoundError } from '../../errors/not-found-error.js';
import { applyCollectionObservation } from '../../settlement/settle-collection.js';
import {
  type CheckContext,
  type CheckOutcome,
  collectionOutcome,
  review,
} from '../check-context.js';
import { attemptTime } from '../schedule.js';

/**
 * Airtime purchase without a final answer. The platform has no purchase status or list route,
 * and the SMS to the customer exists only in the sandbox. The one thing a merchant can pull is
 * its wallet (`airtime.user()`), and a balance cannot say which sale moved it (other sales,
 * recharges and the vendor's own timing change it too). So the evidence is attached and a
 * person decides — never a guess either way.
 */
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

/**
 * Airtime recharge (a wallet top-up paid against a control number). Its outcome arrives by the
 * recharge callback (`airtime.confirmRecharge`). The reconciler pulls what it can: the control
 * number's collection status when collection credentials are configured (a recharge is paid
 * like a collection), and the wallet balance as evidence. A recharge is a credit, so leaving
 * it pending costs nothing; past the maximum age a person gets every balance seen.
 */
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
      const result = await applyCollectionObservation(ctx.store, record, transaction);
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
  const wallet = (user as { user?: { wallet?: unknown } } | undefined)?.user?.wallet;
  return wallet ?? null;
}
