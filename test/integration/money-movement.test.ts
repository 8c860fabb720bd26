import { afterEach, describe, expect, it } from 'vitest';
import { Pesakit } from '../../src/client.js';
import {
  AmbiguousOutcomeError,
  BadRequestError,
  ConnectionError,
  InsufficientFundsError,
  RequestValidationError,
  ServerError,
} from '../../src/errors/index.js';
import { MemoryReferenceStore } from '../../src/references/index.js';
import { json, type RawServer, startRawServer } from '../helpers/raw-server.js';

// DESIGN decision 3: the platform has no idempotency key, so a money-moving POST is sent once,
// its intent is stored before it leaves, and a lost answer is `unknown`, never `failed`.

const disbursement = { email: 'payouts@duka.co.tz', password: 'correct horse battery' };
const payout = { msisdn: '255754123456', amount: 20000, name: 'Asha' };

let server: RawServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A platform whose login works and whose payment route does what `payment` says. */
async function platform(payment: Parameters<typeof startRawServer>[0]) {
  server = await startRawServer((request, response, body) => {
    if (request.url?.endsWith('/login')) {
      return json(response, 200, {
        user: {
          id: 1,
          name: 'Duka',
          email: disbursement.email,
          phone: '255754000001',
          status: 'active',
        },
        wallet: { balance: 1_000_000 },
        token: 'token-1',
      });
    }
    payment(request, response, body);
  });
  const store = new MemoryReferenceStore();
  const pesakit = new Pesakit({
    baseUrl: server.url,
    credentials: { disbursement },
    store,
    timeoutMs: 300,
    maxRetries: 3,
    retryDelay: { minMs: 1, maxMs: 2 },
  });
  const paymentRequests = () => server!.requests.filter((r) => r.path.endsWith('/payment'));
  return { pesakit, store, paymentRequests };
}

describe('write-ahead: the intent is stored before the request leaves', () => {
  it('the record exists, initiating, when the platform receives the payout', async () => {
    let seenByPlatform: unknown;
    const { pesakit, store } = await platform((_request, response, body) => {
      const merchantReference = JSON.parse(body).name === payout.name ? 'ref-ahead' : undefined;
      void store.records.get(merchantReference ?? '').then((record) => {
        seenByPlatform = record?.status;
        json(response, 200, {
          message: 'Disbursement created',
          response: { status: true, reference: 'R-1', message: 'Accepted' },
          payment: {
            txnid: 'T-1',
            refid: 'R-1',
            amount: 20000,
            msisdn: payout.msisdn,
            name: 'Asha',
            status: 'completed',
            created_at: new Date().toISOString(),
          },
        });
      });
    });
    const result = await pesakit.disbursement.pay(payout, { merchantReference: 'ref-ahead' });
    expect(seenByPlatform).toBe('initiating');
    expect(result.merchantReference).toBe('ref-ahead');
    expect(result.record).toMatchObject({
      status: 'success',
      refid: 'R-1',
      txnid: 'T-1',
      amount: 20000,
    });
  });

  it('a generated merchant reference is returned and finds the record', async () => {
    const { pesakit, store } = await platform((_request, response) =>
      json(response, 200, {
        message: 'ok',
        response: { status: true, reference: 'R-2', message: 'Accepted' },
      }),
    );
    const result = await pesakit.disbursement.pay(payout);
    expect(result.merchantReference).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect((await store.records.find({ value: 'R-2' }))?.merchantReference).toBe(
      result.merchantReference,
    );
  });
});

describe('an unknown outcome is never failed, and is never retried', () => {
  it('the platform reads the payout then drops the connection: AmbiguousOutcomeError, record unknown, sent once', async () => {
    const { pesakit, store, paymentRequests } = await platform((request) =>
      request.socket.destroy(),
    );
    const error = await pesakit.disbursement
      .pay(payout, { merchantReference: 'ref-dropped' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(AmbiguousOutcomeError);
    expect(error.merchantReference).toBe('ref-dropped');
    expect(error.message).toContain('ref-dropped');
    expect(paymentRequests()).toHaveLength(1);
    expect((await store.records.get('ref-dropped'))?.status).toBe('unknown');
  });

  it('the platform never answers: the timeout is ambiguous, record unknown, sent once', async () => {
    const { pesakit, store, paymentRequests } = await platform(() => {});
    const error = await pesakit.disbursement
      .pay(payout, { merchantReference: 'ref-silent' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(AmbiguousOutcomeError);
    expect(paymentRequests()).toHaveLength(1);
    expect((await store.records.get('ref-silent'))?.status).toBe('unknown');
  });

  it('a 500 while processing: ServerError, record unknown (it may have moved), sent once', async () => {
    const { pesakit, store, paymentRequests } = await platform((_request, response) =>
      json(response, 500, { message: 'Server Error' }),
    );
    await expect(
      pesakit.disbursement.pay(payout, { merchantReference: 'ref-500' }),
    ).rejects.toBeInstanceOf(ServerError);
    expect(paymentRequests()).toHaveLength(1);
    expect((await store.records.get('ref-500'))?.status).toBe('unknown');
  });
});

describe('the outcome of a send outranks the bookkeeping', () => {
  it('a store that fails while recording an unknown outcome still yields AmbiguousOutcomeError', async () => {
    const { pesakit, store, paymentRequests } = await platform((request) =>
      request.socket.destroy(),
    );
    const move = store.records.move.bind(store.records);
    store.records.move = async (reference, change) => {
      if (change.change?.status === 'unknown') throw new Error('disk full');
      return move(reference, change);
    };
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      const error = await pesakit.disbursement
        .pay(payout, { merchantReference: 'ref-disk' })
        .catch((e) => e);
      expect(error).toBeInstanceOf(AmbiguousOutcomeError);
      expect(error.merchantReference).toBe('ref-disk');
      expect(paymentRequests()).toHaveLength(1);
      expect((await store.records.get('ref-disk'))?.status).toBe('initiating');
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.map((w) => w.message)).toEqual([
        'pesakit: could not record the outcome of ref-disk: Error: disk full',
      ]);
    } finally {
      process.off('warning', onWarning);
    }
  });
});

describe('a definite answer is final', () => {
  it('a 400 upstream failure marks the record failed with the platform message', async () => {
    const { pesakit, store } = await platform((_request, response) =>
      json(response, 400, { message: 'Disbursement initiation failed.' }),
    );
    await expect(
      pesakit.disbursement.pay(payout, { merchantReference: 'ref-400' }),
    ).rejects.toBeInstanceOf(BadRequestError);
    expect(await store.records.get('ref-400')).toMatchObject({
      status: 'failed',
      statusReason: 'Disbursement initiation failed.',
    });
  });

  it('an insufficient wallet is an InsufficientFundsError and the record is failed', async () => {
    const { pesakit, store } = await platform((_request, response) =>
      json(response, 422, {
        message: 'Insufficient wallet balance.',
        code: 'insufficient_funds',
        errors: { amount: ['Insufficient wallet balance.'] },
      }),
    );
    const error = await pesakit.disbursement
      .pay(payout, { merchantReference: 'ref-poor' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(InsufficientFundsError);
    expect(error.errors).toEqual({ amount: ['Insufficient wallet balance.'] });
    expect((await store.records.get('ref-poor'))?.status).toBe('failed');
  });

  it('nothing listening: ConnectionError, and the record is failed (nothing was sent)', async () => {
    const dead = await startRawServer(() => {});
    await dead.close();
    const store = new MemoryReferenceStore();
    const offline = new Pesakit({ baseUrl: dead.url, store, maxRetries: 0 });
    offline.setToken('disbursement', 'token-held');
    const error = await offline.disbursement
      .pay(payout, { merchantReference: 'ref-offline' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).not.toBeInstanceOf(AmbiguousOutcomeError);
    expect((await store.records.get('ref-offline'))?.status).toBe('failed');
  });

  it('nothing listening for the login: ConnectionError, and nothing is stored', async () => {
    const dead = await startRawServer(() => {});
    await dead.close();
    const store = new MemoryReferenceStore();
    const offline = new Pesakit({
      baseUrl: dead.url,
      store,
      credentials: { disbursement },
      maxRetries: 0,
    });
    const error = await offline.disbursement
      .pay(payout, { merchantReference: 'ref-offline' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect(await store.records.get('ref-offline')).toBeUndefined();
  });
});

describe('bad input is refused before anything is stored or sent', () => {
  it.each([
    [
      { ...payout, msisdn: '0754123456' },
      'msisdn',
      'The msisdn must be 255 followed by nine digits (write 255754123456 for 0754123456, as normalizeMsisdn does).',
    ],
    [
      { ...payout, msisdn: '255631234567' },
      'msisdn',
      'The msisdn does not belong to a supported mobile provider.',
    ],
    [{ ...payout, amount: -5 }, 'amount', 'The amount must be greater than 0.'],
    [{ ...payout, name: '' }, 'name', 'The name field is required.'],
  ])('%j is refused on %s', async (request, field, message) => {
    const { pesakit, store, paymentRequests } = await platform(() => {});
    const error = await pesakit.disbursement
      .pay(request, { merchantReference: 'ref-bad' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.errors[field]).toEqual([message]);
    expect(paymentRequests()).toHaveLength(0);
    expect(await store.records.get('ref-bad')).toBeUndefined();
  });

  it('a malformed merchant reference is refused', async () => {
    const { pesakit, store } = await platform(() => {});
    const error = await pesakit.disbursement
      .pay(payout, { merchantReference: 'has spaces' })
      .catch((e) => e);
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.errors).toHaveProperty('merchantReference');
    expect(await store.records.get('has spaces')).toBeUndefined();
  });
});
