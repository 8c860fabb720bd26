import type { ReferenceStore } from '../references/index.js';
import type { LeasedRecord, LeaseRelease } from '../references/schedule/types.js';
import type { PassState } from './check-context.js';
import { DueRecords, leaseMarginMs } from './due-records.js';
import { emptyProgress, type ReconcileProgress } from './events.js';
import { awaitShared, LeaseMargin, MarginWaiters } from './lease-margin.js';
import type { ResolvedOptions } from './options.js';
import { PayoutHistory } from './payout-history.js';
import type { Platform } from './platform.js';

export interface PassRun {
  pass: PassState;
  progress: ReconcileProgress;
  force: boolean;
  stopped: () => boolean;
  release: (release: LeaseRelease) => Promise<void>;
  /** Hands back, uncounted, a record whose lease margin ran out before its pull could leave. */
  expired: (leased: LeasedRecord) => Promise<void>;
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
  // A page is at most a quarter of a lease's worth of requests at `ratePerSecond`.
  const limit = Math.max(
    1,
    Math.min(options.batchSize, Math.floor((options.ratePerSecond * options.leaseMs) / 4000)),
  );
  const release = async ({ merchantReference, token, ...written }: LeaseRelease) => {
    try {
      await store.releaseLease(merchantReference, token, written);
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
  return { run: { pass, progress, force, stopped, release, expired }, due };
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
