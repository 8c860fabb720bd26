import { z } from 'zod';
import { dateSchema, limitSchema, parse } from './input-rules/common.js';
import type { TransactionRecord } from './record.js';

export interface OperationsReportOptions {
  /** The end of the window. @default now */
  now?: Date;
  /** How far back the chart of finals goes, 1 to 168 (a week). @default 24 */
  hours?: number;
}

/** A record that became final: what the report is computed from. */
export type FinalRow = Pick<TransactionRecord, 'status' | 'provider' | 'createdAt'> & {
  finalAt: Date;
};

export interface ProviderHealth {
  /** The mobile operator; `null` for records without one (bank flows). */
  provider: string | null;
  finals: number;
  successes: number;
  /** `successes / finals`. */
  successRate: number;
  /** The median time from the intent to its final status. */
  medianMsToFinal: number;
}

/** What an operations person watches: how many records became final, and each operator's health. */
export interface OperationsReport {
  /** Per hour (UTC, its start) and final status over the window, oldest first, zeros included. */
  finals: { hour: Date; status: 'success' | 'failed'; count: number }[];
  /** Per provider over the last 24 hours, the busiest first. */
  providers: ProviderHealth[];
  /** More finals than `operationsReportLimit` in the window: counted from the latest only. */
  truncated: boolean;
}

/** The most finals one report reads: a week of a busy merchant, read in well under a second. */
export const operationsReportLimit = 100_000;

const hourMs = 3_600_000;
const optionsSchema = z.object({ now: dateSchema.optional(), hours: limitSchema(168).optional() });

/** The window to read: from the earlier of the chart's start and 24 hours back, to `now`. */
export function parseOperationsReport(options: OperationsReportOptions | undefined, now: Date) {
  const parsed = parse('operationsReport', 'options', optionsSchema, options ?? {});
  const until = parsed.now ?? now;
  const hours = parsed.hours ?? 24;
  const chartFrom = Math.floor(until.getTime() / hourMs) * hourMs - (hours - 1) * hourMs;
  const from = new Date(Math.min(chartFrom, until.getTime() - 24 * hourMs));
  return { from, until, chartFrom, hours };
}

/** The report from the finals between `from` and `until` (the latest first when truncated). */
export function operationsReportOf(
  rows: readonly FinalRow[],
  window: ReturnType<typeof parseOperationsReport>,
): OperationsReport {
  const { until, chartFrom, hours } = window;
  const finals = Array.from({ length: hours }, (_, index) =>
    (['success', 'failed'] as const).map((status) => ({
      hour: new Date(chartFrom + index * hourMs),
      status,
      count: 0,
    })),
  ).flat();
  const dayAgo = until.getTime() - 24 * hourMs;
  const byProvider = new Map<string | null, { successes: number; durations: number[] }>();
  for (const row of rows) {
    const at = row.finalAt.getTime();
    const success = row.status === 'success';
    const slot = Math.floor((at - chartFrom) / hourMs);
    const bucket = finals[slot * 2 + (success ? 0 : 1)];
    if (slot >= 0 && bucket) bucket.count += 1;
    if (at <= dayAgo) continue;
    const health = byProvider.get(row.provider) ?? { successes: 0, durations: [] };
    health.successes += success ? 1 : 0;
    health.durations.push(at - row.createdAt.getTime());
    byProvider.set(row.provider, health);
  }
  const providers = [...byProvider].map(([provider, { successes, durations }]) => ({
    provider,
    finals: durations.length,
    successes,
    successRate: successes / durations.length,
    medianMsToFinal: median(durations),
  }));
  providers.sort(
    (a, b) => b.finals - a.finals || String(a.provider).localeCompare(String(b.provider)),
  );
  return { finals, providers, truncated: rows.length >= operationsReportLimit };
}

function median(values: number[]): number {
  const sorted = values.sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
