import type { AsyncLocalStorage } from 'node:async_hooks';
import type { TracingChannel, TracingChannelSubscribers } from 'node:diagnostics_channel';
import type { Attributes, Context, Link, Span, SpanKind, Tracer } from '@opentelemetry/api';
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import type { SubscriberFailures } from './subscriber-failures.js';

type Values = Record<string, string | number | undefined>;

/** What a failure inside a subscriber costs: a span (tracer provider) or a metric (meter provider). */
export type Signal = 'spans' | 'metrics';

/** How one traced channel becomes spans: a name, a kind, attributes at start and at end. */
export interface SpanRule<V extends { errorType: string | undefined }> {
  channel: TracingChannel<unknown, V>;
  kind: SpanKind;
  name(view: V): string;
  /** Attributes at the span's start and at its end; undefined values are left out. */
  started(view: V): Values;
  ended(view: V): Values;
  links?(view: V): Link[];
  /** After the span ends: what later units keep of it (its context, to link to). */
  finished?(view: V, span: Span): void;
  /** After the unit ends: its metrics, in seconds, whether or not its span could be made. */
  measured?(view: V, seconds: number): void;
}

/**
 * Follows one channel: a span per unit, the child of the pesakit span around it (`active`, which
 * the start event binds) or else of the active OpenTelemetry context. Every subscriber body runs
 * through `failures`, so a provider that throws costs its span or metric, never the payment; a
 * span and a metric fail apart. Returns the unsubscribe.
 */
export function follow<V extends { errorType: string | undefined }>(
  tracer: Tracer,
  active: AsyncLocalStorage<Context | undefined>,
  rule: SpanRule<V>,
  failures: SubscriberFailures<Signal>,
): () => void {
  const open = new WeakMap<V, { span: Span | undefined; startedAt: number }>();
  // The unit is timed before its span starts; a span that cannot start leaves the work beneath
  // it under the active context.
  const start = failures.guard('spans', (view: V) => {
    const unit: { span: Span | undefined; startedAt: number } = {
      span: undefined,
      startedAt: performance.now(),
    };
    open.set(view, unit);
    const parent = active.getStore() ?? context.active();
    const links = rule.links?.(view) ?? [];
    const options = { kind: rule.kind, attributes: defined(rule.started(view)), links };
    unit.span = tracer.startSpan(rule.name(view), options, parent);
    return trace.setSpan(parent, unit.span);
  });
  const endSpan = failures.guard('spans', (view: V, span: Span) => {
    span.setAttributes(defined({ 'error.type': view.errorType, ...rule.ended(view) }));
    if (view.errorType !== undefined) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: view.errorType });
    }
    span.end();
    rule.finished?.(view, span);
  });
  const measure = failures.guard('metrics', (view: V, seconds: number) =>
    rule.measured?.(view, seconds),
  );
  const finish = (view: V) => {
    const unit = open.get(view);
    if (unit === undefined) return;
    open.delete(view);
    if (unit.span !== undefined) endSpan(view, unit.span);
    measure(view, (performance.now() - unit.startedAt) / 1000);
  };
  // A synchronous throw ends the unit at `end`; an asynchronous one at asyncEnd.
  const end = failures.guard('spans', (view: V) => {
    if (view.errorType !== undefined) finish(view);
  });
  const asyncEnd = failures.guard('spans', finish);
  const handlers = { end, asyncEnd } as unknown as TracingChannelSubscribers<V>;
  rule.channel.start.bindStore(active, start);
  rule.channel.subscribe(handlers);
  return () => {
    rule.channel.unsubscribe(handlers);
    rule.channel.start.unbindStore(active);
  };
}

/** Attributes without their undefined values. */
export function defined(attributes: Values): Attributes {
  const kept: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) kept[key] = value;
  return kept;
}
