/**
 * What makes a value a message of a given type, stated once: an object whose `$typeName` is the type's full
 * name (protobuf-es marks every message it creates so, and a message built by hand must be too). The codec's
 * writers throw {@link notMessageError} where it fails; the binary fast path (wkt-binary.ts) bails instead.
 *
 * @module
 * @internal
 */
import { WktJsonError } from "../errors.js";
import { describe } from "./describe.js";

/**
 * Tells whether `value` is a message of type `typeName`: an object whose `$typeName` is `typeName`. Small
 * enough for V8 to inline at every call site (the writers call it once per message written).
 *
 * @internal
 */
export function isMessageOf(value: unknown, typeName: string): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && (value as { $typeName?: unknown }).$typeName === typeName;
}

/**
 * Throws {@link notMessageError} unless `value` is a message of type `typeName`.
 *
 * @throws {WktJsonError} rule `json-type` at `$`.
 * @internal
 */
export function checkMessage(value: unknown, typeName: string): asserts value is Record<string, unknown> {
  if (!isMessageOf(value, typeName)) throw notMessageError(value, typeName);
}

/**
 * The `json-type` error for a value that is not a message of type `typeName`: "expected a message, got a
 * number" for a value that is no object, "expected a message T, got U" for a message of another type. With
 * `what` (the argument's name, for functions that take two messages), the message opens with "what: ".
 *
 * @internal
 */
export function notMessageError(value: unknown, typeName: string, what?: string): WktJsonError {
  const prefix = what === undefined ? "" : `${what}: `;
  if (typeof value !== "object" || value === null) {
    return new WktJsonError("json-type", "$", typeName, `${prefix}expected a message, got ${describe(value)}`);
  }
  const actual = (value as { $typeName?: unknown }).$typeName;
  const got = typeof actual === "string" ? actual : describe(actual);
  return new WktJsonError("json-type", "$", typeName, `${prefix}expected a message ${typeName}, got ${got}`);
}
