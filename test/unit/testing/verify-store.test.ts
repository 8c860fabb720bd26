import { describe, expect, it } from 'vitest';
import { MemoryReferenceStore, type ReferenceStore } from '../../../src/references/index.js';
import type { RecordMove } from '../../../src/references/types.js';
import { type StoreFactory, storeCaseNames, verifyStore } from '../../../src/testing.js';

type Replaced = Partial<Record<'records' | 'schedule' | 'effects' | 'wallets', object>>;

/** The memory store with some methods of its parts replaced, as a merchant's faulty store would be. */
function memoryWith(replace: (inner: MemoryReferenceStore) => Replaced): StoreFactory {
  let current: ReferenceStore | undefined;
  return {
    persistent: false,
    open: async ({ fresh, now }) => {
      if (fresh || current === undefined) {
        const inner = new MemoryReferenceStore({ now });
        const parts = Object.entries(replace(inner)).map(([part, methods]) => [
          part,
          { ...inner[part as keyof Replaced], ...methods },
        ]);
        current = { ...inner, ...Object.fromEntries(parts), close: () => inner.close() };
      }
      return current as ReferenceStore;
    },
  };
}

const names = (result: { failed: { name: string }[] }) => result.failed.map((each) => each.name);
const byName = (result: { failed: { name: string; error: string }[] }, name: string) =>
  result.failed.find((each) => each.name.includes(name))?.error;

describe('verifyStore fails a store that breaks the rules, and says why', () => {
  it('a move that writes without comparing the status the ledger read is caught racing itself', async () => {
    // No compare-and-set: two callers both read `pending`, both commit, and both are told they
    // won the final move — the store's half of "money never moves twice".
    const result = await verifyStore(
      memoryWith((inner) => ({
        records: {
          move: async (reference: string, move: RecordMove) => {
            await new Promise((resolve) => setTimeout(resolve, 1));
            const current = await inner.records.get(reference);
            return inner.records.move(reference, {
              ...move,
              expected: current?.status ?? move.expected,
            });
          },
        },
      })),
    );
    expect(names(result)).toEqual(
      expect.arrayContaining([
        'effects: the final transition is the claim; the handler runs until it completes › exactly one of many concurrent final transitions wins',
        'two processes on one database › exactly one of many concurrent final transitions wins, across handles',
      ]),
    );
    expect(byName(result, 'exactly one of many concurrent final transitions wins')).toMatch(
      /callers told changed: true/,
    );
    expect(result.passed).toBeGreaterThan(100);
  });

  it('a move that ignores the lease fence is caught writing for a worker whose lease was taken', async () => {
    const result = await verifyStore(
      memoryWith((inner) => ({
        records: {
          move: (reference: string, { leaseToken: _ignored, ...move }: RecordMove) =>
            inner.records.move(reference, move),
        },
      })),
    );
    expect(names(result)).toEqual(
      expect.arrayContaining([
        'attachAndTransition: the answer of a money call in one write › a lease no longer held: LeaseLostError, and nothing is written',
        'leases: a due record goes to one worker, and only the holder writes › skips final records and records leased by another worker until the lease expires',
        "two processes on one database › a lease taken over by another process fences the first holder's writes",
      ]),
    );
    expect(byName(result, 'a lease no longer held')).toMatch(
      /expected the call to fail, but it resolved to/,
    );
  });

  it('a store whose methods throw fails every case, and verifyStore still resolves', async () => {
    // Every method of every part rejects, as a store whose database is gone would.
    const failing = new Proxy(
      {},
      {
        // Only methods: `then` stays undefined, so no part is a thenable.
        get: (_target, name) =>
          name === 'then'
            ? undefined
            : async () => {
                throw new Error('disk I/O error');
              },
      },
    );
    const parts = ['records', 'schedule', 'effects', 'inbox', 'wallets', 'rateLimit', 'reports'];
    const broken = {
      ...Object.fromEntries(parts.map((part) => [part, failing])),
      close: async () => {},
    } as unknown as ReferenceStore;
    const result = await verifyStore({ open: async () => broken });
    expect(result.passed).toBe(0);
    expect(result.skipped).toEqual([]);
    expect(result.failed.length).toBe(storeCaseNames().length);
    const errors = result.failed.map((each) => each.error);
    expect(errors.filter((error) => error.includes('disk I/O error')).length).toBeGreaterThan(
      errors.length - 10,
    );
  });

  it('a method that never settles fails its case after timeoutMs, and the run goes on', async () => {
    const factory = memoryWith(() => ({ records: { get: () => new Promise(() => {}) } }));
    const only = [
      'write-ahead: the intent is stored as initiating before anything is sent › refuses a second intent under the same merchant reference and keeps the first',
      'amounts are stored exactly › reads 0.01 back unchanged',
    ];
    const result = await verifyStore(factory, { only, timeoutMs: 200 });
    expect(result.passed).toBe(0);
    expect(result.failed).toEqual(
      only.map((name) => ({
        name,
        error: 'the case did not finish within 200 ms (a store call that never settles?)',
      })),
    );
  });

  it('a result of the wrong shape is named by its method', async () => {
    const result = await verifyStore(
      memoryWith(() => ({ records: { move: async () => ({ status: 'success' }) } })),
      {
        only: [
          'amounts are stored exactly › reads 0.01 back unchanged',
          'records handed out are copies › changing a returned record does not change the store',
          'status moves only forward along the allowed transitions › initiating → pending',
        ],
      },
    );
    expect(result.passed).toBe(2);
    expect(result.failed).toEqual([
      {
        name: 'status moves only forward along the allowed transitions › initiating → pending',
        error: "store.records.move() resolved to { status: 'success' }, not { record, applied }",
      },
    ]);
  });

  it('a store that keeps its own time has the cases that need the clock listed as skipped, with why', async () => {
    let current: MemoryReferenceStore | undefined;
    const result = await verifyStore({
      persistent: false,
      open: async ({ fresh }) => {
        if (fresh || current === undefined) current = new MemoryReferenceStore();
        return current;
      },
    });
    expect(result.failed).toEqual([]);
    const clockCases = result.skipped.filter((each) => /keeps time by open/.test(each.reason));
    expect(clockCases.length).toBeGreaterThan(40);
    expect(clockCases[0]?.reason).toMatch(
      /needs a store that keeps time by open\(\{ now \}\): two intents written an hour apart .* got createdAt/,
    );
    expect(result.passed + result.skipped.length).toBe(storeCaseNames().length);
  });

  it('names a case it does not have, and calls dispose once at the end', async () => {
    let disposed = 0;
    const result = await verifyStore(
      {
        open: async ({ now }) => new MemoryReferenceStore({ now }),
        dispose: async () => {
          disposed += 1;
        },
        persistent: false,
      },
      { only: ['no such case'] },
    );
    expect(result).toEqual({
      passed: 0,
      failed: [{ name: 'no such case', error: 'no case of pesakit/testing has this name' }],
      skipped: [],
    });
    expect(disposed).toBe(1);
  });

  it('gives every case its own name, so that `only` picks exactly one', () => {
    const names = storeCaseNames();
    expect(new Set(names).size).toBe(names.length);
  });

  it('refuses a factory without open(), naming it', async () => {
    await expect(verifyStore({} as StoreFactory)).rejects.toThrow(/factory\.open/);
  });
});
