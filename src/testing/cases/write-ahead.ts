import { isDuplicateReferenceError } from '../../errors/duplicate-reference-error.js';
import { isStoreInputError, type StoreInputError } from '../../errors/store-input-error.js';
import { isTransactionNotFoundError } from '../../errors/transaction-not-found-error.js';
import type { TransactionIntent } from '../../references/types.js';
import { equal, isError, messageMatches, rejection, truthy } from '../assertions.js';
import { rule } from '../case.js';
import { intent } from '../fixtures.js';

const inputError = (error: unknown) => isError(error, isStoreInputError, 'StoreInputError');
const fieldsOf = (error: unknown) => Object.keys((error as StoreInputError).errors ?? {});

export const writeAheadCases = [
  ...rule('write-ahead: the intent is stored as initiating before anything is sent', (it) => {
    it('stores the intent with every reference empty and the clock time', {
      clock: true,
    }, async (t) => {
      const store = await t.open();
      const record = await store.records.create(
        intent('order-1', { metadata: { orderId: 'A-17', customer: 'Neema' } }),
      );
      equal(record, {
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
        createdAt: t.clock.at(0),
        updatedAt: t.clock.at(0),
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
      equal(await store.records.get('order-1'), record, 'get() reads the intent back as written');
    });

    it('stores an intent without an MSISDN (secure checkout) with msisdn null', async (t) => {
      const store = await t.open();
      const { msisdn: _omitted, ...withoutMsisdn } = intent('checkout-1', { flow: 'secure' });
      const record = await store.records.create(withoutMsisdn);
      equal(record.msisdn, null);
      equal(record.metadata, {});
    });

    it('refuses a second intent under the same merchant reference and keeps the first', async (t) => {
      const store = await t.open();
      const first = await store.records.create(intent('order-1'));
      const error = await rejection(store.records.create(intent('order-1', { amount: 9999 })));
      isError(error, isDuplicateReferenceError, 'DuplicateReferenceError');
      messageMatches(error, 'order-1');
      equal(await store.records.get('order-1'), first);
    });
  }),

  ...rule(
    "the record keeps the account it was sent with, and nothing else of the client's",
    (it) => {
      it('reads the account back through every read, unchanged by later writes', async (t) => {
        const store = await t.open();
        const account = { environment: 'production', login: 'shop@duka.co.tz' } as const;
        const created = await store.records.create(intent('order-1', { account }));
        equal(created.account, account);
        await store.attachAndTransition('order-1', { controlNumber: 'CN-1' }, 'pending');
        const { record } = await store.transition('order-1', 'needs_review', {
          review: { reason: 'amount_mismatch', message: 'The platform says 150 TZS were paid.' },
        });
        equal(record.account, account);
        equal(await store.records.get('order-1'), record);
        equal(await store.records.find({ value: 'CN-1' }), record);
        equal((await store.records.getMany(['order-1']))[0], record);
        equal((await store.reports.review())[0]?.account, account);
      });

      it('keeps a login of null (a request without a login) and lower-cases a login', async (t) => {
        const store = await t.open();
        const sandbox = { environment: 'sandbox', login: null } as const;
        await store.records.create(intent('checkout-1', { flow: 'secure', account: sandbox }));
        await store.records.create(
          intent('order-2', { account: { environment: 'sandbox', login: 'Shop@Duka.co.TZ' } }),
        );
        const lowered = { environment: 'sandbox', login: 'shop@duka.co.tz' };
        equal((await store.records.get('checkout-1'))?.account, sandbox);
        equal((await store.records.get('order-2'))?.account, lowered);
        const leased = await store.schedule.lease({ limit: 10, leaseMs: 60_000, force: true });
        const accounts = leased.map(({ record }) => JSON.stringify(record.account)).sort();
        equal(accounts, [JSON.stringify(sandbox), JSON.stringify(lowered)].sort());
      });

      it('stores no other key of the account given (a password is never kept)', async (t) => {
        const store = await t.open();
        const given = { environment: 'sandbox', login: 'shop@duka.co.tz', password: 'hunter22' };
        await store.records.create(intent('order-1', { account: given as never }));
        const record = await store.records.get('order-1');
        equal(record?.account, { environment: 'sandbox', login: 'shop@duka.co.tz' });
        truthy(!JSON.stringify(record).includes('hunter22'), 'the record holds the password');
      });

      for (const [name, account, field] of [
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
      ] as const) {
        it(`records.create refuses an account with ${name}, naming the field`, async (t) => {
          const store = await t.open();
          const error = await rejection(
            store.records.create(intent('order-1', { account: account as never })),
          );
          inputError(error);
          truthy(fieldsOf(error).includes(field), `errors name ${fieldsOf(error)}, not ${field}`);
          equal(await store.records.get('order-1'), undefined);
        });
      }
    },
  ),

  ...rule('amounts are stored exactly', (it) => {
    for (const amount of [0.01, 0.1, 0.3, 10.1, 999.99, 1234567.89, 50_000_000]) {
      it(`reads ${amount} back unchanged`, async (t) => {
        const store = await t.open();
        await store.records.create(intent('order-1', { amount }));
        equal((await store.records.get('order-1'))?.amount, amount);
      });
    }
  }),

  ...rule('bad input gets a clear error naming the field, and stores nothing', (it) => {
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
    for (const [name, change, field] of badIntents) {
      it(`records.create refuses ${name}`, async (t) => {
        const store = await t.open();
        const bad = { ...intent('order-1'), ...change };
        const error = await rejection(store.records.create(bad));
        inputError(error);
        truthy(
          fieldsOf(error).some((key) => key.startsWith(field)),
          `errors name ${fieldsOf(error)}, not ${field}`,
        );
        messageMatches(error, field);
        messageMatches(error, 'Nothing was changed');
        equal(await store.records.list(), []);
        equal(await store.records.find({ value: bad.merchantReference }), undefined);
      });
    }

    it('attachReferences refuses an empty or unknown reference kind and changes nothing', async (t) => {
      const store = await t.open();
      const before = await store.records.create(intent('order-1'));
      for (const refs of [{ controlNumber: '' }, { controlNumber: 'CN 1 ' }, { reference: 'x' }]) {
        inputError(await rejection(store.attachReferences('order-1', refs as never)));
      }
      equal(await store.records.get('order-1'), before);
    });

    it('transition refuses an unknown status, a bad date or an unserialisable payload', async (t) => {
      const store = await t.open();
      const before = await store.records.create(intent('order-1'));
      const attempts = [
        () => store.transition('order-1', 'settled' as never),
        () => store.transition('order-1', 'success', { at: new Date(Number.NaN) }),
        () => store.transition('order-1', 'success', { payload: { amount: 10n } }),
      ];
      for (const attempt of attempts) inputError(await rejection(attempt()));
      equal(await store.records.get('order-1'), before);
    });

    it('null or a misspelt field where a JavaScript caller should pass an object is a StoreInputError naming it', async (t) => {
      const store = await t.open();
      const before = await store.records.create(intent('order-1'));
      const attempts: Array<[() => Promise<unknown>, string]> = [
        [() => store.transition('order-1', 'pending', null as never), 'details'],
        [() => store.attachAndTransition('order-1', {}, 'pending', null as never), 'details'],
        [() => store.records.find(null as never), 'by'],
        [() => store.records.find({ field: 'controlnumber' as never, value: 'CN-1' }), 'by.field'],
        [() => store.effects.list('x' as never), 'status'],
      ];
      for (const [attempt, field] of attempts) {
        const error = await rejection(attempt());
        inputError(error);
        equal(fieldsOf(error), [field]);
      }
      equal(await store.records.get('order-1'), before);
    });

    it('records.list refuses a limit below 1 and an empty status list', async (t) => {
      const store = await t.open();
      inputError(await rejection(store.records.list({ limit: 0 })));
      inputError(await rejection(store.records.list({ statuses: [] })));
    });
  }),

  ...rule('changes need a stored record', (it) => {
    it('attachReferences and transition on an unknown reference fail', async (t) => {
      const store = await t.open();
      const attempts = [
        () => store.attachReferences('missing', { controlNumber: 'CN-1' }),
        () => store.transition('missing', 'pending'),
      ];
      for (const attempt of attempts) {
        isError(await rejection(attempt()), isTransactionNotFoundError, 'TransactionNotFoundError');
      }
      equal(await store.records.find({ value: 'CN-1' }), undefined);
    });
  }),
];
