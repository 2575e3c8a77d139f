/**
 * google.protobuf.Duration: the `"1.5s"` JSON form, validation, arithmetic and conversions.
 *
 * Spec rule 5: "Duration is a signed fixed-length span independent of any calendar, at nanosecond resolution,
 * range about plus/minus 10,000 years. For spans under one second, seconds is 0 and nanos carries the sign. For
 * spans of one second or more, a non-zero nanos has the same sign as seconds. The difference of two Timestamps
 * is a Duration; a Duration can be added to or subtracted from a Timestamp."
 * Limits: "Duration.seconds: -315,576,000,000 to +315,576,000,000 inclusive; Duration.nanos: -999,999,999 to
 * +999,999,999 inclusive."
 *
 * JSON form: `-?(0|[1-9][0-9]*)(\.[0-9]{1,9})?s`. Leading zeros (`"01s"`) are rejected, as protobuf-go's
 * protojson does (its `parseDuration` takes a lone `0` as the whole integer part and then wants `.` or the end).
 * protobuf-go also accepts `"+1s"`, `"1.s"` and `".5s"`; we do not: the spec's form is "decimal seconds with
 * optional fraction", and the canonical writers of every implementation never produce them. The longest
 * Duration is `"315576000000.999999999s"`; seconds beyond {@link durationSecondsMax} are out of range.
 *
 * Messages that are not Durations at all (null, seconds that is neither a bigint nor a safe integer, nanos that
 * is not an integer) are reported under rule `range`: no value of theirs lies in the range.
 *
 * @module
 */
import type { Duration } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { callAtBase } from "../internal/base-path.js";
import { durationTypeName } from "../internal/names.js";
import { digitTriples, dotDigitTriples, fractionScale, quoteInput } from "../internal/scan.js";
import {
  durationNanosMax,
  durationNanosMin,
  durationSecondsMax,
  durationSecondsMin,
  durationTextMax,
  formatBound,
  fractionDigitsMax,
  nanosPerSecond,
} from "../limits.js";
import {
  bigintOf,
  fieldsError,
  fieldsProblem,
  notObject,
  secondsOf,
  show,
  valid,
  type FieldBounds,
} from "./seconds-nanos.js";

/** The fields of a Duration; plain objects such as `{ seconds: 1n, nanos: 0 }` qualify. */
export type DurationLike = Pick<Duration, "seconds" | "nanos">;

/** Options of {@link durationFromJson} and {@link durationToJson}. */
export interface DurationJsonOptions {
  /**
   * JSON path of the value in the caller's document, such as `"$.timeout"`: an error is reported at this path
   * instead of `$`. A string starting with `$`. Default `"$"`.
   */
  path?: string | undefined;
}

const nanosPerSecondBig = 1_000_000_000n;

/**
 * Parses the JSON form of a Duration, such as `"1.5s"` or `"-0.001s"`.
 *
 * Errors are reported at `$`, or at `options.path` when given (the field a service read the value from).
 *
 * @throws {WktJsonError} rule `json-type` if `json` is not a string; `syntax` if it is not
 *   `-?(0|[1-9][0-9]*)(\.[0-9]{1,9})?s`; `range` beyond ±315576000000.999999999s, and for a `path` option that
 *   is not a string starting with `$`.
 * @example
 * durationFromJson("-0.5s"); //=> { $typeName: "google.protobuf.Duration", seconds: 0n, nanos: -500000000 }
 * durationFromJson("1sabc"); // throws WktJsonError (rule "syntax", jsonPath "$")
 * durationFromJson("1sabc", { path: "$.timeout" }); // throws WktJsonError (rule "syntax", jsonPath "$.timeout")
 */
export function durationFromJson(json: unknown, options?: DurationJsonOptions): Duration;
/** @hidden */
// Without options, so that `texts.map(durationFromJson)` still compiles (map passes an index second).
export function durationFromJson(json: unknown): Duration;
export function durationFromJson(json: unknown, options?: DurationJsonOptions): Duration {
  // With options, the same parse runs inside callAtBase and its error moves under the base path; without, the
  // call pays one comparison.
  return options === undefined ? durationParse(json) : callAtBase(durationParse, json, options, durationTypeName);
}

/**
 * Parses the JSON form of a Duration, errors at `$`: {@link durationFromJson} without options, for the codec.
 *
 * The whole-message codec calls this directly, so that its per-field path (bench fromJson/duration) pays neither
 * the options test nor the base-path wrapper's try/catch.
 *
 * @internal
 */
export function durationParse(json: unknown): Duration {
  if (typeof json !== "string") {
    throw new WktJsonError(
      "json-type",
      "$",
      durationTypeName,
      `expected a string such as "1.5s", got ${describe(json)}`,
    );
  }
  const parsed = durationParsed(json);
  if (parsed !== undefined) return parsed;
  // Not a Duration, or out of range: the parse below names what is wrong.
  const s = json;
  const len = s.length;
  const neg = s.charCodeAt(0) === 45; // -
  let i = neg ? 1 : 0;
  const intStart = i;
  let seconds = 0; // grows to Infinity on absurd inputs, which the range check below rejects
  for (; i < len; i++) {
    const d = s.charCodeAt(i) - 48;
    if (!(d >= 0 && d <= 9)) break;
    seconds = seconds * 10 + d;
  }
  if (i === intStart) throw syntaxError(s, `expected a digit at index ${i}`);
  if (i - intStart > 1 && s.charCodeAt(intStart) === 48) {
    throw syntaxError(s, "leading zeros are not allowed");
  }
  let nanos = 0;
  if (s.charCodeAt(i) === 46) {
    const fracStart = ++i;
    let frac = 0;
    for (; i < len && i - fracStart <= fractionDigitsMax; i++) {
      const d = s.charCodeAt(i) - 48;
      if (!(d >= 0 && d <= 9)) break;
      frac = frac * 10 + d;
    }
    const k = i - fracStart;
    if (k === 0) throw syntaxError(s, "a dot must be followed by a digit");
    if (k > fractionDigitsMax) throw syntaxError(s, `more than ${fractionDigitsMax} fraction digits`);
    nanos = frac * (fractionScale[k] as number);
  }
  if (i !== len - 1 || s.charCodeAt(i) !== 115) {
    throw syntaxError(s, i >= len ? `missing the suffix "s"` : `expected "s" at index ${i} and nothing after it`);
  }
  if (seconds > durationSecondsMax) {
    throw new WktJsonError("range", "$", durationTypeName, `${quoteInput(s)} is outside ±${durationTextMax}`);
  }
  return {
    $typeName: durationTypeName,
    seconds: bigintOf(neg ? -seconds : seconds),
    nanos: neg ? 0 - nanos : nanos, // 0 - 0 is +0: no -0 in messages
  };
}

/**
 * The Duration that `s` denotes, or undefined when it is not one or is out of range: {@link durationFromJson}'s
 * fast path, which only accepts; the parse after it decides and reports every error. It finds the suffix "s"
 * first, so that every digit loop stops at it without a length check, and tests a digit with one unsigned
 * comparison (`d >>> 0 > 9`). About 20% faster than that parse alone (bench/cases/duration.ts, Node 20).
 */
function durationParsed(s: string): Duration | undefined {
  const last = s.length - 1;
  if (s.charCodeAt(last) !== 115) return undefined; // s; NaN for ""
  const neg = s.charCodeAt(0) === 45; // -
  let i = neg ? 1 : 0;
  // Every loop below stops at the "s" at `last` at the latest, so no charCodeAt reads past the end (NaN).
  let d = s.charCodeAt(i) - 48;
  if (d >>> 0 > 9) return undefined;
  let seconds = d;
  if (d !== 0) {
    for (;;) {
      d = s.charCodeAt(++i) - 48;
      if (d >>> 0 > 9) break;
      seconds = seconds * 10 + d; // grows to Infinity on absurd inputs, which the range check rejects
    }
  } else {
    d = s.charCodeAt(++i) - 48; // a lone 0: "." or "s" must follow (leading zeros are refused below)
  }
  let nanos = 0;
  if (i !== last) {
    if (d !== -2) return undefined; // .
    const k = last - ++i;
    if (k < 1 || k > fractionDigitsMax) return undefined;
    let frac = 0;
    for (; i < last; i++) {
      const e = s.charCodeAt(i) - 48;
      if (e >>> 0 > 9) return undefined;
      frac = frac * 10 + e;
    }
    nanos = frac * (fractionScale[k] as number);
  }
  if (seconds > durationSecondsMax) return undefined;
  return { $typeName: durationTypeName, seconds: bigintOf(neg ? -seconds : seconds), nanos: neg ? 0 - nanos : nanos };
}

function syntaxError(s: string, reason: string): WktJsonError {
  return new WktJsonError(
    "syntax",
    "$",
    durationTypeName,
    `${quoteInput(s)} is not a Duration such as "1.5s" (-?digits[.1 to ${fractionDigitsMax} digits]s): ${reason}`,
  );
}

/**
 * Formats a Duration as its canonical JSON form: a fraction of 0, 3, 6 or 9 digits, and a minus sign if either
 * field is negative.
 *
 * @throws {WktJsonError} rule `range` if seconds or nanos is out of range (or not a number at all); `sign` if
 *   seconds and nanos disagree in sign; at `$` or at `options.path`. Rule `range` also for a `path` option that
 *   is not a string starting with `$`.
 * @example
 * durationToJson({ seconds: 0n, nanos: -500000000 }); //=> "-0.500s"
 * durationToJson({ seconds: 1n, nanos: -1 }); // throws WktJsonError (rule "sign", jsonPath "$")
 * durationToJson({ seconds: 1n, nanos: -1 }, { path: "$.timeout" }); // throws WktJsonError (rule "sign", jsonPath "$.timeout")
 */
export function durationToJson(d: DurationLike, options?: DurationJsonOptions): string;
/** @hidden */
// Without options, so that `durations.map(durationToJson)` still compiles (map passes an index second).
export function durationToJson(d: DurationLike): string;
export function durationToJson(d: DurationLike, options?: DurationJsonOptions): string {
  if (options !== undefined) return callAtBase(durationToJson, d, options, durationTypeName);
  if (typeof d !== "object" || d === null) throw fieldsError(notObject, d, bounds);
  const seconds = secondsOf(d.seconds); // converted once: Number(bigint) is a runtime call
  const nanos = d.nanos;
  const problem = fieldsProblem(seconds, nanos, bounds);
  if (problem !== valid) throw fieldsError(problem, d, bounds);
  if (nanos < 0) return (seconds === 0 ? "-0" : "-" + String(-seconds)) + fractionAndSuffix(-nanos); // one concatenation less under a second
  if (seconds < 0) return "-" + String(-seconds) + fractionAndSuffix(-nanos);
  return String(seconds) + fractionAndSuffix(nanos);
}

/** "000s" to "999s" and ".000s" to ".999s", built on first use. */
let triplesS: readonly string[] | undefined;
let dotTriplesS: readonly string[] | undefined;

/**
 * The fraction of 0, 3, 6 or 9 digits and the suffix "s", for nanos from 0 to 999,999,999: "s", ".500s",
 * ".000001s". Table strings that carry the dot and the "s" save the concatenations that made up most of the
 * time of durationToJson (a new string each).
 */
function fractionAndSuffix(nanos: number): string {
  if (nanos === 0) return "s";
  if (dotTriplesS === undefined) {
    triplesS = digitTriples().map((t) => t + "s");
    dotTriplesS = dotDigitTriples().map((t) => t + "s");
  }
  const ms = Math.floor(nanos / 1_000_000);
  const rest = nanos - ms * 1_000_000;
  if (rest === 0) return dotTriplesS[ms]!;
  const us = Math.floor(rest / 1000);
  const ns = rest - us * 1000;
  if (ns === 0) return dotDigitTriples()[ms]! + triplesS![us]!;
  return dotDigitTriples()[ms]! + digitTriples()[us]! + triplesS![ns]!;
}

/**
 * Checks that a value is a valid Duration: both fields in range and agreeing in sign (spec rule 5).
 *
 * @throws {WktJsonError} rule `range` if a field is out of range or of the wrong type; `sign` if seconds and
 *   nanos disagree in sign.
 * @example
 * durationCheck({ seconds: -1n, nanos: -5 }); //=> undefined
 * durationCheck({ seconds: -1n, nanos: 5 }); // throws WktJsonError (rule "sign")
 */
export function durationCheck(d: DurationLike): void {
  const problem = durationProblem(d);
  if (problem !== valid) throw fieldsError(problem, d, bounds);
}

/**
 * Tells whether a value is a valid Duration (see {@link durationCheck}).
 *
 * @throws never
 * @example
 * durationIsValid({ seconds: 315576000000n, nanos: 999999999 }); //=> true
 * durationIsValid({ seconds: 315576000001n, nanos: 0 }); //=> false
 */
export function durationIsValid(d: DurationLike): boolean {
  return durationProblem(d) === valid;
}

/** Returns why `d` is not a valid Duration, or `valid`. Cheap: the caller builds the error. */
function durationProblem(d: unknown): number {
  if (typeof d !== "object" || d === null) return notObject;
  return fieldsProblem(secondsOf((d as DurationLike).seconds), (d as DurationLike).nanos, bounds);
}

/** How Duration errors state its bounds. */
const bounds: FieldBounds = {
  typeName: durationTypeName,
  name: "Duration",
  secondsMin: durationSecondsMin,
  secondsMax: durationSecondsMax,
  secondsText: `${formatBound(durationSecondsMin)} to ${formatBound(durationSecondsMax)}`,
  nanosMin: durationNanosMin,
  nanosMax: durationNanosMax,
  sameSign: true,
};

/**
 * The one place Durations are normalised: brings integer `seconds` and `nanos` (each below 2^53 in magnitude)
 * to the sign rule of spec rule 5, checks the range and builds the message. Every computed Duration goes
 * through here.
 *
 * @internal
 * @throws {WktJsonError} rule `range` if the result is out of range.
 * @example
 * durationNormalize(1, -1); //=> { $typeName: "google.protobuf.Duration", seconds: 0n, nanos: 999999999 }
 */
export function durationNormalize(seconds: number, nanos: number): Duration {
  const rem = nanos % nanosPerSecond; // exact, and it has the sign of nanos
  let s = seconds + (nanos - rem) / nanosPerSecond; // nanos - rem is an exact multiple: exact division
  let n = rem;
  if (s > 0 && n < 0) {
    s -= 1;
    n += nanosPerSecond;
  } else if (s < 0 && n > 0) {
    s += 1;
    n -= nanosPerSecond;
  }
  if (!(s >= durationSecondsMin && s <= durationSecondsMax)) {
    throw new WktJsonError("range", "$", durationTypeName, `the result is outside ±${durationTextMax}`);
  }
  return { $typeName: durationTypeName, seconds: bigintOf(s), nanos: n + 0 }; // + 0 turns -0 into 0
}

/**
 * Builds a Duration from a count of nanoseconds.
 *
 * @throws {WktJsonError} rule `range` if the count is beyond ±315576000000999999999 or is not a bigint.
 * @example
 * durationFromNanos(-1_500_000_000n); //=> { $typeName: "google.protobuf.Duration", seconds: -1n, nanos: -500000000 }
 */
export function durationFromNanos(ns: bigint): Duration {
  if (typeof ns !== "bigint") {
    throw new WktJsonError(
      "range",
      "$",
      durationTypeName,
      `expected a bigint count of nanoseconds, got ${describe(ns)}`,
    );
  }
  // Truncating division leaves the remainder with the sign of ns: exactly the sign rule.
  return durationNormalize(Number(ns / nanosPerSecondBig), Number(ns % nanosPerSecondBig));
}

/**
 * Returns the Duration as a count of nanoseconds.
 *
 * @throws {WktJsonError} rule `range` or `sign` if `d` is not a valid Duration.
 * @example
 * durationToNanos({ seconds: -1n, nanos: -500000000 }); //=> -1500000000n
 */
export function durationToNanos(d: DurationLike): bigint {
  durationCheck(d);
  return BigInt(Number(d.seconds)) * nanosPerSecondBig + BigInt(d.nanos);
}

/**
 * Builds a Duration from milliseconds; a fraction is kept to the nearest nanosecond of its decimal form.
 *
 * @throws {WktJsonError} rule `range` if `ms` is not a finite number or is out of range.
 * @example
 * durationFromMs(1500); //=> { $typeName: "google.protobuf.Duration", seconds: 1n, nanos: 500000000 }
 * durationFromMs(0.000001); //=> { $typeName: "google.protobuf.Duration", seconds: 0n, nanos: 1 }
 */
export function durationFromMs(ms: number): Duration {
  if (typeof ms === "number" && Number.isSafeInteger(ms)) {
    const rem = ms % 1000;
    return durationNormalize((ms - rem) / 1000, rem * 1_000_000);
  }
  return durationFromNumber(ms, 6, "milliseconds");
}

/**
 * Returns the Duration in milliseconds, with a fraction for sub-millisecond parts: the double nearest to the
 * exact value.
 *
 * @throws {WktJsonError} rule `range` or `sign` if `d` is not a valid Duration.
 * @example
 * durationToMs({ seconds: 1n, nanos: 500000 }); //=> 1000.5
 */
export function durationToMs(d: DurationLike): number {
  // A decimal string read by Number() is rounded once, correctly; seconds * 1000 + nanos / 1e6 rounds twice.
  return Number(String(durationToNanos(d)) + "e-6");
}

/**
 * Builds a Duration from a number of seconds with a fraction, such as a webhook's `duration: 0.031`. The
 * number's shortest decimal form is scaled, so 0.031 gives exactly 31,000,000 nanos (not the 30,999,999 that
 * `0.031 * 1e9` truncates to); further digits round to the nearest nanosecond, ties away from zero.
 *
 * @throws {WktJsonError} rule `range` if `s` is not a finite number or is out of range.
 * @example
 * durationFromSeconds(0.031); //=> { $typeName: "google.protobuf.Duration", seconds: 0n, nanos: 31000000 }
 * durationFromSeconds(-1.5); //=> { $typeName: "google.protobuf.Duration", seconds: -1n, nanos: -500000000 }
 */
export function durationFromSeconds(s: number): Duration {
  if (typeof s === "number" && Number.isSafeInteger(s)) return durationNormalize(s, 0);
  return durationFromNumber(s, 9, "seconds");
}

/**
 * Returns the Duration in seconds, with a fraction: the double nearest to the exact value.
 *
 * @throws {WktJsonError} rule `range` or `sign` if `d` is not a valid Duration.
 * @example
 * durationToSeconds({ seconds: 0n, nanos: 31000000 }); //=> 0.031
 */
export function durationToSeconds(d: DurationLike): number {
  return Number(String(durationToNanos(d)) + "e-9");
}

function durationFromNumber(x: unknown, exp10: number, unit: string): Duration {
  if (typeof x !== "number" || !Number.isFinite(x)) {
    throw new WktJsonError("range", "$", durationTypeName, `expected a finite number of ${unit}, got ${show(x)}`);
  }
  const ns = scaleDecimal(x, exp10);
  if (ns === undefined) {
    throw new WktJsonError("range", "$", durationTypeName, `${x} ${unit} is outside ±${durationTextMax}`);
  }
  return durationFromNanos(ns);
}

/**
 * Returns `x * 10^exp10` rounded to the nearest integer, ties away from zero, computed on the shortest decimal
 * form of `x` (what `String(x)` prints), so that 0.031 scales to exactly 31000000. Returns undefined when the
 * result would have more than 30 digits, far beyond any range here. `x` must be finite.
 *
 * @internal
 * @throws never
 * @example
 * scaleDecimal(0.031, 9); //=> 31000000n
 * scaleDecimal(-5e-10, 9); //=> -1n
 */
export function scaleDecimal(x: number, exp10: number): bigint | undefined {
  const s = String(x); // "123", "-0.031", "1e-7", "-1.5e+21"
  const neg = s.charCodeAt(0) === 45;
  let digits = "";
  let point = -1;
  let exp = 0;
  for (let i = neg ? 1 : 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 46) {
      point = digits.length;
    } else if (c === 101) {
      exp = Number(s.slice(i + 1)); // "+21" or "-7"
      break;
    } else {
      digits += s[i];
    }
  }
  // The value is digits * 10^shift.
  const shift = exp - (point < 0 ? 0 : digits.length - point) + exp10;
  let v: bigint;
  if (shift >= 0) {
    if (digits.length + shift > 30) return undefined;
    v = BigInt(digits) * 10n ** BigInt(shift);
  } else {
    const keep = digits.length + shift; // digits left of the decimal point after scaling
    if (keep < 0) return 0n;
    v = keep === 0 ? 0n : BigInt(digits.slice(0, keep));
    if (digits.charCodeAt(keep) >= 53) v += 1n; // first dropped digit 5 to 9: round away from zero
  }
  return neg ? -v : v;
}

/**
 * Adds two Durations.
 *
 * @throws {WktJsonError} rule `range` or `sign` if an operand is not a valid Duration; `range` if the sum is
 *   out of range.
 * @example
 * durationAdd({ seconds: 1n, nanos: 0 }, { seconds: 0n, nanos: -1 }); //=> { $typeName: "google.protobuf.Duration", seconds: 0n, nanos: 999999999 }
 */
export function durationAdd(a: DurationLike, b: DurationLike): Duration {
  durationCheck(a);
  durationCheck(b);
  return durationNormalize(Number(a.seconds) + Number(b.seconds), a.nanos + b.nanos);
}

/**
 * Subtracts `b` from `a`.
 *
 * @throws {WktJsonError} rule `range` or `sign` if an operand is not a valid Duration; `range` if the
 *   difference is out of range.
 * @example
 * durationSubtract({ seconds: 0n, nanos: 0 }, { seconds: 1n, nanos: 5 }); //=> { $typeName: "google.protobuf.Duration", seconds: -1n, nanos: -5 }
 */
export function durationSubtract(a: DurationLike, b: DurationLike): Duration {
  durationCheck(a);
  durationCheck(b);
  return durationNormalize(Number(a.seconds) - Number(b.seconds), a.nanos - b.nanos);
}

/**
 * Returns the Duration with the opposite sign. The range is symmetric, so this never overflows.
 *
 * @throws {WktJsonError} rule `range` or `sign` if `d` is not a valid Duration.
 * @example
 * durationNegate({ seconds: 0n, nanos: 500000000 }); //=> { $typeName: "google.protobuf.Duration", seconds: 0n, nanos: -500000000 }
 */
export function durationNegate(d: DurationLike): Duration {
  durationCheck(d);
  return { $typeName: durationTypeName, seconds: bigintOf(0 - Number(d.seconds)), nanos: 0 - d.nanos };
}

/**
 * Returns the Duration without its sign.
 *
 * @throws {WktJsonError} rule `range` or `sign` if `d` is not a valid Duration.
 * @example
 * durationAbs({ seconds: -2n, nanos: -1 }); //=> { $typeName: "google.protobuf.Duration", seconds: 2n, nanos: 1 }
 */
export function durationAbs(d: DurationLike): Duration {
  durationCheck(d);
  const seconds = Number(d.seconds);
  const nanos = d.nanos;
  return seconds < 0 || nanos < 0
    ? { $typeName: durationTypeName, seconds: bigintOf(0 - seconds), nanos: 0 - nanos }
    : { $typeName: durationTypeName, seconds: bigintOf(seconds), nanos: nanos + 0 };
}

/**
 * Compares two Durations: -1 if `a` is shorter (more negative), 1 if longer, 0 if equal.
 *
 * @throws {WktJsonError} rule `range` or `sign` if an operand is not a valid Duration.
 * @example
 * durationCompare({ seconds: 0n, nanos: -1 }, { seconds: 0n, nanos: 0 }); //=> -1
 */
export function durationCompare(a: DurationLike, b: DurationLike): -1 | 0 | 1 {
  durationCheck(a);
  durationCheck(b);
  // With seconds and nanos agreeing in sign and |nanos| < 1s, the pair orders lexicographically.
  const sa = Number(a.seconds);
  const sb = Number(b.seconds);
  if (sa !== sb) return sa < sb ? -1 : 1;
  return a.nanos === b.nanos ? 0 : a.nanos < b.nanos ? -1 : 1;
}
