import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDashboard } from '../../src/dashboard.js';
import { EffectRunner } from '../../src/index.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { launchChromium } from '../helpers/browser.js';
import { customer, seedOperations } from '../helpers/dashboard-seed.js';
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
      const url = await dashboard.listen();
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      await page.goto(url);
      // The token traded for a cookie and dropped from the address.
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

      expect(await store.get('review-1')).toMatchObject({
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
});
