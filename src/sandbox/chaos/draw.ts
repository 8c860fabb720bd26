import { createHash } from 'node:crypto';

/** What makes a draw: never the arrival order, so racing processes draw the same faults. */
export interface DrawIdentity {
  /** The route (`/api/sandbox/disbursement/payment`) or the callback's kind. */
  readonly target: string;
  /** The merchant reference, a status pull's `ref_id`, a callback's payment reference; '' if none. */
  readonly reference: string;
  /** 1 for the first request of this target and reference, 2 for the next, … */
  readonly attempt: number;
}

/** Uniform numbers in [0, 1) from SHA-256 of the seed and the identity: a pure function. */
export function drawNumbers(seed: string | number, identity: DrawIdentity): number[] {
  const digest = createHash('sha256')
    .update(
      [
        'pesakit-chaos-v1',
        String(seed),
        identity.target,
        identity.reference,
        identity.attempt,
      ].join('\n'),
    )
    .digest();
  const numbers: number[] = [];
  for (let offset = 0; offset + 4 <= digest.length; offset += 4) {
    numbers.push(digest.readUInt32BE(offset) / 2 ** 32);
  }
  return numbers;
}

/** One of `candidates` with probability `rate`, else `undefined`; plus spare numbers for details. */
export function drawFault<F>(
  seed: string | number,
  identity: DrawIdentity,
  rate: number,
  candidates: readonly F[],
): { fault: F; spare: number } | undefined {
  if (candidates.length === 0) return undefined;
  const [hit = 1, pick = 0, spare = 0] = drawNumbers(seed, identity);
  if (hit >= rate) return undefined;
  const fault = candidates[Math.min(candidates.length - 1, Math.floor(pick * candidates.length))];
  return fault === undefined ? undefined : { fault, spare };
}
