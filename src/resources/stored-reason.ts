/**
 * The longest `statusReason` a store keeps (input-rules: `shortText`). Longer text is refused
 * with a `StoreInputError`.
 */
const maxReasonLength = 1000;

/**
 * The platform's own text (an upstream message, an error's message) as a record's reason. The
 * platform gives it no bound, and it is stored with the answer's write — which must not fail
 * after money moved: a refused write would leave the record `initiating` without the
 * platform's references and hand the caller a StoreInputError for a payment that went
 * through. So it is cut to what every store keeps, and a NUL (which PostgreSQL text cannot
 * hold) becomes U+FFFD. The whole answer is kept in `lastPayload`.
 */
export function reasonFromPlatform(text: string): string {
  const storable = text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
  if (storable.length <= maxReasonLength) return storable;
  // Do not cut a surrogate pair in two.
  let end = maxReasonLength - 1;
  const last = storable.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${storable.slice(0, end)}…`;
}
