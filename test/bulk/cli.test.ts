import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { runCli } from '../reconciler-cli/harness.js';
import {
  batchRows,
  cliEnv,
  fundAirtime,
  fundPayouts,
  payoutCsvOf,
  payoutRows,
  payoutsByMsisdn,
  purchasesByMsisdn,
  readXlsx,
  type SheetRow,
  xlsxOf,
} from './bulk-files.js';
import { sandboxAndDirectoryPerTest } from './sandbox-per-test.js';

const each = sandboxAndDirectoryPerTest();

const env = () => cliEnv(each.harness, 'airtime');

async function writeBatch(name: string, rows: readonly SheetRow[]): Promise<string> {
  const path = join(each.directory.path, name);
  writeFileSync(path, await xlsxOf(rows));
  return path;
}

function jsonLines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('pesakit airtime bulk <file>', () => {
  it('sends a 120-row file, prints the summary, writes the results file, exits 0', async () => {
    await fundAirtime(each.harness, 120_000);
    const file = await writeBatch('staff.xlsx', batchRows(120));
    const store = join(each.directory.path, 'payments.sqlite');
    const out = join(each.directory.path, 'results.xlsx');
    const run = await runCli(
      [
        'airtime',
        'bulk',
        file,
        '-e',
        'sandbox',
        '--store',
        store,
        '--out',
        out,
        '--concurrency',
        '8',
      ],
      env(),
    );
    // No --batch-id: the id is derived from the rows, and printed before anything is sent.
    expect(run.stderr).toMatch(/starting batch (rows-[a-z2-7]{26}) \(derived from the rows\)/);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /\|\s*120\s*\|\s*120\s*\|\s*0\s*\|\s*0\s*\|\s*0\s*\|\s*120\s*\|\s*120000\s*\|/,
    );
    expect(run.stdout).toMatch(/Every row succeeded/);
    const results = await readXlsx(readFileSync(out));
    expect(results).toHaveLength(120);
    const batchId = /starting batch ([\w-]+)/.exec(run.stderr)?.[1];
    for (const [index, row] of results.entries()) {
      expect(row).toMatchObject({
        row: index + 1,
        status: 'success',
        merchant_reference: `airtime:${batchId}:${index + 1}`,
        payment_reference: expect.any(String),
      });
    }
    const purchases = await purchasesByMsisdn(each.harness);
    expect(purchases.size).toBe(120);

    // The same command again: the same rows are the same batch, every row has a record.
    const again = await runCli(['airtime', 'bulk', file, '-e', 'sandbox', '--store', store], env());
    expect(again.code, again.stderr).toBe(6);
    expect(again.stdout).toContain(`These rows already ran as batch ${batchId}, started `);
    const after = await purchasesByMsisdn(each.harness);
    expect([...after.values()].every((count) => count === 1)).toBe(true);
    expect(after.size).toBe(120);
  }, 180_000);

  it('exits 3 when rows failed at the vendor, listing them; --json gives one line per row and a summary', async () => {
    await fundAirtime(each.harness, 100_000);
    const file = await writeBatch('mixed.xlsx', batchRows(10, [4, 9]));
    const store = join(each.directory.path, 'payments.sqlite');
    const out = join(each.directory.path, 'results.csv');
    const run = await runCli(
      ['airtime', 'bulk', file, '-e', 'sandbox', '--store', store, '--json', '--out', out],
      env(),
    );
    expect(run.code, run.stderr).toBe(3);
    const lines = jsonLines(run.stdout);
    const rows = lines.filter((line) => line['event'] === 'row');
    expect(rows).toHaveLength(10);
    expect(rows.filter((line) => line['status'] === 'failed').map((line) => line['row'])).toEqual([
      4, 9,
    ]);
    expect(lines.at(-1)).toMatchObject({ event: 'summary', succeeded: 8, failed: 2, exitCode: 3 });
    // The results CSV starts with a byte order mark, so Excel reads it as UTF-8.
    const csv = readFileSync(out, 'utf8').replace(/^\uFEFF/, '');
    expect(csv.split(/\r?\n/)[0]).toBe(
      'row,msisdn,amount,reference,status,merchant_reference,payment_reference,message',
    );
    expect(csv).toMatch(/\n4,255760004999,1000,staff-4,failed,/);
  }, 60_000);

  it('exits 5 for a file with bad rows, naming each row and line, and sends nothing', async () => {
    await fundAirtime(each.harness, 100_000);
    const file = await writeBatch('bad.xlsx', [
      ...batchRows(2),
      { msisdn: '12345', amount: 1000 },
      { msisdn: '255754000004', amount: 0 },
    ]);
    const store = join(each.directory.path, 'payments.sqlite');
    const run = await runCli(['airtime', 'bulk', file, '-e', 'sandbox', '--store', store], env());
    expect(run.code).toBe(5);
    expect(run.stderr).toMatch(/Row 3 \(line 4\)/);
    expect(run.stderr).toMatch(/Row 4 \(line 5\)/);
    expect((await purchasesByMsisdn(each.harness)).size).toBe(0);
  }, 60_000);

  it('exits 2 for --batch-id with a store that does not exist (it would resend every row)', async () => {
    const file = await writeBatch('staff.xlsx', batchRows(2));
    const run = await runCli(
      [
        'airtime',
        'bulk',
        file,
        '-e',
        'sandbox',
        '--store',
        join(each.directory.path, 'typo.sqlite'),
        '--batch-id',
        'nov',
      ],
      env(),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/no such SQLite file/);
    expect((await purchasesByMsisdn(each.harness)).size).toBe(0);
  }, 60_000);

  it('exits 2 without airtime credentials, naming the variables', async () => {
    const file = await writeBatch('staff.xlsx', batchRows(2));
    const run = await runCli(
      ['airtime', 'bulk', file, '-e', 'sandbox', '--store', join(each.directory.path, 's.sqlite')],
      { PESAKIT_BASE_URL: each.harness.url },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/PESAKIT_AIRTIME_EMAIL/);
  }, 60_000);
});

/** Each product's batch of 300 rows, its credentials, and the platform's own count of payments. */
const staffAirtime = batchRows(300);
const salaries = payoutRows(300);
const crashProducts = [
  {
    command: 'airtime',
    prefix: 'airtime',
    rows: staffAirtime,
    file: () => writeBatch('staff.xlsx', staffAirtime),
    fund: () => fundAirtime(each.harness, 400_000),
    env,
    paid: () => purchasesByMsisdn(each.harness),
  },
  {
    command: 'disbursement',
    prefix: 'payout',
    rows: salaries,
    file: async () => {
      const path = join(each.directory.path, 'salaries.csv');
      writeFileSync(path, payoutCsvOf(salaries));
      return path;
    },
    // 300 × (1,000 + the 100 TZS charge), and room to spare.
    fund: () => fundPayouts(each.harness, 400_000),
    env: () => cliEnv(each.harness, 'disbursement'),
    paid: () => payoutsByMsisdn(each.harness),
  },
] as const;

describe.each(crashProducts)(
  'pesakit $command bulk: crash halfway (kill -9), then a rerun',
  (product) => {
    it('completes the batch and sends no row twice', async () => {
      await product.fund();
      const { rows } = product;
      const file = await product.file();
      const store = join(each.directory.path, 'payments.sqlite');
      const args = [product.command, 'bulk', file, '-e', 'sandbox', '--store', store, '--json'];
      let rowsSeen = 0;
      // A new batch creates the store; its id is printed first so the rerun can name it.
      let batchId = '';
      const killed = await runCli(args, product.env(), {
        onStdoutLine: (line, child) => {
          const event = JSON.parse(line) as Record<string, unknown>;
          if (event['event'] === 'start') batchId = String(event['batchId']);
          if (event['event'] !== 'row') return;
          rowsSeen += 1;
          if (rowsSeen === 60) child.kill('SIGKILL');
        },
      });
      expect(killed.code).toBeNull();
      expect(batchId).toMatch(/^rows-[a-z2-7]{26}$/);
      const sentBeforeCrash = await product.paid();
      expect(sentBeforeCrash.size).toBeGreaterThanOrEqual(60);
      expect(sentBeforeCrash.size).toBeLessThan(300);

      const rerun = await runCli([...args, '--batch-id', batchId], product.env());
      const summary = jsonLines(rerun.stdout).at(-1);
      expect(summary, rerun.stderr).toMatchObject({ event: 'summary', rows: 300, skipped: 0 });
      // Rows the kill caught between writing the intent and recording the answer are unknown:
      // reported, never resent (exit 4); everything else succeeded.
      expect(Number(summary?.['succeeded']) + Number(summary?.['unknown'])).toBe(300);
      expect(rerun.code).toBe(Number(summary?.['unknown']) > 0 ? 4 : 0);

      const paid = await product.paid();
      for (const row of rows) expect(paid.get(row.msisdn) ?? 0).toBeLessThanOrEqual(1);
      // Every row the rerun reports succeeded was paid exactly once.
      const sqlite = await SqliteReferenceStore.open(store);
      try {
        for (const [index, row] of rows.entries()) {
          const record = await sqlite.records.get(`${product.prefix}:${batchId}:${index + 1}`);
          expect(record, `row ${index + 1}`).toBeDefined();
          if (record?.status === 'success') expect(paid.get(row.msisdn)).toBe(1);
        }
      } finally {
        await sqlite.close();
      }
    }, 180_000);
  },
);
