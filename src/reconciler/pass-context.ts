import type { ReferenceStore } from '../references/index.js';
import type { LeasedRecord, LeaseRelease } from '../references/schedule/types.js';
import type { PassState } from './check-context.js';
import { DueRecords, leaseMarginMs } from './due-records.js';
import { emptyProgress, type ReconcileProgress } from './events.js';
import { awaitShared, LeaseMargin, MarginWaiters } from './lease-margin.js';
import type { ResolvedOptions } from './options.js';
import { PayoutHistory } from './payout-history.js';
import type { Platform } from './platform.js';
import { nextCheckAt } from './schedule.js';

export interface PassRun {
  pass: PassState;
  progress: ReconcileProgress;
  force: boolean;
  stopped: () => boolean;
  release: (release: LeaseRelease) => Promise<void>;
  /** Hands back, uncounted, a record whose lease margin ran out before its pull could leave. */
  expired: (leased: LeasedRecord) => Promise<void>;
  /**
   * Keeps a record's lease until the pass ends, so that no page of the pass (a forced one
   * included) leases it again: a record this client cannot pull (another account or
   * environment), or one a forced pass left waiting without a pull. True the first time the pass
   * meets it (a lease that expired in a long pass is taken again).
   */
  hold: (leased: LeasedRecord, nextCheckAt?: Date) => boolean;
  /**
   * Hands back every held record, uncounted, due at the time it was held with, else when its
   * next check would be.
   */
  releaseHeld: () => Promise<void>;
}

export interface PassSetUp {
  store: ReferenceStore;
  options: ResolvedOptions;
  platform: Platform;
  now: () => Date;
  force: boolean;
  stopped: () => boolean;
  /** A lease could not be released (it expires by itself; the record is only checked late). */
  onError: (error: unknown) => void;
  onProgress: (progress: ReconcileProgress) => void;
}

/** Everything one pass builds before its first check. */
export function startPass(setUp: PassSetUp): { run: PassRun; due: DueRecords } {
  const { store, options, now, force, stopped } = setUp;
  const passStartedAt = now();
  const progress = emptyProgress();
  // A page is what this worker can start at once (`concurrency`), so that workers running
  // together share even a pass smaller than `batchSize`: a record waits in no worker's page
  // while another has a free slot. Never more than a quarter of a lease's worth of requests
  // at `ratePerSecond`.
  const limit = Math.max(
    1,
    Math.min(
      options.batchSize,
      options.concurrency,
      Math.floor((options.ratePerSecond * options.leaseMs) / 4000),
    ),
  );
  const release = async ({ merchantReference, token, ...written }: LeaseRelease) => {
    try {
      await store.schedule.release(merchantReference, token, written);
    } catch (error) {
      setUp.onError(error);
    }
  };
  // Handed back unpulled, due by the pass's start so that its next page may take it again.
  const expired = async (leased: LeasedRecord) => {
    progress.leaseExpired += 1;
    setUp.onProgress(progress);
    await release({
      merchantReference: leased.record.merchantReference,
      token: leased.token,
      nextCheckAt: leased.nextCheckAt ?? passStartedAt,
      counted: false,
    });
  };
  const held = new Map<string, { leased: LeasedRecord; nextCheckAt: Date | undefined }>();
  const hold = (leased: LeasedRecord, nextCheckAt?: Date) => {
    const first = !held.has(leased.record.merchantReference);
    held.set(leased.record.merchantReference, { leased, nextCheckAt });
    return first;
  };
  const releaseHeld = async () => {
    for (const { leased, nextCheckAt: at } of held.values()) {
      const { record, token } = leased;
      await release({
        merchantReference: record.merchantReference,
        token,
        nextCheckAt: at ?? nextCheckAt(record, record.checkCount + 1, options, now()),
        counted: false,
      });
    }
    held.clear();
  };
  const due = new DueRecords(store, {
    limit,
    leaseMs: options.leaseMs,
    force,
    passStartedAt,
    // An initiating record within its grace is most likely being sent right now: not leased.
    initiatingBefore: new Date(passStartedAt.getTime() - options.initiatingGraceMs),
    observations: false,
    stopped,
    now: () => now().getTime(),
    marginMs: leaseMarginMs(options.leaseMs),
    expired,
  });
  const pass = passState(setUp.platform, now);
  const run = {
    pass,
    progress,
    force,
    stopped,
    release,
    expired,
    hold,
    releaseHeld,
  };
  return { run, due };
}

function passState(platform: Platform, now: () => Date): PassState {
  let airtimeUser: Promise<unknown> | undefined;
  // One wallet pull for every airtime check, sent while one of them is inside its margin.
  const waiters = new MarginWaiters();
  const nowMs = () => now().getTime();
  return {
    payouts: new PayoutHistory(platform, now),
    airtimeUser: (usableUntil) =>
      awaitShared(waiters, usableUntil, nowMs, () => {
        airtimeUser ??= platform.airtimeUser(new LeaseMargin(() => waiters.latest()));
        airtimeUser.catch(() => {
          airtimeUser = undefined;
        });
        return airtimeUser;
      }),
  };
}
