import { randomUUID } from 'node:crypto';
import type { TransactionRecord } from '../types.js';
import { firstInOrder } from './first-in-order.js';
import type { ParsedLeaseDue, ParsedRelease } from './input-rules.js';
import { type LeasedRecord, maxObservations } from './types.js';

interface Slot {
  nextCheckAt: Date | null;
  token: string | null;
  leaseExpiresAt: Date | null;
  observations: unknown[];
}

/** The slot of a record never leased: read, never written (a lease makes the record's own). */
const unscheduled: Readonly<Slot> = Object.freeze({
  nextCheckAt: null,
  token: null,
  leaseExpiresAt: null,
  observations: [],
});

/**
 * The memory store's schedule: next due time and lease per record, kept beside the records
 * (one process, so a Map is the whole truth). Decides exactly as the SQL query does.
 */
export class MemorySchedule {
  readonly #slots = new Map<string, Slot>();

  lease(records: Iterable<TransactionRecord>, options: ParsedLeaseDue, now: Date): LeasedRecord[] {
    // Every record is looked at on every page: instants as numbers (no Date coercion per
    // comparison), and no slot made for a record merely looked at.
    const started = (options.passStartedAt ?? now).getTime();
    const at = now.getTime();
    const initiatingBefore = options.initiatingBefore?.getTime();
    const due: { record: TransactionRecord; slot: Slot }[] = [];
    for (const record of records) {
      if (!options.statuses.includes(record.status)) continue;
      if (record.lastCheckedAt !== null && record.lastCheckedAt.getTime() >= started) continue;
      if (
        record.status === 'initiating' &&
        initiatingBefore !== undefined &&
        record.createdAt.getTime() >= initiatingBefore
      ) {
        continue;
      }
      const slot = this.#slots.get(record.merchantReference) ?? unscheduled;
      if (
        slot.token !== null &&
        slot.leaseExpiresAt !== null &&
        slot.leaseExpiresAt.getTime() > at
      ) {
        continue;
      }
      if (!options.force && slot.nextCheckAt !== null && slot.nextCheckAt.getTime() > started) {
        continue;
      }
      due.push({ record, slot });
    }
    return firstInOrder(due, options.limit, byDueTime).map(({ record }) => {
      const slot = this.#slot(record.merchantReference);
      const nextCheckAt = slot.nextCheckAt && new Date(slot.nextCheckAt);
      slot.token = randomUUID();
      slot.leaseExpiresAt = new Date(now.getTime() + options.leaseMs);
      const leased: LeasedRecord = { record, token: slot.token, nextCheckAt };
      if (options.observations) leased.observations = structuredClone(slot.observations);
      return leased;
    });
  }

  /** Ends the lease if `token` holds it; records the check on `record`. */
  release(record: TransactionRecord, token: string, options: ParsedRelease, now: Date): boolean {
    if (!this.holds(record.merchantReference, token)) return false;
    const slot = this.#slot(record.merchantReference);
    slot.token = null;
    slot.leaseExpiresAt = null;
    slot.nextCheckAt = new Date(options.nextCheckAt);
    if (options.observationJson !== undefined) {
      const observation: unknown = JSON.parse(options.observationJson);
      slot.observations = [...slot.observations, observation].slice(-maxObservations);
    }
    if (options.counted) {
      record.lastCheckedAt = options.checkedAt ?? now;
      record.checkCount += 1;
      record.updatedAt = now;
    }
    return true;
  }

  /** What the record's checks saw, oldest first (a copy). */
  observations(merchantReference: string): unknown[] {
    return structuredClone(this.#slots.get(merchantReference)?.observations ?? []);
  }

  /** True while `token` is the record's current lease (expired but not taken still counts). */
  holds(merchantReference: string, token: string): boolean {
    return this.#slots.get(merchantReference)?.token === token;
  }

  #slot(merchantReference: string): Slot {
    let slot = this.#slots.get(merchantReference);
    if (!slot) {
      slot = { nextCheckAt: null, token: null, leaseExpiresAt: null, observations: [] };
      this.#slots.set(merchantReference, slot);
    }
    return slot;
  }
}

/** Never-scheduled first, then the earliest due; the merchant reference breaks ties. */
function byDueTime(a: { record: TransactionRecord; slot: Slot }, b: typeof a): number {
  const x = a.slot.nextCheckAt?.getTime() ?? Number.NEGATIVE_INFINITY;
  const y = b.slot.nextCheckAt?.getTime() ?? Number.NEGATIVE_INFINITY;
  if (x !== y) return x < y ? -1 : 1;
  const p = a.record.merchantReference;
  const q = b.record.merchantReference;
  return p < q ? -1 : p > q ? 1 : 0;
}
