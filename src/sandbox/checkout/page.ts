import { createHash } from 'node:crypto';
import { CHECKOUT_SCRIPT } from './browser-script.js';
import { escapeHtml, serializeJsonForScript } from './escape.js';
import { CHECKOUT_STYLES } from './styles.js';

/** What the hosted checkout page needs to know about one secure checkout. */
export interface CheckoutView {
  /** The payment token the page's own API calls carry (`mno/`, `portal-session`, card, status). */
  token: string;
  /** Amount in TZS. */
  amount: number;
  /** The checkout's key reference (spec § Key references: secure checkout). */
  externalReference: string;
  /** The merchant's text for the customer; untrusted, shown escaped. */
  description?: string;
  /** Where the browser returns when the payment is final; untrusted. */
  callbackUrl: string;
  /** Base of the sandbox's collection API, e.g. `http://127.0.0.1:4010/api/sandbox`. */
  apiBase: string;
}

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const SCRIPT_HASH = sha256(CHECKOUT_SCRIPT);
const STYLE_HASH = sha256(CHECKOUT_STYLES);

/** Formats shillings the way a Tanzanian receipt does: `TZS 12,500` or `TZS 12,500.50`. */
export function formatTzs(amount: number): string {
  const fractional = !Number.isInteger(amount);
  const digits = new Intl.NumberFormat('en-US', {
    minimumFractionDigits: fractional ? 2 : 0,
    maximumFractionDigits: 2,
  }).format(amount);
  return `TZS ${digits}`;
}

/**
 * The Content-Security-Policy of the page, as directives: only its own script and style run,
 * and it may talk only to its own origin and the API's. Defence in depth behind the escaping:
 * even a value that slipped through could not load or run anything. The sandbox sends it as
 * an HTTP header (with `frame-ancestors 'none'`, which only a header can carry); the page
 * repeats it in a `<meta>` tag for wherever else it is served.
 */
export function checkoutCspDirectives(apiBase: string): Record<string, string[]> {
  const connect = ["'self'"];
  try {
    const url = new URL(apiBase);
    if (url.protocol === 'http:' || url.protocol === 'https:') connect.push(url.origin);
  } catch {
    // A relative apiBase is same-origin, which 'self' already allows.
  }
  return {
    'default-src': ["'none'"],
    'script-src': [SCRIPT_HASH],
    'style-src': [STYLE_HASH],
    'connect-src': connect,
    'img-src': ["'self'", 'data:'],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
  };
}

function contentSecurityPolicy(apiBase: string): string {
  return Object.entries(checkoutCspDirectives(apiBase))
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}

/**
 * Renders the hosted secure-checkout page behind `payment_url`: a complete, self-contained HTML
 * document (inline CSS and JS, no external assets). Every interpolated value is escaped; the
 * data the script needs is embedded as JSON with `<`, `>` and `&` escaped, so a hostile
 * `description` or `callback_url` can neither inject markup nor close the script element.
 *
 * Stable hooks for tests: `data-testid` = `checkout-amount`, `checkout-description`,
 * `checkout-reference`, `method-phone`, `method-card`, `phone-input`, `phone-submit`,
 * `phone-error`, `card-start`, `card-input`, `card-submit`, `card-error`, `checkout-status`,
 * `return-link`; `<html data-ready="true">` once the script has wired the page and checked
 * whether the checkout is already final (never offered again: the tab that paid is sent back
 * to the merchant, any other visitor only sees the outcome).
 */
export function renderCheckoutPage(view: CheckoutView): string {
  const amount = escapeHtml(formatTzs(view.amount));
  const data = serializeJsonForScript({
    token: view.token,
    amount: view.amount,
    externalReference: view.externalReference,
    callbackUrl: view.callbackUrl,
    apiBase: view.apiBase,
  });
  const description =
    view.description === undefined || view.description === ''
      ? ''
      : `<p class="description" data-testid="checkout-description">${escapeHtml(view.description)}</p>`;

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(view.apiBase))}">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>Pay ${amount} · pesakit sandbox checkout</title>
<style>${CHECKOUT_STYLES}</style>
</head>
<body>
<main aria-labelledby="checkout-title">
<p class="badge">Sandbox · no real money moves</p>
<h1 id="checkout-title">Secure checkout</h1>
<section class="summary" aria-label="Order summary">
<p class="amount" data-testid="checkout-amount">${amount}</p>
${description}
<p class="reference">Reference <span data-testid="checkout-reference">${escapeHtml(view.externalReference)}</span></p>
</section>
<fieldset id="payment-options">
<legend>How would you like to pay?</legend>
<div class="methods">
<label class="method"><input type="radio" name="method" value="phone" id="method-phone" data-testid="method-phone" checked> Pay by phone</label>
<label class="method"><input type="radio" name="method" value="card" id="method-card" data-testid="method-card"> Pay by card</label>
</div>
<form id="phone-form" novalidate>
<label for="phone-input">Mobile money number</label>
<p class="hint" id="phone-hint">M-Pesa, Airtel Money, Tigo Pesa, HaloPesa or T-Pesa, e.g. 0754 123 456.</p>
<input id="phone-input" data-testid="phone-input" name="msisdn" type="tel" inputmode="tel" autocomplete="tel" aria-describedby="phone-hint phone-error" required>
<p class="error" id="phone-error" data-testid="phone-error" role="alert" hidden></p>
<button id="phone-submit" data-testid="phone-submit" type="submit">Pay ${amount}</button>
</form>
<div id="card-panel" hidden>
<p class="hint">You will enter your card details on the next step.</p>
<button id="card-start" data-testid="card-start" type="button">Continue to card payment</button>
<form id="card-form" novalidate hidden>
<label for="card-input">Card number</label>
<p class="hint" id="card-hint">Sandbox cards: a number ending in 0002 is declined; any other is approved.</p>
<input id="card-input" data-testid="card-input" name="card_number" type="text" inputmode="numeric" autocomplete="cc-number" aria-describedby="card-hint card-error" required>
<button id="card-submit" data-testid="card-submit" type="submit">Pay ${amount}</button>
</form>
<p class="error" id="card-error" data-testid="card-error" role="alert" hidden></p>
</div>
</fieldset>
<section class="status" id="checkout-status" data-testid="checkout-status" role="status" aria-live="polite" hidden>
<span class="spinner" aria-hidden="true"></span>
<p id="status-text"></p>
<a id="return-link" data-testid="return-link" hidden>Return to the merchant</a>
<button id="status-retry" class="secondary" type="button" hidden>Check again</button>
</section>
</main>
<script type="application/json" id="checkout-data">${data}</script>
<script>${CHECKOUT_SCRIPT}</script>
</body>
</html>
`;
}
