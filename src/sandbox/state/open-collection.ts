import type { CollectionChannel } from '../../schemas/collection.js';
import { resolveProvider } from '../../schemas/provider.js';
import type { SandboxContext } from '../context.js';
import {
  newControlNumber,
  newEngineReference,
  newExternalReference,
  newPaymentToken,
  unique,
} from '../references.js';
import type { CollectionRecord } from './collections.js';

export interface CollectionOpening {
  channel: CollectionChannel;
  amount: number;
  msisdn?: string | undefined;
  callback_url?: string | undefined;
  description?: string | undefined;
  ownerId: number | null;
  /** The SDK's `x-pesakit-merchant-reference`, for the request log; null when none was sent. */
  merchantReference: string | null;
}

/** Records a new pending collection; every initiation channel starts here. */
export function openCollection(
  context: SandboxContext,
  opening: CollectionOpening,
): CollectionRecord {
  // Recharges draw control numbers too: a customer must never be able to pay the wrong one.
  const controlNumberTaken = (value: string) =>
    context.collections.isTaken(value) || context.airtime.recharges.has(value);
  const secure = opening.channel === 'secure';
  const now = context.nowIso();
  const record: CollectionRecord = {
    controlNumber: unique(newControlNumber, controlNumberTaken),
    reference: unique(newEngineReference, (value) => context.collections.isTaken(value)),
    external_reference: secure ? newExternalReference() : null,
    paymentToken: secure ? newPaymentToken() : null,
    channel: opening.channel,
    amount: opening.amount,
    msisdn: opening.msisdn ?? null,
    provider: opening.msisdn ? (resolveProvider(opening.msisdn) ?? null) : null,
    status: 'pending',
    transactionID: null,
    paid_amount: null,
    callback_url: opening.callback_url ?? null,
    description: opening.description ?? null,
    ownerId: opening.ownerId,
    sessions: new Map(),
    created_at: now,
    updated_at: now,
  };
  context.collections.add(record);
  const { merchantReference } = opening;
  context.journal.add({ kind: 'collection', merchantReference, record });
  context.actedOn({
    product: 'collection',
    operation: opening.channel,
    merchant_reference: merchantReference,
    amount: record.amount,
    msisdn: record.msisdn,
    outcome: record.status,
    reference: record.controlNumber,
  });
  return record;
}

/** Starts the automatic settlement of a phone payment, unless the sandbox was told not to. */
export function autoSettle(context: SandboxContext, record: CollectionRecord): void {
  const setting = context.options.autoSettle;
  if (setting === false || record.msisdn === null) return;
  context.engine.scheduleAutoSettle(record, record.msisdn, setting.delayMs);
}
