/** Test MSISDNs pick outcomes by their last three digits (docs/sandbox.md § Test numbers). */
export type UpstreamOutcome = 'success' | 'failure';

/** Ending `999`: the upstream (airtime vendor, disbursement gateway, collection engine) fails. */
export const FAILING_SUFFIX = '999';
/** Ending `998`: a collection never settles by itself (only the control API settles it). */
export const SILENT_SUFFIX = '998';
/** Ending `997`: a collection settles, but ten times later than the auto-settle delay. */
export const LATE_SUFFIX = '997';
/** How much later a `997` number settles. */
export const LATE_FACTOR = 10;

/** A card number ending `0002` is declined on the hosted checkout; any other is accepted. */
export const DECLINED_CARD_SUFFIX = '0002';

export function upstreamOutcome(msisdn: string): UpstreamOutcome {
  return msisdn.endsWith(FAILING_SUFFIX) ? 'failure' : 'success';
}

/** When an automatically settled collection settles: a delay in ms, or never. */
export function settlementDelay(msisdn: string, delayMs: number): number | 'never' {
  if (msisdn.endsWith(SILENT_SUFFIX)) return 'never';
  if (msisdn.endsWith(LATE_SUFFIX)) return delayMs * LATE_FACTOR;
  return delayMs;
}
