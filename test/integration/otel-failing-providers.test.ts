import type { Meter, MeterProvider, Span, Tracer, TracerProvider } from '@opentelemetry/api';
import {
  AggregationTemporality,
  MetricReader,
  MeterProvider as SdkMeterProvider,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallbackReceiver } from '../../src/callbacks/receiver.js';
import type { Pesakit } from '../../src/client.js';
import { instrumentPesakit, type PesakitInstrumentation } from '../../src/otel.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { eventually, type ReceiverServer, serveReceiver } from '../callbacks/receiver-server.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';

// pesakit/otel on providers that throw. Node rethrows a diagnostics_channel subscriber's exception
// on the next tick as uncaught, which ends the process in the middle of a payment; pesakit's own
// subscribers catch, count and warn instead, and the payments against the real sandbox settle.

const broken = (call: string) => () => {
  throw new Error(`${call} is broken`);
};

/** A tracer provider whose tracer cannot start a span. */
const unstartable = {
  getTracer: (): Tracer => ({
    startSpan: broken('startSpan'),
    startActiveSpan: broken('startActiveSpan'),
  }),
} as TracerProvider;

/** A tracer provider whose spans start, but every call on them throws. */
const brokenSpans = {
  getTracer: (): Tracer => ({
    startSpan: () =>
      ({
        spanContext: broken('span.spanContext'),
        setAttribute: broken('span.setAttribute'),
        setAttributes: broken('span.setAttributes'),
        addEvent: broken('span.addEvent'),
        addLink: broken('span.addLink'),
        addLinks: broken('span.addLinks'),
        setStatus: broken('span.setStatus'),
        updateName: broken('span.updateName'),
        end: broken('span.end'),
        isRecording: broken('span.isRecording'),
        recordException: broken('span.recordException'),
      }) as Span,
    startActiveSpan: broken('startActiveSpan'),
  }),
} as TracerProvider;

/** A meter provider whose counters and histograms throw on every measurement. */
const brokenMeasurements = {
  getMeter: () =>
    ({
      createCounter: () => ({ add: broken('counter.add') }),
      createHistogram: () => ({ record: broken('histogram.record') }),
    }) as unknown as Meter,
} as MeterProvider;

/** A reader collected on demand, as a Prometheus scrape would. */
class OnDemandReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

let harness: Harness;
let pesakit: Pesakit;
let receiver: CallbackReceiver;
let server: ReceiverServer;
let instrumentation: PesakitInstrumentation | undefined;
const uncaught: unknown[] = [];
const collectUncaught = (error: unknown) => void uncaught.push(error);
let warnings: Array<{ message: string; code: string | undefined }>;

beforeAll(async () => {
  harness = await startHarness();
  pesakit = harness.client({
    store: await SqliteReferenceStore.open(':memory:'),
    pullWindowMs: 1,
  });
  receiver = pesakit.createCallbackReceiver({ pollIntervalMs: 50 });
  server = await serveReceiver(receiver);
  receiver.start();
  await harness.control('wallets/credit', {
    product: 'disbursement',
    email: accounts.disbursement.email,
    amount: 100_000,
  });
  process.on('uncaughtException', collectUncaught);
});
beforeEach(() => {
  uncaught.length = 0;
  warnings = [];
  vi.spyOn(process, 'emitWarning').mockImplementation((warning, options) => {
    const code = typeof options === 'object' ? options.code : undefined;
    warnings.push({ message: String(warning), code });
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  instrumentation?.disable();
});
afterAll(async () => {
  process.off('uncaughtException', collectUncaught);
  await receiver.close();
  await server.close();
  await pesakit.store.close();
  await harness.close();
});

const settle = (ref_id: string) =>
  harness.control('collection/settle', { ref_id, outcome: 'success' });
const statusOf = async (merchantReference: string) =>
  (await pesakit.store.records.get(merchantReference))?.status;

/**
 * A collection paid by its callback, a payout, and a reconciler pass that settles a second
 * collection: every channel publishes, and each payment must end `success`.
 */
async function payments(tag: string): Promise<void> {
  const paid = await pesakit.collection.initiateMno(
    { amount: 15_000, msisdn: '255754123456', callback_url: `${server.url}/callback` },
    { merchantReference: `${tag}-paid` },
  );
  expect(paid.record.status).toBe('pending');
  await settle(paid.controlNumber);
  await eventually(async () => (await statusOf(`${tag}-paid`)) === 'success', 15_000, 'callback');

  const payout = await pesakit.disbursement.pay(
    { msisdn: '255754123457', amount: 5_000, name: 'Asha Juma' },
    { merchantReference: `${tag}-payout` },
  );
  expect(payout.record.status).toBe('success');

  const checked = await pesakit.collection.initiateMno(
    { amount: 2_000, msisdn: '255754123458' },
    { merchantReference: `${tag}-checked` },
  );
  await settle(checked.controlNumber);
  const summary = await pesakit.createReconciler().runOnce({ force: true });
  expect(summary).toMatchObject({ settled: 1, errors: 0 });
  expect(await statusOf(`${tag}-checked`)).toBe('success');

  // Anything a subscriber threw would surface on the next tick.
  await new Promise((resolve) => setImmediate(resolve));
  expect(uncaught).toEqual([]);
}

/** The warnings with pesakit/otel's code. */
const otelWarnings = () => warnings.filter((warning) => warning.code === 'PESAKIT_OTEL_FAILED');

describe('a tracer provider that throws costs spans, never a payment', () => {
  it('startSpan throws: the payments settle, metrics are still recorded, one warning', async () => {
    const reader = new OnDemandReader();
    const meterProvider = new SdkMeterProvider({ readers: [reader] });
    instrumentation = instrumentPesakit({ tracerProvider: unstartable, meterProvider });

    await payments('no-span');

    const failures = instrumentation.failures();
    expect(failures.spans).toBeGreaterThanOrEqual(10);
    expect(failures.metrics).toBe(0);
    expect(otelWarnings()).toEqual([
      {
        code: 'PESAKIT_OTEL_FAILED',
        message: expect.stringMatching(/tracer provider threw.*startSpan is broken/),
      },
    ]);
    const { resourceMetrics } = await reader.collect();
    const names = resourceMetrics.scopeMetrics.flatMap((scope) =>
      scope.metrics.map((metric) => metric.descriptor.name),
    );
    expect(names).toEqual(
      expect.arrayContaining([
        'http.client.request.duration',
        'pesakit.operation.duration',
        'pesakit.callbacks.received',
        'pesakit.reconciler.records.settled',
      ]),
    );
  });

  it('setAttributes, setStatus, end and spanContext throw: the payments settle, one warning', async () => {
    instrumentation = instrumentPesakit({
      tracerProvider: brokenSpans,
      meterProvider: brokenMeasurements,
    });

    await payments('broken-span');

    const failures = instrumentation.failures();
    expect(failures.spans).toBeGreaterThanOrEqual(10);
    expect(failures.metrics).toBeGreaterThanOrEqual(5);
    expect(otelWarnings().map((warning) => warning.message)).toEqual([
      expect.stringMatching(/tracer provider threw.*span\.\w+ is broken/),
      expect.stringMatching(/meter provider threw.*(counter\.add|histogram\.record) is broken/),
    ]);
  });
});

describe('a meter provider that throws costs metrics, never a payment', () => {
  it('counter.add and histogram.record throw: the payments settle, spans are still exported, one warning', async () => {
    const exporter = new InMemorySpanExporter();
    const tracerProvider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter)],
    });
    instrumentation = instrumentPesakit({ tracerProvider, meterProvider: brokenMeasurements });

    await payments('no-metric');

    const failures = instrumentation.failures();
    expect(failures).toEqual({ spans: 0, metrics: expect.any(Number) });
    expect(failures.metrics).toBeGreaterThanOrEqual(5);
    expect(otelWarnings()).toEqual([
      {
        code: 'PESAKIT_OTEL_FAILED',
        message: expect.stringMatching(/meter provider threw/),
      },
    ]);
    const names = exporter.getFinishedSpans().map((span) => span.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'collection.initiateMno',
        'disbursement.pay',
        'pesakit.callback',
        'pesakit.reconcile',
      ]),
    );
  });

  it('a new instrumentPesakit counts and warns afresh', async () => {
    const first = instrumentPesakit({ meterProvider: brokenMeasurements });
    await pesakit.collection.testProvider('halotel');
    const counted = first.failures();
    expect(counted.metrics).toBeGreaterThanOrEqual(1);
    instrumentation = instrumentPesakit({ meterProvider: brokenMeasurements });
    expect(instrumentation.failures()).toEqual({ spans: 0, metrics: 0 });
    await pesakit.collection.testProvider('halotel');
    expect(instrumentation.failures()).toEqual(counted);
    expect(otelWarnings()).toHaveLength(2);
  });
});
