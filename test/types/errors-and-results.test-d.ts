import { describe, expectTypeOf, it } from 'vitest';
import type {
  AmbiguousOutcomeError,
  DisbursementHistoryRow,
  LastResponse,
  Page,
  Pesakit,
  RequestValidationError,
  ValidationError,
} from '../../src/index.js';
import { isAmbiguousOutcomeError, isValidationError } from '../../src/index.js';

declare const pesakit: Pesakit;

describe('types a merchant relies on', () => {
  it('AmbiguousOutcomeError.merchantReference is a string: store.get() takes it as is', async () => {
    expectTypeOf<AmbiguousOutcomeError['merchantReference']>().toEqualTypeOf<string>();
    const error: unknown = undefined;
    if (isAmbiguousOutcomeError(error)) await pesakit.store.records.get(error.merchantReference);
  });

  it('a RequestValidationError is a ValidationError, with the same errors map', () => {
    expectTypeOf<RequestValidationError>().toExtend<ValidationError>();
    expectTypeOf<RequestValidationError['errors']>().toEqualTypeOf<ValidationError['errors']>();
    expectTypeOf<ValidationError['source']>().toEqualTypeOf<'platform' | 'client'>();
    expectTypeOf<ValidationError['code']>().toEqualTypeOf<
      | 'validation_error'
      | 'insufficient_funds'
      | 'bulk_insufficient_funds'
      | 'request_validation'
      | 'bulk_validation'
    >();
    expectTypeOf<RequestValidationError['code']>().toEqualTypeOf<
      'request_validation' | 'bulk_validation'
    >();
    expectTypeOf<ValidationError['platformCode']>().toEqualTypeOf<string | undefined>();
    const error: unknown = undefined;
    if (isValidationError(error))
      expectTypeOf(error.errors).toEqualTypeOf<Record<string, string[]>>();
  });

  it('payments() is assignable where a Promise<Page<…>> is expected', () => {
    const page: Promise<Page<DisbursementHistoryRow>> = pesakit.disbursement.payments();
    expectTypeOf(page.catch(() => undefined)).toEqualTypeOf<
      Promise<Page<DisbursementHistoryRow> | undefined>
    >();
    expectTypeOf(pesakit.disbursement.payments().finally(() => {})).toEqualTypeOf<
      Promise<Page<DisbursementHistoryRow>>
    >();
  });

  it('results carry lastResponse; reads take { signal, timeoutMs }; setToken exists', async () => {
    const user = await pesakit.airtime.user({ timeoutMs: 5_000, signal: AbortSignal.timeout(1) });
    expectTypeOf(user.lastResponse).toEqualTypeOf<LastResponse>();
    expectTypeOf(user.lastResponse.requestId).toEqualTypeOf<string | undefined>();
    const payment = await pesakit.collection.initiateMno({ amount: 1, msisdn: '255754123456' });
    expectTypeOf(payment.lastResponse).toEqualTypeOf<LastResponse>();
    const pulled = await pesakit.collection.status('991234567890', { timeoutMs: 1_000 });
    expectTypeOf(pulled.lastResponse.status).toEqualTypeOf<number>();
    expectTypeOf(pesakit.setToken('airtime', 'token')).toEqualTypeOf<Pesakit>();
    // @ts-expect-error a product that does not exist
    pesakit.setToken('loans', 'token');
  });
});
