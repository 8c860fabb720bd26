import type { EngineCallback } from '../../schemas/collection.js';
import { toEngineDate } from '../../schemas/engine-date.js';
import { providerNames } from '../../schemas/provider.js';
import { newProviderTransactionId } from '../references.js';
import type { CollectionRecord } from '../state/collections.js';
import { settlementDelay, upstreamOutcome } from './test-numbers.js';
import type { SandboxTimers } from './timers.js';

export type SettlementOutcome = 'success' | 'failed';

export interface EngineDeliveryResult {
  readonly statusCode: number;
  readonly body: unknown;
}

export type EngineTransport = (payload: EngineCallback) => Promise<EngineDeliveryResult>;

// Card payments carry no phone; the engine payload still needs a 255… payer, so it gets this.
const CARD_PAYER = '255000000000';

/** The simulated engine: it sends the real engine's payload to the callback route over HTTP. */
export class CollectionEngine {
  constructor(
    private readonly transport: EngineTransport,
    private readonly timers: SandboxTimers,
    private readonly now: () => Date,
  ) {}
  payloadFor(record: CollectionRecord, outcome: SettlementOutcome, via?: 'card'): EngineCallback {
    const success = outcome === 'success';
    const card = via === 'card';
    const bank = record.channel === 'bank';
    return {
      message: success ? 'Payment successful' : 'Payment failed',
      code: success ? '200' : '402',
      status: success,
      description: success
        ? `Payment of TZS ${record.amount} received for ${record.controlNumber}.`
        : `Payment for ${record.controlNumber} was not completed.`,
      data: {
        providerType: card ? 'CARD' : bank ? 'BANK' : 'MNO',
        providerName: card
          ? 'Card'
          : bank
            ? 'Bank'
            : record.provider
              ? providerNames[record.provider]
              : 'Mobile',
        amount: record.amount,
        paymentReference: record.reference,
        payerMobile: record.msisdn ?? CARD_PAYER,
        transactionDate: toEngineDate(this.now()),
        transactionID: newProviderTransactionId(),
        transactionChannel: card ? 'CARD' : bank ? 'BANK' : 'USSD',
      },
    };
  }

  settle(
    record: CollectionRecord,
    outcome: SettlementOutcome,
    via?: 'card',
  ): Promise<EngineDeliveryResult> {
    return this.transport(this.payloadFor(record, outcome, via));
  }

  /** Settles a phone payment later, as a customer answering the USSD prompt; the number decides. */
  scheduleAutoSettle(record: CollectionRecord, msisdn: string, delayMs: number): void {
    const delay = settlementDelay(msisdn, delayMs);
    if (delay === 'never') return;
    const outcome: SettlementOutcome = upstreamOutcome(msisdn) === 'success' ? 'success' : 'failed';
    this.timers.schedule(delay, () => {
      // The callback route ignores one settled meanwhile; if unreachable, the control API can settle.
      this.settle(record, outcome).catch(() => undefined);
    });
  }
}
