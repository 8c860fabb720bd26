import { SpanKind } from '@opentelemetry/api';
import {
  AggregationTemporality,
  type DataPoint,
  MeterProvider,
  MetricReader,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallbackReceiver } from '../../src/callbacks/receiver.js';
import type { Pesakit } from '../../src/client.js';
import { instrumentPesakit, type PesakitInstrumentation } from '../../src/otel.js';
import { SqliteReferenceStore } from '../../src/sqlite.js';
import { eventually, type ReceiverServer, serveReceiver } from '../callbacks/receiver-server.js';
import { accounts, type Harness, startHarness } from '../helpers/sandbox-harness.js';

// pesakit/otel with the real OpenTelemetry SDK and its in-memory exporter and a manual metric
// reader: a collection paid by its callback, a payout and a reconciler pass.

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
const exporter = new InMemorySpanExporter();
const tracerProvider = new BasicTracerProvider({
  spanProcessors: [new SimpleSpanProcessor(exporter)],
});
const reader = new OnDemandReader();
const meterProvider = new MeterProvider({ readers: [reader] });
let instrumentation: PesakitInstrumentation;

beforeAll(async () => {
  harness = await startHarness();
  pesakit = harness.client({
    store: await SqliteReferenceStore.open(':memory:'),
    pullWindowMs: 1,
  });
  receiver = pesakit.createCallbackReceiver({ pollIntervalMs: 50 });
  server = await serveReceiver(receiver);
  receiver.start();
  // A second call replaces the first: nothing below is counted twice.
  instrumentPesakit({ tracerProvider, meterProvider, store: pesakit.store });
  instrumentation = instrumentPesakit({ tracerProvider, meterProvider, store: pesakit.store });
});
afterAll(async () => {
  instrumentation.disable();
  await receiver.close();
  await server.close();
  await pesakit.store.close();
  await harness.close();
});

const settle = (ref_id: string, outcome: 'success' | 'failed') =>
  harness.control('collection/settle', { ref_id, outcome });

const spansNamed = (name: string) => exporter.getFinishedSpans().filter((s) => s.name === name);
const only = (name: string): ReadableSpan => {
  const spans = spansNamed(name);
  expect(spans, name).toHaveLength(1);
  return spans[0] as ReadableSpan;
};
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

async function collected(): Promise<Map<string, DataPoint<unknown>[]>> {
  const { resourceMetrics } = await reader.collect();
  const metrics = new Map<string, DataPoint<unknown>[]>();
  for (const scope of resourceMetrics.scopeMetrics) {
    for (const metric of scope.metrics) {
      metrics.set(metric.descriptor.name, metric.dataPoints as DataPoint<unknown>[]);
    }
  }
  return metrics;
}

describe('instrumentPesakit', () => {
  it('spans and metrics for a collection, a callback, a payout and a reconciler pass', async () => {
    const paid = await pesakit.collection.initiateMno(
      { amount: 15_000, msisdn: '255754123456', callback_url: `${server.url}/callback` },
      { merchantReference: 'otel-paid' },
    );
    await settle(paid.controlNumber, 'success');
    await eventually(() => spansNamed('pesakit.callback').length === 1, 15_000, 'the callback');

    await harness.control('wallets/credit', {
      product: 'disbursement',
      email: accounts.disbursement.email,
      amount: 50_000,
    });
    await pesakit.disbursement.pay(
      { msisdn: '255754123457', amount: 5_000, name: 'Asha Juma' },
      { merchantReference: 'otel-payout' },
    );
    const checked = await pesakit.collection.initiateMno(
      { amount: 2_000, msisdn: '255754123458' },
      { merchantReference: 'otel-checked' },
    );
    await pesakit.collection.initiateMno(
      { amount: 1_000, msisdn: '255754123459' },
      { merchantReference: 'otel-open' },
    );
    await settle(checked.controlNumber, 'success');
    await pesakit.createReconciler().runOnce({ force: true });

    // The operation, and its login and money request as client spans beneath it.
    const [initiation] = spansNamed('collection.initiateMno');
    expect(initiation?.kind).toBe(SpanKind.INTERNAL);
    expect(initiation?.attributes).toEqual({
      'pesakit.operation': 'collection.initiateMno',
      'pesakit.product': 'collection',
      'pesakit.outcome': 'pending',
      'pesakit.merchant_reference': 'otel-paid',
    });
    const operationId = initiation?.spanContext().spanId;
    expect(operationId).toMatch(/^[0-9a-f]{16}$/);
    const [money] = spansNamed('POST /api/sandbox/initiate-payment/mno/');
    expect(money?.kind).toBe(SpanKind.CLIENT);
    expect(parentOf(money as ReadableSpan)).toBe(operationId);
    expect(money?.attributes).toMatchObject({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(harness.url).port),
      'url.template': '/api/sandbox/initiate-payment/mno/',
      'http.response.status_code': 200,
    });
    expect(money?.attributes).not.toHaveProperty('http.request.resend_count');
    const [login] = spansNamed('POST /api/sandbox/login');
    expect(parentOf(login as ReadableSpan)).toBe(operationId);

    // The callback: linked to the payment's span, its verifying pull beneath it.
    const callback = only('pesakit.callback');
    expect(callback.kind).toBe(SpanKind.CONSUMER);
    expect(callback.attributes).toMatchObject({
      'pesakit.product': 'collection',
      'pesakit.outcome': 'paid',
      'pesakit.merchant_reference': 'otel-paid',
    });
    expect(callback.links.map((link) => link.context.spanId)).toEqual([operationId]);
    const pulls = spansNamed('POST /api/sandbox/transaction/status');
    expect(pulls.map(parentOf)).toContain(callback.spanContext().spanId);

    expect(only('disbursement.pay').attributes).toMatchObject({
      'pesakit.product': 'disbursement',
      'pesakit.merchant_reference': 'otel-payout',
    });
    const reconciled = spansNamed('pesakit.reconcile').find(
      (span) => span.attributes['pesakit.merchant_reference'] === 'otel-checked',
    );
    expect(reconciled?.attributes).toMatchObject({ 'pesakit.outcome': 'settled' });
    expect(pulls.map(parentOf)).toContain(reconciled?.spanContext().spanId);

    const metrics = await collected();
    const sum = (name: string) =>
      (metrics.get(name) ?? []).reduce((total, point) => total + (point.value as number), 0);
    expect(sum('pesakit.callbacks.received')).toBe(1);
    expect(sum('pesakit.callbacks.duplicate')).toBe(0);
    expect(metrics.get('pesakit.reconciler.records.settled')?.map((p) => p.attributes)).toEqual([
      { 'pesakit.product': 'collection', 'pesakit.outcome': 'success' },
    ]);
    expect(sum('pesakit.reconciler.records.checked')).toBeGreaterThanOrEqual(2);
    const durations = metrics.get('http.client.request.duration') ?? [];
    expect(durations.map((point) => point.attributes)).toContainEqual({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(harness.url).port),
      'url.template': '/api/sandbox/initiate-payment/mno/',
      'http.response.status_code': 200,
    });
    expect(metrics.get('pesakit.operation.duration')?.map((p) => p.attributes)).toContainEqual({
      'pesakit.product': 'collection',
      'pesakit.outcome': 'success',
    });
    expect(metrics.get('pesakit.records.open')?.map((p) => [p.attributes, p.value])).toContainEqual(
      [{ 'pesakit.product': 'collection', 'pesakit.status': 'pending' }, 1],
    );
    const [age] = metrics.get('pesakit.records.oldest_open_age') ?? [];
    expect(age?.value).toBeGreaterThanOrEqual(0);

    // No metric attribute names a payment or a phone number.
    const attributes = JSON.stringify([...metrics.values()].flat().map((p) => p.attributes));
    expect(attributes).not.toMatch(/otel-|2557/);
  });

  it('refuses a provider or store without its method, naming the option, and keeps the one in place', async () => {
    const wrong = { tracerProvider: {} } as unknown as Parameters<typeof instrumentPesakit>[0];
    expect(() => instrumentPesakit(wrong)).toThrow(
      expect.objectContaining({ name: 'ConfigurationError', option: 'tracerProvider' }),
    );
    exporter.reset();
    await pesakit.collection.testProvider('halotel');
    expect(spansNamed('collection.testProvider')).toHaveLength(1);
  });

  it('disable() stops every span and metric', async () => {
    instrumentation.disable();
    exporter.reset();
    const before = await collected();
    await pesakit.collection.testProvider('airtel');
    expect(exporter.getFinishedSpans()).toEqual([]);
    const after = await collected();
    const count = (metrics: typeof before) =>
      (metrics.get('http.client.request.duration') ?? []).reduce(
        (total, point) => total + (point.value as { count: number }).count,
        0,
      );
    expect(count(after)).toBe(count(before));
  });
});
