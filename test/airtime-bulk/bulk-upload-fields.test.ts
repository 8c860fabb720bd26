import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fundAirtime, purchasesByMsisdn } from '../airtime-bulk/bulk-files.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';

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
