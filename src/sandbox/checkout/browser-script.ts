/**
 * The checkout page's only script, as source text. It is static: the per-checkout data travels
 * in a `<script type="application/json">` block, so this text never contains merchant input and
 * its hash can go into the page's Content-Security-Policy.
 *
 * What it does: pay by phone (`POST {api}/mno/`) or by card (`POST {api}/portal-session`, then
 * `POST {api}/checkout/{token}/card`), poll `GET {api}/checkout/{token}/status` every 500 ms for
 * at most two minutes, then send the browser back to the merchant's `callback_url` with
 * `external_reference` and `status` added (spec rule 10: the merchant verifies them there) —
 * but only the tab that paid (a mark in its sessionStorage); any other visitor of a final
 * checkout sees the outcome without a link, so payment_url is no open redirect.
 *
 * Written without template literals so it can live inside `String.raw`.
 */
export const CHECKOUT_SCRIPT = String.raw`
'use strict';
(() => {
  const POLL_INTERVAL_MS = 500;
  const POLL_WINDOW_MS = 120000;
  const RETURN_DELAY_MS = 600;
  const data = JSON.parse(document.getElementById('checkout-data').textContent);
  const api = String(data.apiBase).replace(/\/+$/, '');
  const tokenPath = encodeURIComponent(data.token);
  const byId = (id) => document.getElementById(id);
  const options = byId('payment-options');
  let sessionId = null;

  // The same rules as normalizeMsisdn in src/schemas/msisdn.ts: customers type 0754 123 456.
  function normalizeMsisdn(input) {
    const digits = input.trim().replace(/[\s\-.()]/g, '');
    const bare = digits.startsWith('+') ? digits.slice(1) : digits;
    if (!/^\d+$/.test(bare)) return null;
    if (/^255\d{9}$/.test(bare)) return bare;
    if (/^0\d{9}$/.test(bare)) return '255' + bare.slice(1);
    if (/^\d{9}$/.test(bare)) return '255' + bare;
    return null;
  }

  function showError(errorId, inputId, text) {
    const element = byId(errorId);
    element.textContent = text || '';
    element.hidden = !text;
    if (inputId) byId(inputId).setAttribute('aria-invalid', text ? 'true' : 'false');
  }

  // Laravel bodies: 422 is {message, errors: {field: [messages]}}, anything else {message}.
  function fieldMessage(error, fields) {
    for (const field of fields) {
      const list = error.errors && error.errors[field];
      if (Array.isArray(list) && typeof list[0] === 'string') return list[0];
    }
    return error.message;
  }

  async function postJson(path, body) {
    let response;
    try {
      response = await fetch(api + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      });
    } catch {
      throw { message: 'Could not reach the payment service. Check your connection and try again.' };
    }
    let payload = null;
    try {
      payload = await response.json();
    } catch {
      payload = null;
    }
    if (!response.ok) {
      const message =
        payload && typeof payload.message === 'string'
          ? payload.message
          : 'The payment service answered ' + response.status + '. Please try again.';
      const errors = payload && payload.errors && typeof payload.errors === 'object' ? payload.errors : {};
      throw { message: message, errors: errors };
    }
    return payload || {};
  }

  function setBusy(busy) {
    options.disabled = busy;
    options.setAttribute('aria-busy', busy ? 'true' : 'false');
  }

  function selectMethod() {
    const card = byId('method-card').checked;
    byId('phone-form').hidden = card;
    byId('card-panel').hidden = !card;
  }

  function returnUrl(status) {
    let url;
    try {
      url = new URL(data.callbackUrl);
    } catch {
      return null;
    }
    // Never follow a javascript: or data: URL, whatever the merchant sent.
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.searchParams.set('external_reference', data.externalReference);
    url.searchParams.set('status', status);
    return url.href;
  }

  function showStatus(text, state) {
    const region = byId('checkout-status');
    region.hidden = false;
    region.dataset.state = state;
    region.setAttribute('aria-busy', state === 'pending' ? 'true' : 'false');
    byId('status-text').textContent = text;
    byId('status-retry').hidden = state !== 'timeout';
  }

  // Only the payer's own tab is sent back to the merchant: the tab that paid keeps this mark in
  // sessionStorage. Anyone else who opens a final checkout (a link passed around, someone sent
  // here by whoever created it) sees the outcome and nothing to follow — no open redirect.
  const PAYER_KEY = 'pesakit-checkout-payer:' + data.token;
  function markPayer() {
    try {
      sessionStorage.setItem(PAYER_KEY, '1');
    } catch {
      // Storage refused (private mode): this tab will show a link-free outcome instead.
    }
  }
  function isPayer() {
    try {
      return sessionStorage.getItem(PAYER_KEY) === '1';
    } catch {
      return false;
    }
  }

  function finish(status) {
    const succeeded = status === 'success';
    if (!isPayer()) {
      showStatus(
        succeeded
          ? 'This checkout has been paid. You can close this page.'
          : 'This checkout was not completed. You can close this page.',
        status,
      );
      return;
    }
    showStatus(
      succeeded
        ? 'Payment successful. Taking you back to the merchant…'
        : 'The payment was not completed. Taking you back to the merchant…',
      status,
    );
    const href = returnUrl(status);
    if (!href) {
      showStatus('The merchant gave no valid return address. You can close this page.', status);
      return;
    }
    const link = byId('return-link');
    link.href = href;
    link.hidden = false;
    setTimeout(() => window.location.assign(href), RETURN_DELAY_MS);
  }

  const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  // The checkout's state, or null when the status route could not be read this time.
  async function fetchStatus() {
    try {
      const response = await fetch(api + '/checkout/' + tokenPath + '/status', {
        headers: { accept: 'application/json' },
        cache: 'no-store',
      });
      if (!response.ok) return null;
      const body = await response.json();
      return typeof body.status === 'string' ? body.status : null;
    } catch {
      return null;
    }
  }

  const isFinal = (status) => status === 'success' || status === 'failed';

  async function pollStatus() {
    const deadline = Date.now() + POLL_WINDOW_MS;
    while (Date.now() < deadline) {
      const status = await fetchStatus();
      if (isFinal(status)) return finish(status);
      await wait(POLL_INTERVAL_MS);
    }
    showStatus(
      'No confirmation yet. If you approved the payment, the merchant will still be told.',
      'timeout',
    );
  }

  function awaitConfirmation(text) {
    showStatus(text, 'pending');
    pollStatus();
  }

  byId('method-phone').addEventListener('change', selectMethod);
  byId('method-card').addEventListener('change', selectMethod);

  byId('phone-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const msisdn = normalizeMsisdn(byId('phone-input').value);
    if (!msisdn) {
      showError('phone-error', 'phone-input', 'Enter a Tanzanian mobile number, for example 0754 123 456.');
      byId('phone-input').focus();
      return;
    }
    showError('phone-error', 'phone-input', '');
    setBusy(true);
    try {
      await postJson('/mno/', { token: data.token, msisdn: msisdn });
      markPayer();
      awaitConfirmation('Check your phone and approve the payment with your PIN…');
    } catch (error) {
      setBusy(false);
      showError('phone-error', 'phone-input', fieldMessage(error, ['msisdn', 'token']));
      byId('phone-input').focus();
    }
  });

  byId('card-start').addEventListener('click', async () => {
    showError('card-error', null, '');
    setBusy(true);
    try {
      const session = await postJson('/portal-session', { token: data.token });
      sessionId = session.session_id;
      setBusy(false);
      byId('card-start').hidden = true;
      byId('card-form').hidden = false;
      byId('card-input').focus();
    } catch (error) {
      setBusy(false);
      showError('card-error', null, fieldMessage(error, ['token']));
    }
  });

  byId('card-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    const cardNumber = byId('card-input').value.replace(/[\s-]/g, '');
    if (!/^\d{12,19}$/.test(cardNumber)) {
      showError('card-error', 'card-input', 'Enter the 12 to 19 digits of the card number.');
      byId('card-input').focus();
      return;
    }
    showError('card-error', 'card-input', '');
    setBusy(true);
    try {
      await postJson('/checkout/' + tokenPath + '/card', { session_id: sessionId, card_number: cardNumber });
      markPayer();
      awaitConfirmation('Confirming your card payment…');
    } catch (error) {
      setBusy(false);
      showError('card-error', 'card-input', fieldMessage(error, ['card_number', 'session_id', 'token']));
      byId('card-input').focus();
    }
  });

  byId('status-retry').addEventListener('click', () => awaitConfirmation('Checking again…'));

  selectMethod();
  // A finished checkout is never offered again: the payer's tab is sent on, anyone else is told.
  fetchStatus().then((status) => {
    if (isFinal(status)) {
      setBusy(true);
      finish(status);
    }
    document.documentElement.dataset.ready = 'true';
  });
})();
`;
