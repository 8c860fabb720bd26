import ExcelJS from 'exceljs';

/** An .xlsx workbook made with exceljs directly (not through pesakit), first sheet = `rows`. */
export async function xlsxOf(
  rows: ReadonlyArray<ReadonlyArray<ExcelJS.CellValue>>,
  options: { sheets?: string[]; blankRowsAt?: number[] } = {},
): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(options.sheets?.[0] ?? 'Staff');
  let rowNumber = 1;
  for (const row of rows) {
    while (options.blankRowsAt?.includes(rowNumber)) rowNumber++;
    sheet.getRow(rowNumber).values = [...row];
    rowNumber++;
  }
  for (const name of options.sheets?.slice(1) ?? []) workbook.addWorksheet(name);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Bytes of a CSV written by hand. */
export function csvOf(text: string): Buffer {
  return Buffer.from(text, 'utf8');
}

/** The first bytes of a real PNG (signature and IHDR chunk), as an image upload would start. */
export const PNG_BYTES = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000154a24f2b0000000049454e44ae426082',
  'hex',
);
