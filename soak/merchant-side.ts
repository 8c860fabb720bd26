// What every merchant-side process shares: the store, the SDK client on it, and the handlers
// that do the merchant's own work (one row in its own table per run).
import { Pesakit, type ReferenceStore, type TransactionRecord } from 'pesakit';
import { PostgresReferenceStore } from 'pesakit/postgres';
import { SqliteReferenceStore } from 'pesakit/sqlite';
import { credentials } from './accounts.js';
import type { HandlerRuns } from './handler-runs.js';
import type { StoreKind } from './options.js';

export async function openStore(store: StoreKind, location: string): Promise<ReferenceStore> {
  return store === 'sqlite'
    ? await SqliteReferenceStore.open(location)
    : await PostgresReferenceStore.open(location, { maxConnections: 8 });
}

export function soakClient(store: ReferenceStore, sandboxUrl: string, timeoutMs: number): Pesakit {
  return new Pesakit({
    environment: 'sandbox',
    baseUrl: sandboxUrl,
    credentials,
    store,
    timeoutMs,
  });
}

/** The four settlement handlers: each appends one row naming the process that ran it. */
export function handlers(runs: HandlerRuns, instance: string) {
  const run = (handler: string) => async (record: TransactionRecord) => {
    await runs.append({
      merchantReference: record.merchantReference,
      handler,
      status: record.status,
      instance,
      at: Date.now(),
    });
  };
  return {
    onPaid: run('onPaid'),
    onFailed: run('onFailed'),
    onSent: run('onSent'),
    onNotSent: run('onNotSent'),
  };
}
