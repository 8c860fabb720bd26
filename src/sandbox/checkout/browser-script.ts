/**
 * The checkout page's only script, static so its hash can go into the CSP; only the tab that
 * paid is sent back to `callback_url` (no open redirect). No template literals: it is `String.raw`.
 */
export const CHECKOUT_SCRIPT = String.raw`
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const data = JSON.parse($('checkout-data').textContent);
  const api = String(data.apiBase).replace(/\/+$/, '');
  const tokenPath = '/checkout/' + encodeURIComponent(data.token);
  const payerKey = 'pesakit-checkout-payer:' + data.token;
  const setBusy = (busy) => { $('payment-options').disabled = busy; };
  let sessionId = null;

  // The rules of normalizeMsisdn in src/schemas/msisdn.ts: customers type 0754 123 456.
  function normalizeMsisdn(input) {
    const digits = input.trim().replace(/[\s\-.()]/g, '').replace(/^\+/, '');
    if (/^255\d{9}$/.test(digits)) return digits;
    return /^0?\d{9}$/.test(digits) ? '255' + digits.slice(-9) : null;
  }

  function showError(field, input, text) {
    $(field).textContent = text || '';
    $(field).hidden = !text;
    if (input) $(input).setAttribute('aria-invalid', text ? 'true' : 'false');
  }

  // Throws {message, errors}: a 422 names its field in errors (Laravel shape).
  async function postJson(path, body) {
    const headers = { 'content-type': 'application/json', accept: 'application/json' };
    const response = await fetch(api + path, { method: 'POST', headers, body: JSON.stringify(body) }).catch(() => {
      throw { message: 'Could not reach the payment service. Check your connection and try again.' };
    });
    const payload = (await response.json().catch(() => null)) || {};
    if (response.ok) return payload;
    const message = typeof payload.message === 'string' ? payload.message : 'The payment service answered ' + response.status + '.';
    throw { message: message, errors: payload.errors || {} };
  }

  function fieldMessage(error, fields) {
    const found = fields.map((field) => error.errors && error.errors[field])
      .find((messages) => Array.isArray(messages) && typeof messages[0] === 'string');
    return found ? found[0] : error.message;
  }

  function showStatus(text, state) {
    $('checkout-status').hidden = false;
    $('checkout-status').dataset.state = state;
    $('status-text').textContent = text;
    $('status-retry').hidden = state !== 'timeout';
  }

  // Storage may be refused (private mode): that tab then gets the link-free outcome.
  function payerMark(set) {
    try {
      if (set) sessionStorage.setItem(payerKey, '1');
      return sessionStorage.getItem(payerKey) === '1';
    } catch {
      return false;
    }
  }

  function returnUrl(status) {
    try {
      const url = new URL(data.callbackUrl);
      // Never a javascript: or data: URL, whatever the merchant sent.
      if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
      url.searchParams.set('external_reference', data.externalReference);
      url.searchParams.set('status', status);
      return url.href;
    } catch {
      return null;
    }
  }

  function finish(status) {
    const paid = status === 'success';
    const href = returnUrl(status);
    if (!payerMark(false)) {
      showStatus(paid ? 'This checkout has been paid. You can close this page.' : 'This checkout was not completed. You can close this page.', status);
    } else if (!href) {
      showStatus('The merchant gave no valid return address. You can close this page.', status);
    } else {
      showStatus((paid ? 'Payment successful.' : 'The payment was not completed.') + ' Taking you back to the merchant…', status);
      $('return-link').href = href;
      $('return-link').hidden = false;
      setTimeout(() => window.location.assign(href), 600);
    }
  }

  async function fetchStatus() {
    try {
      const response = await fetch(api + tokenPath + '/status', { headers: { accept: 'application/json' }, cache: 'no-store' });
      const body = response.ok ? await response.json() : {};
      return body.status === 'success' || body.status === 'failed' ? body.status : null;
    } catch {
      return null;
    }
  }

  async function awaitConfirmation(text) {
    showStatus(text, 'pending');
    for (const deadline = Date.now() + 120000; Date.now() < deadline; ) {
      const status = await fetchStatus();
      if (status) return finish(status);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    showStatus('No confirmation yet. If you approved the payment, the merchant will still be told.', 'timeout');
  }

  // Validates the field (read returns the value to send or null), posts, then awaits the outcome.
  function pay(name, invalid, read, send, fields, pending) {
    const input = name + '-input', errorId = name + '-error';
    $(name + '-form').addEventListener('submit', async (event) => {
      event.preventDefault();
      const value = read($(input).value);
      showError(errorId, input, value ? '' : invalid);
      if (!value) return $(input).focus();
      setBusy(true);
      try {
        await send(value);
        payerMark(true);
        awaitConfirmation(pending);
      } catch (error) {
        setBusy(false);
        showError(errorId, input, fieldMessage(error, fields));
        $(input).focus();
      }
    });
  }

  pay('phone', 'Enter a Tanzanian mobile number, for example 0754 123 456.', normalizeMsisdn,
    (msisdn) => postJson('/mno/', { token: data.token, msisdn: msisdn }), ['msisdn', 'token'],
    'Check your phone and approve the payment with your PIN…');
  pay('card', 'Enter the 12 to 19 digits of the card number.', (text) => {
    const digits = text.replace(/[\s-]/g, '');
    return /^\d{12,19}$/.test(digits) ? digits : null;
  }, (cardNumber) => postJson(tokenPath + '/card', { session_id: sessionId, card_number: cardNumber }),
    ['card_number', 'session_id', 'token'], 'Confirming your card payment…');

  $('card-start').addEventListener('click', async () => {
    showError('card-error', null, '');
    setBusy(true);
    try {
      sessionId = (await postJson('/portal-session', { token: data.token })).session_id;
      $('card-start').hidden = true;
      $('card-form').hidden = false;
      $('card-input').focus();
    } catch (error) {
      showError('card-error', null, fieldMessage(error, ['token']));
    }
    setBusy(false);
  });

  const selectMethod = () => {
    $('phone-form').hidden = $('method-card').checked;
    $('card-panel').hidden = !$('method-card').checked;
  };
  $('method-phone').addEventListener('change', selectMethod);
  $('method-card').addEventListener('change', selectMethod);
  $('status-retry').addEventListener('click', () => awaitConfirmation('Checking again…'));

  // A final checkout is never offered again: the payer's tab is sent on, anyone else is told.
  fetchStatus().then((status) => {
    if (status) {
      setBusy(true);
      finish(status);
    }
    document.documentElement.dataset.ready = 'true';
  });
})();
`;
