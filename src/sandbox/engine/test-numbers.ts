/** Test MSISDNs: `999` fails upstream, `998` never settles by itself, `997` settles 10× later. */
export function upstreamOutcome(msisdn: string): 'success' | 'failure' {
  return msisdn.endsWith('999') ? 'failure' : 'success';
}

/** A card number ending `0002` is declined on the hosted checkout; any other is accepted. */
export const DECLINED_CARD_SUFFIX = '0002';

/** When an automatically settled collection settles: a delay in ms, or never. */
export function settlementDelay(msisdn: string, delayMs: number): number | 'never' {
  if (msisdn.endsWith('998')) return 'never';
  return msisdn.endsWith('997') ? delayMs * 10 : delayMs;
}
