import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeResultsFile } from '../../src/cli/bulk/results-file.js';
import type { AirtimeBulkResult } from '../../src/resources/bulk/types.js';
import { csvField } from '../../src/spreadsheets/csv.js';
import { readAirtimeBulkFile } from '../../src/spreadsheets/index.js';

const directory = mkdtempSync(join(tmpdir(), 'pesakit-results-'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function result(message: string): AirtimeBulkResult {
  return {
    batchId: 'b1',
    via: 'purchase',
    rows: [
      {
        row: 1,
        msisdn: '255712345678',
        amount: 1000,
        merchantReference: 'b1:1',
        status: 'failed',
        message,
        fromEarlierRun: false,
      },
    ],
    totals: {} as AirtimeBulkResult['totals'],
  };
}

describe('the results file', () => {
  it.each(['=HYPERLINK("http://evil.example","x")', '+1+1', '-2+3', '@SUM(A1)'])(
    'keeps the platform message %s as text in a CSV, not a formula',
    async (message) => {
      const path = join(directory, 'results.csv');
      await writeResultsFile(path, result(message));
      const text = readFileSync(path, 'utf8');
      const line = text.split('\r\n')[1] ?? '';
      expect(line.endsWith(`,${csvField(`'${message}`)}`)).toBe(true);
    },
  );

  it('leaves an ordinary message as it is, and the file reads back', async () => {
    const path = join(directory, 'ok.csv');
    await writeResultsFile(path, result('Vendor declined the number'));
    const bytes = readFileSync(path);
    expect(bytes.toString('utf8').split('\r\n')[1]?.endsWith(',Vendor declined the number')).toBe(
      true,
    );
    const parsed = await readAirtimeBulkFile(bytes, { fileName: 'ok.csv' });
    expect(parsed.rows[0]?.msisdn).toBe('255712345678');
  });

  it.each([
    ['Declined; try later', '"Declined; try later"'],
    ['Declined, try later', '"Declined, try later"'],
    ['He said "no"', '"He said ""no"""'],
    ['two\nlines', '"two\nlines"'],
    ['=1;2', `"'=1;2"`],
  ])('quotes the message %j where a spreadsheet would split or run it', async (message, field) => {
    const path = join(directory, 'quoted.csv');
    await writeResultsFile(path, result(message));
    const text = readFileSync(path, 'utf8');
    expect(text.endsWith(`,${field}\r\n`)).toBe(true);
  });
});
