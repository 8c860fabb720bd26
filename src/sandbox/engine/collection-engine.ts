import type { EngineCallback } from '../../schemas/collection.js';
import { toEngineDate } from '../../schemas/engine-date.js';
import { providerNames } from '../../schemas/provider.js';
import { newProviderTransactionId } from '../references.js';
import type { CollectionRecord } from '../state/collections.js';
import { settlementDelay, upstreamOutcome } from './test-numbers.js';
import type { SandboxTimers } from './timers.js';

/** How the outcome of a settlement is asked for. */
export type SettlementOutcome = 'success' | 'failed';

/** What the sandbox's callback route answered the engine. */
export interface EngineDeliveryResult {
  readonly statusCode: number;
  readonly body: unknown;
}

/** Sends an engine payload to the sandbox's own `/api/sandbox/callback`, as the engine would. */
export type EngineTransport = (payload: EngineCallback) => Promise<EngineDeliveryResult>;

// Card payments carry no phone; the engine payload still needs a 255… payer, so it gets this.
const CARD_PAYER = '255000000000';

/**
 * The simulated collection engine. It does not touch state itself: it only builds the payload
 * the real engine would send and sends it to the callback route over HTTP, so that settlement
 * goes through exactly the path a real callback takes (validation, once-only update, merchant
 * notification).
 */
export class CollectionEngine {
  constructor(
    private readonly transport: EngineTransport,
    private readonly timers: SandboxTimers,
    private readonly now: () => Date,
  ) {}

  /** The engine's settlement payload for a transaction. */
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

  /** Settles now: sends the engine callback and returns what the callback route answered. */
  settle(
    record: CollectionRecord,
    outcome: SettlementOutcome,
    via?: 'card',
  ): Promise<EngineDeliveryResult> {
    return this.transport(this.payloadFor(record, outcome, via));
  }

  /**
   * Schedules the automatic settlement of a phone payment, as a customer approving (or not)
   * the USSD prompt would. The test number decides outcome and timing.
   */
  scheduleAutoSettle(record: CollectionRecord, msisdn: string, delayMs: number): void {
    const delay = settlementDelay(msisdn, delayMs);
    if (delay === 'never') return;
    const outcome: SettlementOutcome = upstreamOutcome(msisdn) === 'success' ? 'success' : 'failed';
    this.timers.schedule(delay, () => {
      // A transaction settled meanwhile (control API, duplicate) is left alone by the callback
      // route itself; a failure to reach it is not fatal: the control API can still settle.
      this.settle(record, outcome).catch(() => undefined);
    });
  }
}
