import { join } from 'node:path';
import { Pesakit } from '../../src/client.js';
import { SqliteReferenceStore } from '../../src/references/sqlite-store.js';
import { createSandbox, type Sandbox } from '../../src/sandbox/index.js';
import { temporaryDirectory } from './harness.js';

export const accounts = {
  collection: { email: 'shop@reconcile.tz', password: 'collect-pass-1' },
  disbursement: { email: 'payouts@reconcile.tz', password: 'payouts-pass-1' },
  airtime: { email: 'airtime@reconcile.tz', password: 'airtime-pass-1' },
};

/** The environment a scheduled job gets: every credential, nothing on the command line. */
export function credentialEnv(url: string): Record<string, string> {
  return {
    PESAKIT_BASE_URL: url,
    PESAKIT_COLLECTION_EMAIL: accounts.collection.email,
    PESAKIT_COLLECTION_PASSWORD: accounts.collection.password,
    PESAKIT_DISBURSEMENT_EMAIL: accounts.disbursement.email,
    PESAKIT_DISBURSEMENT_PASSWORD: accounts.disbursement.password,
    PESAKIT_AIRTIME_EMAIL: accounts.airtime.email,
    PESAKIT_AIRTIME_PASSWORD: accounts.airtime.password,
  };
}

/**
 * A real sandbox on port 0 (phone payments ending 998 never settle by themselves, so a test
 * decides when and how they do) and a shop writing to a SQLite file through the SDK.
 */
export async function startShop() {
  const sandbox: Sandbox = await createSandbox({
    autoSettle: { delayMs: 50 },
    seed: {
      accounts: [
        { product: 'collection', ...accounts.collection },
        { product: 'disbursement', ...accounts.disbursement, status: 'active', balance: 5_000_000 },
        { product: 'airtime', ...accounts.airtime, status: 'active', balance: 5_000_000 },
      ],
    },
  });
  const url = await sandbox.listen({ port: 0 });
  const directory = temporaryDirectory();
  const file = join(directory.path, 'shop.sqlite');
  const store = await SqliteReferenceStore.open(file);
  const pesakit = new Pesakit({
    environment: 'sandbox',
    baseUrl: url,
    credentials: accounts,
    store,
  });
  const control = async (path: string, body?: unknown) => {
    const response = await fetch(`${url}/api/sandbox/_control/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body ?? {}),
    });
    return response.json() as Promise<Record<string, unknown>>;
  };
  return {
    sandbox,
    url,
    file,
    store,
    pesakit,
    control,
    /** A phone payment left pending at the platform (its callback never reached the shop). */
    async pendingCollection(amount = 15_000) {
      return pesakit.collection.initiateMno({ amount, msisdn: '255754321998' });
    },
    /**
     * The engine reports a payment of `paidAmount` for the collection — the customer paid less
     * than the order — through the sandbox's own engine callback route.
     */
    async payShort(payment: { reference: string }, paidAmount: number) {
      const date = new Date().toISOString().slice(0, 19).replace('T', ' ');
      const response = await fetch(`${url}/api/sandbox/callback`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          message: 'Payment successful',
          code: '200',
          status: true,
          description: 'Payment received.',
          data: {
            providerType: 'MNO',
            providerName: 'Vodacom',
            amount: paidAmount,
            paymentReference: payment.reference,
            payerMobile: '255754321998',
            transactionDate: date,
            transactionID: `TX${Date.now()}`,
            transactionChannel: 'USSD',
          },
        }),
      });
      if (!response.ok)
        throw new Error(`engine callback: ${response.status} ${await response.text()}`);
    },
    async close() {
      await store.close().catch(() => undefined);
      await sandbox.close();
      directory.remove();
    },
  };
}
