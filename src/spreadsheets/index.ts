// Spreadsheets (Node only): bulk airtime files in .xlsx (the optional peer exceljs, loaded on first use) and CSV.
export type {
  AirtimeBulkRowInput,
  ParsedAirtimeBulkFile,
  ParsedAirtimeBulkRow,
  ReadAirtimeBulkFileOptions,
} from './read-airtime-bulk-file.js';
export { readAirtimeBulkFile } from './read-airtime-bulk-file.js';
export type { SheetFormat } from './sheet-format.js';
export { detectSheetFormat } from './sheet-format.js';
export type { SpreadsheetErrorCode } from './spreadsheet-error.js';
export { isSpreadsheetError, SpreadsheetError } from './spreadsheet-error.js';
export type { BulkRowProblem, UncheckedAirtimeBulkRow } from './validate-airtime-bulk-rows.js';
export { bulkRowFieldErrors, validateAirtimeBulkRows } from './validate-airtime-bulk-rows.js';
export { type WriteSheetOptions, writeSheet } from './write-sheet.js';
