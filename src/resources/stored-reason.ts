/** The longest `statusReason` a store keeps (input-rules: `shortText`). */
const maxReasonLength = 1000;

/**
 * The platform's text as a record's reason, cut to what every store keeps and NUL replaced, so
 * the answer's write cannot fail after money moved. The whole answer stays in `lastPayload`.
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
