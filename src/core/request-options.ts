import type { EndpointId, RequestOf } from './endpoints.js';

/** Per-call options of `Transport.request`. */
export interface RequestOptions<K extends EndpointId = EndpointId> {
  /** The request body, checked by the endpoint's request schema before anything is sent. */
  readonly body?: RequestOf<K>;
  /** Path parameters, e.g. `{ provider: 'vodacom' }` for `merchant/test-{provider}`. */
  readonly params?: Readonly<Record<string, string>>;
  /** Extra headers for this call. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Aborts the call, including a retry backoff in progress. */
  readonly signal?: AbortSignal;
  /** Overrides `TransportOptions.timeoutMs` for each attempt of this call. */
  readonly timeoutMs?: number;
  /** The money call's merchant reference, carried by an AmbiguousOutcomeError. */
  readonly merchantReference?: string;
  /**
   * False: a 429 is not retried here but thrown, for a caller whose rate gate sends the retry
   * with a token of the merchant's shared bucket (a retry here would take none). @default true
   */
  readonly retryRateLimited?: boolean;
}

/** A request `Transport.prepare` checked, for `Transport.sendChecked`. */
export interface CheckedRequest<K extends EndpointId = EndpointId> {
  readonly id: K;
  readonly method: string;
  readonly path: string;
}
