/**
 * google.protobuf.Timestamp: the RFC 3339 JSON form, validation, arithmetic and conversions.
 *
 * Spec rule 6: "Timestamp is a UTC point in time on the proleptic Gregorian calendar, leap seconds smeared,
 * range 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z. Negative seconds with fractions still use
 * non-negative nanos that count forward. JSON form: `{year}-{month}-{day}T{hour}:{min}:{sec}[.{frac_sec}]Z`
 * with four-digit year, two-digit zero-padded other parts, optional fraction up to 9 digits, timezone required.
 * Serializers print UTC `Z`; parsers accept other offsets."
 * Limits: "Timestamp.seconds: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z inclusive; Timestamp.nanos: 0 to
 * 999,999,999 inclusive."
 *
 * Parsing accepts `YYYY-MM-DDThh:mm:ss[.f{1,9}](Z|+hh:mm|-hh:mm)` with upper-case `T` and `Z` only. A date
 * that does not exist (Feb 30, month 13), hour 24, minute 60 and second 60 (leap seconds are smeared, so
 * there is none to name) are out of range. The range applies after the offset is applied, so
 * `"0001-01-01T00:00:00+00:01"` is out of range and `"0000-12-31T23:59:00-00:01"` is in it.
 * Seconds are computed from the civil date with a days-from-civil algorithm, not with Date.
 *
 * Messages that are not Timestamps at all (null, seconds that is neither a bigint nor a safe integer, nanos
 * that is not an integer) are reported under rule `range`: no value of theirs lies in the range.
 *
 * @module
 */
import type { Duration, Timestamp } from "@bufbuild/protobuf/wkt";
import { durationCheck, durationNormalize, scaleDecimal, type DurationLike } from "./duration.js";
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
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { basePathOf, callAtBase } from "../internal/base-path.js";
import { timestampTypeName } from "../internal/names.js";
import { formatNanos, fractionScale, isDigit, pad, quoteInput, readDigits } from "../internal/scan.js";
import {
  formatBound,
  fractionDigitsMax,
  nanosPerSecond,
  timestampNanosMax,
  timestampNanosMin,
  timestampSecondsMax,
  timestampSecondsMin,
  timestampTextMax,
  timestampTextMin,
  utcOffsetHoursMax,
  utcOffsetMinutesMax,
} from "../limits.js";

/** The fields of a Timestamp; plain objects such as `{ seconds: 0n, nanos: 0 }` qualify. */
export type TimestampLike = Pick<Timestamp, "seconds" | "nanos">;

/**
 * Options of {@link timestampFromJson} and {@link timestampToJson}, their nullable forms
 * ({@link timestampFromJsonNullable}, {@link timestampToJsonNullable}) and `timestampFromSeconds`.
 */
export interface TimestampJsonOptions {
  /**
   * JSON path of the value in the caller's document, such as `"$.dueAt"`: an error is reported at this path
   * instead of `$`. A string starting with `$`. Default `"$"`.
   */
  path?: string | undefined;
}

const secondsPerDay = 86_400;

/**
 * Parses an RFC 3339 Timestamp such as `"2024-02-29T12:00:00.5+01:00"`, normalised to UTC.
 *
 * Errors are reported at `$`, or at `options.path` when given: a service that reads a field of a request body
 * itself passes the field's path, and its client learns which field was wrong.
 *
 * @throws {WktJsonError} rule `json-type` if `json` is not a string; `syntax` if it does not have the form
 *   `YYYY-MM-DDThh:mm:ss[.f{1,9}](Z|±hh:mm)`; `range` for a date or time that does not exist, an offset beyond
 *   ±23:59, or an instant outside 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z, and for a `path`
 *   option that is not a string starting with `$`.
 * @example
 * timestampFromJson("1970-01-01T01:00:00.5+01:00"); //=> { $typeName: "google.protobuf.Timestamp", seconds: 0n, nanos: 500000000 }
 * timestampFromJson("2023-02-29T00:00:00Z"); // throws WktJsonError (rule "range", jsonPath "$")
 * timestampFromJson("2023-02-29T00:00:00Z", { path: "$.dueAt" }); // throws WktJsonError (rule "range", jsonPath "$.dueAt")
 */
export function timestampFromJson(json: unknown, options?: TimestampJsonOptions): Timestamp;
/** @hidden */
// Without options, so that `texts.map(timestampFromJson)` still compiles (map passes an index second).
export function timestampFromJson(json: unknown): Timestamp;
export function timestampFromJson(json: unknown, options?: TimestampJsonOptions): Timestamp {
  // With options, the same parse runs inside callAtBase and its error moves under the base path; without, the
  // call pays one comparison.
  return options === undefined ? timestampParse(json) : callAtBase(timestampParse, json, options, timestampTypeName);
}

/**
 * Parses the JSON form of a Timestamp, errors at `$`: {@link timestampFromJson} without options, for the codec.
 *
 * The whole-message codec calls this directly, so that its per-field path (bench fromJson/timestamp) pays neither
 * the options test nor the base-path wrapper's try/catch.
 *
 * @internal
 */
export function timestampParse(json: unknown): Timestamp {
  if (typeof json !== "string") {
    throw new WktJsonError("json-type", "$", timestampTypeName, `expected an RFC 3339 string, got ${describe(json)}`);
  }
  const s = json;
  const len = s.length;
  const year = readDigits(s, 0, 4);
  const month = readDigits(s, 5, 2);
  const day = readDigits(s, 8, 2);
  const hour = readDigits(s, 11, 2);
  const minute = readDigits(s, 14, 2);
  const second = readDigits(s, 17, 2);
  if (
    (year | month | day | hour | minute | second) < 0 || // readDigits gives -1 for a non-digit
    s.charCodeAt(4) !== 45 || // -
    s.charCodeAt(7) !== 45 ||
    s.charCodeAt(10) !== 84 || // T
    s.charCodeAt(13) !== 58 || // :
    s.charCodeAt(16) !== 58
  ) {
    throw syntaxError(s, dateTimeMismatch(s));
  }
  let i = 19;
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
  let offset = 0; // seconds east of UTC
  const zone = s.charCodeAt(i);
  if (zone === 90) {
    // Z
    if (i + 1 !== len) throw syntaxError(s, `unexpected text after "Z" at index ${i + 1}`);
  } else if (zone === 43 || zone === 45) {
    // + or -
    const offsetHours = readDigits(s, i + 1, 2);
    const offsetMinutes = readDigits(s, i + 4, 2);
    if ((offsetHours | offsetMinutes) < 0 || s.charCodeAt(i + 3) !== 58) {
      throw syntaxError(s, `expected an offset "+hh:mm" or "-hh:mm" at index ${i}`);
    }
    if (i + 6 !== len) throw syntaxError(s, `unexpected text after the offset at index ${i + 6}`);
    if (offsetHours > utcOffsetHoursMax || offsetMinutes > utcOffsetMinutesMax) {
      throw rangeError(s, `the offset must be at most ${utcOffsetHoursMax}:${utcOffsetMinutesMax}`);
    }
    offset = (offsetHours * 60 + offsetMinutes) * 60;
    if (zone === 45) offset = -offset;
  } else if (zone === 122 || zone === 116) {
    throw syntaxError(s, `expected an upper-case "Z" at index ${i}`);
  } else {
    throw syntaxError(
      s,
      i >= len ? `missing the time zone ("Z" or an offset)` : `expected "Z" or an offset at index ${i}`,
    );
  }
  if (month < 1 || month > 12) throw rangeError(s, `month ${month} does not exist`);
  if (day < 1 || day > daysInMonth(year, month)) throw rangeError(s, `day ${day} does not exist in that month`);
  if (hour > 23) throw rangeError(s, `hour ${hour} does not exist (the last is 23)`);
  if (minute > 59) throw rangeError(s, `minute ${minute} does not exist (the last is 59)`);
  if (second > 59) throw rangeError(s, `second ${second} does not exist (leap seconds are smeared)`);
  const seconds = daysFromCivil(year, month, day) * secondsPerDay + hour * 3600 + minute * 60 + second - offset;
  if (seconds < timestampSecondsMin || seconds > timestampSecondsMax) {
    throw rangeError(s, `the instant is outside ${timestampTextMin} to ${timestampTextMax}`);
  }
  return { $typeName: timestampTypeName, seconds: bigintOf(seconds), nanos };
}

/**
 * Reads a Timestamp that a REST resource writes as `null` for "never" (`date_updated`, `throttled_at`): `null`
 * gives `undefined` (an unset message field), a string is read as {@link timestampFromJson} reads it.
 *
 * Only `null` means never: `undefined` (a member the body leaves out) is refused, so that a caller who tells
 * "not sent" from "cleared" decides that before the call.
 *
 * @throws {WktJsonError} rule `json-type` if `json` is neither a string nor `null`; `syntax` and `range` as
 *   {@link timestampFromJson}, at `$` or at `options.path`.
 * @example
 * timestampFromJsonNullable(null); //=> undefined
 * timestampFromJsonNullable("2024-02-29T12:00:00Z"); //=> { $typeName: "google.protobuf.Timestamp", seconds: 1709208000n, nanos: 0 }
 * timestampFromJsonNullable(0, { path: "$.date_updated" }); // throws WktJsonError (rule "json-type", jsonPath "$.date_updated")
 */
export function timestampFromJsonNullable(json: unknown, options?: TimestampJsonOptions): Timestamp | undefined;
/** @hidden */
// Without options, so that `texts.map(timestampFromJsonNullable)` still compiles (map passes an index second).
export function timestampFromJsonNullable(json: unknown): Timestamp | undefined;
export function timestampFromJsonNullable(json: unknown, options?: TimestampJsonOptions): Timestamp | undefined {
  return options === undefined ? nullableParse(json) : callAtBase(nullableParse, json, options, timestampTypeName);
}

function nullableParse(json: unknown): Timestamp | undefined {
  if (json === null) return undefined;
  if (typeof json !== "string") {
    throw new WktJsonError(
      "json-type",
      "$",
      timestampTypeName,
      `expected an RFC 3339 string or null, got ${describe(json)}`,
    );
  }
  return timestampParse(json);
}

/** Names the first character of `YYYY-MM-DDThh:mm:ss` that `s` gets wrong. Runs on the error path only. */
function dateTimeMismatch(s: string): string {
  const form = "YYYY-MM-DDThh:mm:ss";
  for (let i = 0; i < form.length; i++) {
    const want = form.charCodeAt(i);
    const got = s.charCodeAt(i);
    if (i >= s.length) return `too short: expected the form ${form}[.fffffffff]Z`;
    const literal = want === 45 || want === 58 || want === 84;
    if (literal ? got !== want : !isDigit(got)) {
      if (want === 84 && got === 116) return `expected an upper-case "T" at index ${i}`;
      return literal ? `expected "${form[i]}" at index ${i}` : `expected a digit at index ${i} (${form})`;
    }
  }
  return `expected the form ${form}`;
}

function syntaxError(s: string, reason: string): WktJsonError {
  return new WktJsonError("syntax", "$", timestampTypeName, `${quoteInput(s)} is not an RFC 3339 timestamp: ${reason}`);
}

function rangeError(s: string, reason: string): WktJsonError {
  return new WktJsonError("range", "$", timestampTypeName, `${quoteInput(s)}: ${reason}`);
}

function isLeapYear(y: number): boolean {
  return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
}

function daysInMonth(y: number, m: number): number {
  if (m === 2) return isLeapYear(y) ? 29 : 28;
  return 30 + ((m + (m >> 3)) & 1); // 31 for Jan, Mar, May, Jul, Aug, Oct, Dec
}

/**
 * Days from 1970-01-01 to the proleptic Gregorian date y-m-d (Howard Hinnant's days_from_civil): the year is
 * counted from March so the leap day comes last, and split into 400-year eras of 146,097 days.
 */
function daysFromCivil(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400; // 0 to 399
  const doy = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1; // 0 to 365
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy; // 0 to 146096
  return era * 146_097 + doe - 719_468;
}

/** Two-digit strings "00" to "99", so formatting does no padding work. */
const twoDigits: readonly string[] = Array.from({ length: 100 }, (_, i) => (i < 10 ? "0" : "") + String(i));

/**
 * Formats a Timestamp as canonical RFC 3339: UTC with `Z`, and a fraction of 0, 3, 6 or 9 digits.
 *
 * @throws {WktJsonError} rule `range` if seconds or nanos is out of range (or not a number at all), at `$` or at
 *   `options.path`, or if the `path` option is not a string starting with `$`.
 * @example
 * timestampToJson({ seconds: 1709208000n, nanos: 10000000 }); //=> "2024-02-29T12:00:00.010Z"
 * timestampToJson({ seconds: 0n, nanos: -1 }, { path: "$.dueAt" }); // throws WktJsonError (rule "range", jsonPath "$.dueAt")
 */
export function timestampToJson(ts: TimestampLike, options?: TimestampJsonOptions): string;
/** @hidden */
// Without options, so that `timestamps.map(timestampToJson)` still compiles (map passes an index second).
export function timestampToJson(ts: TimestampLike): string;
export function timestampToJson(ts: TimestampLike, options?: TimestampJsonOptions): string {
  if (options !== undefined) return callAtBase(timestampToJson, ts, options, timestampTypeName);
  if (typeof ts !== "object" || ts === null) throw fieldsError(notObject, ts, bounds);
  const seconds = secondsOf(ts.seconds); // converted once: Number(bigint) is a runtime call
  const nanos = ts.nanos;
  const problem = fieldsProblem(seconds, nanos, bounds);
  if (problem !== valid) throw fieldsError(problem, ts, bounds);
  // A non-integer quotient is at least 1/86400 from an integer, far beyond a double's error here.
  const days = Math.floor(seconds / secondsPerDay);
  // From here on every value is an integer from 0 to under 2^32 for the Timestamp range (z from 306 for
  // 0001-01-01 to about 3.65 million), so `>>> 0` floors each quotient and tells V8's optimizing compiler
  // so: it then divides by each constant with a multiplication instead of a floating-point division (a
  // chain of eleven; Math.floor kept them divisions). About 95 -> 65 ns a Timestamp on Node 24.
  const secondOfDay = (seconds - days * secondsPerDay) >>> 0;
  const minuteOfDay = (secondOfDay / 60) >>> 0;
  const second = secondOfDay - minuteOfDay * 60;
  // civil_from_days (Howard Hinnant).
  const z = (days + 719_468) >>> 0;
  const era = (z / 146_097) >>> 0;
  const doe = (z - era * 146_097) >>> 0;
  const yoe = ((doe - ((doe / 1460) >>> 0) + ((doe / 36_524) >>> 0) - ((doe / 146_096) >>> 0)) / 365) >>> 0;
  const doy = (doe - (365 * yoe + (yoe >>> 2) - ((yoe / 100) >>> 0))) >>> 0;
  const mp = ((5 * doy + 2) / 153) >>> 0;
  const day = doy - (((153 * mp + 2) / 5) >>> 0) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  // Few pieces: V8 copies a join shorter than 13 characters into a flat string, and makes a longer one a
  // node of a tree that is walked again when the text is read (toJsonString joins every piece of its text).
  // "YYYY-MM-DD" and "Thh:mm:ssZ" are flat, and the Timestamp one node (two with a fraction).
  const dates = monthDays ?? monthDayTable();
  const date = (year >= 1000 ? "" + year : pad(year, 4)) + dates[month * 32 + day]!;
  const hm = (hourMinutes ?? hourMinuteTable())[minuteOfDay]!;
  if (nanos === 0) return date + (hm + secondsZ![second]!);
  return date + (hm + secondsColon![second]!) + (formatNanos(nanos) + "Z");
}

/**
 * Writes a Timestamp that may be unset as a REST resource writes it: `undefined` (or `null`) gives `null`, for
 * "never"; a Timestamp gives its RFC 3339 string, as {@link timestampToJson}.
 *
 * @throws {WktJsonError} rule `range` as {@link timestampToJson}, at `$` or at `options.path`.
 * @example
 * timestampToJsonNullable(undefined); //=> null
 * timestampToJsonNullable({ seconds: 1709208000n, nanos: 0 }); //=> "2024-02-29T12:00:00Z"
 */
export function timestampToJsonNullable(
  ts: TimestampLike | null | undefined,
  options?: TimestampJsonOptions,
): string | null;
/** @hidden */
// Without options, so that `timestamps.map(timestampToJsonNullable)` still compiles.
export function timestampToJsonNullable(ts: TimestampLike | null | undefined): string | null;
export function timestampToJsonNullable(
  ts: TimestampLike | null | undefined,
  options?: TimestampJsonOptions,
): string | null {
  if (ts === undefined || ts === null) {
    if (options !== undefined) basePathOf(options, timestampTypeName); // a bad path option is refused alike
    return null;
  }
  return options === undefined ? timestampToJson(ts) : timestampToJson(ts, options);
}

/** "-MM-DD" by month * 32 + day, built on first use (unused slots are empty). */
let monthDays: readonly string[] | undefined;
/** "Thh:mm" by minute of the day, built on first use, with ":ssZ" and ":ss" by second. */
let hourMinutes: readonly string[] | undefined;
let secondsZ: readonly string[] | undefined;
let secondsColon: readonly string[] | undefined;

function monthDayTable(): readonly string[] {
  const table: string[] = Array.from({ length: 13 * 32 }, () => "");
  for (let m = 1; m <= 12; m++)
    for (let d = 1; d <= 31; d++) table[m * 32 + d] = "-" + twoDigits[m]! + "-" + twoDigits[d]!;
  return (monthDays = table);
}

function hourMinuteTable(): readonly string[] {
  const table: string[] = new Array(1440);
  for (let i = 0; i < 1440; i++) table[i] = "T" + twoDigits[Math.floor(i / 60)]! + ":" + twoDigits[i % 60]!;
  secondsColon = twoDigits.slice(0, 60).map((ss) => ":" + ss);
  secondsZ = secondsColon.map((ss) => ss + "Z");
  return (hourMinutes = table);
}

/**
 * Checks that a value is a valid Timestamp: seconds from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z, nanos
 * from 0 to 999,999,999.
 *
 * @throws {WktJsonError} rule `range` if a field is out of range or of the wrong type.
 * @example
 * timestampCheck({ seconds: -1n, nanos: 999999999 }); //=> undefined
 * timestampCheck({ seconds: -1n, nanos: -1 }); // throws WktJsonError (rule "range")
 */
export function timestampCheck(ts: TimestampLike): void {
  const problem = timestampProblem(ts);
  if (problem !== valid) throw fieldsError(problem, ts, bounds);
}

/**
 * Tells whether a value is a valid Timestamp (see {@link timestampCheck}).
 *
 * @throws never
 * @example
 * timestampIsValid({ seconds: 253402300799n, nanos: 999999999 }); //=> true
 * timestampIsValid({ seconds: 253402300800n, nanos: 0 }); //=> false
 */
export function timestampIsValid(ts: TimestampLike): boolean {
  return timestampProblem(ts) === valid;
}

/** Returns why `ts` is not a valid Timestamp, or `valid`. Cheap: the caller builds the error. */
function timestampProblem(ts: unknown): number {
  if (typeof ts !== "object" || ts === null) return notObject;
  return fieldsProblem(secondsOf((ts as TimestampLike).seconds), (ts as TimestampLike).nanos, bounds);
}

/** How Timestamp errors state its bounds. */
const bounds: FieldBounds = {
  typeName: timestampTypeName,
  name: "Timestamp",
  secondsMin: timestampSecondsMin,
  secondsMax: timestampSecondsMax,
  secondsText:
    `${formatBound(timestampSecondsMin)} (${timestampTextMin}) to ` +
    `${formatBound(timestampSecondsMax)} (${timestampTextMax.slice(0, 19)}Z)`,
  nanosMin: timestampNanosMin,
  nanosMax: timestampNanosMax,
  sameSign: false,
};

/**
 * The one place Timestamps are computed: floors integer `seconds` and `nanos` (each below 2^53 in magnitude)
 * so that nanos counts forward from 0, checks the range and builds the message.
 *
 * @internal
 * @throws {WktJsonError} rule `range` if the result is out of range.
 */
export function timestampNormalize(seconds: number, nanos: number): Timestamp {
  let n = nanos % nanosPerSecond; // exact
  if (n < 0) n += nanosPerSecond;
  const s = seconds + (nanos - n) / nanosPerSecond; // nanos - n is an exact multiple: exact division
  if (!(s >= timestampSecondsMin && s <= timestampSecondsMax)) {
    throw new WktJsonError(
      "range",
      "$",
      timestampTypeName,
      `the result is outside ${timestampTextMin} to ${timestampTextMax}`,
    );
  }
  return { $typeName: timestampTypeName, seconds: bigintOf(s), nanos: n + 0 }; // + 0 turns -0 into 0
}

/**
 * Builds a Timestamp from a JavaScript Date.
 *
 * @throws {WktJsonError} rule `range` for an invalid Date, a value that is not a Date, or a date outside years
 *   1 to 9999.
 * @example
 * timestampFromDate(new Date("1969-12-31T23:59:59.999Z")); //=> { $typeName: "google.protobuf.Timestamp", seconds: -1n, nanos: 999000000 }
 */
export function timestampFromDate(date: Date): Timestamp {
  let ms = NaN;
  try {
    ms = Date.prototype.getTime.call(date); // also works for a Date from another realm
  } catch {
    throw new WktJsonError("range", "$", timestampTypeName, `expected a Date, got ${describe(date)}`);
  }
  if (Number.isNaN(ms)) throw new WktJsonError("range", "$", timestampTypeName, "the Date is invalid");
  return timestampFromMs(ms);
}

/**
 * Returns the Timestamp as a JavaScript Date (millisecond precision: nanos are floored to the millisecond).
 *
 * @throws {WktJsonError} rule `range` if `ts` is not a valid Timestamp.
 * @example
 * timestampToDate({ seconds: 0n, nanos: 1999999 }).toISOString(); //=> "1970-01-01T00:00:00.001Z"
 */
export function timestampToDate(ts: TimestampLike): Date {
  return new Date(timestampToMs(ts));
}

/**
 * Builds a Timestamp from milliseconds since the Unix epoch; a fraction is kept to the nearest nanosecond of its
 * decimal form.
 *
 * @throws {WktJsonError} rule `range` if `ms` is not a finite number or is out of range.
 * @example
 * timestampFromMs(-1); //=> { $typeName: "google.protobuf.Timestamp", seconds: -1n, nanos: 999000000 }
 */
export function timestampFromMs(ms: number): Timestamp {
  if (typeof ms === "number" && Number.isSafeInteger(ms)) {
    const rem = ms % 1000;
    return timestampNormalize((ms - rem) / 1000, rem * 1_000_000);
  }
  if (typeof ms !== "number" || !Number.isFinite(ms)) {
    throw new WktJsonError(
      "range",
      "$",
      timestampTypeName,
      `expected a finite number of milliseconds, got ${show(ms)}`,
    );
  }
  const ns = scaleDecimal(ms, 6);
  if (ns === undefined) {
    throw new WktJsonError(
      "range",
      "$",
      timestampTypeName,
      `${ms} ms is outside ${timestampTextMin} to ${timestampTextMax}`,
    );
  }
  return timestampFromScaled(ns, 1_000_000_000n, 1);
}

/**
 * Returns the Timestamp as whole milliseconds since the Unix epoch, floored (as a Date holds it).
 *
 * @throws {WktJsonError} rule `range` if `ts` is not a valid Timestamp.
 * @example
 * timestampToMs({ seconds: -1n, nanos: 999999999 }); //=> -1
 */
export function timestampToMs(ts: TimestampLike): number {
  timestampCheck(ts);
  return Number(ts.seconds) * 1000 + Math.floor(ts.nanos / 1_000_000);
}

/**
 * Builds a Timestamp from microseconds since the Unix epoch.
 *
 * @throws {WktJsonError} rule `range` if `us` is not a bigint or is out of range.
 * @example
 * timestampFromMicros(-1n); //=> { $typeName: "google.protobuf.Timestamp", seconds: -1n, nanos: 999999000 }
 */
export function timestampFromMicros(us: bigint): Timestamp {
  return timestampFromScaled(us, 1_000_000n, 1000);
}

/**
 * Returns the Timestamp as microseconds since the Unix epoch, floored.
 *
 * @throws {WktJsonError} rule `range` if `ts` is not a valid Timestamp.
 * @example
 * timestampToMicros({ seconds: -1n, nanos: 999999999 }); //=> -1n
 */
export function timestampToMicros(ts: TimestampLike): bigint {
  timestampCheck(ts);
  return BigInt(Number(ts.seconds)) * 1_000_000n + BigInt(Math.floor(ts.nanos / 1000));
}

/**
 * Builds a Timestamp from nanoseconds since the Unix epoch.
 *
 * @throws {WktJsonError} rule `range` if `ns` is not a bigint or is out of range.
 * @example
 * timestampFromNanos(-1n); //=> { $typeName: "google.protobuf.Timestamp", seconds: -1n, nanos: 999999999 }
 */
export function timestampFromNanos(ns: bigint): Timestamp {
  return timestampFromScaled(ns, 1_000_000_000n, 1);
}

/**
 * Returns the Timestamp as nanoseconds since the Unix epoch.
 *
 * @throws {WktJsonError} rule `range` if `ts` is not a valid Timestamp.
 * @example
 * timestampToNanos({ seconds: -1n, nanos: 999999999 }); //=> -1n
 */
export function timestampToNanos(ts: TimestampLike): bigint {
  timestampCheck(ts);
  return BigInt(Number(ts.seconds)) * 1_000_000_000n + BigInt(ts.nanos);
}

/** Splits a count of `1 / perSecond` seconds into seconds and nanos (floored: nanos counts forward). */
function timestampFromScaled(count: bigint, perSecond: bigint, nanosPerUnit: number): Timestamp {
  if (typeof count !== "bigint") {
    throw new WktJsonError("range", "$", timestampTypeName, `expected a bigint, got ${describe(count)}`);
  }
  let seconds = count / perSecond;
  let rest = count % perSecond;
  if (rest < 0n) {
    seconds -= 1n;
    rest += perSecond;
  }
  // A bigint too large for a double becomes an imprecise but still out-of-range number.
  return timestampNormalize(Number(seconds), Number(rest) * nanosPerUnit);
}

/**
 * Returns the current time (millisecond precision, from `Date.now()`).
 *
 * @throws never
 * @example
 * timestampNow(); //=> { $typeName: "google.protobuf.Timestamp", seconds: 1709208000n, nanos: 123000000 }
 */
export function timestampNow(): Timestamp {
  return timestampFromMs(Date.now());
}

/**
 * Adds a Duration to a Timestamp.
 *
 * @throws {WktJsonError} rule `range` if `ts` or `d` is invalid (`sign` for a Duration whose fields disagree in
 *   sign), or if the result is outside the Timestamp range.
 * @example
 * timestampAdd({ seconds: 0n, nanos: 0 }, { seconds: 0n, nanos: -1 }); //=> { $typeName: "google.protobuf.Timestamp", seconds: -1n, nanos: 999999999 }
 */
export function timestampAdd(ts: TimestampLike, d: DurationLike): Timestamp {
  timestampCheck(ts);
  durationCheck(d);
  return timestampNormalize(Number(ts.seconds) + Number(d.seconds), ts.nanos + d.nanos);
}

/**
 * Subtracts a Duration from a Timestamp.
 *
 * @throws {WktJsonError} rule `range` if `ts` or `d` is invalid (`sign` for a Duration whose fields disagree in
 *   sign), or if the result is outside the Timestamp range.
 * @example
 * timestampSubtract({ seconds: 0n, nanos: 0 }, { seconds: 1n, nanos: 0 }); //=> { $typeName: "google.protobuf.Timestamp", seconds: -1n, nanos: 0 }
 */
export function timestampSubtract(ts: TimestampLike, d: DurationLike): Timestamp {
  timestampCheck(ts);
  durationCheck(d);
  return timestampNormalize(Number(ts.seconds) - Number(d.seconds), ts.nanos - d.nanos);
}

/**
 * Returns the Duration from `b` to `a` (`a - b`). It always fits: the widest span, from
 * 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z, is 315,537,897,599.999999999 seconds, below the
 * Duration bound of 315,576,000,000 seconds.
 *
 * @throws {WktJsonError} rule `range` if `a` or `b` is not a valid Timestamp.
 * @example
 * timestampDiff({ seconds: 0n, nanos: 0 }, { seconds: 1n, nanos: 500000000 }); //=> { $typeName: "google.protobuf.Duration", seconds: -1n, nanos: -500000000 }
 */
export function timestampDiff(a: TimestampLike, b: TimestampLike): Duration {
  timestampCheck(a);
  timestampCheck(b);
  return durationNormalize(Number(a.seconds) - Number(b.seconds), a.nanos - b.nanos);
}

/**
 * Compares two Timestamps: -1 if `a` is earlier, 1 if later, 0 if equal.
 *
 * @throws {WktJsonError} rule `range` if `a` or `b` is not a valid Timestamp.
 * @example
 * timestampCompare({ seconds: -1n, nanos: 999999999 }, { seconds: 0n, nanos: 0 }); //=> -1
 */
export function timestampCompare(a: TimestampLike, b: TimestampLike): -1 | 0 | 1 {
  timestampCheck(a);
  timestampCheck(b);
  const sa = Number(a.seconds);
  const sb = Number(b.seconds);
  if (sa !== sb) return sa < sb ? -1 : 1;
  return a.nanos === b.nanos ? 0 : a.nanos < b.nanos ? -1 : 1;
}
