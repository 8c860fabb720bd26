import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context, MeterProvider, TracerProvider } from '@opentelemetry/api';
import { metrics, trace } from '@opentelemetry/api';
import { ConfigurationError } from '../../errors/configuration-error.js';
import type { ReferenceStore } from '../../references/types.js';
import { callbackReceivedChannel, transitionChannel } from '../channels.js';
import type { CallbackReceivedView, TransitionView } from '../views.js';
import { follow } from './follow.js';
import { observeStore } from './gauges.js';
import { instruments } from './instruments.js';
import { spanRules } from './rules.js';

export interface InstrumentPesakitOptions {
  /** @default the global tracer provider (`trace.getTracerProvider()`) */
  tracerProvider?: TracerProvider;
  /** @default the global meter provider (`metrics.getMeterProvider()`) */
  meterProvider?: MeterProvider;
  /** A store whose summary feeds `pesakit.records.open` and `pesakit.records.oldest_open_age`. */
  store?: Pick<ReferenceStore, 'summarize'>;
}

export interface PesakitInstrumentation {
  /** Unsubscribes from every channel and stops the gauges; idempotent. */
  disable(): void;
}

// One instrumentation per process, even with the CommonJS and ESM builds both loaded: a second
// call replaces the first, so nothing is counted twice.
const slot = Symbol.for('pesakit.otel.instrumentation');
const holder = globalThis as { [slot]?: PesakitInstrumentation };
const expected = { tracerProvider: 'getTracer', meterProvider: 'getMeter', store: 'summarize' };

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
  holder[slot]?.disable();
  const tracer = (tracerProvider ?? trace.getTracerProvider()).getTracer('pesakit');
  const meter = (meterProvider ?? metrics.getMeterProvider()).getMeter('pesakit');
  const recorded = instruments(meter);
  const active = new AsyncLocalStorage<Context>();
  const [operation, request, callback, reconcile] = spanRules(recorded);
  const received = (message: unknown) => {
    const view = message as CallbackReceivedView;
    recorded.callbacksReceived.add(1);
    if (view.duplicate) recorded.callbacksDuplicate.add(1);
  };
  const transition = (message: unknown) => {
    const view = message as TransitionView;
    if (view.to !== 'success' && view.to !== 'failed') return;
    const seconds = (Date.now() - view.createdAt.getTime()) / 1000;
    const attributes = { 'pesakit.product': view.product, 'pesakit.outcome': view.to };
    recorded.operationDuration.record(Math.max(0, seconds), attributes);
  };
  callbackReceivedChannel.subscribe(received);
  transitionChannel.subscribe(transition);
  const stops = [
    follow(tracer, active, operation),
    follow(tracer, active, request),
    follow(tracer, active, callback),
    follow(tracer, active, reconcile),
    () => callbackReceivedChannel.unsubscribe(received),
    () => transitionChannel.unsubscribe(transition),
    ...(store ? [observeStore(meter, store)] : []),
  ];
  const instrumentation: PesakitInstrumentation = {
    disable() {
      for (const stop of stops.splice(0)) stop();
      if (holder[slot] === instrumentation) delete holder[slot];
    },
  };
  holder[slot] = instrumentation;
  return instrumentation;
}
