import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDuplicateReferenceError } from '../../../src/errors/duplicate-reference-error.js';
import { isInvalidTransitionError } from '../../../src/errors/invalid-transition-error.js';
import { isReferenceConflictError } from '../../../src/errors/reference-conflict-error.js';
import { PostgresReferenceStore } from '../../../src/postgres.js';
import type { ReferenceStore, TransactionIntent } from '../../../src/references/index.js';
import { moves } from '../../helpers/moves.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';

/**
 * Many merchant instances share one PostgreSQL database (DESIGN.md decision 8). Each writer
 * here is a separate store with its own pool, as separate processes would be; they all start
 * at once, so the database — not the test's scheduling — decides who wins.
 */
const writers = 20;
let database: TestDatabase;
let stores: ReferenceStore[];
let schemas = 0;

async function openWriters(): Promise<ReferenceStore[]> {
  schemas += 1;
  const schema = `race_${schemas}`;
  // The first opener creates the tables; the others open an up-to-date schema at once.
  const first = await PostgresReferenceStore.open(database.url, { schema, maxConnections: 2 });
  const rest = await Promise.all(
    Array.from({ length: writers - 1 }, () =>
      PostgresReferenceStore.open(database.url, { schema, maxConnections: 2 }),
    ),
  );
  return [first, ...rest];
}

function intent(merchantReference: string): TransactionIntent {
  return { merchantReference, product: 'collection', flow: 'mno', amount: 1500 };
}

/** Runs `work` on every writer at once and sorts the outcomes. */
async function race<T>(work: (store: ReferenceStore, index: number) => Promise<T>) {
  const outcomes = await Promise.allSettled(stores.map((store, index) => work(store, index)));
  const won = outcomes.flatMap((outcome, index) =>
    outcome.status === 'fulfilled' ? [{ index, value: outcome.value }] : [],
  );
  const lost = outcomes.flatMap((outcome) =>
    outcome.status === 'rejected' ? [outcome.reason] : [],
  );
  return { won, lost };
}

async function countRows(schema: string, where: string, value: string): Promise<number> {
  const client = new pg.Client(database.url);
  await client.connect();
  try {
    const result = await client.query(
      `select count(*)::int as n from "${schema}".pesakit_transactions where ${where}`,
      [value],
    );
    return result.rows[0].n;
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  database = await createTestDatabase('concurrency');
});
afterAll(async () => {
  await database.drop();
});

describe('PostgreSQL: many writers at once', () => {
  beforeAll(async () => {
    stores = await openWriters();
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
  });

  it('one merchant reference stored by every writer at once is stored once', async () => {
    const { won, lost } = await race((store) => store.records.create(intent('same-intent')));
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(writers - 1);
    expect(lost.every(isDuplicateReferenceError)).toBe(true);
    expect(await countRows(`race_${schemas}`, 'merchant_reference = $1', 'same-intent')).toBe(1);
  });

  it('a contested reference gets exactly one owner', async () => {
    await Promise.all(stores.map((store, i) => store.records.create(intent(`contest-${i}`))));
    const { won, lost } = await race((store, i) =>
      moves(store).attachReferences(`contest-${i}`, { controlNumber: 'CN-CONTESTED' }),
    );
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(writers - 1);
    expect(lost.every(isReferenceConflictError)).toBe(true);
    const owner = await stores[0]!.records.find({ value: 'CN-CONTESTED' });
    expect(owner?.merchantReference).toBe(`contest-${won[0]!.index}`);
    expect(await countRows(`race_${schemas}`, 'control_number = $1', 'CN-CONTESTED')).toBe(1);
  });

  it('a value claimed under different reference kinds at once still gets one owner', async () => {
    const kinds = [
      'controlNumber',
      'paymentReference',
      'externalReference',
      'txnid',
      'refid',
    ] as const;
    await Promise.all(stores.map((store, i) => store.records.create(intent(`kinds-${i}`))));
    const { won, lost } = await race((store, i) =>
      moves(store).attachReferences(`kinds-${i}`, { [kinds[i % kinds.length]!]: 'SHARED-VALUE' }),
    );
    expect(won).toHaveLength(1);
    expect(lost.every(isReferenceConflictError)).toBe(true);
    const columns =
      'control_number = $1 or payment_reference = $1 or external_reference = $1 or txnid = $1 or refid = $1';
    expect(await countRows(`race_${schemas}`, columns, 'SHARED-VALUE')).toBe(1);
  });

  it('one record written by every writer: one controlNumber wins, the check released beside them is kept', async () => {
    await stores[0]!.records.create(intent('shared-record'));
    const leased = await stores[1]!.schedule.lease({ limit: 1000, leaseMs: 60_000, force: true });
    const lease = leased.find(({ record }) => record.merchantReference === 'shared-record');
    // Every writer but the lease holder claims its own controlNumber (only one may stick); the
    // holder counts its check on the same row at the same time, and the check must survive.
    const { won, lost } = await race<unknown>((store, i) =>
      i === 1
        ? store.schedule.release('shared-record', lease!.token, { nextCheckAt: new Date() })
        : moves(store).attachReferences('shared-record', { controlNumber: `CN-${i}` }),
    );
    const winners = won.filter(({ index }) => index !== 1);
    expect(winners).toHaveLength(1);
    expect(won.find(({ index }) => index === 1)?.value).toBe(true);
    expect(lost).toHaveLength(writers - 2);
    expect(lost.every(isReferenceConflictError)).toBe(true);
    const record = await stores[2]!.records.get('shared-record');
    expect(record?.controlNumber).toBe(`CN-${winners[0]!.index}`);
    expect(record?.checkCount).toBe(1);
  });

  it('racing outcomes: exactly one transition wins and a final status is never overwritten', async () => {
    const records = 5;
    for (let r = 0; r < records; r += 1) {
      await stores[0]!.records.create(intent(`settle-${r}`));
      await moves(stores[0]!).transition(`settle-${r}`, 'pending');
    }
    for (let r = 0; r < records; r += 1) {
      const { won, lost } = await race((store, i) =>
        moves(store).transition(`settle-${r}`, i % 2 === 0 ? 'success' : 'failed', {
          payload: { writer: i },
        }),
      );
      const changed = won.filter(({ value }) => value.changed);
      expect(changed).toHaveLength(1);
      const final = changed[0]!.value.record;
      // Those who asked for the same final state saw a no-op; the others were refused.
      for (const { value } of won) expect(value.record.status).toBe(final.status);
      expect(lost.length + won.length).toBe(writers);
      expect(lost.every(isInvalidTransitionError)).toBe(true);
      const stored = await stores[writers - 1]!.records.get(`settle-${r}`);
      expect(stored?.status).toBe(final.status);
      expect(stored?.lastPayload).toEqual(final.lastPayload);
    }
  });
});

describe('PostgreSQL: another process sees the same records', () => {
  it('a second store with its own pool finds, moves and conflicts with the first one’s records', async () => {
    const a = await PostgresReferenceStore.open(database.url, { schema: 'shared' });
    const b = await PostgresReferenceStore.open(database.url, { schema: 'shared' });
    try {
      await a.records.create(intent('order-1'));
      await moves(a).attachReferences('order-1', {
        controlNumber: 'CN-1',
        paymentReference: 'ENG-1',
      });
      expect((await b.records.find({ value: 'ENG-1' }))?.merchantReference).toBe('order-1');
      await moves(b).transition('order-1', 'success', { payload: { paid: true } });
      expect((await a.records.get('order-1'))?.status).toBe('success');
      await b.records.create(intent('order-2'));
      await expect(moves(a).attachReferences('order-2', { txnid: 'CN-1' })).rejects.toSatisfy(
        isReferenceConflictError,
      );
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
