/**
 * Text that a spreadsheet program would run as a formula when a person opens the file: a cell
 * starting with `=`, `+`, `-` or `@`, or with a tab or carriage return before one (CSV
 * injection, OWASP). Excel, LibreOffice and Google Sheets all evaluate such a CSV cell.
 */
const formulaStart = /^[=+\-@\t\r]/;

/**
 * The cell as text a spreadsheet shows rather than runs: a leading `'` (the spreadsheet's own
 * "this is text" mark) before text that starts like a formula. Numbers and `null` are left as
 * they are (a number is never a formula), and so is text already starting with `'`.
 */
export function inertCell<Cell extends string | number | null>(value: Cell): Cell {
  return typeof value === 'string' && formulaStart.test(value) ? (`'${value}` as Cell) : value;
}
