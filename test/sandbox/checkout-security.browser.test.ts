import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.js';
import { field, type RunningSandbox, startSandbox } from './support.js';

let browser: Browser;
let s: RunningSandbox;
let foreign: Server;
let foreignOrigin: string;
let framedUrl = '';
let context: BrowserContext;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  s = await startSandbox();
  // Another site: it frames whatever page it is told to, and serves a "return" page.
  foreign = createServer((request, response) => {
    response.setHeader('content-type', 'text/html');
    if (request.url?.startsWith('/frame')) {
      response.end(
        `<!doctype html><iframe id="f" src="${framedUrl}" onload="window.frameLoaded=true"></iframe>`,
      );
      return;
    }
    response.end('<!doctype html><title>somewhere else</title>');
  });
  foreign.listen(0, '127.0.0.1');
  await once(foreign, 'listening');
  foreignOrigin = `http://localhost:${(foreign.address() as AddressInfo).port}`;
  context = await browser.newContext();
});

afterEach(async () => {
  await context.close();
  foreign.close();
  await s.close();
});

async function openCheckout(callbackUrl = `${foreignOrigin}/return`) {
  const answer = await s.call('POST', '/api/sandbox/initiate-secure-payment', {
    amount: 5000,
    callback_url: callbackUrl,
  });
  return answer.body as { payment_url: string; payment_token: string; controlNumber: string };
}

describe('the checkout page sends its security headers as HTTP headers', () => {
  it('CSP with frame-ancestors none, X-Frame-Options DENY, nosniff, no-referrer, no-store', async () => {
    const { payment_url } = await openCheckout();
    const response = await fetch(payment_url);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(csp).toContain("connect-src 'self'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('in Chromium', () => {
  it('the page does not render inside a foreign iframe', async () => {
    const { payment_url } = await openCheckout();
    framedUrl = payment_url;
    const page = await context.newPage();
    await page.goto(`${foreignOrigin}/frame`);
    await page.waitForFunction(() => (window as { frameLoaded?: boolean }).frameLoaded === true);
    const rendered = await Promise.all(
      page
        .frames()
        .filter((frame) => frame !== page.mainFrame())
        .map((frame) =>
          frame
            .locator('[data-testid="checkout-amount"]')
            .count()
            .catch(() => 0),
        ),
    );
    expect(rendered.length).toBeGreaterThan(0);
    expect(rendered.every((count) => count === 0)).toBe(true);
    // The same page opened directly renders.
    await page.goto(payment_url);
    await page.waitForSelector('html[data-ready="true"]');
    expect(await page.getByTestId('checkout-amount').textContent()).toBe('TZS 5,000');
  });

  it('a stranger opening a final checkout is not redirected to its callback_url; the payer is', async () => {
    const { payment_url, controlNumber } = await openCheckout();
    const payer = await context.newPage();
    await payer.goto(payment_url);
    await payer.waitForSelector('html[data-ready="true"]');
    await payer.getByTestId('phone-input').fill('0754123456');
    await payer.getByTestId('phone-submit').click();
    await payer.waitForFunction(() => document.getElementById('checkout-status')?.hidden === false);
    const settled = await s.control('collection/settle', {
      ref_id: controlNumber,
      outcome: 'success',
    });
    expect(field(settled, 'status')).toBe('success');
    await payer.waitForURL((url) => url.pathname === '/return');
    expect(new URL(payer.url()).searchParams.get('status')).toBe('success');

    const strangerContext = await browser.newContext();
    try {
      const stranger = await strangerContext.newPage();
      await stranger.goto(payment_url);
      await stranger.waitForSelector('html[data-ready="true"]');
      await stranger.locator('[data-testid="checkout-status"][data-state="success"]').waitFor();
      expect(await stranger.textContent('#status-text')).toMatch(/has been paid/);
      expect(await stranger.getByTestId('return-link').isVisible()).toBe(false);
      await stranger.waitForTimeout(1500);
      expect(stranger.url()).toBe(payment_url);
    } finally {
      await strangerContext.close();
    }
  });
});
