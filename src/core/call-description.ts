import { ApiError } from '../errors/api-error.js';
import { ResponseValidationError } from '../errors/response-validation-error.js';
import { redactHeaders } from '../internal/redaction.js';
import type { Call } from './call.js';
import type { TransportEventBase } from './transport-events.js';
import type { ResolvedTransportOptions } from './transport-options.js';
import { USER_AGENT } from './user-agent.js';

type HeaderOptions = Pick<ResolvedTransportOptions, 'headers' | 'apiKey' | 'environment'>;

/**
 * Names a money call's merchant reference to the sandbox, so its request log ties a payout or an
 * airtime purchase (whose bodies carry none) to the record. Never sent to production.
 */
export const MERCHANT_REFERENCE_HEADER = 'x-pesakit-merchant-reference';

/** The attempt's headers, lower-cased so later win: transport's, call's, then pesakit's. */
export function callHeaders(call: Call, options: HeaderOptions): Record<string, string> {
  const headers: Record<string, string> = { 'user-agent': USER_AGENT, ...options.headers };
  if (call.options.headers !== undefined) {
    for (const [name, value] of Object.entries(call.options.headers))
      headers[name.toLowerCase()] = value;
  }
  headers['accept'] = 'application/json';
  // A FormData body sets its own multipart content type (with the boundary) in fetch.
  if (call.body !== undefined && !(call.body instanceof FormData)) {
    headers['content-type'] = 'application/json';
  }
  if (call.endpoint.auth === 'bearer' && call.token !== undefined) {
    headers['authorization'] = `Bearer ${call.token}`;
  }
  if (call.endpoint.auth === 'api-key' && options.apiKey !== undefined) {
    headers['x-api-key'] = options.apiKey;
  }
  const { merchantReference } = call.options;
  if (options.environment === 'sandbox' && merchantReference !== undefined) {
    headers[MERCHANT_REFERENCE_HEADER] = merchantReference;
  }
  return headers;
}

/** What every event about the call carries; its headers redacted. */
export function describeCall(call: Call, options: HeaderOptions): TransportEventBase {
  const {
    id: endpoint,
    endpoint: { method },
    path,
    attempt,
  } = call;
  // Before the first attempt (a refused login, say) no headers were built yet.
  const headers = redactHeaders(new Headers(call.headers ?? callHeaders(call, options)));
  return { endpoint, method, path, attempt, headers };
}

/** The payload of an `error` or `retry` event. */
export function describeFailure(call: Call, options: HeaderOptions, error: unknown) {
  return {
    ...describeCall(call, options),
    error: error instanceof Error ? error : new Error(String(error)),
    status:
      error instanceof ApiError || error instanceof ResponseValidationError
        ? error.status
        : call.status,
    durationMs: call.attempt === 0 ? 0 : performance.now() - call.startedAt,
    requestId: error instanceof ApiError ? error.requestId : undefined,
  };
}
