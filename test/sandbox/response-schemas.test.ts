import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EndpointId, endpoints } from '../../src/core/endpoints.js';
import { endpointPath } from '../../src/core/paths.js';
import { errorBodySchema, validationErrorBodySchema } from '../../src/schemas/error-body.js';
import {
  type Answer,
  bearer,
  field,
  PASSWORD,
  type RunningSandbox,
  startSandbox,
} from './support.js';

let s: RunningSandbox;
const seen = new Map<EndpointId, Answer>();
const errors: Answer[] = [];

/** Calls an endpoint by its id in the endpoint table and keeps the answer for the checks. */
async function hit(
  id: EndpointId,
  body?: unknown,
  headers: Record<string, string> = {},
  params = {},
) {
  const endpoint = endpoints[id];
  const answer = await s.call(
    endpoint.method,
    endpointPath(endpoint, 'sandbox', params),
    body,
    headers,
  );
  if (answer.status < 300) seen.set(id, answer);
  else errors.push(answer);
  return answer;
}

beforeAll(async () => {
  s = await startSandbox();
  const who = { name: 'Tour', email: 'tour@duka.tz', phone: '255754000000', password: PASSWORD };
  const creds = { email: who.email, password: PASSWORD };

  await hit('airtimeRegister', who);
  await s.control('accounts', { product: 'airtime', email: who.email, status: 'active' });
  await s.control('wallets/credit', { product: 'airtime', email: who.email, amount: 5000 });
  const airtime = bearer(field(await hit('airtimeLogin', creds), 'token') as string);
  await hit('airtimeUser', undefined, airtime);
  await hit('airtimePurchase', { msisdn: '255754123456', amount: 1000 }, airtime);
  const recharge = await hit('airtimeRecharge', { amount: 2000 }, airtime);
  await hit('airtimeRechargeCallback', {
    controlNumber: field(recharge, 'controlNumber'),
    status: true,
  });

  await hit('disbursementRegister', who);
  await s.control('accounts', { product: 'disbursement', email: who.email, status: 'active' });
  await s.control('wallets/credit', { product: 'disbursement', email: who.email, amount: 5000 });
  const payout = bearer(field(await hit('disbursementLogin', creds), 'token') as string);
  await hit('disbursementUser', undefined, payout);
  await hit('disbursementPay', { msisdn: '255754123456', amount: 1000, name: 'N' }, payout);
  await hit('disbursementPayments', {}, payout);
  await hit('disbursementLogout', undefined, payout);

  await s.control('accounts', { product: 'collection', email: who.email, password: PASSWORD });
  const collection = bearer(field(await hit('collectionLogin', creds), 'token') as string);
  const mno = await hit('initiateMno', { amount: 1000, msisdn: '255754123456' }, collection);
  await hit('initiateBank', { amount: 1000 }, collection);
  await hit('collectionStatus', { ref_id: field(mno, 'controlNumber') }, collection);
  await hit('payMobile', { amount: 1000, msisdn: '255684123456' });
  await hit('providerTest', undefined, {}, { provider: 'halotel' });
  const secure = await hit('initiateSecure', {
    amount: 1000,
    callback_url: 'https://shop.example/r',
  });
  await hit('checkoutMno', { token: field(secure, 'payment_token'), msisdn: '255714123456' });
  const other = await hit('initiateSecure', {
    amount: 1000,
    callback_url: 'https://shop.example/r',
  });
  await hit('portalSession', { token: field(other, 'payment_token') });
  await hit('engineCallback', {
    message: 'ok',
    code: '200',
    status: true,
    description: 'ok',
    data: {
      providerType: 'MNO',
      providerName: 'Vodacom',
      amount: 1000,
      paymentReference: field(mno, 'reference'),
      payerMobile: '255754123456',
      transactionDate: '2025-01-01 10:00:00',
      transactionID: 'T1',
      transactionChannel: 'USSD',
    },
  });
  await hit('collectionLogout', undefined, collection);

  // A sample of errors of every kind, for the error-body checks.
  await hit('disbursementPay', { msisdn: 'x', amount: 1, name: 'n' }, payout);
  await hit('collectionStatus', {}, collection);
  await hit('airtimeLogin', { email: who.email, password: 'wrong-password' });
  await hit('providerTest', undefined, {}, { provider: 'nobody' });
  await hit('engineCallback', { data: {} });
});
afterAll(() => s.close());

describe('every response conforms to its endpoint’s response schema', () => {
  it('covers every endpoint in the table', () => {
    expect([...seen.keys()].sort()).toEqual(Object.keys(endpoints).sort());
  });

  it.each(Object.keys(endpoints) as EndpointId[])('%s', (id) => {
    const answer = seen.get(id);
    expect(answer, `${id} was not answered with 2xx`).toBeDefined();
    const parsed = endpoints[id].response.safeParse(answer?.body);
    expect(parsed.error?.issues ?? []).toEqual([]);
  });

  it('every error body is Laravel-style: {message}, and {message, errors} for 422', () => {
    expect(errors.length).toBeGreaterThanOrEqual(5);
    for (const answer of errors) {
      const schema = answer.status === 422 ? validationErrorBodySchema : errorBodySchema;
      expect(schema.safeParse(answer.body).success, answer.text).toBe(true);
    }
  });
});
