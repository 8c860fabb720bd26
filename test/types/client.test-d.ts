import { describe, expectTypeOf, it } from 'vitest';
import type { Pesakit, TransactionRecord } from '../../src/index.js';

declare const pesakit: Pesakit;

describe('client method types', () => {
  it('money-moving calls return the response plus merchantReference and the record', async () => {
    const payment = await pesakit.collection.initiateMno({ amount: 1000, msisdn: '255754123456' });
    expectTypeOf(payment.controlNumber).toEqualTypeOf<string>();
    expectTypeOf(payment.merchantReference).toEqualTypeOf<string>();
    expectTypeOf(payment.record).toEqualTypeOf<TransactionRecord>();

    const payout = await pesakit.disbursement.pay({
      msisdn: '255754123456',
      amount: 1000,
      name: 'A',
    });
    expectTypeOf(payout.response.reference).toEqualTypeOf<string>();
  });

  it('requests are checked at compile time', () => {
    // @ts-expect-error amount must be a number
    void pesakit.collection.initiateMno({ amount: '1000', msisdn: '255754123456' });
    // @ts-expect-error name is required for a payout
    void pesakit.disbursement.pay({ msisdn: '255754123456', amount: 1000 });
  });

  it('payments() is awaitable for a page and iterable for items', async () => {
    const page = await pesakit.disbursement.payments();
    expectTypeOf(page.data[0]!.refid).toEqualTypeOf<string>();
    for await (const payout of pesakit.disbursement.payments()) {
      expectTypeOf(payout.txnid).toEqualTypeOf<string>();
    }
  });

  it('on() gives typed event payloads', () => {
    pesakit.on('retry', (event) => {
      expectTypeOf(event.delayMs).toEqualTypeOf<number>();
    });
  });
});
