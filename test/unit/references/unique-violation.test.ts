import { describe, expect, it } from 'vitest';
import { uniqueViolationColumn } from '../../../src/references/sql/unique-violation.js';

describe('a unique violation names the reference it is about', () => {
  it('reads PostgreSQL 23505 by constraint name', () => {
    expect(
      uniqueViolationColumn({ code: '23505', constraint: 'pesakit_transactions_txnid_key' }),
    ).toBe('txnid');
    expect(uniqueViolationColumn({ code: '23505', constraint: 'pesakit_transactions_pkey' })).toBe(
      'merchant_reference',
    );
  });

  it('reads SQLite by the column in the message', () => {
    expect(
      uniqueViolationColumn({
        code: 'SQLITE_CONSTRAINT_UNIQUE',
        message: 'UNIQUE constraint failed: pesakit_transactions.external_reference',
      }),
    ).toBe('external_reference');
    expect(
      uniqueViolationColumn({
        code: 'SQLITE_CONSTRAINT_PRIMARYKEY',
        message: 'UNIQUE constraint failed: pesakit_transactions.merchant_reference',
      }),
    ).toBe('merchant_reference');
  });

  it('is undefined for anything else', () => {
    for (const error of [
      undefined,
      null,
      'x',
      new Error('boom'),
      { code: '23503', constraint: 'refid' },
    ]) {
      expect(uniqueViolationColumn(error)).toBeUndefined();
    }
  });
});
