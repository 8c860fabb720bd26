/**
 * The delivery log (`GET _control/deliveries`), one record per attempt:
 * - `delivered`: the merchant answered 2xx.
 * - `retrying`: this attempt failed; another follows after `nextAttemptInMs`.
 * - `failed`: the last attempt failed (or the delivery could not be sent at all: attempt 0).
 * - `dropped`: the `drop` fault swallowed it; nothing was sent.
 * - `cancelled`: the dispatcher was closed while this attempt was in flight.
 */
export type DeliveryOutcome = 'delivered' | 'retrying' | 'failed' | 'dropped' | 'cancelled';

/** One attempt, or one decision not to attempt (`dropped`, or `failed` with `attempt: 0`). */
export interface DeliveryRecord {
  /** The delivery id, sent as `x-pesakit-delivery-id`; the same across its retries. */
  id: string;
  /** The business key the merchant should dedup on (controlNumber, paymentReference, …). */
  key: string;
  /** What kind of callback this is, e.g. `collection.settled`. */
  kind: string;
  url: string;
  /** 1 for the first send, 2 for the first retry, …; 0 when nothing was sent. */
  attempt: number;
  outcome: DeliveryOutcome;
  /** The merchant's HTTP status, when it answered at all. */
  status?: number;
  /** Why the attempt failed: a non-2xx, a connection error, a timeout. */
  error?: string;
  /** When the attempt finished (or the decision was made), ISO 8601 from the injected clock. */
  at: string;
  /** Wall time the attempt took. */
  durationMs?: number;
  /** For `retrying`: how long until the next attempt. */
  nextAttemptInMs?: number;
  /** The JSON body that was (or would have been) sent. */
  payload: unknown;
}

/** What the sandbox asks to deliver. */
export interface CallbackDelivery {
  /** The merchant's callback URL; only http and https are sent to. */
  url: string;
  /** Serialised as the JSON body. */
  payload: unknown;
  /** Business dedup key, recorded in the log (not sent as a header: merchants dedup on the body). */
  key: string;
  kind: string;
}
