import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SqliteReferenceStore } from '../../src/references/sqlite-store.js';
import {
  formatVerifyReport,
  type VerifyCheck,
  type VerifyReport,
  verifyAgainstSandbox,
} from '../../src/testing.js';
import { moves } from '../helpers/moves.js';
import { accounts, cleanRun, forgetfulEndpoint, openShop, type Shop } from './shop.js';

const directory = mkdtempSync(join(tmpdir(), 'pesakit-verify-'));
let store: SqliteReferenceStore;
let shop: Shop;

beforeAll(async () => {
  store = await SqliteReferenceStore.open(join(directory, 'shop.sqlite'));
  shop = await openShop(store);
  await cleanRun(shop);
}, 60_000);

afterAll(async () => {
  await shop?.close();
  await store?.close();
  rmSync(directory, { recursive: true, force: true });
});

const verify = () =>
  verifyAgainstSandbox({
    store,
    sandbox: shop.url,
    effectsOf: (reference) => shop.runs.get(reference) ?? 0,
  });

const checkOf = (report: VerifyReport, id: VerifyCheck['id']) =>
  report.checks.find((check) => check.id === id) as VerifyCheck;

// The tests run in order on one shop: each plants one more fault and expects its check to fail.
describe('verifyAgainstSandbox', () => {
  it('passes a clean run: every check holds, with its counts', async () => {
    const report = await verify();
    expect(formatVerifyReport(report)).toEqual([
      'ok   final records agree with the platform: 5 final records, 0 contradicted',
      'ok   nothing open that the platform holds final: 0 open records, 0 already final on the platform',
      'ok   every platform transaction has a record: 5 platform transactions, 0 without a record',
      'ok   no money request acted on twice: 5 requests acted on, 5 merchant references, 0 acted on twice',
      'ok   every acknowledged callback is in the inbox: 2 callbacks answered 2xx, 0 missing from the inbox',
      'ok   every settled record ran its handler, none dead: 5 settled records with a handler, 0 dead, 0 not completed',
      'ok   the wallet ledger agrees with the final records: 2 wallet movements, 0 disagreeing',
      "ok   the merchant's own side ran once per settled record: 5 records, 0 ran other than expected",
      'verified: all 8 checks hold',
    ]);
    expect(report.ok).toBe(true);
  });

  it('fails on a planted contradiction: a record marked failed that the platform paid', async () => {
    // A collection without a callback URL stays pending in the store while the platform settles it.
    await shop.pesakit.collection.initiateMno(
      { amount: 1700, msisdn: '255712345124' },
      { merchantReference: 'order-contradicted' },
    );
    await shop.quiet();
    const open = await verify();
    expect(checkOf(open, 'open_not_final').violations).toEqual([
      {
        reference: 'order-contradicted',
        message: expect.stringMatching(/^pending, but the platform holds collection \d+ \(success/),
      },
    ]);
    await moves(store).transition('order-contradicted', 'failed', {
      reason: 'planted by the test',
    });
    await shop.quiet();
    const report = await verify();
    expect(report.ok).toBe(false);
    expect(checkOf(report, 'final_agrees')).toMatchObject({
      ok: false,
      violations: [
        {
          reference: 'order-contradicted',
          message: expect.stringMatching(
            /^failed, but the platform holds collection \d+ \(success/,
          ),
        },
      ],
    });
    expect(formatVerifyReport(report)).toContain(
      'FAIL final records agree with the platform: 6 final records, 1 contradicted',
    );
  });

  it('fails on a planted double send: one merchant reference acted on twice', async () => {
    const login = await fetch(`${shop.url}/api/sandbox/disbursement/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(accounts.disbursement),
    });
    const { token } = (await login.json()) as { token: string };
    const again = await fetch(`${shop.url}/api/sandbox/disbursement/payment`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${token}`,
        'x-pesakit-merchant-reference': 'payout-sent',
      },
      body: JSON.stringify({ amount: 2000, msisdn: '255713123456', name: 'Neema' }),
    });
    expect(again.status).toBe(200);
    const report = await verify();
    expect(checkOf(report, 'never_twice')).toMatchObject({
      ok: false,
      violations: [
        {
          reference: 'payout-sent',
          message: expect.stringMatching(
            /^acted on 2 times: disbursement DSB\w+, disbursement DSB\w+$/,
          ),
        },
      ],
    });
    // The wallet paid the one record twice.
    expect(checkOf(report, 'wallet_ledger').violations).toEqual([
      {
        reference: 'payout-sent',
        message: expect.stringMatching(
          /^success for TZS 2000, but the wallet moved TZS 4000 for DSB\w+, DSB\w+$/,
        ),
      },
    ]);
  });

  it('fails on a planted lost callback: answered 200 and never stored', async () => {
    const endpoint = await forgetfulEndpoint();
    try {
      await shop.pesakit.collection.initiateMno(
        { amount: 1800, msisdn: '255712345125', callback_url: endpoint.url },
        { merchantReference: 'order-lost-callback' },
      );
      await shop.quiet();
      const report = await verify();
      expect(checkOf(report, 'callbacks_in_inbox')).toMatchObject({
        ok: false,
        violations: [
          {
            reference: 'order-lost-callback',
            message: expect.stringMatching(/was answered 200 and is not in the inbox$/),
          },
        ],
      });
    } finally {
      await endpoint.close();
    }
  });

  it("fails when the merchant's own side ran twice", async () => {
    shop.runs.set('payout-sent', 2);
    const report = await verify();
    expect(checkOf(report, 'merchant_effects').violations).toEqual([
      { reference: 'payout-sent', message: 'success: your side ran 2 times, expected 1' },
    ]);
  });
});
