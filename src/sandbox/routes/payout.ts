import type { FastifyInstance } from 'fastify';
import { endpoints } from '../../core/endpoints.js';
import { msisdnSchema } from '../../schemas/msisdn.js';
import { resolveProvider } from '../../schemas/provider.js';
import { authenticate } from '../auth/bearer.js';
import { chargeFor } from '../charge.js';
import type { SandboxContext } from '../context.js';
import { callUpstream } from '../engine/upstream.js';
import { merchantReferenceOf } from '../http/merchant-reference.js';
import { atCapacity, parseBody, sendError, sendValidationError } from '../http/replies.js';
import { routePath } from '../http/route-path.js';
import { toCents, toShillings } from '../money.js';
import { newRefId, newTxnId, unique } from '../references.js';
import { type DisbursementRecord, disbursementView } from '../state/disbursements.js';
import { aboveMaxAmount } from './accept-initiation.js';

/** `disbursement/payment`, the spec's processing order 1–8; step 3 holds amount and charge at once. */
export function registerPayout(app: FastifyInstance, context: SandboxContext): void {
  app.post(routePath(endpoints.disbursementPay), async (request, reply) => {
    const caller = authenticate(context, 'disbursement', request, reply);
    if (!caller) return reply;
    const parsed = parseBody(endpoints.disbursementPay.request, request.body, reply);
    if (!parsed) return reply;
    const { msisdn, amount, name } = parsed;
    if (aboveMaxAmount(context, amount, reply)) return reply;
    // MSISDN format, then the provider: each its own 400.
    if (!msisdnSchema.safeParse(msisdn).success) {
      return sendError(reply, 400, 'Invalid MSISDN: it must be 255 followed by nine digits.');
    }
    const provider = resolveProvider(msisdn);
    if (!provider) {
      return sendError(
        reply,
        400,
        `Unsupported provider: no mobile network uses prefix ${msisdn.slice(3, 5)}.`,
      );
    }
    if (atCapacity(context, reply, 'payouts', context.disbursements.records.length)) return reply;
    // Charge and wallet check, held at once.
    const charge = chargeFor(context.options.charge, amount);
    const wallet = context.wallets.of('disbursement', caller.account.id);
    const hold = wallet.reserve(toCents(amount) + charge);
    if (!hold) {
      return sendValidationError(
        reply,
        {
          amount: [
            `The wallet balance does not cover the amount plus the charge of TZS ${toShillings(charge)}.`,
          ],
        },
        'insufficient_funds',
      );
    }
    const now = context.nowIso();
    const record: DisbursementRecord = {
      txnid: unique(newTxnId, (value) => context.disbursements.isTaken(value)),
      refid: unique(newRefId, (value) => context.disbursements.isTaken(value)),
      accountId: caller.account.id,
      amount,
      charge: toShillings(charge),
      msisdn,
      provider,
      name,
      status: 'pending',
      message: 'Sent to the provider gateway.',
      created_at: now,
      updated_at: now,
    };
    context.disbursements.add(record);
    const merchantReference = merchantReferenceOf(request);
    context.journal.add({ kind: 'payout', merchantReference, record });
    const actedOn = () =>
      context.actedOn({
        product: 'disbursement',
        operation: 'disbursement',
        merchant_reference: merchantReference,
        amount,
        msisdn,
        outcome: record.status,
        reference: record.refid,
      });
    const result = await callUpstream('disbursement', msisdn, provider);
    record.updated_at = context.nowIso();
    record.message = result.message;
    if (!result.ok) {
      // Our decision for the unshown failure state: the record stays in history as `failed`.
      record.status = 'failed';
      hold.release();
      actedOn();
      return sendError(
        reply,
        400,
        `Disbursement initiation failed: ${result.message}`,
        'upstream_failed',
      );
    }
    // Debit and completion as one unit (no await between them).
    hold.capture([
      { kind: 'payout', amount: toCents(amount), reference: record.refid },
      { kind: 'charge', amount: charge, reference: record.refid },
    ]);
    record.status = 'completed';
    actedOn();
    context.sms.send({
      to: msisdn,
      product: 'disbursement',
      reference: record.refid,
      text: `You have received TZS ${amount} from ${caller.account.name}. Ref ${record.refid}.`,
    });
    return {
      message: 'Disbursement completed.',
      response: { status: true, reference: record.refid, message: result.message },
      payment: disbursementView(record),
    };
  });
}
