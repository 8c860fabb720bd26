import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryReferenceStore, Pesakit } from '../../src/index.js';
import { type RawServer, startRawServer } from '../helpers/raw-server.js';

// The platform may answer with a long upstream message (the spec's `response.message` is
// "Upstream text", of no stated length), and every store bounds a record's reason at 1000
// characters. Stored as it came, the answer's write would be refused after the platform took
// the payout. The platform's text is cut to what a store keeps (and a NUL, which PostgreSQL
// text cannot hold, replaced), so the answer is always recorded.

const long = `Upstream gateway: ${'queued for settlement; '.repeat(80)}`;
const withNul = 'Upstream said \u0000 hello';

let server: RawServer;
const user = {
  id: 1,
  name: 'shop',
  email: 'shop@example.tz',
  phone: '255700000000',
  status: 'active',
  created_at: '2026-11-01T00:00:00.000Z',
};

beforeAll(async () => {
  server = await startRawServer((request, response, body) => {
    response.setHeader('content-type', 'application/json');
    const path = request.url ?? '';
    if (path.endsWith('/login')) {
      response.end(
        JSON.stringify({
          user: { ...user, role_id: 2, wallet: { balance: 100_000, currency: 'TZS' } },
          wallet: { balance: 100_000, currency: 'TZS' },
          token: '1|token',
          token_type: 'Bearer',
        }),
      );
      return;
    }
    const { amount } = JSON.parse(body) as { amount: number };
    const message = amount === 2_000 ? withNul : long;
    if (path.endsWith('/disbursement/payment')) {
      if (amount === 3_000) {
        response.statusCode = 400;
        response.end(JSON.stringify({ message: long, code: 'upstream_failed' }));
        return;
      }
      // Accepted by the platform, still pending upstream: the refid is the payout's handle.
      response.end(
        JSON.stringify({
          message: 'Disbursement accepted.',
          response: { status: false, reference: `DSB${amount}`, message },
        }),
      );
      return;
    }
    if (path.endsWith('/customer/payments')) {
      response.end(JSON.stringify({ status: 'failed', message }));
      return;
    }
    response.statusCode = 404;
    response.end(JSON.stringify({ message: 'Not found.' }));
  });
});
afterAll(() => server.close());

function client(store: MemoryReferenceStore) {
  const account = { email: 'shop@example.tz', password: 'sandbox-pass-1' };
  return new Pesakit({
    environment: 'sandbox',
    baseUrl: server.url,
    store,
    credentials: { disbursement: account, airtime: account },
  });
}

describe("the platform's message as a record's reason", () => {
  it.each([
    ['a message over 1000 characters', 1_000],
    ['a message with a NUL character', 2_000],
  ])(
    'a payout the platform accepted with %s: answered and recorded with its refid',
    async (_, amount) => {
      const store = new MemoryReferenceStore();
      const payout = await client(store).disbursement.pay(
        { msisdn: '255754123456', amount, name: 'Neema' },
        { merchantReference: `payout-${amount}` },
      );
      expect(payout.record.status).toBe('pending');
      expect(payout.record.refid).toBe(`DSB${amount}`);
      const stored = await store.records.get(`payout-${amount}`);
      expect(stored?.refid).toBe(`DSB${amount}`);
      expect(stored?.statusReason?.length).toBeLessThanOrEqual(1000);
      expect(stored?.statusReason).not.toContain('\u0000');
      expect(
        stored?.statusReason?.startsWith(amount === 2_000 ? 'Upstream said' : 'Upstream gateway'),
      ).toBe(true);
    },
  );

  it('a payout refused with a long message: the caller gets the platform error, the record is failed', async () => {
    const store = new MemoryReferenceStore();
    await expect(
      client(store).disbursement.pay(
        { msisdn: '255754123456', amount: 3_000, name: 'Neema' },
        { merchantReference: 'payout-refused' },
      ),
    ).rejects.toMatchObject({ name: 'BadRequestError', status: 400 });
    const stored = await store.records.get('payout-refused');
    expect(stored?.status).toBe('failed');
    expect(stored?.statusReason?.length).toBeLessThanOrEqual(1000);
  });

  it('an airtime sale the vendor failed with a long message: answered, recorded as failed', async () => {
    const store = new MemoryReferenceStore();
    const sale = await client(store).airtime.purchase(
      { msisdn: '255754123456', amount: 500 },
      { merchantReference: 'sale-1' },
    );
    expect(sale.status).toBe('failed');
    const stored = await store.records.get('sale-1');
    expect(stored?.status).toBe('failed');
    expect(stored?.statusReason?.length).toBeLessThanOrEqual(1000);
  });
});
