import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import {
  airtimeBulkCommand,
  type BulkFlags,
  disbursementBulkCommand,
  runBulk,
} from '../../src/cli/bulk/run-bulk.js';
import { PostgresReferenceStore } from '../../src/postgres.js';
import type { ReferenceStore } from '../../src/references/index.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres.js';
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
  xlsxOf,
} from './bulk-files.js';
import { sandboxAndDirectoryPerTest } from './sandbox-per-test.js';

const each = sandboxAndDirectoryPerTest();
const hour = 60 * 60 * 1000;

const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const database of databases) await database.drop();
});

/** Where the CLI keeps the batch, and the same store opened from code with a given clock. */
const stores = [
  {
    name: 'SQLite',
    // The store the application writes: `--batch-id` refuses a SQLite file that does not exist.
    location: async () => {
      const store = join(each.directory.path, 'payments.sqlite');
      await (await SqliteReferenceStore.open(store)).close();
      return { store, fromArgv: true };
    },
    open: (store: string, now: () => Date): Promise<ReferenceStore> =>
      SqliteReferenceStore.open(store, { now }),
  },
  {
    name: 'PostgreSQL',
    // A database per test, its store made as an application's would be: the CLI opens the
    // `public` schema of the URL it is given, and never creates one.
    location: async () => {
      const database = await createTestDatabase('cli-rerun');
      databases.push(database);
      await (await PostgresReferenceStore.open(database.url, { maxConnections: 1 })).close();
      return { store: database.url, fromArgv: false };
    },
    open: (store: string, now: () => Date): Promise<ReferenceStore> =>
      PostgresReferenceStore.open(store, { now, maxConnections: 2 }),
  },
];

const payoutFile = (count: number) => {
  const path = join(each.directory.path, 'salaries.csv');
  writeFileSync(path, payoutCsvOf(payoutRows(count)));
  return path;
};

function jsonLines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Row `n`'s cells of a results CSV: `row, msisdn, amount, name, reference, status, …, message`. */
function resultsCsv(path: string): string[][] {
  const lines = readFileSync(path, 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/);
  return lines.slice(1).map((line) => line.split(','));
}

describe.each(stores)('$name: pesakit disbursement bulk, the same file again', (kind) => {
  let where: { store: string; fromArgv: boolean };
  beforeEach(async () => {
    where = await kind.location();
  });
  async function cli(file: string, flags: Partial<BulkFlags> = {}) {
    const { store, fromArgv } = where;
    const io = captureIo(cliEnv(each.harness, 'disbursement'));
    const all = { environment: 'sandbox' as const, store, storeFromArgv: fromArgv, ...flags };
    const code = await runBulk(disbursementBulkCommand, file, all, io);
    return { code, out: io.out.text, err: io.err.text };
  }

  it('without --batch-id: exit 6, naming the batch and when it ran; nothing sent; the results file says why', async () => {
    await fundPayouts(each.harness, 10_000);
    const file = payoutFile(5);
    const first = await cli(file);
    expect(first.code, first.err).toBe(0);
    const batchId = /starting batch (rows-[a-z2-7]{26}) \(derived from the rows\)/.exec(
      first.err,
    )?.[1];
    expect(batchId).toBeDefined();
    expect(first.err).toMatch(/run the same command within 24 hours \(later: with --batch-id/);

    const out = join(each.directory.path, 'results.csv');
    const again = await cli(file, { out });
    expect(again.code, again.err).toBe(6);
    expect(again.out).toMatch(
      new RegExp(
        `These rows already ran as batch ${batchId}, started \\d{4}-\\d\\d-\\d\\dT[\\d:]{8}Z: ` +
          'every row has a record, so nothing was sent\\.',
      ),
    );
    expect(again.out).toMatch(/--batch-id with a new id pays the rows again/);
    // rows | succeeded | failed | pending | unknown | skipped | sent now | TZS paid now | in all
    expect(again.out).toMatch(/sent now\s*\|\s*TZS paid now\s*\|\s*TZS paid in all\s*\|/);
    expect(again.out).toMatch(/\|\s*5\s*\|\s*5\s*\|(\s*0\s*\|){4}\s*0\s*\|\s*0\s*\|\s*5000\s*\|/);
    const results = resultsCsv(out);
    expect(results).toHaveLength(5);
    for (const cells of results) {
      expect(cells[5]).toBe('success');
      expect(cells.at(-1)).toMatch(
        new RegExp(`^Already sent in batch ${batchId} at \\d{4}-\\d\\d-\\d\\dT[\\d:]{8}Z: success`),
      );
    }
    expect([...(await payoutsByMsisdn(each.harness)).values()]).toEqual([1, 1, 1, 1, 1]);
  });

  it('an explicit --batch-id whose every row has a record: exit 6 with the results; --json says so', async () => {
    await fundPayouts(each.harness, 10_000);
    const file = payoutFile(3);
    expect((await cli(file, { batchId: 'salaries-2026-11' })).code).toBe(0);
    const again = await cli(file, { batchId: 'salaries-2026-11', json: true });
    expect(again.code, again.err).toBe(6);
    const lines = jsonLines(again.out);
    const rows = lines.filter((line) => line['event'] === 'row');
    expect(rows.map((row) => [row['status'], row['fromEarlierRun']])).toEqual([
      ['success', true],
      ['success', true],
      ['success', true],
    ]);
    expect(lines.at(-1)).toMatchObject({
      event: 'summary',
      batchId: 'salaries-2026-11',
      alreadyRun: true,
      ranAt: expect.stringMatching(/Z$/),
      message: expect.stringMatching(/^Batch salaries-2026-11 already ran/),
      succeeded: 3,
      sent: 0,
      amountSucceededNow: 0,
      amountSucceeded: 3000,
      exitCode: 6,
    });
    expect([...(await payoutsByMsisdn(each.harness)).values()]).toEqual([1, 1, 1]);

    // Next month: a new batch id pays the same rows again.
    const december = await cli(file, { batchId: 'salaries-2026-12' });
    expect(december.code, december.err).toBe(0);
    expect([...(await payoutsByMsisdn(each.harness)).values()]).toEqual([2, 2, 2]);
  });

  it('a rerun that finishes the batch counts only what it sent: sent now and TZS paid now agree', async () => {
    await fundPayouts(each.harness, 2500);
    const file = payoutFile(4);
    // One row at a time, so the rows the float covers are the first two.
    const partial = await cli(file, { partial: true, concurrency: 1 });
    expect(partial.code, partial.err).toBe(4);
    await fundPayouts(each.harness, 5000);
    const out = join(each.directory.path, 'results.csv');
    const rest = await cli(file, { out });
    expect(rest.code, rest.err).toBe(0);
    // rows 4, succeeded 4, none failed/pending/unknown/skipped, sent now 2, 2000 now, 4000 in all
    expect(rest.out).toMatch(/\|\s*4\s*\|\s*4\s*\|(\s*0\s*\|){4}\s*2\s*\|\s*2000\s*\|\s*4000\s*\|/);
    const messages = resultsCsv(out).map((cells) => cells.at(-1));
    expect(messages.slice(0, 2)).toEqual([
      expect.stringMatching(/^Already sent in batch rows-\w+ at .*Z: success/),
      expect.stringMatching(/^Already sent in batch rows-\w+ at .*Z: success/),
    ]);
    expect(messages.slice(2)).toEqual([
      expect.not.stringMatching(/Already sent/),
      expect.not.stringMatching(/Already sent/),
    ]);
    expect([...(await payoutsByMsisdn(each.harness)).values()]).toEqual([1, 1, 1, 1]);
  });

  it('a batch started more than 24 hours ago: exit 6 with its time; --batch-id <its id> sends the rest', async () => {
    await fundPayouts(each.harness, 10_000);
    const file = payoutFile(5);
    // The first run, a day and an hour ago, stopped after two rows.
    const old = await kind.open(where.store, () => new Date(Date.now() - 25 * hour));
    const stop = new AbortController();
    const first = each.harness
      .client({ store: old })
      .disbursement.bulkPay(payoutRows(5), { concurrency: 1, signal: stop.signal });
    first.on('progress', (totals) => totals.done === 2 && stop.abort());
    const { batchId } = await first;
    await old.close();

    const again = await cli(file);
    expect(again.code, again.err).toBe(6);
    expect(again.err).toContain(`starting batch ${batchId} (derived from the rows)`);
    expect(again.out).toMatch(
      new RegExp(`These rows already ran as batch ${batchId}, started .*Z, more than 24 hours ago`),
    );
    expect(again.out).toContain(`--batch-id ${batchId} sends the rows left in it`);
    expect((await payoutsByMsisdn(each.harness)).size).toBe(2);

    const resumed = await cli(file, { batchId });
    expect(resumed.code, resumed.err).toBe(0);
    expect([...(await payoutsByMsisdn(each.harness)).values()]).toEqual([1, 1, 1, 1, 1]);
  });
});

describe('pesakit airtime bulk: the same rows, saved again', () => {
  it('a re-saved .xlsx of the rows a CSV sent is the same batch: exit 6, nothing sent twice', async () => {
    await fundAirtime(each.harness, 20_000);
    const rows = batchRows(3);
    const csv = join(each.directory.path, 'staff.csv');
    writeFileSync(csv, csvOf(rows));
    const xlsx = join(each.directory.path, 'staff.xlsx');
    writeFileSync(xlsx, await xlsxOf(rows));
    const flags = {
      environment: 'sandbox' as const,
      store: join(each.directory.path, 'payments.sqlite'),
      storeFromArgv: true,
    };
    const run = async (file: string, out?: string) => {
      const io = captureIo(cliEnv(each.harness, 'airtime'));
      const code = await runBulk(
        airtimeBulkCommand,
        file,
        { ...flags, ...(out ? { out } : {}) },
        io,
      );
      return { code, out: io.out.text, err: io.err.text };
    };
    expect((await run(csv)).code).toBe(0);
    const out = join(each.directory.path, 'results.xlsx');
    const again = await run(xlsx, out);
    expect(again.code, again.err).toBe(6);
    expect(again.out).toMatch(/These rows already ran as batch rows-/);
    const results = await readXlsx(readFileSync(out));
    expect(results.map((row) => row['message'])).toEqual(
      rows.map(() => expect.stringMatching(/^Already sent in batch rows-\w+ at .*Z: success/)),
    );
    expect([...(await purchasesByMsisdn(each.harness)).values()]).toEqual([1, 1, 1]);
  });
});
