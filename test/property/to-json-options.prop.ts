// Laws of the output options beyond protobuf-es's: int64AsNumber writes every int64 so that fromJson and
// fromJsonString read back the same integer, a number only where it prints as the integer's digits;
// floatShortest writes the shortest decimal that reads back as the same float32; the fields
// alwaysEmitImplicitFor and emitUnsetMessagesAsNull add read back as the message written; with every option
// together (unresolvedAny too), toJsonString prints what toJson returns.

import { create, toBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { FloatValueSchema } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromJson, fromJsonString } from "../../src/codec/from-json.js";
import { toJson, toJsonString } from "../../src/codec/to-json.js";
import { float32Shortest, float32ShortestSlow } from "../../src/internal/float32.js";
import { arbMessage } from "../arbitrary.js";
import { expectTextAgrees } from "../text-agrees.js";
import { TestAllTypesProto2, TestAllTypesProto3, testRegistry as registry } from "../conformance-registry.js";

type Msg = MessageShape<DescMessage>;
const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;

/** Any int64, with the values where the rule changes drawn often: near 2^53, powers of two and of ten. */
const arbInt64: fc.Arbitrary<bigint> = fc.oneof(
  fc.bigInt({ min: int64Min, max: int64Max }),
  fc
    .tuple(fc.bigInt({ min: -(2n ** 12n), max: 2n ** 12n }), fc.integer({ min: 0, max: 62 }))
    .map(([a, k]) => BigInt.asIntN(64, a << BigInt(k))),
  fc
    .tuple(fc.bigInt({ min: -999n, max: 999n }), fc.integer({ min: 0, max: 18 }))
    .map(([a, k]) => BigInt.asIntN(64, a * 10n ** BigInt(k))),
  fc.bigInt({ min: -3n, max: 3n }).map((d) => 2n ** 53n + d),
);

describe("int64AsNumber", () => {
  it("writes every int64 so that fromJson and fromJsonString read it back; a number only as its digits", () => {
    fc.assert(
      fc.property(arbInt64, (v) => {
        const m = create(TestAllTypesProto3, { optionalInt64: v, repeatedSfixed64: [v] });
        const json = toJson(TestAllTypesProto3, m, { int64AsNumber: true }) as Record<string, unknown>;
        const text = toJsonString(TestAllTypesProto3, m, { int64AsNumber: true });
        const digits = v.toString();
        const member = typeof json["optionalInt64"] === "number" ? digits : `"${digits}"`;
        if (v !== 0n) expect(text).toBe(`{"optionalInt64":${member},"repeatedSfixed64":[${member}]}`);
        expect(JSON.stringify(json)).toBe(text);
        expect((fromJsonString(TestAllTypesProto3, text) as Record<string, unknown>)["repeatedSfixed64"]).toEqual([v]);
        expect(
          (fromJson(TestAllTypesProto3, JSON.parse(text) as never) as Record<string, unknown>)["repeatedSfixed64"],
        ).toEqual([v]);
        // A number exactly where a double holds the integer and prints its digits.
        expect(typeof json["repeatedSfixed64"] === "object" && typeof (json["repeatedSfixed64"] as unknown[])[0]).toBe(
          String(Number(v)) === digits && BigInt(Number(v)) === v ? "number" : "string",
        );
      }),
      { numRuns: 300 },
    );
  });
});

/** The significant digits of a JSON number's text: "-1.25e-7" has 3. */
function significantDigits(text: string): number {
  const mantissa = text.replace(/^-/, "").replace(/e.*$/i, "").replace(".", "");
  return mantissa.replace(/^0+/, "").replace(/0+$/, "").length;
}

/** Whether a decimal of `p` significant digits rounds to the float32 `v` (the two on either side of it). */
function someDecimalOf(v: number, p: number): boolean {
  const text = v.toExponential(p - 1);
  const e = text.indexOf("e");
  const digits = Number(text.slice(0, e).replace(".", ""));
  const exp = Number(text.slice(e + 1)) - (p - 1);
  return [digits - 1, digits, digits + 1].some((m) => Math.fround(Number(`${m}e${exp}`)) === v);
}

/** A float32 from its bits: every pattern, NaNs aside. */
const arbFloat32: fc.Arbitrary<number> = fc
  .integer({ min: 0, max: 2 ** 32 - 1 })
  .map((bits) => new Float32Array(new Uint32Array([bits]).buffer)[0]!)
  .filter((v) => v === v);

describe("floatShortest", () => {
  it("writes the shortest decimal that reads back as the same float32", () => {
    fc.assert(
      fc.property(arbFloat32, (v) => {
        const m = create(FloatValueSchema, { value: v });
        const text = toJsonString(FloatValueSchema, m, { floatShortest: true });
        if (!Number.isFinite(v) || v === 0) {
          expect(text).toBe(v === 0 ? (Object.is(v, -0) ? "-0" : "0") : v > 0 ? '"Infinity"' : '"-Infinity"');
          return;
        }
        expect(Math.fround(Number(text))).toBe(v);
        expect(Math.fround(fromJsonString(FloatValueSchema, text).value)).toBe(v);
        const p = significantDigits(text);
        if (p > 1) expect(someDecimalOf(v, p - 1)).toBe(false);
        // The search by toPrecision finds as many digits (they differ at a tie, which goes to the even digit).
        expect(significantDigits(String(float32ShortestSlow(v)))).toBe(p);
        expect(toJson(FloatValueSchema, m, { floatShortest: true })).toBe(float32Shortest(v));
      }),
      { numRuns: 2000 },
    );
  });
});

describe.each([
  ["proto3", TestAllTypesProto3, ["optional_int32", "optionalFloat", "repeated_string", "optional_nested_message.a"]],
  [
    "proto2",
    TestAllTypesProto2,
    ["repeated_int32", "map_string_string", "optional_nested_message.corecursive.repeated_string"],
  ],
] as const)("%s: fields written although unset", (_, desc, paths) => {
  it("read back as the message written", () => {
    const options = fc.record({
      alwaysEmitImplicitFor: fc.subarray([...paths]),
      emitUnsetMessagesAsNull: fc.oneof(fc.boolean(), fc.constant(["recursive_message"])),
      useProtoFieldName: fc.boolean(),
    });
    fc.assert(
      fc.property(arbMessage(desc, { maxDepth: 2 }), options, (m, o) => {
        const message = m as Msg;
        const back = fromJson(desc, toJson(desc, message, { registry, ...o }), { registry }) as Msg;
        expect(back).toEqual(message);
        expect(toBinary(desc, back)).toEqual(toBinary(desc, message));
      }),
      { numRuns: 25 },
    );
  });
});

describe("every option together", () => {
  // Without the registry, an Any of a test message is one the writer cannot resolve: unresolvedAny decides.
  const options = fc.record(
    {
      registry: fc.constantFrom(registry, undefined),
      int64AsNumber: fc.boolean(),
      floatShortest: fc.boolean(),
      enumAsInteger: fc.boolean(),
      useProtoFieldName: fc.boolean(),
      alwaysEmitImplicit: fc.boolean(),
      alwaysEmitImplicitFor: fc.subarray(["repeated_any", "optional_int64", "recursive_message.optional_float"]),
      emitUnsetMessagesAsNull: fc.oneof(fc.boolean(), fc.constant(["optional_any", "recursive_message"])),
      unresolvedAny: fc.constantFrom("error" as const, "skip" as const, "raw" as const),
    },
    { requiredKeys: [] },
  );
  it("toJsonString prints what toJson returns, or throws its error; raw and skip read back", () => {
    fc.assert(
      fc.property(arbMessage(TestAllTypesProto3, { maxDepth: 2 }), options, (m, o) => {
        expectTextAgrees(TestAllTypesProto3, m as Msg, o);
        if (o.unresolvedAny === "raw" && o.registry === undefined && o.int64AsNumber !== true) {
          // The raw form reads back under the same option, registry or not: the same binary.
          let json: unknown;
          try {
            json = toJson(TestAllTypesProto3, m as Msg, o);
          } catch {
            return; // an error of another kind (say, a depth): the agreement above is what is checked
          }
          const back = fromJson(TestAllTypesProto3, json as never, { unresolvedAny: "raw" }) as Msg;
          expect(toBinary(TestAllTypesProto3, back)).toEqual(toBinary(TestAllTypesProto3, m as Msg));
        }
      }),
      { numRuns: 100 },
    );
  });
});
