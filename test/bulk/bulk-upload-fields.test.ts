import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { fundAirtime, purchasesByMsisdn } from './bulk-files.js';

// Sends the sandbox's bulk airtime upload malformed forms:
// a second file is refused (422 under `file`), but a second `batch_id` was taken silently — the
// last one won, and every row's merchant reference (`<batch_id>:<row>`) was built from a value
// the client may not have meant. Ambiguous input is refused, and nothing is spent.

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
  await fundAirtime(harness, 10_000);
});
afterAll(() => harness.close());

async function upload(form: FormData): Promise<Response> {
  const { token } = (await (
    await fetch(`${harness.url}/api/sandbox/airtime/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(accounts.airtime),
    })
  ).json()) as { token: string };
  return fetch(`${harness.url}/api/sandbox/airtime/customer/bulkpayment`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
}

describe('the bulk upload with batch_id sent twice', () => {
  it('is a 422 naming batch_id, and nothing is sent', async () => {
    const form = new FormData();
    form.append('batch_id', 'first-batch');
    form.append('batch_id', 'second-batch');
    form.set('file', new Blob(['msisdn,amount\r\n255754123456,1000\r\n']), 'rows.csv');
    const answer = await upload(form);
    expect(answer.status).toBe(422);
    const body = (await answer.json()) as { errors: Record<string, string[]> };
    expect(body.errors['batch_id']?.[0]).toMatch(/once/);
    expect((await purchasesByMsisdn(harness)).size).toBe(0);
  });

  it('the same batch_id twice is refused too: one field, one value', async () => {
    const form = new FormData();
    form.append('batch_id', 'same');
    form.append('batch_id', 'same');
    form.set('file', new Blob(['msisdn,amount\r\n255754123456,1000\r\n']), 'rows.csv');
    expect((await upload(form)).status).toBe(422);
  });
});

describe('a bulk upload the multipart reader refuses', () => {
  const rows = () => new Blob(['msisdn,amount\r\n255754123456,1000\r\n']);

  it('a second file is a 422 under file; too many fields a 413; nothing is sent', async () => {
    const twoFiles = new FormData();
    twoFiles.append('file', rows(), 'rows.csv');
    twoFiles.append('file', rows(), 'more.csv');
    const second = await upload(twoFiles);
    expect(second.status).toBe(422);
    const body = (await second.json()) as { errors: Record<string, string[]> };
    expect(body.errors['file']?.[0]).toMatch(/exactly one file/);
    const crowded = new FormData();
    for (let field = 0; field < 25; field += 1) crowded.append(`note${field}`, 'x');
    crowded.append('file', rows(), 'rows.csv');
    const many = await upload(crowded);
    expect(many.status).toBe(413);
    expect(((await many.json()) as { message: string }).message).toMatch(/too many form fields/);
    expect((await purchasesByMsisdn(harness)).size).toBe(0);
  });
});
