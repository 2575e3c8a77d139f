// Timestamp and Duration as Temporal.Instant and Temporal.Duration (issue 29; protobuf-es #1015, #227). Run
// with temporal-polyfill passed as the option on every Node, and with the runtime's own Temporal where it has
// one (Node 26 in CI).
import { Temporal as Polyfill } from "temporal-polyfill";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  durationFromTemporal,
  durationToTemporal,
  timestampFromTemporal,
  timestampToTemporal,
  type TemporalNamespaceLike,
} from "../src/index.js";
import { catchWkt } from "./helpers.js";

const temporal = Polyfill;
const opts = { temporal };
const native = (globalThis as { Temporal?: TemporalNamespaceLike }).Temporal;
const instant = (iso: string) => Polyfill.Instant.from(iso);
const duration = (d: string | Partial<Record<string, number>>) => Polyfill.Duration.from(d);

describe("timestampFromTemporal", () => {
  it.each<[string, bigint, number]>([
    ["0001-01-01T00:00:00Z", -62135596800n, 0],
    ["1969-12-31T23:59:59.999999999Z", -1n, 999999999],
    ["1970-01-01T00:00:00Z", 0n, 0],
    ["2024-02-29T12:00:00.000000001Z", 1709208000n, 1],
    ["9999-12-31T23:59:59.999999999Z", 253402300799n, 999999999],
  ])("reads %s exactly", (iso, seconds, nanos) => {
    expect(timestampFromTemporal(instant(iso))).toEqual({ $typeName: "google.protobuf.Timestamp", seconds, nanos });
  });

  it.each([
    ["0000-12-31T23:59:59.999999999Z"], // min - 1 ns
    ["+010000-01-01T00:00:00Z"], // max + 1 ns
    ["-271821-04-20T00:00:00Z"], // Temporal's own least Instant
  ])("refuses %s, outside the Timestamp range", (iso) => {
    expect(catchWkt(() => timestampFromTemporal(instant(iso)))).toMatchObject({ rule: "range", jsonPath: "$" });
    const e = catchWkt(() => timestampFromTemporal(instant(iso), { path: "$.dueAt" }));
    expect(e).toMatchObject({ rule: "range", jsonPath: "$.dueAt", typeName: "google.protobuf.Timestamp" });
  });

  it.each<[string, unknown]>([
    ["a string", "1970-01-01T00:00:00Z"],
    ["a Date", new Date(0)],
    ["an object with epochNanoseconds only", { epochNanoseconds: 0n }],
    ["a ZonedDateTime", Polyfill.ZonedDateTime.from("2024-01-01T00:00:00+00:00[UTC]")],
    ["a Temporal.Duration", duration("PT1S")],
    ["null", null],
    ["a tagged object whose getter throws", { [Symbol.toStringTag]: "Temporal.Instant", get epochNanoseconds() { throw new TypeError("x"); } }], // prettier-ignore
    ["a tagged object whose epochNanoseconds is a number", { [Symbol.toStringTag]: "Temporal.Instant", epochNanoseconds: 0 }], // prettier-ignore
  ])("refuses %s (rule range)", (_, value) => {
    expect(catchWkt(() => timestampFromTemporal(value as never))).toMatchObject({ rule: "range", jsonPath: "$" });
  });

  it("names ZonedDateTime's way to an Instant", () => {
    const zdt = Polyfill.ZonedDateTime.from("2024-01-01T00:00:00+00:00[UTC]");
    expect(catchWkt(() => timestampFromTemporal(zdt as never)).message).toContain("toInstant()");
  });
});

describe("timestampToTemporal", () => {
  it.each<[bigint, number, string]>([
    [-62135596800n, 0, "0001-01-01T00:00:00Z"],
    [-1n, 999999999, "1969-12-31T23:59:59.999999999Z"],
    [253402300799n, 999999999, "9999-12-31T23:59:59.999999999Z"],
  ])("%s s %s ns is %s", (seconds, nanos, iso) => {
    // Typed as the namespace's class: the polyfill's Instant here.
    const i: Polyfill.Instant = timestampToTemporal({ seconds, nanos }, opts);
    expect(i).toBeInstanceOf(Polyfill.Instant);
    expect(i.toString()).toBe(iso);
    expect(i.epochNanoseconds).toBe(seconds * 1_000_000_000n + BigInt(nanos));
  });

  it.each<[string, bigint, number]>([
    ["seconds below the range", -62135596801n, 0],
    ["seconds above the range", 253402300800n, 0],
    ["negative nanos", 0n, -1],
    ["nanos of a second", 0n, 1_000_000_000],
  ])("refuses %s (rule range), at the path option", (_, seconds, nanos) => {
    const e = catchWkt(() => timestampToTemporal({ seconds, nanos }, opts));
    expect(e).toMatchObject({ rule: "range", jsonPath: "$" });
    expect(catchWkt(() => timestampToTemporal({ seconds, nanos }, { ...opts, path: "$.at" }))).toMatchObject({
      rule: "range",
      jsonPath: "$.at",
    });
  });
});

describe("durationFromTemporal", () => {
  it.each<[string | Partial<Record<string, number>>, bigint, number]>([
    ["PT0S", 0n, 0],
    ["PT1H0.5S", 3600n, 500_000_000],
    ["-PT0.000000001S", 0n, -1],
    // Days are 24 hours, as Temporal counts them without relativeTo (Duration.compare, total).
    ["P1D", 86_400n, 0],
    [{ days: -1, nanoseconds: -1 }, -86_400n, -1],
    [{ milliseconds: 1500, microseconds: 1500, nanoseconds: 1500 }, 1n, 501_501_500],
    // The bounds, in Temporal's largest fields: 315576000000 s is 3652500 days.
    [{ days: 3_652_500, nanoseconds: 999_999_999 }, 315_576_000_000n, 999_999_999],
    [{ seconds: -315_576_000_000, nanoseconds: -999_999_999 }, -315_576_000_000n, -999_999_999],
    // A field far beyond a safe integer, still exact: 2^60 ns.
    [{ nanoseconds: 2 ** 60 }, 1_152_921_504n, 606_846_976],
  ])("reads %j exactly", (d, seconds, nanos) => {
    expect(durationFromTemporal(duration(d))).toEqual({ $typeName: "google.protobuf.Duration", seconds, nanos });
  });

  it.each<[string, string | Partial<Record<string, number>>]>([
    ["years", "P1Y"],
    ["months", "-P1M"],
    ["weeks", "P1W"],
    ["weeks beside exact units", "P1WT1S"],
    ["beyond the range by a nanosecond", { seconds: 315_576_000_001 }],
    ["beyond the range below", { days: -3_652_500, nanoseconds: -1_000_000_000 }],
  ])("refuses %s (rule range), at the path option", (_, d) => {
    expect(catchWkt(() => durationFromTemporal(duration(d)))).toMatchObject({ rule: "range", jsonPath: "$" });
    expect(catchWkt(() => durationFromTemporal(duration(d), { path: "$.ttl" }))).toMatchObject({
      rule: "range",
      jsonPath: "$.ttl",
      typeName: "google.protobuf.Duration",
    });
  });

  it("says how to resolve calendar units", () => {
    expect(catchWkt(() => durationFromTemporal(duration("P1M"))).message).toContain("relativeTo");
  });

  const tagged = (fields: Record<string, unknown>) => ({
    [Symbol.toStringTag]: "Temporal.Duration",
    ...{ years: 0, months: 0, weeks: 0, days: 0, hours: 0, minutes: 0, seconds: 0 },
    ...{ milliseconds: 0, microseconds: 0, nanoseconds: 0 },
    ...fields,
  });
  it.each<[string, unknown, string]>([
    ["a string", "PT1S", "range"],
    ["a protobuf Duration", { seconds: 1n, nanos: 0 }, "range"],
    ["a Temporal.Instant", instant("1970-01-01T00:00:00Z"), "range"],
    ["a field that is a fraction", tagged({ seconds: 1.5 }), "range"],
    ["a field that is a bigint", tagged({ seconds: 1n }), "range"],
    ["fields of both signs", tagged({ seconds: 1, nanoseconds: -1 }), "sign"],
  ])("refuses %s (rule %s)", (_, value, rule) => {
    expect(catchWkt(() => durationFromTemporal(value as never))).toMatchObject({ rule, jsonPath: "$" });
  });
});

describe("durationToTemporal", () => {
  it.each<[bigint, number, string, number[]]>([
    [0n, 0, "PT0S", [0, 0, 0, 0]],
    [0n, -1500, "-PT0.0000015S", [0, 0, -1, -500]],
    [-3600n, -123_456_789, "-PT3600.123456789S", [-3600, -123, -456, -789]],
    [315_576_000_000n, 999_999_999, "PT315576000000.999999999S", [315_576_000_000, 999, 999, 999]],
  ])("%s s %s ns is %s", (seconds, nanos, iso, fields) => {
    const d: Polyfill.Duration = durationToTemporal({ seconds, nanos }, opts);
    expect(d).toBeInstanceOf(Polyfill.Duration);
    expect(d.toString()).toBe(iso);
    expect([d.seconds, d.milliseconds, d.microseconds, d.nanoseconds]).toEqual(fields);
    expect(Object.is(d.milliseconds, -0)).toBe(false);
  });

  it("gives the fields Instant.until gives", () => {
    const a = instant("2024-01-01T00:00:00Z");
    const b = instant("2023-12-31T22:59:58.999999999Z");
    const d = durationToTemporal({ seconds: -3601n, nanos: -1 }, opts);
    expect(d.toString()).toBe(a.until(b).toString());
    expect(Polyfill.Duration.compare(d, a.until(b))).toBe(0);
  });

  it.each<[string, bigint, number, string]>([
    ["seconds beyond the range", 315_576_000_001n, 0, "range"],
    ["nanos of a second", 0n, 1_000_000_000, "range"],
    ["fields of both signs", 1n, -1, "sign"],
  ])("refuses %s (rule %s), at the path option", (_, seconds, nanos, rule) => {
    expect(catchWkt(() => durationToTemporal({ seconds, nanos }, opts))).toMatchObject({ rule, jsonPath: "$" });
    expect(catchWkt(() => durationToTemporal({ seconds, nanos }, { ...opts, path: "$.ttl" }))).toMatchObject({
      rule,
      jsonPath: "$.ttl",
    });
  });
});

describe("where Temporal comes from", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("without globalThis.Temporal and without the option, the To functions throw a WktJsonError", () => {
    vi.stubGlobal("Temporal", undefined);
    const ts = { seconds: 0n, nanos: 0 };
    for (const e of [
      catchWkt(() => timestampToTemporal(ts)),
      catchWkt(() => durationToTemporal(ts)),
      catchWkt(() => timestampToTemporal(ts, { path: "$.at" })),
    ]) {
      expect(e).toMatchObject({ rule: "range", jsonPath: "$", typeName: "options" });
      expect(e.message).toContain("temporal-polyfill");
    }
    // Reading needs no namespace.
    expect(timestampFromTemporal(instant("1970-01-01T00:00:00Z")).seconds).toBe(0n);
    expect(durationFromTemporal(duration("PT1S")).seconds).toBe(1n);
  });

  it("a polyfill installed on the global after loading is found", () => {
    vi.stubGlobal("Temporal", Polyfill);
    expect(timestampToTemporal({ seconds: 0n, nanos: 0 })).toBeInstanceOf(Polyfill.Instant);
    expect(durationToTemporal({ seconds: 1n, nanos: 0 })).toBeInstanceOf(Polyfill.Duration);
  });

  it.each<[string, unknown]>([
    ["an empty object", {}],
    ["a string", "Temporal"],
    ["a namespace without Duration", { Instant: Polyfill.Instant }],
  ])("refuses a temporal option that is %s (rule range, typeName options)", (_, t) => {
    const e = catchWkt(() => timestampToTemporal({ seconds: 0n, nanos: 0 }, { temporal: t as never }));
    expect(e).toMatchObject({ rule: "range", jsonPath: "$", typeName: "options" });
    expect(catchWkt(() => durationToTemporal({ seconds: 0n, nanos: 0 }, { temporal: t as never }))).toMatchObject({
      rule: "range",
      typeName: "options",
    });
  });

  it("refuses options that are not an object", () => {
    const e = catchWkt(() => timestampToTemporal({ seconds: 0n, nanos: 0 }, 5 as never));
    expect(e).toMatchObject({ rule: "range", typeName: "options" });
  });

  it("the option's namespace is used where the runtime has its own", () => {
    vi.stubGlobal("Temporal", { Instant: { fromEpochNanoseconds: () => "global" }, Duration: class {} });
    expect(timestampToTemporal({ seconds: 0n, nanos: 0 }, opts)).toBeInstanceOf(Polyfill.Instant);
  });
});

describe.runIf(native !== undefined)("the runtime's own Temporal", () => {
  const T = native as unknown as typeof Polyfill;

  it("builds the runtime's classes without the option", () => {
    const i = timestampToTemporal({ seconds: -1n, nanos: 999_999_999 });
    expect(i).toBeInstanceOf(T.Instant);
    expect(i.toString()).toBe("1969-12-31T23:59:59.999999999Z");
    const d = durationToTemporal({ seconds: -3600n, nanos: -1500 });
    expect(d).toBeInstanceOf(T.Duration);
    expect(d.toString()).toBe("-PT3600.0000015S");
  });

  it("reads the runtime's classes, and the polyfill's beside them", () => {
    expect(timestampFromTemporal(T.Instant.from("9999-12-31T23:59:59.999999999Z"))).toMatchObject({
      seconds: 253402300799n,
      nanos: 999999999,
    });
    expect(timestampFromTemporal(instant("0001-01-01T00:00:00Z")).seconds).toBe(-62135596800n);
    expect(durationFromTemporal(T.Duration.from("P1DT0.000000001S"))).toMatchObject({ seconds: 86_400n, nanos: 1 });
    expect(catchWkt(() => durationFromTemporal(T.Duration.from("P1Y")))).toMatchObject({ rule: "range" });
    expect(catchWkt(() => timestampFromTemporal(T.Instant.from("+010000-01-01T00:00:00Z")))).toMatchObject({
      rule: "range",
    });
  });
});
