import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboard } from '../../src/dashboard.js';
import { EffectRunner } from '../../src/index.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { launchChromium } from '../helpers/browser.js';
import {
  customer,
  oddReferences,
  seedOddReferences,
  seedOperations,
} from '../helpers/dashboard-seed.js';
import { temporarySqliteFiles } from '../helpers/sqlite-file-store.js';

const sqliteFile = temporarySqliteFiles('dashboard-browser');
let browser: Browser;

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe('the operations page in Chromium', () => {
  it('shows the totals, the chart and the review; a review resolved on the page runs onPaid once, beside it', async () => {
    const store = await SqliteReferenceStore.open(sqliteFile());
    await seedOperations(store);
    const dashboard = createDashboard({ store, port: 0 });
    const paid: string[] = [];
    // The application's effect runner: the page records the decision, the runner acts on it.
    const runner = new EffectRunner(store, {
      onPaid: (record) => {
        paid.push(record.merchantReference);
      },
      onFailed: () => {},
    });
    const context = await browser.newContext();
    try {
      await dashboard.listen();
      const url = dashboard.signInUrl();
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(url);
      // The one-time code traded for a cookie and dropped from the address.
      expect(new URL(page.url()).pathname).toBe('/');
      expect(new URL(page.url()).search).toBe('');
      const totals = page.locator('#totals');
      await expect.poll(() => totals.textContent()).toContain('needs_review');
      expect(await totals.textContent()).toContain('success2');
      expect(await page.locator('#chart svg rect').count()).toBeGreaterThan(0);
      const week = page.getByRole('button', { name: '7 days' });
      const weekly = page.waitForResponse((answer) => answer.url().endsWith('hours=168'));
      await week.click();
      expect((await weekly).status()).toBe(200);
      expect(await week.getAttribute('aria-pressed')).toBe('true');
      const card = page.locator('article[data-ref="review-1"]');
      expect(await card.textContent()).toContain('150 TZS were paid for a 5000 TZS order');
      expect(await card.textContent()).toContain('255******456');
      expect(await page.content()).not.toContain(customer);
      await page.locator('article[data-ref="unknown-1"]').waitFor();

      await card.locator('select[name="outcome"]').selectOption('success');
      await card.locator('input[name="note"]').fill('Paid the balance at the counter');
      await card.locator('input[name="by"]').fill('neema');
      await card.getByRole('button', { name: 'Resolve' }).click();
      await card.waitFor({ state: 'detached' });

      expect(await store.records.get('review-1')).toMatchObject({
        status: 'success',
        resolution: { note: 'Paid the balance at the counter', by: 'neema' },
      });
      expect(paid).toEqual([]);
      expect(await runner.drain()).toBe(1);
      expect(await runner.drain()).toBe(0);
      expect(paid).toEqual(['review-1']);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await dashboard.close();
      await store.close();
    }
  });

  it('signs in once with a code: the address bar loses it, a second use is refused', async () => {
    const store = await SqliteReferenceStore.open(sqliteFile());
    const dashboard = createDashboard({ store, port: 0 });
    const context = await browser.newContext();
    try {
      await dashboard.listen();
      const address = dashboard.signInUrl();
      const page = await context.newPage();
      await page.goto(address);
      expect(page.url()).toBe(dashboard.url);
      await expect.poll(() => page.locator('#totals').textContent()).toContain('product');
      // The code in the history is spent: another browser opening it is not signed in.
      const stranger = await browser.newContext();
      try {
        const other = await stranger.newPage();
        const refused = await other.goto(address);
        expect(refused?.status()).toBe(401);
        expect(await other.content()).toContain('spent');
        expect((await other.goto(dashboard.url))?.status()).toBe(401);
      } finally {
        await stranger.close();
      }
      const [cookie] = await context.cookies();
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', secure: false });
      expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(11.9 * 3_600_000);
    } finally {
      await context.close();
      await dashboard.close();
      await store.close();
    }
  });

  it('reaches records a path cannot name: `.` resolved, `..` retried, 128 characters viewed and requeued', async () => {
    const store = await SqliteReferenceStore.open(sqliteFile());
    await seedOddReferences(store);
    const dashboard = createDashboard({ store, port: 0 });
    const context = await browser.newContext();
    const { dot, dots, long } = oddReferences;
    try {
      await dashboard.listen();
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(dashboard.signInUrl());
      const find = async (reference: string) => {
        await page.getByRole('textbox', { name: 'Merchant reference' }).fill(reference);
        await page.getByRole('button', { name: 'Show' }).click();
        const card = page.locator('#found article');
        await expect.poll(() => card.getAttribute('data-ref')).toBe(reference);
        return card;
      };

      const dotCard = await find(dot);
      await dotCard.locator('input[name="note"]').fill('Refunded at the counter');
      await dotCard.locator('select[name="outcome"]').selectOption('failed');
      await dotCard.getByRole('button', { name: 'Resolve' }).click();
      await expect.poll(async () => (await store.records.get(dot))?.status).toBe('failed');

      const dotsCard = await find(dots);
      await dotsCard.getByRole('button', { name: 'Retry effect' }).click();
      await expect.poll(async () => (await store.records.get(dots))?.effect.status).toBe('due');

      const longCard = await find(long);
      await expect.poll(() => longCard.locator('pre').textContent()).toContain('ENG-LONG');
      await longCard.getByRole('button', { name: /^Requeue callback / }).click();
      await expect
        .poll(async () => (await store.inbox.list({ paymentReference: 'ENG-LONG' }))[0]?.status)
        .toBe('pending');
      await longCard.locator('input[name="note"]').fill('Paid the balance');
      await longCard.getByRole('button', { name: 'Resolve' }).click();
      await expect.poll(async () => (await store.records.get(long))?.status).toBe('success');
      expect(problems).toEqual([]);
    } finally {
      await context.close();
      await dashboard.close();
      await store.close();
    }
  });

  it('reads long lists a page at a time: More brings the next page', async () => {
    const store = await SqliteReferenceStore.open(sqliteFile());
    for (let index = 0; index < 105; index++) {
      await store.records.create({
        merchantReference: `open-${String(index).padStart(3, '0')}`,
        product: 'collection',
        flow: 'mno',
        amount: 1000,
      });
    }
    const dashboard = createDashboard({ store, port: 0 });
    const context = await browser.newContext();
    try {
      await dashboard.listen();
      const page = await context.newPage();
      await page.goto(dashboard.signInUrl());
      const rows = page.locator('#open tr td:first-child');
      await expect.poll(() => rows.count()).toBe(100);
      await page.locator('button[data-more="open"]').click();
      await expect.poll(() => rows.count()).toBe(105);
      expect(await rows.last().textContent()).toBe('open-104');
      expect(await page.locator('button[data-more="open"]').count()).toBe(0);
    } finally {
      await context.close();
      await dashboard.close();
      await store.close();
    }
  });
});
