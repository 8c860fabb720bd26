import { describe, expect, it } from 'vitest';
import {
  nameEcho,
  rowContradictions,
  rowMatch,
} from '../../../src/reconciler/strategies/payout-rows.js';
import type { TransactionRecord } from '../../../src/references/index.js';

const record = {
  merchantReference: 'payout-1',
  amount: 12_000,
  msisdn: '255754000111',
  metadata: { name: 'Asha Mushi' },
} as unknown as TransactionRecord;

const row = { txnid: 'TXN1', refid: 'DSB1', amount: 12_000 };

describe('a history row against a payout with no platform reference', () => {
  it('equal after normalising (0… MSISDN, case, spaces, cents) is exact', () => {
    expect(rowMatch(record, { ...row, msisdn: '0754000111', name: '  ASHA   mushi ' })).toBe(
      'exact',
    );
    expect(rowMatch(record, { ...row, amount: 12_000.001, msisdn: '+255 754 000 111' })).toBe(
      'exact',
    );
    expect(rowContradictions(record, { ...row, msisdn: '0754000111', name: 'asha mushi' })).toEqual(
      [],
    );
  });

  it('a name is compared only where both carry one', () => {
    const nameless = { ...record, metadata: {} } as TransactionRecord;
    expect(rowMatch(nameless, { ...row, msisdn: '255754000111', name: 'Someone' })).toBe('exact');
    expect(rowMatch(record, { ...row, msisdn: '255754000111' })).toBe('exact');
  });

  it('another MSISDN, amount or name, with the rest equal, is partial; the contradiction names it', () => {
    expect(rowMatch(record, { ...row, msisdn: '255754000112' })).toBe('partial');
    expect(rowMatch(record, { ...row, amount: 120_000, msisdn: '255754000111' })).toBe('partial');
    const otherName = { ...row, msisdn: '255754000111', name: 'Asha Mushi Mwakyusa' };
    expect(rowMatch(record, otherName)).toBe('partial');
    expect(rowContradictions(record, otherName)).toEqual([
      { field: 'name', asked: 'Asha Mushi', answered: 'Asha Mushi Mwakyusa' },
    ]);
  });

  it('a row with no MSISDN (the spec shape) is never more than partial, whatever its amount', () => {
    expect(rowMatch(record, row)).toBe('partial');
    expect(rowMatch(record, { ...row, amount: 1 })).toBe('partial');
  });

  it('another MSISDN and another amount is unrelated (the accepted gap)', () => {
    expect(rowMatch(record, { ...row, amount: 1, msisdn: '255754000999' })).toBe('unrelated');
  });
});

describe('a payout answer’s name', () => {
  it('differing only in case or spacing is no contradiction; another name is', () => {
    expect(nameEcho('Asha Mushi', ' asha  MUSHI')).toEqual(['Asha Mushi', undefined]);
    expect(nameEcho('Asha Mushi', 'Juma')).toEqual(['Asha Mushi', 'Juma']);
    expect(nameEcho('Asha Mushi', undefined)).toEqual(['Asha Mushi', undefined]);
  });
});
