import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAirtimeBulk } from '../../src/cli/bulk/run-bulk.js';
import { accounts } from '../helpers/sandbox-harness.js';
import { captureIo } from '../reconciler-cli/harness.js';
import { batchRows, csvOf, fundAirtime, purchasesByMsisdn } from './bulk-files.js';
import { sandboxAndDirectoryPerTest } from './sandbox-per-test.js';

const each = sandboxAndDirectoryPerTest();

const env = () => ({
  PESAKIT_AIRTIME_EMAIL: accounts.airtime.email,
  PESAKIT_AIRTIME_PASSWORD: accounts.airtime.password,
  PESAKIT_BASE_URL: each.harness.url,
});

describe('pesakit airtime bulk, for a person at a terminal', () => {
  it('draws a progress bar on stderr, logs rows that did not succeed, ends with the summary table', async () => {
    await fundAirtime(each.harness, 50_000);
    const file = join(each.directory.path, 'staff.csv');
    writeFileSync(file, csvOf(batchRows(12, [6])));
    const io = captureIo(env());
    io.err.isTTY = true;
    const code = await runAirtimeBulk(
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
    expect(io.out.text).toMatch(/Some rows failed/);
    expect((await purchasesByMsisdn(each.harness)).size).toBe(12);
  });

  it('a wallet that does not cover the batch exits 5 with the amounts, nothing sent', async () => {
    await fundAirtime(each.harness, 1000);
    const file = join(each.directory.path, 'staff.csv');
    writeFileSync(file, csvOf(batchRows(3)));
    const io = captureIo(env());
    const code = await runAirtimeBulk(
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
    const code = await runAirtimeBulk(
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
    const code = await runAirtimeBulk(
      missing,
      { environment: 'sandbox', store: join(each.directory.path, 'p.sqlite'), storeFromArgv: true },
      io,
    );
    expect(code).toBe(2);
    expect(io.err.text).toBe(`pesakit airtime bulk: ${missing}: no such file.\n`);
  });
});
