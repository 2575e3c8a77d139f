import { create, fromJson, toJson } from "@bufbuild/protobuf";
import { DurationSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import {
  durationAbs,
  durationAdd,
  durationCheck,
  durationCompare,
  durationFromJson,
  durationFromMs,
  durationFromNanos,
  durationFromSeconds,
  durationIsValid,
  durationNegate,
  durationSubtract,
  durationToJson,
  durationToMs,
  durationToNanos,
  durationToSeconds,
  type DurationLike,
} from "../src/wkt/duration.js";
import { bigintOf } from "../src/wkt/seconds-nanos.js";
import { durationNanosMax, durationNanosMin, durationSecondsMax, durationSecondsMin } from "../src/limits.js";
import { catchWkt } from "./helpers.js";

const maxS = BigInt(durationSecondsMax);
const minS = BigInt(durationSecondsMin);
const D = (seconds: bigint, nanos: number) => ({ $typeName: "google.protobuf.Duration", seconds, nanos });
/** Lets tests hand garbage to functions typed for Durations. */
const junk = (v: unknown) => v as DurationLike;

describe("durationFromJson", () => {
  it.each([
    ["0s", 0n, 0],
    ["-0s", 0n, 0],
    ["-0.0s", 0n, 0],
    ["1s", 1n, 0],
    ["-1s", -1n, 0],
    ["10s", 10n, 0],
    ["0.5s", 0n, 500_000_000],
    ["-0.5s", 0n, -500_000_000],
    ["1.5s", 1n, 500_000_000],
    ["-1.5s", -1n, -500_000_000],
    ["1.000340012s", 1n, 340_012],
    ["100.100s", 100n, 100_000_000],
    ["0.1s", 0n, 100_000_000], // 1 fraction digit (min)
    ["0.123456789s", 0n, 123_456_789], // 9 fraction digits (max)
    ["0.000000001s", 0n, 1],
    ["-0.000000001s", 0n, -1],
    ["0.999999999s", 0n, durationNanosMax],
    ["-0.999999999s", 0n, durationNanosMin],
    ["315576000000s", maxS, 0], // seconds max
    ["315576000000.999999999s", maxS, durationNanosMax],
    ["315575999999.999999999s", maxS - 1n, durationNanosMax],
    ["-315576000000s", minS, 0], // seconds min
    ["-315576000000.999999999s", minS, durationNanosMin],
  ])("parses %s", (text, seconds, nanos) => {
    const d = durationFromJson(text);
    expect(d).toEqual(D(seconds, nanos));
    expect(Object.is(d.nanos, -0)).toBe(false);
  });

  it.each([
    ["1.s", "syntax"], // a dot must be followed by a digit
    [".5s", "syntax"],
    ["-.5s", "syntax"],
    ["+1s", "syntax"],
    [" 1s", "syntax"],
    ["1s ", "syntax"],
    ["1 s", "syntax"],
    ["1sabc", "syntax"], // @bufbuild/protobuf accepts this (no end anchor)
    ["1ss", "syntax"],
    ["1", "syntax"],
    ["1.5", "syntax"],
    ["1S", "syntax"],
    ["", "syntax"],
    ["s", "syntax"],
    ["-", "syntax"],
    ["-s", "syntax"],
    ["--1s", "syntax"],
    ["1.0000000001s", "syntax"], // 10 fraction digits (max+1)
    ["0.0000000000s", "syntax"],
    ["01s", "syntax"], // leading zero, as protobuf-go
    ["-01s", "syntax"],
    ["00s", "syntax"],
    ["00.5s", "syntax"],
    ["1e3s", "syntax"],
    ["0x10s", "syntax"],
    ["1,5s", "syntax"],
    ["1.5.5s", "syntax"],
    ["\u0661s", "syntax"], // Arabic-Indic digit one
    ["\u22121s", "syntax"], // Unicode minus
    ["Infinitys", "syntax"],
    ["NaNs", "syntax"],
    ["315576000001s", "range"], // seconds max+1
    ["-315576000001s", "range"], // seconds min-1
    ["315576000001.5s", "range"],
    ["999999999999999999999999s", "range"],
    ["1" + "0".repeat(400) + "s", "range"],
  ])("rejects %j (%s)", (text, rule) => {
    expect(catchWkt(() => durationFromJson(text))).toMatchObject({
      rule,
      jsonPath: "$",
      typeName: "google.protobuf.Duration",
    });
  });

  it.each([[1], [null], [undefined], [true], [{}], [[]], [1n], [{ seconds: 1n, nanos: 0 }]])(
    "rejects the non-string %s (json-type)",
    (json) => {
      expect(catchWkt(() => durationFromJson(json))).toMatchObject({ rule: "json-type", jsonPath: "$" });
    },
  );

  it.each([
    "1s5s",
    "0s5s",
    "0.s",
    "0.5",
    "5.5ss",
    "1.5sx",
    "1.-5s",
    "1.5-s",
    "-1-s",
    "0-s",
    "1.123456789123s",
    "1.\u0661s",
  ])("rejects %j (syntax)", (text) => {
    expect(catchWkt(() => durationFromJson(text))).toMatchObject({ rule: "syntax", jsonPath: "$" });
  });

  it("accepts exactly the strings of the grammar, with their values (every string of up to 6 characters of -0159.s)", () => {
    const grammar = /^(-?)(0|[1-9][0-9]*)(?:\.([0-9]{1,9}))?s$/;
    const alphabet = ["-", "0", "1", "5", "9", ".", "s"];
    let texts = [""];
    for (let len = 1; len <= 6; len++) {
      texts = texts.flatMap((t) => alphabet.map((c) => t + c));
      for (const text of texts) {
        const m = grammar.exec(text);
        if (m === null) {
          expect(catchWkt(() => durationFromJson(text)).rule).toBe("syntax");
          continue;
        }
        const nanos = Number((m[3] ?? "").padEnd(9, "0"));
        const neg = m[1] === "-";
        expect(durationFromJson(text)).toEqual(
          D(neg ? -BigInt(m[2]!) : BigInt(m[2]!), neg && nanos !== 0 ? -nanos : nanos),
        );
      }
    }
  }, 60_000); // about 120,000 strings, each through expect: seconds on a busy machine

  it("builds the same object as create(DurationSchema)", () => {
    expect(durationFromJson("-1.5s")).toEqual(create(DurationSchema, { seconds: -1n, nanos: -500_000_000 }));
    expect(durationFromJson("0s")).toEqual(create(DurationSchema));
    expect(Object.keys(durationFromJson("1s"))).toEqual(Object.keys(create(DurationSchema)));
  });
});

describe("durationToJson", () => {
  it.each([
    [0n, 0, "0s"],
    [1n, 0, "1s"],
    [-1n, 0, "-1s"],
    [0n, -500_000_000, "-0.500s"],
    [0n, 500_000_000, "0.500s"],
    [1n, 1_000_000, "1.001s"],
    [1n, 1_000, "1.000001s"],
    [1n, 1, "1.000000001s"],
    [1n, 340_012, "1.000340012s"],
    [-1n, -1, "-1.000000001s"],
    [0n, durationNanosMax, "0.999999999s"], // nanos max
    [0n, durationNanosMin, "-0.999999999s"], // nanos min
    [maxS, 0, "315576000000s"], // seconds max
    [maxS, durationNanosMax, "315576000000.999999999s"],
    [minS, 0, "-315576000000s"], // seconds min
    [minS, durationNanosMin, "-315576000000.999999999s"],
  ])("formats %s s %s ns as %s", (seconds, nanos, text) => {
    expect(durationToJson({ seconds, nanos })).toBe(text);
    expect(durationToJson(create(DurationSchema, { seconds, nanos }))).toBe(text);
  });

  it("accepts seconds given as a safe-integer number", () => {
    expect(durationToJson(junk({ seconds: -2, nanos: -5 }))).toBe("-2.000000005s");
  });

  it("prints -0 nanos as zero", () => {
    expect(durationToJson({ seconds: 0n, nanos: -0 })).toBe("0s");
  });
});

/** Invalid Durations for durationToJson and durationCheck: [label, value, rule]. */
const invalidDurations: [string, unknown, string][] = [
  ["seconds max+1", { seconds: maxS + 1n, nanos: 0 }, "range"],
  ["seconds min-1", { seconds: minS - 1n, nanos: 0 }, "range"],
  ["seconds 2^63", { seconds: 2n ** 63n, nanos: 0 }, "range"],
  ["seconds 2^1000", { seconds: 2n ** 1000n, nanos: 0 }, "range"],
  ["nanos max+1", { seconds: 0n, nanos: durationNanosMax + 1 }, "range"],
  ["nanos min-1", { seconds: 0n, nanos: durationNanosMin - 1 }, "range"],
  ["nanos 1.5", { seconds: 0n, nanos: 1.5 }, "range"],
  ["nanos NaN", { seconds: 0n, nanos: NaN }, "range"],
  ["nanos Infinity", { seconds: 0n, nanos: Infinity }, "range"],
  ["nanos a string", { seconds: 0n, nanos: "1" }, "range"],
  ["nanos a bigint", { seconds: 0n, nanos: 1n }, "range"],
  ["nanos missing", { seconds: 0n }, "range"],
  ["seconds missing", { nanos: 0 }, "range"],
  ["seconds 1.5", { seconds: 1.5, nanos: 0 }, "range"],
  ["seconds NaN", { seconds: NaN, nanos: 0 }, "range"],
  ["seconds 2^53", { seconds: 2 ** 53, nanos: 0 }, "range"],
  ["seconds a string", { seconds: "1", nanos: 0 }, "range"],
  ["seconds null", { seconds: null, nanos: 0 }, "range"],
  ["null", null, "range"],
  ["undefined", undefined, "range"],
  ["a number", 1, "range"],
  ["a string", "1s", "range"],
  ["positive seconds, negative nanos", { seconds: 1n, nanos: -1 }, "sign"],
  ["negative seconds, positive nanos", { seconds: -1n, nanos: 1 }, "sign"],
  ["seconds max, nanos min", { seconds: maxS, nanos: durationNanosMin }, "sign"],
  ["seconds min, nanos max", { seconds: minS, nanos: durationNanosMax }, "sign"],
];

/** Valid edge Durations: [label, value]. */
const validDurations: [string, DurationLike][] = [
  ["zero", { seconds: 0n, nanos: 0 }],
  ["seconds 0, nanos min", { seconds: 0n, nanos: durationNanosMin }],
  ["seconds 0, nanos max", { seconds: 0n, nanos: durationNanosMax }],
  ["seconds max", { seconds: maxS, nanos: durationNanosMax }],
  ["seconds min", { seconds: minS, nanos: durationNanosMin }],
  ["negative both", { seconds: -1n, nanos: -1 }],
  ["positive both", { seconds: 1n, nanos: 1 }],
  ["negative seconds, zero nanos", { seconds: -1n, nanos: 0 }],
];

describe("durationCheck / durationIsValid", () => {
  it.each(invalidDurations)("rejects %s", (_label, value, rule) => {
    expect(catchWkt(() => durationCheck(junk(value)))).toMatchObject({ rule, jsonPath: "$" });
    expect(catchWkt(() => durationToJson(junk(value)))).toMatchObject({ rule, jsonPath: "$" });
    expect(durationIsValid(junk(value))).toBe(false);
  });

  it.each(validDurations)("accepts %s", (_label, value) => {
    expect(() => durationCheck(value)).not.toThrow();
    expect(durationIsValid(value)).toBe(true);
  });
});

describe("conversions", () => {
  const maxNanos = maxS * 1_000_000_000n + 999_999_999n;
  it.each([
    [0n, 0n, 0],
    [1n, 0n, 1],
    [-1n, 0n, -1],
    [1_000_000_000n, 1n, 0],
    [-1_500_000_000n, -1n, -500_000_000],
    [maxNanos, maxS, durationNanosMax],
    [-maxNanos, minS, durationNanosMin],
  ])("durationFromNanos(%s)", (ns, seconds, nanos) => {
    expect(durationFromNanos(ns)).toEqual(D(seconds, nanos));
    expect(durationToNanos({ seconds, nanos })).toBe(ns);
  });

  it.each([[maxNanos + 1n], [-maxNanos - 1n], [2n ** 200n], [-(2n ** 200n)]])(
    "durationFromNanos(%s) is out of range",
    (ns) => {
      expect(catchWkt(() => durationFromNanos(ns))).toMatchObject({ rule: "range", jsonPath: "$" });
    },
  );

  it.each([[1], ["1"], [null], [1.5]])("durationFromNanos(%j) rejects a non-bigint", (v) => {
    expect(catchWkt(() => durationFromNanos(v as unknown as bigint))).toMatchObject({ rule: "range", jsonPath: "$" });
  });

  it.each([
    [0, 0n, 0],
    [1500, 1n, 500_000_000],
    [-1500, -1n, -500_000_000],
    [-1, 0n, -1_000_000],
    [1.5, 0n, 1_500_000],
    [0.000001, 0n, 1],
    [-0.000001, 0n, -1],
    [0.0000004, 0n, 0],
    [0.0000005, 0n, 1], // tie rounds away from zero
    [-0.0000005, 0n, -1],
    [-0, 0n, 0],
    [315_576_000_000_999, maxS, 999_000_000], // max in whole ms
    [-315_576_000_000_999, minS, -999_000_000],
    [315_576_000_000_999.9, maxS, 999_900_000],
  ])("durationFromMs(%s)", (ms, seconds, nanos) => {
    const d = durationFromMs(ms);
    expect(d).toEqual(D(seconds, nanos));
    expect(Object.is(d.nanos, -0)).toBe(false);
  });

  it.each([[315_576_000_001_000], [-315_576_000_001_000], [1e300], [NaN], [Infinity], [-Infinity], ["1"], [1n]])(
    "durationFromMs(%s) is out of range",
    (ms) => {
      expect(catchWkt(() => durationFromMs(ms as number))).toMatchObject({ rule: "range", jsonPath: "$" });
    },
  );

  it.each([
    [0n, 0, 0],
    [1n, 500_000, 1000.5],
    [0n, -1, -0.000001],
    [-1n, -500_000_000, -1500],
    [0n, 31_000_000, 31],
  ])("durationToMs(%s s %s ns)", (seconds, nanos, ms) => {
    expect(durationToMs({ seconds, nanos })).toBe(ms);
  });

  it.each([
    [0.031, 0n, 31_000_000], // not 30,999,999
    [0.1 + 0.2, 0n, 300_000_000], // 0.30000000000000004
    [1.0000000005, 1n, 1], // tie rounds away from zero
    [-1.0000000005, -1n, -1],
    [1e-10, 0n, 0],
    [5e-10, 0n, 1],
    [-1.5, -1n, -500_000_000],
    [123456.789, 123456n, 789_000_000],
    [315576000000, maxS, 0], // seconds max
    [-315576000000, minS, 0], // seconds min
    [315575999999.999, maxS - 1n, 999_000_000],
    [1e-300, 0n, 0],
    [-0, 0n, 0],
  ])("durationFromSeconds(%s)", (s, seconds, nanos) => {
    const d = durationFromSeconds(s);
    expect(d).toEqual(D(seconds, nanos));
    expect(Object.is(d.nanos, -0)).toBe(false);
  });

  it.each([[315576000001], [-315576000001], [315576000000.9999999], [1e300], [-1e21], [NaN], [Infinity], [null]])(
    "durationFromSeconds(%s) is out of range",
    (s) => {
      expect(catchWkt(() => durationFromSeconds(s as number))).toMatchObject({ rule: "range", jsonPath: "$" });
    },
  );

  it.each([
    [0n, 31_000_000, 0.031],
    [-1n, -500_000_000, -1.5],
    [maxS, durationNanosMax, 315576000000.999999999],
    [0n, 1, 1e-9],
  ])("durationToSeconds(%s s %s ns)", (seconds, nanos, s) => {
    expect(durationToSeconds({ seconds, nanos })).toBe(s);
  });

  it.each(invalidDurations)("toNanos/toMs/toSeconds reject %s", (_label, value, rule) => {
    for (const f of [durationToNanos, durationToMs, durationToSeconds]) {
      expect(catchWkt(() => f(junk(value)))).toMatchObject({ rule, jsonPath: "$" });
    }
  });
});

describe("arithmetic", () => {
  it.each([
    [D(1n, 0), D(0n, -1), D(0n, 999_999_999)],
    [D(-1n, 0), D(0n, 1), D(0n, -999_999_999)],
    [D(0n, 500_000_000), D(0n, 500_000_000), D(1n, 0)],
    [D(0n, -500_000_000), D(0n, -500_000_000), D(-1n, 0)],
    [D(1n, 999_999_999), D(0n, 1), D(2n, 0)],
    [D(2n, 1), D(-3n, -2), D(-1n, -1)],
    [D(maxS, durationNanosMax), D(minS, durationNanosMin), D(0n, 0)],
    [D(maxS, 999_999_998), D(0n, 1), D(maxS, durationNanosMax)], // max
    [D(minS, -999_999_998), D(0n, -1), D(minS, durationNanosMin)], // min
  ])("durationAdd(%o, %o)", (a, b, sum) => {
    expect(durationAdd(a, b)).toEqual(sum);
    expect(durationAdd(b, a)).toEqual(sum);
    expect(durationSubtract(sum, b)).toEqual(a);
  });

  it.each([
    [D(maxS, durationNanosMax), D(0n, 1)], // max+1
    [D(minS, durationNanosMin), D(0n, -1)], // min-1
    [D(maxS, 0), D(maxS, 0)],
  ])("durationAdd(%o, %o) is out of range", (a, b) => {
    expect(catchWkt(() => durationAdd(a, b))).toMatchObject({ rule: "range", jsonPath: "$" });
  });

  it.each([
    [D(maxS, durationNanosMax), D(0n, -1)],
    [D(minS, durationNanosMin), D(0n, 1)],
  ])("durationSubtract(%o, %o) is out of range", (a, b) => {
    expect(catchWkt(() => durationSubtract(a, b))).toMatchObject({ rule: "range", jsonPath: "$" });
  });

  it("rejects operands that break the sign rule", () => {
    const bad = D(1n, -1);
    for (const f of [durationAdd, durationSubtract, durationCompare]) {
      expect(catchWkt(() => f(bad, D(0n, 0)))).toMatchObject({ rule: "sign", jsonPath: "$" });
      expect(catchWkt(() => f(D(0n, 0), bad))).toMatchObject({ rule: "sign", jsonPath: "$" });
    }
    expect(catchWkt(() => durationNegate(bad))).toMatchObject({ rule: "sign" });
    expect(catchWkt(() => durationAbs(bad))).toMatchObject({ rule: "sign" });
  });

  it.each([
    [D(0n, 0), D(0n, 0)],
    [D(0n, 5), D(0n, -5)],
    [D(1n, 2), D(-1n, -2)],
    [D(maxS, durationNanosMax), D(minS, durationNanosMin)],
  ])("durationNegate(%o) is %o and back", (d, neg) => {
    expect(durationNegate(d)).toEqual(neg);
    expect(durationNegate(neg)).toEqual(d);
    const abs = durationAbs(d);
    expect(abs).toEqual(durationAbs(neg));
    expect(abs.seconds >= 0n && abs.nanos >= 0).toBe(true);
    expect(Object.is(durationNegate(D(0n, 0)).nanos, -0)).toBe(false);
  });

  it.each([
    [D(0n, 0), D(0n, 0), 0],
    [D(0n, -1), D(0n, 0), -1],
    [D(0n, -5), D(-1n, 0), 1],
    [D(-1n, -5), D(-1n, 0), -1],
    [D(1n, 0), D(0n, durationNanosMax), 1],
    [D(minS, durationNanosMin), D(maxS, durationNanosMax), -1],
    [D(2n, 7), D(2n, 7), 0],
  ])("durationCompare(%o, %o) is %s", (a, b, c) => {
    expect(durationCompare(a, b)).toBe(c);
    expect(durationCompare(b, a)).toBe(c === 0 ? 0 : -c);
  });
});

describe("against @bufbuild/protobuf", () => {
  it.each([["0s"], ["-0.5s"], ["1.000340012s"], ["-315576000000.999999999s"], ["123.5s"]])("agrees on %s", (text) => {
    const ours = durationFromJson(text);
    expect(ours).toEqual(fromJson(DurationSchema, text));
    expect(durationToJson(ours)).toBe(toJson(DurationSchema, ours));
  });

  // Spec table: Duration's JSON form is "string: decimal seconds with optional fraction, suffix `s`". A suffix
  // ends the string; @bufbuild/protobuf's regex lacks an end anchor and reads "1sabc" as 1s.
  it('rejects "1sabc", which @bufbuild/protobuf accepts', () => {
    expect(fromJson(DurationSchema, "1sabc")).toEqual(create(DurationSchema, { seconds: 1n }));
    expect(catchWkt(() => durationFromJson("1sabc"))).toMatchObject({ rule: "syntax" });
  });

  // The spec is silent on leading zeros; it defers to the protobuf project, whose protojson (protobuf-go)
  // rejects them: a lone "0" is the whole integer part.
  it('rejects "01s", which @bufbuild/protobuf reads as 1s', () => {
    expect(fromJson(DurationSchema, "01s")).toEqual(create(DurationSchema, { seconds: 1n }));
    expect(catchWkt(() => durationFromJson("01s"))).toMatchObject({ rule: "syntax" });
  });

  // Spec rule 5: "at nanosecond resolution", so at most 9 fraction digits. @bufbuild/protobuf throws a bare
  // RangeError ("Invalid count value") instead of a decoding error.
  it("rejects 10 fraction digits with our error, where @bufbuild/protobuf throws a RangeError", () => {
    expect(() => fromJson(DurationSchema, "1.0000000001s")).toThrow(RangeError);
    expect(catchWkt(() => durationFromJson("1.0000000001s"))).toMatchObject({ rule: "syntax" });
  });

  // Limits: "Duration.nanos: -999,999,999 to +999,999,999 inclusive". @bufbuild/protobuf checks only seconds
  // and crashes with a RangeError on nanos = 1e9.
  it("rejects nanos out of range with our error, where @bufbuild/protobuf throws a RangeError", () => {
    const m = create(DurationSchema, { seconds: 0n, nanos: 1_000_000_000 });
    expect(() => toJson(DurationSchema, m)).toThrow(RangeError);
    expect(catchWkt(() => durationToJson(m))).toMatchObject({ rule: "range" });
  });

  // Nothing in the spec gives -0 a meaning; @bufbuild/protobuf returns nanos -0 for "-0.0s", we return 0.
  it('returns nanos +0 for "-0.0s", where @bufbuild/protobuf returns -0', () => {
    expect(Object.is(fromJson(DurationSchema, "-0.0s").nanos, -0)).toBe(true);
    expect(Object.is(durationFromJson("-0.0s").nanos, 0)).toBe(true);
  });
});

describe("bigintOf (internal)", () => {
  it.each([
    [0],
    [-0],
    [1],
    [-1],
    [2 ** 31 - 1], // int32 max
    [2 ** 31], // int32 max+1
    [-(2 ** 31)], // int32 min
    [-(2 ** 31) - 1], // int32 min-1
    [2 ** 32 - 1],
    [2 ** 32],
    [-(2 ** 32)],
    [durationSecondsMax],
    [durationSecondsMin],
    [Number.MAX_SAFE_INTEGER],
    [Number.MIN_SAFE_INTEGER],
  ])("bigintOf(%s) is BigInt(%s)", (n) => {
    expect(bigintOf(n)).toBe(BigInt(n));
  });
});

describe("the path option", () => {
  it.each([
    ["1sabc", "syntax"],
    ["315576000001s", "range"],
    [1.5, "json-type"],
  ])("durationFromJson(%j) reports its error at the given path (%s)", (json, rule) => {
    expect(catchWkt(() => durationFromJson(json, { path: "$.timeout" }))).toMatchObject({
      rule,
      jsonPath: "$.timeout",
      typeName: "google.protobuf.Duration",
    });
  });

  it.each([
    [{ seconds: 1n, nanos: -1 }, "sign"],
    [{ seconds: 315_576_000_001n, nanos: 0 }, "range"],
    [null, "range"],
  ])("durationToJson(%o) reports its error at the given path (%s)", (d, rule) => {
    expect(catchWkt(() => durationToJson(junk(d), { path: "$.retry.backoff" }))).toMatchObject({
      rule,
      jsonPath: "$.retry.backoff",
    });
  });

  it("changes nothing for valid values, and is $ by default", () => {
    expect(durationFromJson("-0.5s", { path: "$.timeout" })).toEqual(durationFromJson("-0.5s"));
    expect(durationToJson({ seconds: 0n, nanos: -500_000_000 }, { path: "$.timeout" })).toBe("-0.500s");
    expect(catchWkt(() => durationFromJson("x", {}))).toMatchObject({ jsonPath: "$" });
    expect(catchWkt(() => durationToJson({ seconds: 1n, nanos: -1 }, { path: undefined }))).toMatchObject({
      jsonPath: "$",
    });
  });

  it.each([[""], ["timeout"], ["#/timeout"], [5], [null], [[]], [1n]])(
    "rejects the path %s (range), valid value or not",
    (path) => {
      const options = { path } as unknown as { path: string };
      expect(catchWkt(() => durationFromJson("1s", options))).toMatchObject({ rule: "range", jsonPath: "$" });
      expect(catchWkt(() => durationFromJson("x", options))).toMatchObject({ rule: "range", jsonPath: "$" });
      expect(catchWkt(() => durationToJson({ seconds: 1n, nanos: 0 }, options))).toMatchObject({
        rule: "range",
        jsonPath: "$",
      });
    },
  );

  it("leaves Array.prototype.map working (the index is not a path)", () => {
    expect(["1s", "-0.5s"].map(durationFromJson).map(durationToJson)).toEqual(["1s", "-0.500s"]);
  });
});
