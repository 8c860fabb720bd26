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
  const tagged = taggedUrl(callbackUrl, merchantReference);
  return tagged === undefined ? body : { ...body, callback_url: tagged };
}

/** What `new URL(url)` with `pesakit_ref` set serialises to, or undefined if `url` is no URL. */
export function taggedUrl(url: string, merchantReference: string): string | undefined {
  // A merchant mostly uses one callback URL for every payment, so once a URL comes twice in a
  // row its serialisation is kept with a placeholder where the reference goes: parsing and
  // serialising the URL (with its query) cost a money call ~4 µs, now a string concatenation.
  // A URL that changes with every payment (an order id in it) is parsed as before. The
  // placeholder's place does not depend on the value: each query pair is encoded on its own.
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

/**
 * `value` as URLSearchParams serialises it, for the characters a merchant reference is made
 * of (letters, digits, `_ - . :`; `:` is the only one escaped); undefined for anything else.
 */
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
