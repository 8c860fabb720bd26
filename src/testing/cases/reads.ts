import { isReferenceConflictError } from '../../errors/reference-conflict-error.js';
import { isStoreInputError, type StoreInputError } from '../../errors/store-input-error.js';
import type { ListOpenOptions } from '../../references/types.js';
import { equal, isError, messageMatches, rejection } from '../assertions.js';
import { type CaseContext, rule } from '../case.js';
import { checkAt, intent } from '../fixtures.js';
import type { StoreCalls } from '../store-calls.js';

/** Six records, one a second apart: a pending, b unknown, c initiating, d success, e failed, f pending. */
async function seed(store: StoreCalls, t: CaseContext) {
  for (const [reference, status, product] of [
    ['a', 'pending', 'collection'],
    ['b', 'unknown', 'airtime'],
    ['c', 'initiating', 'collection'],
    ['d', 'success', 'collection'],
    ['e', 'failed', 'disbursement'],
    ['f', 'pending', 'disbursement'],
  ] as const) {
    const flow =
      product === 'collection'
        ? 'mno'
        : product === 'airtime'
          ? 'airtime_purchase'
          : 'disbursement';
    await store.records.create(intent(reference, { product, flow }));
    if (status !== 'initiating') await store.transition(reference, status);
    t.clock.advance(1000);
  }
}

export const readCases = [
  ...rule('reports.summary counts records by product and status', (it) => {
    it('counts each product and status, and names the oldest open record', {
      clock: true,
    }, async (t) => {
      const store = await t.open();
      equal(await store.reports.summary(), { counts: [], oldestOpenAt: null });
      await store.records.create(intent('order-1'));
      t.clock.advance(1000);
      await store.records.create(intent('order-2'));
      await store.records.create(
        intent('payout-1', { product: 'disbursement', flow: 'disbursement' }),
      );
      await store.transition('order-1', 'success');
      await store.transition('payout-1', 'unknown');
      equal(await store.reports.summary(), {
        counts: [
          { product: 'collection', status: 'initiating', count: 1 },
          { product: 'collection', status: 'success', count: 1 },
          { product: 'disbursement', status: 'unknown', count: 1 },
        ],
        oldestOpenAt: t.clock.at(1000),
      });
    });
  }),

  ...rule('the reconciler lists open records, least recently checked first', (it) => {
    it('lists only open statuses by default: never checked first, then by creation', {
      clock: true,
    }, async (t) => {
      const store = await t.open();
      await seed(store, t);
      await checkAt(store, 'a', t.clock.at(60_000));
      await checkAt(store, 'f', t.clock.at(30_000));
      const listed = await store.records.list();
      equal(
        listed.map((record) => record.merchantReference),
        ['b', 'c', 'f', 'a'],
      );
    });

    it('filters by status, product, check time and limit', { clock: true }, async (t) => {
      const store = await t.open();
      await seed(store, t);
      await checkAt(store, 'a', t.clock.at(60_000));
      await checkAt(store, 'f', t.clock.at(30_000));
      const refs = async (options: ListOpenOptions) =>
        (await store.records.list(options)).map((record) => record.merchantReference);
      equal(await refs({ statuses: ['success', 'failed'] }), ['d', 'e']);
      equal(await refs({ product: 'disbursement' }), ['f']);
      equal(await refs({ checkedBefore: t.clock.at(60_000) }), ['b', 'c', 'f']);
      equal(await refs({ limit: 2 }), ['b', 'c']);
    });

    it('oldestFirst lists by creation for a person, checks or not', { clock: true }, async (t) => {
      const store = await t.open();
      await seed(store, t);
      await checkAt(store, 'a', t.clock.at(60_000));
      const listed = await store.records.list({ oldestFirst: true, limit: 2 });
      equal(
        listed.map((record) => record.merchantReference),
        ['a', 'b'],
      );
      isError(
        await rejection(store.records.list({ oldestFirst: 1 as never })),
        isStoreInputError,
        'StoreInputError',
      );
    });

    it('oldestFirst pages after the last record of a page, ties broken by reference', {
      clock: true,
    }, async (t) => {
      const store = await t.open();
      await seed(store, t);
      // Two records created in the same instant: the reference orders them.
      for (const reference of ['h', 'g']) await store.records.create(intent(reference));
      const page = async (after?: { createdAt: Date; merchantReference: string }) =>
        (
          await store.records.list({
            oldestFirst: true,
            limit: 2,
            statuses: ['initiating', 'pending', 'unknown', 'success'],
            ...(after && { after }),
          })
        ).map((record) => record.merchantReference);
      equal(await page(), ['a', 'b']);
      const at = async (reference: string) => {
        const record = await store.records.get(reference);
        if (record === undefined) throw new Error(`${reference} is not stored`);
        return record;
      };
      equal(await page(await at('b')), ['c', 'd']);
      equal(await page(await at('d')), ['f', 'g']);
      equal(await page(await at('g')), ['h']);
      const error = await rejection(store.records.list({ after: await at('b') }));
      isError(error, isStoreInputError, 'StoreInputError');
      messageMatches((error as StoreInputError).errors['after']?.[0] ?? '', /oldestFirst: true/);
    });
  }),

  ...rule('records outlive the store that wrote them', (it) => {
    it('another handle, after a restart, finds the transaction by any of its references', {
      restart: true,
    }, async (t) => {
      const store = await t.open();
      await store.records.create(
        intent('order-1', {
          amount: 1234.56,
          metadata: { orderId: 'A-1' },
          account: { environment: 'production', login: 'shop@duka.co.tz' },
        }),
      );
      await store.attachReferences('order-1', {
        controlNumber: 'CN-1',
        paymentReference: 'ENG-1',
        externalReference: 'EXT-1',
        txnid: 'T-1',
        refid: 'R-1',
      });
      const { record } = await store.transition('order-1', 'pending', { payload: { ok: true } });
      await store.close();

      const again = await t.another();
      for (const value of ['order-1', 'CN-1', 'ENG-1', 'EXT-1', 'T-1', 'R-1']) {
        equal(
          await again.records.find({ value: value }),
          record,
          `records.find({ value: '${value}' }) after a restart`,
        );
      }
      equal(
        (await again.records.list()).map((open) => open.merchantReference),
        ['order-1'],
      );
      isError(
        await rejection(again.attachReferences('order-1', { txnid: 'T-2' })),
        isReferenceConflictError,
        'ReferenceConflictError',
      );
    });
  }),

  ...rule('reports.operations: finals per hour and each operator over the last day', (it) => {
    it('counts finals per hour and status, zeros included, and each provider from its own records', {
      clock: true,
    }, async (t) => {
      const store = await t.open();
      for (const reference of ['v1', 'v2', 'v3']) await store.records.create(intent(reference));
      const { msisdn: _none, ...bank } = intent('b1', { flow: 'bank' });
      await store.records.create(bank);
      t.clock.advance(60_000);
      await store.transition('v1', 'success');
      t.clock.advance(60_000);
      await store.transition('v2', 'failed');
      await store.transition('b1', 'success');
      t.clock.advance(2 * 3_600_000);
      await store.transition('v3', 'success');
      await store.records.create(intent('still-open'));
      const hour = (h: number) => t.clock.at(h * 3_600_000);
      const report = await store.reports.operations({ hours: 3 });
      equal(report.finals, [
        { hour: hour(0), status: 'success', count: 2 },
        { hour: hour(0), status: 'failed', count: 1 },
        { hour: hour(1), status: 'success', count: 0 },
        { hour: hour(1), status: 'failed', count: 0 },
        { hour: hour(2), status: 'success', count: 1 },
        { hour: hour(2), status: 'failed', count: 0 },
      ]);
      equal(report.providers, [
        {
          provider: 'vodacom',
          finals: 3,
          successes: 2,
          successRate: 2 / 3,
          medianMsToFinal: 120_000,
        },
        { provider: null, finals: 1, successes: 1, successRate: 1, medianMsToFinal: 120_000 },
      ]);
      const earlier = await store.reports.operations({ now: t.clock.at(30_000), hours: 1 });
      equal(earlier, {
        finals: [
          { hour: hour(0), status: 'success', count: 0 },
          { hour: hour(0), status: 'failed', count: 0 },
        ],
        providers: [],
      });
    });

    it('refuses a window that is not 1 to 168 whole hours, naming hours', async (t) => {
      const store = await t.open();
      for (const hours of [0, 169, 1.5]) {
        const error = await rejection(store.reports.operations({ hours }));
        isError(error, isStoreInputError, 'StoreInputError');
        messageMatches(String((error as StoreInputError).errors['hours']?.[0]), /from 1 to 168/);
      }
    });
  }),
];
