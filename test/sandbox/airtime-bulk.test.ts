import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { airtimeBulkResponseSchema } from '../../src/schemas/airtime-bulk.js';
import { csvOf, PNG_BYTES, xlsxOf } from '../spreadsheets/files.js';
import { type Answer, bearer, field, type RunningSandbox, startSandbox } from './support.js';

const PATH = '/api/sandbox/airtime/customer/bulkpayment';
const email = 'bulk@duka.tz';

let s: RunningSandbox;
let token: string;

async function start(balance: number, options: SandboxOptions = {}) {
  s = await startSandbox(options);
  token = await s.account('airtime', email, balance);
}
afterEach(() => s?.close());

/** A multipart upload over real HTTP, as a browser or the SDK would send it. */
async function upload(
  file: Uint8Array | undefined,
  options: {
    fileName?: string;
    field?: string;
    batchId?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const form = new FormData();
  if (options.batchId !== undefined) form.append('batch_id', options.batchId);
  if (file !== undefined) {
    form.append(
      options.field ?? 'file',
      new Blob([new Uint8Array(file)]),
      options.fileName ?? 'staff.xlsx',
    );
  }
  const response = await fetch(`${s.url}${PATH}`, {
    method: 'POST',
    body: form,
    headers: options.headers ?? bearer(token),
  });
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), text, headers: response.headers };
}

const balance = () => s.sandbox.inspect.wallet('airtime', email)?.balance;
const numbered = (index: number) => `2557540${String(index).padStart(5, '0')}`;

describe('bulk airtime: every row runs purchase rules 4–7', () => {
  it('sends 500 rows from an .xlsx: wallet debited by the sum, 500 payments, 500 SMS, every row answered', async () => {
    await start(1_000_000);
    const rows = Array.from({ length: 500 }, (_, index) => [
      numbered(index + 1),
      100 + index,
      `staff-${index + 1}`,
    ]);
    const total = rows.reduce((sum, row) => sum + (row[1] as number), 0);
    const answer = await upload(await xlsxOf([['msisdn', 'amount', 'reference'], ...rows]), {
      batchId: 'payroll-2026-11',
    });
    expect(answer.status, answer.text).toBe(200);
    const body = airtimeBulkResponseSchema.parse(answer.body);
    expect(body.batch).toEqual({
      id: 'payroll-2026-11',
      rows: 500,
      total_amount: total,
      succeeded: 500,
      failed: 0,
    });
    expect(body.rows).toHaveLength(500);
    expect(body.rows[41]).toMatchObject({
      row: 42,
      msisdn: numbered(42),
      amount: 141,
      reference: 'staff-42',
      merchant_reference: 'airtime:payroll-2026-11:42',
      status: 'success',
      payment: { msisdn: numbered(42), amount: 141, provider: 'vodacom', status: 'success' },
    });
    expect(new Set(body.rows.map((row) => row.payment.reference)).size).toBe(500);
    expect(balance()).toBe(1_000_000 - total);
    expect(s.sandbox.inspect.snapshot().airtimePayments).toBe(500);
    const sms = s.sandbox.inspect.sms().filter((message) => message.product === 'airtime');
    expect(sms).toHaveLength(500);
    expect(sms[0]?.text).toMatch(/received TZS 100 airtime/);
    // Every debit is in the ledger under its payment's reference.
    const ledger = s.sandbox.inspect.wallet('airtime', email)?.ledger ?? [];
    expect(ledger.filter((entry) => entry.kind === 'airtime')).toHaveLength(500);
  });

  it('takes a CSV, generates a batch id when none is given, and reports a row without reference as null', async () => {
    await start(10_000);
    const answer = await upload(
      csvOf('MSISDN,Amount\r\n255684000001,1000\r\n255654000002,"2000"\r\n'),
      {
        fileName: 'staff.csv',
      },
    );
    expect(answer.status, answer.text).toBe(200);
    const body = airtimeBulkResponseSchema.parse(answer.body);
    expect(body.batch.id).toMatch(/^[0-9A-Z]{26}$/);
    expect(
      body.rows.map((row) => [row.merchant_reference, row.reference, row.payment.provider]),
    ).toEqual([
      [`airtime:${body.batch.id}:1`, null, 'airtel'],
      [`airtime:${body.batch.id}:2`, null, 'tigo'],
    ]);
    expect(balance()).toBe(7000);
  });

  it('fails vendor-refused rows (numbers ending 999) without debiting them, and sends the others', async () => {
    await start(10_000);
    const file = await xlsxOf([
      ['msisdn', 'amount'],
      ['255754000001', 1000],
      ['255754000999', 2000],
      ['255684000002', 3000],
      ['255684000999', 500],
    ]);
    const answer = await upload(file);
    expect(answer.status, answer.text).toBe(200);
    const body = airtimeBulkResponseSchema.parse(answer.body);
    expect(body.batch).toMatchObject({ rows: 4, total_amount: 6500, succeeded: 2, failed: 2 });
    expect(body.rows.map((row) => row.status)).toEqual(['success', 'failed', 'success', 'failed']);
    expect(body.rows[1]).toMatchObject({
      message: 'Vodacom rejected the airtime top-up.',
      payment: { status: 'failed' },
    });
    expect(balance()).toBe(10_000 - 1000 - 3000);
    const failures = s.sandbox.inspect.sms().filter((message) => /failed/.test(message.text));
    expect(failures.map((message) => message.to)).toEqual(['255754000999', '255684000999']);
  });

  it('holds the whole total at once: a purchase racing the batch never spends money a row needs', async () => {
    await start(1000);
    const rows = Array.from({ length: 10 }, (_, index) => `${numbered(index + 1)},100`).join('\n');
    const [batch, single] = await Promise.all([
      upload(csvOf(`msisdn,amount\n${rows}\n`)),
      s.call(
        'POST',
        '/api/sandbox/airtime/customer/payments',
        { msisdn: '255754999001', amount: 100 },
        bearer(token),
      ),
    ]);
    // Exactly one of the two fits; the other is refused as insufficient, and nothing overdraws.
    const statuses = [batch.status, single.status].sort();
    expect(statuses).toEqual([200, 422]);
    expect(balance()).toBe(batch.status === 200 ? 0 : 900);
    expect(s.sandbox.inspect.snapshot().airtimePayments).toBe(batch.status === 200 ? 10 : 1);
  });

  it('counts payments per number through the control API (ground truth for "sent once")', async () => {
    await start(10_000);
    await upload(csvOf('msisdn,amount\n255754000001,100\n255754000002,100\n255754000001,100\n'));
    const count = async (query: string) =>
      field(await s.control(`airtime/payments?${query}`, undefined, 'GET'), 'count');
    expect(await count('msisdn=255754000001')).toBe(2);
    expect(await count('msisdn=255754000002')).toBe(1);
    expect(await count('status=failed')).toBe(0);
    const listed = await s.control('airtime/payments', undefined, 'GET');
    expect(field(listed, 'count')).toBe(3);
    const reference = (field(listed, 'payments') as Array<{ reference: string }>)[2]?.reference;
    expect(await count(`reference=${reference}`)).toBe(1);
    expect((await s.control('airtime/payments?status=paid', undefined, 'GET')).status).toBe(422);
  });
});

describe('bulk airtime: every row is checked first, and a bad file spends nothing', () => {
  it('refuses a file with bad rows whole (422), naming each row, line and field; nothing changes', async () => {
    await start(10_000);
    const before = s.sandbox.inspect.snapshot();
    const file = await xlsxOf([
      ['msisdn', 'amount'],
      ['255754000001', 100],
      ['0754000002', 100],
      ['255754000003', -1],
      ['255754000004', '1,000'],
      ['255754000005', 20_000_000],
    ]);
    const answer = await upload(file);
    expect(answer.status).toBe(422);
    expect(field(answer, 'errors')).toEqual({
      'rows.2.msisdn': [
        'Row 2 (line 3): The msisdn must be 255 followed by nine digits (write 255754000002 for 0754000002, as normalizeMsisdn does).',
      ],
      'rows.3.amount': ['Row 3 (line 4): The amount must be greater than 0.'],
      'rows.4.amount': [
        expect.stringMatching(/^Row 4 \(line 5\): The amount "1,000" has a thousands separator/),
      ],
      'rows.5.amount': ['Row 5 (line 6): The amount may not be greater than 10000000.'],
    });
    expect(field(answer, 'message')).toMatch(/^Row 2 \(line 3\).*\(and 3 more errors\)$/);
    expect(s.sandbox.inspect.snapshot()).toEqual(before);
  });

  it('refuses a total above the wallet balance with 422 insufficient_funds, like a single purchase; nothing changes', async () => {
    await start(1000);
    const before = s.sandbox.inspect.snapshot();
    const answer = await upload(csvOf('msisdn,amount\n255754000001,600\n255754000002,400.01\n'));
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({
      code: 'insufficient_funds',
      errors: {
        amount: [
          expect.stringMatching(
            /total of the 2 rows, TZS 1000\.01, is more than the wallet balance, TZS 1000/,
          ),
        ],
      },
    });
    expect(s.sandbox.inspect.snapshot()).toEqual(before);
    // Exactly the balance is fine.
    const exact = await upload(csvOf('msisdn,amount\n255754000001,600\n255754000002,400\n'));
    expect(exact.status, exact.text).toBe(200);
    expect(balance()).toBe(0);
  });

  it.each([
    [
      'a damaged .xlsx',
      async () =>
        (
          await xlsxOf([
            ['msisdn', 'amount'],
            ['255754000001', 1],
          ])
        ).subarray(0, 300),
      'corrupt_file',
    ],
    ['a PNG named .xlsx', async () => PNG_BYTES, 'unsupported_format'],
    ['an empty file', async () => new Uint8Array(0), 'empty_file'],
    [
      'a file without an amount column',
      async () => csvOf('msisdn,value\n255754000001,1\n'),
      'missing_column',
    ],
  ])(
    'refuses %s with 422 naming the problem under `file`, and changes nothing',
    async (_name, make, code) => {
      await start(10_000);
      const before = s.sandbox.inspect.snapshot();
      const answer = await upload(await make());
      expect(answer.status, answer.text).toBe(422);
      expect(answer.body).toMatchObject({ code, errors: { file: [expect.any(String)] } });
      expect(s.sandbox.inspect.snapshot()).toEqual(before);
    },
  );
});

describe('bulk airtime: the upload', () => {
  it('answers 415 to a body that is not multipart/form-data, and other routes keep taking JSON only', async () => {
    await start(10_000);
    const json = await s.call('POST', PATH, { msisdn: '255754000001', amount: 1 }, bearer(token));
    expect(json.status).toBe(415);
    expect(field(json, 'message')).toMatch(/multipart\/form-data.*"file"/);
    const text = await s.call('POST', PATH, 'msisdn,amount', {
      ...bearer(token),
      'content-type': 'text/csv',
    });
    expect(text.status).toBe(415);
    const empty = await s.call('POST', PATH, undefined, bearer(token));
    expect(empty.status).toBe(415);
    // The purchase route does not take multipart; it still takes JSON.
    const form = new FormData();
    form.append('msisdn', '255754000001');
    const purchase = await fetch(`${s.url}/api/sandbox/airtime/customer/payments`, {
      method: 'POST',
      body: form,
      headers: bearer(token),
    });
    expect(purchase.status).toBe(415);
    const bought = await s.call(
      'POST',
      '/api/sandbox/airtime/customer/payments',
      { msisdn: '255754000001', amount: 1 },
      bearer(token),
    );
    expect(bought.status).toBe(200);
  });

  it('answers a broken multipart body with a 4xx, never a 5xx, and changes nothing', async () => {
    await start(10_000);
    const before = s.sandbox.inspect.snapshot();
    const send = (contentType: string, body: string) =>
      fetch(`${s.url}${PATH}`, {
        method: 'POST',
        body,
        headers: { ...bearer(token), 'content-type': contentType },
      });
    const noBoundary = await send('multipart/form-data', 'garbage');
    expect(noBoundary.status).toBe(400);
    expect(((await noBoundary.json()) as { message: string }).message).toMatch(/could not be read/);
    const cutShort = await send(
      'multipart/form-data; boundary=XyZ',
      '--XyZ\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n\r\nmsisdn,amount\n2557',
    );
    expect(cutShort.status).toBeGreaterThanOrEqual(400);
    expect(cutShort.status).toBeLessThan(500);
    const badHeader = await send(
      'multipart/form-data; boundary=XyZ',
      '--XyZ\r\nnonsense\r\n\r\nx\r\n--XyZ--\r\n',
    );
    expect(badHeader.status).toBeGreaterThanOrEqual(400);
    expect(badHeader.status).toBeLessThan(500);
    expect(s.sandbox.inspect.snapshot()).toEqual(before);
  });

  it('answers 422 `file` required when no file is sent, or when it is in another field', async () => {
    await start(10_000);
    const none = await upload(undefined, { batchId: 'b1' });
    expect(none.status).toBe(422);
    expect(field(none, 'errors')).toEqual({
      file: [expect.stringMatching(/file field is required/)],
    });
    const elsewhere = await upload(csvOf('msisdn,amount\n255754000001,1\n'), { field: 'upload' });
    expect(elsewhere.status).toBe(422);
    expect(field(elsewhere, 'errors')).toEqual({
      file: [expect.stringMatching(/sent in field "upload"/)],
    });
  });

  it('refuses a batch_id that cannot be part of a merchant reference', async () => {
    await start(10_000);
    const before = s.sandbox.inspect.snapshot();
    const answer = await upload(csvOf('msisdn,amount\n255754000001,1\n'), { batchId: 'nov:2026' });
    expect(answer.status).toBe(422);
    expect(field(answer, 'errors')).toHaveProperty('batch_id');
    expect(s.sandbox.inspect.snapshot()).toEqual(before);
  });

  it('answers 413 to a file over the size limit, whether or not it says its length up front', async () => {
    await start(10_000, { airtimeBulk: { maxFileBytes: 2048 } });
    const before = s.sandbox.inspect.snapshot();
    const padding = Array.from({ length: 200 }, (_, index) => `${numbered(index)},1`).join('\n');
    // A little over the limit: read until the limit, then refused.
    const over = await upload(csvOf(`msisdn,amount\n${padding}\n`));
    expect(over.status, over.text).toBe(413);
    expect(field(over, 'message')).toMatch(/larger than the 2048-byte limit/);
    // Far over: refused from Content-Length before the body is read.
    const far = await upload(new Uint8Array(200 * 1024).fill(0x41));
    expect(far.status).toBe(413);
    expect(field(far, 'message')).toMatch(/at most 2048 bytes/);
    expect(s.sandbox.inspect.snapshot()).toEqual(before);
  });

  it('refuses more rows than the limit with 422 too_many_rows, spending nothing', async () => {
    await start(10_000, { airtimeBulk: { maxRows: 10 } });
    const before = s.sandbox.inspect.snapshot();
    const rows = Array.from({ length: 11 }, (_, index) => `${numbered(index)},1`).join('\n');
    const answer = await upload(csvOf(`msisdn,amount\n${rows}\n`));
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({
      code: 'too_many_rows',
      errors: { file: [expect.stringMatching(/more than 10 rows/)] },
    });
    expect(s.sandbox.inspect.snapshot()).toEqual(before);
  });

  it('answers 429 sandbox_full, spending nothing, when the rows would pass the record limit', async () => {
    await start(10_000, { recordLimit: 3 });
    const before = s.sandbox.inspect.snapshot();
    const answer = await upload(
      csvOf('msisdn,amount\n255754000001,1\n255754000002,1\n255754000003,1\n255754000004,1\n'),
    );
    expect(answer.status).toBe(429);
    expect(field(answer, 'code')).toBe('sandbox_full');
    expect(s.sandbox.inspect.snapshot()).toEqual(before);
    expect(
      (await upload(csvOf('msisdn,amount\n255754000001,1\n255754000002,1\n255754000003,1\n')))
        .status,
    ).toBe(200);
  });

  it('answers 401 without a valid airtime token, before reading the upload', async () => {
    await start(10_000);
    const file = csvOf('msisdn,amount\n255754000001,1\n');
    const none = await upload(file, { headers: {} });
    expect(none.status).toBe(401);
    const wrong = await upload(file, { headers: bearer('not-a-token') });
    expect(wrong.status).toBe(401);
    expect(s.sandbox.inspect.snapshot().airtimePayments).toBe(0);
  });

  it('takes its limits as options with checked values', async () => {
    await expect(createSandbox({ airtimeBulk: { maxRows: 0 } })).rejects.toThrow(
      /airtimeBulk\.maxRows/,
    );
    await expect(createSandbox({ airtimeBulk: { maxFileBytes: 1.5 } })).rejects.toThrow(
      /airtimeBulk\.maxFileBytes/,
    );
  });
});
