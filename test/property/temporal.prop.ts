// Laws of the Temporal conversions over the whole Timestamp and Duration ranges, with temporal-polyfill: round
// trips are exact, and Temporal's own arithmetic (Instant.until, Instant.add, Duration.compare) agrees with the
// library's (timestampDiff, timestampAdd, durationCompare).
import { Temporal } from "temporal-polyfill";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isWktJsonError } from "../../src/errors.js";
import {
  durationFromNanos,
  durationFromTemporal,
  durationToNanos,
  durationToTemporal,
  timestampAdd,
  timestampDiff,
  timestampFromNanos,
  timestampFromTemporal,
  timestampToNanos,
  timestampToTemporal,
} from "../../src/index.js";
import { durationSecondsMax, timestampNanosMax, timestampSecondsMax, timestampSecondsMin } from "../../src/limits.js";

const opts = { temporal: Temporal };
const runs = { numRuns: 300 };
const tsMin = BigInt(timestampSecondsMin) * 1_000_000_000n;
const tsMax = BigInt(timestampSecondsMax) * 1_000_000_000n + BigInt(timestampNanosMax);
const dMax = BigInt(durationSecondsMax) * 1_000_000_000n + 999_999_999n;

const arbTimestampNanos = fc.oneof(
  fc.bigInt({ min: tsMin, max: tsMax }),
  fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }), // around the epoch
  fc.constantFrom(tsMin, tsMin + 1n, tsMax - 1n, tsMax, -1n, 0n),
);
const arbDurationNanos = fc.oneof(
  fc.bigInt({ min: -dMax, max: dMax }),
  fc.bigInt({ min: -3_000_000_000n, max: 3_000_000_000n }),
  fc.constantFrom(-dMax, dMax, -1n, 0n, 1n),
);

describe("Temporal conversions", () => {
  it("Timestamp -> Instant -> Timestamp is exact over the whole range", () => {
    fc.assert(
      fc.property(arbTimestampNanos, (ns) => {
        const ts = timestampFromNanos(ns);
        const instant = timestampToTemporal(ts, opts);
        expect(instant.epochNanoseconds).toBe(ns);
        expect(timestampFromTemporal(instant)).toEqual(ts);
      }),
      runs,
    );
  });

  it("Duration -> Temporal.Duration -> Duration is exact over the whole range", () => {
    fc.assert(
      fc.property(arbDurationNanos, (ns) => {
        const d = durationFromNanos(ns);
        const t = durationToTemporal(d, opts);
        const sub = t.milliseconds * 1e6 + t.microseconds * 1e3 + t.nanoseconds;
        expect(BigInt(t.seconds) * 1_000_000_000n + BigInt(sub)).toBe(ns);
        expect(durationFromTemporal(t)).toEqual(d);
      }),
      runs,
    );
  });

  it("Instant.until is timestampDiff, field for field", () => {
    fc.assert(
      fc.property(arbTimestampNanos, arbTimestampNanos, (a, b) => {
        const [ia, ib] = [Temporal.Instant.fromEpochNanoseconds(a), Temporal.Instant.fromEpochNanoseconds(b)];
        const diff = timestampDiff(timestampFromNanos(b), timestampFromNanos(a));
        expect(durationFromTemporal(ia.until(ib))).toEqual(diff);
        expect(durationToTemporal(diff, opts).toString()).toBe(ia.until(ib).toString());
      }),
      runs,
    );
  });

  // A Temporal.Duration of any exact units, days included, each field of one sign.
  const arbTemporalDuration = fc
    .record({
      days: fc.integer({ min: 0, max: 3_000_000 }),
      hours: fc.integer({ min: 0, max: 100_000 }),
      minutes: fc.integer({ min: 0, max: 100_000 }),
      seconds: fc.integer({ min: 0, max: 10 ** 9 }),
      milliseconds: fc.integer({ min: 0, max: 10 ** 9 }),
      microseconds: fc.integer({ min: 0, max: 10 ** 9 }),
      nanoseconds: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
      negative: fc.boolean(),
    })
    .map(({ negative, ...fields }) => {
      const d = Temporal.Duration.from(fields);
      return negative ? d.negated() : d;
    });

  it("a Temporal.Duration with days reads as Temporal compares it (days of 24 hours), and back", () => {
    fc.assert(
      fc.property(arbTemporalDuration, (t) => {
        const d = durationFromTemporal(t);
        expect(Temporal.Duration.compare(durationToTemporal(d, opts), t)).toBe(0);
      }),
      runs,
    );
  });

  it("Instant.add is timestampAdd, where Temporal adds (time units) and the sum is in range", () => {
    fc.assert(
      fc.property(arbTimestampNanos, arbTemporalDuration, (a, t) => {
        const time = t.round({ largestUnit: "hours" }); // Instant.add refuses days
        const d = durationFromTemporal(time);
        const sum = timestampToNanos(timestampFromNanos(a)) + durationToNanos(d);
        fc.pre(sum >= tsMin && sum <= tsMax);
        const added = timestampAdd(timestampFromNanos(a), d);
        expect(timestampFromTemporal(Temporal.Instant.fromEpochNanoseconds(a).add(time))).toEqual(added);
      }),
      runs,
    );
  });

  it("any value, as the value or as an option, gives a result or a WktJsonError, nothing else", () => {
    const calls: ((v: unknown) => unknown)[] = [
      (v) => timestampFromTemporal(v as never),
      (v) => durationFromTemporal(v as never),
      (v) => timestampToTemporal(v as never, opts),
      (v) => durationToTemporal(v as never, opts),
      (v) => timestampToTemporal({ seconds: 0n, nanos: 0 }, { temporal: v as never }),
      (v) => durationToTemporal({ seconds: 0n, nanos: 0 }, v as never),
      (v) => timestampFromTemporal(Temporal.Instant.fromEpochNanoseconds(0n), v as never),
    ];
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withMap: true, withDate: true }), (v) => {
        for (const call of calls) {
          try {
            call(v);
          } catch (e) {
            if (!isWktJsonError(e)) throw e;
          }
        }
      }),
      runs,
    );
  });
});
