import type {
  ActedRequest,
  DeliveryRecord,
  LedgerEntryView,
  TransactionView,
} from '../sandbox/index.js';

/** Where the sandbox is, and the control key when it needs one. */
export interface SandboxLocation {
  url: string;
  controlKey?: string;
}

/** What the sandbox holds: the platform's truth the verifier checks a store against. */
export interface SandboxTruth {
  transactions: TransactionView[];
  requests: Array<ActedRequest & { seq: number }>;
  deliveries: DeliveryRecord[];
  ledger: LedgerEntryView[];
  /** Entries each log lost to the sandbox's `logLimit`: a log that lost any is incomplete. */
  dropped: { requests: number; deliveries: number };
}

const PAGE = 10_000;

/** Reads every page of the control API's listings. */
export async function readSandboxTruth(
  location: SandboxLocation,
  fetchImpl: typeof fetch = globalThis.fetch,
): Promise<SandboxTruth> {
  const base = `${location.url.replace(/\/+$/, '')}/api/sandbox/_control`;
  const headers: Record<string, string> =
    location.controlKey === undefined ? {} : { 'x-control-key': location.controlKey };
  async function all<T>(path: string, field: string): Promise<{ items: T[]; dropped: number }> {
    const items: T[] = [];
    let after = 0;
    let dropped = 0;
    for (;;) {
      const response = await fetchImpl(`${base}/${path}?after=${after}&limit=${PAGE}`, {
        headers,
      });
      const text = await response.text();
      if (!response.ok) {
        throw new Error(
          `The sandbox answered ${response.status} to GET ${base}/${path}: ${text.slice(0, 300)}`,
        );
      }
      const page = JSON.parse(text) as Record<string, unknown> & {
        next: number | null;
        dropped: number;
      };
      items.push(...(page[field] as T[]));
      dropped = page.dropped;
      if (page.next === null) return { items, dropped };
      after = page.next;
    }
  }
  const [transactions, requests, deliveries, ledger] = await Promise.all([
    all<TransactionView>('transactions', 'transactions'),
    all<ActedRequest & { seq: number }>('requests', 'requests'),
    all<DeliveryRecord>('deliveries', 'deliveries'),
    all<LedgerEntryView>('ledger', 'entries'),
  ]);
  return {
    transactions: transactions.items,
    requests: requests.items,
    deliveries: deliveries.items,
    ledger: ledger.items,
    dropped: { requests: requests.dropped, deliveries: deliveries.dropped },
  };
}
