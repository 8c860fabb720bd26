import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CallbackReceiver } from '../../src/callbacks/receiver.js';
import { Pesakit } from '../../src/client.js';
import {
  type ReferenceStore,
  reportsOf,
  type TransactionRecord,
} from '../../src/references/index.js';
import { createSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { type ReceiverServer, serveReceiver } from '../callbacks/receiver-server.js';

export const accounts = {
  collection: { email: 'shop@verify.tz', password: 'collect-pass-1' },
  disbursement: { email: 'payouts@verify.tz', password: 'payouts-pass-1' },
  airtime: { email: 'airtime@verify.tz', password: 'airtime-pass-1' },
};

/** A merchant's integration on a real store: the SDK, the receiver over HTTP, counted handlers. */
export interface Shop {
  sandbox: Sandbox;
  url: string;
  pesakit: Pesakit;
  receiver: CallbackReceiver;
  callbackUrl: string;
  /** How many times the merchant's own side ran for each merchant reference. */
  runs: Map<string, number>;
  /** Waits until callbacks are delivered and processed and no effect is due or running. */
  quiet(): Promise<void>;
  close(): Promise<void>;
}

export async function openShop(store: ReferenceStore, options: SandboxOptions = {}): Promise<Shop> {
  const sandbox = await createSandbox({
    autoSettle: { delayMs: 20 },
    callbackSchedule: [100, 200],
    seed: {
      accounts: [
        { product: 'collection', ...accounts.collection },
        { product: 'airtime', ...accounts.airtime, status: 'active', balance: 1_000_000 },
        { product: 'disbursement', ...accounts.disbursement, status: 'active', balance: 1_000_000 },
      ],
    },
    ...options,
  });
  const url = await sandbox.listen({ port: 0 });
  const pesakit = new Pesakit({
    environment: 'sandbox',
    baseUrl: url,
    credentials: accounts,
    store,
  });
  const runs = new Map<string, number>();
  const ran = async (record: TransactionRecord | null) => {
    if (record) runs.set(record.merchantReference, (runs.get(record.merchantReference) ?? 0) + 1);
  };
  const receiver = pesakit.createCallbackReceiver({
    onPaid: ran,
    onFailed: ran,
    onSent: ran,
    onNotSent: ran,
    pollIntervalMs: 20,
    effectDrainIntervalMs: 50,
  });
  const server: ReceiverServer = await serveReceiver(receiver);
  receiver.start();
  // A settlement that just fired is on its way to the callback route and the dispatcher, seen by
  // neither counter yet: quiet means nothing moved across two looks 100 ms apart.
  const quiet = async () => {
    const deadline = Date.now() + 30_000;
    let last = '';
    for (;;) {
      await sandbox.idle();
      await receiver.onIdle();
      const busy =
        sandbox.inspect.pendingSettlements() +
        (await store.effects.list('due')).length +
        (await store.effects.list('running')).length;
      const summary = JSON.stringify(await reportsOf(store).summary());
      const seen = `${busy} ${sandbox.inspect.deliveries().length} ${summary}`;
      if (busy === 0 && seen === last) return;
      last = seen;
      if (Date.now() > deadline) throw new Error('the shop never went quiet');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return {
    sandbox,
    url,
    pesakit,
    receiver,
    callbackUrl: `${server.url}/callback`,
    runs,
    quiet,
    async close() {
      await server.close();
      await receiver.close();
      await sandbox.close();
    },
  };
}

/** A merchant endpoint that answers every callback 200 and keeps nothing: a lost callback. */
export async function forgetfulEndpoint(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () =>
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callback`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One of each: collections paid and failed, payouts sent and refused, an airtime purchase. */
export async function cleanRun(shop: Shop): Promise<void> {
  const { pesakit, callbackUrl } = shop;
  const refused = (error: unknown) => {
    if ((error as { status?: number }).status !== 400) throw error;
  };
  await pesakit.collection.initiateMno(
    { amount: 1500, msisdn: '255712345123', callback_url: callbackUrl },
    { merchantReference: 'order-paid' },
  );
  await pesakit.collection.initiateMno(
    { amount: 1600, msisdn: '255712345999', callback_url: callbackUrl },
    { merchantReference: 'order-failed' },
  );
  await pesakit.disbursement.pay(
    { amount: 2000, msisdn: '255713123456', name: 'Neema' },
    { merchantReference: 'payout-sent' },
  );
  await pesakit.disbursement
    .pay(
      { amount: 2100, msisdn: '255713123999', name: 'Juma' },
      { merchantReference: 'payout-refused' },
    )
    .catch(refused);
  await pesakit.airtime.purchase(
    { amount: 500, msisdn: '255754123456' },
    { merchantReference: 'airtime-sent' },
  );
  await shop.quiet();
}
