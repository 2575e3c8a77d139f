// The output options beyond protobuf-es's (src/codec/to-json-emit.ts, to-json-scalar.ts, internal/float32.ts):
// int64AsNumber, floatShortest, alwaysEmitImplicitFor and emitUnsetMessagesAsNull. Rows assert the output, or
// `[rule, path]` of the error; each option's output is read back by fromJson.

import { create, equals, toBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import {
  FloatValueSchema,
  Int64ValueSchema,
  UInt64ValueSchema,
  anyPack as esAnyPack,
  AnySchema,
} from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { fromJson, fromJsonString } from "../src/codec/from-json.js";
import { toJson, toJsonString, type JsonWriteOptions } from "../src/codec/to-json.js";
import { TestAllTypesProto2, TestAllTypesProto3, testRegistry as registry } from "./conformance-registry.js";
import { catchWkt } from "./helpers.js";

type Msg = MessageShape<DescMessage>;
const f32 = Math.fround;

function proto3(init: Record<string, unknown>): Msg {
  return create(TestAllTypesProto3, init as never) as Msg;
}

/** toJson's value, which toJsonString prints as JSON.stringify does, on one line and indented. */
function written(m: Msg, options: Partial<JsonWriteOptions>, desc: DescMessage = TestAllTypesProto3): unknown {
  const json = toJson(desc, m as never, { registry, ...options });
  expect(toJsonString(desc, m as never, { registry, ...options })).toBe(JSON.stringify(json));
  expect(toJsonString(desc, m as never, { registry, ...options, prettySpaces: 2 })).toBe(JSON.stringify(json, null, 2));
  return json;
}

/** fromJson reads back the output of `options` as the message written (the same JavaScript values). */
function expectReadBack(m: Msg, options: Partial<JsonWriteOptions>, desc: DescMessage = TestAllTypesProto3): void {
  const back = fromJson(desc, toJson(desc, m as never, { registry, ...options }), { registry });
  expect(equals(desc, back as never, m as never, { registry, unknown: true, extensions: true })).toBe(true);
  const text = fromJsonString(desc, toJsonString(desc, m as never, { registry, ...options }), { registry });
  expect(equals(desc, text as never, m as never, { registry, unknown: true, extensions: true })).toBe(true);
}

describe("int64AsNumber", () => {
  const opts = { int64AsNumber: true };
  it.each([
    [5n, 5],
    [-5n, -5],
    [9007199254740991n, 9007199254740991],
    [9007199254740992n, 9007199254740992], // 2^53: printed as its digits
    [9007199254740993n, "9007199254740993"], // no double holds it
    [-9007199254740992n, -9007199254740992],
    [10n ** 18n, 1e18], // a double holds it, and prints it as its digits
    [2n ** 60n, "1152921504606846976"], // a double holds it, but prints 1152921504606847000
    [361664567702834100n, "361664567702834100"], // prints as its digits, but the double is ...112 (found by fast-check)
    [-(2n ** 63n), "-9223372036854775808"],
    [2n ** 63n - 1n, "9223372036854775807"],
  ])("int64 %s is written %j", (v, json) => {
    const m = proto3({ optionalInt64: v, optionalSint64: v, optionalSfixed64: v });
    expect(written(m, opts)).toEqual({ optionalInt64: json, optionalSint64: json, optionalSfixed64: json });
    expectReadBack(m, opts);
  });

  it.each([
    [0n, undefined],
    [1n, 1],
    [2n ** 64n - 1n, "18446744073709551615"],
    [2n ** 64n - 2n ** 11n, "18446744073709549568"],
  ])("uint64 and fixed64 %s is written %j", (v, json) => {
    const m = proto3({ optionalUint64: v, optionalFixed64: v });
    expect(written(m, opts)).toEqual(json === undefined ? {} : { optionalUint64: json, optionalFixed64: json });
  });

  it("writes lists, map values, wrappers and an Any's 64-bit integers; map keys stay strings", () => {
    const m = proto3({
      repeatedInt64: [1n, 2n ** 60n],
      packedUint64: [3n],
      mapInt64Int64: { "7": 8n, "-9": 2n ** 62n + 1n },
      mapUint64Uint64: { "10": 11n },
      optionalInt64Wrapper: 12n,
      repeatedUint64Wrapper: [create(UInt64ValueSchema, { value: 13n })],
      optionalAny: esAnyPack(Int64ValueSchema, create(Int64ValueSchema, { value: -14n })),
    });
    expect(written(m, opts)).toEqual({
      repeatedInt64: [1, "1152921504606846976"],
      packedUint64: [3],
      mapInt64Int64: { "7": 8, "-9": "4611686018427387905" },
      mapUint64Uint64: { "10": 11 },
      optionalInt64Wrapper: 12,
      repeatedUint64Wrapper: [13],
      optionalAny: { "@type": "type.googleapis.com/google.protobuf.Int64Value", value: -14 },
    });
    expectReadBack(m, opts);
    expect(toJson(Int64ValueSchema, create(Int64ValueSchema, { value: 15n }), opts)).toBe(15);
    expect(toJsonString(UInt64ValueSchema, create(UInt64ValueSchema, { value: 16n }), opts)).toBe("16");
  });

  it("is off by default, and leaves the writers of the type as they were", () => {
    const m = proto3({ optionalInt64: 5n, repeatedInt64: [6n] });
    expect(toJson(TestAllTypesProto3, m as never, opts)).toEqual({ optionalInt64: 5, repeatedInt64: [6] });
    expect(toJson(TestAllTypesProto3, m as never)).toEqual({ optionalInt64: "5", repeatedInt64: ["6"] });
    expect(toJsonString(TestAllTypesProto3, m as never)).toBe('{"optionalInt64":"5","repeatedInt64":["6"]}');
  });
});

describe("floatShortest", () => {
  const opts = { floatShortest: true };
  it.each([
    [f32(0.1), 0.1, "0.1"],
    [f32(-0.1), -0.1, "-0.1"],
    [f32(1 / 3), 0.33333334, "0.33333334"],
    [f32(3.4028234663852886e38), 3.4028235e38, "3.4028235e+38"], // the largest float
    [f32(1.401298464324817e-45), 1e-45, "1e-45"], // the smallest: Go prints 1e-45 too
    [f32(1.1754943508222875e-38), 1.1754944e-38, "1.1754944e-38"], // 2^-126
    [f32(16777216), 16777216, "16777216"],
    [f32(123456.789), 123456.79, "123456.79"],
    [0.123456789012, 0.123456789012, "0.123456789012"], // not a float32 (a double fromJson left): as it is
    [NaN, "NaN", '"NaN"'],
    [-Infinity, "-Infinity", '"-Infinity"'],
    [-0, -0, "-0"],
  ])("float %s is written %s", (v, json, text) => {
    const m = proto3({ optionalFloat: v });
    expect(toJson(TestAllTypesProto3, m as never, opts)).toEqual({ optionalFloat: json });
    expect(toJsonString(TestAllTypesProto3, m as never, opts)).toBe(`{"optionalFloat":${text}}`);
    const back = fromJsonString(TestAllTypesProto3, toJsonString(TestAllTypesProto3, m as never, opts));
    expect(toBinary(TestAllTypesProto3, back)).toEqual(toBinary(TestAllTypesProto3, m as never));
  });

  it("writes lists, map values, FloatValue wrappers and an Any's FloatValue; doubles as they are", () => {
    const m = proto3({
      repeatedFloat: [f32(0.1), f32(2.5)],
      mapInt32Float: { "1": f32(0.7) },
      optionalFloatWrapper: f32(0.2),
      repeatedFloatWrapper: [create(FloatValueSchema, { value: f32(0.3) })],
      optionalAny: esAnyPack(FloatValueSchema, create(FloatValueSchema, { value: f32(0.4) })),
      optionalDouble: f32(0.1),
    });
    expect(written(m, opts)).toEqual({
      repeatedFloat: [0.1, 2.5],
      mapInt32Float: { "1": 0.7 },
      optionalFloatWrapper: 0.2,
      repeatedFloatWrapper: [0.3],
      optionalAny: { "@type": "type.googleapis.com/google.protobuf.FloatValue", value: 0.4 },
      optionalDouble: 0.10000000149011612,
    });
    expect(toJson(FloatValueSchema, create(FloatValueSchema, { value: f32(0.5) }), opts)).toBe(0.5);
    expect(toJsonString(FloatValueSchema, create(FloatValueSchema, { value: f32(0.1) }), opts)).toBe("0.1");
  });

  it("is off by default: the double's digits, as protobuf-es writes them", () => {
    const m = proto3({ optionalFloat: f32(0.1) });
    expect(toJson(TestAllTypesProto3, m as never, opts)).toEqual({ optionalFloat: 0.1 });
    expect(toJson(TestAllTypesProto3, m as never)).toEqual({ optionalFloat: 0.10000000149011612 });
    expect(toJsonString(FloatValueSchema, create(FloatValueSchema, { value: f32(0.1) }))).toBe("0.10000000149011612");
  });
});

describe("alwaysEmitImplicitFor", () => {
  it("writes the named fields with their default values, by proto or JSON name, into nested messages", () => {
    const m = proto3({ optionalNestedMessage: {}, repeatedNestedMessage: [{ a: 1 }, {}] });
    const opts = {
      alwaysEmitImplicitFor: ["optional_int32", "repeatedString", "map_string_string", "optional_nested_message.a"],
    };
    expect(written(m, opts)).toEqual({
      optionalInt32: 0,
      optionalNestedMessage: { a: 0 },
      repeatedString: [],
      repeatedNestedMessage: [{ a: 1 }, { a: 0 }], // a field of a type: written in every message of it
      mapStringString: {},
    });
    expectReadBack(m, opts);
    expect(written(m, { ...opts, useProtoFieldName: true })).toMatchObject({ optional_int32: 0 });
  });

  it("writes a set field as before, and no other field", () => {
    const m = proto3({ optionalInt32: 3, optionalString: "" });
    expect(written(m, { alwaysEmitImplicitFor: ["optional_int32", "optional_bool"] })).toEqual({
      optionalInt32: 3,
      optionalBool: false,
    });
  });
});

describe("emitUnsetMessagesAsNull", () => {
  it("true: every unset message field is null, but a oneof member, a Value, and fields inside", () => {
    const m = proto3({ optionalNestedMessage: { a: 1 } });
    const json = written(m, { emitUnsetMessagesAsNull: true }) as Record<string, unknown>;
    expect(json["optionalNestedMessage"]).toEqual({ a: 1, corecursive: null });
    expect(json["recursiveMessage"]).toBe(null);
    expect(json["optionalTimestamp"]).toBe(null);
    expect(json["optionalInt64Wrapper"]).toBe(null);
    expect(json["optionalStruct"]).toBe(null);
    expect("optionalValue" in json).toBe(false); // null would read back as a NullValue
    expect("oneofNestedMessage" in json).toBe(false);
    expect("optionalInt32" in json).toBe(false);
    expectReadBack(m, { emitUnsetMessagesAsNull: true });
  });

  it("paths: the named fields only; proto2 optional messages too", () => {
    const m = proto3({});
    expect(written(m, { emitUnsetMessagesAsNull: ["recursive_message", "optionalDuration"] })).toEqual({
      recursiveMessage: null,
      optionalDuration: null,
    });
    const m2 = create(TestAllTypesProto2) as Msg;
    expect(written(m2, { emitUnsetMessagesAsNull: ["optional_foreign_message"] }, TestAllTypesProto2)).toEqual({
      optionalForeignMessage: null,
    });
    expectReadBack(m2, { emitUnsetMessagesAsNull: true }, TestAllTypesProto2);
  });

  it("leaves the writers of the type as they were for a call without it", () => {
    const m = proto3({ optionalNestedMessage: {} });
    expect(written(m, { emitUnsetMessagesAsNull: ["recursive_message"] })).toEqual({
      optionalNestedMessage: {},
      recursiveMessage: null,
    });
    expect(toJson(TestAllTypesProto3, m as never)).toEqual({ optionalNestedMessage: {} });
    expect(toJsonString(TestAllTypesProto3, m as never)).toBe('{"optionalNestedMessage":{}}');
  });

  it("with alwaysEmitImplicitFor, and inside an Any", () => {
    const inner = proto3({});
    const m = proto3({ optionalAny: esAnyPack(TestAllTypesProto3, inner as never) });
    const opts = { emitUnsetMessagesAsNull: true, alwaysEmitImplicitFor: ["optional_bool"] };
    const json = written(m, opts) as Record<string, Record<string, unknown>>;
    expect(json["optionalBool"]).toBe(false);
    expect(json["optionalAny"]!["recursiveMessage"]).toBe(null);
    expect(json["optionalAny"]!["optionalBool"]).toBe(false);
    expectReadBack(m, opts);
  });
});

describe("checked options", () => {
  it.each([
    [{ int64AsNumber: "yes" }, "json-type"],
    [{ floatShortest: 1 }, "json-type"],
    [{ alwaysEmitImplicitFor: "title" }, "json-type"],
    [{ alwaysEmitImplicitFor: [1] }, "json-type"],
    [{ emitUnsetMessagesAsNull: "all" }, "json-type"],
    [{ emitUnsetMessagesAsNull: [null] }, "json-type"],
    [{ alwaysEmitImplicitFor: ["title"] }, "unknown-field"], // no such field
    [{ alwaysEmitImplicitFor: [""] }, "unknown-field"],
    [{ alwaysEmitImplicitFor: ["optional_nested_message.b"] }, "unknown-field"],
    [{ alwaysEmitImplicitFor: ["optional_int32.a"] }, "unknown-field"], // not a message field
    [{ alwaysEmitImplicitFor: ["map_string_string.a"] }, "unknown-field"], // map of strings
    [{ alwaysEmitImplicitFor: ["optional_timestamp.seconds"] }, "unknown-field"], // its own JSON form
    [{ alwaysEmitImplicitFor: ["oneof_uint32"] }, "unknown-field"], // a oneof member
    [{ alwaysEmitImplicitFor: ["optional_nested_message"] }, "unknown-field"], // explicit presence
    [{ emitUnsetMessagesAsNull: ["optional_int32"] }, "unknown-field"], // not a message
    [{ emitUnsetMessagesAsNull: ["repeated_nested_message"] }, "unknown-field"], // a list
    [{ emitUnsetMessagesAsNull: ["oneof_nested_message"] }, "unknown-field"],
    [{ emitUnsetMessagesAsNull: ["optional_value"] }, "unknown-field"], // null is a NullValue
  ])("%j is rule %s at $", (options, rule) => {
    const writers = [toJson, toJsonString] as ((s: DescMessage, m: Msg, o: unknown) => unknown)[];
    for (const write of writers) {
      const e = catchWkt(() => write(TestAllTypesProto3, proto3({}), options));
      expect([e.rule, e.jsonPath, e.typeName]).toEqual([rule, "$", "options"]);
    }
  });

  it("names the option and the path", () => {
    const e = catchWkt(() => toJson(TestAllTypesProto3, proto3({}) as never, { alwaysEmitImplicitFor: ["a.b"] }));
    expect(e.message).toContain('alwaysEmitImplicitFor: path "a.b"');
  });

  it("quotes a long path, or a long value of unresolvedAny, cut short: the message stays small", () => {
    const long = "x".repeat(1e6);
    for (const options of [
      { alwaysEmitImplicitFor: [long] },
      { emitUnsetMessagesAsNull: ["optional_nested_message." + long] },
      { unresolvedAny: long as never },
    ]) {
      const e = catchWkt(() => toJson(TestAllTypesProto3, proto3({}) as never, options));
      expect(e.message.length).toBeLessThan(300);
      expect(e.message).toContain("(1000000 characters)");
    }
  });

  it("takes false and undefined as not given", () => {
    const m = proto3({ optionalInt64: 5n });
    const none = { int64AsNumber: false, floatShortest: undefined, emitUnsetMessagesAsNull: false };
    expect(toJsonString(TestAllTypesProto3, m as never, none)).toBe('{"optionalInt64":"5"}');
    expect(toJson(AnySchema, create(AnySchema), { alwaysEmitImplicitFor: [] })).toEqual({});
  });
});
