import { ScalarType } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isWktJsonError } from "../src/errors.js";
import {
  int32KeyValue,
  isCanonicalIntegerKey,
  isJsonNumber,
  jsonNumberToBigInt,
  mapKeyFromJson,
  roundedFractionDetail,
  scalarFromJson,
  scalarIsZero,
  scalarToJson,
  scalarZero,
} from "../src/internal/scalar.js";
import { catchWkt } from "./helpers.js";

const {
  INT32,
  SINT32,
  SFIXED32,
  UINT32,
  FIXED32,
  INT64,
  SINT64,
  SFIXED64,
  UINT64,
  FIXED64,
  FLOAT,
  DOUBLE,
  BOOL,
  STRING,
  BYTES,
} = ScalarType;

/** Prefixes each row with its scalar type's name, so that test titles read "INT32 ..." rather than "5 ...". */
function named<T extends readonly [ScalarType, ...unknown[]]>(rows: readonly T[]): [string, ...T][] {
  return rows.map((r) => [ScalarType[r[0]], ...r]);
}

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;
const uint64Max = 2n ** 64n - 1n;

describe("jsonNumberToBigInt", () => {
  it.each<[string, bigint | null | undefined | number]>([
    ["0", 0n],
    ["-0", 0n],
    ["7", 7n],
    ["-7", -7n],
    ["1e2", 100n],
    ["1E2", 100n],
    ["1e+2", 100n],
    ["1.5e1", 15n],
    ["1.50e1", 15n],
    ["100e-2", 1n],
    ["1.0", 1n],
    ["0.0e5", 0n],
    ["0e999999999", 0n],
    ["1e39", 10n ** 39n], // 40 digits: still exact
    ["1e40", Infinity], // 41 digits: beyond every integer type, a marker
    ["1e1000000000", Infinity],
    ["1.5", null],
    ["1e-2", null],
    ["1e-1000000000", null],
    ["0.5e0", null],
    ["", undefined],
    ["-", undefined],
    ["01", undefined],
    ["-01", undefined],
    ["00", undefined],
    ["+1", undefined],
    [" 1", undefined],
    ["1 ", undefined],
    ["1.", undefined],
    [".5", undefined],
    ["1e", undefined],
    ["1e+", undefined],
    ["0x10", undefined],
    ["NaN", undefined],
    ["Infinity", undefined],
    ["1_000", undefined],
  ])("%o gives %s", (text, expected) => {
    expect(jsonNumberToBigInt(text)).toBe(expected);
  });

  it("does not mistake a huge exponent over a long fraction for a fraction", () => {
    // 0.<2,000,000 zeros>1e1000000000 is 10^997999999: an integer, far out of every range. The exponent used to
    // saturate at a million, so the long fraction won and the value was reported as a non-integer.
    const text = "0." + "0".repeat(2_000_000) + "1e1000000000";
    expect(jsonNumberToBigInt(text)).toBe(Infinity);
    expect(catchWkt(() => scalarFromJson(INT64, text, false))).toMatchObject({ rule: "range", jsonPath: "$" });
    expect(catchWkt(() => scalarFromJson(INT32, text, false))).toMatchObject({ rule: "range", jsonPath: "$" });
  });

  it("reads every integer written in scientific notation exactly", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.integer({ min: 0, max: 5 }), (v, zeros) => {
        // v as d.ddd000e(k), with `zeros` trailing zeros in the fraction: 1234 -> 1.23400e3
        const digits = (v < 0n ? -v : v).toString();
        const mantissa = digits + "0".repeat(zeros);
        const fraction = mantissa.length > 1 ? "." + mantissa.slice(1) : "";
        const written = `${v < 0n ? "-" : ""}${mantissa[0]}${fraction}e${digits.length - 1}`;
        expect(jsonNumberToBigInt(written)).toBe(v);
        expect(isJsonNumber(written)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe("scalarFromJson: integers", () => {
  // Rows at min-1, min, max, max+1 of every integer type, as JSON numbers, as JSON strings and as the bigint
  // the text parser gives for integer literals beyond 2^53.
  const int32s: [ScalarType, number, number][] = [
    [INT32, -2147483648, 2147483647],
    [SINT32, -2147483648, 2147483647],
    [SFIXED32, -2147483648, 2147483647],
    [UINT32, 0, 4294967295],
    [FIXED32, 0, 4294967295],
  ];
  const rows32: [ScalarType, unknown, number | string][] = [];
  for (const [t, min, max] of int32s) {
    rows32.push([t, min, min], [t, max, max], [t, min - 1, "range"], [t, max + 1, "range"]);
    rows32.push(
      [t, String(min), min],
      [t, String(max), max],
      [t, String(min - 1), "range"],
      [t, String(max + 1), "range"],
    );
  }
  it.each(named(rows32))("%s reads %o as %o", (_, t, json, expected) => {
    if (typeof expected === "string") {
      expect(catchWkt(() => scalarFromJson(t, json, false))).toMatchObject({ rule: expected, jsonPath: "$" });
    } else {
      expect(scalarFromJson(t, json, false)).toBe(expected);
    }
  });

  const int64s: [ScalarType, bigint, bigint][] = [
    [INT64, int64Min, int64Max],
    [SINT64, int64Min, int64Max],
    [SFIXED64, int64Min, int64Max],
    [UINT64, 0n, uint64Max],
    [FIXED64, 0n, uint64Max],
  ];
  const rows64: [ScalarType, unknown, bigint | string][] = [];
  for (const [t, min, max] of int64s) {
    rows64.push(
      [t, String(min), min],
      [t, String(max), max],
      [t, String(min - 1n), "range"],
      [t, String(max + 1n), "range"],
    );
    rows64.push([t, min, min], [t, max, max], [t, min - 1n, "range"], [t, max + 1n, "range"]);
  }
  it.each(named(rows64))("%s reads %o as %s", (_, t, json, expected) => {
    if (typeof expected === "string") {
      expect(catchWkt(() => scalarFromJson(t, json, false))).toMatchObject({ rule: expected, jsonPath: "$" });
    } else {
      expect(scalarFromJson(t, json, false)).toBe(expected);
      expect(scalarFromJson(t, json, true)).toBe(expected.toString());
    }
  });

  it.each(
    named<[ScalarType, unknown, unknown]>([
      [INT32, 1e2, 100],
      [INT32, "1e2", 100],
      [INT32, "1.0", 1],
      [INT32, -0, 0],
      [INT32, "-0", 0],
      [UINT32, "4.294967295e9", 4294967295],
      [INT64, "1e18", 10n ** 18n],
      [INT64, 1e18, 10n ** 18n],
      [INT64, 9007199254740991, 9007199254740991n],
      [UINT64, "1.8446744073709551615e19", uint64Max],
    ]),
  )("%s reads the exact exponent form %o", (_, t, json, expected) => {
    expect(scalarFromJson(t, json, false)).toBe(expected);
  });

  it.each(
    named<[ScalarType, unknown, string]>([
      [INT32, 1.5, "syntax"],
      [INT32, "1.5", "syntax"],
      [INT32, "1e-1", "syntax"],
      [INT32, " 1", "syntax"],
      [INT32, "1 ", "syntax"],
      [INT32, "01", "syntax"],
      [INT32, "+1", "syntax"],
      [INT32, "", "syntax"],
      [INT32, "0x1", "syntax"],
      [INT32, "1e10", "range"],
      [INT32, NaN, "range"],
      [INT32, Infinity, "range"],
      [INT32, true, "json-type"],
      [INT32, null, "json-type"],
      [INT32, [], "json-type"],
      [UINT32, -1, "range"],
      [UINT32, "-1", "range"],
      [INT64, 1.5, "syntax"],
      [INT64, "1.5", "syntax"],
      [INT64, " 1", "syntax"],
      [INT64, "+1", "syntax"],
      [INT64, "01", "syntax"],
      [INT64, 9223372036854775807, "range"], // the double 2^63: JSON.parse already rounded the literal up
      [INT64, "1e19", "range"],
      [INT64, {}, "json-type"],
      [UINT64, "-1", "range"],
      [UINT64, -1n, "range"],
    ]),
  )("%s rejects %o (%s)", (_, t, json, rule) => {
    expect(catchWkt(() => scalarFromJson(t, json, false))).toMatchObject({ rule, jsonPath: "$" });
  });
});

describe("scalarFromJson: a number is the double it is, a string its decimal text", () => {
  it.each(["1.00000000000000000001", "0.99999999999999999999", "1e-400", "-1e-400"])("%s", (text) => {
    // A JS value has no text: the double is an integer, and taken (the text decoders judge the literal).
    expect(scalarFromJson(INT32, Number(text), false)).toBe(Math.abs(Math.round(Number(text))));
    expect(scalarFromJson(UINT64, Number(text), false)).toBe(BigInt(Math.abs(Math.round(Number(text)))));
    expect(catchWkt(() => scalarFromJson(INT32, text, false)).rule).toBe("syntax");
    expect(catchWkt(() => scalarFromJson(UINT64, text, false)).rule).toBe("syntax");
  });

  it("names the double in the detail for a literal whose fraction a double lost", () => {
    expect(roundedFractionDetail(0)).toBe(
      "the number is not an integer: its fraction is beyond what a double holds (a double reads it as 0)",
    );
  });
});

describe("scalarFromJson: floats, bool, string, bytes", () => {
  it.each(
    named<[ScalarType, unknown, number]>([
      [FLOAT, 3.4028234663852886e38, 3.4028234663852886e38], // the largest float
      [FLOAT, 3.4028235e38, 3.4028235e38], // rounds to it
      [FLOAT, "3.4028235e38", 3.4028235e38],
      [FLOAT, -3.4028235e38, -3.4028235e38],
      [FLOAT, 3.4028235677973362e38, 3.4028235677973362e38], // just below the rounding boundary
      [FLOAT, 1e-50, 1e-50], // underflows to 0 as a float: not a range error
      [FLOAT, "NaN", NaN],
      [FLOAT, "Infinity", Infinity],
      [FLOAT, "-Infinity", -Infinity],
      [DOUBLE, Number.MAX_VALUE, Number.MAX_VALUE],
      [DOUBLE, "1.7976931348623157e308", Number.MAX_VALUE],
      [DOUBLE, "1e2", 100],
      [DOUBLE, "-0", -0],
      [DOUBLE, -0, -0],
      [DOUBLE, 5e-324, 5e-324],
      [DOUBLE, "NaN", NaN],
      [DOUBLE, "Infinity", Infinity],
      [DOUBLE, "-Infinity", -Infinity],
      [DOUBLE, 2n ** 64n, 18446744073709552000],
    ]),
  )("%s reads %o", (_, t, json, expected) => {
    expect(scalarFromJson(t, json, false)).toBe(expected);
  });

  it.each(
    named<[ScalarType, unknown, string]>([
      [FLOAT, 3.5e38, "range"],
      [FLOAT, -3.5e38, "range"],
      [FLOAT, "3.5e38", "range"],
      [FLOAT, 3.4028235677973366e38, "range"], // the rounding boundary: ties to even, to Infinity
      [DOUBLE, "1e309", "range"],
      [DOUBLE, "-1e309", "range"],
      [DOUBLE, NaN, "range"], // a number NaN cannot come from JSON; the string "NaN" is the way
      [DOUBLE, Infinity, "range"],
      [DOUBLE, "nan", "syntax"],
      [DOUBLE, "inf", "syntax"],
      [DOUBLE, "infinity", "syntax"],
      [DOUBLE, " 1", "syntax"],
      [DOUBLE, "1 ", "syntax"],
      [DOUBLE, "", "syntax"],
      [DOUBLE, "01", "syntax"],
      [DOUBLE, "+1", "syntax"],
      [DOUBLE, ".5", "syntax"],
      [DOUBLE, "0x1p3", "syntax"],
      [DOUBLE, true, "json-type"],
      [DOUBLE, {}, "json-type"],
      [BOOL, "true", "json-type"],
      [BOOL, 1, "json-type"],
      [BOOL, null, "json-type"],
      [STRING, 1, "json-type"],
      [STRING, "\ud800", "utf16"],
      [STRING, "a\udc00b", "utf16"],
      [STRING, "\ude00\ud83d", "utf16"], // a pair in the wrong order
      [BYTES, 1, "json-type"],
      [BYTES, "A", "syntax"],
      [BYTES, "AQ=", "syntax"],
      [BYTES, "A B=", "syntax"],
    ]),
  )("%s rejects %o (%s)", (_, t, json, rule) => {
    expect(catchWkt(() => scalarFromJson(t, json, false))).toMatchObject({ rule, jsonPath: "$" });
  });

  it.each(
    named<[ScalarType, unknown, unknown]>([
      [BOOL, true, true],
      [BOOL, false, false],
      [STRING, "", ""],
      [STRING, "😀", "😀"],
      [BYTES, "", new Uint8Array(0)],
      [BYTES, "AQID", new Uint8Array([1, 2, 3])],
    ]),
  )("%s reads %o", (_, t, json, expected) => {
    expect(scalarFromJson(t, json, false)).toEqual(expected);
  });
});

describe("mapKeyFromJson", () => {
  it.each(
    named<[ScalarType, string, string]>([
      [INT32, "-2147483648", "-2147483648"],
      [INT32, "2147483647", "2147483647"],
      [INT32, "0", "0"],
      [INT32, "-0", "0"], // canonicalized, so "-0" and "0" are the same key
      [INT32, "01", "1"], // a leading zero or '+', as Go, C++ and protobuf-es take them
      [INT32, "+1", "1"],
      [INT32, "-007", "-7"],
      [INT32, "+0", "0"],
      [UINT64, "+018446744073709551615", "18446744073709551615"],
      [UINT32, "4294967295", "4294967295"],
      [INT64, "-9223372036854775808", "-9223372036854775808"],
      [UINT64, "18446744073709551615", "18446744073709551615"],
      [BOOL, "true", "true"],
      [BOOL, "false", "false"],
      [STRING, "", ""],
      [STRING, "__proto__", "__proto__"],
    ]),
  )("%s key %o is %o", (_, t, key, expected) => {
    expect(mapKeyFromJson(t, key)).toBe(expected);
  });

  it.each(
    named<[ScalarType, string, string]>([
      [INT32, "1e2", "syntax"],
      [INT32, "1.0", "syntax"],
      [INT32, "+-1", "syntax"],
      [INT32, "+", "syntax"],
      [INT32, " 1", "syntax"],
      [INT32, "", "syntax"],
      [INT32, "-", "syntax"],
      [INT32, "2147483648", "range"],
      [INT32, "-2147483649", "range"],
      [UINT32, "-1", "range"],
      [UINT32, "4294967296", "range"],
      [UINT32, "+04294967296", "range"],
      [INT64, "9223372036854775808", "range"],
      [INT64, "-9223372036854775809", "range"],
      [UINT64, "18446744073709551616", "range"],
      [BOOL, "True", "syntax"],
      [BOOL, "1", "syntax"],
      [BOOL, "", "syntax"],
      [STRING, "\ud800", "utf16"],
    ]),
  )("%s rejects key %o (%s)", (_, t, key, rule) => {
    expect(catchWkt(() => mapKeyFromJson(t, key))).toMatchObject({ rule, jsonPath: "$" });
  });
});

describe("scalarToJson", () => {
  it.each(
    named<[ScalarType, unknown, unknown]>([
      [INT32, -2147483648, -2147483648],
      [INT32, 2147483647, 2147483647],
      [UINT32, 4294967295, 4294967295],
      [INT64, int64Min, "-9223372036854775808"],
      [INT64, int64Max, "9223372036854775807"],
      [INT64, "12", "12"], // jstype = JS_STRING
      [INT64, 12, "12"], // tolerated like protobuf-es
      [UINT64, uint64Max, "18446744073709551615"],
      [FLOAT, 3.4028234663852886e38, 3.4028234663852886e38],
      [FLOAT, NaN, "NaN"],
      [DOUBLE, Infinity, "Infinity"],
      [DOUBLE, -Infinity, "-Infinity"],
      [DOUBLE, -0, -0],
      [BOOL, false, false],
      [STRING, "😀", "😀"],
      [BYTES, new Uint8Array([0xfb, 0xff]), "+/8="],
    ]),
  )("%s writes %s as %o", (_, t, value, expected) => {
    expect(scalarToJson(t, value)).toBe(expected);
  });

  // A message assembled by hand can hold anything; the writer reports it instead of writing JSON that the
  // reader would reject. Wrong JS types are "json-type", values of the right type outside the range "range".
  it.each(
    named<[ScalarType, unknown, string]>([
      [INT32, "5", "json-type"],
      [INT32, 5n, "json-type"],
      [INT32, false, "json-type"],
      [INT32, 1.5, "range"],
      [INT32, 2147483648, "range"],
      [INT32, NaN, "range"],
      [UINT32, -1, "range"],
      [UINT32, "1", "json-type"],
      [INT64, int64Max + 1n, "range"],
      [INT64, 1.5, "syntax"],
      [INT64, "abc", "syntax"],
      [INT64, true, "json-type"],
      [UINT64, -1n, "range"],
      [FLOAT, 1e300, "range"], // a finite double that no float can hold
      [FLOAT, "1", "json-type"],
      [DOUBLE, 1n, "json-type"],
      [BOOL, 0, "json-type"],
      [STRING, 1, "json-type"],
      [STRING, "\udfff", "utf16"],
      [BYTES, [1, 2], "json-type"],
      [BYTES, "AQ==", "json-type"],
    ]),
  )("%s rejects %o (%s)", (_, t, value, rule) => {
    expect(catchWkt(() => scalarToJson(t, value))).toMatchObject({ rule, jsonPath: "$" });
  });
});

describe("scalarZero and scalarIsZero", () => {
  it.each(
    named<[ScalarType, unknown, boolean]>([
      [INT32, 0, true],
      [INT32, -0, true],
      [INT32, 1, false],
      [INT32, false, false], // wrong-typed: written, so that the writer reports it
      [INT32, "", false],
      [INT32, [], false],
      [INT32, " ", false],
      [INT64, 0n, true],
      [INT64, "0", true],
      [INT64, "00", false],
      [DOUBLE, 0, true],
      [DOUBLE, -0, false], // -0 is a value of its own: written like protobuf-es, Go and C++ do
      [FLOAT, NaN, false],
      [BOOL, false, true],
      [BOOL, 0, false],
      [STRING, "", true],
      [BYTES, new Uint8Array(0), true],
      [BYTES, new Uint8Array(1), false],
      [BYTES, "", false],
    ]),
  )("%s: %o is zero: %s", (_, t, value, zero) => {
    expect(scalarIsZero(t, value)).toBe(zero);
  });

  it.each(named([INT32, UINT32, INT64, UINT64, FLOAT, DOUBLE, BOOL, STRING, BYTES].map((t) => [t] as const)))(
    "scalarZero(%s) is zero",
    (_, t) => {
      expect(scalarIsZero(t, scalarZero(t, false))).toBe(true);
      expect(scalarIsZero(t, scalarZero(t, true))).toBe(true);
    },
  );
});

describe("scalar round trip", () => {
  const arbs: [ScalarType, fc.Arbitrary<unknown>][] = [
    [INT32, fc.integer()],
    [UINT32, fc.integer({ min: 0, max: 4294967295 })],
    [INT64, fc.bigInt({ min: int64Min, max: int64Max })],
    [UINT64, fc.bigInt({ min: 0n, max: uint64Max })],
    [FLOAT, fc.float()],
    [DOUBLE, fc.double()],
    [BOOL, fc.boolean()],
    [STRING, fc.string({ unit: "binary" })],
    [BYTES, fc.uint8Array()],
  ];
  it.each(named(arbs))("%s: scalarFromJson(scalarToJson(v)) is v", (_, t, arb) => {
    fc.assert(
      fc.property(arb, (v) => {
        expect(scalarFromJson(t, scalarToJson(t, v), false)).toEqual(v);
      }),
      { numRuns: 200 },
    );
  });

  it("any JSON value either reads or is our error", () => {
    const types = [INT32, UINT32, INT64, UINT64, FLOAT, DOUBLE, BOOL, STRING, BYTES];
    const arb = fc.oneof(fc.jsonValue(), fc.string(), fc.double().map(String), fc.bigInt().map(String), fc.bigInt());
    fc.assert(
      fc.property(fc.constantFrom(...types), arb, (t, json) => {
        try {
          scalarFromJson(t, json, false);
        } catch (e) {
          expect(isWktJsonError(e)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe("int32KeyValue", () => {
  it.each<[string, boolean, number]>([
    ["0", false, 0],
    ["-0", false, NaN],
    ["01", false, NaN],
    ["", false, NaN],
    ["-", false, NaN],
    ["+1", false, NaN],
    [" 1", false, NaN],
    ["1.0", false, NaN],
    ["1e2", false, NaN],
    ["2147483647", false, 2147483647],
    ["2147483648", false, NaN],
    ["-2147483648", false, -2147483648],
    ["-2147483649", false, NaN],
    ["4294967295", true, 4294967295],
    ["4294967296", true, NaN],
    ["-1", true, NaN],
    ["10000000000", true, NaN],
    ["99999999999", false, NaN],
  ])("%j (unsigned: %s) is %d", (key, unsigned, value) => {
    expect(int32KeyValue(key, unsigned)).toBe(value);
  });

  it("is the key's value exactly when isCanonicalIntegerKey takes it", () => {
    const key = fc.oneof(
      fc.integer({ min: -(2 ** 32), max: 2 ** 32 }).map(String),
      fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }).map(String),
      fc.stringMatching(/^-?[0-9]{0,12}$/),
      fc.string({ maxLength: 12 }),
    );
    fc.assert(
      fc.property(key, fc.boolean(), (k, unsigned) => {
        const v = int32KeyValue(k, unsigned);
        const canonical = isCanonicalIntegerKey(unsigned ? UINT32 : INT32, k);
        expect(Number.isNaN(v)).toBe(!canonical);
        if (canonical) expect(String(v)).toBe(k);
      }),
      { numRuns: 2000 },
    );
  });
});
