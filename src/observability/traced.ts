import type { TracingChannel } from 'node:diagnostics_channel';
import { withSource } from './transitions.js';
import type { TransitionSource } from './views.js';

export type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** One traced unit of work: its channel, its view's first fields, and how its end fills them. */
export interface Unit<V extends { errorType: string | undefined }, R> {
  channel: TracingChannel<unknown, V>;
  /** The source of the transitions the work makes, when it is their cause. */
  source?: TransitionSource;
  /** Builds the view's fields; called only when someone subscribes. */
  view: () => Mutable<V>;
  /** Fills in the view's last fields: `result` undefined when the work failed with `error`. */
  ended?: (view: Mutable<V>, result: R | undefined, error?: unknown) => void;
}

/**
 * Runs `work` as Node's `tracePromise` would (start around it, end, then error, asyncStart and
 * asyncEnd when it settles), with one frozen view whose fields fill in as it ends; nothing is
 * built while nobody subscribes. A Promise subclass (a bulk run) comes back as itself.
 */
export function traced<V extends { errorType: string | undefined }, R>(
  unit: Unit<V, R>,
  work: () => Promise<R>,
): Promise<R> {
  const { source, channel } = unit;
  const run = source === undefined ? work : () => withSource(source, work);
  if (!channel.hasSubscribers) return run();
  const fields = unit.view();
  const view = frozenView(fields);
  const ended = () => {
    channel.asyncStart.publish(view);
    channel.asyncEnd.publish(view);
  };
  const fail = (error: unknown) => {
    fields.errorType = error instanceof Error ? error.name : typeof error;
    unit.ended?.(fields, undefined, error);
    channel.error.publish(view);
  };
  return channel.start.runStores(view, () => {
    let promise: Promise<R>;
    try {
      promise = run();
    } catch (error) {
      fail(error);
      throw error;
    } finally {
      channel.end.publish(view);
    }
    const followed = Promise.resolve(promise).then(
      (result) => {
        unit.ended?.(fields, result);
        ended();
        return result;
      },
      (error: unknown) => {
        fail(error);
        ended();
        throw error;
      },
    );
    if (promise instanceof Promise && promise.constructor === Promise) return followed;
    followed.catch(() => {});
    return promise;
  });
}

/** A frozen object whose fields read `fields`: subscribers see them fill in, and cannot write. */
function frozenView<V extends object>(fields: V): Readonly<V> {
  const view = {};
  for (const key of Object.keys(fields) as (keyof V)[]) {
    Object.defineProperty(view, key, { enumerable: true, get: () => fields[key] });
  }
  return Object.freeze(view) as Readonly<V>;
}
