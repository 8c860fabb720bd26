import { randomUUID } from 'node:crypto';
import { TransactionNotFoundError } from '../../errors/transaction-not-found-error.js';
import type { SchedulePart } from '../checked-parts.js';
import { byDueTime } from '../reconciliation-order.js';
import type { TransactionRecord } from '../record.js';
import { copyRecord } from '../record-copy.js';
import { firstInOrder } from './first-in-order.js';
import type { ParsedLeaseDue, ParsedRelease } from './input-rules.js';
import { type LeasedRecord, maxObservations } from './types.js';

interface Slot {
  nextCheckAt: Date | null;
  token: string | null;
  leaseExpiresAt: Date | null;
  observations: unknown[];
}

/** The slot of a record never leased: read, never written. */
const unscheduled: Readonly<Slot> = Object.freeze({
  nextCheckAt: null,
  token: null,
  leaseExpiresAt: null,
  observations: [],
});

/** Next due time and lease per record, beside the records; decides as the SQL query does. */
export class MemorySchedule implements SchedulePart {
  readonly #slots = new Map<string, Slot>();
  readonly #records: ReadonlyMap<string, TransactionRecord>;
  readonly #now: () => Date;
  /** `records`: the store's own; a lease hands out copies, a release counts the check in place. */
  constructor(records: ReadonlyMap<string, TransactionRecord>, now: () => Date) {
    this.#records = records;
    this.#now = now;
  }
  lease(options: ParsedLeaseDue): LeasedRecord[] {
    const now = this.#now();
    // Every record is looked at on every page: compare numbers, make no slot for a mere look.
    const started = (options.passStartedAt ?? now).getTime();
    const at = now.getTime();
    const initiatingBefore = options.initiatingBefore?.getTime();
    const due: { record: TransactionRecord; nextCheckAt: Date | null }[] = [];
    for (const record of this.#records.values()) {
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
      due.push({ record, nextCheckAt: slot.nextCheckAt });
    }
    return firstInOrder(due, options.limit, byDueTime).map(({ record }) => {
      const slot = this.#slot(record.merchantReference);
      const nextCheckAt = slot.nextCheckAt && new Date(slot.nextCheckAt);
      slot.token = randomUUID();
      slot.leaseExpiresAt = new Date(now.getTime() + options.leaseMs);
      const leased: LeasedRecord = { record: copyRecord(record), token: slot.token, nextCheckAt };
      if (options.observations) leased.observations = structuredClone(slot.observations);
      return leased;
    });
  }
  release(merchantReference: string, options: ParsedRelease): boolean {
    const record = this.#require(merchantReference);
    const now = this.#now();
    if (!this.holds(record.merchantReference, options.token)) return false;
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
  observations(merchantReference: string): unknown[] {
    this.#require(merchantReference);
    return structuredClone(this.#slots.get(merchantReference)?.observations ?? []);
  }
  /** True while `token` is the record's current lease (expired but not taken still counts). */
  holds(merchantReference: string, token: string): boolean {
    return this.#slots.get(merchantReference)?.token === token;
  }
  #require(merchantReference: string): TransactionRecord {
    const record = this.#records.get(merchantReference);
    if (!record) throw new TransactionNotFoundError(merchantReference);
    return record;
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
