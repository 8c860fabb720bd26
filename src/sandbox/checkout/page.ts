import { createHash } from 'node:crypto';
import { CHECKOUT_SCRIPT } from './browser-script.js';

export interface CheckoutView {
  token: string;
  amount: number;
  externalReference: string;
  /** The merchant's text for the customer; untrusted, shown escaped. */
  description?: string;
  /** Where the browser returns when the payment is final; untrusted. */
  callbackUrl: string;
  /** Base of the sandbox's collection API, e.g. `http://127.0.0.1:4010/api/sandbox`. */
  apiBase: string;
}

/** Inline and static: the page works offline and the hash goes into the CSP. */
const CHECKOUT_STYLES = `
body{margin:0;font:16px/1.5 system-ui,sans-serif;color:#1b1f24;background:#f4f6f8}
main{max-width:28rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:12px}
.amount{font-size:2rem;font-weight:700;margin:0}
.muted{color:#57606a;font-size:.85rem;overflow-wrap:anywhere}
fieldset{border:0;padding:0;margin:0}
input[type=tel],input[type=text],button{width:100%;padding:.7rem;font:inherit;border-radius:8px;box-sizing:border-box}
input[aria-invalid=true]{border-color:#b42318}
button{margin-top:.75rem;font-weight:600;color:#fff;background:#0b6e4f;border:0}
button:disabled{opacity:.6}
.error{color:#b42318}
#checkout-status{margin-top:1.25rem;padding:1rem;border-radius:8px;background:#f4f6f8}
#checkout-status[data-state=success]{background:#e6f4ea}
[hidden]{display:none!important}
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const SCRIPT_HASH = sha256(CHECKOUT_SCRIPT);
const STYLE_HASH = sha256(CHECKOUT_STYLES);

const HTML_ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (char) => HTML_ENTITIES[char] ?? char);

/** JSON no value of which can close a `<script>` block or open a comment; U+2028/9 escaped too. */
const jsonForScript = (data: unknown) =>
  JSON.stringify(data).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** Formats shillings the way a Tanzanian receipt does: `TZS 12,500` or `TZS 12,500.50`. */
export function formatTzs(amount: number): string {
  const cents = Number.isInteger(amount) ? 0 : 2;
  return `TZS ${amount.toLocaleString('en-US', { minimumFractionDigits: cents, maximumFractionDigits: 2 })}`;
}

/** The page's CSP: only its own script and style, talking only to its origin and the API's. */
export function checkoutCspDirectives(apiBase: string): Record<string, string[]> {
  const connect = ["'self'"];
  // A relative apiBase is same-origin, which 'self' already allows.
  if (URL.canParse(apiBase) && /^https?:$/.test(new URL(apiBase).protocol))
    connect.push(new URL(apiBase).origin);
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

/** The page behind `payment_url`; every value is escaped. Ready once `<html data-ready="true">`. */
export function renderCheckoutPage(view: CheckoutView): string {
  const amount = escapeHtml(formatTzs(view.amount));
  const { token, externalReference, callbackUrl, apiBase } = view;
  const data = jsonForScript({ token, externalReference, callbackUrl, apiBase });
  const csp = Object.entries(checkoutCspDirectives(apiBase))
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
  const description = view.description
    ? `<p data-testid="checkout-description">${escapeHtml(view.description)}</p>`
    : '';

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>Pay ${amount} · pesakit sandbox checkout</title>
<style>${CHECKOUT_STYLES}</style>
</head>
<body>
<main>
<p class="muted">Sandbox · no real money moves</p>
<h1>Secure checkout</h1>
<p class="amount" data-testid="checkout-amount">${amount}</p>
${description}
<p class="muted">Reference <span data-testid="checkout-reference">${escapeHtml(externalReference)}</span></p>
<fieldset id="payment-options">
<legend>How would you like to pay?</legend>
<label><input type="radio" name="method" id="method-phone" data-testid="method-phone" checked> Pay by phone</label>
<label><input type="radio" name="method" id="method-card" data-testid="method-card"> Pay by card</label>
<form id="phone-form" novalidate>
<label for="phone-input">Mobile money number (M-Pesa, Airtel Money, Tigo Pesa, HaloPesa or T-Pesa)</label>
<input id="phone-input" data-testid="phone-input" type="tel" autocomplete="tel" aria-describedby="phone-error">
<p class="error" id="phone-error" data-testid="phone-error" role="alert" hidden></p>
<button data-testid="phone-submit" type="submit">Pay ${amount}</button>
</form>
<div id="card-panel" hidden>
<button id="card-start" data-testid="card-start" type="button">Continue to card payment</button>
<form id="card-form" novalidate hidden>
<label for="card-input">Card number (sandbox: one ending in 0002 is declined)</label>
<input id="card-input" data-testid="card-input" type="text" inputmode="numeric" autocomplete="cc-number" aria-describedby="card-error">
<button data-testid="card-submit" type="submit">Pay ${amount}</button>
</form>
<p class="error" id="card-error" data-testid="card-error" role="alert" hidden></p>
</div>
</fieldset>
<section id="checkout-status" data-testid="checkout-status" role="status" aria-live="polite" hidden>
<p id="status-text"></p>
<a id="return-link" data-testid="return-link" hidden>Return to the merchant</a>
<button id="status-retry" type="button" hidden>Check again</button>
</section>
</main>
<script type="application/json" id="checkout-data">${data}</script>
<script>${CHECKOUT_SCRIPT}</script>
</body>
</html>
`;
}
