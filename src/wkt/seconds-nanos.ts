/**
 * What Timestamp and Duration share: the `seconds` and `nanos` fields. How a field value is read (`secondsOf`),
 * built (`bigintOf`) and shown in a message (`show`), the problem codes of their checks, and the errors those
 * codes become: each type's module keeps its own range test (the hot path of its writer) and states its
 * bounds once as {@link FieldBounds}.
 *
 * @internal
 * @module
 */
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { formatBound } from "../limits.js";

/** Problem codes of the checks of Timestamp and Duration: cheap to return; the boundary builds the error. */
export const valid = 0;
export const notObject = 1;
export const badSeconds = 2;
export const badNanos = 3;
/** Duration only: seconds and nanos disagree in sign. */
export const badSign = 4;

/** A type's bounds: what its check tests and how its errors state them. */
export interface FieldBounds {
  readonly typeName: string;
  /** `"Timestamp"` or `"Duration"`, as the message names the type. */
  readonly name: string;
  readonly secondsMin: number;
  readonly secondsMax: number;
  /** The range of `seconds`, as the message states it. */
  readonly secondsText: string;
  readonly nanosMin: number;
  readonly nanosMax: number;
  /** Whether a non-zero nanos must have the sign of a non-zero seconds (Duration). */
  readonly sameSign: boolean;
}

/**
 * Returns why `seconds` (converted by {@link secondsOf}) and `nanos` are not a valid value of the type of
 * `bounds`, or `valid`. Allocates nothing: the writers call it on every value (bench toJson/timestamp).
 */
export function fieldsProblem(seconds: number, nanos: unknown, bounds: FieldBounds): number {
  if (!(seconds >= bounds.secondsMin && seconds <= bounds.secondsMax)) return badSeconds;
  if (!(typeof nanos === "number" && nanos >= bounds.nanosMin && nanos <= bounds.nanosMax)) return badNanos;
  if (!Number.isInteger(nanos)) return badNanos;
  if (bounds.sameSign && ((seconds > 0 && nanos < 0) || (seconds < 0 && nanos > 0))) return badSign;
  return valid;
}

/**
 * The error of a problem code other than `valid`, for the message `m` that has it: rule `range`, or `sign` for
 * {@link badSign}.
 */
export function fieldsError(problem: number, m: unknown, bounds: FieldBounds): WktJsonError {
  const { typeName } = bounds;
  if (problem === notObject) {
    return new WktJsonError("range", "$", typeName, `expected a ${bounds.name} message, got ${describe(m)}`);
  }
  const { seconds, nanos } = m as { seconds: unknown; nanos: unknown };
  if (problem === badSeconds) {
    return new WktJsonError(
      "range",
      "$",
      typeName,
      `seconds must be an integer from ${bounds.secondsText}, got ${show(seconds)}`,
    );
  }
  if (problem === badNanos) {
    const range = `${formatBound(bounds.nanosMin)} to ${formatBound(bounds.nanosMax)}`;
    return new WktJsonError("range", "$", typeName, `nanos must be an integer from ${range}, got ${show(nanos)}`);
  }
  return new WktJsonError(
    "sign",
    "$",
    typeName,
    `seconds ${show(seconds)} and nanos ${show(nanos)} disagree in sign; a non-zero nanos must have the sign of a non-zero seconds`,
  );
}

/**
 * Shows a field value in an error message: numbers and bigints as they are, anything else by its type.
 *
 * @internal
 * @throws never
 * @example
 * show(-5n); //=> "-5"
 * show("5"); //=> "a string"
 */
export function show(v: unknown): string {
  return typeof v === "bigint" || typeof v === "number" ? String(v) : describe(v);
}

/**
 * The seconds field of a Timestamp or Duration as a number, or NaN when it is neither a bigint nor a safe
 * integer. A bigint too large for a double still compares as out of range, since rounding keeps the order.
 *
 * @internal
 * @throws never
 * @example
 * secondsOf(-5n); //=> -5
 * secondsOf(1.5); //=> NaN
 */
export function secondsOf(v: unknown): number {
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "number" && Number.isSafeInteger(v)) return v;
  return NaN;
}

const int64Cell = new BigInt64Array(1);
const int64Words = new Uint32Array(int64Cell.buffer);
const lowWord = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1 ? 0 : 1; // 0 on little-endian machines

/**
 * `BigInt(n)` for a safe integer `n`, without calling `BigInt`: the two 32-bit words are written into a 64-bit
 * typed array and read back as one BigInt, which the optimising compiler does inline. `BigInt(n)` is a runtime
 * call: about 20 ns even for a small `n` (half of parsing "3600s" on Node 20 and 24; the typed array takes
 * about 3 ns), and slower still beyond 32 bits (it made parsing "315575999999.123456789s" three times slower
 * than "3600s").
 *
 * @internal
 * @throws never
 * @example
 * bigintOf(-315576000000); //=> -315576000000n
 */
export function bigintOf(n: number): bigint {
  if ((n | 0) === n) {
    int64Words[lowWord] = n; // stored mod 2^32
    int64Words[1 - lowWord] = n >> 31; // the sign: 0 or -1, stored as 0 or 2^32 - 1
    return int64Cell[0] as bigint;
  }
  const high = Math.floor(n / 4_294_967_296);
  int64Words[lowWord] = n - high * 4_294_967_296;
  int64Words[1 - lowWord] = high; // stored mod 2^32: two's complement for negative n
  return int64Cell[0] as bigint;
}
