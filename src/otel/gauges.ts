import type { Meter } from '@opentelemetry/api';
import { reportsOf } from '../references/listed-reports.js';
import { isFinalStatus } from '../references/transitions.js';
import type { ReferenceStore } from '../references/types.js';

/** Gauges from the store's report summary at each collection; `needs_review` waits, so it counts open. */
export function observeStore(
  meter: Meter,
  store: Pick<ReferenceStore, 'records' | 'reports'>,
): () => void {
  const open = meter.createObservableGauge('pesakit.records.open', {
    description: 'Records not yet final, by product and status.',
    unit: '{record}',
  });
  const oldest = meter.createObservableGauge('pesakit.records.oldest_open_age', {
    description: 'Age of the oldest initiating, pending or unknown record.',
    unit: 's',
  });
  const reports = reportsOf(store);
  const observe: Parameters<Meter['addBatchObservableCallback']>[0] = async (result) => {
    const summary = await reports.summary();
    for (const { product, status, count } of summary.counts) {
      if (isFinalStatus(status)) continue;
      result.observe(open, count, { 'pesakit.product': product, 'pesakit.status': status });
    }
    const age = summary.oldestOpenAt ? (Date.now() - summary.oldestOpenAt.getTime()) / 1000 : 0;
    result.observe(oldest, Math.max(0, age));
  };
  meter.addBatchObservableCallback(observe, [open, oldest]);
  return () => meter.removeBatchObservableCallback(observe, [open, oldest]);
}
