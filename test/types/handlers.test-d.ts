import { describe, expectTypeOf, it } from 'vitest';
import type {
  CallbackReceiverOptions,
  CollectionRecord,
  MoneyOutRecord,
  ReconcilerOptions,
  TransactionRecord,
} from '../../src/index.js';

type Handler<Options, Name extends keyof Options> = NonNullable<Options[Name]>;

describe('each handler sees the records it is for', () => {
  it('onPaid and onFailed get a collection, on the receiver and the reconciler alike', () => {
    for (const onPaid of [
      {} as Handler<CallbackReceiverOptions, 'onPaid'>,
      {} as Handler<ReconcilerOptions, 'onPaid'>,
    ]) {
      expectTypeOf(onPaid).parameter(0).toEqualTypeOf<CollectionRecord>();
    }
    expectTypeOf<Handler<ReconcilerOptions, 'onFailed'>>()
      .parameter(0)
      .toEqualTypeOf<CollectionRecord>();
    expectTypeOf<CollectionRecord['product']>().toEqualTypeOf<'collection'>();
  });

  it('onSent and onNotSent get money out, narrowed by record.product', () => {
    expectTypeOf<Handler<CallbackReceiverOptions, 'onSent'>>()
      .parameter(0)
      .toEqualTypeOf<MoneyOutRecord>();
    expectTypeOf<Handler<ReconcilerOptions, 'onNotSent'>>()
      .parameter(0)
      .toEqualTypeOf<MoneyOutRecord>();
    expectTypeOf<MoneyOutRecord['product']>().toEqualTypeOf<'disbursement' | 'airtime'>();
    const onSent: Handler<ReconcilerOptions, 'onSent'> = (record) => {
      if (record.product === 'airtime') {
        expectTypeOf(record.flow).toEqualTypeOf<'airtime_purchase'>();
      } else {
        expectTypeOf(record.product).toEqualTypeOf<'disbursement'>();
        expectTypeOf(record.flow).toEqualTypeOf<'disbursement'>();
      }
    };
    void onSent;
  });

  it('onReview gets any product', () => {
    expectTypeOf<Handler<ReconcilerOptions, 'onReview'>>()
      .parameter(0)
      .toEqualTypeOf<TransactionRecord>();
  });
});
