/** A cell as read from either format: text, a number, a boolean or nothing. */
export type SheetCell = string | number | boolean | null;

/** One non-blank row of a sheet and the line (xlsx: row number; CSV: line) it starts on. */
export type SheetLine = { readonly line: number; readonly cells: readonly SheetCell[] };

/** The values a column holds; an `optional text` column may be missing from the header. */
export type ColumnKind = 'text' | 'number' | 'optional text';

export function isBlankRow(cells: readonly SheetCell[]): boolean {
  return cells.every((cell) => cell === null || (typeof cell === 'string' && cell.trim() === ''));
}

const PLAIN_NUMBER = /^[-+]?(\d+(\.\d*)?|\.\d+)$/;

/** A cell as its column's value, undoing spreadsheet programs; `"1,000"` is kept to be refused. */
export function cellValue(cell: unknown, kind: ColumnKind): unknown {
  const value = typeof cell === 'string' ? cell.trim() : cell;
  if (value === '' || value === null || value === undefined) return undefined;
  if (typeof value === 'boolean' || (kind !== 'number' && typeof value === 'number')) {
    return String(value);
  }
  return kind === 'number' && typeof value === 'string' && PLAIN_NUMBER.test(value)
    ? Number(value)
    : value;
}
