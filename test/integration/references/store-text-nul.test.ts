import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isStoreInputError,
  MemoryReferenceStore,
  type ReferenceStore,
  type StoreInputError,
} from '../../../src/index.js';
import { PostgresReferenceStore } from '../../../src/postgres.js';
import { SqliteReferenceStore } from '../../../src/sqlite.js';
import { moves } from '../../helpers/moves.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';

// The store's public methods with text PostgreSQL cannot hold: a
// NUL character in a reason, a review message or a resolution note reached PostgreSQL and came
// back as pg's raw "invalid byte sequence for encoding UTF8: 0x00" (not a PesakitError, no
// field named), while the memory and SQLite stores kept it — the same call behaved differently
// by store. It is now a StoreInputError naming the field in every store, nothing written. A
// handler's error text given to effects.fail (whatever the handler threw) is stored with the NUL
// replaced, as it is already cut to 2000 characters: the runner must be able to record it.

let database: TestDatabase;
const stores: Array<[string, () => Promise<ReferenceStore>]> = [
  ['memory', async () => new MemoryReferenceStore()],
  ['sqlite', () => SqliteReferenceStore.open(':memory:')],
  ['postgres', () => PostgresReferenceStore.open(database.url, { schema: `nul_${counter++}` })],
];
let counter = 0;

beforeAll(async () => {
  database = await createTestDatabase('store_text_nul');
});
afterAll(() => database.drop());

async function refusal(work: () => Promise<unknown>): Promise<StoreInputError> {
  try {
    await work();
  } catch (error) {
    if (isStoreInputError(error)) return error;
    throw error;
  }
  throw new Error('expected a StoreInputError');
}

describe.each(stores)('%s store: a NUL character in stored text', (_, open) => {
  let store: ReferenceStore;
  let next = 0;
  beforeAll(async () => {
    store = await open();
  });
  afterAll(() => store.close());

  async function intent(): Promise<string> {
    const merchantReference = `order-${++next}`;
    await store.records.create({
      merchantReference,
      product: 'collection',
      flow: 'mno',
      amount: 1000,
      msisdn: '255754123456',
    });
    return merchantReference;
  }

  it('transition reason: a StoreInputError naming it, nothing written', async () => {
    const ref = await intent();
    const error = await refusal(() =>
      moves(store).transition(ref, 'pending', { reason: 'a\u0000b' }),
    );
    expect(Object.keys(error.errors)).toEqual(['reason']);
    expect((await store.records.get(ref))?.status).toBe('initiating');
  });

  it('a review message: a StoreInputError naming it, nothing written', async () => {
    const ref = await intent();
    const error = await refusal(() =>
      moves(store).transition(ref, 'needs_review', {
        review: { reason: 'max_attempts', message: 'look\u0000here' },
      }),
    );
    expect(Object.keys(error.errors)).toEqual(['review.message']);
    expect((await store.records.get(ref))?.status).toBe('initiating');
  });

  it("resolve's note: a StoreInputError naming it, the record still waits for review", async () => {
    const ref = await intent();
    await moves(store).transition(ref, 'needs_review', {
      review: { reason: 'max_attempts', message: 'look' },
    });
    const error = await refusal(() => moves(store).resolve(ref, 'success', { note: 'paid\u0000' }));
    expect(Object.keys(error.errors)).toEqual(['note']);
    expect((await store.records.get(ref))?.status).toBe('needs_review');
  });

  it("effects.fail's error text is recorded, the NUL replaced", async () => {
    const ref = await intent();
    await moves(store).transition(ref, 'failed', { reason: 'declined' });
    const [claimed] = await store.effects.claim({ leaseMs: 60_000, merchantReference: ref });
    expect(claimed).toBeDefined();
    if (!claimed) return;
    const written = await store.effects.fail(ref, claimed.token, {
      error: 'handler threw: bad\u0000input',
      retryAt: new Date(Date.now() + 60_000),
    });
    expect(written).toBe(true);
    expect((await store.records.get(ref))?.effect?.lastError).toBe('handler threw: bad\uFFFDinput');
  });
});
