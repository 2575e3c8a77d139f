import { create, fromJson, toJson } from "@bufbuild/protobuf";
import { type Duration, DurationSchema, type Timestamp, TimestampSchema } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { durationAdd, durationFromNanos, durationToNanos } from "../../src/wkt/duration.js";
import { isWktJsonError } from "../../src/errors.js";
import { durationSecondsMax, timestampSecondsMax, timestampSecondsMin } from "../../src/limits.js";
import {
  timestampAdd,
  timestampCheck,
  timestampCompare,
  timestampDiff,
  timestampFromDate,
  timestampFromJson,
  timestampFromMicros,
  timestampFromMs,
  timestampFromNanos,
  timestampIsValid,
  timestampSubtract,
  timestampToDate,
  timestampToJson,
  timestampToMicros,
  timestampToMs,
  timestampToNanos,
  type TimestampLike,
} from "../../src/wkt/timestamp.js";

const minS = BigInt(timestampSecondsMin);
const maxS = BigInt(timestampSecondsMax);
const nanosMin = minS * 1_000_000_000n;
const nanosMax = maxS * 1_000_000_000n + 999_999_999n;
const runs = { numRuns: 1000 };

/** Nanos biased toward the 0, 3 and 6 digit fractions that canonical output uses. */
const arbNanos = fc.oneof(
  fc.integer({ min: 0, max: 999_999_999 }),
  fc.integer({ min: 0, max: 999 }).map((n) => n * 1_000_000),
  fc.integer({ min: 0, max: 999_999 }).map((n) => n * 1_000),
  fc.constantFrom(0, 999_999_999),
);
const arbSeconds = fc.oneof(
  fc.bigInt({ min: minS, max: maxS }),
  fc.bigInt({ min: -86_400n * 366n, max: 86_400n * 366n }), // around the epoch
  fc.constantFrom(minS, minS + 1n, maxS - 1n, maxS, -1n, 0n),
);
const arbTimestamp: fc.Arbitrary<Timestamp> = fc
  .record({ seconds: arbSeconds, nanos: arbNanos })
  .map((init) => create(TimestampSchema, init));

/** A valid Duration of any size, or a small one (so that sums stay in range often). */
const arbDuration: fc.Arbitrary<Duration> = fc
  .oneof(
    fc.bigInt({
      min: -BigInt(durationSecondsMax) * 1_000_000_000n - 999_999_999n,
      max: BigInt(durationSecondsMax) * 1_000_000_000n + 999_999_999n,
    }),
    fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
    fc.bigInt({ min: -3_000_000_000n, max: 3_000_000_000n }),
  )
  .map((ns) => durationFromNanos(ns));

/** Independent formatter: the shortest fraction of 0, 3, 6 or 9 digits. */
function fraction(nanos: number): string {
  if (nanos === 0) return "";
  const f = String(nanos).padStart(9, "0");
  return "." + (f.endsWith("000000") ? f.slice(0, 3) : f.endsWith("000") ? f.slice(0, 6) : f);
}

/** Independent formatter built on Date.toISOString, which prints years 0 to 9999 with four digits. */
function isoOf(seconds: bigint): string {
  return new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
}

const nanosOf = (t: TimestampLike) => BigInt(t.seconds) * 1_000_000_000n + BigInt(t.nanos);

/** Runs `f`; passes if it returns or throws a WktJsonError, fails on anything else. */
function worksOrWkt(f: () => unknown): void {
  try {
    f();
  } catch (e) {
    if (!isWktJsonError(e)) throw e;
  }
}

/** Random edits of a string: insert, delete, replace or duplicate, with characters that matter to parsers. */
const arbChar = fc.oneof(
  fc.constantFrom("0", "1", "9", "-", "+", ":", ".", "T", "t", "Z", "z", " ", "s", "e", "\u0661", "\u2212", "\uD800"),
  fc.string({ minLength: 1, maxLength: 2 }),
);
function arbMutation(valid: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const edit = fc.tuple(fc.constantFrom("insert", "delete", "replace", "duplicate"), fc.nat(), arbChar);
  return fc.tuple(valid, fc.array(edit, { minLength: 1, maxLength: 4 })).map(([s, edits]) => {
    for (const [op, at, c] of edits) {
      const i = s.length === 0 ? 0 : at % (s.length + 1);
      if (op === "insert") s = s.slice(0, i) + c + s.slice(i);
      else if (op === "delete") s = s.slice(0, i) + s.slice(i + 1);
      else if (op === "replace") s = s.slice(0, i) + c + s.slice(i + 1);
      else s = s.slice(0, i) + s.slice(i / 2, i) + s.slice(i);
    }
    return s;
  });
}

/** A valid RFC 3339 string in any offset and with 0 to 9 fraction digits, and the Timestamp it denotes. */
const arbTextual = fc
  .record({
    ts: arbTimestamp,
    offsetMinutes: fc.oneof(fc.integer({ min: -1439, max: 1439 }), fc.constant(0)),
    digits: fc.integer({ min: 0, max: 9 }),
    zulu: fc.boolean(),
  })
  .map(({ ts, offsetMinutes, digits, zulu }) => {
    const offset = zulu ? 0 : offsetMinutes;
    const nanos = ts.nanos - (ts.nanos % 10 ** (9 - digits)); // truncated to `digits`
    const local = ts.seconds + BigInt(offset * 60);
    const abs = Math.abs(offset);
    const zone = zulu
      ? "Z"
      : (offset < 0 ? "-" : "+") +
        String(Math.floor(abs / 60)).padStart(2, "0") +
        ":" +
        String(abs % 60).padStart(2, "0");
    const frac = digits === 0 ? "" : "." + String(nanos).padStart(9, "0").slice(0, digits);
    return { ts: create(TimestampSchema, { seconds: ts.seconds, nanos }), local, suffix: frac + zone };
  })
  .filter(({ local }) => local >= -62_167_219_200n && local <= maxS) // local date in years 0000 to 9999
  .map((x) => ({ ts: x.ts, text: isoOf(x.local) + x.suffix }));

describe("timestamp properties", () => {
  it("round-trips every valid Timestamp", () => {
    fc.assert(
      fc.property(arbTimestamp, (ts) => {
        expect(timestampFromJson(timestampToJson(ts))).toEqual(ts);
      }),
      runs,
    );
  });

  it("prints what Date.toISOString prints, with the shortest fraction, and keeps canonical text", () => {
    fc.assert(
      fc.property(arbTimestamp, (ts) => {
        const canonical = isoOf(ts.seconds) + fraction(ts.nanos) + "Z";
        expect(timestampToJson(ts)).toBe(canonical);
        expect(timestampToJson(timestampFromJson(canonical))).toBe(canonical);
      }),
      runs,
    );
  });

  it("reads any offset and fraction length", () => {
    fc.assert(
      fc.property(arbTextual, ({ ts, text }) => {
        expect(timestampFromJson(text)).toEqual(ts);
      }),
      runs,
    );
  });

  it("agrees with @bufbuild/protobuf on valid input", () => {
    fc.assert(
      fc.property(arbTimestamp, arbTextual, (ts, { text }) => {
        expect(timestampToJson(ts)).toBe(toJson(TimestampSchema, ts));
        expect(timestampFromJson(text)).toEqual(fromJson(TimestampSchema, text));
      }),
      runs,
    );
  });

  it("adds like nanosecond arithmetic, and never wraps", () => {
    fc.assert(
      fc.property(arbTimestamp, arbDuration, (t, d) => {
        const sum = nanosOf(t) + durationToNanos(d);
        if (sum >= nanosMin && sum <= nanosMax) {
          expect(timestampAdd(t, d)).toEqual(timestampFromNanos(sum));
        } else {
          expect(() => timestampAdd(t, d)).toThrow(expect.objectContaining({ rule: "range", jsonPath: "$" }));
        }
        const diff = nanosOf(t) - durationToNanos(d);
        if (diff >= nanosMin && diff <= nanosMax) {
          expect(timestampSubtract(t, d)).toEqual(timestampFromNanos(diff));
        } else {
          expect(() => timestampSubtract(t, d)).toThrow(expect.objectContaining({ rule: "range", jsonPath: "$" }));
        }
      }),
      runs,
    );
  });

  it("adds associatively: (t + a) + b = t + (a + b)", () => {
    fc.assert(
      fc.property(arbTimestamp, arbDuration, arbDuration, (t, a, b) => {
        const ta = nanosOf(t) + durationToNanos(a);
        const ab = durationToNanos(a) + durationToNanos(b);
        const tab = ta + durationToNanos(b);
        const inTs = (n: bigint) => n >= nanosMin && n <= nanosMax;
        fc.pre(inTs(ta) && inTs(tab) && ab >= -315_576_000_000_999_999_999n && ab <= 315_576_000_000_999_999_999n);
        expect(timestampAdd(timestampAdd(t, a), b)).toEqual(timestampAdd(t, durationAdd(a, b)));
      }),
      { numRuns: 300, maxSkipsPerRun: 1000 },
    );
  });

  it("diffs back: (t + d) - t = d", () => {
    fc.assert(
      fc.property(arbTimestamp, arbDuration, (t, d) => {
        const sum = nanosOf(t) + durationToNanos(d);
        fc.pre(sum >= nanosMin && sum <= nanosMax);
        expect(timestampDiff(timestampAdd(t, d), t)).toEqual(d);
      }),
      { numRuns: 500, maxSkipsPerRun: 1000 },
    );
  });

  it("diffs any two Timestamps into a Duration", () => {
    fc.assert(
      fc.property(arbTimestamp, arbTimestamp, (a, b) => {
        const d = timestampDiff(a, b);
        expect(d).toEqual(durationFromNanos(nanosOf(a) - nanosOf(b)));
        expect(create(DurationSchema, d)).toEqual(d);
        expect(timestampCompare(a, b)).toBe(nanosOf(a) < nanosOf(b) ? -1 : nanosOf(a) > nanosOf(b) ? 1 : 0);
      }),
      runs,
    );
  });

  it("converts to and from nanos, micros, ms and Date", () => {
    fc.assert(
      fc.property(arbTimestamp, (t) => {
        const ns = timestampToNanos(t);
        expect(ns).toBe(nanosOf(t));
        expect(timestampFromNanos(ns)).toEqual(t);
        const floorDiv = (a: bigint, b: bigint) => (a % b < 0n ? a / b - 1n : a / b);
        expect(timestampToMicros(t)).toBe(floorDiv(ns, 1000n));
        expect(timestampFromMicros(timestampToMicros(t))).toEqual(timestampFromNanos(floorDiv(ns, 1000n) * 1000n));
        const ms = timestampToMs(t);
        expect(BigInt(ms)).toBe(floorDiv(ns, 1_000_000n));
        expect(timestampFromMs(ms)).toEqual(timestampFromNanos(BigInt(ms) * 1_000_000n));
        expect(timestampFromDate(timestampToDate(t))).toEqual(timestampFromMs(ms));
      }),
      runs,
    );
  });

  it("decodes or throws WktJsonError for any string", () => {
    // Any UTF-16 text, and text over the characters the parser branches on (which gets much closer to valid).
    const nearValid = fc.string({ unit: fc.constantFrom(..."0123456789-:.+TZtz s"), minLength: 18, maxLength: 40 });
    const utf16 = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }); // lone surrogates too
    for (const arb of [fc.string(), utf16, nearValid]) {
      fc.assert(
        fc.property(arb, (s) => {
          worksOrWkt(() => timestampCheck(timestampFromJson(s)));
        }),
        runs,
      );
    }
  });

  it("decodes or throws WktJsonError for mutations of valid strings, and what decodes is valid", () => {
    fc.assert(
      fc.property(arbMutation(arbTextual.map((x) => x.text)), (s) => {
        try {
          const ts = timestampFromJson(s);
          expect(timestampIsValid(ts)).toBe(true);
          expect(timestampFromJson(timestampToJson(ts))).toEqual(ts);
        } catch (e) {
          if (!isWktJsonError(e)) throw e;
        }
      }),
      { numRuns: 3000 },
    );
  });

  it("works or throws WktJsonError for any JS value", () => {
    const arbField = fc.oneof(fc.anything(), fc.bigInt(), fc.double(), fc.integer(), fc.constantFrom(-0, NaN, 2 ** 53));
    const arbValue = fc.oneof(
      fc.anything(),
      fc.record({ seconds: arbField, nanos: arbField }),
      fc.record({ seconds: fc.bigInt(), nanos: fc.integer() }),
    );
    fc.assert(
      fc.property(arbValue, arbValue, (a, b) => {
        const x = a as TimestampLike;
        const y = b as TimestampLike;
        worksOrWkt(() => timestampFromJson(a));
        worksOrWkt(() => timestampCheck(x));
        expect(typeof timestampIsValid(x)).toBe("boolean");
        worksOrWkt(() => timestampToJson(x));
        worksOrWkt(() => timestampAdd(x, b as Duration));
        worksOrWkt(() => timestampSubtract(x, b as Duration));
        worksOrWkt(() => timestampDiff(x, y));
        worksOrWkt(() => timestampCompare(x, y));
        worksOrWkt(() => timestampToMs(x));
        worksOrWkt(() => timestampToDate(x));
        worksOrWkt(() => timestampToMicros(x));
        worksOrWkt(() => timestampToNanos(x));
        worksOrWkt(() => timestampFromMs(a as number));
        worksOrWkt(() => timestampFromMicros(a as bigint));
        worksOrWkt(() => timestampFromNanos(a as bigint));
        worksOrWkt(() => timestampFromDate(a as Date));
      }),
      runs,
    );
  });

  it("works or throws WktJsonError for any number of ms", () => {
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer(), fc.double({ min: -1e15, max: 1e15 })), (ms) => {
        try {
          const t = timestampFromMs(ms);
          expect(timestampIsValid(t)).toBe(true);
        } catch (e) {
          if (!isWktJsonError(e)) throw e;
        }
      }),
      runs,
    );
  });
});
