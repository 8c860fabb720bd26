/** An MSISDN with all but its last 3 digits masked, for anything published. */
export function maskMsisdn(msisdn: string | null | undefined): string | undefined {
  if (msisdn === null || msisdn === undefined) return undefined;
  return '*'.repeat(Math.max(0, msisdn.length - 3)) + msisdn.slice(-3);
}
