/**
 * One description of a value's kind for error messages ("got a number"), used by every module, so that the
 * same wrong input is described the same way whichever function received it. It names the kind, not the
 * value: a message must not echo a client's data back (a number is "a number", but NaN and the infinities are
 * named, as they are the reason a number is refused).
 *
 * @module
 * @internal
 */

/**
 * Names the kind of `value` for an error message: `null`, `undefined`, `an array`, `an object` (or `an instance
 * of Date` for an object of a named class), `a string`, `a number` (`NaN`, `Infinity`, `-Infinity` by name), `a
 * boolean`, `a bigint`, `a symbol`, `a function`.
 *
 * @internal
 */
export function describe(value: unknown): string {
  switch (typeof value) {
    case "undefined":
      return "undefined";
    case "string":
      return "a string";
    case "number":
      return Number.isFinite(value) ? "a number" : String(value);
    case "boolean":
      return "a boolean";
    case "bigint":
      return "a bigint";
    case "symbol":
      return "a symbol";
    case "function":
      return "a function";
  }
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return objectKind(value as object);
}

/** `an object`, or `an instance of X` for an object whose prototype's own `constructor` is a named class. */
function objectKind(value: object): string {
  let proto: unknown;
  try {
    proto = Object.getPrototypeOf(value);
    if (proto === null || proto === Object.prototype) return "an object";
    const ctor = Object.getOwnPropertyDescriptor(proto, "constructor")?.value as { name?: unknown } | undefined;
    const name = typeof ctor === "function" ? ctor.name : undefined;
    return typeof name === "string" && name !== "" && name !== "Object" ? `an instance of ${name}` : "an object";
  } catch {
    // A Proxy whose traps throw: it is still an object.
    return "an object";
  }
}
