import type { Meter } from '@opentelemetry/api';

/** The metric instruments; no attribute of any of them names a payment or a phone number. */
export function instruments(meter: Meter) {
  const seconds = (name: string, description: string) =>
    meter.createHistogram(name, { description, unit: 's' });
  const count = (name: string, description: string, unit = '{record}') =>
    meter.createCounter(name, { description, unit });
  const callbacks = (name: string, description: string) =>
    count(`pesakit.callbacks.${name}`, description, '{callback}');
  return {
    requestDuration: seconds('http.client.request.duration', 'HTTP attempts to the platform.'),
    operationDuration: seconds('pesakit.operation.duration', 'From intent to final status.'),
    callbacksReceived: callbacks('received', 'Callbacks taken in, duplicates included.'),
    callbacksDuplicate: callbacks('duplicate', 'Callbacks equal to one already stored.'),
    callbacksUnmatched: callbacks('unmatched', 'Callbacks that match no record (orphans).'),
    callbacksMismatch: callbacks('mismatch', 'Callbacks whose payment went to review.'),
    reconcilerChecked: count('pesakit.reconciler.records.checked', 'Records checked.'),
    reconcilerSettled: count('pesakit.reconciler.records.settled', 'Records moved to final.'),
    reconcilerReview: count('pesakit.reconciler.records.review', 'Records sent to review.'),
  };
}

export type Instruments = ReturnType<typeof instruments>;
