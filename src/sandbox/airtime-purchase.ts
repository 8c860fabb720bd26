import { resolveProvider } from '../schemas/provider.js';
import type { SandboxContext } from './context.js';
import { callUpstream } from './engine/upstream.js';
import type { Hold } from './ledger.js';
import { newAirtimeReference, unique } from './references.js';
import type { AirtimePaymentRecord } from './state/airtime.js';

/**
 * Airtime purchase rules 4–7 for a purchase that passed rules 1–3 (a valid row, its amount held);
 * shared by single and bulk purchases.
 */
export async function completeAirtimePurchase(
  context: SandboxContext,
  purchase: {
    accountId: number;
    msisdn: string;
    amount: number;
    hold: Hold;
    /** The SDK's merchant reference (a bulk row's own), for the request log. */
    merchantReference: string | null;
  },
): Promise<AirtimePaymentRecord> {
  const { msisdn, amount, hold } = purchase;
  const now = context.nowIso();
  const record: AirtimePaymentRecord = {
    // Payments are never removed until a reset, so ids follow their count.
    id: context.airtime.payments.length + 1,
    accountId: purchase.accountId,
    reference: unique(newAirtimeReference, (value) =>
      context.airtime.payments.some((payment) => payment.reference === value),
    ),
    msisdn,
    amount,
    provider: resolveProvider(msisdn)!,
    status: 'pending',
    message: 'Waiting for the airtime vendor.',
    created_at: now,
    updated_at: now,
  };
  context.airtime.payments.push(record);
  const { merchantReference } = purchase;
  context.journal.add({ kind: 'airtime_payment', merchantReference, record });
  const result = await callUpstream('airtime', msisdn, record.provider);
  // Success debits and marks success; failure marks failed and leaves the wallet alone.
  record.status = result.ok ? 'success' : 'failed';
  record.message = result.message;
  record.updated_at = context.nowIso();
  if (result.ok)
    hold.capture([{ kind: 'airtime', amount: hold.amount, reference: record.reference }]);
  else hold.release();
  context.actedOn({
    product: 'airtime',
    operation: 'airtime_purchase',
    merchant_reference: merchantReference,
    amount,
    msisdn,
    outcome: record.status,
    reference: record.reference,
  });
  context.sms.send({
    to: msisdn,
    product: 'airtime',
    reference: record.reference,
    text: result.ok
      ? `You have received TZS ${amount} airtime. Ref ${record.reference}.`
      : `Your airtime top-up of TZS ${amount} failed. Ref ${record.reference}.`,
  });
  return record;
}
