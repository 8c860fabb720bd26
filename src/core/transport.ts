import { EventEmitter } from 'eventemitter3';
import type { z } from 'zod';
import { AuthenticationError } from '../errors/authentication-error.js';
import { PesakitError } from '../errors/pesakit-error.js';
import { RequestAbortedError } from '../errors/request-aborted-error.js';
import { RequestValidationError } from '../errors/request-validation-error.js';
import { redactHeaders } from '../internal/redaction.js';
import { untilAborted } from './abortable.js';
import { sendAttempt } from './attempt.js';
import type { Call } from './call.js';
import { callHeaders, describeCall, describeFailure } from './call-description.js';
import { type RetryContext, withRetries } from './call-retries.js';
import { EndpointTargets } from './endpoint-targets.js';
import {
  type Endpoint,
  type EndpointId,
  type Environment,
  endpoints,
  loginEndpoints,
  type Product,
  type ResponseOf,
  type UploadEndpointId,
} from './endpoints.js';
import { lastResponseOf, type WithLastResponse, withLastResponse } from './last-response.js';
import { missingCredentials } from './missing-credentials.js';
import type { CheckedRequest, RequestOptions } from './request-options.js';
import { validatedBody } from './request-target.js';
import { Sessions } from './sessions.js';
import type { TransportEvents } from './transport-events.js';
import {
  type ResolvedTransportOptions,
  resolveTransportOptions,
  type TransportOptions,
} from './transport-options.js';
import { type UploadOptions, uploadCall } from './upload.js';

export type { LastResponse, WithLastResponse } from './last-response.js';
export type { CheckedRequest, RequestOptions } from './request-options.js';
export type * from './transport-events.js';
export type { Credentials, RetryDelay, TransportOptions } from './transport-options.js';

/** Everything `#prepare` works out before sending. */
interface Prepared {
  readonly endpoint: Endpoint;
  readonly body: unknown;
  readonly path: string;
  readonly url: string;
  readonly product: Product;
  readonly canLogIn: boolean;
}

/** Products whose platform has a logout route; airtime has none (its tokens are just dropped). */
const logoutEndpoints = {
  collection: 'collectionLogout',
  disbursement: 'disbursementLogout',
} as const satisfies Partial<Record<Product, EndpointId>>;

/**
 * Moves requests to the platform and back: resolves each endpoint's URL for the environment,
 * authenticates (logging in lazily and once more after a 401), times out, retries safe
 * operations, never retries money-moving ones, validates every body, and reports each attempt
 * as an event with secrets redacted.
 *
 * @example
 * const transport = new Transport({ baseUrl: 'http://127.0.0.1:4010', credentials: { airtime } });
 * const user = await transport.request('airtimeUser');
 */
export class Transport {
  /** `request`, `response`, `retry` and `error` events; see TransportEvents. */
  readonly events = new EventEmitter<TransportEvents>();
  readonly #options: ResolvedTransportOptions;
  readonly #sessions: Sessions;
  /** Each endpoint's path and URL for these options, resolved once. */
  readonly #targets: EndpointTargets;
  readonly #retryContext: RetryContext;
  /** What `prepare` checked, by the request it handed out. */
  readonly #checked = new WeakMap<
    CheckedRequest,
    Prepared & { options: RequestOptions; call?: Call }
  >();

  constructor(options: TransportOptions = {}) {
    this.#options = resolveTransportOptions(options);
    this.#targets = new EndpointTargets(this.#options);
    this.#retryContext = {
      options: this.#options,
      emitRetry: (payload) => this.#emit('retry', payload),
    };
    this.#sessions = new Sessions(async (product) => {
      const credentials = this.#options.credentials[product];
      const id = loginEndpoints[product];
      if (credentials === undefined)
        throw missingCredentials(product, endpoints[id], this.#targets.path(id));
      const answer = await this.request(id, { body: credentials });
      return answer.token;
    });
  }

  /** The environment whose path table this transport uses. */
  get environment(): Environment {
    return this.#options.environment;
  }

  /** The bearer token held for `product`, if any. */
  token(product: Product): string | undefined {
    return this.#sessions.token(product);
  }

  /** Uses `token` for `product` from now on (`undefined` forgets it). */
  setToken(product: Product, token: string | undefined): void {
    this.#sessions.setToken(product, token);
  }

  /** Logs in with the product's credentials now (joining a login already in flight). */
  login(product: Product): Promise<string> {
    return this.#sessions.login(product);
  }

  /**
   * A token for `product`: the one held, or one from a login with the configured credentials
   * (joining a login in flight). Money-moving calls get it before writing their intent, so a
   * wrong password is an AuthenticationError with nothing stored. `signal` stops the wait (a
   * RequestAbortedError), not the login, which other calls may share.
   */
  authenticate(product: Product, signal?: AbortSignal): Promise<string> {
    const id = loginEndpoints[product];
    const request = { method: endpoints[id].method, path: this.#targets.path(id) };
    return untilAborted(this.#sessions.current(product), signal, request);
  }

  #checkNow(id: EndpointId, options: RequestOptions): Prepared {
    const prepared = this.#prepare(id, options, undefined);
    const { signal } = options;
    if (signal?.aborted) {
      throw new RequestAbortedError(
        { method: prepared.endpoint.method, path: prepared.path },
        signal.reason,
      );
    }
    return prepared;
  }

  /**
   * `check`, keeping what it checked: the request it returns is sent by `sendChecked` without
   * checking its body again. The money path checks everything before writing its intent, then
   * sends; checking the body a second time (a zod parse of the whole request, its URL and
   * MSISDN rules included) cost a money call about as much as the rest of its validation.
   * Only a request this transport checked can be sent this way.
   */
  prepare<K extends EndpointId>(id: K, options: RequestOptions<K> = {}): CheckedRequest<K> {
    const prepared = this.#checkNow(id, options);
    const checked: CheckedRequest<K> = Object.freeze({
      id,
      method: prepared.endpoint.method,
      path: prepared.path,
    });
    this.#checked.set(checked, { options, ...prepared });
    return checked;
  }

  /** Sends a request `prepare` checked, as `request` would send it. */
  sendChecked<K extends EndpointId>(
    checked: CheckedRequest<K>,
  ): Promise<WithLastResponse<ResponseOf<K>>> {
    const prepared = this.#checked.get(checked);
    if (prepared === undefined) {
      throw new PesakitError(
        'sendChecked takes only a request this transport prepared: call transport.prepare first.',
      );
    }
    const { endpoint, body, path, url, product, canLogIn, options } = prepared;
    const call: Call = {
      id: checked.id,
      endpoint,
      url,
      path,
      body,
      options,
      attempt: 0,
      startedAt: 0,
    };
    prepared.call = call;
    return this.#send(call, product, canLogIn, undefined) as Promise<
      WithLastResponse<ResponseOf<K>>
    >;
  }

  /**
   * Reports, as an `error` event, a failure that came after a checked request was answered:
   * the money path's store write failing once the platform had answered.
   */
  reportFailure(checked: CheckedRequest, error: Error): void {
    const call = this.#checked.get(checked)?.call;
    if (call) this.#emit('error', () => describeFailure(call, this.#options, error));
  }

  /**
   * Revokes the product's token on the platform (collection, disbursement) and forgets it —
   * even when the revoke fails, since the caller has asked to stop using it. A 401 means the
   * token was already dead, which is what logout wanted. Never logs in to log out.
   */
  async logout(product: Product): Promise<void> {
    const token = this.#sessions.token(product);
    if (token === undefined) return;
    try {
      if (product !== 'airtime') await this.#run(logoutEndpoints[product], {}, token);
    } catch (error) {
      if (!(error instanceof AuthenticationError)) throw error;
    } finally {
      if (this.#sessions.token(product) === token) this.#sessions.setToken(product, undefined);
    }
  }

  /**
   * Sends one operation of the endpoint table and returns its validated response, with the
   * response's status, request id and redacted headers as a non-enumerable `lastResponse`.
   * @throws RequestValidationError before sending when the body or path parameters are invalid.
   * @throws RequestAbortedError when `signal` aborts a call that moves no money, or one that
   * moves money before it was sent (after: AmbiguousOutcomeError).
   */
  request<K extends EndpointId>(
    id: K,
    options: RequestOptions<K> = {},
  ): Promise<WithLastResponse<ResponseOf<K>>> {
    return this.#run(id, options, undefined) as Promise<WithLastResponse<ResponseOf<K>>>;
  }

  /**
   * Sends a `multipart/form-data` upload to a bearer route that is not in the JSON endpoint
   * table (airtime `customer/bulkpayment`, which takes a spreadsheet): the same origin, lazy
   * login, timeout, error classes and events as `request`. `endpoint.retry` decides retries as
   * for a table endpoint — `money` is never retried, and a lost answer is an
   * AmbiguousOutcomeError. The answer is checked against `endpoint.response`.
   */
  upload<R extends Endpoint & { readonly id: UploadEndpointId }>(
    endpoint: R,
    form: FormData,
    options: UploadOptions = {},
  ): Promise<WithLastResponse<z.output<R['response']>>> {
    const held = this.token(endpoint.product);
    const { call, canLogIn } = uploadCall(endpoint, form, options, this.#options, held);
    return this.#send(call, endpoint.product, canLogIn, undefined) as Promise<
      WithLastResponse<z.output<R['response']>>
    >;
  }

  /** Everything that can fail before a byte is sent; throws the error `request` would. */
  #prepare(id: EndpointId, options: RequestOptions, token: string | undefined): Prepared {
    const endpoint: Endpoint = endpoints[id];
    // A call's own timeout, like the client's: -1, 0 or NaN would fire at once — for a money
    // call after it was sent, an `unknown` for a payment the platform took.
    const { timeoutMs } = options;
    if (
      timeoutMs !== undefined &&
      !(typeof timeoutMs === 'number' && timeoutMs >= 1 && timeoutMs <= 2_147_483_647)
    ) {
      throw new RequestValidationError(id, {
        timeoutMs: ['The timeoutMs must be a number of milliseconds from 1 to 2147483647.'],
      });
    }
    const body = validatedBody(id, endpoint, this.#options.environment, options.body);
    // Headers travel as a plain object (cheaper for fetch than a Headers); a malformed one is
    // refused here, by the same check a Headers makes, before anything is stored or sent.
    if (options.headers !== undefined) new Headers(options.headers);
    const { path, url } = this.#targets.target(id, endpoint, options.params);
    const product = endpoint.product;
    const canLogIn = this.#options.credentials[product] !== undefined;
    if (endpoint.auth === 'bearer' && token === undefined && !this.token(product) && !canLogIn) {
      throw missingCredentials(product, endpoint, path);
    }
    return { endpoint, body, path, url, product, canLogIn };
  }

  /** `token` given: use exactly it and never log in (logout). */
  async #run(id: EndpointId, options: RequestOptions, token: string | undefined): Promise<unknown> {
    const { endpoint, body, path, url, product, canLogIn } = this.#prepare(id, options, token);
    const call: Call = { id, endpoint, url, path, body, options, attempt: 0, startedAt: 0 };
    return this.#send(call, product, canLogIn, token);
  }

  /**
   * Sends a prepared call (a table endpoint or an upload): resolves with the answer and its
   * `lastResponse`, or emits `error` and rejects with the error the caller should see.
   */
  async #send(
    call: Call,
    product: Product,
    canLogIn: boolean,
    token: string | undefined,
  ): Promise<unknown> {
    try {
      const data = await this.#authenticated(call, product, canLogIn, token);
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

  async #authenticated(
    call: Call,
    product: Product,
    canLogIn: boolean,
    token: string | undefined,
  ): Promise<unknown> {
    if (call.endpoint.auth !== 'bearer') return await this.#withRetries(call, undefined);
    if (token !== undefined) return await this.#withRetries(call, token);
    const request = { method: call.endpoint.method, path: call.path };
    // A held token is used as it is: no promise to wait on (the usual case, every call).
    const current =
      this.#sessions.token(product) ??
      (await untilAborted(this.#sessions.current(product), call.options.signal, request));
    try {
      return await this.#withRetries(call, current);
    } catch (error) {
      // A 401 means the platform refused the token before doing anything, so repeating the
      // request once with a fresh token is safe even for money-moving calls.
      if (!(error instanceof AuthenticationError) || !canLogIn) throw error;
      const renewed = this.#sessions.renew(product, current);
      return await this.#withRetries(
        call,
        await untilAborted(renewed, call.options.signal, request),
      );
    }
  }

  /**
   * A caller's abort that surfaced raw (during a backoff, from p-retry, before an attempt) as
   * the RequestAbortedError everything pesakit throws is; pesakit's own errors pass unchanged.
   */
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
        call.lastResponse = lastResponseOf(response);
        const durationMs = performance.now() - call.startedAt;
        this.#emit('response', () => ({
          ...describeCall(call, this.#options),
          status: response.status,
          durationMs,
          requestId: response.headers.get('x-request-id') ?? undefined,
          responseHeaders: redactHeaders(response.headers),
        }));
      },
    );
  }

  /**
   * Emits the payload `payload` builds — only when someone listens: building it (new Headers,
   * redaction) cost ~28 µs a call for nobody. A listener that throws must not turn a settled
   * payment into an apparent failure.
   */
  #emit<E extends keyof TransportEvents>(event: E, payload: () => TransportEvents[E][0]): void {
    if (this.events.listenerCount(event) === 0) return;
    try {
      (this.events.emit as (event: E, payload: TransportEvents[E][0]) => boolean)(event, payload());
    } catch (error) {
      process.emitWarning(`A pesakit transport "${event}" listener threw: ${String(error)}`);
    }
  }
}
