import { type ReferenceStore, reportsOf, type TransactionRecord } from '../../references/index.js';

/** Every record in `needs_review`, paged by keyset (the queue is people-sized). */
export async function reviewQueue(
  store: Pick<ReferenceStore, 'records' | 'reports'>,
  pageSize = 500,
): Promise<TransactionRecord[]> {
  const reports = reportsOf(store);
  const queue: TransactionRecord[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await reports.review({
      limit: pageSize,
      ...(after !== undefined && { after }),
    });
    queue.push(...page);
    const last = page.at(-1);
    if (page.length < pageSize || last === undefined) return queue;
    after = last.merchantReference;
  }
}
