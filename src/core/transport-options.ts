import { ConfigurationError } from '../errors/configuration-error.js';
import type { Product } from '../schemas/product.js';
import type { Environment } from './endpoints.js';

/** The email and password of one product's account (each product has its own accounts). */
export interface Credentials {
  readonly email: string;
  readonly password: string;
}

/** How long to wait between retries of a safe operation. */
export interface RetryDelay {
  /**
   * The first delay, doubled per retry up to `maxMs`, with random jitter; a `Retry-After` of up
   * to 60 s replaces it. @default 500
   */
  readonly minMs?: number;
  /** @default 8000 */
  readonly maxMs?: number;
}

/** Options of the HTTP transport that every product resource sends through. */
export interface TransportOptions {
  /** `sandbox`: routes under `/api/sandbox...`; `production`: each product's host. */
  readonly environment?: Environment;
  /** One origin (may carry a path prefix) for all products; sandbox only. */
  readonly baseUrl?: string;
  /** Each product's origin: required in production, overrides `baseUrl` in the sandbox. */
  readonly baseUrls?: Readonly<Partial<Record<Product, string>>>;
  /** The accounts logged in with lazily; without them, call `setToken` before bearer routes. */
  readonly credentials?: Readonly<Partial<Record<Product, Credentials>>>;
  /** Sent as `x-api-key` on routes that take one (collection `pay_mobile`). */
  readonly apiKey?: string;
  /** How long one attempt may take, up to the end of the response body. @default 30000 */
  readonly timeoutMs?: number;
  /** Retries of a safe operation after a transient failure; money never retries. @default 2 */
  readonly maxRetries?: number;
  /** The backoff between retries. */
  readonly retryDelay?: RetryDelay;
  /** The fetch every attempt goes through. @default globalThis.fetch, looked up at call time */
  readonly fetch?: typeof globalThis.fetch;
  /** Headers added to every request. Authentication headers set by the transport win. */
  readonly headers?: Readonly<Record<string, string>>;
  /** In production, allow `http://` to a loopback address (a local TLS proxy). @default false */
  readonly allowInsecureHttp?: boolean;
}

/** The options with every default filled in and every value checked. */
export interface ResolvedTransportOptions {
  readonly environment: Environment;
  readonly baseUrl: string | undefined;
  readonly baseUrls: Readonly<Partial<Record<Product, string>>>;
  readonly credentials: Readonly<Partial<Record<Product, Credentials>>>;
  readonly apiKey: string | undefined;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly retryDelay: { readonly minMs: number; readonly maxMs: number };
  readonly fetch: typeof globalThis.fetch;
  /** Names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
}

/** Fills in defaults and rejects, at construction, options that cannot work. */
export function resolveTransportOptions(options: TransportOptions): ResolvedTransportOptions {
  const environment = options.environment ?? 'sandbox';
  if (environment !== 'sandbox' && environment !== 'production') {
    throw new ConfigurationError(
      'environment',
      `\`environment\` must be 'sandbox' or 'production', got ${environment}.`,
    );
  }
  checkAccounts(options);
  const urls = Object.entries(options.baseUrls ?? {}).map(([product, url]) => [
    `baseUrls.${product}`,
    url,
  ]);
  for (const [option, url] of [['baseUrl', options.baseUrl], ...urls] as const) {
    if (url === undefined) continue;
    const parsed = checkUrl(option, url);
    // Production sends only to `baseUrls`; `baseUrl` is the sandbox's.
    if (environment === 'production' && option !== 'baseUrl') {
      checkTransportSecurity(option, parsed, options);
    }
  }
  const timeoutMs = options.timeoutMs ?? 30_000;
  // Node's timers cannot wait longer than 2^31 - 1 ms; a larger value would fire at once.
  checkNumber('timeoutMs', timeoutMs, 1, 2_147_483_647);
  const maxRetries = options.maxRetries ?? 2;
  checkNumber('maxRetries', maxRetries, 0);
  if (!Number.isInteger(maxRetries)) {
    throw new ConfigurationError(
      'maxRetries',
      `\`maxRetries\` must be a whole number, got ${maxRetries}.`,
    );
  }
  const headers = checkedHeaders(options.headers ?? {});
  const minMs = options.retryDelay?.minMs ?? 500;
  const maxMs = options.retryDelay?.maxMs ?? 8_000;
  checkNumber('retryDelay.minMs', minMs, 0);
  checkNumber('retryDelay.maxMs', maxMs, minMs);
  return {
    environment,
    baseUrl: options.baseUrl,
    baseUrls: options.baseUrls ?? {},
    credentials: options.credentials ?? {},
    apiKey: options.apiKey,
    timeoutMs,
    maxRetries,
    retryDelay: { minMs, maxMs },
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    headers,
  };
}

function checkUrl(option: string, value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigurationError(
      option,
      `\`${option}\` must be an absolute http(s) URL, got "${value}".`,
    );
  }
  // fetch would refuse it only at call time, quoting the password.
  if (url.username !== '' || url.password !== '') {
    throw new ConfigurationError(
      option,
      `\`${option}\` must not carry a user name or password (user:password@host): the platform authenticates by login, not by the URL.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigurationError(
      option,
      `\`${option}\` must be an http or https URL, got "${value}".`,
    );
  }
  // Paths are appended as text: after a query or fragment they would land inside it.
  if (/[?#]/.test(value)) {
    throw new ConfigurationError(
      option,
      // Not echoed: a query string is where people put keys.
      `\`${option}\` must not have a query string or a fragment: give the origin, with a path prefix if any (${url.origin}${url.pathname.replace(/\/$/, '')}).`,
    );
  }
  return url;
}

/** Host names that never leave the machine: the only `http://` production may use. */
const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Production `http://` sends secrets in clear: only to a loopback host with `allowInsecureHttp`. */
function checkTransportSecurity(option: string, url: URL, options: TransportOptions): void {
  if (url.protocol === 'https:') return;
  const loopback = loopbackHosts.has(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname);
  if (options.allowInsecureHttp === true && loopback) return;
  throw new ConfigurationError(
    option,
    options.allowInsecureHttp === true
      ? `\`${option}\` is http:// to ${url.hostname}: \`allowInsecureHttp\` allows http:// only to a loopback address (127.0.0.1, ::1, localhost). Use https://.`
      : `\`${option}\` is http://: in production the password and tokens would travel in clear. Use https:// (or, for a TLS-terminating proxy on this host, \`allowInsecureHttp: true\` with a loopback address).`,
  );
}

function checkNumber(option: string, value: number, min: number, max = Infinity): void {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    const range = max === Infinity ? `at least ${min}` : `between ${min} and ${max}`;
    throw new ConfigurationError(
      option,
      `\`${option}\` must be a finite number ${range}, got ${value}.`,
    );
  }
}

/** The headers, names lower-cased, each checked as fetch would, at construction. */
function checkedHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const checked: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    try {
      new Headers([[name, value]]);
    } catch {
      throw new ConfigurationError(
        `headers.${name}`,
        `\`headers.${name}\` is not a valid HTTP header (a name is a token such as ` +
          '`x-shop-id`; a value has no line breaks or NUL).',
      );
    }
    checked[name.toLowerCase()] = value;
  }
  return checked;
}

/** Refuses malformed credentials or API key, no host at all, or credentials with no host. */
function checkAccounts(options: TransportOptions): void {
  const environment = options.environment ?? 'sandbox';
  const credentials = Object.entries(options.credentials ?? {}) as [Product, unknown][];
  for (const [product, given] of credentials) checkCredentials(product, given);
  if (options.apiKey !== undefined) checkText('apiKey', options.apiKey);

  const baseUrls = options.baseUrls ?? {};
  const hasHost = (product: Product) =>
    baseUrls[product] !== undefined || (environment === 'sandbox' && options.baseUrl !== undefined);
  if (!(['collection', 'airtime', 'disbursement'] as const).some(hasHost)) {
    throw environment === 'production'
      ? new ConfigurationError(
          'baseUrls',
          "environment 'production' needs `baseUrls`: each product has its own host there " +
            "(e.g. { collection: 'https://…' }); `baseUrl` is for the sandbox only.",
        )
      : new ConfigurationError(
          'baseUrl',
          "`baseUrl` is required: the sandbox's origin, e.g. 'http://127.0.0.1:4010' " +
            '(or `baseUrls` for each product).',
        );
  }
  for (const [product] of credentials) {
    if (hasHost(product)) continue;
    throw new ConfigurationError(
      `baseUrls.${product}`,
      `\`credentials.${product}\` is set, but there is no host for the ${product} product: set ` +
        (environment === 'production'
          ? `\`baseUrls.${product}\` (in production each product has its own host).`
          : `\`baseUrl\` or \`baseUrls.${product}\`.`),
    );
  }
}

function checkCredentials(product: Product, given: unknown): void {
  if (given === undefined) return;
  if (typeof given !== 'object' || given === null) {
    throw new ConfigurationError(
      `credentials.${product}`,
      `\`credentials.${product}\` must be { email, password }.`,
    );
  }
  const { email, password } = given as { email?: unknown; password?: unknown };
  checkText(`credentials.${product}.email`, email);
  checkText(`credentials.${product}.password`, password);
}

// The value is never echoed: it may be a password.
function checkText(option: string, value: unknown): void {
  if (typeof value === 'string' && value.trim() !== '') return;
  const got = typeof value === 'string' ? 'a blank string' : typeof value;
  throw new ConfigurationError(option, `\`${option}\` must be a non-empty string, got ${got}.`);
}
