import { describe, expect, it } from 'vitest';
import {
  DisbursementBook,
  type DisbursementRecord,
} from '../../src/sandbox/state/disbursements.js';

const payout = (n: number, accountId: number): DisbursementRecord => ({
  txnid: `TXN${String(n).padStart(12, '0')}`,
  refid: `DSB${String(n).padStart(16, '0')}`,
  accountId,
  amount: n,
  charge: 0,
  msisdn: '255754123456',
  provider: 'vodacom',
  name: 'Payee',
  status: 'completed',
  message: 'ok',
  created_at: '2026-11-23T16:00:00.000Z',
  updated_at: '2026-11-23T16:00:00.000Z',
});

describe('DisbursementBook.pageOfAccount: one account’s payouts, latest first, by page', () => {
  it('pages through interleaved accounts without mixing them, and past the end is empty', () => {
    const book = new DisbursementBook();
    for (let n = 1; n <= 7; n += 1) book.add(payout(n, n % 2 === 0 ? 2 : 1));
    const amounts = (page: { records: DisbursementRecord[] }) => page.records.map((r) => r.amount);
    expect(amounts(book.pageOfAccount(1, 0, 3))).toEqual([7, 5, 3]);
    expect(amounts(book.pageOfAccount(1, 3, 3))).toEqual([1]);
    expect(book.pageOfAccount(1, 3, 3).total).toBe(4);
    expect(amounts(book.pageOfAccount(2, 0, 15))).toEqual([6, 4, 2]);
    expect(book.pageOfAccount(2, 15, 15)).toEqual({ records: [], total: 3 });
    expect(book.pageOfAccount(3, 0, 15)).toEqual({ records: [], total: 0 });
  });
});
