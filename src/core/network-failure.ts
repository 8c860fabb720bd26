/**
 * Fetch failures that certainly happened before the request was written (code read from the error
 * and its `cause`). Anything else may have been sent: guessing wrong could pay twice.
 */
const beforeSendCodes = new Set([
  // The connection was never made.
  'ECONNREFUSED',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  // The host name did not resolve.
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NONAME',
  // TLS refused the server before any request byte went out.
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
]);

/** The system or undici error code of a fetch failure, wherever it was reported. */
function failureCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** True only when the failure certainly happened before any byte of the request was sent. */
export function failedBeforeSending(error: unknown): boolean {
  const code = failureCode(error);
  return code !== undefined && beforeSendCodes.has(code);
}

/** A short, secret-free description of a fetch failure for error messages. */
export function describeFailure(error: unknown): string {
  const code = failureCode(error);
  const { cause } = error as { cause?: unknown };
  const message =
    cause instanceof Error ? cause.message : String((error as Error)?.message ?? error);
  return code && !message.includes(code) ? `${code}: ${message}` : message;
}
