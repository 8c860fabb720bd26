import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { airtimeBulkCommand, runBulk } from '../../src/cli/bulk/run-bulk.js';
import { captureIo } from '../reconciler-cli/harness.js';
import { cliEnv, fundAirtime, purchasesByMsisdn } from './bulk-files.js';
import { sandboxAndDirectoryPerTest } from './sandbox-per-test.js';

const each = sandboxAndDirectoryPerTest();

const env = () => cliEnv(each.harness, 'airtime');

const flags = () => ({
  environment: 'sandbox' as const,
  store: join(each.directory.path, 'payments.sqlite'),
  storeFromArgv: true,
});

describe('pesakit airtime bulk: a file with bad rows', () => {
  it('is refused (exit 5) without resume advice, each bad row listed once, nothing sent', async () => {
    await fundAirtime(each.harness, 50_000);
    const file = join(each.directory.path, 'staff.csv');
    writeFileSync(file, 'msisdn,amount\n255754000001,1000\n12345,1000\n255754000003,abc\n');
    const io = captureIo(env());
    const code = await runBulk(airtimeBulkCommand, file, flags(), io);
    expect(code, io.err.text).toBe(5);
    expect(io.err.text).not.toMatch(/--batch-id/);
    expect(io.err.text).not.toMatch(/starting batch/);
    // The row numbers as the file shows them (row 1 is the header line).
    expect(io.err.text.match(/line 3\b/g)).toHaveLength(1);
    expect(io.err.text.match(/line 4\b/g)).toHaveLength(1);
    expect((await purchasesByMsisdn(each.harness)).size).toBe(0);
  });
});

describe('pesakit airtime bulk: terminal control characters', () => {
  it('are escaped in the file name and in cells, never written raw', async () => {
    await fundAirtime(each.harness, 50_000);
    const file = join(each.directory.path, 'staff\u001b[2J.csv');
    writeFileSync(file, 'msisdn,amount\n2557540\u001b]0;owned\u0007001,1000\n');
    const io = captureIo(env());
    const code = await runBulk(airtimeBulkCommand, file, flags(), io);
    expect(code, io.err.text).toBe(5);
    const output = io.err.text + io.out.text;
    const controls = [...output].filter((c) => c < ' ' && c !== '\n' && c !== '\t');
    expect(controls).toEqual([]);
    expect(output).toContain('\\u001b');

    const missing = join(each.directory.path, 'gone\u001b[31m.csv');
    const usage = captureIo(env());
    expect(await runBulk(airtimeBulkCommand, missing, flags(), usage)).toBe(2);
    expect(usage.err.text).not.toContain('\u001b');
    expect(usage.err.text).toContain('gone\\u001b[31m.csv');
  });
});
