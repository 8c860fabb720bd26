import type { ReferenceColumn } from './table.js';

/**
 * Which column a unique violation is about, or `undefined` when `error` is not one.
 * PostgreSQL reports SQLSTATE 23505 and the constraint's name; SQLite reports
 * SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY and `table.column` in the message.
 */
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
  const columns: ReferenceColumn[] = [
    'control_number',
    'payment_reference',
    'external_reference',
    'txnid',
    'refid',
  ];
  return columns.find((column) => text.includes(column)) ?? 'merchant_reference';
}
