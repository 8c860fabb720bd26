import { z } from 'zod';
import { dateSchema, limitSchema, parse } from './input-rules/common.js';
import type { TransactionRecord } from './record.js';

export interface OperationsReportOptions {
  /** The end of the window. @default now */
  now?: Date;
  /** How far back the chart of finals goes, 1 to 168 (a week). @default 24 */
  hours?: number;
}

/** A record that became final: what the memory store computes the report from. */
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
  /** The median time from the intent to its final status, over the operator's latest finals. */
  medianMsToFinal: number;
}

/** What an operations person watches: how many records became final, and each operator's health. */
export interface OperationsReport {
  /** Per hour (UTC, its start) and final status over the window, oldest first, zeros included. */
  finals: { hour: Date; status: 'success' | 'failed'; count: number }[];
  /** Per provider over the last 24 hours, the busiest first. */
  providers: ProviderHealth[];
}

/**
 * How many of an operator's latest finals its median is taken over. Every final is counted,
 * but a median needs the durations themselves: a bounded sample keeps a busy day from being
 * read row by row on every refresh, and the latest finals are the health an operator has now.
 */
export const medianSampleSize = 1_000;

/** Counted finals, as a store reads them; `reportOf` turns them into the report. */
export interface FinalTallies {
  /** Finals per chart hour (`slot` 0 is the window's first) and status. */
  hourly: { slot: number; status: 'success' | 'failed'; count: number }[];
  /** Per provider over the last 24 hours; `latestMsToFinal` at most `medianSampleSize`. */
  providers: {
    provider: string | null;
    finals: number;
    successes: number;
    latestMsToFinal: number[];
  }[];
}

export const hourMs = 3_600_000;
const optionsSchema = z.object({ now: dateSchema.optional(), hours: limitSchema(168).optional() });

/** The windows: the chart's whole hours up to `until`, and the 24 hours before `until`. */
export function parseOperationsReport(options: OperationsReportOptions | undefined, now: Date) {
  const parsed = parse('reports.operations', 'options', optionsSchema, options ?? {});
  const until = parsed.now ?? now;
  const hours = parsed.hours ?? 24;
  const chartFrom = Math.floor(until.getTime() / hourMs) * hourMs - (hours - 1) * hourMs;
  return { until, chartFrom, hours, dayAgo: until.getTime() - 24 * hourMs };
}

export type ReportWindow = ReturnType<typeof parseOperationsReport>;

/** The memory store's tallies: every final of the window, the latest first. */
export function talliesOfRows(rows: readonly FinalRow[], window: ReportWindow): FinalTallies {
  const { until, chartFrom, dayAgo } = window;
  const hourly = new Map<string, FinalTallies['hourly'][number]>();
  const providers = new Map<string | null, FinalTallies['providers'][number]>();
  const latestFirst = [...rows].sort((a, b) => b.finalAt.getTime() - a.finalAt.getTime());
  for (const row of latestFirst) {
    const at = row.finalAt.getTime();
    if (at > until.getTime()) continue;
    const status = row.status === 'success' ? 'success' : 'failed';
    const slot = Math.floor((at - chartFrom) / hourMs);
    if (slot >= 0) {
      const tally = hourly.get(`${slot}:${status}`) ?? { slot, status, count: 0 };
      tally.count += 1;
      hourly.set(`${slot}:${status}`, tally);
    }
    if (at <= dayAgo) continue;
    const health = providers.get(row.provider) ?? {
      provider: row.provider,
      finals: 0,
      successes: 0,
      latestMsToFinal: [],
    };
    health.finals += 1;
    health.successes += status === 'success' ? 1 : 0;
    if (health.latestMsToFinal.length < medianSampleSize) {
      health.latestMsToFinal.push(at - row.createdAt.getTime());
    }
    providers.set(row.provider, health);
  }
  return { hourly: [...hourly.values()], providers: [...providers.values()] };
}

/** The report from a store's tallies: every chart hour (zeros included), operators busiest first. */
export function reportOf(tallies: FinalTallies, window: ReportWindow): OperationsReport {
  const { chartFrom, hours } = window;
  const finals = Array.from({ length: hours }, (_, index) =>
    (['success', 'failed'] as const).map((status) => ({
      hour: new Date(chartFrom + index * hourMs),
      status,
      count: 0,
    })),
  ).flat();
  for (const { slot, status, count } of tallies.hourly) {
    const bucket = finals[slot * 2 + (status === 'success' ? 0 : 1)];
    if (bucket) bucket.count += count;
  }
  const providers = tallies.providers
    .filter((health) => health.finals > 0)
    .map(({ provider, finals: count, successes, latestMsToFinal }) => ({
      provider,
      finals: count,
      successes,
      successRate: successes / count,
      medianMsToFinal: median(latestMsToFinal),
    }));
  providers.sort(
    (a, b) => b.finals - a.finals || String(a.provider).localeCompare(String(b.provider)),
  );
  return { finals, providers };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}
