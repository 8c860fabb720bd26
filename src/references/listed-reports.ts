import { checkedReports, type ReportsPart } from './checked-parts.js';
import { talliesOfRows } from './operations-report.js';
import type { TransactionRecord } from './record.js';
import { summarizeRecords } from './summary.js';
import { transactionStatuses } from './transitions.js';
import type { ReferenceStore, StoreReports, TransactionRecords } from './types.js';

/** The largest page `records.list` gives. */
const largestPage = 10_000;

/**
 * A store's reports: its own when it counts them itself (the SQL stores), else computed from
 * `records.list` — every record read once per report, which a store of a few hundred thousand
 * records can afford; a larger one should count in its database.
 */
export function reportsOf(store: Pick<ReferenceStore, 'records' | 'reports'>): StoreReports {
  return store.reports ?? checkedReports(listedReports(store.records), () => new Date());
}

/** The reports of any store, read page by page through `records.list`, oldest first. */
export function listedReports(
  records: Pick<TransactionRecords, 'list'>,
  pageSize = largestPage,
): ReportsPart {
  async function everyRecord(statuses: TransactionRecord['status'][]) {
    const all: TransactionRecord[] = [];
    for (let after: TransactionRecord | undefined; ; ) {
      const page = await records.list({
        statuses,
        oldestFirst: true,
        limit: pageSize,
        ...(after && {
          after: { createdAt: after.createdAt, merchantReference: after.merchantReference },
        }),
      });
      all.push(...page);
      if (page.length < pageSize) return all;
      after = page.at(-1);
    }
  }
  return {
    summary: async () => summarizeRecords(await everyRecord([...transactionStatuses])),
    operations: async (window) => {
      const from = Math.min(window.chartFrom, window.dayAgo);
      const finals = await everyRecord([...transactionStatuses]);
      const rows = finals.flatMap(({ status, provider, createdAt, finalAt }) =>
        finalAt && finalAt.getTime() >= from ? [{ status, provider, createdAt, finalAt }] : [],
      );
      return talliesOfRows(rows, window);
    },
    review: async (limit, after) =>
      (await everyRecord(['needs_review']))
        .filter(({ merchantReference }) => after === undefined || merchantReference > after)
        .sort((a, b) => (a.merchantReference < b.merchantReference ? -1 : 1))
        .slice(0, limit),
  };
}
