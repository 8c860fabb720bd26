import { describe, expect, it } from 'vitest';
import { MemoryReferenceStore } from '../../../src/references/index.js';
import { LeasedTokens } from '../../../src/references/rate-limit/leased-tokens.js';
import type { RateLimitTake, SharedRateLimit } from '../../../src/references/rate-limit/types.js';

const key = 'sandbox:shop@example.co.tz';

/** The store's rate limit, counting the takes that were granted (each is one write). */
function countingRateLimit(rateLimit: SharedRateLimit) {
  const granted: RateLimitTake[] = [];
  const counted: SharedRateLimit = {
    take: async (bucket, take) => {
      const grant = await rateLimit.take(bucket, take);
      if (grant.granted > 0) granted.push(take);
      return grant;
    },
    pause: (bucket, ms) => rateLimit.pause(bucket, ms),
  };
  return { counted, granted };
}

describe('a process leases its tokens from the shared bucket a batch at a time', () => {
  it('takes a tenth of a second of requests in one write, and waits for the next batch', async () => {
    const { counted, granted } = countingRateLimit(new MemoryReferenceStore().rateLimit);
    const tokens = new LeasedTokens({ rateLimit: counted, key, ratePerSecond: 100 });
    const started = performance.now();
    for (let request = 0; request < 30; request += 1) await tokens.acquire();
    // 30 requests at 100/s, 10 a batch: three writes, the first batch at once and two waits of
    // a tenth of a second (a loaded machine can only make them longer).
    expect(granted).toEqual(
      Array.from({ length: 3 }, () => ({ ratePerSecond: 100, burst: 10, want: 10 })),
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(195);
  });

  it('requests waiting at once share one take rather than each making one', async () => {
    const { counted, granted } = countingRateLimit(new MemoryReferenceStore().rateLimit);
    const tokens = new LeasedTokens({ rateLimit: counted, key, ratePerSecond: 40 });
    await Promise.all(Array.from({ length: 8 }, () => tokens.acquire()));
    expect(granted).toHaveLength(2);
  });

  it('takes no more at a time than it can send at once, so a rate far above it starves no one', async () => {
    const { counted, granted } = countingRateLimit(new MemoryReferenceStore().rateLimit);
    // Two workers at 1,000,000/s, 8 requests each at once: a tenth of a second would be 100,000
    // tokens, all of the bucket, and the other worker would wait for a batch nobody spends.
    const workers = [1, 2].map(
      () => new LeasedTokens({ rateLimit: counted, key, ratePerSecond: 1e6, concurrency: 8 }),
    );
    await Promise.all(
      workers.flatMap((tokens) => Array.from({ length: 8 }, () => tokens.acquire())),
    );
    expect(granted).toEqual([
      { ratePerSecond: 1e6, burst: 8, want: 8 },
      { ratePerSecond: 1e6, burst: 8, want: 8 },
    ]);
  });

  it('a rate above what the bucket takes limits nothing, and is not an input error', async () => {
    const tokens = new LeasedTokens({
      rateLimit: new MemoryReferenceStore().rateLimit,
      key,
      ratePerSecond: 1e12,
    });
    await Promise.all(Array.from({ length: 1_000 }, () => tokens.acquire()));
  });

  it("another process's pause stops this one, and is announced once", async () => {
    const { rateLimit } = new MemoryReferenceStore();
    const pauses: number[] = [];
    const here = new LeasedTokens({
      rateLimit,
      key,
      ratePerSecond: 20,
      onPause: (ms) => pauses.push(ms),
    });
    const there = new LeasedTokens({ rateLimit, key, ratePerSecond: 20 });
    await there.pause(300);
    const started = performance.now();
    await here.acquire();
    await here.acquire();
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    expect(pauses).toHaveLength(1);
    expect(pauses[0]).toBeGreaterThan(200);
    // Another account's bucket was not paused.
    const other = new LeasedTokens({
      rateLimit,
      key: 'sandbox:other@example.co.tz',
      ratePerSecond: 20,
    });
    const otherStarted = performance.now();
    await other.acquire();
    expect(performance.now() - otherStarted).toBeLessThan(200);
  });
});
