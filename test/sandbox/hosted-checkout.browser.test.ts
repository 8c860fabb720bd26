import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { merchantCallbackSchema } from '../../src/schemas/collection.js';
import { launchChromium } from '../helpers/browser.js';
import { type RunningSandbox, startSandbox } from './support.js';

let browser: Browser;
let page: Page;
let s: RunningSandbox;
let merchant: Merchant;
let callbackUrl: string;

/**
 * The merchant's site: its callback_url takes the platform's POST (the settlement callback) and
 * the browser's GET (the return from the checkout) on the same path.
 */
class Merchant {
  readonly callbacks: unknown[] = [];
  readonly #server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'POST') {
        this.callbacks.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      response.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Thanks</h1>');
    });
  });

  async listen(): Promise<string> {
    this.#server.listen(0, '127.0.0.1');
    await once(this.#server, 'listening');
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}/shop/return`;
  }

  async close(): Promise<void> {
    this.#server.closeAllConnections();
    this.#server.close();
    await once(this.#server, 'close');
  }
}

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(() => browser?.close());
beforeEach(async () => {
  s = await startSandbox({ autoSettle: { delayMs: 50 }, callbackSchedule: [10] });
  merchant = new Merchant();
  callbackUrl = await merchant.listen();
  page = await browser.newPage();
});
afterEach(async () => {
  await page.context().close();
  await s.close();
  await merchant.close();
});

async function checkout() {
  const answer = await s.call('POST', '/api/sandbox/initiate-secure-payment', {
    amount: 12_500,
    callback_url: callbackUrl,
    description: 'Order 7',
  });
  const body = answer.body as { payment_url: string; external_reference: string };
  await page.goto(body.payment_url);
  await page.waitForSelector('html[data-ready="true"]');
  return body;
}

const returned = async () => {
  await page.waitForURL((url) => url.pathname === new URL(callbackUrl).pathname);
  return new URL(page.url());
};

describe('secure checkout: from payment_url to the return at callback_url (real sandbox, headless Chromium)', () => {
  it('pays by phone; the engine settles; the browser returns with external_reference and status', async () => {
    const { external_reference } = await checkout();
    await page.getByTestId('phone-input').fill('0754 123 456');
    await page.getByTestId('phone-submit').click();
    const url = await returned();
    expect(url.searchParams.get('external_reference')).toBe(external_reference);
    expect(url.searchParams.get('status')).toBe('success');
    await s.sandbox.idle();
    expect(merchant.callbacks).toHaveLength(1);
    expect(merchantCallbackSchema.parse(merchant.callbacks[0])).toMatchObject({
      external_reference,
      status: true,
    });
  });

  it('pays by card; a card ending 0002 returns with status=failed', async () => {
    const { external_reference } = await checkout();
    await page.getByTestId('method-card').check();
    await page.getByTestId('card-start').click();
    await page.getByTestId('card-input').waitFor();
    await page.getByTestId('card-input').fill('4000000000000002');
    await page.getByTestId('card-submit').click();
    const url = await returned();
    expect(url.searchParams.get('external_reference')).toBe(external_reference);
    expect(url.searchParams.get('status')).toBe('failed');
  });
});
