import type { CallbackClaim } from '../references/inbox/types.js';
import type { TransactionRecord } from '../references/record.js';
import type { ReferenceStore } from '../references/types.js';

/** By platform references, then by the `pesakit_ref` hint for a record with none yet. */
export async function findRecord(
  store: Pick<ReferenceStore, 'records'>,
  claim: CallbackClaim,
): Promise<{ record: TransactionRecord; by: 'reference' | 'hint' } | undefined> {
  const lookups = [
    { field: 'controlNumber', value: claim.controlNumber },
    { field: 'paymentReference', value: claim.paymentReference },
    { field: 'externalReference', value: claim.externalReference },
  ] as const;
  for (const { field, value } of lookups) {
    if (!value) continue;
    const record = await store.records.find({ field, value });
    if (record) return { record, by: 'reference' };
  }
  if (!claim.merchantReferenceHint) return undefined;
  const hinted = await store.records.get(claim.merchantReferenceHint);
  if (!hinted || pullReferenceOf(hinted) !== undefined) return undefined;
  return { record: hinted, by: 'hint' };
}

/** The reference to pull a record's status by (none: the record has no platform reference yet);
 * always the record's own, never the callback's. */
export function pullReferenceOf(record: TransactionRecord): string | undefined {
  return record.controlNumber ?? record.paymentReference ?? record.externalReference ?? undefined;
}
