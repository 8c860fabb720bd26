import { describe, expect, it } from 'vitest';
import { LeaseMarginSpent } from '../../src/reconciler/lease-margin.js';
import { PayoutHistory } from '../../src/reconciler/payout-history.js';
import type { PayoutPage, Platform } from '../../src/reconciler/platform.js';
import { RateGate } from '../../src/reconciler/rate-gate.js';
import { MemoryReferenceStore } from '../../src/references/memory-store.js';

/**
 * The payout history is pulled once for every due payout of a pass, so a page's request waits
 * for several checks, each with its own lease margin. The rule (docs/reconciler.md, Many
 * workers): the page leaves the rate gate while at least one of them is inside its margin; a
 * check whose margin ran out while it waited is handed back (LeaseMarginSpent), the others
 * decide on the page. Here the clock is a number the test moves, and the gate is the real one.
 */
function historyWithClock() {
  let now = 1_000;
  const gate = new RateGate({
    concurrency: 4,
    ratePerSecond: 1_000,
    rateLimit: new MemoryReferenceStore().rateLimit,
    key: () => 'sandbox:shop@example.co.tz',
    now: () => now,
  });
  const sent: number[] = [];
  let release: (() => void) | undefined;
  const platform: Platform = {
    collectionStatus: () => Promise.reject(new Error('not used')),
    airtimeUser: () => Promise.reject(new Error('not used')),
    canUse: () => true,
    payouts: (page, _perPage, margin) =>
      gate.run(
        'disbursement',
        async () => {
          sent.push(page);
          // The page's answer waits until the test lets it through (the platform is slow).
          await new Promise<void>((resolve) => {
            release = resolve;
          });
          const answer: PayoutPage = { data: [], currentPage: page, lastPage: 1 };
          return answer;
        },
        margin,
      ),
  };
  const history = new PayoutHistory(platform, () => new Date(now));
  return {
    history,
    gate,
    sent,
    setNow: (ms: number) => {
      now = ms;
    },
    answer: () => release?.(),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));
const since = new Date(0);

describe('the payout history and the lease margins of the checks waiting for it', () => {
  it('pulls the page for the checks still inside their margin and hands back the one whose margin ran out meanwhile', async () => {
    const h = historyWithClock();
    const early = h.history.covering(since, 2_000).then(
      () => 'rows',
      (error: unknown) => (error instanceof LeaseMarginSpent ? 'handed back' : error),
    );
    const late = h.history.covering(since, 5_000).then(
      () => 'rows',
      (error: unknown) => (error instanceof LeaseMarginSpent ? 'handed back' : error),
    );
    await tick();
    expect(h.sent).toEqual([1]); // one page for both
    h.setNow(3_000); // the first check's margin runs out while the page is on its way
    h.answer();
    expect(await early).toBe('handed back');
    expect(await late).toBe('rows');
    await h.gate.close();
  });

  it('sends nothing when every waiting check is out of its margin as the page leaves the gate', async () => {
    const h = historyWithClock();
    h.gate.pause('disbursement', 50); // a 429: the page's request waits in the gate
    const first = h.history.covering(since, 2_000).catch((error: unknown) => error);
    const second = h.history.covering(since, 2_500).catch((error: unknown) => error);
    await tick();
    h.setNow(2_500); // both margins are over before the pause ends
    expect(await first).toBeInstanceOf(LeaseMarginSpent);
    expect(await second).toBeInstanceOf(LeaseMarginSpent);
    expect(h.sent).toEqual([]);
    await h.gate.close();
  });

  it('still pulls after a pause when one waiting check is inside its margin', async () => {
    const h = historyWithClock();
    h.gate.pause('disbursement', 50);
    const out = h.history.covering(since, 2_000).catch((error: unknown) => error);
    const inside = h.history.covering(since, 9_000);
    await tick();
    h.setNow(2_500);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(h.sent).toEqual([1]);
    h.answer();
    expect(await out).toBeInstanceOf(LeaseMarginSpent);
    expect(await inside).toMatchObject({ pages: 1, covers: true });
    await h.gate.close();
  });
});
