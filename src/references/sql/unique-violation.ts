import { type ReferenceColumn, referenceColumns } from './table.js';

/** Which column a unique violation is about (by constraint or column name). */
export function uniqueViolationColumn(
  error: unknown,
): ReferenceColumn | 'merchant_reference' | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, constraint, message } = error as {
    code?: unknown;
    constraint?: unknown;
    message?: unknown;
  };
  const isUnique =
    code === '23505' ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
  if (!isUnique) return undefined;
  const text = `${typeof constraint === 'string' ? constraint : ''} ${typeof message === 'string' ? message : ''}`;
  const columns: ReferenceColumn[] = Object.values(referenceColumns);
  return columns.find((column) => text.includes(column)) ?? 'merchant_reference';
}
