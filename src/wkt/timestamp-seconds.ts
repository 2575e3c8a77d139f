/**
 * A Timestamp from seconds since the Unix epoch, as HTTP headers and REST bodies carry them: `x-ratelimit-reset:
 * 1700000000` (GitHub), `"exp": 1700000000` (JWT), sometimes with a fraction (`1700000000.5`).
 *
 * The text form is a JSON number's text without exponent: `-?(0|[1-9][0-9]*)(\.[0-9]{1,9})?`. It is read digit by
 * digit, exact to the nanosecond (nine fraction digits, as a Timestamp string takes; a tenth is refused, as
 * there). No `+`, no leading zero, no exponent, no white space: `fetch`'s `Headers.get` already strips the white
 * space around a header's value. A number is read from its shortest decimal form (what `String(x)` prints), as
 * `timestampFromMs` and `durationFromSeconds` read theirs, so 1.5 is exactly 1 s 500 ms; a digit past the ninth
 * (only a number below 1e-9 has one) rounds to the nearest nanosecond. Either way the instant must lie from
 * 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z, as every Timestamp.
 *
 * @module
 */
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { scaleDecimal } from "./duration.js";
import { show } from "./seconds-nanos.js";
import { timestampNormalize, type TimestampJsonOptions } from "./timestamp.js";
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { callAtBase } from "../internal/base-path.js";
import { timestampTypeName } from "../internal/names.js";
import { fractionScale, isDigit, quoteInput } from "../internal/scan.js";
import {
  fractionDigitsMax,
  timestampSecondsMax,
  timestampSecondsMin,
  timestampTextMax,
  timestampTextMin,
} from "../limits.js";

/**
 * Digits of the largest whole number of seconds in range (253,402,300,799; the least is -62,135,596,800): a
 * longer integer part without leading zeros is out of range before it is converted.
 */
const integerDigitsMax = String(timestampSecondsMax).length;

/**
 * Builds a Timestamp from seconds since the Unix epoch, given as a number or as its decimal text (an HTTP
 * header's value): `timestampFromSeconds(headers.get("x-ratelimit-reset"))`.
 *
 * Text: an optional `-`, an integer without leading zeros, and up to 9 fraction digits after a `.`, read exactly
 * (`"1700000000.123456789"` keeps every digit). A number: read from its shortest decimal form, so `1.5` is
 * 1 s 500,000,000 ns exactly.
 *
 * @throws {WktJsonError} rule `json-type` if `value` is neither a number nor a string; `syntax` for text that
 *   is not of that form (a `+`, an exponent, white space, a leading zero, more than 9 fraction digits, empty);
 *   `range` for NaN or an infinity, or an instant outside 0001-01-01T00:00:00Z to
 *   9999-12-31T23:59:59.999999999Z; at `$`, or at `options.path` when given.
 * @example
 * timestampFromSeconds("1700000000"); //=> { $typeName: "google.protobuf.Timestamp", seconds: 1700000000n, nanos: 0 }
 * timestampFromSeconds(-1.5); //=> { $typeName: "google.protobuf.Timestamp", seconds: -2n, nanos: 500000000 }
 * timestampFromSeconds("1e9", { path: "$.reset" }); // throws WktJsonError (rule "syntax", jsonPath "$.reset")
 */
export function timestampFromSeconds(value: number | string, options?: TimestampJsonOptions): Timestamp;
/** @hidden */
// Without options, so that `values.map(timestampFromSeconds)` still compiles (map passes an index second).
export function timestampFromSeconds(value: number | string): Timestamp;
export function timestampFromSeconds(value: number | string, options?: TimestampJsonOptions): Timestamp {
  return options === undefined ? secondsParse(value) : callAtBase(secondsParse, value, options, timestampTypeName);
}

function secondsParse(value: unknown): Timestamp {
  if (typeof value === "string") return secondsFromText(value);
  if (typeof value === "number") return secondsFromNumber(value);
  throw new WktJsonError(
    "json-type",
    "$",
    timestampTypeName,
    `expected a number of seconds or its decimal text, got ${describe(value)}`,
  );
}

function secondsFromText(s: string): Timestamp {
  const len = s.length;
  let i = s.charCodeAt(0) === 45 ? 1 : 0; // -
  const neg = i === 1;
  const intStart = i;
  while (i < len && isDigit(s.charCodeAt(i))) i++;
  const intDigits = i - intStart;
  if (intDigits === 0) {
    throw syntaxError(s, intStart, s.charCodeAt(intStart) === 43 ? "a '+' sign" : "expected a digit");
  }
  if (intDigits > 1 && s.charCodeAt(intStart) === 48) throw syntaxError(s, intStart, "a leading zero");
  let nanos = 0;
  if (s.charCodeAt(i) === 46) {
    const fracStart = ++i;
    let frac = 0;
    for (; i < len && isDigit(s.charCodeAt(i)); i++) {
      if (i - fracStart < fractionDigitsMax) frac = frac * 10 + (s.charCodeAt(i) - 48);
    }
    const k = i - fracStart;
    if (k === 0) throw syntaxError(s, i, "a dot must be followed by a digit");
    if (k > fractionDigitsMax) throw syntaxError(s, fracStart, `more than ${fractionDigitsMax} fraction digits`);
    nanos = frac * (fractionScale[k] as number);
  }
  if (i < len) {
    const c = s.charCodeAt(i);
    const what =
      c === 101 || c === 69
        ? "an exponent"
        : c === 32 || c === 9 || c === 10 || c === 13
          ? "white space"
          : `unexpected ${JSON.stringify(s[i])}`;
    throw syntaxError(s, i, what);
  }
  if (intDigits > integerDigitsMax) throw rangeError(quoteInput(s));
  const whole = Number(s.slice(intStart, intStart + intDigits)); // at most 12 digits: exact
  // Floored: nanos counts forward from the second before, for a negative instant.
  const seconds = neg ? (nanos > 0 ? -whole - 1 : -whole) : whole;
  if (seconds < timestampSecondsMin || seconds > timestampSecondsMax) throw rangeError(quoteInput(s));
  return timestampNormalize(neg ? -whole : whole, neg ? -nanos : nanos);
}

function secondsFromNumber(x: number): Timestamp {
  if (!Number.isFinite(x)) {
    throw new WktJsonError("range", "$", timestampTypeName, `expected a finite number of seconds, got ${show(x)}`);
  }
  if (!(x >= timestampSecondsMin && x < timestampSecondsMax + 1)) throw rangeError(String(x));
  if (Number.isInteger(x)) return timestampNormalize(x, 0);
  const ns = scaleDecimal(x, 9)!; // |x| is below 2^38: at most 21 digits
  const whole = ns / 1_000_000_000n; // truncated
  // Two safe integers with the same sign: timestampNormalize floors and range-checks them.
  return timestampNormalize(Number(whole), Number(ns - whole * 1_000_000_000n));
}

function syntaxError(s: string, index: number, reason: string): WktJsonError {
  return new WktJsonError(
    "syntax",
    "$",
    timestampTypeName,
    `${quoteInput(s)} is not a number of seconds (-?digits[.fraction], no exponent): ${reason} at index ${index}`,
  );
}

/** `shown` is the input as a message shows it: quoted text, or a number as it is. */
function rangeError(shown: string): WktJsonError {
  return new WktJsonError(
    "range",
    "$",
    timestampTypeName,
    `${shown} seconds is outside ${timestampTextMin} to ${timestampTextMax}`,
  );
}
