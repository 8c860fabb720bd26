// Spreadsheets (Node only): bulk airtime and payout files in .xlsx (the optional peer exceljs, loaded on first use) and CSV.
export * from './airtime-bulk-rows.js';
export type { ReadSheetOptions as ReadAirtimeBulkFileOptions } from './read-sheet.js';
export { detectSheetFormat, type SheetFormat } from './sheet-format.js';
export * from './spreadsheet-error.js';
export * from './write-sheet.js';
