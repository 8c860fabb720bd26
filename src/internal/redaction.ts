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

/** A plain object of the headers with every credential-bearing value replaced. */
export function redactHeaders(headers: Headers): Record<string, string> {
  const plain: Record<string, string> = {};
  headers.forEach((value, name) => {
    plain[name] = secretHeaders.has(name.toLowerCase()) ? REDACTED : value;
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
