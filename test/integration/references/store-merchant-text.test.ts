import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  isStoreInputError,
  MemoryReferenceStore,
  type ReferenceStore,
  type StoreInputError,
  type TransactionIntent,
} from '../../../src/index.js';
import { PostgresReferenceStore } from '../../../src/postgres.js';
import { SqliteReferenceStore } from '../../../src/sqlite.js';
import { createTestDatabase, type TestDatabase } from '../../helpers/postgres.js';

// The merchant's own text in a record: its merchant reference and its metadata. A control
// character (C0, DEL, C1) is refused by every store alike, as a StoreInputError naming the field,
// the character and where it is; nothing is stored. A reference and a metadata key hold no tab
// either; a metadata value may (free text pasted from a sheet), and reads back as given.

let database: TestDatabase;
let counter = 0;
const stores: Array<[string, () => Promise<ReferenceStore>]> = [
  ['memory', async () => new MemoryReferenceStore()],
  ['sqlite', () => SqliteReferenceStore.open(':memory:')],
  ['postgres', () => PostgresReferenceStore.open(database.url, { schema: `text_${counter++}` })],
];

beforeAll(async () => {
  database = await createTestDatabase('store_merchant_text');
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

const intent = (
  merchantReference: string,
  metadata?: Record<string, string>,
): TransactionIntent => ({
  merchantReference,
  product: 'disbursement',
  flow: 'disbursement',
  amount: 1000,
  msisdn: '255754123456',
  ...(metadata === undefined ? {} : { metadata }),
});

const refused = [
  ['NUL', '\u0000', 'U+0000'],
  ['a tab', '\t', 'U+0009'],
  ['a line feed', '\n', 'U+000A'],
  ['ESC', '\u001b', 'U+001B'],
  ['DEL', '\u007f', 'U+007F'],
  ['C1 NEL', '\u0085', 'U+0085'],
  ['C1 CSI', '\u009b', 'U+009B'],
] as const;

describe.each(stores)("%s store: control characters in the merchant's own text", (_, open) => {
  let store: ReferenceStore;
  beforeEach(async () => {
    store = await open();
  });
  afterEach(() => store.close());

  const nothingStored = async () =>
    expect(await store.records.list({ statuses: ['initiating'] })).toEqual([]);

  it.each(refused)(
    '%s in a merchant reference: refused, naming it and where; nothing stored',
    async (_, character, code) => {
      const error = await refusal(() => store.records.create(intent(`order${character}1`)));
      expect(error.errors).toEqual({
        merchantReference: [
          `merchantReference must not contain control characters (found ${code} at position 6).`,
        ],
      });
      await nothingStored();
    },
  );

  it.each(refused.filter(([name]) => name !== 'a tab'))(
    '%s in a metadata value: refused, naming the key; nothing stored',
    async (_, character, code) => {
      const error = await refusal(() =>
        store.records.create(
          intent('order-1', { orderId: '1001', note: `first${character}second` }),
        ),
      );
      expect(error.errors).toEqual({
        'metadata.note': [
          `metadata.note must not contain control characters other than a tab (found ${code} at position 6).`,
        ],
      });
      expect(await store.records.get('order-1')).toBeUndefined();
    },
  );

  it.each(refused)(
    '%s in a metadata key: refused, the key shown; nothing stored',
    async (_, character, code) => {
      const key = `order${character}Id`;
      const shown = `order\\u${code.slice(2)}Id`;
      const error = await refusal(() => store.records.create(intent('order-1', { [key]: '1001' })));
      expect(error.errors).toEqual({
        metadata: [
          `metadata keys must not contain control characters (found ${code} at position 6 in the key "${shown}").`,
        ],
      });
      expect(await store.records.get('order-1')).toBeUndefined();
    },
  );

  it('a metadata value keeps a tab, names and accents as given; a key that is a word of the rule is still named', async () => {
    const metadata = {
      note: 'first\tsecond',
      name: 'Zawadi Mwakyusa',
      city: 'Dar es Salaam — José',
    };
    const stored = await store.records.create(intent('order-1', metadata));
    expect(stored.metadata).toEqual(metadata);
    expect((await store.records.get('order-1'))?.metadata).toEqual(metadata);

    const error = await refusal(() => store.records.create(intent('order-2', { a: 'x\u0000' })));
    expect(error.errors).toEqual({
      'metadata.a': [
        'metadata.a must not contain control characters other than a tab (found U+0000 at position 2).',
      ],
    });
  });
});
