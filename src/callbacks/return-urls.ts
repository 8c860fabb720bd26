import { ConfigurationError } from '../errors/configuration-error.js';

/** Where the checkout return sends the browser, by outcome (303). Without them: JSON. */
export interface ReturnUrls {
  paid?: string;
  pending?: string;
  failed?: string;
}

/** Relative return URLs ('/thanks') are resolved against this placeholder, then kept relative. */
const placeholder = 'http://relative.invalid';

/** Each return URL must be a path of the shop or an http(s) URL: a `ConfigurationError` at start-up. */
export function checkReturnUrls(urls: ReturnUrls | undefined, option = 'returnUrls'): void {
  if (urls === undefined) return;
  if (typeof urls !== 'object' || urls === null) {
    throw new ConfigurationError(option, `${option} must be { paid?, pending?, failed? }.`);
  }
  for (const outcome of ['paid', 'pending', 'failed'] as const) {
    const target = urls[outcome];
    if (target === undefined) continue;
    if (typeof target !== 'string' || resolved(target) === undefined) {
      throw new ConfigurationError(
        `${option}.${outcome}`,
        `${option}.${outcome} must be a path of your app ('/thanks') or an http(s) URL.`,
      );
    }
  }
}

/** The target with `merchant_reference` added; `undefined` when it is not a path or http(s) URL. */
export function redirectLocation(target: string, merchantReference: string): string | undefined {
  const location = resolved(target);
  if (location === undefined) return undefined;
  location.searchParams.set('merchant_reference', merchantReference);
  return location.origin === placeholder
    ? `${location.pathname}${location.search}${location.hash}`
    : location.toString();
}

function resolved(target: string): URL | undefined {
  if (target.trim() === '') return undefined;
  let location: URL;
  try {
    location = new URL(target, placeholder);
  } catch {
    return undefined;
  }
  return location.protocol === 'http:' || location.protocol === 'https:' ? location : undefined;
}
