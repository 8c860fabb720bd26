import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PostgresReferenceStore } from '../../src/references/postgres-store.js';
import { SqliteReferenceStore } from '../../src/references/sqlite-store.js';
import { createTestDatabase } from '../helpers/postgres.js';
import { runCli } from '../reconciler-cli/harness.js';
import { accounts, cleanRun, openShop } from './shop.js';

// `pesakit verify --store <file | postgres URL> --sandbox <url>`: one line per check, exit 0
// only when every check holds, 3 when one fails, 2 for a usage mistake.

const directory = mkdtempSync(join(tmpdir(), 'pesakit-verify-cli-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

async function doubleSend(url: string): Promise<void> {
  const login = await fetch(`${url}/api/sandbox/disbursement/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(accounts.disbursement),
  });
  const { token } = (await login.json()) as { token: string };
  await fetch(`${url}/api/sandbox/disbursement/payment`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'x-pesakit-merchant-reference': 'payout-sent',
    },
    body: JSON.stringify({ amount: 2000, msisdn: '255713123456', name: 'Neema' }),
  });
}

describe('pesakit verify', () => {
  it('a SQLite store: exit 0 with one line per check, then 3 after a double send', {
    timeout: 90_000,
  }, async () => {
    const file = join(directory, 'shop.sqlite');
    const store = await SqliteReferenceStore.open(file);
    const shop = await openShop(store);
    try {
      await cleanRun(shop);
      const clean = await runCli(['verify', '--store', file, '--sandbox', shop.url]);
      expect(clean.stderr).toBe('');
      expect(clean.code).toBe(0);
      const lines = clean.stdout.trim().split('\n');
      expect(lines).toHaveLength(9);
      expect(lines.slice(0, 8).every((line) => line.startsWith('ok   '))).toBe(true);
      expect(lines[8]).toBe('verified: all 8 checks hold');

      await doubleSend(shop.url);
      const planted = await runCli(['verify', '--store', file, '--sandbox', shop.url]);
      expect(planted.code).toBe(3);
      expect(planted.stdout).toMatch(
        /^FAIL no money request acted on twice: 6 requests acted on, 5 merchant references, 1 acted on twice$/m,
      );
      expect(planted.stdout).toMatch(/^ {7}payout-sent: acted on 2 times: disbursement DSB/m);
      expect(planted.stdout).toMatch(/^NOT verified: \d of 8 checks failed$/m);
    } finally {
      await shop.close();
      await store.close();
    }
  });

  it('a PostgreSQL store, by URL: exit 0 for a clean run', { timeout: 90_000 }, async () => {
    const database = await createTestDatabase('verify_cli');
    const store = await PostgresReferenceStore.open(database.url);
    const shop = await openShop(store);
    try {
      await cleanRun(shop);
      const run = await runCli(['verify', '--store', database.url, '--sandbox', shop.url]);
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(/^verified: all 8 checks hold$/m);
      expect(run.code).toBe(0);
    } finally {
      await shop.close();
      await store.close();
      await database.drop();
    }
  });

  it.each([
    [['--store', 'missing.sqlite', '--sandbox', 'http://127.0.0.1:9'], /no such SQLite file/],
    [['--store', __filename, '--sandbox', 'ftp://sandbox'], /--sandbox must be an http\(s\) URL/],
    [['--store', __filename], /Which sandbox\? Pass --sandbox/],
  ])('refuses %j: exit 2, one line', { timeout: 30_000 }, async (flags, message) => {
    const run = await runCli(['verify', ...flags]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe('');
  });
});
