/** Node's `util.inspect.custom`, by its registered name: no `node:util` import in the SDK. */
const inspectCustom = Symbol.for('nodejs.util.inspect.custom');

/** The `inspect` function Node hands a custom inspector (the one `util.inspect` itself uses). */
type Inspect = (value: unknown, options: object) => string;

/**
 * Makes `util.inspect` (and so `console.log`) show an instance as `Name {…toJSON()…}`.
 *
 * The callback receiver and the reconciler are event emitters: inspected as they are, they
 * print eventemitter3's listener table — the merchant's handlers' code, and a back-reference
 * to the emitter itself. Their `toJSON()` is already the description meant for a log, without
 * handlers or secrets; this shows the same thing to `inspect`, so that a log line reads alike
 * whichever way the object was printed. Defined on the prototype, not enumerable: it is not
 * an own field of any instance, and `toJSON()` decides everything that is shown.
 *
 * @example
 * export class Reconciler extends EventEmitter { toJSON() { … } }
 * inspectAs(Reconciler, 'Reconciler');
 */
export function inspectAs(
  target: abstract new (...args: never[]) => { toJSON(): unknown },
  name: string,
): void {
  Object.defineProperty(target.prototype, inspectCustom, {
    value: function inspectCustomised(
      this: { toJSON(): unknown },
      _depth: number,
      options: object,
      inspect: Inspect,
    ): string {
      return `${name} ${inspect(this.toJSON(), options)}`;
    },
    writable: true,
    configurable: true,
    enumerable: false,
  });
}
