// One bulk file of each kind, as CSV bytes: airtime row by row, airtime in one bulkpayment
// upload, and payouts. Each runs once, started partway through the singles.
import { isBatchAlreadyRunError, type Pesakit } from 'pesakit';
import { msisdnFor } from './plan.js';
import { seeded } from './seeded.js';

export type BulkKind = 'airtime' | 'airtime_upload' | 'payouts';
export const bulkKinds: readonly BulkKind[] = ['airtime', 'airtime_upload', 'payouts'];

function csv(seed: number, kind: BulkKind, rows: number): Buffer {
  const draw = seeded(seed, `bulk:${kind}`);
  const lines = [kind === 'payouts' ? 'msisdn,amount,name,reference' : 'msisdn,amount,reference'];
  for (let row = 1; row <= rows; row += 1) {
    const msisdn = msisdnFor(draw, draw.chance(0.15) ? 'fails' : 'succeeds');
    const amount = draw.between(10, 200) * 100;
    lines.push(
      kind === 'payouts'
        ? `${msisdn},${amount},Staff ${row},${kind}-${row}`
        : `${msisdn},${amount},${kind}-${row}`,
    );
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/**
 * Runs one bulk file as a merchant would: a run that stops (an outage, an ambiguous row) is
 * rerun under the same batch id, which resumes it without paying any row twice. Resolves with
 * how it ended: `done after <n> runs`, `stopped: <reason>`, or the error's name.
 */
export async function runBulk(
  pesakit: Pesakit,
  seed: number,
  kind: BulkKind,
  rows: number,
): Promise<string> {
  const file = csv(seed, kind, rows);
  const batchId = `soak-${seed}-${kind}`;
  let last = '';
  for (let run = 1; run <= maxRuns; run += 1) {
    try {
      const result =
        kind === 'payouts'
          ? await pesakit.disbursement.bulkPay(file, { batchId, concurrency: 4 })
          : await pesakit.airtime.bulkPurchase(file, {
              batchId,
              concurrency: 4,
              ...(kind === 'airtime_upload' ? { via: 'bulkpayment' as const } : {}),
            });
      if (result.stoppedFor === undefined) return `done after ${run} runs`;
      last = `stopped: ${result.stoppedFor}`;
    } catch (error) {
      // Every row has a record: the last run's rows in flight were its last rows.
      if (isBatchAlreadyRunError(error)) return `done after ${run - 1} runs`;
      last = (error as Error).name;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return `${last} after ${maxRuns} runs`;
}

const maxRuns = 20;
