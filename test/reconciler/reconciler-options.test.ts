import { afterAll, describe, expect, it } from 'vitest';
import { isConfigurationError, MemoryReferenceStore, Pesakit } from '../../src/index.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { runCli, temporaryDirectory } from '../reconciler-cli/harness.js';

// Checks createReconciler's options and `pesakit reconcile --concurrency`
// (docs/reconciler.md). Two values a merchant can reasonably write were mishandled:
// - a `pollIntervalMs` beyond what a Node timer can wait (2^31-1 ms, about 24.8 days — a
//   monthly sweep is 2.6e9) was accepted, and Node ran the timer after 1 ms instead: `start()`
//   ran passes back to back, hundreds a second, each one a store query;
// - `--concurrency 500`, inside the CLI's documented 1–1000, exited 1 ("the run failed") with
//   "concurrency must be a number", because the reconciler takes at most 256.

function thrownBy(make: () => unknown): unknown {
  try {
    make();
  } catch (error) {
    return error;
  }
  return undefined;
}

const client = (store = new MemoryReferenceStore()) =>
  new Pesakit({ environment: 'sandbox', baseUrl: 'http://127.0.0.1:9', store });

describe('createReconciler: values out of range name the option and the range', () => {
  it('a pollIntervalMs a timer cannot wait is refused', () => {
    const error = thrownBy(() => client().createReconciler({ pollIntervalMs: 30 * 86_400_000 }));
    expect(isConfigurationError(error)).toBe(true);
    expect((error as { option: string }).option).toBe('pollIntervalMs');
    expect(String(error)).toMatch(/pollIntervalMs must be at most 2147483647/);
  });

  it('the longest timer Node can wait is accepted, and start() then waits between passes', async () => {
    const store = new MemoryReferenceStore();
    let passes = 0;
    const lease = store.schedule.lease.bind(store.schedule);
    store.schedule.lease = (options) => {
      passes += 1;
      return lease(options);
    };
    const reconciler = client(store).createReconciler({ pollIntervalMs: 2 ** 31 - 1 });
    reconciler.start();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await reconciler.close();
    expect(passes).toBe(1);
  });

  it('a concurrency above 256 says so (not "must be a number")', () => {
    const error = thrownBy(() => client().createReconciler({ concurrency: 500 }));
    expect(isConfigurationError(error)).toBe(true);
    expect((error as { option: string }).option).toBe('concurrency');
    expect(String(error)).toMatch(/concurrency must be at most 256/);
  });

  it('null options, or null where an object belongs, name the option (not "the request body")', () => {
    const none = thrownBy(() => client().createReconciler(null as never));
    expect(isConfigurationError(none)).toBe(true);
    expect(String(none)).toMatch(/options must be an object/);
    const schedules = thrownBy(() => client().createReconciler({ schedules: null as never }));
    expect(isConfigurationError(schedules)).toBe(true);
    expect((schedules as { option: string }).option).toBe('schedules');
    expect(String(schedules)).toMatch(/schedules: /);
    expect(String(schedules)).not.toMatch(/request body|is required/);
  });
});

describe('pesakit reconcile --concurrency', () => {
  const directory = temporaryDirectory();
  afterAll(() => directory.remove());
  const credentials = {
    PESAKIT_COLLECTION_EMAIL: 'shop@example.tz',
    PESAKIT_COLLECTION_PASSWORD: 'collect-secret-1',
  };

  it('a value the reconciler cannot take is a usage error (exit 2) naming the range', async () => {
    const file = `${directory.path}/payments.sqlite`;
    await (await SqliteReferenceStore.open(file)).close();
    const run = await runCli(
      ['reconcile', '--store', file, '-e', 'sandbox', '--concurrency', '500'],
      { ...credentials, PESAKIT_BASE_URL: 'http://127.0.0.1:9' },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--concurrency must be a whole number from 1 to 256/);
    expect(run.stderr).not.toMatch(/must be a number/);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });
});
