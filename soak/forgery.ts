// Forged callbacks, as anyone who learns a callback URL can send them (the platform's callbacks
// are unsigned): unknown references, real references with false claims, and a real payment's
// callback under another payment's `pesakit_ref`. None may settle, fail or block anything.
import type { Draw } from './seeded.js';

export type ForgeryKind = 'unknown_reference' | 'false_claim' | 'borrowed_pesakit_ref';

/** A collection the driver started, with what it will really do. */
export interface StartedCollection {
  merchantReference: string;
  controlNumber: string;
  reference: string;
  amount: number;
  /** The status the platform will reach, if it settles at all. */
  settlesAs: 'success' | 'failed' | 'never';
}

function engineDate(): string {
  return new Date().toISOString().slice(0, 19).replace('T', ' ');
}

function callbackBody(
  claim: { controlNumber: string; reference: string; amount: number; status: boolean },
  draw: Draw,
) {
  return {
    message: claim.status ? 'Payment successful' : 'Payment failed',
    code: claim.status ? '200' : '400',
    status: claim.status,
    description: claim.status ? 'Success' : 'Failed',
    data: {
      providerType: 'MNO',
      providerName: 'Vodacom',
      amount: claim.amount,
      paymentReference: claim.reference,
      payerMobile: `25574${String(draw.between(0, 9_999_999)).padStart(7, '0')}`,
      transactionDate: engineDate(),
      transactionID: `FORGED${draw.between(0, 1e9)}`,
      transactionChannel: 'USSD',
    },
    controlNumber: claim.controlNumber,
    external_reference: null,
  };
}

/** Builds one forgery of `kind`: where to send it and what to say. */
export function forge(
  kind: ForgeryKind,
  callbackUrl: string,
  started: readonly StartedCollection[],
  draw: Draw,
): { url: string; body: unknown } {
  const real = started.length > 0 ? draw.pick(started) : undefined;
  if (kind === 'unknown_reference' || !real) {
    const claim = {
      controlNumber: `99${String(draw.between(0, 1e9)).padStart(10, '0')}`,
      reference: `ENGFORGED${draw.between(0, 1e9)}`,
      amount: draw.between(10, 500) * 100,
      status: true,
    };
    return { url: callbackUrl, body: callbackBody(claim, draw) };
  }
  if (kind === 'false_claim') {
    // Success for one that fails or never settles; else failure, or success for another amount.
    const status = real.settlesAs !== 'success' || draw.chance(0.3);
    const amount =
      status && real.settlesAs === 'success'
        ? real.amount + draw.between(1, 50) * 100
        : real.amount;
    const url = `${callbackUrl}?pesakit_ref=${encodeURIComponent(real.merchantReference)}`;
    return { url, body: callbackBody({ ...real, amount, status }, draw) };
  }
  // A true-looking success of one payment, under another payment's merchant reference.
  const other = draw.pick(started);
  const url = `${callbackUrl}?pesakit_ref=${encodeURIComponent(other.merchantReference)}`;
  return { url, body: callbackBody({ ...real, status: true }, draw) };
}

/** Sends it; a merchant that is down (killed) or refuses is part of the day. */
export async function sendForgery(forgery: { url: string; body: unknown }): Promise<number> {
  try {
    const response = await fetch(forgery.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(forgery.body),
      signal: AbortSignal.timeout(5000),
    });
    await response.arrayBuffer();
    return response.status;
  } catch {
    return 0;
  }
}
