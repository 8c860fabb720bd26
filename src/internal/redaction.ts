/**
 * Keeps secrets out of events, logs and errors (DESIGN.md decision 10). Two kinds of secret
 * travel with a request: credentials in headers (the bearer token, pay_mobile's API key) and
 * credentials or tokens in JSON bodies (the login password, the token a login answers with).
 */

/** What a redacted value is replaced with: visibly redacted, never a partial secret. */
export const REDACTED = '[redacted]';

/**
 * Headers whose values are credentials. `x-engine-key` and `x-control-key` are the sandbox's
 * (its engine callback's and its control API's keys): a callback forwarded with one must not
 * store it in the inbox or show it in an event.
 */
const secretHeaders: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'x-engine-key',
  'x-control-key',
  'cookie',
  'set-cookie',
]);

/** Whether a header (by its lower-case name) carries a credential, to redact it. */
export function isSecretHeader(lowerCaseName: string): boolean {
  return secretHeaders.has(lowerCaseName);
}

/**
 * JSON keys whose string values are secrets. Only string values are replaced, so a Laravel
 * 422 body `{ errors: { password: ["The password field is required."] } }` keeps its messages.
 */
const secretKeys = new Set([
  'password',
  'password_confirmation',
  'token',
  'access_token',
  'refresh_token',
  'payment_token',
  'api_key',
  'apikey',
  'secret',
]);

/**
 * A plain object of the headers with every credential-bearing value replaced, and every
 * `secrets` value scrubbed from the rest (a `WWW-Authenticate` quoting the token).
 */
export function redactHeaders(
  headers: Headers,
  secrets: readonly string[] = [],
): Record<string, string> {
  const plain: Record<string, string> = {};
  headers.forEach((value, name) => {
    plain[name] = secretHeaders.has(name.toLowerCase()) ? REDACTED : scrubText(value, secrets);
  });
  return plain;
}

/** A copy of the headers with every credential-bearing value (`Set-Cookie` too) replaced. */
export function redactedHeaders(headers: Headers): Headers {
  const copy = new Headers();
  headers.forEach((value, name) => {
    copy.append(name, secretHeaders.has(name.toLowerCase()) ? REDACTED : value);
  });
  return copy;
}

/** A deep copy of a parsed JSON body with the string values of secret keys replaced. */
export function redactBody(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(redactBody);
  if (typeof body !== 'object' || body === null) return body;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    copy[key] =
      typeof value === 'string' && secretKeys.has(key.toLowerCase()) ? REDACTED : redactBody(value);
  }
  return copy;
}

/**
 * Secrets shorter than this are not scrubbed by value: so short a string is likely to be
 * ordinary text too (real passwords, tokens and keys are longer).
 */
const minimumSecretLength = 6;

/**
 * `text` with every occurrence of each secret replaced. A platform or a proxy may echo a
 * credential in any field (a 401 quoting the token, a 500 page echoing the login body), so the
 * values themselves are looked for, not only the keys that usually hold them.
 */
export function scrubText(text: string, secrets: readonly string[]): string {
  let scrubbed = text;
  for (const secret of secrets) {
    if (secret.length >= minimumSecretLength) scrubbed = scrubbed.split(secret).join(REDACTED);
  }
  return scrubbed;
}

/** A deep copy of a parsed body with every secret value scrubbed from its strings. */
function scrubValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return scrubText(value, secrets);
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, secrets));
  if (typeof value !== 'object' || value === null || value instanceof Headers) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = scrubValue(item, secrets);
  return copy;
}

/**
 * Scrubs every secret value from an error before it leaves pesakit — its message and stack,
 * the `body` and `headers` an ApiError or ResponseValidationError carries, and the same for
 * each error in its `cause` chain — so that neither a log line, `util.inspect`, nor an event
 * shows one. The error is changed in place and returned.
 */
export function scrubError<E>(error: E, secrets: readonly string[]): E {
  const present = secrets.filter((secret) => secret.length >= minimumSecretLength);
  if (present.length === 0) return error;
  for (let current: unknown = error, depth = 0; current instanceof Error && depth < 5; depth++) {
    const fields = current as Error & { body?: unknown; headers?: unknown };
    fields.message = scrubText(fields.message, present);
    if (fields.stack !== undefined) fields.stack = scrubText(fields.stack, present);
    if (fields.body !== undefined) fields.body = scrubValue(fields.body, present);
    if (fields.headers instanceof Headers) {
      const headers = new Headers();
      fields.headers.forEach((value, name) => {
        headers.append(name, scrubText(value, present));
      });
      fields.headers = headers;
    }
    current = current.cause;
  }
  return error;
}
