import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { Pesakit } from '../../src/client.js';
import { MemoryReferenceStore } from '../../src/references/index.js';
import {
  type BatchAlreadyRunError,
  isBatchAlreadyRunError,
} from '../../src/resources/bulk/batch-already-run-error.js';
import { failure } from '../helpers/failure.js';
import { json, type RawServer, startRawServer } from '../helpers/raw-server.js';
import { batchRows } from './bulk-files.js';

// A stand-in platform for the answers the sandbox never gives: an upload whose answer is lost,
// and a file refused whole. Login and the wallet answer as the platform does.
const user = {
  id: 1,
  name: 'Duka',
  email: 'airtime@duka.co.tz',
  phone: '255754000001',
  role_id: 2,
  status: 'active',
  wallet: { balance: 1_000_000, currency: 'TZS' },
};

let server: RawServer | undefined;
afterEach(() => server?.close());

interface Upload {
  contentType: string;
  authorization: string;
  body: string;
}

async function platform(
  bulkpayment: (response: ServerResponse, request: IncomingMessage) => void,
): Promise<{ uploads: Upload[]; client: (store: MemoryReferenceStore) => Pesakit }> {
  const uploads: Upload[] = [];
  server = await startRawServer((request, response, body) => {
    if (request.url === '/api/sandbox/airtime/login') {
      return json(response, 200, { token: 'tok-1', token_type: 'Bearer', user });
    }
    if (request.url === '/api/sandbox/airtime/user') return json(response, 200, { user });
    if (request.url === '/api/sandbox/airtime/customer/bulkpayment') {
      uploads.push({
        contentType: request.headers['content-type'] ?? '',
        authorization: request.headers.authorization ?? '',
        body,
      });
      return bulkpayment(response, request);
    }
    json(response, 404, { message: 'Not found.' });
  });
  const url = server.url;
  return {
    uploads,
    client: (store) =>
      new Pesakit({
        environment: 'sandbox',
        baseUrl: url,
        credentials: { airtime: { email: user.email, password: 'airtime-secret-1' } },
        store,
      }),
  };
}

describe("via 'bulkpayment': one upload, every row written ahead", () => {
  it('sends one multipart upload with the bearer token and a CSV of the rows; a lost answer leaves every row unknown', async () => {
    const { uploads, client } = await platform((response) => response.socket?.destroy());
    const store = new MemoryReferenceStore();
    const rows = batchRows(5);
    const result = await client(store).airtime.bulkPurchase(rows, {
      via: 'bulkpayment',
      batchId: 'lost',
    });
    expect(uploads).toHaveLength(1);
    expect(uploads[0]?.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(uploads[0]?.authorization).toBe('Bearer tok-1');
    expect(uploads[0]?.body).toMatch(/name="batch_id"\r\n\r\nlost\r\n/);
    expect(uploads[0]?.body).toMatch(/name="file"; filename="lost.csv"/);
    for (const row of rows)
      expect(uploads[0]?.body).toContain(`${row.msisdn},1000,${row.reference}`);

    expect(result.via).toBe('bulkpayment');
    expect(result.totals).toMatchObject({ rows: 5, unknown: 5, succeeded: 0, sent: 5 });
    for (const row of result.rows) {
      expect(row.status).toBe('unknown');
      expect((await store.records.get(`airtime:lost:${row.row}`))?.status).toBe('unknown');
    }

    // The rerun sends nothing: every row may have been paid.
    const rerun = await failure(
      client(store).airtime.bulkPurchase(rows, { via: 'bulkpayment', batchId: 'lost' }),
    );
    expect(isBatchAlreadyRunError(rerun)).toBe(true);
    expect((rerun as BatchAlreadyRunError).result.totals).toMatchObject({ unknown: 5, sent: 0 });
    expect(uploads).toHaveLength(1);
  });

  it('a file refused whole (4xx, nothing spent) leaves every row failed with the reason', async () => {
    const { uploads, client } = await platform((response) =>
      json(response, 413, { message: 'The file may not be larger than 5 MiB.' }),
    );
    const store = new MemoryReferenceStore();
    const result = await client(store).airtime.bulkPurchase(batchRows(3), {
      via: 'bulkpayment',
      batchId: 'refused',
    });
    expect(uploads).toHaveLength(1);
    expect(result.totals).toMatchObject({ failed: 3, unknown: 0 });
    expect(result.rows[0]?.message).toMatch(/refused, nothing spent: .*5 MiB/);
    expect((await store.records.get('airtime:refused:2'))?.status).toBe('failed');
  });

  it("a failed upload is recorded by the single payment's rule: a 429 is failed (rate_limited), a 503 unknown", async () => {
    let uploadsSeen = 0;
    // The first upload is refused before processing; the platform is down for the second.
    const { client } = await platform((response) => {
      uploadsSeen += 1;
      if (uploadsSeen === 1) {
        response.setHeader('retry-after', '30');
        return json(response, 429, { message: 'Too Many Attempts.' });
      }
      json(response, 503, { message: 'Service Unavailable' });
    });
    const store = new MemoryReferenceStore();
    const limited = await client(store).airtime.bulkPurchase(batchRows(2), {
      via: 'bulkpayment',
      batchId: 'limited',
    });
    expect(limited.totals).toMatchObject({ failed: 2, unknown: 0 });
    expect((await store.records.get('airtime:limited:1'))?.statusReason).toMatch(
      /^rate_limited: .*after 30 s/,
    );
    const down = await client(store).airtime.bulkPurchase(batchRows(2), {
      via: 'bulkpayment',
      batchId: 'down',
    });
    expect(down.totals).toMatchObject({ failed: 0, unknown: 2 });
    expect((await store.records.get('airtime:down:2'))?.status).toBe('unknown');
  });

  it('sends references exactly as given, even formula-like: the platform reads the file, no person opens it', async () => {
    const { uploads, client } = await platform((response) =>
      json(response, 413, { message: 'The file may not be larger than 5 MiB.' }),
    );
    const rows = batchRows(2).map((row, index) => ({ ...row, reference: ['=1+1', '-7'][index]! }));
    await client(new MemoryReferenceStore()).airtime.bulkPurchase(rows, {
      via: 'bulkpayment',
      batchId: 'formulas',
    });
    expect(uploads[0]?.body).toContain(`${rows[0]!.msisdn},1000,=1+1\r\n`);
    expect(uploads[0]?.body).toContain(`${rows[1]!.msisdn},1000,-7\r\n`);
  });

  it('an answer that does not repeat a row leaves that row unknown', async () => {
    const rows = batchRows(2);
    const { client } = await platform((response) =>
      json(response, 200, {
        status: 'completed',
        message: 'Processed.',
        batch: { id: 'odd', rows: 2, total_amount: 2000, succeeded: 2, failed: 0 },
        rows: [
          answerRow(1, rows[0]!.msisdn, 1000, 'AT-1'),
          answerRow(2, '255754999998', 1000, 'AT-2'),
        ],
      }),
    );
    const store = new MemoryReferenceStore();
    const result = await client(store).airtime.bulkPurchase(rows, {
      via: 'bulkpayment',
      batchId: 'odd',
    });
    expect(result.rows.map((row) => [row.status, row.paymentReference])).toEqual([
      ['success', 'AT-1'],
      ['unknown', undefined],
    ]);
    expect(await store.records.get('airtime:odd:1')).toMatchObject({
      status: 'success',
      paymentReference: 'AT-1',
    });
  });

  it('a row whose payment contradicts it (another amount, a failed inner status) goes to needs_review', async () => {
    const rows = batchRows(3);
    const lying = answerRow(2, rows[1]!.msisdn, 1000, 'AT-2');
    const failedInside = answerRow(3, rows[2]!.msisdn, 1000, 'AT-3');
    const { client } = await platform((response) =>
      json(response, 200, {
        status: 'completed',
        message: 'Processed.',
        batch: { id: 'odd', rows: 3, total_amount: 3000, succeeded: 3, failed: 0 },
        rows: [
          answerRow(1, rows[0]!.msisdn, 1000, 'AT-1'),
          { ...lying, payment: { ...lying.payment, amount: 10_000 } },
          { ...failedInside, payment: { ...failedInside.payment, status: 'failed' } },
        ],
      }),
    );
    const store = new MemoryReferenceStore();
    const result = await client(store).airtime.bulkPurchase(rows, {
      via: 'bulkpayment',
      batchId: 'odd',
    });
    expect(result.rows.map((row) => row.status)).toEqual(['success', 'unknown', 'unknown']);
    expect(await store.records.get('airtime:odd:2')).toMatchObject({
      status: 'needs_review',
      review: {
        reason: 'answer_contradicts_request',
        evidence: { contradictions: [{ field: 'amount', asked: 1000, answered: 10_000 }] },
      },
    });
    expect((await store.records.get('airtime:odd:3'))?.review?.evidence).toEqual({
      contradictions: [{ field: 'status', asked: 'success', answered: 'failed' }],
    });
  });
});

function answerRow(row: number, msisdn: string, amount: number, reference: string) {
  return {
    row,
    msisdn,
    amount,
    reference: null,
    merchant_reference: `airtime:odd:${row}`,
    status: 'success',
    message: 'Airtime delivered by Vodacom.',
    payment: {
      id: row,
      reference,
      msisdn,
      amount,
      provider: 'vodacom',
      status: 'success',
      message: 'Airtime delivered by Vodacom.',
      created_at: '2026-11-23T10:00:00.000Z',
    },
  };
}
