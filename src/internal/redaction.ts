/**
 * Keeps secrets (header credentials, body passwords and tokens, tokens in URLs) out of events,
 * logs and errors.
 */

/** What a redacted value is replaced with: visibly redacted, never a partial secret. */
export const REDACTED = '[redacted]';

/** Headers whose values are credentials, the sandbox's engine and control keys included. */
const secretHeaders: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'x-engine-key',
  'x-control-key',
  'cookie',
  'set-cookie',
]);

export function isSecretHeader(lowerCaseName: string): boolean {
  return secretHeaders.has(lowerCaseName);
}

/** JSON keys whose string values are secrets; non-strings stay, so a 422's messages survive. */
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

/** A JSON key or URL parameter naming a secret, as read: `Access_Token`, `token[]` too. */
function isSecretKey(name: string): boolean {
  return secretKeys.has(name.split('[', 1)[0]!.trim().toLowerCase());
}

/** Headers whose values are URLs: a redirect's may carry a token in its query or path. */
const urlHeaders: ReadonlySet<string> = new Set(['location', 'content-location']);

function redactHeader(name: string, value: string): string {
  const lowerCaseName = name.toLowerCase();
  if (secretHeaders.has(lowerCaseName)) return REDACTED;
  return urlHeaders.has(lowerCaseName) ? redactUrl(value) : value;
}

/** Credential headers replaced, and `secrets` scrubbed from the rest (a `WWW-Authenticate`). */
export function redactHeaders(
  headers: Headers,
  secrets: readonly string[] = [],
): Record<string, string> {
  const plain: Record<string, string> = {};
  headers.forEach((value, name) => {
    plain[name] = scrubText(redactHeader(name, value), secrets);
  });
  return plain;
}

/** A copy of the headers with every credential-bearing value (`Set-Cookie` too) replaced. */
export function redactedHeaders(headers: Headers): Headers {
  const copy = new Headers();
  headers.forEach((value, name) => {
    copy.append(name, redactHeader(name, value));
  });
  return copy;
}

/** A deep copy of a parsed JSON body with the string values of secret keys replaced. */
export function redactBody(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(redactBody);
  if (typeof body !== 'object' || body === null) return body;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (typeof value !== 'string') copy[key] = redactBody(value);
    else if (isSecretKey(key)) copy[key] = REDACTED;
    // `payment_url`, `callback_url`: a URL may carry a token in its query or path.
    else copy[key] = /url$/i.test(key) ? redactUrl(value) : value;
  }
  return copy;
}

/**
 * A URL or request target fit to show: the values of secret-named parameters (`?token=`,
 * `access_token`, in any case, percent-encoded, repeated) and a hosted checkout's payment token
 * (the segment after `checkout`) read `[redacted]`, however the URL is written. A path that
 * carried a secret comes back percent-decoded, as a router reads it; any other as it was.
 */
export function redactUrl(url: string): string {
  const [path, query] = atQuery(url);
  const readable = percentDecoded(path);
  // Still encoded after every round: nothing in it can be read, so nothing of it is shown.
  if (readable === undefined) return REDACTED + redactPairs(query, queryPair);
  // A decoded `%3F` ends no path for the router, but a reader takes what follows for a query.
  const [readablePath, readableQuery] = atQuery(redactCheckoutToken(readable));
  const redacted = redactPairs(readablePath, segmentPair) + redactPairs(readableQuery, queryPair);
  return (redacted === readable ? path : redacted) + redactPairs(query, queryPair);
}

/** The text before the first `?`, and the rest from the `?` on (empty without one). */
function atQuery(url: string): [string, string] {
  const start = url.indexOf('?');
  return start === -1 ? [url, ''] : [url.slice(0, start), url.slice(start)];
}

/** Enough for any spelling a server decodes; a deeper one is not shown at all. */
const decodingRounds = 8;

/** Percent-decoded until nothing changes; undefined if it still changes after every round. */
function percentDecoded(text: string): string | undefined {
  let current = text;
  for (let round = 0; round < decodingRounds; round += 1) {
    const decoded = current.replace(/(?:%[0-9a-f]{2})+/gi, decodedEscapes);
    if (decoded === current) return current;
    current = decoded;
  }
  return undefined;
}

/** A run of escapes; where it is not UTF-8, its ASCII escapes still decode (`%FF%63` → `%FFc`). */
function decodedEscapes(run: string): string {
  try {
    return decodeURIComponent(run);
  } catch {
    return run.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    );
  }
}

/**
 * The segment after one named `checkout` is a payment token, whatever separates the segments
 * (`/`, `\`, doubled), whatever `;` parameters or `#` follow the name, in any case; after `.`
 * and `..` it is the next segment both as written and as a server resolving them reads it.
 */
function redactCheckoutToken(path: string): string {
  // Segments at even indexes, the separators between them at odd ones.
  const parts = path.split(/([/\\]+)/);
  let written: string | undefined;
  const resolved: string[] = [];
  for (let index = 0; index < parts.length; index += 2) {
    const segment = parts[index]!;
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      resolved.pop();
      continue;
    }
    if (namesCheckout(written) || namesCheckout(resolved.at(-1))) parts[index] = REDACTED;
    written = segment;
    resolved.push(segment);
  }
  return parts.join('');
}

function namesCheckout(segment: string | undefined): boolean {
  return segment?.split(/[;#?]/, 1)[0]?.toLowerCase() === 'checkout';
}

// `name=value` pairs: in a query after `?`, `&` or `;`, the value running to the next pair; in a
// path segment after `;`, the value ending with the segment.
const queryPair = /([?&;])([^=&;]*)=([^&;]*)/g;
const segmentPair = /(;)([^=;/\\]*)=([^;/\\]*)/g;

function redactPairs(text: string, pair: RegExp): string {
  return text.replace(pair, (whole, separator: string, name: string) => {
    const readable = percentDecoded(name.replaceAll('+', ' '));
    return readable === undefined || isSecretKey(readable)
      ? `${separator}${name}=${REDACTED}`
      : whole;
  });
}

/** Shorter secrets are not scrubbed by value: they are likely ordinary text too. */
const minimumSecretLength = 6;

/** Replaces each secret's value anywhere: a platform or proxy may echo it in any field. */
export function scrubText(text: string, secrets: readonly string[]): string {
  let scrubbed = text;
  for (const secret of secrets) {
    if (secret.length >= minimumSecretLength) scrubbed = scrubbed.split(secret).join(REDACTED);
  }
  return scrubbed;
}

function scrubValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return scrubText(value, secrets);
  if (Array.isArray(value)) return value.map((item) => scrubValue(item, secrets));
  if (typeof value !== 'object' || value === null || value instanceof Headers) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = scrubValue(item, secrets);
  return copy;
}

/** Scrubs secrets in place from an error's message, stack, body, headers and `cause` chain. */
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
