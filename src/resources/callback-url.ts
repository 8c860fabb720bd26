/** The merchant reference on a `callback_url`: a lookup hint for callbacks, verified by a pull. */
export const merchantReferenceParam = 'pesakit_ref';

/** `body` with `pesakit_ref` set on its `callback_url` (a non-URL is left to the schema). */
export function withMerchantReferenceInCallbackUrl<T>(body: T, merchantReference: string): T {
  if (typeof body !== 'object' || body === null) return body;
  const callbackUrl: unknown = (body as { callback_url?: unknown }).callback_url;
  if (typeof callbackUrl !== 'string') return body;
  const tagged = taggedUrl(callbackUrl, merchantReference);
  return tagged === undefined ? body : { ...body, callback_url: tagged };
}

/** What `new URL(url)` with `pesakit_ref` set serialises to, or undefined if `url` is no URL. */
export function taggedUrl(url: string, merchantReference: string): string | undefined {
  // A URL seen twice in a row is kept as a template with a placeholder for the reference, so
  // the usual single callback URL costs a concatenation, not a parse.
  const form = formEncoded(merchantReference);
  if (form === undefined) return slowTaggedUrl(url, merchantReference);
  if (url !== lastUrl) {
    lastUrl = url;
    lastTemplate = 'none yet';
    return slowTaggedUrl(url, merchantReference);
  }
  if (lastTemplate === 'none yet') lastTemplate = template(url);
  if (lastTemplate === null) return undefined;
  if (lastTemplate === undefined) return slowTaggedUrl(url, merchantReference);
  return lastTemplate[0] + form + lastTemplate[1];
}

const placeholder = 'pesakitRefPlaceholder0q7Z';
let lastUrl: string | undefined;
/**
 * The last URL's template: before and after the placeholder; null: not a URL; undefined: no
 * usable template; 'none yet': the URL was seen once.
 */
let lastTemplate: readonly [string, string] | null | undefined | 'none yet';

function template(url: string): readonly [string, string] | null | undefined {
  const serialised = slowTaggedUrl(url, placeholder);
  if (serialised === undefined) return null;
  const at = serialised.indexOf(placeholder);
  // Only where the placeholder appears once (not also in the merchant's own URL).
  if (at === -1 || serialised.indexOf(placeholder, at + 1) !== -1) return undefined;
  return [serialised.slice(0, at), serialised.slice(at + placeholder.length)];
}

/** `value` as URLSearchParams encodes it, for merchant-reference characters only. */
function formEncoded(value: string): string | undefined {
  if (!/^[A-Za-z0-9_\-.:]+$/.test(value)) return undefined;
  return value.includes(':') ? value.replaceAll(':', '%3A') : value;
}

function slowTaggedUrl(url: string, merchantReference: string): string | undefined {
  // One parse, not a URL.canParse then a new URL (Node 20 has no URL.parse).
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  parsed.searchParams.set(merchantReferenceParam, merchantReference);
  return parsed.toString();
}
