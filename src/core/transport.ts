import { EventEmitter } from 'eventemitter3';
import type { z } from 'zod';
import { AuthenticationError } from '../errors/authentication-error.js';
import { PesakitError } from '../errors/pesakit-error.js';
import { RequestAbortedError } from '../errors/request-aborted-error.js';
import { scrubError } from '../internal/redaction.js';
import { requestChannel } from '../observability/channels.js';
import { traced } from '../observability/traced.js';
import type { Product } from '../schemas/product.js';
import { untilAborted } from './abortable.js';
import { sendAttempt } from './attempt.js';
import type { Call } from './call.js';
import { callHeaders, describeCall, describeFailure } from './call-description.js';
import { type RetryContext, withRetries } from './call-retries.js';
import {
  type Endpoint,
  type EndpointId,
  endpoints,
  loginEndpoints,
  type ResponseOf,
  type UploadEndpointId,
} from './endpoints.js';
import { lastResponseOf, type WithLastResponse, withLastResponse } from './last-response.js';
import { missingCredentials } from './missing-credentials.js';
import { endpointPath } from './paths.js';
import type { CheckedRequest, RequestOptions } from './request-options.js';
import { checkedCall } from './request-target.js';
import { requestUnit } from './request-unit.js';
import { Sessions } from './sessions.js';
import type { TransportEvents, WarningEvent } from './transport-events.js';
import {
  type ResolvedTransportOptions,
  resolveTransportOptions,
  type TransportOptions,
} from './transport-options.js';

export type { LastResponse, WithLastResponse } from './last-response.js';
export type { CheckedRequest, RequestOptions } from './request-options.js';
export type * from './transport-events.js';
export type { Credentials, RetryDelay, TransportOptions } from './transport-options.js';

/** The per-call options an upload accepts. */
export type UploadOptions = Pick<RequestOptions, 'signal' | 'timeoutMs' | 'merchantReference'>;

/** Products whose platform has a logout route; airtime has none (its tokens are just dropped). */
const logoutEndpoints = {
  collection: 'collectionLogout',
  disbursement: 'disbursementLogout',
} as const satisfies Partial<Record<Product, EndpointId>>;

/** Moves requests to the platform: lazy login, timeouts, retries of safe operations only. */
export class Transport {
  /** `request`, `response`, `retry` and `error` events; see TransportEvents. */
  readonly events = new EventEmitter<TransportEvents>();
  readonly #options: ResolvedTransportOptions;
  readonly #sessions: Sessions;
  readonly #retryContext: RetryContext;
  /** The call behind each request `prepare` handed out. */
  readonly #checked = new WeakMap<CheckedRequest, Call>();

  constructor(options: TransportOptions = {}) {
    this.#options = resolveTransportOptions(options);
    this.#retryContext = {
      options: this.#options,
      emitRetry: (payload) => this.#emit('retry', payload),
    };
    this.#sessions = new Sessions(async (product) => {
      const credentials = this.#options.credentials[product];
      if (credentials === undefined) {
        const id = loginEndpoints[product];
        throw missingCredentials(product, endpoints[id], this.#loginPath(product));
      }
      return (await this.request(loginEndpoints[product], { body: credentials })).token;
    });
  }

  /** The bearer token held for `product`, if any. */
  token(product: Product): string | undefined {
    return this.#sessions.token(product);
  }

  /** Uses `token` for `product` from now on (`undefined` forgets it). */
  setToken(product: Product, token: string | undefined): void {
    this.#sessions.setToken(product, token);
  }

  /** A token for `product`, held or from a shared login; `signal` stops the wait, not the login. */
  authenticate(product: Product, signal?: AbortSignal): Promise<string> {
    const request = { method: 'POST', path: this.#loginPath(product) };
    return untilAborted(this.#sessions.current(product), signal, request);
  }

  /** Makes every check `request` makes before sending, and throws what it would; sends nothing. */
  prepare<K extends EndpointId>(id: K, options: RequestOptions<K> = {}): CheckedRequest<K> {
    const call = this.#call(id, options, undefined);
    const { signal } = options;
    const { method } = call.endpoint;
    if (signal?.aborted) throw new RequestAbortedError({ method, path: call.path }, signal.reason);
    const checked: CheckedRequest<K> = Object.freeze({ id, method, path: call.path });
    this.#checked.set(checked, call);
    return checked;
  }

  /** Sends a request `prepare` checked (only one this transport prepared), as `request` would. */
  sendChecked<K extends EndpointId>(
    checked: CheckedRequest<K>,
  ): Promise<WithLastResponse<ResponseOf<K>>> {
    const call = this.#checked.get(checked);
    if (call === undefined) {
      throw new PesakitError(
        'sendChecked takes only a request this transport prepared: call transport.prepare first.',
      );
    }
    return this.#send(call, undefined) as Promise<WithLastResponse<ResponseOf<K>>>;
  }

  /** Emits `error` for a failure after a checked request was answered (a store write). */
  reportFailure(checked: CheckedRequest, error: Error): void {
    const call = this.#checked.get(checked);
    if (call) this.#emit('error', () => describeFailure(call, this.#options, error));
  }

  /** Emits a `warning` event (see WarningEvent). */
  warn(event: WarningEvent): void {
    this.#emit('warning', () => event);
  }

  /** Sends one endpoint-table operation. An abort after a money call was sent is ambiguous. */
  async request<K extends EndpointId>(
    id: K,
    options: RequestOptions<K> = {},
  ): Promise<WithLastResponse<ResponseOf<K>>> {
    return (await this.#send(this.#call(id, options, undefined), undefined)) as WithLastResponse<
      ResponseOf<K>
    >;
  }

  /** Sends a `multipart/form-data` upload as `request` would; `endpoint.retry` decides retries. */
  upload<R extends Endpoint & { readonly id: UploadEndpointId }>(
    endpoint: R,
    form: FormData,
    options: UploadOptions = {},
  ): Promise<WithLastResponse<z.output<R['response']>>> {
    const path = endpointPath(endpoint, this.#options.environment);
    const call = checkedCall(endpoint.id, endpoint, path, form, options, this.#options);
    this.#needsToken(call, undefined);
    return this.#send(call, undefined) as Promise<WithLastResponse<z.output<R['response']>>>;
  }

  /** Revokes the product's token (a 401 means already dead) and forgets it even if that fails. */
  async logout(product: Product): Promise<void> {
    const token = this.#sessions.token(product);
    if (token === undefined) return;
    try {
      if (product !== 'airtime') {
        await this.#send(this.#call(logoutEndpoints[product], {}, token), token);
      }
    } catch (error) {
      if (!(error instanceof AuthenticationError)) throw error;
    } finally {
      if (this.#sessions.token(product) === token) this.#sessions.setToken(product, undefined);
    }
  }

  #loginPath(product: Product): string {
    const id = loginEndpoints[product];
    return endpointPath(endpoints[id], this.#options.environment);
  }

  /** A table endpoint's call, after every check that can fail before a byte is sent. */
  #call(id: EndpointId, options: RequestOptions, token: string | undefined): Call {
    const endpoint: Endpoint = endpoints[id];
    const path = endpointPath(endpoint, this.#options.environment, options.params);
    const call = checkedCall(id, endpoint, path, options.body, options, this.#options);
    this.#needsToken(call, token);
    return call;
  }

  /** A bearer call with no token and no credentials could only get a 401: it is not sent. */
  #needsToken(call: Call, token: string | undefined): void {
    const { product, auth } = call.endpoint;
    if (auth !== 'bearer' || token !== undefined || this.token(product)) return;
    if (this.#options.credentials[product] === undefined) {
      throw missingCredentials(product, call.endpoint, call.path);
    }
  }

  /** Sends a call; with `token` given, exactly that one, never logging in (logout). */
  async #send(call: Call, token: string | undefined): Promise<unknown> {
    try {
      const data = await this.#authenticated(call, token);
      const { lastResponse } = call;
      // Every response schema is an object; the check keeps a bodiless answer from throwing.
      if (typeof data !== 'object' || data === null || !lastResponse) return data;
      return withLastResponse(data, lastResponse);
    } catch (error) {
      const failure = this.#abortedOr(call, error);
      this.#emit('error', () => describeFailure(call, this.#options, failure));
      throw failure;
    }
  }

  async #authenticated(call: Call, token: string | undefined): Promise<unknown> {
    if (call.endpoint.auth !== 'bearer') return await this.#withRetries(call, undefined);
    if (token !== undefined) return await this.#withRetries(call, token);
    const { product, method } = call.endpoint;
    const { signal } = call.options;
    const request = { method, path: call.path };
    const current =
      this.#sessions.token(product) ??
      (await untilAborted(this.#sessions.current(product), signal, request));
    try {
      return await this.#withRetries(call, current);
    } catch (error) {
      // A 401 was refused before anything happened: one retry with a fresh token is safe.
      const canLogIn = this.#options.credentials[product] !== undefined;
      if (!(error instanceof AuthenticationError) || !canLogIn) throw error;
      const renewed = this.#sessions.renew(product, current);
      return await this.#withRetries(call, await untilAborted(renewed, signal, request));
    }
  }

  /** A caller's abort that surfaced raw becomes a RequestAbortedError; pesakit errors pass. */
  #abortedOr(call: Call, error: unknown): unknown {
    const { signal } = call.options;
    if (!signal?.aborted || error instanceof PesakitError) return error;
    return new RequestAbortedError(
      { method: call.endpoint.method, path: call.path },
      signal.reason,
    );
  }

  #withRetries(call: Call, token: string | undefined): Promise<unknown> {
    return withRetries(this.#retryContext, call, () => this.#attempt(call, token));
  }

  async #attempt(call: Call, token: string | undefined): Promise<unknown> {
    // Nothing is announced, let alone sent, for a call the caller already gave up on.
    call.options.signal?.throwIfAborted();
    call.attempt += 1;
    call.token = token;
    call.status = undefined;
    const headers = callHeaders(call, this.#options);
    call.headers = headers;
    this.#emit('request', () => describeCall(call, this.#options));
    call.startedAt = performance.now();
    const environment = this.#options.environment;
    // Nothing is allocated for tracing while nobody listens: this is every call's path.
    if (!requestChannel.hasSubscribers) return this.#exchange(call, headers);
    return traced(requestUnit(call, environment), () => this.#exchange(call, headers));
  }

  /** One attempt's exchange; its errors leave with every secret it could echo scrubbed. */
  #exchange(call: Call, headers: Record<string, string>): Promise<unknown> {
    return sendAttempt(
      {
        endpoint: call.endpoint,
        url: call.url,
        path: call.path,
        body: call.body,
        headers,
        timeoutMs: call.options.timeoutMs ?? this.#options.timeoutMs,
        signal: call.options.signal,
        fetch: this.#options.fetch,
        merchantReference: call.options.merchantReference ?? '',
      },
      (response) => {
        call.status = response.status;
        call.lastResponse = lastResponseOf(response, () => this.#secrets(call));
        const durationMs = performance.now() - call.startedAt;
        this.#emit('response', () => ({
          ...describeCall(call, this.#options),
          status: response.status,
          durationMs,
          requestId: call.lastResponse?.requestId,
          responseHeaders: call.lastResponse?.headers ?? {},
        }));
      },
    ).catch((error: unknown) => {
      throw scrubError(error, this.#secrets(call));
    });
  }

  /** The credential values this call could see echoed: passwords, the API key, tokens. */
  #secrets(call: Call): string[] {
    const { credentials, apiKey } = this.#options;
    const secrets = Object.values(credentials).map((account) => account.password);
    for (const product of ['collection', 'airtime', 'disbursement'] as const) {
      const token = this.#sessions.token(product);
      if (token !== undefined) secrets.push(token);
    }
    if (apiKey !== undefined) secrets.push(apiKey);
    if (call.token !== undefined) secrets.push(call.token);
    return secrets;
  }

  /** Emits only when someone listens; a throwing listener must not fail a settled payment. */
  #emit<E extends keyof TransportEvents>(event: E, payload: () => TransportEvents[E][0]): void {
    if (this.events.listenerCount(event) === 0) return;
    try {
      (this.events.emit as (event: E, payload: TransportEvents[E][0]) => boolean)(event, payload());
    } catch (error) {
      process.emitWarning(`A pesakit transport "${event}" listener threw: ${String(error)}`);
    }
  }
}
