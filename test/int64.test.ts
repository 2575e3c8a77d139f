import Long from "long";
import { describe as group, expect, it } from "vitest";
import { int64From } from "../src/internal/int64.js";
import { int64Max, int64Min, uint64Max } from "../src/limits.js";
import { catchWkt } from "./helpers.js";

group("int64From (signed)", () => {
  it.each<[string, unknown, bigint]>([
    ["bigint 0", 0n, 0n],
    ["bigint min", int64Min, int64Min],
    ["bigint max", int64Max, int64Max],
    ["number 0", 0, 0n],
    ["number -0", -0, 0n],
    ["number -1", -1, -1n],
    ["number max safe", Number.MAX_SAFE_INTEGER, 9007199254740991n],
    ["number min safe", Number.MIN_SAFE_INTEGER, -9007199254740991n],
    ["string 0", "0", 0n],
    ["string -0", "-0", 0n],
    ["string with leading zeros", "007", 7n],
    ["string min", "-9223372036854775808", int64Min],
    ["string max", "9223372036854775807", int64Max],
    ["Long 0", Long.ZERO, 0n],
    ["Long -1", Long.NEG_ONE, -1n],
    ["Long min", Long.MIN_VALUE, int64Min],
    ["Long max", Long.MAX_VALUE, int64Max],
    ["Long from string", Long.fromString("-1234567890123456789"), -1234567890123456789n],
  ])("accepts %s", (_label, value, want) => {
    expect(int64From(value)).toBe(want);
  });

  it.each<[string, unknown, string]>([
    ["bigint min-1", int64Min - 1n, "range"],
    ["bigint max+1", int64Max + 1n, "range"],
    ["string min-1", "-9223372036854775809", "range"],
    ["string max+1", "9223372036854775808", "range"],
    ["64-digit string", "9".repeat(64), "range"],
    ["unsigned Long max", Long.MAX_UNSIGNED_VALUE, "range"],
    ["unsigned Long 2^63", Long.fromString("9223372036854775808", true), "range"],
    ["number max safe+1", 2 ** 53, "int64"],
    ["number min safe-1", -(2 ** 53), "int64"],
    ["number 1.5", 1.5, "int64"],
    ["number NaN", NaN, "int64"],
    ["number Infinity", Infinity, "int64"],
    ["number -Infinity", -Infinity, "int64"],
    ["number 1e300", 1e300, "int64"],
    ["empty string", "", "int64"],
    ["string -", "-", "int64"],
    ["string +1", "+1", "int64"],
    ["string with a space", " 1", "int64"],
    ["string with a trailing space", "1 ", "int64"],
    ["hex string", "0x10", "int64"],
    ["exponent string", "1e3", "int64"],
    ["decimal fraction string", "1.0", "int64"],
    ["string --1", "--1", "int64"],
    ["Arabic-Indic digits", "\u0661\u0662", "int64"],
    ["65-digit string", "1".repeat(65), "int64"],
    ["null", null, "int64"],
    ["undefined", undefined, "int64"],
    ["boolean", true, "int64"],
    ["object", {}, "int64"],
    ["array", [1], "int64"],
    ["symbol", Symbol("x"), "int64"],
    ["function", () => 1, "int64"],
    ["Long-shaped object", { low: 1, high: 0, unsigned: false }, "int64"],
  ])("rejects %s (%s)", (_label, value, rule) => {
    expect(catchWkt(() => int64From(value))).toMatchObject({ rule, jsonPath: "$", typeName: "int64" });
  });
});

group("int64From (unsigned)", () => {
  it.each<[string, unknown, bigint]>([
    ["bigint 0 (min)", 0n, 0n],
    ["bigint max", uint64Max, uint64Max],
    ["string max", "18446744073709551615", uint64Max],
    ["number max safe", Number.MAX_SAFE_INTEGER, 9007199254740991n],
    ["unsigned Long max", Long.MAX_UNSIGNED_VALUE, uint64Max],
    ["unsigned Long 2^63", Long.fromString("9223372036854775808", true), 2n ** 63n],
    ["signed Long max", Long.MAX_VALUE, int64Max],
    ["string -0", "-0", 0n],
  ])("accepts %s", (_label, value, want) => {
    expect(int64From(value, { unsigned: true })).toBe(want);
  });

  it.each<[string, unknown, string]>([
    ["bigint min-1", -1n, "range"],
    ["bigint max+1", uint64Max + 1n, "range"],
    ["number -1", -1, "range"],
    ["string -1", "-1", "range"],
    ["string max+1", "18446744073709551616", "range"],
    ["signed Long -1", Long.NEG_ONE, "range"],
    ["signed Long min", Long.MIN_VALUE, "range"],
    ["number 0.5", 0.5, "int64"],
    ["string +1", "+1", "int64"],
    ["null", null, "int64"],
  ])("rejects %s (%s)", (_label, value, rule) => {
    expect(catchWkt(() => int64From(value, { unsigned: true }))).toMatchObject({
      rule,
      jsonPath: "$",
      typeName: "uint64",
    });
  });
});

group("int64From options", () => {
  it("reports the given path and type name", () => {
    const e = catchWkt(() => int64From("x", { path: "$.seconds", typeName: "google.protobuf.Duration" }));
    expect(e).toMatchObject({ rule: "int64", jsonPath: "$.seconds", typeName: "google.protobuf.Duration" });
    const r = catchWkt(() => int64From(-1n, { unsigned: true, path: "$[3]" }));
    expect(r).toMatchObject({ rule: "range", jsonPath: "$[3]", typeName: "uint64" });
  });

  it("does not put the value itself in messages about wrong types", () => {
    expect(catchWkt(() => int64From({ secret: "hunter2" })).message).not.toContain("hunter2");
  });
});

group("int64From recognises a Long by its shape, without loading long", () => {
  // What a Long of another copy of `long` (protobufjs bundles its own) looks like: the same fields, and
  // `__isLong__` on its prototype. Long.isLong accepts it; so does int64From.
  const foreignLong = (low: number, high: number, unsigned: boolean): unknown =>
    Object.assign(Object.create({ __isLong__: true }) as object, { low, high, unsigned });

  it.each<[string, unknown, bigint]>([
    ["a Long of another copy of long", foreignLong(-1, -1, false), -1n],
    ["an unsigned Long of another copy", foreignLong(-1, -1, true), uint64Max],
    ["min (high bit set, low 0)", foreignLong(0, -0x80000000, false), int64Min],
    ["low bits with the sign bit set", foreignLong(-0x80000000, 0, false), 0x80000000n],
  ])("accepts %s", (_label, value, want) => {
    expect(int64From(value, { unsigned: want === uint64Max })).toBe(want);
  });

  it("converts every Long as long itself does (two's complement, both signednesses)", () => {
    for (const text of ["0", "1", "-1", "4294967295", "4294967296", "-4294967296", "-9223372036854775808"]) {
      expect(int64From(Long.fromString(text))).toBe(BigInt(text));
    }
    for (const text of ["0", "4294967295", "9223372036854775808", "18446744073709551615"]) {
      expect(int64From(Long.fromString(text, true), { unsigned: true })).toBe(BigInt(text));
    }
  });

  it.each<[string, unknown]>([
    ["__isLong__ alone", { __isLong__: true }],
    ["__isLong__ not true", { __isLong__: 1, low: 0, high: 0, unsigned: false }],
    ["a fractional low", { __isLong__: true, low: 0.5, high: 0, unsigned: false }],
    ["a high past 32 bits", { __isLong__: true, low: 0, high: 2 ** 32, unsigned: false }],
    ["a string low", { __isLong__: true, low: "0", high: 0, unsigned: false }],
    ["no unsigned", { __isLong__: true, low: 0, high: 0 }],
  ])("rejects a Long-like object with %s", (_label, value) => {
    expect(catchWkt(() => int64From(value))).toMatchObject({ rule: "int64", jsonPath: "$", typeName: "int64" });
  });
});
