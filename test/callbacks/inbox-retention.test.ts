import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallbackReceiver } from '../../src/callbacks/receiver.js';
import { isConfigurationError } from '../../src/errors/configuration-error.js';
import { MemoryReferenceStore } from '../../src/references/memory-store.js';
import type { ReferenceStore } from '../../src/references/types.js';
import type { CollectionTransaction } from '../../src/schemas/collection.js';
import { callback } from '../../src/testing/fixtures.js';
import { TestClock } from '../helpers/test-clock.js';

// The receiver prunes the inbox for the merchant (`inboxRetention`): started by start(), stopped
// by close(), never overlapping itself, failures reported as `error` events, not thrown.

const day = 24 * 3_600_000;
/** vi.waitFor's 1 s default is short on a loaded machine; nothing here is a timing assertion. */
const patiently = { timeout: 10_000, interval: 10 };
const receivers: CallbackReceiver[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const receiver of receivers.splice(0)) await receiver.close();
});

const neverPulled = async (): Promise<CollectionTransaction> => {
  throw new Error('no pull expected in this test');
};

function receiverOn(
  store: ReferenceStore,
  options: ConstructorParameters<typeof CallbackReceiver>[1],
  now?: () => Date,
): CallbackReceiver {
  const receiver = new CallbackReceiver(
    { store, pull: neverPulled, ...(now ? { now } : {}) },
    { pollIntervalMs: 10, ...options },
  );
  receivers.push(receiver);
  return receiver;
}

/** Entries finished now, straight through the inbox (no receiver involved). */
async function finished(store: ReferenceStore, references: string[]): Promise<void> {
  for (const reference of references) await store.inbox.append(callback(reference));
  const claims = await store.inbox.claim({ leaseMs: 60_000, limit: 1000 });
  for (const { entry, token } of claims)
    await store.inbox.finish(entry.id, token, { status: 'done', outcome: 'paid' });
}

/** A deferred the test resolves, to hold a prune in progress. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('inboxRetention: the option', () => {
  const bad: [unknown, string][] = [
    [true, 'inboxRetention'],
    [5, 'inboxRetention'],
    [[], 'inboxRetention'],
    [{ keepMs: 0 }, 'inboxRetention.keepMs'],
    [{ keepMs: -1 }, 'inboxRetention.keepMs'],
    [{ keepMs: 1.5 }, 'inboxRetention.keepMs'],
    [{ keepMs: '7d' }, 'inboxRetention.keepMs'],
    [{ keepMs: Number.NaN }, 'inboxRetention.keepMs'],
    [{ keepMs: 200 * 365 * day }, 'inboxRetention.keepMs'],
    [{ everyMs: 0 }, 'inboxRetention.everyMs'],
    [{ everyMs: Number.POSITIVE_INFINITY }, 'inboxRetention.everyMs'],
    [{ everyMs: 2 ** 31 }, 'inboxRetention.everyMs'],
  ];
  it.each(bad)('%j is a ConfigurationError naming %s', (inboxRetention, option) => {
    let failure: unknown;
    try {
      receiverOn(new MemoryReferenceStore(), { inboxRetention } as never);
    } catch (error) {
      failure = error;
    }
    expect(isConfigurationError(failure)).toBe(true);
    expect((failure as { option: string }).option).toBe(option);
    expect((failure as Error).message).toContain(option);
  });

  it('accepts false, {}, and whole numbers of ms up to the timer limit', () => {
    const store = new MemoryReferenceStore();
    expect(() => receiverOn(store, { inboxRetention: false })).not.toThrow();
    expect(() => receiverOn(store, { inboxRetention: {} })).not.toThrow();
    expect(() =>
      receiverOn(store, { inboxRetention: { keepMs: 90 * day, everyMs: 2 ** 31 - 1 } }),
    ).not.toThrow();
  });
});

describe('inboxRetention: the schedule', () => {
  it('start() prunes what finished more than keepMs ago, then again every everyMs', async () => {
    const clock = new TestClock();
    const store = new MemoryReferenceStore({ now: clock.now });
    await finished(store, ['OLD1', 'OLD2']);
    clock.advance(2 * day);
    await finished(store, ['RECENT']);
    clock.advance(day / 2);
    const pruned = vi.spyOn(store.inbox, 'prune');
    const receiver = receiverOn(store, { inboxRetention: { keepMs: day, everyMs: 5 } }, clock.now);
    // Not started: nothing is pruned.
    expect(pruned).not.toHaveBeenCalled();
    receiver.start();
    await vi.waitFor(async () => {
      const left = await store.inbox.list();
      expect(left.map((entry) => entry.claim.paymentReference)).toEqual(['RECENT']);
    }, patiently);
    const everyEntry = pruned.mock.calls.find(([options]) => options.outcomes === undefined);
    expect(everyEntry?.[0].olderThan).toEqual(new Date(clock.now().getTime() - day));
    // The next runs cut off at their own time: RECENT goes once it is older than keepMs.
    clock.advance(day);
    await vi.waitFor(async () => expect(await store.inbox.list()).toEqual([]), patiently);
  });

  it('false: the receiver never prunes', async () => {
    vi.useFakeTimers();
    const store = new MemoryReferenceStore();
    const pruned = vi.spyOn(store.inbox, 'prune');
    receiverOn(store, { inboxRetention: false }).start();
    // Enabled, the first prune runs right after start().
    await vi.advanceTimersByTimeAsync(100);
    expect(pruned).not.toHaveBeenCalled();
  });

  it('never overlaps itself: the next run starts everyMs after the previous one ended', async () => {
    vi.useFakeTimers();
    const store = new MemoryReferenceStore();
    const held = gate();
    let running = 0;
    let most = 0;
    const pruned = vi.spyOn(store.inbox, 'prune').mockImplementation(async () => {
      running += 1;
      most = Math.max(most, running);
      await held.opened;
      running -= 1;
      return { deleted: 0 };
    });
    receiverOn(store, { inboxRetention: { everyMs: 10 } }).start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(pruned).toHaveBeenCalledTimes(1);
    held.open();
    // A run is two prunes, one after the other: what changed nothing, then every entry.
    await vi.advanceTimersByTimeAsync(9);
    expect(pruned).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(pruned).toHaveBeenCalledTimes(4);
    await vi.advanceTimersByTimeAsync(100);
    expect(pruned).toHaveBeenCalledTimes(24);
    expect(most).toBe(1);
  });

  it('a run deletes batch after batch until one comes back short', async () => {
    vi.useFakeTimers();
    const store = new MemoryReferenceStore();
    const answers = [500, 500, 7];
    const pruned = vi
      .spyOn(store.inbox, 'prune')
      .mockImplementation(async () => ({ deleted: answers.shift() ?? 0 }));
    receiverOn(store, { inboxRetention: { everyMs: 3_600_000 } }).start();
    await vi.advanceTimersByTimeAsync(10);
    // The first pass (what changed nothing) takes three batches, then every entry's one.
    expect(pruned).toHaveBeenCalledTimes(4);
    const cutoffs = pruned.mock.calls.slice(0, 3).map(([options]) => options.olderThan.getTime());
    expect(new Set(cutoffs).size).toBe(1);
    expect(pruned.mock.calls.slice(0, 3).every(([options]) => options.outcomes !== undefined)).toBe(
      true,
    );
    expect(pruned.mock.calls[3]?.[0].outcomes).toBeUndefined();
    expect(pruned.mock.calls.every(([options]) => options.limit === 500)).toBe(true);
  });

  it('close() waits for the batch in progress, then stops the schedule', async () => {
    vi.useFakeTimers();
    const store = new MemoryReferenceStore();
    const held = gate();
    const pruned = vi.spyOn(store.inbox, 'prune').mockImplementation(async () => {
      await held.opened;
      return { deleted: 500 };
    });
    const receiver = receiverOn(store, { inboxRetention: { everyMs: 10 } }).start();
    await vi.advanceTimersByTimeAsync(1);
    expect(pruned).toHaveBeenCalledTimes(1);
    let closed = false;
    const closing = receiver.close().then(() => {
      closed = true;
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(closed).toBe(false);
    held.open();
    await closing;
    // A full batch would have asked for another one; closing stopped it.
    await vi.advanceTimersByTimeAsync(1_000);
    expect(pruned).toHaveBeenCalledTimes(1);
  });

  it('a failed prune is an error event with stage "prune", and the schedule goes on', async () => {
    vi.useFakeTimers();
    const store = new MemoryReferenceStore();
    const pruned = vi
      .spyOn(store.inbox, 'prune')
      .mockRejectedValueOnce(new Error('database is locked'))
      .mockResolvedValue({ deleted: 0 });
    const receiver = receiverOn(store, { inboxRetention: { everyMs: 10 } });
    const errors: { stage: string; message: string }[] = [];
    receiver.on('error', ({ stage, error }) => errors.push({ stage, message: error.message }));
    receiver.start();
    await vi.advanceTimersByTimeAsync(25);
    expect(errors).toEqual([{ stage: 'prune', message: 'database is locked' }]);
    expect(pruned.mock.calls.length).toBeGreaterThanOrEqual(3);
  });

  it('several receivers on one store each prune safely: every entry is deleted once', async () => {
    const clock = new TestClock();
    const store = new MemoryReferenceStore({ now: clock.now });
    await finished(
      store,
      Array.from({ length: 30 }, (_, index) => `MANY${index}`),
    );
    clock.advance(8 * day);
    const deleted: number[] = [];
    const prune = store.inbox.prune.bind(store.inbox);
    vi.spyOn(store.inbox, 'prune').mockImplementation(async (options) => {
      const result = await prune(options);
      deleted.push(result.deleted);
      return result;
    });
    for (let index = 0; index < 3; index += 1) {
      receiverOn(store, { inboxRetention: { everyMs: 5 } }, clock.now).start();
    }
    await vi.waitFor(() => expect(deleted.length).toBeGreaterThanOrEqual(6), patiently);
    expect(deleted.reduce((sum, count) => sum + count, 0)).toBe(30);
    expect(await store.inbox.list()).toEqual([]);
  });
});
