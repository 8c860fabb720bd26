import type { EndpointId, UploadEndpointId } from './endpoints.js';

/** What every event says about one attempt: headers redacted, never a body. */
export interface TransportEventBase {
  /** The endpoint id from the endpoint table, e.g. `initiateMno`, or of an upload. */
  readonly endpoint: EndpointId | UploadEndpointId;
  readonly method: 'GET' | 'POST';
  /** The request path, without host or query string. */
  readonly path: string;
  /** 1 for the first attempt of a call; retries and the repeat after a re-login count up. */
  readonly attempt: number;
  /** The request's headers, redacted. */
  readonly headers: Readonly<Record<string, string>>;
}

/** An attempt is about to be sent. */
export type RequestEvent = TransportEventBase;

/** An HTTP response arrived (any status, before its body is validated). */
export interface ResponseEvent extends TransportEventBase {
  readonly status: number;
  readonly durationMs: number;
  /** The platform's `x-request-id`, when it sent one. */
  readonly requestId: string | undefined;
  /** The response's headers, redacted. */
  readonly responseHeaders: Readonly<Record<string, string>>;
}

/** A call failed for good: this is the error the caller receives. */
export interface ErrorEvent extends TransportEventBase {
  readonly error: Error;
  /** The status of the failed attempt, when the platform answered. */
  readonly status: number | undefined;
  readonly durationMs: number;
  readonly requestId: string | undefined;
}

/** An attempt of a safe operation failed and will be retried after at least `delayMs`. */
export interface RetryEvent extends ErrorEvent {
  /** The platform's `Retry-After`, exactly; else the backoff's floor (before jitter). */
  readonly delayMs: number;
}

/** A call succeeded but needs attention. `no_callback_url`: no callback will come (docs/callbacks.md). */
export interface WarningEvent {
  readonly code: 'no_callback_url';
  readonly merchantReference: string;
  readonly message: string;
}

/** The events of `transport.events`, for eventemitter3's typed emitter. */
export interface TransportEvents {
  request: [event: RequestEvent];
  response: [event: ResponseEvent];
  retry: [event: RetryEvent];
  error: [event: ErrorEvent];
  warning: [event: WarningEvent];
}
