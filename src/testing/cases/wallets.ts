import { isBulkInsufficientFundsError } from '../../errors/bulk-insufficient-funds-error.js';
import { isStoreInputError, type StoreInputError } from '../../errors/store-input-error.js';
import { equal, isError, matches, rejection, truthy } from '../assertions.js';
import { rule } from '../case.js';
import { payout, underpaid } from '../fixtures.js';

const short = (error: unknown) =>
  isError(error, isBulkInsufficientFundsError, 'BulkInsufficientFundsError');

export const walletCases = rule(
  'wallet float: a payout holds its amount plus charge until it is final',
  (it) => {
    it('refuses an intent the free float does not cover, storing nothing', async (t) => {
      const store = await t.open();
      equal(await store.wallets.recordBalance('payouts@duka.co.tz', async () => 2500), {
        balance: 2500,
        reserved: 0,
      });
      await store.records.create(payout('pay-1', 1000, 1100));
      await store.records.create(payout('pay-2', 1000, 1100));
      const refused = await rejection(store.records.create(payout('pay-3', 200, 300.5)));
      short(refused);
      matches(refused, { balance: 300, required: 300.5, shortfall: 0.5 });
      equal(await store.records.get('pay-3'), undefined);
      await store.records.create(payout('pay-4', 200, 300));
      equal(await store.wallets.recordBalance('payouts@duka.co.tz', async () => 2500.5), {
        balance: 2500.5,
        reserved: 2500,
      });
      // Another account's float is its own.
      await store.wallets.recordBalance('other@duka.co.tz', async () => 100);
      short(
        await rejection(
          store.records.create({
            ...payout('pay-5', 50, 150),
            reservation: { account: 'other@duka.co.tz', amount: 150 },
          }),
        ),
      );
    });

    it('failed releases the float, success keeps it as its debit until the next read, pending and unknown keep it', async (t) => {
      const store = await t.open();
      await store.wallets.recordBalance('payouts@duka.co.tz', async () => 10_000);
      for (const reference of ['paid', 'refused', 'waiting', 'lost', 'disputed']) {
        await store.records.create(payout(reference, 1000, 1100));
      }
      await store.transition('paid', 'success');
      await store.transition('refused', 'failed');
      await store.transition('waiting', 'pending');
      await store.transition('lost', 'unknown');
      await store.transition('disputed', 'needs_review', { reason: 'differs', review: underpaid });
      equal(await store.wallets.recordBalance('payouts@duka.co.tz', async () => 8900), {
        balance: 8900,
        reserved: 3300,
      });
      await store.attachAndTransition('waiting', { refid: 'R-9' }, 'success');
      await store.resolve('disputed', 'failed', { note: 'not paid', by: 'ops' });
      await store.transition('lost', 'failed');
      const freed = await store.records.create(payout('next', 7000, 7700));
      equal(freed.status, 'initiating');
      // 8900 read, less the success since (1100), less the new hold: 100 left.
      short(await rejection(store.records.create(payout('over', 1, 101))));
    });

    it('a payout that becomes final while the balance is read counts against what was read', async (t) => {
      const store = await t.open();
      await store.wallets.recordBalance('payouts@duka.co.tz', async () => 10_000);
      await store.records.create(payout('racing', 1000, 1100));
      const state = await store.wallets.recordBalance('payouts@duka.co.tz', async () => {
        // The platform answered the read before this payout's debit; the store saw it after.
        await store.transition('racing', 'success');
        return 10_000;
      });
      equal(state, { balance: 10_000, reserved: 1100 });
      short(await rejection(store.records.create(payout('over', 1, 8901))));
      // The next read shows the debit, and the store no longer counts it.
      equal(await store.wallets.recordBalance('payouts@duka.co.tz', async () => 8900), {
        balance: 8900,
        reserved: 0,
      });
      equal((await store.records.create(payout('all', 8000, 8900))).status, 'initiating');
    });

    it('two balance reads at once each leave a float that is right on its own', async (t) => {
      const store = await t.open();
      await store.wallets.recordBalance('payouts@duka.co.tz', async () => 10_000);
      await store.records.create(payout('held', 1000, 1100));
      await store.records.create(payout('paid', 1000, 1100));
      await store.transition('paid', 'success');
      const inner = store.wallets.recordBalance('payouts@duka.co.tz', async () => 8900);
      // Awaited inside the outer read; marked handled now so that a store failing both calls
      // does not leave an unhandled rejection in the merchant's process.
      inner.catch(() => {});
      const outer = await store.wallets.recordBalance('payouts@duka.co.tz', async () => {
        await inner;
        await store.transition('held', 'failed');
        return 8900;
      });
      equal(outer, { balance: 8900, reserved: 0 });
      equal((await store.records.create(payout('all', 8000, 8900))).status, 'initiating');
    });

    it('refuses a reservation without an account or with a negative balance, naming the field', async (t) => {
      const store = await t.open();
      const bad = await rejection(
        store.records.create({
          ...payout('bad', 10, 110),
          reservation: { account: '', amount: 110 },
        }),
      );
      isError(bad, isStoreInputError, 'StoreInputError');
      truthy(
        Object.hasOwn((bad as StoreInputError).errors ?? {}, 'reservation.account'),
        'the refusal names reservation.account',
      );
      isError(
        await rejection(store.wallets.recordBalance('a', async () => -1)),
        isStoreInputError,
        'StoreInputError',
      );
    });
  },
);
