import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkedReports } from '../../../src/references/checked-parts.js';
import { reportsOf } from '../../../src/references/index.js';
import { listedReports } from '../../../src/references/listed-reports.js';
import type { ReferenceStore, StoreReports } from '../../../src/references/types.js';
import { SqliteReferenceStore } from '../../../src/sqlite.js';
import { moves } from '../../helpers/moves.js';

// A store may leave `reports` out: pesakit computes them from `records.list`. They must say what
// the SQL stores count in SQL, over the same records, whichever page size reads them.

const start = Date.UTC(2026, 11, 1, 8);
let now = start;
let store: SqliteReferenceStore;

beforeAll(async () => {
  store = await SqliteReferenceStore.open(':memory:', { now: () => new Date(now) });
  const outcomes = ['success', 'failed', 'needs_review', 'pending', 'unknown', 'success'] as const;
  for (let i = 0; i < 30; i += 1) {
    const merchantReference = `order-${String(i).padStart(2, '0')}`;
    const msisdn = i % 3 === 0 ? '255754123456' : i % 3 === 1 ? '255654123456' : undefined;
    await store.records.create({
      merchantReference,
      product: i % 2 === 0 ? 'collection' : 'disbursement',
      flow: i % 2 === 0 ? 'mno' : 'disbursement',
      amount: 1000 + i,
      ...(msisdn && { msisdn }),
    });
    now += 7 * 60_000;
    const to = outcomes[i % outcomes.length]!;
    if (i % 7 === 6) continue; // left initiating
    await moves(store).transition(merchantReference, to === 'unknown' ? 'unknown' : 'pending');
    now += (i % 5) * 60_000;
    if (to === 'pending' || to === 'unknown') continue;
    await moves(store).transition(
      merchantReference,
      to,
      to === 'needs_review'
        ? { review: { reason: 'amount_mismatch', message: `paid less on ${merchantReference}` } }
        : {},
    );
  }
});
afterAll(() => store.close());

const listed = (pageSize: number): StoreReports =>
  checkedReports(listedReports(store.records, pageSize), () => new Date(now));

describe('reports computed from records.list', () => {
  for (const pageSize of [1, 4, 10_000]) {
    it(`say what the SQL store counts, read ${pageSize} record(s) a page`, async () => {
      const reports = listed(pageSize);
      expect(await reports.summary()).toEqual(await store.reports.summary());
      for (const options of [{}, { hours: 3 }, { hours: 168, now: new Date(start + 3_600_000) }]) {
        expect(await reports.operations(options)).toEqual(await store.reports.operations(options));
      }
      expect(await reports.review({ limit: 2 })).toEqual(await store.reports.review({ limit: 2 }));
      const after = (await store.reports.review({ limit: 1 }))[0]!.merchantReference;
      expect(await reports.review({ after })).toEqual(await store.reports.review({ after }));
    });
  }

  it('reportsOf gives a store its own reports, and computes them for a store without', async () => {
    expect(reportsOf(store)).toBe(store.reports);
    const bare: Pick<ReferenceStore, 'records'> = { records: store.records };
    const summary = await reportsOf(bare).summary();
    expect(summary).toEqual(await store.reports.summary());
    expect(summary.counts.reduce((sum, { count }) => sum + count, 0)).toBe(30);
    const review = await reportsOf(bare).review();
    expect(review.length).toBeGreaterThan(1);
    expect(review.every((record) => record.status === 'needs_review')).toBe(true);
    expect(review).toEqual(await store.reports.review());
  });

  it('refuses bad options as the SQL store does, naming the field', async () => {
    const refusal = (reports: StoreReports) =>
      reports.operations({ hours: 0 }).catch((error: unknown) => error);
    const [ours, theirs] = [await refusal(listed(4)), await refusal(store.reports)];
    expect(ours).toMatchObject({ name: 'StoreInputError', operation: 'reports.operations' });
    expect(ours).toEqual(theirs);
  });
});
