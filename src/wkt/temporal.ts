/**
 * Timestamp and Duration as the TC39 Temporal API's `Temporal.Instant` and `Temporal.Duration`, exact to the
 * nanosecond (protobuf-es #1015, #227; ts-proto's `useDate=temporal`).
 *
 * Spec rule 6: a Timestamp is "a UTC point in time ... range 0001-01-01T00:00:00Z to
 * 9999-12-31T23:59:59.999999999Z"; rule 5: a Duration is "a signed fixed-length span independent of any
 * calendar, at nanosecond resolution". A `Temporal.Instant` is an exact time as a bigint count of nanoseconds
 * since the epoch (`epochNanoseconds`), the Timestamp's own measure; its range, ±10^8 days from the epoch, holds
 * every Timestamp, and an Instant outside 0001 to 9999 is out of range here (rule `range`, as
 * `timestampFromJson` says it). A `Temporal.Duration` holds ten fields, years to nanoseconds, of one sign; its
 * time part may reach 2^53 seconds, far beyond the Duration's ±315,576,000,000, so every Duration converts.
 *
 * Which Temporal units are exact, read from the Temporal specification: years, months and weeks have no fixed
 * length ("a starting point is required for balancing calendar units": `total`, `round` and `compare` throw a
 * RangeError for them without `relativeTo`), so they are refused, with how to resolve them against a date. Days
 * are 24 hours, as Temporal itself counts them without `relativeTo` (ToInternalDurationRecordWith24HourDays: what
 * `Duration.compare` and `total` do) and as protobuf-java's `Durations.fromDays` does. (`Instant.add` refuses
 * days: there a day next to a time zone could be 23 or 25 hours; a protobuf Duration has no time zone.)
 * The Duration that {@link durationToTemporal} builds has the fields `Instant.until` gives by default (largest
 * unit seconds): seconds, milliseconds, microseconds and nanoseconds, each of the Duration's sign.
 *
 * No dependency, no lib: the runtime's `globalThis.Temporal` is used where it exists (Node 26 and the browsers
 * that ship it), and a polyfill's namespace can be passed as the option `temporal`. Reading needs no namespace:
 * an Instant or Duration from any implementation is read through its fields. The types below are structural, so
 * the package's declarations compile without TypeScript's Temporal lib; when the consumer's program declares a
 * global `Temporal` (a lib, or temporal-spec/global as polyfills give it), the results are typed as its classes.
 *
 * @module
 */
import type { Duration, Timestamp } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { callAtBase } from "../internal/base-path.js";
import { describe } from "../internal/describe.js";
import { durationTypeName, timestampTypeName } from "../internal/names.js";
import { optionsTypeName } from "../internal/options.js";
import {
  durationSecondsMax,
  durationTextMax,
  timestampSecondsMax,
  timestampSecondsMin,
  timestampTextMax,
  timestampTextMin,
} from "../limits.js";
import { durationCheck, durationFromNanos, type DurationJsonOptions, type DurationLike } from "./duration.js";
import { timestampFromNanos, timestampToNanos, type TimestampJsonOptions, type TimestampLike } from "./timestamp.js";

/** What is read of a `Temporal.Instant`: its exact time. */
export interface TemporalInstantLike {
  readonly epochNanoseconds: bigint;
}

/** What is read of a `Temporal.Duration`: its ten fields. */
export interface TemporalDurationLike {
  readonly years: number;
  readonly months: number;
  readonly weeks: number;
  readonly days: number;
  readonly hours: number;
  readonly minutes: number;
  readonly seconds: number;
  readonly milliseconds: number;
  readonly microseconds: number;
  readonly nanoseconds: number;
}

/** What is used of a `Temporal` namespace (the runtime's or a polyfill's): the two constructors. */
export interface TemporalNamespaceLike {
  readonly Instant: { fromEpochNanoseconds(epochNanoseconds: bigint): TemporalInstantLike };
  readonly Duration: new (
    years?: number,
    months?: number,
    weeks?: number,
    days?: number,
    hours?: number,
    minutes?: number,
    seconds?: number,
    milliseconds?: number,
    microseconds?: number,
    nanoseconds?: number,
  ) => TemporalDurationLike;
}

/**
 * The global `Temporal` as the consumer's program declares it (TypeScript's lib, or a polyfill's global types),
 * else {@link TemporalNamespaceLike}.
 */
export type GlobalTemporal = typeof globalThis extends { Temporal: infer T extends TemporalNamespaceLike }
  ? T
  : TemporalNamespaceLike;

/** The Instant class of a Temporal namespace `T`. */
export type TemporalInstantOf<T extends TemporalNamespaceLike> = ReturnType<T["Instant"]["fromEpochNanoseconds"]>;

/** The Duration class of a Temporal namespace `T`. */
export type TemporalDurationOf<T extends TemporalNamespaceLike> = InstanceType<T["Duration"]>;

/** Options of {@link timestampToTemporal} and {@link durationToTemporal}. */
export interface TemporalOptions<T extends TemporalNamespaceLike = GlobalTemporal> {
  /**
   * The `Temporal` namespace to build with, such as a polyfill's (`import { Temporal } from "temporal-polyfill"`).
   * Default: `globalThis.Temporal`, where the runtime has it.
   */
  temporal?: T | undefined;
  /**
   * JSON path of the value in the caller's document, such as `"$.dueAt"`: an error is reported at this path
   * instead of `$`. A string starting with `$`. Default `"$"`.
   */
  path?: string | undefined;
}

const nanosPerSecondBig = 1_000_000_000n;
const timestampNanosMin = BigInt(timestampSecondsMin) * nanosPerSecondBig;
const timestampNanosMax = BigInt(timestampSecondsMax) * nanosPerSecondBig + 999_999_999n;
const durationNanosMax = BigInt(durationSecondsMax) * nanosPerSecondBig + 999_999_999n;

/**
 * Builds a Timestamp from a `Temporal.Instant` (of the runtime or of any polyfill), exact to the nanosecond.
 *
 * @throws {WktJsonError} rule `range` if `instant` is not a Temporal.Instant, or if it lies outside
 *   0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z; at `$` or at `options.path`.
 * @example
 * timestampFromTemporal(Temporal.Instant.from("2024-02-29T12:00:00.000000001Z")); //=> { $typeName: "google.protobuf.Timestamp", seconds: 1709208000n, nanos: 1 }
 * timestampFromTemporal(Temporal.Instant.from("+010000-01-01T00:00:00Z")); // throws WktJsonError (rule "range", jsonPath "$")
 */
export function timestampFromTemporal(instant: TemporalInstantLike, options?: TimestampJsonOptions): Timestamp;
/** @hidden */
// Without options, so that `instants.map(timestampFromTemporal)` still compiles (map passes an index second).
export function timestampFromTemporal(instant: TemporalInstantLike): Timestamp;
export function timestampFromTemporal(instant: TemporalInstantLike, options?: TimestampJsonOptions): Timestamp {
  return options === undefined ? instantRead(instant) : callAtBase(instantRead, instant, options, timestampTypeName);
}

function instantRead(instant: unknown): Timestamp {
  const ns = read(instant, "Instant", timestampTypeName, instantKeys)[0] as unknown;
  if (typeof ns !== "bigint") {
    throw new WktJsonError("range", "$", timestampTypeName, `epochNanoseconds must be a bigint, got ${describe(ns)}`);
  }
  if (ns < timestampNanosMin || ns > timestampNanosMax) {
    throw new WktJsonError(
      "range",
      "$",
      timestampTypeName,
      `the Temporal.Instant ${shown(instant)} is outside ${timestampTextMin} to ${timestampTextMax}`,
    );
  }
  return timestampFromNanos(ns);
}

/**
 * Returns the Timestamp as a `Temporal.Instant`, exact to the nanosecond: of `options.temporal`, else of the
 * runtime's `globalThis.Temporal`. Every Timestamp fits an Instant.
 *
 * @throws {WktJsonError} rule `range` if `ts` is not a valid Timestamp (at `$` or at `options.path`), and, under
 *   typeName `"options"`, if there is no Temporal: no `temporal` option and no `globalThis.Temporal`, or a
 *   `temporal` option that is not a Temporal namespace.
 * @example
 * timestampToTemporal({ seconds: -1n, nanos: 999999999 }).toString(); //=> "1969-12-31T23:59:59.999999999Z"
 * timestampToTemporal({ seconds: 0n, nanos: 0 }, { temporal: Temporal }).epochNanoseconds; //=> 0n
 */
export function timestampToTemporal<T extends TemporalNamespaceLike = GlobalTemporal>(
  ts: TimestampLike,
  options?: TemporalOptions<T>,
): TemporalInstantOf<T>;
/** @hidden */
// Without options, so that `timestamps.map(timestampToTemporal)` still compiles (map passes an index second).
export function timestampToTemporal(ts: TimestampLike): TemporalInstantOf<GlobalTemporal>;
export function timestampToTemporal(ts: TimestampLike, options?: TemporalOptions): TemporalInstantLike {
  const temporal = temporalOf(options);
  const build = (t: TimestampLike): TemporalInstantLike => {
    const ns = timestampToNanos(t);
    return temporalCall("Instant.fromEpochNanoseconds", () => temporal.Instant.fromEpochNanoseconds(ns));
  };
  return options === undefined ? build(ts) : callAtBase(build, ts, options, timestampTypeName);
}

/**
 * Builds a Duration from a `Temporal.Duration` (of the runtime or of any polyfill), exact to the nanosecond. Days
 * count 24 hours, as Temporal counts them without `relativeTo`; years, months and weeks have no fixed length and
 * are refused: resolve them against a date first (`d.round({ largestUnit: "hours", relativeTo: date })`).
 *
 * @throws {WktJsonError} rule `range` if `duration` is not a Temporal.Duration, has years, months or weeks, or is
 *   beyond ±315576000000.999999999s; `sign` if its fields disagree in sign (which a Temporal.Duration never
 *   does); at `$` or at `options.path`.
 * @example
 * durationFromTemporal(Temporal.Duration.from("PT1H0.5S")); //=> { $typeName: "google.protobuf.Duration", seconds: 3600n, nanos: 500000000 }
 * durationFromTemporal(Temporal.Duration.from({ days: -1, nanoseconds: -1 })); //=> { $typeName: "google.protobuf.Duration", seconds: -86400n, nanos: -1 }
 * durationFromTemporal(Temporal.Duration.from("P1M")); // throws WktJsonError (rule "range", jsonPath "$")
 */
export function durationFromTemporal(duration: TemporalDurationLike, options?: DurationJsonOptions): Duration;
/** @hidden */
// Without options, so that `durations.map(durationFromTemporal)` still compiles (map passes an index second).
export function durationFromTemporal(duration: TemporalDurationLike): Duration;
export function durationFromTemporal(duration: TemporalDurationLike, options?: DurationJsonOptions): Duration {
  return options === undefined ? durationRead(duration) : callAtBase(durationRead, duration, options, durationTypeName);
}

/** The fields of a Temporal.Duration, largest first, and each one's length in nanoseconds (0n: not exact). */
const durationKeys = [
  "years",
  "months",
  "weeks",
  "days",
  "hours",
  "minutes",
  "seconds",
  "milliseconds",
  "microseconds",
  "nanoseconds",
] as const;
const nanosPer: readonly bigint[] = [
  0n,
  0n,
  0n,
  86_400_000_000_000n,
  3_600_000_000_000n,
  60_000_000_000n,
  1_000_000_000n,
  1_000_000n,
  1000n,
  1n,
];
const instantKeys = ["epochNanoseconds"] as const;

function durationRead(duration: unknown): Duration {
  const values = read(duration, "Duration", durationTypeName, durationKeys);
  let total = 0n;
  let positive = false;
  let negative = false;
  for (let i = 0; i < durationKeys.length; i++) {
    const v = values[i];
    if (typeof v !== "number" || !Number.isInteger(v)) {
      throw new WktJsonError(
        "range",
        "$",
        durationTypeName,
        `${durationKeys[i]} must be an integer number, got ${typeof v === "number" ? String(v) : describe(v)}`,
      );
    }
    if (v === 0) continue;
    if (i < 3) {
      throw new WktJsonError(
        "range",
        "$",
        durationTypeName,
        `the Temporal.Duration ${shown(duration)} has ${durationKeys[i]}, which have no fixed length; a Duration ` +
          `is exact seconds: resolve them against a date first, d.round({ largestUnit: "hours", relativeTo })`,
      );
    }
    if (v > 0) positive = true;
    else negative = true;
    total += BigInt(v) * nanosPer[i]!; // BigInt of an integer double is exact
  }
  if (positive && negative) {
    throw new WktJsonError("sign", "$", durationTypeName, "the fields of the Temporal.Duration disagree in sign");
  }
  if (total > durationNanosMax || total < -durationNanosMax) {
    throw new WktJsonError(
      "range",
      "$",
      durationTypeName,
      `the Temporal.Duration ${shown(duration)} is outside ±${durationTextMax}`,
    );
  }
  return durationFromNanos(total);
}

/**
 * Returns the Duration as a `Temporal.Duration` of seconds, milliseconds, microseconds and nanoseconds (the
 * fields `Instant.until` gives), exact: of `options.temporal`, else of the runtime's `globalThis.Temporal`. Every
 * Duration fits (Temporal's bound is 2^53 seconds); `d.round({ largestUnit: "hours" })` balances it further.
 *
 * @throws {WktJsonError} rule `range` or `sign` if `d` is not a valid Duration (at `$` or at `options.path`),
 *   and rule `range`, under typeName `"options"`, if there is no Temporal: no `temporal` option and no
 *   `globalThis.Temporal`, or a `temporal` option that is not a Temporal namespace.
 * @example
 * durationToTemporal({ seconds: -3600n, nanos: -1500 }).toString(); //=> "-PT3600.0000015S"
 * durationToTemporal({ seconds: 90n, nanos: 0 }, { temporal: Temporal }).round({ largestUnit: "minutes" }).toString(); //=> "PT1M30S"
 */
export function durationToTemporal<T extends TemporalNamespaceLike = GlobalTemporal>(
  d: DurationLike,
  options?: TemporalOptions<T>,
): TemporalDurationOf<T>;
/** @hidden */
// Without options, so that `durations.map(durationToTemporal)` still compiles (map passes an index second).
export function durationToTemporal(d: DurationLike): TemporalDurationOf<GlobalTemporal>;
export function durationToTemporal(d: DurationLike, options?: TemporalOptions): TemporalDurationLike {
  const temporal = temporalOf(options);
  const build = (x: DurationLike): TemporalDurationLike => {
    durationCheck(x);
    const n = x.nanos;
    // Truncating keeps each part's sign, the Duration's; + 0 turns a -0 into 0.
    const ms = Math.trunc(n / 1_000_000) + 0;
    const us = Math.trunc((n % 1_000_000) / 1000) + 0;
    const ns = (n % 1000) + 0;
    return temporalCall("new Duration", () => new temporal.Duration(0, 0, 0, 0, 0, 0, Number(x.seconds), ms, us, ns));
  };
  return options === undefined ? build(d) : callAtBase(build, d, options, durationTypeName);
}

/**
 * The Temporal namespace to build with: the option's, else the runtime's. Looked up on each call, so that a
 * polyfill installed on the global after this module loaded is found.
 */
function temporalOf(options: TemporalOptions | undefined): TemporalNamespaceLike {
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new WktJsonError("range", "$", optionsTypeName, `the options must be an object, got ${describe(options)}`);
  }
  const given = options?.temporal;
  const temporal = given ?? (globalThis as { Temporal?: unknown }).Temporal;
  if (temporal === undefined) {
    throw new WktJsonError(
      "range",
      "$",
      optionsTypeName,
      "this runtime has no Temporal (globalThis.Temporal): pass a polyfill's namespace as the option temporal, " +
        'such as { temporal: Temporal } with import { Temporal } from "temporal-polyfill"',
    );
  }
  const t = temporal as Partial<TemporalNamespaceLike> | null;
  if (
    (typeof t !== "object" && typeof t !== "function") ||
    t === null ||
    typeof t.Instant?.fromEpochNanoseconds !== "function" ||
    typeof t.Duration !== "function"
  ) {
    const what = given === undefined ? "globalThis.Temporal" : "the option temporal";
    throw new WktJsonError(
      "range",
      "$",
      optionsTypeName,
      `${what} must be a Temporal namespace (with Instant.fromEpochNanoseconds and Duration), got ${describe(t)}`,
    );
  }
  return t as TemporalNamespaceLike;
}

/**
 * Calls into the Temporal namespace, which may be the caller's (the option `temporal`): whatever it throws (a
 * polyfill of a narrower range, a `Duration` that is no constructor) is rule `range` under typeName `"options"`,
 * not a TypeError or RangeError escaping.
 */
function temporalCall<R>(what: string, call: () => R): R {
  try {
    return call();
  } catch (e) {
    const why = e instanceof Error ? e.message : describe(e);
    throw new WktJsonError("range", "$", optionsTypeName, `Temporal's ${what} refused the value: ${why}`);
  }
}

/**
 * Reads the fields `keys` of a Temporal object of class `name` (its `Symbol.toStringTag` is `Temporal.${name}`,
 * whichever implementation made it). Getters that throw (a revoked proxy, another realm's object whose getter
 * refuses it) are a `range` error, not a TypeError escaping.
 */
function read(value: unknown, name: string, typeName: string, keys: readonly string[]): unknown[] {
  const tag = `Temporal.${name}`;
  let got = describe(value);
  if (typeof value === "object" && value !== null) {
    try {
      const own = (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag];
      if (own === tag) return keys.map((k) => (value as Record<string, unknown>)[k]);
      if (typeof own === "string" && own.startsWith("Temporal.")) {
        got = `a ${own}` + (name === "Instant" && own === "Temporal.ZonedDateTime" ? " (call toInstant() first)" : "");
      }
    } catch {
      got = `an object whose ${tag} fields cannot be read`;
    }
  }
  throw new WktJsonError("range", "$", typeName, `expected a ${tag}, got ${got}`);
}

/** A Temporal value's ISO 8601 text for an error message, where its `toString` gives one. Error path only. */
function shown(value: unknown): string {
  try {
    const s = String(value);
    return s.length <= 64 ? s : s.slice(0, 61) + "...";
  } catch {
    return "(without a text form)";
  }
}
