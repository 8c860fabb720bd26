import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryReferenceStore } from '../../src/references/index.js';
import {
  isRecordNotVisibleError,
  type RecordNotVisibleError,
} from '../../src/resources/record-not-visible-error.js';
import { failure } from '../helpers/failure.js';
import { moves } from '../helpers/moves.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';
import { fund, lostAnswer } from '../reconciler/helpers.js';

// docs/reference-store.md, "The record's account": `collection.status()` and
// `disbursement.status()` refresh a stored record from the platform. For a record made with
// another account or in another environment the platform shows nothing (404, no history row),
// so nothing is pulled: RecordNotVisibleError names both accounts, and the record is unchanged.

const other = {
  collection: { email: 'other-shop@duka.co.tz', password: 'other-collect-1' },
  disbursement: { email: 'other-payouts@duka.co.tz', password: 'other-payouts-1' },
};

let harness: Harness;
beforeAll(async () => {
  harness = await startHarness();
  await harness.control('accounts', { product: 'collection', ...other.collection });
  await harness.control('accounts', {
    product: 'disbursement',
    ...other.disbursement,
    status: 'active',
  });
  await fund(harness, 'disbursement', 100_000);
});
afterAll(async () => {
  await harness.close();
});

describe('a status call for a record of another account or environment pulls nothing', () => {
  it('collection.status(): RecordNotVisibleError naming both accounts, no request, the record unchanged', async () => {
    const store = new MemoryReferenceStore();
    const payment = await harness
      .client({ store })
      .collection.initiateMno({ amount: 8_000, msisdn: '255754123456' });
    await harness.control('collection/settle', {
      ref_id: payment.controlNumber,
      outcome: 'success',
    });
    const before = await store.records.get(payment.merchantReference);

    const shopB = harness.client({ store, credentials: other });
    const sent: string[] = [];
    shopB.on('request', (event) => sent.push(event.path));
    const error = await failure(shopB.collection.status(payment.controlNumber));
    expect(isRecordNotVisibleError(error)).toBe(true);
    expect(error).toMatchObject({
      code: 'not_visible',
      merchantReference: payment.merchantReference,
      recordAccount: { environment: 'sandbox', login: accounts.collection.email },
      clientAccount: { environment: 'sandbox', login: other.collection.email },
    });
    expect((error as RecordNotVisibleError).message).toContain(other.collection.email);
    expect(sent).toEqual([]);
    expect(await store.records.get(payment.merchantReference)).toEqual(before);
  });

  it('disbursement.status(): a payout of another account is not refreshed from this account’s history', async () => {
    const store = new MemoryReferenceStore();
    await lostAnswer(harness, 'disbursement', store, (client, fast) =>
      client.disbursement.pay(
        { msisdn: '255754000111', amount: 6_000, name: 'Asha Mushi' },
        { merchantReference: 'payout-a', ...fast },
      ),
    );
    const before = await store.records.get('payout-a');
    expect(before?.status).toBe('unknown');

    const shopB = harness.client({ store, credentials: other });
    const sent: string[] = [];
    shopB.on('request', (event) => sent.push(event.path));
    const error = await failure(shopB.disbursement.status('payout-a'));
    expect(isRecordNotVisibleError(error)).toBe(true);
    expect(error).toMatchObject({
      recordAccount: { login: accounts.disbursement.email },
      clientAccount: { login: other.disbursement.email },
    });
    expect(sent).toEqual([]);
    expect(await store.records.get('payout-a')).toEqual(before);

    // The account that sent it finds it in its history.
    expect((await harness.client({ store }).disbursement.status('payout-a')).status).toBe(
      'success',
    );
  });

  it('a sandbox client asked about a production record: RecordNotVisibleError, the sandbox not asked', async () => {
    // Written through the store: a production client cannot reach the sandbox.
    const store = new MemoryReferenceStore();
    await store.records.create({
      merchantReference: 'prod-1',
      product: 'collection',
      flow: 'mno',
      amount: 5_000,
      msisdn: '255754123456',
      account: { environment: 'production', login: accounts.collection.email },
    });
    await moves(store).attachAndTransition('prod-1', { controlNumber: 'CN-PROD-1' }, 'pending');
    const sandboxClient = harness.client({ store });
    const sent: string[] = [];
    sandboxClient.on('request', (event) => sent.push(event.path));
    const error = await failure(sandboxClient.collection.status('CN-PROD-1'));
    expect(error).toMatchObject({
      code: 'not_visible',
      recordAccount: { environment: 'production' },
      clientAccount: { environment: 'sandbox' },
    });
    expect(sent).toEqual([]);
  });
});
