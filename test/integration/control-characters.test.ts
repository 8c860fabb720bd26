import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Pesakit } from '../../src/client.js';
import { RequestValidationError, StoreInputError } from '../../src/errors/index.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';

// Text a merchant supplies holds no control character (C0, DEL, C1): a payee's name, a merchant
// reference, metadata. The SDK refuses it before the intent is stored, so nothing is sent; the
// sandbox uses the same request schemas and answers 422 naming the field. A tab is kept only in
// a metadata value.

let harness: Harness;
beforeEach(async () => {
  harness = await startHarness();
  await harness.control('wallets/credit', {
    product: 'disbursement',
    email: accounts.disbursement.email,
    amount: 100_000,
  });
});
afterEach(() => harness.close());

const payout = { msisdn: '255754123456', amount: 20_000 };
const nulName = 'The name may not contain control characters (found U+0000 at position 2).';

/** The paths of every request the client sent. */
function sentPaths(pesakit: Pesakit): string[] {
  const paths: string[] = [];
  pesakit.on('request', (event) => paths.push(event.path));
  return paths;
}

const balance = () => harness.sandbox.inspect.wallet('disbursement', accounts.disbursement.email);

async function post(path: string, body: unknown, token?: string) {
  const response = await fetch(`${harness.url}/api/sandbox/disbursement/${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('a payout name holding a control character is refused before anything is stored or sent', () => {
  it('disbursement.pay with "a\\u0000b": a RequestValidationError naming the name and the rule; no record, no request, no payout', async () => {
    const pesakit = harness.client();
    const sent = sentPaths(pesakit);
    const error = await pesakit.disbursement
      .pay({ ...payout, name: 'a\u0000b' }, { merchantReference: 'nul-name' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.errors).toEqual({ name: [nulName] });
    expect(error.message).toBe(`disbursementPay: ${nulName} Nothing was sent.`);
    expect(await pesakit.store.records.get('nul-name')).toBeUndefined();
    expect(sent).toEqual([]);
    expect(harness.sandbox.inspect.snapshot().disbursements).toBe(0);
    expect((await pesakit.disbursement.payments()).total).toBe(0);
    expect(balance()?.balance).toBe(100_000);
  });

  it('the sandbox answers the same body 422 with the Laravel field map; its payout history stays empty', async () => {
    const login = await post('login', accounts.disbursement);
    const token = login.body['token'] as string;
    const before = harness.sandbox.inspect.snapshot();
    const answer = await post('payment', { ...payout, name: 'a\u0000b' }, token);
    expect(answer).toEqual({
      status: 422,
      body: { message: nulName, errors: { name: [nulName] } },
    });
    expect(harness.sandbox.inspect.snapshot()).toEqual(before);
    expect((await harness.client().disbursement.payments()).total).toBe(0);
    expect(balance()?.balance).toBe(100_000);
  });

  it('registering an account under such a name: 422 naming the name, no account made', async () => {
    const before = harness.sandbox.inspect.snapshot();
    const answer = await post('register', {
      name: 'Duka\u001b[2J',
      email: 'duka@duka.co.tz',
      phone: '255754000777',
      password: 'duka-secret-1',
    });
    expect(answer.status).toBe(422);
    expect(answer.body['errors']).toEqual({
      name: ['The name may not contain control characters (found U+001B at position 5).'],
    });
    expect(harness.sandbox.inspect.snapshot()).toEqual(before);
  });
});

describe('a merchant reference or metadata holding a control character: nothing stored, the payout not sent', () => {
  it('the merchantReference option names the character, before anything is stored or sent', async () => {
    const pesakit = harness.client();
    const sent = sentPaths(pesakit);
    const error = await pesakit.disbursement
      .pay({ ...payout, name: 'Zawadi Mwakyusa' }, { merchantReference: 'order\u00001' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.errors).toEqual({
      merchantReference: [
        'The merchantReference may not contain control characters (found U+0000 at position 6).',
      ],
    });
    expect(sent).toEqual([]);
    expect(harness.sandbox.inspect.snapshot().disbursements).toBe(0);
  });

  it('a metadata value with a line feed is a StoreInputError naming it; a tab in a value is kept', async () => {
    const pesakit = harness.client();
    const sent = sentPaths(pesakit);
    const error = await pesakit.disbursement
      .pay(
        { ...payout, name: 'José' },
        { merchantReference: 'order-lf', metadata: { note: 'first\nsecond' } },
      )
      .catch((e) => e);
    expect(error).toBeInstanceOf(StoreInputError);
    expect(error.errors).toEqual({
      'metadata.note': [
        'metadata.note must not contain control characters other than a tab (found U+000A at position 6).',
      ],
    });
    expect(await pesakit.store.records.get('order-lf')).toBeUndefined();
    expect(sent).not.toContain('/api/sandbox/disbursement/payment');
    expect(harness.sandbox.inspect.snapshot().disbursements).toBe(0);

    const paid = await pesakit.disbursement.pay(
      { ...payout, name: 'José' },
      { merchantReference: 'order-tab', metadata: { note: 'first\tsecond' } },
    );
    expect(paid.record.metadata).toMatchObject({ note: 'first\tsecond', name: 'José' });
    expect((await pesakit.disbursement.payments()).data.map((row) => row.name)).toEqual(['José']);
  });
});
