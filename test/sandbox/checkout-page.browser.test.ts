import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium } from '../helpers/browser.js';
import { CheckoutStandIn } from './checkout-stand-in.js';

let browser: Browser;
let standIn: CheckoutStandIn;
let page: Page;
const pageErrors: string[] = [];

beforeAll(async () => {
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

beforeEach(async () => {
  standIn = new CheckoutStandIn();
  await standIn.listen();
  pageErrors.length = 0;
  page = await browser.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
});

afterEach(async () => {
  await page.context().close();
  await standIn.close();
});

async function openCheckout(): Promise<void> {
  await page.goto(standIn.pageUrl);
  await page.waitForSelector('html[data-ready="true"]');
}

const returnedTo = async () => {
  await page.waitForURL((url) => url.pathname === '/merchant/return');
  return new URL(page.url());
};

describe('the hosted checkout page shows what is being paid', () => {
  it('shows the amount in TZS, the description and the reference', async () => {
    await openCheckout();
    expect(await page.getByTestId('checkout-amount').textContent()).toBe('TZS 12,500');
    expect(await page.getByTestId('checkout-description').textContent()).toBe(
      'Order #42: two bags of rice',
    );
    expect(await page.getByTestId('checkout-reference').textContent()).toBe('EXT-20250301-0001');
    expect(await page.title()).toBe('Pay TZS 12,500 · pesakit sandbox checkout');
    expect(pageErrors).toEqual([]);
  });
});

describe('pay by phone', () => {
  it('sends the number in 255 form, shows progress, then returns to callback_url', async () => {
    await openCheckout();
    await page.getByTestId('phone-input').fill('0754 123 456');
    await page.getByTestId('phone-submit').click();

    const status = page.locator('[data-testid="checkout-status"][data-state="pending"]');
    await status.waitFor();
    expect(await status.textContent()).toContain('approve the payment');
    expect(standIn.callsTo('/mno/')).toEqual([
      { method: 'POST', path: '/mno/', body: { token: 'tok_test', msisdn: '255754123456' } },
    ]);
    expect(await page.getByTestId('phone-submit').isDisabled()).toBe(true);

    standIn.settle('success');
    const url = await returnedTo();
    expect(url.searchParams.get('order')).toBe('42');
    expect(url.searchParams.get('external_reference')).toBe('EXT-20250301-0001');
    expect(url.searchParams.get('status')).toBe('success');
    expect(standIn.returns).toHaveLength(1);
    expect(standIn.callsTo('/checkout/tok_test/status').length).toBeGreaterThan(1);
  });

  it('refuses a number that cannot be Tanzanian without calling the API', async () => {
    await openCheckout();
    await page.getByTestId('phone-input').fill('12345');
    await page.getByTestId('phone-submit').click();
    const error = page.getByTestId('phone-error');
    await error.waitFor();
    expect(await error.textContent()).toContain('Enter a Tanzanian mobile number');
    expect(await page.getByTestId('phone-input').getAttribute('aria-invalid')).toBe('true');
    expect(standIn.callsTo('/mno/')).toEqual([]);
  });

  it("shows the API's 422 field error next to the field and lets the customer try again", async () => {
    standIn.mnoReply = {
      status: 422,
      body: {
        message: 'The msisdn has no known provider.',
        errors: { msisdn: ['The msisdn has no known provider.'] },
      },
    };
    await openCheckout();
    await page.getByTestId('phone-input').fill('+255 700 000 000');
    await page.getByTestId('phone-submit').click();
    const error = page.getByTestId('phone-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('The msisdn has no known provider.');
    expect(standIn.callsTo('/mno/')[0]?.body).toEqual({
      token: 'tok_test',
      msisdn: '255700000000',
    });
    expect(await page.getByTestId('phone-submit').isEnabled()).toBe(true);
  });
});

describe('pay by card', () => {
  async function payByCard(cardNumber: string): Promise<void> {
    await openCheckout();
    await page.getByTestId('method-card').check();
    await page.getByTestId('card-start').click();
    await page.getByTestId('card-input').waitFor();
    await page.getByTestId('card-input').fill(cardNumber);
    await page.getByTestId('card-submit').click();
  }

  it('opens a card session, submits the card with it, and returns with status=success', async () => {
    await payByCard('4242 4242 4242 4242');
    const url = await returnedTo();
    expect(url.searchParams.get('status')).toBe('success');
    expect(url.searchParams.get('external_reference')).toBe('EXT-20250301-0001');
    expect(standIn.callsTo('/portal-session')[0]?.body).toEqual({ token: 'tok_test' });
    expect(standIn.callsTo('/checkout/tok_test/card')[0]?.body).toEqual({
      session_id: 'sess_1',
      card_number: '4242424242424242',
    });
  });

  it('returns with status=failed when the card is declined', async () => {
    await payByCard('4000 0000 0000 0002');
    const url = await returnedTo();
    expect(url.searchParams.get('status')).toBe('failed');
  });

  it("shows the API's message when a card session cannot be opened", async () => {
    standIn.sessionReply = { status: 409, body: { message: 'This checkout is already success.' } };
    await openCheckout();
    await page.getByTestId('method-card').check();
    await page.getByTestId('card-start').click();
    const error = page.getByTestId('card-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('This checkout is already success.');
    expect(await page.getByTestId('card-input').isVisible()).toBe(false);
  });
});

describe('a checkout that is already final', () => {
  it('the tab that paid is sent back when it comes back (reload)', async () => {
    await openCheckout();
    await page.getByTestId('phone-input').fill('0754123456');
    await page.getByTestId('phone-submit').click();
    await page.waitForFunction(() => document.getElementById('checkout-status')?.hidden === false);
    // The tab leaves before the outcome is known (closed laptop, reload) and comes back after.
    await page.goto('about:blank');
    standIn.settle('success');
    await page.goto(standIn.pageUrl);
    const url = await returnedTo();
    expect(url.searchParams.get('status')).toBe('success');
    expect(standIn.callsTo('/mno/')).toHaveLength(1);
  });

  it('anyone else sees the outcome, no link, and stays on the page (no open redirect)', async () => {
    standIn.settle('success');
    await openCheckout();
    const status = page.locator('[data-testid="checkout-status"][data-state="success"]');
    await status.waitFor();
    expect(await page.textContent('#status-text')).toBe(
      'This checkout has been paid. You can close this page.',
    );
    expect(await page.getByTestId('return-link').isVisible()).toBe(false);
    // Well past the payer's 600 ms return delay.
    await page.waitForTimeout(1500);
    expect(page.url()).toBe(standIn.pageUrl);
    expect(standIn.callsTo('/mno/')).toEqual([]);
  });
});

describe('merchant input is untrusted', () => {
  const hostile = '</script><script>window.pwned=1</script><img src=x onerror="window.pwned=2">';

  it('shows a hostile description as text and runs none of it', async () => {
    standIn.view = {
      description: hostile,
      callbackUrl: `${standIn.origin}/merchant/return?note=${encodeURIComponent(hostile)}`,
    };
    await openCheckout();
    expect(await page.getByTestId('checkout-description').textContent()).toBe(hostile);
    await page.getByTestId('phone-input').fill('0754123456');
    await page.getByTestId('phone-submit').click();
    standIn.settle('success');
    const url = await returnedTo();
    expect(url.searchParams.get('note')).toBe(hostile);
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
  });

  it('never navigates to a javascript: callback_url', async () => {
    standIn.view = { callbackUrl: 'javascript:window.pwned=3' };
    await openCheckout();
    await page.getByTestId('phone-input').fill('0754123456');
    await page.getByTestId('phone-submit').click();
    standIn.settle('success');
    const status = page.locator('[data-testid="checkout-status"][data-state="success"]');
    await status.waitFor();
    await page.waitForFunction(() =>
      document.getElementById('status-text')?.textContent?.includes('no valid return address'),
    );
    expect(await page.getByTestId('return-link').isVisible()).toBe(false);
    expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
  });
});
