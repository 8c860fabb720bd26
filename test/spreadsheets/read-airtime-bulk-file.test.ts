import { describe, expect, it } from 'vitest';
import {
  isSpreadsheetError,
  readAirtimeBulkFile,
  SpreadsheetError,
  type SpreadsheetErrorCode,
} from '../../src/spreadsheets/index.js';
import { csvOf, PNG_BYTES, xlsxOf } from './files.js';

async function refusal(bytes: Uint8Array, options = {}): Promise<SpreadsheetError> {
  const error = await readAirtimeBulkFile(bytes, options).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(isSpreadsheetError(error), `expected a SpreadsheetError, got ${String(error)}`).toBe(true);
  return error as SpreadsheetError;
}

async function expectRefused(bytes: Uint8Array, code: SpreadsheetErrorCode, pattern: RegExp) {
  const error = await refusal(bytes);
  expect(error.code).toBe(code);
  expect(error.message).toMatch(pattern);
  expect(error).toBeInstanceOf(SpreadsheetError);
  expect(error.name).toBe('SpreadsheetError');
}

describe('xlsx files', () => {
  it('reads the header in any case and order, ignores other columns, and numbers rows and lines', async () => {
    const bytes = await xlsxOf([
      ['Name', 'AMOUNT', 'Reference', 'MSISDN'],
      ['Asha', 1000, 'staff-1', '255754000001'],
      ['Baraka', 2500.5, null, '255684000002'],
    ]);
    const file = await readAirtimeBulkFile(bytes);
    expect(file.format).toBe('xlsx');
    expect(file.rows).toEqual([
      { row: 1, line: 2, msisdn: '255754000001', amount: 1000, reference: 'staff-1' },
      { row: 2, line: 3, msisdn: '255684000002', amount: 2500.5 },
    ]);
  });

  it('turns MSISDNs that Excel stored as numbers back into their digits', async () => {
    const bytes = await xlsxOf([
      ['msisdn', 'amount'],
      [255712345678, 500],
    ]);
    const file = await readAirtimeBulkFile(bytes);
    expect(file.rows[0]).toMatchObject({ msisdn: '255712345678', amount: 500 });
  });

  it('skips blank rows, which keep their sheet row numbers as `line`', async () => {
    const bytes = await xlsxOf(
      [
        ['msisdn', 'amount'],
        ['255754000001', 100],
        ['255754000002', 200],
      ],
      { blankRowsAt: [3, 4] },
    );
    const file = await readAirtimeBulkFile(bytes);
    expect(file.rows.map(({ row, line }) => [row, line])).toEqual([
      [1, 2],
      [2, 5],
    ]);
  });

  it('reads amounts written as text when they are plain numbers, and keeps other text as text', async () => {
    const bytes = await xlsxOf([
      ['msisdn', 'amount'],
      ['255754000001', ' 1500 '],
      ['255754000002', '1,000'],
    ]);
    const file = await readAirtimeBulkFile(bytes);
    expect(file.rows.map((row) => row.amount)).toEqual([1500, '1,000']);
  });

  it('reads formula cells by their result and rich text by its text', async () => {
    const bytes = await xlsxOf([
      ['msisdn', 'amount'],
      [{ richText: [{ text: '2557540' }, { text: '00001' }] }, { formula: '500*2', result: 1000 }],
    ]);
    const file = await readAirtimeBulkFile(bytes);
    expect(file.rows[0]).toMatchObject({ msisdn: '255754000001', amount: 1000 });
  });

  it('refuses a header without a required column, naming it and what was found', async () => {
    const bytes = await xlsxOf([
      ['phone', 'amount'],
      ['255754000001', 100],
    ]);
    await expectRefused(bytes, 'missing_column', /no "msisdn" column.*found: "phone", "amount"/);
  });

  it('refuses two columns with the same name', async () => {
    const bytes = await xlsxOf([
      ['msisdn', 'amount', 'Amount'],
      ['255754000001', 100, 200],
    ]);
    await expectRefused(bytes, 'duplicate_column', /two "amount" columns \(B and C\)/);
  });

  it('refuses a header with no rows under it, and a sheet with nothing on it', async () => {
    await expectRefused(await xlsxOf([['msisdn', 'amount']]), 'empty_file', /no rows under it/);
    await expectRefused(await xlsxOf([]), 'empty_file', /no rows at all/);
  });

  it('refuses more rows than the limit, saying what the limit is', async () => {
    const rows = Array.from({ length: 4 }, (_, index) => [`25575400000${index}`, 100]);
    const bytes = await xlsxOf([['msisdn', 'amount'], ...rows]);
    const error = await refusal(bytes, { maxRows: 3 });
    expect(error.code).toBe('too_many_rows');
    expect(error.message).toMatch(/more than 3 rows/);
    await expect(readAirtimeBulkFile(bytes, { maxRows: 4 })).resolves.toMatchObject({
      rows: { length: 4 },
    });
  });

  it('refuses a damaged zip (a workbook cut short) as corrupt, not as a crash', async () => {
    const whole = await xlsxOf([
      ['msisdn', 'amount'],
      ['255754000001', 100],
    ]);
    await expectRefused(whole.subarray(0, Math.floor(whole.length / 2)), 'corrupt_file', /damaged/);
  });

  it('refuses a zip whose entries are garbage', async () => {
    const whole = await xlsxOf([
      ['msisdn', 'amount'],
      ['255754000001', 100],
    ]);
    const damaged = Buffer.from(whole);
    // Overwrite the compressed data of the first entries, keep the directory intact.
    damaged.fill(0x41, 60, Math.min(damaged.length - 200, 2000));
    await expectRefused(damaged, 'corrupt_file', /not a readable \.xlsx workbook|damaged/);
  });

  it('refuses a PNG renamed .xlsx as not a spreadsheet', async () => {
    const error = await refusal(PNG_BYTES, { fileName: 'staff.xlsx' });
    expect(error.code).toBe('unsupported_format');
    expect(error.message).toMatch(/"staff\.xlsx" is neither an \.xlsx workbook nor CSV text/);
  });

  it('refuses an Excel 97–2003 .xls with what to do instead', async () => {
    const xls = Buffer.concat([Buffer.from('d0cf11e0a1b11ae1', 'hex'), Buffer.alloc(512)]);
    await expectRefused(xls, 'unsupported_format', /\.xls workbook.*save it as \.xlsx/);
  });

  it('refuses an empty file', async () => {
    await expectRefused(new Uint8Array(0), 'empty_file', /is empty/);
  });
});

describe('CSV files', () => {
  it('reads a byte-order mark, CRLF line ends and quoted fields with commas, quotes and line breaks', async () => {
    const text =
      '\uFEFFMsisdn,Amount,Reference\r\n' +
      '255754000001,1000,"Asha, stores"\r\n' +
      '"255754000002","2000","say ""hi""\r\nnext line"\r\n' +
      '255754000003,3000,\r\n';
    const file = await readAirtimeBulkFile(csvOf(text));
    expect(file.format).toBe('csv');
    expect(file.rows).toEqual([
      { row: 1, line: 2, msisdn: '255754000001', amount: 1000, reference: 'Asha, stores' },
      {
        row: 2,
        line: 3,
        msisdn: '255754000002',
        amount: 2000,
        reference: 'say "hi"\r\nnext line',
      },
      // The quoted line break moved the next record to line 5.
      { row: 3, line: 5, msisdn: '255754000003', amount: 3000 },
    ]);
  });

  it('reads LF-only files, skips blank lines, and keeps line numbers', async () => {
    const file = await readAirtimeBulkFile(
      csvOf('msisdn,amount\n\n255754000001,100\n\n255754000002,200'),
    );
    expect(file.rows.map(({ row, line }) => [row, line])).toEqual([
      [1, 3],
      [2, 5],
    ]);
  });

  it('reads files separated by semicolons (Excel where the comma is the decimal mark)', async () => {
    const file = await readAirtimeBulkFile(csvOf('msisdn;amount\r\n255754000001;100\r\n'));
    expect(file.rows[0]).toMatchObject({ msisdn: '255754000001', amount: 100 });
  });

  it('keeps an amount with a thousands separator as text for the row check to refuse', async () => {
    const file = await readAirtimeBulkFile(csvOf('msisdn,amount\n255754000001,"1,000"\n'));
    expect(file.rows[0]?.amount).toBe('1,000');
  });

  it('refuses a quoted field that is never closed, naming its line', async () => {
    await expectRefused(
      csvOf('msisdn,amount\n255754000001,100\n255754000002,"200\n'),
      'corrupt_file',
      /Line 3: a quoted field is never closed/,
    );
  });

  it('refuses a stray quote inside an unquoted field, and text after a closing quote', async () => {
    await expectRefused(
      csvOf('msisdn,amount\n2557"54,100\n'),
      'corrupt_file',
      /Line 2: a double quote/,
    );
    await expectRefused(
      csvOf('msisdn,amount\n"255754000001"x,100\n'),
      'corrupt_file',
      /Line 2: text follows/,
    );
  });

  it('refuses text that is not UTF-8', async () => {
    const latin1 = Buffer.from('msisdn,amount,reference\n255754000001,100,caf\xe9\n', 'latin1');
    await expectRefused(latin1, 'unsupported_format', /not UTF-8/);
  });

  it('refuses UTF-16 text with what to do instead', async () => {
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('msisdn,amount\n', 'utf16le'),
    ]);
    await expectRefused(utf16, 'unsupported_format', /UTF-16/);
  });

  it('refuses more rows than the limit without reading the whole file', async () => {
    const rows = Array.from({ length: 50_000 }, () => '255754000001,100').join('\n');
    const error = await refusal(csvOf(`msisdn,amount\n${rows}\n`), { maxRows: 5000 });
    expect(error.code).toBe('too_many_rows');
    expect(error.message).toMatch(/more than 5000 rows/);
  });

  it('refuses a file of only blank lines, and a missing amount column', async () => {
    await expectRefused(csvOf('\r\n\r\n'), 'empty_file', /no rows at all/);
    await expectRefused(
      csvOf('msisdn,value\n255754000001,1\n'),
      'missing_column',
      /no "amount" column/,
    );
  });
});
