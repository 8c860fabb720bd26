/** Keeps secrets (header credentials, body passwords and tokens) out of events, logs and errors. */

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

/** Credential headers replaced, and `secrets` scrubbed from the rest (a `WWW-Authenticate`). */
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
