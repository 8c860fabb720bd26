import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  airtimeBulkCommand,
  disbursementBulkCommand,
  runBulk,
} from '../../src/cli/bulk/run-bulk.js';
import { captureIo } from '../reconciler-cli/harness.js';
import {
  batchRows,
  cliEnv,
  csvOf,
  fundAirtime,
  fundPayouts,
  payoutCsvOf,
  payoutRows,
  payoutsByMsisdn,
  purchasesByMsisdn,
  readXlsx,
} from './bulk-files.js';
import { sandboxAndDirectoryPerTest } from './sandbox-per-test.js';

const each = sandboxAndDirectoryPerTest();

const env = () => cliEnv(each.harness, 'airtime');

describe('pesakit airtime bulk, for a person at a terminal', () => {
  it('draws a progress bar on stderr, logs rows that did not succeed, ends with the summary table', async () => {
    await fundAirtime(each.harness, 50_000);
    const file = join(each.directory.path, 'staff.csv');
    writeFileSync(file, csvOf(batchRows(12, [6])));
    const io = captureIo(env());
    io.err.isTTY = true;
    const code = await runBulk(
      airtimeBulkCommand,
      file,
      {
        environment: 'sandbox',
        store: join(each.directory.path, 'payments.sqlite'),
        storeFromArgv: true,
      },
      io,
    );
    expect(code, io.err.text).toBe(3);
    expect(io.err.text).toMatch(/airtime \[/);
    expect(io.err.text).toMatch(/row 6 255760006999 1000 TZS: failed \(.*rejected/);
    expect(io.out.text).toMatch(
      /\|\s*12\s*\|\s*11\s*\|\s*1\s*\|\s*0\s*\|\s*0\s*\|\s*12\s*\|\s*11000\s*\|/,
    );
    // A first run: what it sent is all there is, so no column for earlier runs.
    expect(io.out.text).toMatch(/\|\s*sent now\s*\|\s*TZS paid now\s*\|\n/);
    expect(io.out.text).toMatch(/Some rows failed/);
    expect((await purchasesByMsisdn(each.harness)).size).toBe(12);
  });

  it('a wallet that does not cover the batch exits 5 with the amounts, nothing sent', async () => {
    await fundAirtime(each.harness, 1000);
    const file = join(each.directory.path, 'staff.csv');
    writeFileSync(file, csvOf(batchRows(3)));
    const io = captureIo(env());
    const code = await runBulk(
      airtimeBulkCommand,
      file,
      { environment: 'sandbox', store: join(each.directory.path, 'p.sqlite'), storeFromArgv: true },
      io,
    );
    expect(code).toBe(5);
    expect(io.err.text).toMatch(/holds 1000 TZS but the batch needs 3000 TZS/);
    expect((await purchasesByMsisdn(each.harness)).size).toBe(0);
  });

  it('a batch id that cannot make merchant references is a usage error (exit 2), nothing sent', async () => {
    const file = join(each.directory.path, 'staff.csv');
    writeFileSync(file, csvOf(batchRows(2)));
    const io = captureIo(env());
    const code = await runBulk(
      airtimeBulkCommand,
      file,
      {
        environment: 'sandbox',
        store: join(each.directory.path, 'p.sqlite'),
        storeFromArgv: true,
        batchId: 'nov:1',
      },
      io,
    );
    expect(code).toBe(2);
    expect(io.err.text).toMatch(/^pesakit airtime bulk: --batch-id nov:1: use 1–50 letters/);
    expect(io.err.text).not.toMatch(/UsageError/);
    expect((await purchasesByMsisdn(each.harness)).size).toBe(0);
  });

  it('a file that does not exist is one plain line (exit 2), as the reconcile command prints usage errors', async () => {
    const io = captureIo(env());
    const missing = join(each.directory.path, 'nope.csv');
    const code = await runBulk(
      airtimeBulkCommand,
      missing,
      { environment: 'sandbox', store: join(each.directory.path, 'p.sqlite'), storeFromArgv: true },
      io,
    );
    expect(code).toBe(2);
    expect(io.err.text).toBe(`pesakit airtime bulk: ${missing}: no such file.\n`);
  });
});

describe('pesakit disbursement bulk', () => {
  const payoutEnv = () => cliEnv(each.harness, 'disbursement');

  it('a short wallet exits 5 with the shortfall; --partial pays what fits (exit 4), the rerun the rest (exit 0) with a results file', async () => {
    await fundPayouts(each.harness, 2500);
    const file = join(each.directory.path, 'salaries.csv');
    writeFileSync(file, payoutCsvOf(payoutRows(4)));
    const store = join(each.directory.path, 'payments.sqlite');
    const flags = { environment: 'sandbox' as const, store, storeFromArgv: true, batchId: 'nov' };
    const run = (extra = {}) => {
      const io = captureIo(payoutEnv());
      return runBulk(disbursementBulkCommand, file, { ...flags, ...extra }, io).then((code) => ({
        code,
        io,
      }));
    };
    const refused = await run({ batchId: undefined });
    expect(refused.code).toBe(5);
    expect(refused.io.err.text).toMatch(
      /pesakit disbursement bulk: .*The wallet holds 2500 TZS but the batch needs 4400 TZS \(1900 TZS short\)/,
    );
    expect((await payoutsByMsisdn(each.harness)).size).toBe(0);

    const partial = await run({ partial: true });
    expect(partial.code).toBe(4);
    expect(partial.io.out.text).toMatch(
      /\|\s*4\s*\|\s*2\s*\|\s*0\s*\|\s*0\s*\|\s*0\s*\|\s*2\s*\|\s*2\s*\|\s*2000\s*\|/,
    );
    expect(partial.io.out.text).toMatch(/--batch-id nov after topping the wallet up/);

    await fundPayouts(each.harness, 5000);
    const out = join(each.directory.path, 'results.xlsx');
    const rest = await run({ out });
    expect(rest.code, rest.io.err.text).toBe(0);
    const results = await readXlsx(readFileSync(out));
    expect(results.map((row) => [row['name'], row['status'], row['merchant_reference']])).toEqual(
      [1, 2, 3, 4].map((row) => [`Staff ${row}`, 'success', `payout:nov:${row}`]),
    );
    expect([...(await payoutsByMsisdn(each.harness)).values()]).toEqual([1, 1, 1, 1]);
  });
});
