/** Node's `util.inspect.custom`, by its registered name: no `node:util` import in the SDK. */
const inspectCustom = Symbol.for('nodejs.util.inspect.custom');

/** The `inspect` function Node hands a custom inspector (the one `util.inspect` itself uses). */
type Inspect = (value: unknown, options: object) => string;

/** Makes `util.inspect` show `Name {…toJSON()…}`, not an emitter's listener table (handlers). */
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
