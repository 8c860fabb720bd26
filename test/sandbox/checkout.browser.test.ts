import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { launchChromium } from '../helpers/browser.js';
import { CheckoutMerchant, type Order } from './checkout-merchant.js';

const merchantAccount = {
  product: 'collection',
  email: 'duka@shop.co.tz',
  password: 'secret-pass',
};

let browser: Browser;
let sandbox: Sandbox;
let merchant: CheckoutMerchant;
let page: Page;

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  sandbox = await createSandbox({
    autoSettle: { delayMs: 50 },
    callbackSchedule: [10, 20],
    seed: { accounts: [{ ...merchantAccount, product: 'collection' }] },
  });
  const sandboxUrl = await sandbox.listen({ port: 0 });
  const login = await post(sandboxUrl, '/api/sandbox/login', merchantAccount);
  merchant = new CheckoutMerchant(sandboxUrl, (login as { token: string }).token);
  await merchant.listen();
  page = await browser.newPage();
});

afterEach(async () => {
  await page.context().close();
  await sandbox.close();
  await merchant.close();
});

async function post(base: string, path: string, body: unknown): Promise<unknown> {
  const response = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status, `${path} answered ${response.status}`).toBe(200);
  return response.json();
}

/** The merchant opens a checkout for an order and sends the customer to payment_url. */
async function openCheckout(orderId: string, amount: number): Promise<Order> {
  const created = (await post(sandbox.url, '/api/sandbox/initiate-secure-payment', {
    amount,
    callback_url: `${merchant.url}?order=${orderId}`,
    description: `Order ${orderId}: school uniform`,
  })) as { payment_url: string; external_reference: string; controlNumber: string };
  const order = {
    id: orderId,
    amount,
    controlNumber: created.controlNumber,
    externalReference: created.external_reference,
  };
  merchant.orders.set(orderId, order);
  await page.goto(created.payment_url);
  await page.waitForSelector('html[data-ready="true"]');
  return order;
}

/** Waits for the browser to land on the merchant's callback_url; returns its query. */
async function returnToMerchant(): Promise<URLSearchParams> {
  await page.waitForURL((url) => url.pathname === '/shop/return');
  await page.getByTestId('verdict').waitFor();
  return new URL(page.url()).searchParams;
}

async function payByCard(cardNumber: string): Promise<void> {
  await page.getByTestId('method-card').check();
  await page.getByTestId('card-start').click();
  await page.getByTestId('card-input').fill(cardNumber);
  await page.getByTestId('card-submit').click();
}

describe('secure checkout: from payment_url back to the merchant callback_url', () => {
  it('pay by phone: the browser returns with external_reference and status=success', async () => {
    const order = await openCheckout('42', 12_500);
    expect(await page.getByTestId('checkout-amount').textContent()).toBe('TZS 12,500');
    await page.getByTestId('phone-input').fill('0754 123 456');
    await page.getByTestId('phone-submit').click();

    const query = await returnToMerchant();
    expect(query.get('order')).toBe('42');
    expect(query.get('external_reference')).toBe(order.externalReference);
    expect(query.get('status')).toBe('success');
    expect(merchant.verdicts.map(({ paid, reason }) => ({ paid, reason }))).toEqual([
      { paid: true, reason: 'verified' },
    ]);
    expect(await page.getByTestId('verdict').textContent()).toBe('Paid');
    const paid = sandbox.inspect.collection(order.controlNumber);
    expect(paid).toMatchObject({ status: 'success', msisdn: '255754123456' });
  });

  it('pushes the settlement callback to the same callback_url, with the amount', async () => {
    const order = await openCheckout('43', 7_000);
    await page.getByTestId('phone-input').fill('0754123456');
    await page.getByTestId('phone-submit').click();
    await returnToMerchant();
    await sandbox.idle();
    expect(merchant.callbacks).toEqual([
      expect.objectContaining({
        status: true,
        external_reference: order.externalReference,
        controlNumber: order.controlNumber,
        data: expect.objectContaining({ amount: 7_000 }),
      }),
    ]);
  });

  it('pay by phone with a failing test number (…999): status=failed, not paid', async () => {
    await openCheckout('44', 5_000);
    await page.getByTestId('phone-input').fill('0754 123 999');
    await page.getByTestId('phone-submit').click();
    const query = await returnToMerchant();
    expect(query.get('status')).toBe('failed');
    expect(merchant.verdicts[0]).toMatchObject({ paid: false, reason: 'status failed' });
  });

  it('pay by card: the browser returns with status=success', async () => {
    const order = await openCheckout('45', 30_000);
    await payByCard('4242 4242 4242 4242');
    const query = await returnToMerchant();
    expect(query.get('external_reference')).toBe(order.externalReference);
    expect(query.get('status')).toBe('success');
    expect(merchant.verdicts[0]).toMatchObject({ paid: true });
  });

  it('a declined card (ending 0002): status=failed, not paid', async () => {
    const order = await openCheckout('46', 30_000);
    await payByCard('4000 0000 0000 0002');
    const query = await returnToMerchant();
    expect(query.get('external_reference')).toBe(order.externalReference);
    expect(query.get('status')).toBe('failed');
    expect(merchant.verdicts[0]).toMatchObject({ paid: false, reason: 'status failed' });
  });

  it('shows the sandbox 422 next to the phone field for a number with no provider', async () => {
    await openCheckout('47', 1_000);
    await page.getByTestId('phone-input').fill('0800 123 456');
    await page.getByTestId('phone-submit').click();
    const error = page.getByTestId('phone-error');
    await error.waitFor();
    expect(await error.textContent()).toMatch(/msisdn|provider/i);
    expect(merchant.verdicts).toEqual([]);
  });
});
