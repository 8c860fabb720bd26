import { ConfigurationError } from '../errors/configuration-error.js';
import { type CheckContext, type CheckOutcome, review } from './check-context.js';
import { attemptTime, exhausted } from './schedule.js';
import { checkAirtimePurchase, checkAirtimeRecharge } from './strategies/airtime.js';
import { checkCollection } from './strategies/collection.js';
import { checkDisbursement } from './strategies/disbursement.js';

/** Decides one leased record (stale initiating → unknown first); tried too long, `max_attempts`. */
export async function decide(ctx: CheckContext): Promise<CheckOutcome> {
  let { record } = ctx;
  if (record.status === 'initiating') {
    // Past the grace the process died after the write-ahead: maybe sent, so unknown, never failed.
    const moved = await ctx.ledger.move(record.merchantReference, {
      to: 'unknown',
      reason: `No outcome was recorded within ${ctx.options.initiatingGraceMs} ms of the write-ahead; treated as unknown.`,
    });
    if (moved.overtaken) return { kind: 'already_final', record: moved.record };
    record = moved.record;
    ctx = { ...ctx, record };
  }
  const credentials =
    record.flow === 'airtime_recharge' || record.flow === 'airtime_purchase'
      ? 'airtime'
      : record.product;
  if (!ctx.platform.canUse(credentials)) {
    throw new ConfigurationError(
      `credentials.${credentials}`,
      `No ${credentials} credentials are configured, so ${record.merchantReference} cannot be checked. ` +
        `Pass credentials.${credentials} to the client that creates the reconciler.`,
    );
  }
  const outcome = await strategyFor(ctx);
  if (outcome.kind !== 'pending' || !outcome.pulled) return outcome;
  if (!exhausted(record, ctx.options, ctx.now)) return outcome;
  // The check log is read only here, for the rare record given up on, never per check.
  const earlier =
    ctx.leased.observations ?? (await ctx.store.schedule.observations(record.merchantReference));
  const observations = [...earlier, outcome.answer ?? null];
  return review(ctx, {
    reason: 'max_attempts',
    message:
      `${record.merchantReference} is still open after ${record.checkCount + 1} checks over ` +
      `${Math.round((ctx.now.getTime() - attemptTime(record).getTime()) / 60_000)} min; the ` +
      'platform never gave a final answer. The evidence holds every answer pulled.',
    evidence: { checks: record.checkCount + 1, attemptedAt: attemptTime(record), observations },
  });
}

function strategyFor(ctx: CheckContext): Promise<CheckOutcome> {
  switch (ctx.record.flow) {
    case 'disbursement':
      return checkDisbursement(ctx);
    case 'airtime_purchase':
      return checkAirtimePurchase(ctx);
    case 'airtime_recharge':
      return checkAirtimeRecharge(ctx);
    default:
      return checkCollection(ctx);
  }
}
