/** How one attempt ended; `failed` with attempt 0 means nothing could be sent. */
export type DeliveryOutcome = 'delivered' | 'retrying' | 'failed' | 'dropped' | 'cancelled';

export interface CallbackDelivery {
  /** The merchant's callback URL; only http and https are sent to. */
  url: string;
  payload: unknown;
  /** The business key the merchant dedups on (controlNumber, …); logged, not sent as a header. */
  key: string;
  kind: string;
}

/** One record of the delivery log (`GET _control/deliveries`) per attempt or decision. */
export interface DeliveryRecord extends CallbackDelivery {
  /** The record's place in the log: 1, 2, … (`after` of `GET _control/deliveries` pages by it). */
  seq?: number;
  /** Sent as `x-pesakit-delivery-id`; the same across retries. */
  id: string;
  /** 1 for the first send, 2 for the first retry, …; 0 when nothing was sent. */
  attempt: number;
  outcome: DeliveryOutcome;
  status?: number;
  error?: string;
  /** ISO 8601, from the injected clock. */
  at: string;
  durationMs?: number;
  nextAttemptInMs?: number;
}
