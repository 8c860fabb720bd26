import type { Meter } from '@opentelemetry/api';

/** The metric instruments; no attribute of any of them names a payment or a phone number. */
export function instruments(meter: Meter) {
  const counter = (name: string, description: string) =>
    meter.createCounter(name, { description, unit: '{record}' });
  return {
    requestDuration: meter.createHistogram('http.client.request.duration', {
      description: 'Duration of the HTTP attempts pesakit sends to the platform.',
      unit: 's',
    }),
    operationDuration: meter.createHistogram('pesakit.operation.duration', {
      description: 'Time from a record’s intent to its final status, by product and outcome.',
      unit: 's',
    }),
    callbacksReceived: meter.createCounter('pesakit.callbacks.received', {
      description: 'Callbacks taken in by a receiver, duplicates included.',
      unit: '{callback}',
    }),
    callbacksDuplicate: meter.createCounter('pesakit.callbacks.duplicate', {
      description: 'Callbacks equal to one already in the inbox.',
      unit: '{callback}',
    }),
    callbacksUnmatched: meter.createCounter('pesakit.callbacks.unmatched', {
      description: 'Processed callbacks that match no stored record (orphans).',
      unit: '{callback}',
    }),
    callbacksMismatch: meter.createCounter('pesakit.callbacks.mismatch', {
      description: 'Processed callbacks whose payment did not match its record: sent to review.',
      unit: '{callback}',
    }),
    reconcilerChecked: counter('pesakit.reconciler.records.checked', 'Records checked.'),
    reconcilerSettled: counter(
      'pesakit.reconciler.records.settled',
      'Records the reconciler moved to success or failed.',
    ),
    reconcilerReview: counter(
      'pesakit.reconciler.records.review',
      'Records the reconciler handed to a person.',
    ),
  };
}

export type Instruments = ReturnType<typeof instruments>;
