/** The merchant reference on a `callback_url`: a lookup hint for callbacks, verified by a pull. */
export const merchantReferenceParam = 'pesakit_ref';

/** `body` with `pesakit_ref` set on its `callback_url` (a non-URL is left to the schema). */
export function withMerchantReferenceInCallbackUrl<T>(body: T, merchantReference: string): T {
  if (typeof body !== 'object' || body === null) return body;
  const callbackUrl: unknown = (body as { callback_url?: unknown }).callback_url;
  if (typeof callbackUrl !== 'string') return body;
  // One parse, not a URL.canParse then a new URL (Node 20 has no URL.parse).
  let parsed: URL;
  try {
    parsed = new URL(callbackUrl);
  } catch {
    return body;
  }
  parsed.searchParams.set(merchantReferenceParam, merchantReference);
  return { ...body, callback_url: parsed.toString() };
}
