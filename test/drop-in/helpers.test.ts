// protobuf-es's helpers of the well-known types (@bufbuild/protobuf/wkt) side by side with wkt-json's functions of
// the same names: every name is exported, every valid input gives protobuf-es's result, and where protobuf-es
// gives a wrong value without a word (an out-of-range Timestamp, a fraction of a nanosecond, a Duration whose
// fields disagree in sign, a malformed type URL), ours throws WktJsonError or gives the exact value. The
// differences are listed in helperDifferences; helper-types.ts checks the signatures.

import { readFileSync } from "node:fs";
import { create, createRegistry, toBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import * as pe from "@bufbuild/protobuf/wkt";
import {
  AnySchema,
  DurationSchema,
  EmptySchema,
  FieldMaskSchema,
  StructSchema,
  TimestampSchema,
  type Any,
} from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import * as ours from "../../src/index.js";
import { durationSecondsMax, timestampSecondsMax, timestampSecondsMin } from "../../src/limits.js";
import { arbMessage } from "../arbitrary.js";
import { ForeignMessage, TestAllTypesProto3, testRegistry } from "../conformance-registry.js";
import { catchWkt } from "../helpers.js";

const runs = { numRuns: 500 };

/** Every helper of @bufbuild/protobuf/wkt, and how ours differs. The README's drop-in table lists these rows. */
export const helperDifferences: readonly { name: string; ours: string }[] = [
  { name: "timestampNow", ours: "the same" },
  { name: "timestampFromDate", ours: "an invalid Date, a non-Date, or a date outside years 1 to 9999: rule range" },
  {
    name: "timestampDate",
    ours: "an invalid Timestamp (nanos outside 0 to 999,999,999, seconds out of range): rule range",
  },
  {
    name: "timestampFromMs",
    ours: "NaN, Infinity or out of range: rule range; a fraction is read from the number's shortest decimal form to the nearest nanosecond (1700000000000.1 is 100,000 ns; protobuf-es computes in binary and gives nanos 100097.65625, no integer)",
  },
  { name: "timestampMs", ours: "an invalid Timestamp: rule range" },
  {
    name: "durationFromMs",
    ours: "NaN, Infinity or beyond ±315,576,000,000 s: rule range; a fraction read from the shortest decimal form, as timestampFromMs",
  },
  { name: "durationMs", ours: "an invalid Duration: rule range, or sign for seconds and nanos of opposite signs" },
  {
    name: "anyPack",
    ours: "a message not of the schema: rule json-type; a third argument that is no Any is options ({ typeUrlPrefix })",
  },
  {
    name: "anyUnpack",
    ours: "a malformed type URL: rule type-url; bytes that are no such message: rule binary; the well-known types resolve without a registry; the registry may be left out",
  },
  { name: "anyIs", ours: "a malformed type URL (no '/', an ftp: scheme): rule type-url" },
  { name: "anyUnpackTo", ours: "bytes that are no such message: rule binary, and the target is left as it was" },
];

const minMs = timestampSecondsMin * 1000;
const maxMs = timestampSecondsMax * 1000 + 999;
const arbTimestamp = fc.record({
  seconds: fc.bigInt({ min: BigInt(timestampSecondsMin), max: BigInt(timestampSecondsMax) }),
  nanos: fc.oneof(fc.integer({ min: 0, max: 999_999_999 }), fc.constantFrom(0, 499_999, 500_000, 999_500_000)),
});
const arbDuration = fc
  .record({
    seconds: fc.bigInt({ min: 0n, max: BigInt(durationSecondsMax) }),
    nanos: fc.integer({ min: 0, max: 999_999_999 }),
    negative: fc.boolean(),
  })
  .map(({ seconds, nanos, negative }) =>
    negative ? { seconds: -seconds, nanos: nanos === 0 ? 0 : -nanos } : { seconds, nanos },
  );

function message<Desc extends DescMessage>(desc: Desc, init: Record<string, unknown>): MessageShape<Desc> {
  return create(desc, init as never);
}

describe("protobuf-es's helper names", () => {
  it("are each exported, as functions", () => {
    for (const { name } of helperDifferences) {
      expect(typeof (pe as Record<string, unknown>)[name]).toBe("function");
      expect(typeof (ours as Record<string, unknown>)[name]).toBe("function");
    }
  });

  it("are the rows of the table in docs/switching-from-protobuf-es.md, in order", () => {
    const page = readFileSync(new URL("../../docs/switching-from-protobuf-es.md", import.meta.url), "utf8");
    const table = page.slice(page.indexOf("<!-- helpers:start -->"), page.indexOf("<!-- helpers:end -->"));
    const listed = [...table.matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]);
    expect(listed).toEqual(helperDifferences.map((d) => d.name));
  });
});

describe("same results as protobuf-es on valid input", () => {
  it("timestampFromMs: integer milliseconds over the whole range, and fractions exact in binary and decimal", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: minMs, max: maxMs }), fc.integer({ min: -5000, max: 5000 })),
        fc.integer({ min: -999_999_999, max: 999_999_999 }),
        fc.integer({ min: 0, max: 63 }),
        (ms, small, sixtyFourths) => {
          expect(ours.timestampFromMs(ms)).toEqual(pe.timestampFromMs(ms));
          // 1/64 ms is 15,625 ns, and below 1e9 ms the number's shortest decimal form is its exact value: no
          // rounding in either library. (Past 15 significant digits ours reads the shortest decimal form, which
          // can differ from the binary value by less than the double's resolution: helperDifferences.)
          const x = small + sixtyFourths / 64;
          expect(ours.timestampFromMs(x)).toEqual(pe.timestampFromMs(x));
        },
      ),
      runs,
    );
  });

  it("timestampFromDate, timestampDate and timestampMs", () => {
    fc.assert(
      fc.property(fc.integer({ min: minMs, max: maxMs }), arbTimestamp, (ms, fields) => {
        const date = new Date(ms);
        expect(ours.timestampFromDate(date)).toEqual(pe.timestampFromDate(date));
        const ts = message(TimestampSchema, fields);
        expect(ours.timestampMs(ts)).toBe(pe.timestampMs(ts));
        expect(ours.timestampDate(ts).getTime()).toBe(pe.timestampDate(ts).getTime());
      }),
      runs,
    );
  });

  it("timestampNow: the current time, to the millisecond", () => {
    const before = Date.now();
    const now = ours.timestampNow();
    const after = Date.now();
    expect(now.$typeName).toBe(pe.timestampNow().$typeName);
    expect(now.nanos % 1_000_000).toBe(0);
    expect(pe.timestampMs(now)).toBeGreaterThanOrEqual(before);
    expect(pe.timestampMs(now)).toBeLessThanOrEqual(after);
  });

  it("durationFromMs and durationMs", () => {
    const msMax = durationSecondsMax * 1000;
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -msMax, max: msMax }), fc.integer({ min: -5000, max: 5000 })),
        arbDuration,
        (ms, fields) => {
          expect(ours.durationFromMs(ms)).toEqual(pe.durationFromMs(ms));
          const d = message(DurationSchema, fields);
          expect(ours.durationMs(d)).toBe(pe.durationMs(d));
        },
      ),
      runs,
    );
  });

  it("anyPack, anyIs, anyUnpack (registry and schema) and anyUnpackTo, on random messages", () => {
    const registry = createRegistry(testRegistry, pe.file_google_protobuf_struct);
    const schemas: DescMessage[] = [TestAllTypesProto3, ForeignMessage, DurationSchema, StructSchema, FieldMaskSchema];
    for (const schema of schemas) {
      fc.assert(
        fc.property(arbMessage(schema, { maxDepth: 2, anyTypes: [DurationSchema, ForeignMessage] }), (init) => {
          const m = init as MessageShape<DescMessage>;
          const a = ours.anyPack(schema, m);
          expect(a).toEqual(pe.anyPack(schema, m));
          const intoOurs = create(AnySchema);
          const intoPe = create(AnySchema);
          expect(ours.anyPack(schema, m, intoOurs)).toBe(pe.anyPack(schema, m, intoPe));
          expect(intoOurs).toEqual(intoPe);
          for (const other of [schema, EmptySchema, TimestampSchema]) {
            expect(ours.anyIs(a, other)).toBe(pe.anyIs(a, other));
            expect(ours.anyIs(a, other.typeName)).toBe(pe.anyIs(a, other.typeName));
            expect(ours.anyUnpack(a, other)).toEqual(pe.anyUnpack(a, other));
            const targetOurs = create(other);
            const targetPe = create(other);
            expect(ours.anyUnpackTo(a, other, targetOurs)).toEqual(pe.anyUnpackTo(a, other, targetPe));
            expect(targetOurs).toEqual(targetPe);
          }
          expect(ours.anyUnpack(a, registry)).toEqual(pe.anyUnpack(a, registry));
          expect(toBinary(AnySchema, a)).toEqual(toBinary(AnySchema, pe.anyPack(schema, m)));
        }),
        { numRuns: 50 },
      );
    }
  });

  it("anyUnpack and anyIs: an empty Any is undefined and false; a type the registry lacks, undefined", () => {
    const empty = create(AnySchema);
    const registry = createRegistry();
    expect(ours.anyUnpack(empty, registry)).toBe(pe.anyUnpack(empty, registry));
    expect(ours.anyUnpack(empty, DurationSchema)).toBe(pe.anyUnpack(empty, DurationSchema));
    expect(ours.anyIs(empty, DurationSchema)).toBe(pe.anyIs(empty, DurationSchema));
    const user = ours.anyPack(ForeignMessage, message(ForeignMessage, { c: 1 }));
    expect(ours.anyUnpack(user, registry)).toBe(pe.anyUnpack(user, registry)); // undefined
    expect(ours.anyUnpack(user, registry)).toBeUndefined();
  });
});

describe("where protobuf-es gives a wrong value without a word, ours refuses it or is exact", () => {
  const outOfRange = message(TimestampSchema, { seconds: 0n, nanos: -1 });

  it.each<[string, () => unknown, () => unknown, string]>([
    // [what, ours, protobuf-es (returns a value), our rule]
    ["timestampFromMs(1e16): year 318857", () => ours.timestampFromMs(1e16), () => pe.timestampFromMs(1e16), "range"],
    [
      "timestampFromDate of year -10000",
      () => ours.timestampFromDate(new Date("-010000-01-01T00:00:00Z")),
      () => pe.timestampFromDate(new Date("-010000-01-01T00:00:00Z")),
      "range",
    ],
    ["timestampDate of nanos -1", () => ours.timestampDate(outOfRange), () => pe.timestampDate(outOfRange), "range"],
    ["timestampMs of nanos -1", () => ours.timestampMs(outOfRange), () => pe.timestampMs(outOfRange), "range"],
    [
      "timestampMs of seconds 2^60 + 1 (inexact)",
      () => ours.timestampMs(message(TimestampSchema, { seconds: 2n ** 60n + 1n })),
      () => pe.timestampMs(message(TimestampSchema, { seconds: 2n ** 60n + 1n })),
      "range",
    ],
    ["durationFromMs(1e20)", () => ours.durationFromMs(1e20), () => pe.durationFromMs(1e20), "range"],
    [
      "durationMs of 1 s and -0.5 s (signs disagree)",
      () => ours.durationMs(message(DurationSchema, { seconds: 1n, nanos: -500_000_000 })),
      () => pe.durationMs(message(DurationSchema, { seconds: 1n, nanos: -500_000_000 })),
      "sign",
    ],
    [
      "anyUnpack of an ftp: type URL",
      () => ours.anyUnpack(ftpAny(), DurationSchema),
      () => pe.anyUnpack(ftpAny(), DurationSchema),
      "type-url",
    ],
    [
      "anyIs of a type URL without '/'",
      () => ours.anyIs(noSlashAny(), DurationSchema),
      () => pe.anyIs(noSlashAny(), DurationSchema),
      "type-url",
    ],
  ])("%s", (_, oursCall, peCall, rule) => {
    expect(peCall()).toBeDefined(); // protobuf-es answers
    expect(catchWkt(oursCall)).toMatchObject({ rule, jsonPath: "$" });
  });

  it("timestampFromMs with a fraction: the number's decimal value, where protobuf-es's nanos is not an integer", () => {
    const ms = 1_700_000_000_000.1; // performance.timeOrigin + performance.now() gives such values
    expect(pe.timestampFromMs(ms).nanos).toBe(100_097.65625); // not a valid int32
    expect(ours.timestampFromMs(ms)).toEqual(message(TimestampSchema, { seconds: 1_700_000_000n, nanos: 100_000 }));
  });

  it.each<[string, () => unknown, string]>([
    ["timestampFromMs(NaN)", () => ours.timestampFromMs(NaN), "range"],
    ["timestampFromDate(new Date(NaN))", () => ours.timestampFromDate(new Date(NaN)), "range"],
    ["timestampFromDate of a string", () => ours.timestampFromDate("2020-01-01" as never), "range"],
    ["durationFromMs(Infinity)", () => ours.durationFromMs(Infinity), "range"],
    [
      "anyUnpack of bytes that are no Duration",
      () =>
        ours.anyUnpack(
          { ...ours.anyPack(DurationSchema, create(DurationSchema)), value: new Uint8Array([255]) },
          DurationSchema,
        ),
      "binary",
    ],
  ])("where protobuf-es throws its own Error, ours is a WktJsonError: %s", (_, call, rule) => {
    expect(catchWkt(call)).toMatchObject({ rule, jsonPath: "$" });
  });
});

function ftpAny(): Any {
  return {
    ...pe.anyPack(DurationSchema, create(DurationSchema, { seconds: 1n })),
    typeUrl: "ftp://x/google.protobuf.Duration",
  };
}

function noSlashAny(): Any {
  return { ...pe.anyPack(DurationSchema, create(DurationSchema)), typeUrl: "google.protobuf.Duration" };
}
