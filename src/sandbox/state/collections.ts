import type { collectionTransactionSchema } from '../../schemas/collection.js';
import type { WireRecord } from './wire-record.js';

/** The transaction as the status operation shows it, plus what only the sandbox keeps. */
export type CollectionRecord = WireRecord<typeof collectionTransactionSchema> & {
  /** The hosted checkout's token (secure channel only); never shown by the status operation. */
  readonly paymentToken: string | null;
  readonly callback_url: string | null;
  readonly description: string | null;
  /** The collection account that started it; `null` for the unauthenticated channels. */
  readonly ownerId: number | null;
  /** Card sessions opened on the hosted checkout: session id → when it expires (epoch ms). */
  readonly sessions: Map<string, number>;
};

export class CollectionBook {
  readonly #byControlNumber = new Map<string, CollectionRecord>();
  readonly #byReference = new Map<string, CollectionRecord>();
  readonly #byToken = new Map<string, CollectionRecord>();
  add(record: CollectionRecord): void {
    this.#byControlNumber.set(record.controlNumber, record);
    this.#byReference.set(record.reference, record);
    if (record.paymentToken !== null) this.#byToken.set(record.paymentToken, record);
  }

  /** The status operation's lookup: `ref_id` is a control number or an engine reference. */
  findByRef(refId: string): CollectionRecord | undefined {
    return this.#byControlNumber.get(refId) ?? this.#byReference.get(refId);
  }

  /** `reference` is the engine's: the engine callback's `data.paymentReference`. */
  findByPaymentReference(reference: string): CollectionRecord | undefined {
    return this.#byReference.get(reference);
  }

  findByToken(token: string): CollectionRecord | undefined {
    return this.#byToken.get(token);
  }

  isTaken(value: string): boolean {
    return this.#byControlNumber.has(value) || this.#byReference.has(value);
  }

  get size(): number {
    return this.#byControlNumber.size;
  }

  all(): CollectionRecord[] {
    return [...this.#byControlNumber.values()];
  }
}

/** The transaction as the status operation and the control API show it (no token, no owner). */
export function collectionView(record: CollectionRecord) {
  const { paymentToken, ownerId, sessions, ...view } = record;
  return view;
}
