import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  detectSheetFormat,
  readAirtimeBulkFile,
  writeSheet,
} from '../../src/spreadsheets/index.js';

const header = ['msisdn', 'amount', 'reference'];
const rows: Array<Array<string | number | null>> = [
  ['255754000001', 1000, 'Asha, "stores"'],
  ['255684000002', 2500.5, null],
  ['255754000003', 10, ' leading space'],
];

describe('writeSheet', () => {
  it('writes an .xlsx that exceljs reads back cell for cell, MSISDNs as text', async () => {
    const bytes = await writeSheet('xlsx', header, rows);
    expect(detectSheetFormat(bytes)).toBe('xlsx');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as never);
    const sheet = workbook.worksheets[0]!;
    expect(sheet.getRow(1).values).toEqual([undefined, ...header]);
    expect(sheet.getRow(1).font?.bold).toBe(true);
    expect(sheet.getCell('A2').value).toBe('255754000001');
    expect(sheet.getCell('B3').value).toBe(2500.5);
    expect(sheet.getCell('C3').value).toBeNull();
  });

  it('writes RFC 4180 CSV (BOM, CRLF, quoted where needed) that reads back the same', async () => {
    const bytes = await writeSheet('csv', header, rows);
    const text = bytes.toString('utf8');
    expect(text).toBe(
      '\uFEFFmsisdn,amount,reference\r\n' +
        '255754000001,1000,"Asha, ""stores"""\r\n' +
        '255684000002,2500.5,\r\n' +
        '255754000003,10," leading space"\r\n',
    );
    const file = await readAirtimeBulkFile(bytes);
    expect(file.rows.map((row) => [row.msisdn, row.amount, row.reference])).toEqual([
      ['255754000001', 1000, 'Asha, "stores"'],
      ['255684000002', 2500.5, undefined],
      ['255754000003', 10, 'leading space'],
    ]);
  });

  it('round-trips a bulk file through both formats', async () => {
    for (const format of ['xlsx', 'csv'] as const) {
      const bytes = await writeSheet(format, header, rows);
      const file = await readAirtimeBulkFile(bytes);
      expect(file.format).toBe(format);
      expect(file.rows).toHaveLength(3);
      expect(file.rows[1]).toEqual({ row: 2, line: 3, msisdn: '255684000002', amount: 2500.5 });
    }
  });
});
