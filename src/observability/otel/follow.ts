import type { AsyncLocalStorage } from 'node:async_hooks';
import type { TracingChannel, TracingChannelSubscribers } from 'node:diagnostics_channel';
import type { Attributes, Context, Link, Span, SpanKind, Tracer } from '@opentelemetry/api';
import { context, SpanStatusCode, trace } from '@opentelemetry/api';

type Values = Record<string, string | number | undefined>;

/** How one traced channel becomes spans: a name, a kind, attributes at start and at end. */
export interface SpanRule<V extends { errorType: string | undefined }> {
  channel: TracingChannel<unknown, V>;
  kind: SpanKind;
  name(view: V): string;
  /** Attributes at the span's start and at its end; undefined values are left out. */
  started(view: V): Values;
  ended(view: V): Values;
  links?(view: V): Link[];
  /** After the span ends: the unit's metrics, in seconds. */
  measured?(view: V, seconds: number, span: Span): void;
}

/**
 * Follows one channel: a span per unit, the child of the pesakit span around it (`active`, which
 * the start event binds) or else of the active OpenTelemetry context. Returns the unsubscribe.
 */
export function follow<V extends { errorType: string | undefined }>(
  tracer: Tracer,
  active: AsyncLocalStorage<Context>,
  rule: SpanRule<V>,
): () => void {
  const open = new WeakMap<V, { span: Span; startedAt: number }>();
  rule.channel.start.bindStore(active, (view) => {
    const parent = active.getStore() ?? context.active();
    const links = rule.links?.(view) ?? [];
    const options = { kind: rule.kind, attributes: defined(rule.started(view)), links };
    const span = tracer.startSpan(rule.name(view), options, parent);
    open.set(view, { span, startedAt: performance.now() });
    return trace.setSpan(parent, span);
  });
  const finish = (view: V) => {
    const unit = open.get(view);
    if (unit === undefined) return;
    open.delete(view);
    const { span } = unit;
    span.setAttributes(defined({ 'error.type': view.errorType, ...rule.ended(view) }));
    if (view.errorType !== undefined) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: view.errorType });
    }
    span.end();
    rule.measured?.(view, (performance.now() - unit.startedAt) / 1000, span);
  };
  // A synchronous throw ends the unit at `end`; an asynchronous one at asyncEnd.
  const end = (view: V) => view.errorType !== undefined && finish(view);
  const handlers = { end, asyncEnd: finish } as unknown as TracingChannelSubscribers<V>;
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
