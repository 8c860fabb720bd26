import type ExcelJS from 'exceljs';
import { SpreadsheetError } from './spreadsheet-error.js';

type ExcelJsModule = typeof ExcelJS;

/**
 * Loads exceljs, the optional peer dependency that reads and writes `.xlsx`: on first use, so
 * code that never touches a workbook never loads it, and CSV works without it. When it is not
 * installed, a `SpreadsheetError` says which package to install. (exceljs is CommonJS: its
 * exports arrive as `default`.)
 */
export async function loadExcelJs(
  load: () => Promise<{ default: ExcelJsModule }> = () => import('exceljs'),
): Promise<ExcelJsModule> {
  try {
    return (await load()).default;
  } catch (error) {
    if (!isMissingExcelJs(error)) throw error;
    throw new SpreadsheetError(
      'xlsx_support_missing',
      '.xlsx files need the optional package exceljs, which is not installed: run `npm install exceljs` (CSV files need nothing more).',
      { cause: error },
    );
  }
}

/** Node's error for an import of a package that is not installed (`import` or `require`). */
function isMissingExcelJs(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    typeof message === 'string' &&
    message.includes("'exceljs'")
  );
}
