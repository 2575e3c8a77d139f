/**
 * 64-bit integers as they arrive from callers: `bigint`, safe-integer `number`, decimal `string`, or a
 * protobufjs `Long`. Everything is turned into a `bigint` with a range check; anything else is our error.
 *
 * @module
 */
import { WktJsonError } from "../errors.js";
import { describe } from "./describe.js";
import { int64Max, int64Min, uint64Max } from "../limits.js";
import { isDigit } from "./scan.js";

/**
 * Every form accepted where a 64-bit integer goes in. The object form is what wkt-json reads from a
 * protobufjs `Long` (of the `long` package): its 32-bit halves and its signedness. It is spelled out here
 * rather than imported, so that the published types need no import of `long` (whose default export needs
 * `esModuleInterop` under the node10 module resolution). At run time only a real `Long` is accepted,
 * recognised by its shape (`__isLong__`, as `Long.isLong` checks it); a plain object of this shape is refused.
 */
export type Int64Like =
  | bigint
  | number
  | string
  | {
      /** The low 32 bits, signed. */
      readonly low: number;
      /** The high 32 bits, signed. */
      readonly high: number;
      /** Whether the value is unsigned. */
      readonly unsigned: boolean;
    };

/** Options of {@link int64From}. */
export interface Int64FromOptions {
  /** Accept 0 to 2^64-1 instead of -2^63 to 2^63-1. Default false. */
  unsigned?: boolean;
  /** Path reported in errors. Default `$`. */
  path?: string;
  /** Type name reported in errors. Default `int64` or `uint64`. */
  typeName?: string;
}

/**
 * Converts a `bigint`, safe-integer `number`, decimal `string` or protobufjs `Long` to a `bigint` in the
 * int64 (or, with `unsigned`, uint64) range.
 *
 * @throws {WktJsonError} rule `int64` for a value of another type, a non-integer or unsafe number, a string
 *   that is not a decimal integer; rule `range` for a value outside the range.
 * @example
 * int64From("-9223372036854775808"); //=> -9223372036854775808n
 * int64From(Long.fromString("18446744073709551615", true), { unsigned: true }); //=> 18446744073709551615n
 * int64From(1.5); // throws WktJsonError (rule "int64")
 */
export function int64From(value: unknown, options?: Int64FromOptions): bigint {
  const unsigned = options?.unsigned === true;
  const path = options?.path ?? "$";
  const typeName = options?.typeName ?? (unsigned ? "uint64" : "int64");
  let v: bigint;
  if (typeof value === "bigint") {
    v = value;
  } else if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) {
      throw new WktJsonError(
        "int64",
        path,
        typeName,
        `${String(value)} is not a safe integer; pass a bigint or a string`,
      );
    }
    v = BigInt(value);
  } else if (typeof value === "string") {
    if (!isDecimalInteger(value)) {
      throw new WktJsonError("int64", path, typeName, `${JSON.stringify(value)} is not a decimal integer`);
    }
    v = BigInt(value);
  } else if (isLong(value)) {
    const long = value;
    const bits = (BigInt(long.high >>> 0) << 32n) | BigInt(long.low >>> 0);
    v = long.unsigned ? bits : BigInt.asIntN(64, bits);
  } else {
    throw new WktJsonError(
      "int64",
      path,
      typeName,
      `expected a bigint, number, string or Long, got ${describe(value)}`,
    );
  }
  const min = unsigned ? 0n : int64Min;
  const max = unsigned ? uint64Max : int64Max;
  if (v < min || v > max) {
    throw new WktJsonError("range", path, typeName, `${v} is outside ${min} to ${max}`);
  }
  return v;
}

/**
 * Tells whether `value` is a `Long` of the `long` package, by its shape: what `Long.isLong` checks (an own or
 * inherited `__isLong__` that is `true`, which `Long.prototype` defines), and 32-bit integer halves and a
 * boolean signedness, which every `Long` holds. Recognised by shape, not by importing `long`, so that a
 * bundle loads no code of `long` (11 KB) for callers that never pass one.
 */
function isLong(value: unknown): value is Extract<Int64Like, object> {
  if (typeof value !== "object" || value === null) return false;
  const v = value as { __isLong__?: unknown; low?: unknown; high?: unknown; unsigned?: unknown };
  return (
    v.__isLong__ === true &&
    typeof v.low === "number" &&
    (v.low | 0) === v.low &&
    typeof v.high === "number" &&
    (v.high | 0) === v.high &&
    typeof v.unsigned === "boolean"
  );
}

/** Tells whether `s` is `-?[0-9]+` (no sign `+`, no spaces, no exponent). */
function isDecimalInteger(s: string): boolean {
  const start = s.charCodeAt(0) === 45 ? 1 : 0;
  if (s.length === start || s.length > 64) return false;
  for (let i = start; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!isDigit(c)) return false;
  }
  return true;
}
