import { create, fromJson, toJson } from "@bufbuild/protobuf";
import { DurationSchema, TimestampSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import type { DurationLike } from "../src/wkt/duration.js";
import {
  durationNanosMax,
  durationNanosMin,
  durationSecondsMax,
  timestampNanosMax,
  timestampSecondsMax,
  timestampSecondsMin,
} from "../src/limits.js";
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
  timestampNow,
  timestampSubtract,
  timestampToDate,
  timestampToJson,
  timestampToMicros,
  timestampToMs,
  timestampToNanos,
  timestampFromJsonNullable,
  timestampToJsonNullable,
  type TimestampLike,
} from "../src/wkt/timestamp.js";
import { timestampFromSeconds } from "../src/wkt/timestamp-seconds.js";
import { catchWkt } from "./helpers.js";

const minS = BigInt(timestampSecondsMin);
const maxS = BigInt(timestampSecondsMax);
const T = (seconds: bigint, nanos: number) => ({ $typeName: "google.protobuf.Timestamp", seconds, nanos });
const D = (seconds: bigint, nanos: number) => ({ $typeName: "google.protobuf.Duration", seconds, nanos });
/** Lets tests hand garbage to functions typed for Timestamps. */
const junk = (v: unknown) => v as TimestampLike;

describe("limits", () => {
  it("match Date for the first and last second", () => {
    expect(timestampSecondsMin * 1000).toBe(Date.parse("0001-01-01T00:00:00Z"));
    expect(timestampSecondsMax * 1000).toBe(Date.parse("9999-12-31T23:59:59Z"));
  });

  it("make every Timestamp difference fit a Duration", () => {
    // The widest span is max - min seconds plus just under one second.
    expect(timestampSecondsMax - timestampSecondsMin).toBe(315_537_897_599);
    expect(timestampSecondsMax - timestampSecondsMin).toBeLessThan(durationSecondsMax);
    expect(timestampDiff(T(maxS, timestampNanosMax), T(minS, 0))).toEqual(D(315_537_897_599n, 999_999_999));
    expect(timestampDiff(T(minS, 0), T(maxS, timestampNanosMax))).toEqual(D(-315_537_897_599n, -999_999_999));
  });
});

describe("timestampFromJson", () => {
  it.each([
    ["1970-01-01T00:00:00Z", 0n, 0],
    ["1970-01-01T00:00:00.5Z", 0n, 500_000_000], // 1 fraction digit (min)
    ["1970-01-01T00:00:00.12Z", 0n, 120_000_000],
    ["1970-01-01T00:00:00.123Z", 0n, 123_000_000],
    ["1970-01-01T00:00:00.1234Z", 0n, 123_400_000],
    ["1970-01-01T00:00:00.12345Z", 0n, 123_450_000],
    ["1970-01-01T00:00:00.123456Z", 0n, 123_456_000],
    ["1970-01-01T00:00:00.1234567Z", 0n, 123_456_700],
    ["1970-01-01T00:00:00.12345678Z", 0n, 123_456_780],
    ["1970-01-01T00:00:00.123456789Z", 0n, 123_456_789], // 9 fraction digits (max)
    ["1970-01-01T00:00:00.000000000Z", 0n, 0],
    ["1970-01-01T00:00:00.000000001Z", 0n, 1],
    ["1969-12-31T23:59:59.999999999Z", -1n, 999_999_999],
    ["1969-12-31T23:59:59Z", -1n, 0],
    ["2024-02-29T12:00:00.010Z", 1_709_208_000n, 10_000_000],
    ["2000-02-29T00:00:00Z", 951_782_400n, 0], // divisible by 400: leap
    ["2023-02-28T00:00:00Z", 1_677_542_400n, 0],
    ["2024-01-31T00:00:00Z", 1_706_659_200n, 0], // day max of January
    ["2024-04-30T00:00:00Z", 1_714_435_200n, 0], // day max of April
    ["2024-12-31T23:59:59Z", 1_735_689_599n, 0], // month, day, hour, minute, second max
    ["2024-01-01T00:00:00Z", 1_704_067_200n, 0], // month, day min
    ["0001-01-01T00:00:00Z", minS, 0], // min
    ["9999-12-31T23:59:59.999999999Z", maxS, timestampNanosMax], // max
    ["0001-01-01T00:00:00-00:01", minS + 60n, 0],
    ["0001-01-01T00:01:00+00:01", minS, 0],
    ["0000-12-31T23:59:00-00:01", minS, 0], // year 0 before the offset, min after it
    ["0000-12-31T23:00:00-01:00", minS, 0],
    ["9999-12-31T23:58:59.999999999-00:01", maxS, timestampNanosMax], // max after the offset
    ["9999-12-31T23:59:59.999999999+00:00", maxS, timestampNanosMax],
    ["1970-01-01T00:00:00+01:00", -3600n, 0],
    ["1970-01-01T00:00:00-01:00", 3600n, 0],
    ["1970-01-01T00:00:00-00:00", 0n, 0],
    ["1970-01-01T00:00:00+23:59", -86_340n, 0], // offset max
    ["1970-01-01T00:00:00-23:59", 86_340n, 0],
    ["1970-01-01T01:00:00.5+01:00", 0n, 500_000_000],
  ])("parses %s", (text, seconds, nanos) => {
    expect(timestampFromJson(text)).toEqual(T(seconds, nanos));
  });

  it.each([
    ["1970-01-01t00:00:00Z", "syntax"], // lower-case t
    ["1970-01-01T00:00:00z", "syntax"], // lower-case z
    ["1970-01-01 00:00:00Z", "syntax"],
    [" 1970-01-01T00:00:00Z", "syntax"],
    ["1970-01-01T00:00:00Z ", "syntax"],
    ["1970-01-01T00:00:00 Z", "syntax"],
    ["1970-01-01T00:00:00", "syntax"], // no offset
    ["1970-01-01T00:00:00.5", "syntax"],
    ["1970-01-01T00:00:00.Z", "syntax"], // a dot must be followed by a digit
    ["1970-01-01T00:00:00.0000000001Z", "syntax"], // 10 fraction digits (max+1)
    ["1970-01-01T00:00:00.0000000000Z", "syntax"],
    ["1970-01-01T00:00:00,5Z", "syntax"],
    ["1970-1-01T00:00:00Z", "syntax"],
    ["1970-01-1T00:00:00Z", "syntax"],
    ["70-01-01T00:00:00Z", "syntax"],
    ["+01970-01-01T00:00:00Z", "syntax"],
    ["19700-01-01T00:00:00Z", "syntax"],
    ["1970-01-01T00:00Z", "syntax"],
    ["1970-01-01T0:00:00Z", "syntax"],
    ["1970-01-01", "syntax"],
    ["1970/01/01T00:00:00Z", "syntax"],
    ["1970-01-01T00.00.00Z", "syntax"],
    ["1970-01-01T00:00:00+0100", "syntax"],
    ["1970-01-01T00:00:00+01", "syntax"],
    ["1970-01-01T00:00:00+1:00", "syntax"],
    ["1970-01-01T00:00:00+01:00Z", "syntax"],
    ["1970-01-01T00:00:00+01:00:00", "syntax"],
    ["1970-01-01T00:00:00ZZ", "syntax"],
    ["1970-01-01T00:00:00UTC", "syntax"],
    ["1970-01-01T00:00:00\u2212\u0030\u0031:00", "syntax"], // Unicode minus
    ["\u0661970-01-01T00:00:00Z", "syntax"], // Arabic-Indic digit
    ["", "syntax"],
    ["Z", "syntax"],
    ["2024-02-30T00:00:00Z", "range"], // Feb 30
    ["2023-02-29T00:00:00Z", "range"], // Feb 29, not a leap year
    ["1900-02-29T00:00:00Z", "range"], // divisible by 100, not by 400
    ["2024-04-31T00:00:00Z", "range"], // day max+1 of April
    ["2024-01-32T00:00:00Z", "range"], // day max+1 of January
    ["2024-01-00T00:00:00Z", "range"], // day min-1
    ["2024-13-01T00:00:00Z", "range"], // month max+1
    ["2024-00-01T00:00:00Z", "range"], // month min-1
    ["2024-01-01T24:00:00Z", "range"], // hour max+1
    ["2024-01-01T23:60:00Z", "range"], // minute max+1
    ["2024-01-01T23:59:60Z", "range"], // second max+1 (no leap seconds)
    ["2024-01-01T00:00:00+24:00", "range"], // offset hour max+1
    ["2024-01-01T00:00:00-24:00", "range"],
    ["2024-01-01T00:00:00+00:60", "range"], // offset minute max+1
    ["0000-12-31T23:59:59Z", "range"], // min-1s
    ["0000-12-31T23:59:59.999999999Z", "range"], // min-1ns
    ["0001-01-01T00:00:00+00:01", "range"], // min-60s after the offset
    ["0001-01-01T00:00:59.999999999+00:01", "range"], // min-1ns after the offset
    ["0000-12-31T23:58:59.999999999-00:01", "range"],
    ["9999-12-31T23:59:59-00:01", "range"], // max+59s after the offset
    ["9999-12-31T23:59:00-00:01", "range"], // max+1ns after the offset
    ["0000-01-01T00:00:00Z", "range"],
  ])("rejects %j (%s)", (text, rule) => {
    expect(catchWkt(() => timestampFromJson(text))).toMatchObject({
      rule,
      jsonPath: "$",
      typeName: "google.protobuf.Timestamp",
    });
  });

  it.each([[0], [null], [undefined], [true], [{}], [[]], [1n], [new Date(0)]])(
    "rejects the non-string %s (json-type)",
    (json) => {
      expect(catchWkt(() => timestampFromJson(json))).toMatchObject({ rule: "json-type", jsonPath: "$" });
    },
  );

  it("builds the same object as create(TimestampSchema)", () => {
    expect(timestampFromJson("1969-12-31T23:59:59.5Z")).toEqual(
      create(TimestampSchema, { seconds: -1n, nanos: 500_000_000 }),
    );
    expect(timestampFromJson("1970-01-01T00:00:00Z")).toEqual(create(TimestampSchema));
    expect(Object.keys(timestampFromJson("1970-01-01T00:00:00Z"))).toEqual(Object.keys(create(TimestampSchema)));
  });
});

describe("timestampToJson", () => {
  it.each([
    [0n, 0, "1970-01-01T00:00:00Z"],
    [0n, 100_000_000, "1970-01-01T00:00:00.100Z"],
    [0n, 123_456_000, "1970-01-01T00:00:00.123456Z"],
    [0n, 1_000, "1970-01-01T00:00:00.000001Z"],
    [0n, 1, "1970-01-01T00:00:00.000000001Z"],
    [-1n, 999_999_999, "1969-12-31T23:59:59.999999999Z"],
    [1_709_208_000n, 10_000_000, "2024-02-29T12:00:00.010Z"],
    [951_782_400n, 0, "2000-02-29T00:00:00Z"],
    [951_868_800n, 0, "2000-03-01T00:00:00Z"],
    [-2_203_891_200n, 0, "1900-03-01T00:00:00Z"],
    [minS, 0, "0001-01-01T00:00:00Z"], // min
    [minS + 1n, 0, "0001-01-01T00:00:01Z"],
    [maxS, timestampNanosMax, "9999-12-31T23:59:59.999999999Z"], // max
    [maxS - 1n, 0, "9999-12-31T23:59:58Z"],
    [-59_042_995_200n, 0, "0099-01-01T00:00:00Z"],
  ])("formats %s s %s ns as %s", (seconds, nanos, text) => {
    expect(timestampToJson({ seconds, nanos })).toBe(text);
    expect(timestampToJson(create(TimestampSchema, { seconds, nanos }))).toBe(text);
  });

  // The date arithmetic runs on unsigned 32-bit integers (`>>> 0`): checked against Date for every day of
  // 1600-2400 and every 61st day of the whole range, at a second of the day that moves with the day, and for
  // every second of one day.
  it("agrees with Date#toISOString across the range", () => {
    const first = Math.ceil(timestampSecondsMin / 86_400);
    const last = Math.floor(timestampSecondsMax / 86_400);
    const from1600 = Math.floor(Date.UTC(1600, 0, 1) / 86_400_000);
    const to2400 = Math.floor(Date.UTC(2400, 0, 1) / 86_400_000);
    const wrong: string[] = [];
    const check = (seconds: number): void => {
      const expected = new Date(seconds * 1000).toISOString().replace(".000Z", "Z");
      const got = timestampToJson({ seconds: BigInt(seconds), nanos: 0 });
      if (got !== expected && wrong.length < 5) wrong.push(`${seconds}: ${got} != ${expected}`);
    };
    for (let day = first; day <= last; day += day >= from1600 && day < to2400 ? 1 : 61)
      check(day * 86_400 + ((((day * 7919) % 86_400) + 86_400) % 86_400));
    for (let s = 0; s < 86_400; s++) check(19_000 * 86_400 + s);
    check(timestampSecondsMin);
    check(timestampSecondsMax);
    expect(wrong).toEqual([]);
  });

  it("accepts seconds given as a safe-integer number", () => {
    expect(timestampToJson(junk({ seconds: -1, nanos: 0 }))).toBe("1969-12-31T23:59:59Z");
  });
});

const invalidTimestamps: [string, unknown][] = [
  ["seconds max+1", { seconds: maxS + 1n, nanos: 0 }],
  ["seconds min-1", { seconds: minS - 1n, nanos: 0 }],
  ["seconds 2^63", { seconds: 2n ** 63n, nanos: 0 }],
  ["seconds -(2^1000)", { seconds: -(2n ** 1000n), nanos: 0 }],
  ["nanos max+1", { seconds: 0n, nanos: timestampNanosMax + 1 }],
  ["nanos min-1", { seconds: 0n, nanos: -1 }],
  ["negative seconds, negative nanos", { seconds: -1n, nanos: -1 }],
  ["nanos 0.5", { seconds: 0n, nanos: 0.5 }],
  ["nanos NaN", { seconds: 0n, nanos: NaN }],
  ["nanos a string", { seconds: 0n, nanos: "0" }],
  ["nanos missing", { seconds: 0n }],
  ["seconds missing", { nanos: 0 }],
  ["seconds 0.5", { seconds: 0.5, nanos: 0 }],
  ["seconds NaN", { seconds: NaN, nanos: 0 }],
  ["seconds a string", { seconds: "0", nanos: 0 }],
  ["seconds an object", { seconds: {}, nanos: 0 }],
  ["null", null],
  ["undefined", undefined],
  ["a Date", new Date(0)],
  ["a string", "1970-01-01T00:00:00Z"],
];

describe("timestampCheck / timestampIsValid", () => {
  it.each(invalidTimestamps)("rejects %s", (_label, value) => {
    expect(catchWkt(() => timestampCheck(junk(value)))).toMatchObject({ rule: "range", jsonPath: "$" });
    expect(catchWkt(() => timestampToJson(junk(value)))).toMatchObject({ rule: "range", jsonPath: "$" });
    for (const f of [timestampToMs, timestampToDate, timestampToMicros, timestampToNanos]) {
      expect(catchWkt(() => f(junk(value)))).toMatchObject({ rule: "range", jsonPath: "$" });
    }
    expect(timestampIsValid(junk(value))).toBe(false);
  });

  it.each([
    ["min", { seconds: minS, nanos: 0 }],
    ["max", { seconds: maxS, nanos: timestampNanosMax }],
    ["negative seconds keep non-negative nanos", { seconds: -1n, nanos: 999_999_999 }],
    ["-0 nanos", { seconds: 0n, nanos: -0 }],
  ])("accepts %s", (_label, value) => {
    expect(() => timestampCheck(value)).not.toThrow();
    expect(timestampIsValid(value)).toBe(true);
  });
});

describe("conversions", () => {
  it.each([
    [0, 0n, 0],
    [-1, -1n, 999_000_000],
    [1, 0n, 1_000_000],
    [-1001, -2n, 999_000_000],
    [1.5, 0n, 1_500_000],
    [-0.000001, -1n, 999_999_999],
    [-0, 0n, 0],
    [timestampSecondsMin * 1000, minS, 0], // min
    [timestampSecondsMax * 1000 + 999, maxS, 999_000_000], // max in whole ms
    [timestampSecondsMax * 1000 + 999.5, maxS, 999_500_000], // a double this large steps by 1/32 ms
  ])("timestampFromMs(%s)", (ms, seconds, nanos) => {
    const ts = timestampFromMs(ms);
    expect(ts).toEqual(T(seconds, nanos));
    expect(Object.is(ts.nanos, -0)).toBe(false);
  });

  it.each([
    [timestampSecondsMin * 1000 - 1], // min-1
    [timestampSecondsMax * 1000 + 1000], // max+1
    [timestampSecondsMin * 1000 - 0.5],
    [8.64e15],
    [1e300],
    [NaN],
    [Infinity],
    ["0"],
    [0n],
  ])("timestampFromMs(%s) is out of range", (ms) => {
    expect(catchWkt(() => timestampFromMs(ms as number))).toMatchObject({ rule: "range", jsonPath: "$" });
  });

  it.each([
    [0n, 0, 0],
    [-1n, 999_999_999, -1],
    [-1n, 0, -1000],
    [0n, 1_999_999, 1],
    [maxS, timestampNanosMax, timestampSecondsMax * 1000 + 999],
  ])("timestampToMs(%s s %s ns) floors to %s", (seconds, nanos, ms) => {
    expect(timestampToMs({ seconds, nanos })).toBe(ms);
    expect(timestampToDate({ seconds, nanos }).getTime()).toBe(ms);
  });

  it("converts Dates both ways", () => {
    const d = new Date("1969-12-31T23:59:59.999Z");
    expect(timestampFromDate(d)).toEqual(T(-1n, 999_000_000));
    expect(timestampToDate(timestampFromDate(d))).toEqual(d);
    expect(timestampFromDate(new Date("0001-01-01T00:00:00Z"))).toEqual(T(minS, 0));
    expect(timestampFromDate(new Date("9999-12-31T23:59:59.999Z"))).toEqual(T(maxS, 999_000_000));
  });

  it.each([
    ["an invalid Date", new Date(NaN)],
    ["a Date before year 1", new Date("0000-12-31T23:59:59.999Z")],
    ["a Date after year 9999", new Date(8.64e15)],
    ["a number", 0],
    ["a Date-like object", { getTime: (): number => 0 }],
    ["null", null],
  ])("timestampFromDate rejects %s", (_label, value) => {
    expect(catchWkt(() => timestampFromDate(value as Date))).toMatchObject({ rule: "range", jsonPath: "$" });
  });

  const nanosMin = minS * 1_000_000_000n;
  const nanosMax = maxS * 1_000_000_000n + 999_999_999n;
  it.each([
    [0n, 0n, 0],
    [-1n, -1n, 999_999_999],
    [1_000_000_001n, 1n, 1],
    [nanosMin, minS, 0], // min
    [nanosMax, maxS, timestampNanosMax], // max
  ])("timestampFromNanos(%s)", (ns, seconds, nanos) => {
    expect(timestampFromNanos(ns)).toEqual(T(seconds, nanos));
    expect(timestampToNanos({ seconds, nanos })).toBe(ns);
  });

  it.each([[nanosMin - 1n], [nanosMax + 1n], [2n ** 100n], [-(2n ** 100n)], [0], ["0"], [null]])(
    "timestampFromNanos(%s) is out of range",
    (ns) => {
      expect(catchWkt(() => timestampFromNanos(ns as bigint))).toMatchObject({ rule: "range", jsonPath: "$" });
    },
  );

  it.each([
    [0n, 0n, 0],
    [-1n, -1n, 999_999_000],
    [1_000_001n, 1n, 1000],
    [minS * 1_000_000n, minS, 0], // min
    [maxS * 1_000_000n + 999_999n, maxS, 999_999_000], // max
  ])("timestampFromMicros(%s)", (us, seconds, nanos) => {
    expect(timestampFromMicros(us)).toEqual(T(seconds, nanos));
    expect(timestampToMicros({ seconds, nanos })).toBe(us);
  });

  it.each([[minS * 1_000_000n - 1n], [maxS * 1_000_000n + 1_000_000n], [0], [null]])(
    "timestampFromMicros(%s) is out of range",
    (us) => {
      expect(catchWkt(() => timestampFromMicros(us as bigint))).toMatchObject({ rule: "range", jsonPath: "$" });
    },
  );

  it("floors to microseconds", () => {
    expect(timestampToMicros({ seconds: -1n, nanos: 999_999_999 })).toBe(-1n);
  });

  it("timestampNow is close to Date.now()", () => {
    const before = Date.now();
    const now = timestampToMs(timestampNow());
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });
});

describe("arithmetic", () => {
  it.each([
    [T(0n, 0), D(0n, -1), T(-1n, 999_999_999)],
    [T(0n, 999_999_999), D(0n, 1), T(1n, 0)],
    [T(-1n, 500_000_000), D(-1n, -600_000_000), T(-3n, 900_000_000)],
    [T(10n, 0), D(-10n, 0), T(0n, 0)],
    [T(minS, 0), D(1n, 0), T(minS + 1n, 0)],
    [T(maxS, 999_999_998), D(0n, 1), T(maxS, timestampNanosMax)], // max
    [T(minS, 1), D(0n, -1), T(minS, 0)], // min
    [T(minS, 0), D(315_537_897_599n, 999_999_999), T(maxS, timestampNanosMax)],
  ])("timestampAdd(%o, %o)", (ts, d, sum) => {
    expect(timestampAdd(ts, d)).toEqual(sum);
    expect(timestampSubtract(sum, d)).toEqual(ts);
    expect(timestampDiff(sum, ts)).toEqual(create(DurationSchema, { seconds: d.seconds, nanos: d.nanos }));
  });

  it.each([
    [T(maxS, timestampNanosMax), D(0n, 1)], // max+1
    [T(minS, 0), D(0n, -1)], // min-1
    [T(0n, 0), D(BigInt(durationSecondsMax), durationNanosMax)],
    [T(0n, 0), D(-BigInt(durationSecondsMax), durationNanosMin)],
  ])("timestampAdd(%o, %o) is out of range", (ts, d) => {
    expect(catchWkt(() => timestampAdd(ts, d))).toMatchObject({ rule: "range", jsonPath: "$" });
  });

  it.each([
    [T(maxS, timestampNanosMax), D(0n, -1)],
    [T(minS, 0), D(0n, 1)],
  ])("timestampSubtract(%o, %o) is out of range", (ts, d) => {
    expect(catchWkt(() => timestampSubtract(ts, d))).toMatchObject({ rule: "range", jsonPath: "$" });
  });

  it("rejects invalid operands", () => {
    const badD = D(1n, -1) as DurationLike;
    expect(catchWkt(() => timestampAdd(T(0n, 0), badD))).toMatchObject({ rule: "sign", jsonPath: "$" });
    expect(catchWkt(() => timestampSubtract(T(0n, 0), badD))).toMatchObject({ rule: "sign", jsonPath: "$" });
    const badT = T(0n, -1);
    expect(catchWkt(() => timestampAdd(badT, D(0n, 0)))).toMatchObject({ rule: "range" });
    expect(catchWkt(() => timestampDiff(badT, T(0n, 0)))).toMatchObject({ rule: "range" });
    expect(catchWkt(() => timestampDiff(T(0n, 0), badT))).toMatchObject({ rule: "range" });
    expect(catchWkt(() => timestampCompare(badT, T(0n, 0)))).toMatchObject({ rule: "range" });
  });

  it.each([
    [T(1n, 0), T(0n, 0), D(1n, 0)],
    [T(0n, 0), T(0n, 500_000_000), D(0n, -500_000_000)],
    [T(0n, 0), T(-1n, 500_000_000), D(0n, 500_000_000)],
    [T(-1n, 0), T(0n, 500_000_000), D(-1n, -500_000_000)],
    [T(5n, 1), T(3n, 2), D(1n, 999_999_999)],
  ])("timestampDiff(%o, %o)", (a, b, d) => {
    expect(timestampDiff(a, b)).toEqual(d);
  });

  it.each([
    [T(0n, 0), T(0n, 0), 0],
    [T(-1n, 999_999_999), T(0n, 0), -1],
    [T(0n, 1), T(0n, 0), 1],
    [T(minS, 0), T(maxS, timestampNanosMax), -1],
  ])("timestampCompare(%o, %o) is %s", (a, b, c) => {
    expect(timestampCompare(a, b)).toBe(c);
    expect(timestampCompare(b, a)).toBe(c === 0 ? 0 : -c);
  });
});

describe("against @bufbuild/protobuf", () => {
  it.each([
    ["1970-01-01T00:00:00Z"],
    ["1969-12-31T23:59:59.999999999Z"],
    ["0001-01-01T00:00:00Z"],
    ["9999-12-31T23:59:59.999999999Z"],
    ["2024-02-29T12:00:00.010+05:30"],
    ["0001-01-01T00:00:00-00:01"],
  ])("agrees on %s", (text) => {
    const ours = timestampFromJson(text);
    expect(ours).toEqual(fromJson(TimestampSchema, text));
    expect(timestampToJson(ours)).toBe(toJson(TimestampSchema, ours));
  });

  // Spec rule 6: a Timestamp is a point "on the proleptic Gregorian calendar", which has no February 30 and no
  // hour 24 ("two-digit zero-padded" hh of RFC 3339 runs 00 to 23). @bufbuild/protobuf hands the text to
  // Date.parse, which rolls these over to the next day.
  it.each([
    ["2024-02-30T00:00:00Z", "2024-03-01T00:00:00Z"],
    ["2023-02-29T00:00:00Z", "2023-03-01T00:00:00Z"],
    ["2024-04-31T00:00:00Z", "2024-05-01T00:00:00Z"],
    ["2024-01-01T24:00:00Z", "2024-01-02T00:00:00Z"],
  ])("rejects %s, which @bufbuild/protobuf reads as %s", (text, rolled) => {
    expect(toJson(TimestampSchema, fromJson(TimestampSchema, text))).toBe(rolled);
    expect(catchWkt(() => timestampFromJson(text))).toMatchObject({ rule: "range", jsonPath: "$" });
  });

  // Both reject lower-case letters, 10 fraction digits, and offsets beyond 23:59.
  it.each([
    ["1970-01-01T00:00:00z"],
    ["1970-01-01t00:00:00Z"],
    ["1970-01-01T00:00:00.0000000001Z"],
    ["1970-01-01T00:00:00+24:00"],
  ])("both reject %s", (text) => {
    expect(() => fromJson(TimestampSchema, text)).toThrow();
    catchWkt(() => timestampFromJson(text));
  });
});

describe("the path option", () => {
  it.each([
    ["2023-02-29T00:00:00Z", "range"],
    ["2024-01-01", "syntax"],
    [5, "json-type"],
  ])("timestampFromJson(%j) reports its error at the given path (%s)", (json, rule) => {
    expect(catchWkt(() => timestampFromJson(json, { path: "$.dueAt" }))).toMatchObject({ rule, jsonPath: "$.dueAt" });
    expect(catchWkt(() => timestampFromJson(json, { path: '$.items[2]["due at"]' }))).toMatchObject({
      rule,
      jsonPath: '$.items[2]["due at"]',
      typeName: "google.protobuf.Timestamp",
    });
  });

  it("timestampToJson reports its error at the given path", () => {
    expect(catchWkt(() => timestampToJson({ seconds: 0n, nanos: -1 }, { path: "$.dueAt" }))).toMatchObject({
      rule: "range",
      jsonPath: "$.dueAt",
    });
    expect(catchWkt(() => timestampToJson(junk(null), { path: "$.dueAt" }))).toMatchObject({
      rule: "range",
      jsonPath: "$.dueAt",
    });
  });

  it("changes nothing for valid values, and is $ by default", () => {
    expect(timestampFromJson("1970-01-01T00:00:00Z", { path: "$.dueAt" })).toEqual(
      timestampFromJson("1970-01-01T00:00:00Z"),
    );
    expect(timestampToJson({ seconds: 0n, nanos: 0 }, { path: "$.dueAt" })).toBe("1970-01-01T00:00:00Z");
    expect(catchWkt(() => timestampFromJson("x", {}))).toMatchObject({ jsonPath: "$" });
    expect(catchWkt(() => timestampFromJson("x", { path: undefined }))).toMatchObject({ jsonPath: "$" });
    expect(catchWkt(() => timestampFromJson("x", { path: "$" }))).toMatchObject({ jsonPath: "$" });
  });

  it.each([[""], ["dueAt"], [".dueAt"], [" $.dueAt"], [5], [null], [true], [{}], [Symbol("p")]])(
    "rejects the path %s (range), valid value or not",
    (path) => {
      const options = { path } as unknown as { path: string };
      expect(catchWkt(() => timestampFromJson("1970-01-01T00:00:00Z", options))).toMatchObject({
        rule: "range",
        jsonPath: "$",
      });
      expect(catchWkt(() => timestampFromJson("x", options))).toMatchObject({ rule: "range", jsonPath: "$" });
      expect(catchWkt(() => timestampToJson({ seconds: 0n, nanos: 0 }, options))).toMatchObject({
        rule: "range",
        jsonPath: "$",
      });
    },
  );

  it("leaves Array.prototype.map working (the index is not a path)", () => {
    expect(["1970-01-01T00:00:00Z", "1970-01-01T00:00:01Z"].map(timestampFromJson).map(timestampToJson)).toEqual([
      "1970-01-01T00:00:00Z",
      "1970-01-01T00:00:01Z",
    ]);
    expect(catchWkt(() => ["1970-01-01T00:00:00Z", "x"].map(timestampFromJson))).toMatchObject({
      rule: "syntax",
      jsonPath: "$",
    });
  });
});

describe("timestampFromJsonNullable and timestampToJsonNullable: null is never", () => {
  it("reads null as unset and a string as timestampFromJson does", () => {
    expect(timestampFromJsonNullable(null)).toBeUndefined();
    expect(timestampFromJsonNullable(null, { path: "$.date_updated" })).toBeUndefined();
    expect(timestampFromJsonNullable("2015-07-06T15:33:38-07:00")).toEqual(timestampFromJson("2015-07-06T22:33:38Z"));
  });

  it.each<[unknown, string]>([
    [undefined, "json-type"], // a member left out is not null: the caller tells "not sent" first
    [0, "json-type"],
    [{}, "json-type"],
    ["", "syntax"],
    ["2023-02-29T00:00:00Z", "range"],
    ["never", "syntax"],
  ])("refuses %j (%s), at $ or at the path given", (json, rule) => {
    expect(catchWkt(() => timestampFromJsonNullable(json))).toMatchObject({ rule, jsonPath: "$" });
    expect(catchWkt(() => timestampFromJsonNullable(json, { path: "$.throttled_at" }))).toMatchObject({
      rule,
      jsonPath: "$.throttled_at",
    });
  });

  it("writes unset (undefined or null) as null and a Timestamp as its string", () => {
    expect(timestampToJsonNullable(undefined)).toBeNull();
    expect(timestampToJsonNullable(null)).toBeNull();
    expect(timestampToJsonNullable(T(1709208000n, 0))).toBe("2024-02-29T12:00:00Z");
    expect(timestampToJsonNullable(T(0n, 0), { path: "$.date_updated" })).toBe("1970-01-01T00:00:00Z");
  });

  it("refuses an invalid Timestamp, and a bad path option also when unset", () => {
    expect(catchWkt(() => timestampToJsonNullable(T(0n, -1)))).toMatchObject({ rule: "range", jsonPath: "$" });
    expect(catchWkt(() => timestampToJsonNullable(T(0n, -1), { path: "$.date_updated" }))).toMatchObject({
      rule: "range",
      jsonPath: "$.date_updated",
    });
    expect(catchWkt(() => timestampToJsonNullable(undefined, { path: "date_updated" }))).toMatchObject({
      rule: "range",
      jsonPath: "$",
    });
  });

  it("round-trips: null -> unset -> null, a string -> a Timestamp -> the canonical string", () => {
    for (const json of [null, "2015-07-06T22:33:38Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z"]) {
      expect(timestampToJsonNullable(timestampFromJsonNullable(json))).toBe(json);
    }
    expect([null, "1970-01-01T00:00:00Z"].map(timestampFromJsonNullable).map(timestampToJsonNullable)).toEqual([
      null,
      "1970-01-01T00:00:00Z",
    ]);
  });
});

describe("timestampFromSeconds: epoch seconds as a number or its text", () => {
  it.each<[number | string, bigint, number]>([
    ["1700000000", 1_700_000_000n, 0],
    ["1700000000.5", 1_700_000_000n, 500_000_000],
    ["1700000000.123456789", 1_700_000_000n, 123_456_789], // 9 fraction digits (max), every one kept
    ["0", 0n, 0],
    ["-0", 0n, 0],
    ["0.000000001", 0n, 1],
    ["-0.000000001", -1n, 999_999_999],
    ["-1.5", -2n, 500_000_000],
    ["-62135596800", minS, 0], // 0001-01-01T00:00:00Z (min)
    ["253402300799.999999999", maxS, 999_999_999], // 9999-12-31T23:59:59.999999999Z (max)
    [1_700_000_000, 1_700_000_000n, 0],
    [1.5, 1n, 500_000_000],
    [-1.5, -2n, 500_000_000],
    [0.1, 0n, 100_000_000], // from the text "0.1", not 0.1 * 1e9's double
    [1700000000.1234567, 1_700_000_000n, 123_456_700], // the number's shortest decimal form
    [-0, 0n, 0],
    [timestampSecondsMin, minS, 0],
    [timestampSecondsMax + 0.5, maxS, 500_000_000],
    [1e-10, 0n, 0], // below a nanosecond: rounded to the nearest
  ])("%s gives seconds %s, nanos %s", (value, seconds, nanos) => {
    expect(timestampFromSeconds(value)).toEqual(T(seconds, nanos));
  });

  it.each<[unknown, string]>([
    ["", "syntax"],
    ["-", "syntax"],
    ["+1700000000", "syntax"],
    ["01700000000", "syntax"], // a leading zero
    ["1700000000.", "syntax"],
    [".5", "syntax"],
    ["1700000000.1234567891", "syntax"], // 10 fraction digits
    ["1.7e9", "syntax"],
    ["1700000000E0", "syntax"],
    [" 1700000000", "syntax"],
    ["1700000000 ", "syntax"],
    ["0x10", "syntax"],
    ["1_700_000_000", "syntax"],
    ["Infinity", "syntax"],
    ["-62135596800.000000001", "range"], // min - 1 ns
    ["-62135596801", "range"],
    ["253402300800", "range"], // max + 1 ns
    ["1" + "0".repeat(12), "range"], // 13 digits
    ["9".repeat(10_000), "range"],
    [timestampSecondsMin - 0.5, "range"],
    [timestampSecondsMax + 1, "range"],
    [NaN, "range"],
    [Infinity, "range"],
    [-Infinity, "range"],
    [1e300, "range"],
    [null, "json-type"],
    [true, "json-type"],
    [1_700_000_000n, "json-type"],
    [{}, "json-type"],
    [undefined, "json-type"],
  ])("refuses %s (%s), at $ or at the path given", (value, rule) => {
    expect(catchWkt(() => timestampFromSeconds(value as string))).toMatchObject({ rule, jsonPath: "$" });
    expect(catchWkt(() => timestampFromSeconds(value as string, { path: "$.reset" }))).toMatchObject({
      rule,
      jsonPath: "$.reset",
    });
  });

  it("reads a header's value, and leaves Array.prototype.map working", () => {
    const headers = new Headers({ "x-ratelimit-reset": " 1700000000 " }); // Headers strips the white space
    expect(timestampToJson(timestampFromSeconds(headers.get("x-ratelimit-reset")!))).toBe("2023-11-14T22:13:20Z");
    expect(["1", 2].map(timestampFromSeconds).map(timestampToJson)).toEqual([
      "1970-01-01T00:00:01Z",
      "1970-01-01T00:00:02Z",
    ]);
  });
});
