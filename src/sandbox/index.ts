import type { FastifyInstance } from 'fastify';
import type { Product } from '../schemas/product.js';
import type { Chaos, ChaosEntry } from './chaos/chaos.js';
import { SandboxContext, type StateSnapshot } from './context.js';
import type { DeliveryRecord } from './delivery/dispatcher.js';
import type { FaultSettings } from './delivery/faults.js';
import type { LedgerEntry } from './ledger.js';
import { toShillings } from './money.js';
import { resolveSandboxOptions, type SandboxOptions } from './options.js';
import { buildSandboxApp } from './server.js';
import { createAccount } from './state/account-setup.js';
import { collectionView } from './state/collections.js';
import type { ActedRequest } from './state/journal.js';
import type { SmsMessage } from './state/sms.js';

export type { ChaosEntry } from './chaos/chaos.js';
export {
  type ChaosFault,
  type ChaosOptions,
  chaosFaultNames,
  defaultChaosFaults,
} from './chaos/faults.js';
export { INJECTED_FAULT_HEADER } from './chaos/request-hooks.js';
export type { StateSnapshot } from './context.js';
export type { DeliveryRecord } from './delivery/dispatcher.js';
export type { FaultSettings } from './delivery/faults.js';
export { MERCHANT_REFERENCE_HEADER } from './http/merchant-reference.js';
export type { LedgerEntry } from './ledger.js';
export type { SandboxClock, SandboxOptions, Seed, SeedAccount } from './options.js';
export type { LedgerEntryView } from './routes/ledger-listing.js';
export type { ActedRequest, TransactionKind, TransactionView } from './state/journal.js';
export type { LogPage } from './state/paged-log.js';
export type { SmsMessage } from './state/sms.js';

/** A running (or ready to run) sandbox. */
export interface Sandbox {
  /** The Fastify app, for `app.inject()` or extra routes. */
  readonly app: FastifyInstance;
  /** Listens and resolves with the base URL. @default port 4010, host 127.0.0.1 */
  listen(options?: { port?: number; host?: string }): Promise<string>;
  /** `http://host:port` once listening; throws before. */
  readonly url: string;
  /** Stops listening, cancels settlements and callback deliveries. */
  close(): Promise<void>;
  /** Empties all state and re-applies the seed (the control API's `POST reset`). */
  reset(): Promise<void>;
  /** Resolves when no merchant callback is queued or in flight. */
  idle(): Promise<void>;
  /** Read access for tests and tools; none of it exposes a password or token. */
  readonly inspect: SandboxInspector;
}

/** Read-only views of the sandbox's state. */
export interface SandboxInspector {
  snapshot(): StateSnapshot;
  /** A wallet's balance (TZS) and ledger (cents); `undefined` when there is no such account. */
  wallet(
    product: Exclude<Product, 'collection'>,
    email: string,
  ): { balance: number; ledger: readonly LedgerEntry[] } | undefined;
  collection(refId: string): ReturnType<typeof collectionView> | undefined;
  sms(): readonly SmsMessage[];
  deliveries(): DeliveryRecord[];
  faults(): FaultSettings;
  /** Every money request acted on (the request log), oldest first. */
  requests(): ActedRequest[];
  /** Every fault chaos mode drew so far, oldest first; empty when chaos is off. */
  chaos(): Array<ChaosEntry & { seq: number }>;
  /** Chaos mode's settings, whether it is paused, and how many of each fault it drew. */
  chaosSettings(): ReturnType<Chaos['describe']>;
  /** Settlement timers still waiting (0 after close or reset). */
  pendingSettlements(): number;
}

/** Creates a sandbox of the whole platform (collection, airtime, disbursement) with a control API. */
export async function createSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const resolved = resolveSandboxOptions(options);
  const context = new SandboxContext(resolved);
  // Start-up is a reset: empty books, then the seed.
  const reset = async () => {
    context.clear();
    for (const account of resolved.seed.accounts) {
      await createAccount(context, account, 'control');
    }
  };
  const app = buildSandboxApp(context, reset);
  await reset();
  await app.ready();
  return {
    app,
    async listen({ port = 4010, host = '127.0.0.1' } = {}) {
      await app.listen({ port, host });
      const address = app.server.address();
      const actualPort = typeof address === 'object' && address !== null ? address.port : port;
      const urlHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
      context.selfUrl = `http://${urlHost}:${actualPort}`;
      return context.selfUrl;
    },
    get url() {
      if (context.selfUrl === undefined) throw new Error('The sandbox is not listening yet.');
      return context.selfUrl;
    },
    async close() {
      context.timers.clearAll();
      await context.dispatcher.close();
      await app.close();
    },
    reset,
    idle: () => context.dispatcher.idle(),
    inspect: {
      snapshot: () => context.snapshot(),
      wallet(product, email) {
        const account = context.accounts.find(product, email);
        if (!account) return undefined;
        const wallet = context.wallets.of(product, account.id);
        return { balance: toShillings(wallet.balance), ledger: wallet.entries };
      },
      collection(refId) {
        const record = context.collections.findByRef(refId);
        return record ? collectionView(record) : undefined;
      },
      sms: () => context.sms.list(),
      deliveries: () => context.dispatcher.log(),
      faults: () => context.faults,
      requests: () => context.requests.all(),
      chaos: () => context.chaos.page(0, Number.MAX_SAFE_INTEGER).items,
      chaosSettings: () => context.chaos.describe(),
      pendingSettlements: () => context.timers.pending,
    },
  };
}
