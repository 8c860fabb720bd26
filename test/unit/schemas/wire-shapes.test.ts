import { describe, expect, it } from 'vitest';
import {
  airtimePurchaseRequestSchema,
  airtimePurchaseResponseSchema,
  collectionStatusRequestSchema,
  disbursementHistoryResponseSchema,
  disbursementRequestSchema,
  disbursementResponseSchema,
  engineCallbackSchema,
  fieldErrorsFrom,
  loginRequestSchema,
  merchantCallbackSchema,
  rechargeCallbackSchema,
  registerRequestSchema,
  summarizeFieldErrors,
  validationErrorBodySchema,
} from '../../../src/schemas/index.js';

const engineCallback = {
  message: 'Payment successful',
  code: '200',
  status: true,
  description: 'Settled',
  data: {
    providerType: 'MNO',
    providerName: 'Vodacom',
    amount: 15000,
    paymentReference: 'ENG-0001',
    payerMobile: '255754123456',
    transactionDate: '2024-06-01 12:30:00',
    transactionID: 'MP240601.1230.A00001',
    transactionChannel: 'USSD',
  },
};

describe('engine callback payload: data is required and validated in full', () => {
  it('accepts the spec example', () => {
    expect(engineCallbackSchema.parse(engineCallback)).toEqual(engineCallback);
  });

  it.each(Object.keys(engineCallback.data))(
    'a missing data.%s is a field error named data.%s',
    (field) => {
      const data: Record<string, unknown> = { ...engineCallback.data };
      delete data[field];
      const input = { ...engineCallback, data };
      const result = engineCallbackSchema.safeParse(input);
      expect(result.success).toBe(false);
      const errors = fieldErrorsFrom(result.error!, input);
      expect(Object.keys(errors)).toEqual([`data.${field}`]);
      expect(errors[`data.${field}`]).toEqual([`The data.${field} field is required.`]);
    },
  );

  it('a missing data object is one error on data', () => {
    const { data: _data, ...input } = engineCallback;
    const errors = fieldErrorsFrom(engineCallbackSchema.safeParse(input).error!, input);
    expect(errors).toEqual({ data: ['The data field is required.'] });
  });

  it('a wrongly typed field says what it must be', () => {
    const input = { ...engineCallback, data: { ...engineCallback.data, amount: '15000' } };
    const errors = fieldErrorsFrom(engineCallbackSchema.safeParse(input).error!, input);
    expect(errors).toEqual({ 'data.amount': ['The amount must be a number.'] });
  });

  it('payerMobile must be 255 followed by digits; the date must be real', () => {
    const input = {
      ...engineCallback,
      data: {
        ...engineCallback.data,
        payerMobile: '0754123456',
        transactionDate: '2024-02-30 10:00:00',
      },
    };
    const errors = fieldErrorsFrom(engineCallbackSchema.safeParse(input).error!, input);
    expect(Object.keys(errors).sort()).toEqual(['data.payerMobile', 'data.transactionDate']);
  });

  it('the merchant callback is the engine payload plus controlNumber and external_reference', () => {
    const body = { ...engineCallback, controlNumber: '991234567890', external_reference: null };
    expect(merchantCallbackSchema.parse(body)).toEqual(body);
    expect(merchantCallbackSchema.safeParse(engineCallback).success).toBe(false);
  });
});

describe('recharge callback: validation is centred on controlNumber', () => {
  it('needs controlNumber and a boolean status', () => {
    expect(rechargeCallbackSchema.safeParse({ controlNumber: '99123', status: true }).success).toBe(
      true,
    );
    const input = { status: 'true' };
    const errors = fieldErrorsFrom(rechargeCallbackSchema.safeParse(input).error!, input);
    expect(errors).toEqual({
      controlNumber: ['The controlNumber field is required.'],
      status: ['The status must be true or false.'],
    });
  });
});

describe('requests', () => {
  it('disbursement needs msisdn, amount and name', () => {
    const errors = fieldErrorsFrom(disbursementRequestSchema.safeParse({}).error!, {});
    expect(errors).toEqual({
      msisdn: ['The msisdn field is required.'],
      amount: ['The amount field is required.'],
      name: ['The name field is required.'],
    });
  });

  it('airtime purchase needs a payable msisdn and a positive amount', () => {
    expect(
      airtimePurchaseRequestSchema.safeParse({ msisdn: '255754123456', amount: 500 }).success,
    ).toBe(true);
    expect(
      airtimePurchaseRequestSchema.safeParse({ msisdn: '255631234567', amount: 500 }).success,
    ).toBe(false);
    expect(
      airtimePurchaseRequestSchema.safeParse({ msisdn: '255754123456', amount: -1 }).success,
    ).toBe(false);
  });

  it('status needs ref_id', () => {
    const errors = fieldErrorsFrom(
      collectionStatusRequestSchema.safeParse({ ref_id: '  ' }).error!,
      {
        ref_id: '  ',
      },
    );
    expect(errors).toEqual({ ref_id: ['The ref_id field is required.'] });
  });

  it('register normalises the email and needs an 8+ character password', () => {
    const parsed = registerRequestSchema.parse({
      name: 'Duka',
      email: ' Shop@Example.CO.TZ ',
      phone: '255754000001',
      password: 'long enough',
    });
    expect(parsed.email).toBe('shop@example.co.tz');
    expect(
      registerRequestSchema.safeParse({
        name: 'x',
        email: 'a@b.tz',
        phone: '255754000001',
        password: 'short',
      }).success,
    ).toBe(false);
  });

  it('login accepts any non-empty password', () => {
    expect(loginRequestSchema.safeParse({ email: 'a@b.tz', password: 'x' }).success).toBe(true);
    expect(loginRequestSchema.safeParse({ email: 'a@b.tz', password: '' }).success).toBe(false);
  });

  it('a body that is not an object is reported under body', () => {
    expect(fieldErrorsFrom(disbursementRequestSchema.safeParse([]).error!, [])).toEqual({
      body: ['The request body must be a JSON object.'],
    });
  });
});

describe('responses: the spec shapes, unknown extra fields pass through', () => {
  it('disbursement payment response', () => {
    const body = {
      message: 'Disbursement created',
      response: { status: true, reference: 'REF1', message: 'Accepted', extra: 1 },
      future: 'field',
    };
    expect(disbursementResponseSchema.parse(body)).toEqual(body);
  });

  it('disbursement history is a Laravel paginator under payments', () => {
    const body = {
      payments: {
        data: [
          {
            txnid: 'T1',
            refid: 'R1',
            amount: 1000,
            msisdn: '255754123456',
            name: 'Asha',
            status: 'completed',
            created_at: '2024-06-01T09:00:00.000Z',
          },
        ],
        current_page: 1,
        per_page: 15,
        total: 1,
        last_page: 1,
      },
    };
    expect(disbursementHistoryResponseSchema.parse(body)).toEqual(body);
    expect(disbursementHistoryResponseSchema.safeParse({ payments: { data: [{}] } }).success).toBe(
      false,
    );
  });

  it('airtime purchase answers status and message', () => {
    expect(
      airtimePurchaseResponseSchema.safeParse({ status: 'success', message: 'Sent' }).success,
    ).toBe(true);
    expect(airtimePurchaseResponseSchema.safeParse({ status: 'success' }).success).toBe(false);
  });

  it('a Laravel 422 body has message and errors', () => {
    expect(
      validationErrorBodySchema.safeParse({
        message: 'Invalid',
        errors: { 'data.amount': ['Required'] },
      }).success,
    ).toBe(true);
  });

  it('summarizes field errors the way Laravel does', () => {
    expect(summarizeFieldErrors({ a: ['First.'], b: ['Second.', 'Third.'] })).toBe(
      'First. (and 2 more errors)',
    );
    expect(summarizeFieldErrors({ a: ['Only.'] })).toBe('Only.');
  });
});
