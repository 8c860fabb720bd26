import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { isBulkInsufficientFundsError } from '../../src/errors/bulk-insufficient-funds-error.js';
import { isDuplicateReferenceError } from '../../src/errors/duplicate-reference-error.js';
import { isInvalidTransitionError } from '../../src/errors/invalid-transition-error.js';
import {
  isReferenceConflictError,
  type ReferenceConflictError,
} from '../../src/errors/reference-conflict-error.js';
import { isStoreInputError, type StoreInputError } from '../../src/errors/store-input-error.js';
import { isTransactionNotFoundError } from '../../src/errors/transaction-not-found-error.js';
import {
  allowedTransitions,
  type ReferenceStore,
  type TransactionIntent,
  type TransactionStatus,
  type TransitionDetails,
  transactionStatuses,
} from '../../src/references/index.js';
import type { ReviewVerdict } from '../../src/references/review.js';
import { describeAttachAndTransition } from './answer-write-conformance.js';
import { failure } from './failure.js';
import { describeReviewAndEffects } from './review-effects-conformance.js';

/** How the conformance suite gets stores of one kind. */
export interface ReferenceStoreHarness {
  /** A fresh, empty store using `now` as its clock. */
  open(options: { now: () => Date }): Promise<ReferenceStore>;
  /**
   * Another handle on the data of the store last opened — after closing it (a process restart)
   * or alongside it (another process). Absent for stores that do not persist.
   */
  reopen?(options: { now: () => Date }): Promise<ReferenceStore>;
  /** Releases what the harness created (databases, files). */
  dispose?(): Promise<void>;
}

const start = Date.parse('2025-03-01T08:00:00.000Z');

/** A clock tests move by hand: no sleeps, exact timestamps. */
function manualClock() {
  let now = start;
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}

function intent(
  merchantReference: string,
  extra: Partial<TransactionIntent> = {},
): TransactionIntent {
  return {
    merchantReference,
    product: 'collection',
    flow: 'mno',
    amount: 5000,
    msisdn: '255754123456',
    ...extra,
  };
}

const verdict: ReviewVerdict = {
  reason: 'amount_mismatch',
  message: 'The platform says 150 TZS were paid for a 5000 TZS order.',
  evidence: { paid_amount: 150, at: '2025-03-01 08:00:00' },
};

/** Transition details that every move accepts: a move to needs_review must say why. */
function details(to: TransactionStatus, reason: string): TransitionDetails {
  return to === 'needs_review' ? { reason, review: verdict } : { reason };
}

/** Any status is reachable from `initiating` in at most one step. */
async function recordIn(store: ReferenceStore, reference: string, status: TransactionStatus) {
  await store.createIntent(intent(reference));
  if (status !== 'initiating') await store.transition(reference, status, details(status, 'set up'));
  return (await store.get(reference))!;
}

/**
 * The one suite every ReferenceStore must pass (memory, SQLite, PostgreSQL), one `describe`
 * per rule of the store's contract (docs/reference-store.md).
 */
export function describeReferenceStore(name: string, harness: ReferenceStoreHarness): void {
  describe(`${name} reference store`, () => {
    const opened: ReferenceStore[] = [];
    let clock = manualClock();

    async function open(): Promise<ReferenceStore> {
      clock = manualClock();
      const store = await harness.open({ now: clock.now });
      opened.push(store);
      return store;
    }

    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });
    afterAll(async () => {
      await harness.dispose?.();
    });

    describe('write-ahead: the intent is stored as initiating before anything is sent', () => {
      it('stores the intent with every reference empty and the clock time', async () => {
        const store = await open();
        const record = await store.createIntent(
          intent('order-1', { metadata: { orderId: 'A-17', customer: 'Neema' } }),
        );
        expect(record).toEqual({
          merchantReference: 'order-1',
          product: 'collection',
          flow: 'mno',
          amount: 5000,
          msisdn: '255754123456',
          provider: 'vodacom',
          status: 'initiating',
          statusReason: null,
          controlNumber: null,
          paymentReference: null,
          externalReference: null,
          txnid: null,
          refid: null,
          createdAt: new Date(start),
          updatedAt: new Date(start),
          attemptedAt: null,
          finalAt: null,
          lastCheckedAt: null,
          checkCount: 0,
          lastPayload: null,
          metadata: { orderId: 'A-17', customer: 'Neema' },
          account: null,
          review: null,
          resolution: null,
          effect: { status: 'none', attempts: 0, dueAt: null, lastError: null, completedAt: null },
        });
        expect(await store.get('order-1')).toEqual(record);
      });

      it('stores an intent without an MSISDN (secure checkout) with msisdn null', async () => {
        const store = await open();
        const { msisdn: _omitted, ...withoutMsisdn } = intent('checkout-1', { flow: 'secure' });
        const record = await store.createIntent(withoutMsisdn);
        expect(record.msisdn).toBeNull();
        expect(record.metadata).toEqual({});
      });

      it('refuses a second intent under the same merchant reference and keeps the first', async () => {
        const store = await open();
        const first = await store.createIntent(intent('order-1'));
        const error = await failure(store.createIntent(intent('order-1', { amount: 9999 })));
        expect(isDuplicateReferenceError(error)).toBe(true);
        expect((error as Error).message).toContain('order-1');
        expect(await store.get('order-1')).toEqual(first);
      });
    });

    describe("the record keeps the account it was sent with, and nothing else of the client's", () => {
      it('reads the account back through every read, unchanged by later writes', async () => {
        const store = await open();
        const account = { environment: 'production', login: 'shop@duka.co.tz' } as const;
        const created = await store.createIntent(intent('order-1', { account }));
        expect(created.account).toEqual(account);
        await store.attachAndTransition('order-1', { controlNumber: 'CN-1' }, 'pending');
        const { record } = await store.transition('order-1', 'needs_review', {
          review: verdict,
        });
        expect(record.account).toEqual(account);
        expect(await store.get('order-1')).toEqual(record);
        expect(await store.findByReference('CN-1')).toEqual(record);
        expect((await store.getMany(['order-1']))[0]).toEqual(record);
        expect((await store.listReview())[0]?.account).toEqual(account);
      });

      it('keeps a login of null (a request without a login) and lower-cases a login', async () => {
        const store = await open();
        const sandbox = { environment: 'sandbox', login: null } as const;
        await store.createIntent(intent('checkout-1', { flow: 'secure', account: sandbox }));
        await store.createIntent(
          intent('order-2', { account: { environment: 'sandbox', login: 'Shop@Duka.co.TZ' } }),
        );
        expect((await store.get('checkout-1'))?.account).toEqual(sandbox);
        expect((await store.get('order-2'))?.account).toEqual({
          environment: 'sandbox',
          login: 'shop@duka.co.tz',
        });
        const leased = await store.leaseDue({ limit: 10, leaseMs: 60_000, force: true });
        expect(leased.map(({ record }) => record.account)).toEqual(
          expect.arrayContaining([sandbox, { environment: 'sandbox', login: 'shop@duka.co.tz' }]),
        );
      });

      it('stores no other key of the account given (a password is never kept)', async () => {
        const store = await open();
        const given = { environment: 'sandbox', login: 'shop@duka.co.tz', password: 'hunter22' };
        await store.createIntent(intent('order-1', { account: given as never }));
        const record = await store.get('order-1');
        expect(record?.account).toEqual({ environment: 'sandbox', login: 'shop@duka.co.tz' });
        expect(JSON.stringify(record)).not.toContain('hunter22');
      });

      it.each([
        ['another environment', { environment: 'staging', login: 'a@b.tz' }, 'account.environment'],
        ['an empty login', { environment: 'sandbox', login: '' }, 'account.login'],
        [
          'a login with spaces around it',
          { environment: 'sandbox', login: ' a@b.tz' },
          'account.login',
        ],
        [
          'a login with a line break',
          { environment: 'sandbox', login: 'a@b.tz\n' },
          'account.login',
        ],
        ['no login at all', { environment: 'sandbox' }, 'account.login'],
      ])(
        'createIntent refuses an account with %s, naming the field',
        async (_case, account, field) => {
          const store = await open();
          const error = await failure(
            store.createIntent(intent('order-1', { account: account as never })),
          );
          expect(isStoreInputError(error)).toBe(true);
          expect(Object.keys((error as StoreInputError).errors)).toContain(field);
          expect(await store.get('order-1')).toBeUndefined();
        },
      );
    });

    describe('amounts are stored exactly', () => {
      it.each([0.01, 0.1, 0.3, 10.1, 999.99, 1234567.89, 50_000_000])(
        'reads %s back unchanged',
        async (amount) => {
          const store = await open();
          await store.createIntent(intent('order-1', { amount }));
          expect((await store.get('order-1'))?.amount).toBe(amount);
        },
      );
    });

    describe('bad input gets a clear error naming the field, and stores nothing', () => {
      const badIntents: Array<[string, Partial<TransactionIntent>, string]> = [
        ['an empty merchant reference', { merchantReference: '' }, 'merchantReference'],
        [
          'a merchant reference with spaces around it',
          { merchantReference: ' x ' },
          'merchantReference',
        ],
        ['a negative amount', { amount: -5 }, 'amount'],
        ['a zero amount', { amount: 0 }, 'amount'],
        ['an amount with three decimals', { amount: 10.005 }, 'amount'],
        ['an amount that is not a number', { amount: Number.NaN }, 'amount'],
        ['an MSISDN not 255 + nine digits', { msisdn: '0754123456' }, 'msisdn'],
        ['an unknown product', { product: 'lending' as never }, 'product'],
        ['a flow of another product', { flow: 'disbursement' }, 'flow'],
        ['metadata with a non-string value', { metadata: { n: 1 as never } }, 'metadata'],
      ];
      it.each(badIntents)('createIntent refuses %s', async (_case, change, field) => {
        const store = await open();
        const bad = { ...intent('order-1'), ...change };
        const error = await failure(store.createIntent(bad));
        expect(isStoreInputError(error)).toBe(true);
        const fieldErrors = (error as StoreInputError).errors;
        expect(Object.keys(fieldErrors).some((key) => key.startsWith(field))).toBe(true);
        expect((error as Error).message).toContain(field);
        expect((error as Error).message).toContain('Nothing was changed');
        expect(await store.listOpen()).toEqual([]);
        expect(await store.findByReference(bad.merchantReference)).toBeUndefined();
      });

      it('attachReferences refuses an empty or unknown reference kind and changes nothing', async () => {
        const store = await open();
        const before = await store.createIntent(intent('order-1'));
        for (const refs of [
          { controlNumber: '' },
          { controlNumber: 'CN 1 ' },
          { reference: 'x' },
        ]) {
          const error = await failure(store.attachReferences('order-1', refs as never));
          expect(isStoreInputError(error)).toBe(true);
        }
        expect(await store.get('order-1')).toEqual(before);
      });

      it('transition refuses an unknown status, a bad date or an unserialisable payload', async () => {
        const store = await open();
        const before = await store.createIntent(intent('order-1'));
        const attempts = [
          () => store.transition('order-1', 'settled' as never),
          () => store.transition('order-1', 'success', { at: new Date(Number.NaN) }),
          () => store.transition('order-1', 'success', { payload: { amount: 10n } }),
        ];
        for (const attempt of attempts) {
          const error = await failure(attempt());
          expect(isStoreInputError(error)).toBe(true);
        }
        expect(await store.get('order-1')).toEqual(before);
      });

      it('null or a misspelt field where a JavaScript caller should pass an object is a StoreInputError naming it', async () => {
        const store = await open();
        const before = await store.createIntent(intent('order-1'));
        const attempts: Array<[() => Promise<unknown>, string]> = [
          [() => store.transition('order-1', 'pending', null as never), 'details'],
          [() => store.attachAndTransition('order-1', {}, 'pending', null as never), 'details'],
          [() => store.find(null as never), 'by'],
          [() => store.find({ field: 'controlnumber' as never, value: 'CN-1' }), 'by.field'],
          [() => store.listEffects('x' as never), 'status'],
        ];
        for (const [attempt, field] of attempts) {
          const error = await failure(attempt());
          expect(isStoreInputError(error)).toBe(true);
          expect(Object.keys((error as StoreInputError).errors)).toEqual([field]);
        }
        expect(await store.get('order-1')).toEqual(before);
      });

      it('listOpen refuses a limit below 1 and an empty status list', async () => {
        const store = await open();
        expect(isStoreInputError(await failure(store.listOpen({ limit: 0 })))).toBe(true);
        expect(isStoreInputError(await failure(store.listOpen({ statuses: [] })))).toBe(true);
      });
    });

    describe('changes need a stored record', () => {
      it('attachReferences, transition and recordCheck on an unknown reference fail', async () => {
        const store = await open();
        const attempts = [
          () => store.attachReferences('missing', { controlNumber: 'CN-1' }),
          () => store.transition('missing', 'pending'),
          () => store.recordCheck('missing'),
        ];
        for (const attempt of attempts) {
          expect(isTransactionNotFoundError(await failure(attempt()))).toBe(true);
        }
        expect(await store.findByReference('CN-1')).toBeUndefined();
      });
    });

    describe('a record can be found by any of its references', () => {
      const refs = {
        controlNumber: '991100223344',
        paymentReference: 'ENG-77881',
        externalReference: 'ext-4f2a',
        txnid: 'TXN-0001',
        refid: 'REF-0001',
      } as const;

      it('finds by the merchant reference and by every platform reference', async () => {
        const store = await open();
        await store.createIntent(intent('order-1'));
        await store.createIntent(intent('order-2'));
        const attached = await store.attachReferences('order-1', refs);
        expect(attached).toMatchObject(refs);
        for (const value of ['order-1', ...Object.values(refs)]) {
          expect((await store.findByReference(value))?.merchantReference).toBe('order-1');
        }
        for (const [field, value] of Object.entries(refs)) {
          const found = await store.find({ field: field as keyof typeof refs, value });
          expect(found?.merchantReference).toBe('order-1');
        }
        expect(
          (await store.find({ field: 'merchantReference', value: 'order-2' }))?.merchantReference,
        ).toBe('order-2');
      });

      it('answers undefined for an unknown reference, a wrong kind, or a value no reference can be', async () => {
        const store = await open();
        await store.createIntent(intent('order-1'));
        await store.attachReferences('order-1', { controlNumber: 'CN-1' });
        expect(await store.findByReference('CN-2')).toBeUndefined();
        expect(await store.find({ field: 'txnid', value: 'CN-1' })).toBeUndefined();
        expect(await store.findByReference('')).toBeUndefined();
        expect(await store.get('CN-1')).toBeUndefined();
      });

      it('getMany reads many merchant references at once, in the order asked', async () => {
        const store = await open();
        for (const reference of ['row:1', 'row:2', 'row:3']) {
          await store.createIntent(intent(reference));
        }
        await store.attachReferences('row:2', { controlNumber: 'CN-2' });
        const found = await store.getMany(['row:3', 'row:9', 'CN-2', '', 'row:1', 'row:3']);
        expect(found.map((record) => record?.merchantReference)).toEqual([
          'row:3',
          undefined,
          undefined,
          undefined,
          'row:1',
          'row:3',
        ]);
        expect(found[0]).toEqual(await store.get('row:3'));
        expect(await store.getMany([])).toEqual([]);
        const asked = Array.from({ length: 1000 }, (_, index) => `row:${index + 1}`);
        expect((await store.getMany(asked)).filter(Boolean)).toHaveLength(3);
      });

      it('getMany refuses more than 1,000 references or a list that is not one, naming the field', async () => {
        const store = await open();
        const tooMany = await failure(
          store.getMany(Array.from({ length: 1001 }, (_, index) => `row:${index}`)),
        );
        expect(isStoreInputError(tooMany)).toBe(true);
        expect((tooMany as StoreInputError).errors['merchantReferences']?.[0]).toMatch(
          /at most 1000/,
        );
        const notList = await failure(store.getMany('row:1' as unknown as string[]));
        expect((notList as StoreInputError).errors).toHaveProperty(['merchantReferences']);
        const notText = await failure(store.getMany([7 as unknown as string]));
        expect((notText as StoreInputError).errors).toHaveProperty(['merchantReferences.0']);
      });
    });

    describe('references never change once known', () => {
      it('attaching the same value again is a no-op', async () => {
        const store = await open();
        await store.createIntent(intent('order-1'));
        const first = await store.attachReferences('order-1', { controlNumber: 'CN-1' });
        clock.advance(1000);
        const again = await store.attachReferences('order-1', { controlNumber: 'CN-1' });
        expect(again).toEqual(first);
        expect(again.updatedAt).toEqual(new Date(start));
      });

      it('references arrive in several steps', async () => {
        const store = await open();
        await store.createIntent(intent('order-1'));
        await store.attachReferences('order-1', { externalReference: 'ext-1' });
        clock.advance(1000);
        const record = await store.attachReferences('order-1', {
          externalReference: 'ext-1',
          controlNumber: 'CN-1',
        });
        expect(record).toMatchObject({ externalReference: 'ext-1', controlNumber: 'CN-1' });
        expect(record.updatedAt).toEqual(new Date(start + 1000));
      });

      it('a different value for a known field is a conflict, and nothing is attached', async () => {
        const store = await open();
        await store.createIntent(intent('order-1'));
        const before = await store.attachReferences('order-1', { controlNumber: 'CN-1' });
        const error = await failure(
          store.attachReferences('order-1', { paymentReference: 'ENG-1', controlNumber: 'CN-2' }),
        );
        expect(isReferenceConflictError(error)).toBe(true);
        expect(error).toMatchObject({
          merchantReference: 'order-1',
          field: 'controlNumber',
          existing: 'CN-1',
          attempted: 'CN-2',
        });
        expect(await store.get('order-1')).toEqual(before);
        expect(await store.findByReference('ENG-1')).toBeUndefined();
      });

      it('a value another record owns is a conflict naming the owner; nothing half-written', async () => {
        const store = await open();
        await store.createIntent(intent('order-1'));
        await store.createIntent(intent('order-2'));
        // The owned value comes last in field order, so a store that wrote as it checked would
        // already have written controlNumber CN-2 when it found the conflict.
        await store.attachReferences('order-1', { refid: 'R-1' });
        const before = await store.get('order-2');
        const error = await failure(
          store.attachReferences('order-2', { controlNumber: 'CN-2', refid: 'R-1' }),
        );
        expect(isReferenceConflictError(error)).toBe(true);
        expect((error as ReferenceConflictError).message).toContain('order-1');
        expect(await store.get('order-2')).toEqual(before);
        expect(await store.findByReference('CN-2')).toBeUndefined();
        expect((await store.findByReference('R-1'))?.merchantReference).toBe('order-1');
      });

      it('a value owned under another kind, or as a merchant reference, is a conflict too', async () => {
        const store = await open();
        await store.createIntent(intent('order-1'));
        await store.createIntent(intent('order-2'));
        await store.attachReferences('order-1', { txnid: 'SHARED-1' });
        for (const refs of [{ controlNumber: 'SHARED-1' }, { paymentReference: 'order-1' }]) {
          const error = await failure(store.attachReferences('order-2', refs));
          expect(isReferenceConflictError(error)).toBe(true);
        }
        expect((await store.get('order-2'))?.controlNumber).toBeNull();
        expect((await store.get('order-2'))?.paymentReference).toBeNull();
      });

      it('one record may hold the same value under two kinds', async () => {
        const store = await open();
        await store.createIntent(
          intent('payout-1', { product: 'disbursement', flow: 'disbursement' }),
        );
        const record = await store.attachReferences('payout-1', { txnid: 'P-1', refid: 'P-1' });
        expect(record).toMatchObject({ txnid: 'P-1', refid: 'P-1' });
        expect((await store.findByReference('P-1'))?.merchantReference).toBe('payout-1');
      });
    });

    describe('status moves only forward along the allowed transitions', () => {
      const pairs = transactionStatuses.flatMap((from) =>
        transactionStatuses.map((to) => [from, to] as const),
      );
      it.each(pairs)('%s → %s', async (from, to) => {
        const store = await open();
        const before = await recordIn(store, 'order-1', from);
        clock.advance(1000);
        if (from === to) {
          const result = await store.transition('order-1', to, details(to, 'again'));
          expect(result.changed).toBe(false);
          expect(result.record).toEqual(before);
        } else if (allowedTransitions[from].includes(to)) {
          const result = await store.transition('order-1', to, details(to, 'moved'));
          expect(result.changed).toBe(true);
          expect(result.record).toMatchObject({ status: to, statusReason: 'moved' });
          expect(result.record.updatedAt).toEqual(new Date(start + 1000));
          expect(await store.get('order-1')).toEqual(result.record);
        } else {
          const error = await failure(store.transition('order-1', to, details(to, 'late')));
          expect(isInvalidTransitionError(error)).toBe(true);
          expect(error).toMatchObject({ merchantReference: 'order-1', from, to });
          expect(await store.get('order-1')).toEqual(before);
        }
      });

      it('success and failed are final: no status reaches anything from them', async () => {
        expect(allowedTransitions.success).toEqual([]);
        expect(allowedTransitions.failed).toEqual([]);
        const store = await open();
        await recordIn(store, 'paid', 'success');
        for (const to of ['initiating', 'pending', 'unknown', 'failed'] as const) {
          expect(isInvalidTransitionError(await failure(store.transition('paid', to)))).toBe(true);
        }
        expect((await store.get('paid'))?.status).toBe('success');
      });

      it('a pending transaction never becomes unknown; unknown may return to pending', async () => {
        expect(allowedTransitions.pending).not.toContain('unknown');
        expect(allowedTransitions.unknown).toContain('pending');
      });
    });

    describe('a transition records its payload, reason and attempt time', () => {
      it('keeps the payload as JSON and the attempt time when leaving initiating', async () => {
        const store = await open();
        await store.createIntent(intent('order-1'));
        const payload = {
          message: 'Imepokelewa ✓',
          data: { amount: 5000.5, items: [1, 'two', null, { deep: true }] },
          at: new Date('2025-03-01T09:00:00.000Z'),
        };
        const sentAt = new Date(start + 50);
        clock.advance(200);
        const { record } = await store.transition('order-1', 'pending', {
          payload,
          reason: 'accepted',
          at: sentAt,
        });
        expect(record.lastPayload).toEqual({ ...payload, at: '2025-03-01T09:00:00.000Z' });
        expect(record.attemptedAt).toEqual(sentAt);
        expect(record.statusReason).toBe('accepted');

        clock.advance(1000);
        const settled = await store.transition('order-1', 'success');
        expect(settled.record.lastPayload).toEqual(record.lastPayload);
        expect(settled.record.attemptedAt).toEqual(sentAt);
        expect(settled.record.statusReason).toBeNull();
        expect(record.finalAt).toBeNull();
        expect(settled.record.finalAt).toEqual(new Date(start + 1200));
        expect(await store.get('order-1')).toEqual(settled.record);
      });

      it('keeps the provider from the MSISDN; a named provider fills only a missing one', async () => {
        const store = await open();
        await store.createIntent(intent('order-1'));
        const { msisdn: _none, ...bank } = intent('bank-1', { flow: 'bank' });
        await store.createIntent(bank);
        expect((await store.get('bank-1'))?.provider).toBeNull();
        const paid = await store.transition('order-1', 'success', { provider: 'airtel' });
        expect(paid.record.provider).toBe('vodacom');
        const banked = await store.transition('bank-1', 'pending', { provider: 'airtel' });
        expect(banked.record.provider).toBe('airtel');
        const error = await failure(store.transition('bank-1', 'failed', { provider: ' ' }));
        expect((error as Error).message).toMatch(/provider.*must not be empty/);
        expect((await store.get('bank-1'))?.status).toBe('pending');
      });
    });

    describe('summarize counts records by product and status', () => {
      it('counts each product and status, and names the oldest open record', async () => {
        const store = await open();
        expect(await store.summarize()).toEqual({ counts: [], oldestOpenAt: null });
        await store.createIntent(intent('order-1'));
        clock.advance(1000);
        await store.createIntent(intent('order-2'));
        await store.createIntent(
          intent('payout-1', { product: 'disbursement', flow: 'disbursement' }),
        );
        await store.transition('order-1', 'success');
        await store.transition('payout-1', 'unknown');
        expect(await store.summarize()).toEqual({
          counts: [
            { product: 'collection', status: 'initiating', count: 1 },
            { product: 'collection', status: 'success', count: 1 },
            { product: 'disbursement', status: 'unknown', count: 1 },
          ],
          oldestOpenAt: new Date(start + 1000),
        });
      });

      it('stores a payload that is itself a string, number or null', async () => {
        const store = await open();
        for (const [i, payload] of ['plain text', 42, null, [1, 2]].entries()) {
          await store.createIntent(intent(`order-${i}`));
          const { record } = await store.transition(`order-${i}`, 'unknown', { payload });
          expect(record.lastPayload).toEqual(payload);
          expect((await store.get(`order-${i}`))?.lastPayload).toEqual(payload);
        }
      });
    });

    describe('records handed out are copies', () => {
      it('changing a returned record does not change the store', async () => {
        const store = await open();
        const record = await store.createIntent(intent('order-1', { metadata: { a: '1' } }));
        Object.assign(record.metadata, { a: 'changed' });
        record.status = 'success';
        record.createdAt.setTime(0);
        expect(await store.get('order-1')).toMatchObject({
          metadata: { a: '1' },
          status: 'initiating',
          createdAt: new Date(start),
        });
      });
    });

    describe('the reconciler lists open records, least recently checked first', () => {
      async function seed(store: ReferenceStore) {
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
          await store.createIntent(intent(reference, { product, flow }));
          if (status !== 'initiating') await store.transition(reference, status);
          clock.advance(1000);
        }
      }

      it('lists only open statuses by default: never checked first, then by creation', async () => {
        const store = await open();
        await seed(store);
        await store.recordCheck('a', new Date(start + 60_000));
        await store.recordCheck('f', new Date(start + 30_000));
        const open1 = await store.listOpen();
        expect(open1.map((record) => record.merchantReference)).toEqual(['b', 'c', 'f', 'a']);
      });

      it('filters by status, product, check time and limit', async () => {
        const store = await open();
        await seed(store);
        await store.recordCheck('a', new Date(start + 60_000));
        await store.recordCheck('f', new Date(start + 30_000));
        const refs = async (options: Parameters<ReferenceStore['listOpen']>[0]) =>
          (await store.listOpen(options)).map((record) => record.merchantReference);
        expect(await refs({ statuses: ['success', 'failed'] })).toEqual(['d', 'e']);
        expect(await refs({ product: 'disbursement' })).toEqual(['f']);
        expect(await refs({ checkedBefore: new Date(start + 60_000) })).toEqual(['b', 'c', 'f']);
        expect(await refs({ limit: 2 })).toEqual(['b', 'c']);
      });

      it('oldestFirst lists by creation for a person, checks or not', async () => {
        const store = await open();
        await seed(store);
        await store.recordCheck('a', new Date(start + 60_000));
        const refs = (await store.listOpen({ oldestFirst: true, limit: 2 })).map(
          (record) => record.merchantReference,
        );
        expect(refs).toEqual(['a', 'b']);
        expect(isStoreInputError(await failure(store.listOpen({ oldestFirst: 1 as never })))).toBe(
          true,
        );
      });

      it('oldestFirst pages after the last record of a page, ties broken by reference', async () => {
        const store = await open();
        await seed(store);
        // Two records created in the same millisecond: the reference orders them.
        for (const reference of ['h', 'g']) await store.createIntent(intent(reference));
        const page = async (after?: { createdAt: Date; merchantReference: string }) =>
          (
            await store.listOpen({
              oldestFirst: true,
              limit: 2,
              statuses: ['initiating', 'pending', 'unknown', 'success'],
              ...(after && { after }),
            })
          ).map((record) => record.merchantReference);
        expect(await page()).toEqual(['a', 'b']);
        const b = (await store.get('b'))!;
        expect(await page(b)).toEqual(['c', 'd']);
        const d = (await store.get('d'))!;
        expect(await page(d)).toEqual(['f', 'g']);
        expect(await page((await store.get('g'))!)).toEqual(['h']);
        const error = await failure(store.listOpen({ after: b }));
        expect(isStoreInputError(error)).toBe(true);
        expect((error as StoreInputError).errors['after']?.[0]).toMatch(/oldestFirst: true/);
      });

      it('recordCheck counts each check and keeps the time', async () => {
        const store = await open();
        await store.createIntent(intent('order-1'));
        await store.recordCheck('order-1', new Date(start + 5000));
        const record = await store.recordCheck('order-1', new Date(start + 9000));
        expect(record).toMatchObject({ checkCount: 2, lastCheckedAt: new Date(start + 9000) });
        expect(await store.get('order-1')).toEqual(record);
      });
    });

    if (harness.reopen) {
      const reopen = harness.reopen.bind(harness);
      describe('records outlive the store that wrote them', () => {
        it('another handle finds the transaction by any of its references', async () => {
          const store = await open();
          await store.createIntent(
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
          const { record } = await store.transition('order-1', 'pending', {
            payload: { ok: true },
          });
          await store.close();

          const again = await reopen({ now: clock.now });
          opened.push(again);
          for (const value of ['order-1', 'CN-1', 'ENG-1', 'EXT-1', 'T-1', 'R-1']) {
            expect(await again.findByReference(value)).toEqual(record);
          }
          expect((await again.listOpen()).map((open2) => open2.merchantReference)).toEqual([
            'order-1',
          ]);
          expect(
            isReferenceConflictError(
              await failure(again.attachReferences('order-1', { txnid: 'T-2' })),
            ),
          ).toBe(true);
        });
      });
    }

    describe('operationsReport: finals per hour and each operator over the last day', () => {
      it('counts finals per hour and status, zeros included, and each provider from its own records', async () => {
        const store = await open();
        for (const reference of ['v1', 'v2', 'v3']) await store.createIntent(intent(reference));
        const { msisdn: _none, ...bank } = intent('b1', { flow: 'bank' });
        await store.createIntent(bank);
        clock.advance(60_000);
        await store.transition('v1', 'success');
        clock.advance(60_000);
        await store.transition('v2', 'failed');
        await store.transition('b1', 'success');
        clock.advance(2 * 3_600_000);
        await store.transition('v3', 'success');
        await store.createIntent(intent('still-open'));
        const hour = (h: number) => new Date(start + h * 3_600_000);
        const report = await store.operationsReport({ hours: 3 });
        expect(report.finals).toEqual([
          { hour: hour(0), status: 'success', count: 2 },
          { hour: hour(0), status: 'failed', count: 1 },
          { hour: hour(1), status: 'success', count: 0 },
          { hour: hour(1), status: 'failed', count: 0 },
          { hour: hour(2), status: 'success', count: 1 },
          { hour: hour(2), status: 'failed', count: 0 },
        ]);
        expect(report.providers).toEqual([
          {
            provider: 'vodacom',
            finals: 3,
            successes: 2,
            successRate: 2 / 3,
            medianMsToFinal: 120_000,
          },
          { provider: null, finals: 1, successes: 1, successRate: 1, medianMsToFinal: 120_000 },
        ]);
        const earlier = await store.operationsReport({ now: new Date(start + 30_000), hours: 1 });
        expect(earlier).toEqual({
          finals: [
            { hour: hour(0), status: 'success', count: 0 },
            { hour: hour(0), status: 'failed', count: 0 },
          ],
          providers: [],
        });
      });

      it('refuses a window that is not 1 to 168 whole hours, naming hours', async () => {
        const store = await open();
        for (const hours of [0, 169, 1.5]) {
          const error = await failure(store.operationsReport({ hours }));
          expect(isStoreInputError(error)).toBe(true);
          expect((error as StoreInputError).errors['hours']?.[0]).toMatch(/from 1 to 168/);
        }
      });
    });

    describe('wallet float: a payout holds its amount plus charge until it is final', () => {
      const payout = (reference: string, amount: number, held: number): TransactionIntent => ({
        merchantReference: reference,
        product: 'disbursement',
        flow: 'disbursement',
        amount,
        msisdn: '255754123456',
        reservation: { account: 'payouts@duka.co.tz', amount: held },
      });

      it('refuses an intent the free float does not cover, storing nothing', async () => {
        const store = await open();
        expect(await store.recordWalletBalance('payouts@duka.co.tz', async () => 2500)).toEqual({
          balance: 2500,
          reserved: 0,
        });
        await store.createIntent(payout('pay-1', 1000, 1100));
        await store.createIntent(payout('pay-2', 1000, 1100));
        const refused = await failure(store.createIntent(payout('pay-3', 200, 300.5)));
        expect(isBulkInsufficientFundsError(refused)).toBe(true);
        expect(refused).toMatchObject({ balance: 300, required: 300.5, shortfall: 0.5 });
        expect(await store.get('pay-3')).toBeUndefined();
        await store.createIntent(payout('pay-4', 200, 300));
        expect(await store.recordWalletBalance('payouts@duka.co.tz', async () => 2500.5)).toEqual({
          balance: 2500.5,
          reserved: 2500,
        });
        // Another account's float is its own.
        await store.recordWalletBalance('other@duka.co.tz', async () => 100);
        expect(
          isBulkInsufficientFundsError(
            await failure(
              store.createIntent({
                ...payout('pay-5', 50, 150),
                reservation: { account: 'other@duka.co.tz', amount: 150 },
              }),
            ),
          ),
        ).toBe(true);
      });

      it('failed releases the float, success keeps it as its debit until the next read, pending and unknown keep it', async () => {
        const store = await open();
        await store.recordWalletBalance('payouts@duka.co.tz', async () => 10_000);
        for (const reference of ['paid', 'refused', 'waiting', 'lost', 'disputed']) {
          await store.createIntent(payout(reference, 1000, 1100));
        }
        await store.transition('paid', 'success');
        await store.transition('refused', 'failed');
        await store.transition('waiting', 'pending');
        await store.transition('lost', 'unknown');
        await store.transition('disputed', 'needs_review', { reason: 'differs', review: verdict });
        expect(await store.recordWalletBalance('payouts@duka.co.tz', async () => 8900)).toEqual({
          balance: 8900,
          reserved: 3300,
        });
        await store.attachAndTransition('waiting', { refid: 'R-9' }, 'success');
        await store.resolve('disputed', 'failed', { note: 'not paid', by: 'ops' });
        await store.transition('lost', 'failed');
        const freed = await store.createIntent(payout('next', 7000, 7700));
        expect(freed.status).toBe('initiating');
        // 8900 read, less the success since (1100), less the new hold: 100 left.
        expect(
          isBulkInsufficientFundsError(await failure(store.createIntent(payout('over', 1, 101)))),
        ).toBe(true);
      });

      it('a payout that becomes final while the balance is read counts against what was read', async () => {
        const store = await open();
        await store.recordWalletBalance('payouts@duka.co.tz', async () => 10_000);
        await store.createIntent(payout('racing', 1000, 1100));
        const state = await store.recordWalletBalance('payouts@duka.co.tz', async () => {
          // The platform answered the read before this payout's debit; the store saw it after.
          await store.transition('racing', 'success');
          return 10_000;
        });
        expect(state).toEqual({ balance: 10_000, reserved: 1100 });
        expect(
          isBulkInsufficientFundsError(await failure(store.createIntent(payout('over', 1, 8901)))),
        ).toBe(true);
        // The next read shows the debit, and the store no longer counts it.
        expect(await store.recordWalletBalance('payouts@duka.co.tz', async () => 8900)).toEqual({
          balance: 8900,
          reserved: 0,
        });
        expect((await store.createIntent(payout('all', 8000, 8900))).status).toBe('initiating');
      });

      it('two balance reads at once each leave a float that is right on its own', async () => {
        const store = await open();
        await store.recordWalletBalance('payouts@duka.co.tz', async () => 10_000);
        await store.createIntent(payout('held', 1000, 1100));
        await store.createIntent(payout('paid', 1000, 1100));
        await store.transition('paid', 'success');
        const inner = store.recordWalletBalance('payouts@duka.co.tz', async () => 8900);
        const outer = await store.recordWalletBalance('payouts@duka.co.tz', async () => {
          await inner;
          await store.transition('held', 'failed');
          return 8900;
        });
        expect(outer).toEqual({ balance: 8900, reserved: 0 });
        expect((await store.createIntent(payout('all', 8000, 8900))).status).toBe('initiating');
      });

      it('refuses a reservation without an account or with a negative balance, naming the field', async () => {
        const store = await open();
        const bad = await failure(
          store.createIntent({
            ...payout('bad', 10, 110),
            reservation: { account: '', amount: 110 },
          }),
        );
        expect(isStoreInputError(bad)).toBe(true);
        expect((bad as StoreInputError).errors).toHaveProperty(['reservation.account']);
        expect(
          isStoreInputError(await failure(store.recordWalletBalance('a', async () => -1))),
        ).toBe(true);
      });
    });

    describeReviewAndEffects(harness);
    describeAttachAndTransition(harness);
  });
}
