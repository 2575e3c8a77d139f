/**
 * protobuf-es's names for the Timestamp and Duration conversions that wkt-json names otherwise, so that code
 * written against `@bufbuild/protobuf/wkt` switches its import and keeps working: `timestampDate`,
 * `timestampMs` and `durationMs`, which round to the nearest millisecond as protobuf-es's do (`timestampToDate`,
 * `timestampToMs` floor, as a Date holds an instant; `durationToMs` keeps the fraction). The rest of
 * protobuf-es's helpers have the same names here already (`timestampNow`, `timestampFromDate`,
 * `timestampFromMs`, `durationFromMs`, `anyPack`, `anyUnpack`, `anyIs`, `anyUnpackTo`).
 *
 * Each gives protobuf-es's result on every valid input; where protobuf-es returns a wrong value without a word
 * (an out-of-range Timestamp, a Duration whose fields disagree in sign), these throw WktJsonError, rule `range`
 * or `sign`.
 *
 * @module
 */
import type { DurationLike } from "./duration.js";
import { durationCheck } from "./duration.js";
import { timestampCheck, type TimestampLike } from "./timestamp.js";

/**
 * Returns the Timestamp as a JavaScript Date, rounded to the nearest millisecond (protobuf-es's `timestampDate`;
 * `timestampToDate` floors instead).
 *
 * @throws {WktJsonError} rule `range` if `timestamp` is not a valid Timestamp.
 * @example
 * timestampDate({ seconds: 0n, nanos: 1999999 }).toISOString(); //=> "1970-01-01T00:00:00.002Z"
 */
export function timestampDate(timestamp: TimestampLike): Date {
  return new Date(timestampMs(timestamp));
}

/**
 * Returns the Timestamp in milliseconds since the Unix epoch, rounded to the nearest millisecond (protobuf-es's
 * `timestampMs`; `timestampToMs` floors instead).
 *
 * @throws {WktJsonError} rule `range` if `timestamp` is not a valid Timestamp.
 * @example
 * timestampMs({ seconds: -1n, nanos: 999999999 }); //=> 0
 */
export function timestampMs(timestamp: TimestampLike): number {
  timestampCheck(timestamp);
  return Number(timestamp.seconds) * 1000 + Math.round(timestamp.nanos / 1_000_000);
}

/**
 * Returns the Duration in milliseconds, rounded to the nearest millisecond, halves up (protobuf-es's
 * `durationMs`; `durationToMs` keeps the fraction).
 *
 * @throws {WktJsonError} rule `range` or `sign` if `duration` is not a valid Duration.
 * @example
 * durationMs({ seconds: 1n, nanos: 500000 }); //=> 1001
 */
export function durationMs(duration: DurationLike): number {
  durationCheck(duration);
  return Number(duration.seconds) * 1000 + Math.round(duration.nanos / 1_000_000);
}
