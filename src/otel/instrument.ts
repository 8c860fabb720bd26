import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context, MeterProvider, TracerProvider } from '@opentelemetry/api';
import { metrics, trace } from '@opentelemetry/api';
import { ConfigurationError } from '../errors/configuration-error.js';
import { callbackReceivedChannel, transitionChannel } from '../observability/channels.js';
import type { CallbackReceivedView, TransitionView } from '../observability/views.js';
import type { ReferenceStore } from '../references/types.js';
import { follow, type Signal } from './follow.js';
import { observeStore } from './gauges.js';
import { instruments } from './instruments.js';
import { spanRules } from './rules.js';
import { SubscriberFailures } from './subscriber-failures.js';

export interface InstrumentPesakitOptions {
  /** @default the global tracer provider (`trace.getTracerProvider()`) */
  tracerProvider?: TracerProvider;
  /** @default the global meter provider (`metrics.getMeterProvider()`) */
  meterProvider?: MeterProvider;
  /** A store whose summary feeds `pesakit.records.open` and `pesakit.records.oldest_open_age`. */
  store?: Pick<ReferenceStore, 'records' | 'reports'>;
}

export interface PesakitInstrumentation {
  /** Unsubscribes from every channel and stops the gauges; idempotent. */
  disable(): void;
  /**
   * What the providers threw since this call to `instrumentPesakit`, counted by what it cost:
   * `spans` (the tracer provider: startSpan, setAttributes, end, …) and `metrics` (the meter
   * provider: counter.add, histogram.record). Each was caught: the payment went on without that
   * span or metric. The first of each kind is also a process warning, code `PESAKIT_OTEL_FAILED`.
   */
  failures(): { spans: number; metrics: number };
}

// One instrumentation per process, even with the CommonJS and ESM builds both loaded: a second
// call replaces the first, so nothing is counted twice.
const slot = Symbol.for('pesakit.otel.instrumentation');
const holder = globalThis as { [slot]?: PesakitInstrumentation };
const expected = { tracerProvider: 'getTracer', meterProvider: 'getMeter' };

/** Maps pesakit's diagnostics channels to OpenTelemetry spans and metrics (docs/observability.md). */
export function instrumentPesakit(options: InstrumentPesakitOptions = {}): PesakitInstrumentation {
  const { tracerProvider, meterProvider, store } = options;
  for (const [option, method] of Object.entries(expected)) {
    const value = options[option as keyof typeof expected] as
      | Record<string, unknown>
      | null
      | undefined;
    if (value !== undefined && typeof value?.[method] !== 'function') {
      const rule = `must have a ${method}() method; leave it out to use the default`;
      throw new ConfigurationError(option, `instrumentPesakit: ${option} ${rule}.`);
    }
  }
  const records = (store as { records?: { list?: unknown } } | null | undefined)?.records;
  if (store !== undefined && typeof records?.list !== 'function') {
    throw new ConfigurationError(
      'store',
      'instrumentPesakit: store must be a reference store (its counts are read through records); leave it out to record no store gauges.',
    );
  }
  holder[slot]?.disable();
  const tracer = (tracerProvider ?? trace.getTracerProvider()).getTracer('pesakit');
  const meter = (meterProvider ?? metrics.getMeterProvider()).getMeter('pesakit');
  const recorded = instruments(meter);
  const active = new AsyncLocalStorage<Context | undefined>();
  const failures = new SubscriberFailures<Signal>(['spans', 'metrics'], warn);
  const [operation, request, callback, reconcile] = spanRules(recorded);
  const received = failures.guard('metrics', (message: unknown) => {
    const view = message as CallbackReceivedView;
    recorded.callbacksReceived.add(1);
    if (view.duplicate) recorded.callbacksDuplicate.add(1);
  });
  const transition = failures.guard('metrics', (message: unknown) => {
    const view = message as TransitionView;
    if (view.to !== 'success' && view.to !== 'failed') return;
    const seconds = (Date.now() - view.createdAt.getTime()) / 1000;
    const attributes = { 'pesakit.product': view.product, 'pesakit.outcome': view.to };
    recorded.operationDuration.record(Math.max(0, seconds), attributes);
  });
  callbackReceivedChannel.subscribe(received);
  transitionChannel.subscribe(transition);
  const stops = [
    follow(tracer, active, operation, failures),
    follow(tracer, active, request, failures),
    follow(tracer, active, callback, failures),
    follow(tracer, active, reconcile, failures),
    () => callbackReceivedChannel.unsubscribe(received),
    () => transitionChannel.unsubscribe(transition),
    ...(store ? [observeStore(meter, store)] : []),
  ];
  const instrumentation: PesakitInstrumentation = {
    disable() {
      for (const stop of stops.splice(0)) stop();
      if (holder[slot] === instrumentation) delete holder[slot];
    },
    failures: () => failures.counts(),
  };
  holder[slot] = instrumentation;
  return instrumentation;
}

/** The first failure of a kind, as a process warning: what broke, and that payments went on. */
function warn(kind: Signal, error: unknown): void {
  const provider = kind === 'spans' ? 'tracer provider' : 'meter provider';
  const thrown = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  process.emitWarning(
    `pesakit/otel: the ${provider} threw (${thrown}). pesakit caught it and the payment went on ` +
      `without this ${kind === 'spans' ? 'span' : 'metric'}. Later failures are caught too and ` +
      `counted in instrumentation.failures().${kind}, without another warning.`,
    { code: 'PESAKIT_OTEL_FAILED' },
  );
}
