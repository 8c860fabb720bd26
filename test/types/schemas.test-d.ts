import { describe, expectTypeOf, it } from 'vitest';
import type { RequestOf, ResponseOf } from '../../src/core/endpoints.js';
import type {
  AirtimeUser,
  CollectionStatus,
  DisbursementPayment,
  EngineCallback,
  Provider,
} from '../../src/schemas/index.js';

describe('types inferred from the schemas', () => {
  it('the engine callback has the spec fields with their types', () => {
    expectTypeOf<EngineCallback['status']>().toEqualTypeOf<boolean>();
    expectTypeOf<EngineCallback['data']['amount']>().toEqualTypeOf<number>();
    expectTypeOf<EngineCallback['data']['paymentReference']>().toEqualTypeOf<string>();
  });

  it('statuses and providers are unions, not strings', () => {
    expectTypeOf<CollectionStatus>().toEqualTypeOf<'pending' | 'success' | 'failed'>();
    expectTypeOf<Provider>().toEqualTypeOf<'vodacom' | 'airtel' | 'tigo' | 'halotel' | 'ttcl'>();
    expectTypeOf<AirtimeUser['role_id']>().toEqualTypeOf<1 | 2 | 3>();
    expectTypeOf<DisbursementPayment['status']>().toEqualTypeOf<
      'pending' | 'completed' | 'failed'
    >();
  });

  it('endpoint request and response types follow the table', () => {
    expectTypeOf<RequestOf<'disbursementPay'>>().toEqualTypeOf<{
      msisdn: string;
      amount: number;
      name: string;
    }>();
    expectTypeOf<ResponseOf<'disbursementPay'>['response']['reference']>().toEqualTypeOf<string>();
    expectTypeOf<ResponseOf<'initiateMno'>['controlNumber']>().toEqualTypeOf<string>();
    expectTypeOf<RequestOf<'airtimeUser'>>().toEqualTypeOf<undefined>();
  });
});
