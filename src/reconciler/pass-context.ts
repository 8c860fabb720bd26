import type { ReferenceStore } from '../references/index.js';
import type { LeasedRecord } from '../references/schedule/types.js';
import type { PassState } from './check-context.js';
import { DueRecords, leaseMarginMs } from './due-records.js';
import { emptyProgress, type ReconcileProgress } from './events.js';
import { awaitShared, LeaseMargin, MarginWaiters } from './lease-margin.js';
import type { ResolvedOptions } from './options.js';
import { PayoutHistory } from './payout-history.js';
import type { Platform } from './platform.js';
import { ReleaseQueue } from './release-queue.js';

/**
 * Releases written per batch, at most (release-queue.ts): a whole page (200 by default), which
 * is flushed at its end anyway. Fewer, larger batches: each commit rewrites the same hot index
 * and table pages, so many small ones write (and checkpoint) far more than one large one.
 */
const releaseBatch = 200;
/**
 * How long a finished check's write may wait for others to share its transaction. Only bounds
 * the wait on a slow page (at the default 20 requests/s a page takes 10 s): the record stays
 * leased to this worker meanwhile, so nothing but the write's timing changes.
 */
const releaseDelayMs = 1000;

/** What one pass hands each of its checks. */
export interface PassRun {
  pass: PassState;
  progress: ReconcileProgress;
  force: boolean;
  stopped: () => boolean;
  releases: ReleaseQueue;
  /** Hands back, uncounted, a record whose lease margin ran out before its pull could leave. */
  expired: (leased: LeasedRecord) => void;
}

/** What a pass is set up from: the reconciler's parts, and how the pass reports. */
export interface PassSetUp {
  store: ReferenceStore;
  options: ResolvedOptions;
  platform: Platform;
  now: () => Date;
  /** Every check of the pass is forced (`runOnce({ force })`, the CLI's `--all`). */
  force: boolean;
  /** The reconciler is closing or the caller's signal aborted: lease nothing more. */
  stopped: () => boolean;
  /** A batch of releases could not be written (the leases expire by themselves). */
  onError: (error: unknown) => void;
  /** The counts changed. */
  onProgress: (progress: ReconcileProgress) => void;
}

/**
 * Everything one pass builds before its first check: the source of leased records, the queue
 * their writes go through, and the pulls its checks share. Here rather than in reconciler.ts so
 * that the reconciler reads as the pass itself (check, finish, emit), and so that what is built
 * once per pass — not once per record — is in one place.
 */
export function startPass(setUp: PassSetUp): { run: PassRun; due: DueRecords } {
  const { store, options, now, force, stopped } = setUp;
  const passStartedAt = now();
  const progress = emptyProgress();
  // A page must be checked well within its lease, or its records' leases run out before
  // their turn (due-records.ts drops those): at most a quarter of a lease's worth of requests
  // per page. Leased ahead at the middle of the page before, a page is then handed out by
  // three eighths of its lease at `ratePerSecond`, well before the last quarter, in which no
  // check starts (leaseMarginMs).
  const limit = Math.max(
    1,
    Math.min(options.batchSize, Math.floor((options.ratePerSecond * options.leaseMs) / 4000)),
  );
  // The checks' writes (count, observation, next due time, end of lease) go to the store in
  // batches: one transaction per batch rather than per record (release-queue.ts).
  const releases = new ReleaseQueue(store, {
    maxBatch: Math.min(limit, releaseBatch),
    maxDelayMs: releaseDelayMs,
    onError: setUp.onError,
  });
  // A record whose lease margin ran out before it was pulled — before a check took it
  // (due-records.ts) or while its request waited at the rate gate (rate-gate.ts).
  const expired = (leased: LeasedRecord) => {
    progress.leaseExpired += 1;
    releases.add({
      merchantReference: leased.record.merchantReference,
      token: leased.token,
      nextCheckAt: leased.nextCheckAt ?? passStartedAt,
      counted: false,
    });
    setUp.onProgress(progress);
  };
  const due = new DueRecords(store, {
    limit,
    leaseMs: options.leaseMs,
    force,
    passStartedAt,
    // Within its grace an initiating record is most likely being sent right now: not leased
    // at all. Leased, it could only be handed back unchecked — and a forced pass, which
    // ignores due times, would lease it again on the next page, page after page.
    initiatingBefore: new Date(passStartedAt.getTime() - options.initiatingGraceMs),
    observations: false,
    stopped,
    beforeLease: () => void releases.flush(),
    now: () => now().getTime(),
    marginMs: leaseMarginMs(options.leaseMs),
    // Its lease (nearly) over before a check could take it: not pulled (another worker may
    // hold it by now), counted, and handed back as due — if the lease is still ours, the
    // record is free at once; if another worker has it, the fenced release writes nothing.
    // Due no later than the pass's start, so that this pass's next page may take it again.
    expired,
  });
  const pass = passState(setUp.platform, now);
  return { run: { pass, progress, force, stopped, releases, expired }, due };
}

/** The pulls a pass's checks share: each is sent at most once per pass (while it succeeds). */
function passState(platform: Platform, now: () => Date): PassState {
  let airtimeUser: Promise<unknown> | undefined;
  // One wallet pull for every airtime check of the pass: sent while one of them is inside its
  // lease margin; a check whose margin ran out while it waited is handed back (lease-margin.ts).
  const waiters = new MarginWaiters();
  const nowMs = () => now().getTime();
  return {
    payouts: new PayoutHistory(platform, now),
    airtimeUser: (usableUntil) =>
      awaitShared(waiters, usableUntil, nowMs, () => {
        // Its own margin (a pull that ran out of it is not reused): the latest of those waiting.
        airtimeUser ??= platform.airtimeUser(new LeaseMargin(() => waiters.latest()));
        airtimeUser.catch(() => {
          airtimeUser = undefined;
        });
        return airtimeUser;
      }),
  };
}
