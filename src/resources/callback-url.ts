/**
 * The query parameter pesakit adds to a money-moving call's `callback_url`: the merchant
 * reference, so that a callback whose platform references match nothing yet (its initiation
 * timed out, say) still names the record it belongs to. A receiver uses it as a lookup hint
 * only — like every callback claim, it is verified by pulling the platform's status.
 */
export const merchantReferenceParam = 'pesakit_ref';

/**
 * `body` with `merchantReference` set as `pesakit_ref` on its `callback_url`, keeping the URL's
 * other query parameters (and replacing a `pesakit_ref` already there). A body without a
 * parseable `callback_url` is returned as is, for the request schema to judge.
 */
export function withMerchantReferenceInCallbackUrl<T>(body: T, merchantReference: string): T {
  if (typeof body !== 'object' || body === null) return body;
  const callbackUrl: unknown = (body as { callback_url?: unknown }).callback_url;
  if (typeof callbackUrl !== 'string') return body;
  // One parse, not a URL.canParse then a new URL (Node 20 has no URL.parse).
  let url: URL;
  try {
    url = new URL(callbackUrl);
  } catch {
    return body;
  }
  url.searchParams.set(merchantReferenceParam, merchantReference);
  return { ...body, callback_url: url.toString() };
}
