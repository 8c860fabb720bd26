/** A cell as pesakit reads it from either format: text, a number, a boolean or nothing. */
export type SheetCell = string | number | boolean | null;

/** One non-blank row of a sheet and the line (xlsx: row number; CSV: line) it starts on. */
export interface SheetLine {
  readonly line: number;
  readonly cells: readonly SheetCell[];
}

/** True when every cell of a row is empty: such rows are skipped, not counted. */
export function isBlankRow(cells: readonly SheetCell[]): boolean {
  return cells.every((cell) => cell === null || (typeof cell === 'string' && cell.trim() === ''));
}
