import { create, type DescMessage, type JsonValue, type MessageShape } from "@bufbuild/protobuf";
import {
  BoolValueSchema,
  BytesValueSchema,
  DoubleValueSchema,
  DurationSchema,
  FloatValueSchema,
  Int32ValueSchema,
  Int64ValueSchema,
  StringValueSchema,
  StructSchema,
  TimestampSchema,
  UInt32ValueSchema,
  UInt64ValueSchema,
} from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anyPack, anyUnpack } from "../src/wkt/any.js";
import { anyFromJson, anyToJson } from "../src/codec/any-codec.js";
import { isWktJsonError } from "../src/errors.js";
import { fromJson, fromJsonString } from "../src/codec/from-json.js";
import { toJson } from "../src/codec/to-json.js";
import { wrapperFromJson, wrapperIsSchema, wrapperToJson } from "../src/wkt/wrappers.js";
import { arbMessage, wrapperSchemas } from "./arbitrary.js";
import { TestAllTypesProto3 } from "./conformance-registry.js";
import { catchWkt } from "./helpers.js";

type Fields = Record<string, unknown>;

describe("wrapperIsSchema", () => {
  it.each(wrapperSchemas.map((s) => [s.typeName, s] as const))("%s is a wrapper", (_, schema) => {
    expect(wrapperIsSchema(schema)).toBe(true);
  });

  it.each([TimestampSchema, DurationSchema, StructSchema, TestAllTypesProto3].map((s) => [s.typeName, s] as const))(
    "%s is not",
    (_, schema) => {
      expect(wrapperIsSchema(schema)).toBe(false);
    },
  );

  it("recognizes wrapper descriptors from another registry by name", () => {
    const field = TestAllTypesProto3.fields.find((f) => f.localName === "optionalInt32Wrapper")!;
    expect(field.message).not.toBe(Int32ValueSchema);
    expect(wrapperIsSchema(field.message!)).toBe(true);
  });
});

// [schema, JSON value, the wrapped value]: the JSON form is the bare JSON form of the scalar.
const valid: [DescMessage, JsonValue, unknown][] = [
  [DoubleValueSchema, 1.5, 1.5],
  [DoubleValueSchema, "NaN", NaN],
  [DoubleValueSchema, "-Infinity", -Infinity],
  [DoubleValueSchema, 1.7976931348623157e308, 1.7976931348623157e308],
  [FloatValueSchema, 3.4028235e38, 3.4028235e38],
  [FloatValueSchema, "Infinity", Infinity],
  [Int64ValueSchema, "-9223372036854775808", -(2n ** 63n)],
  [Int64ValueSchema, "9223372036854775807", 2n ** 63n - 1n],
  [UInt64ValueSchema, "18446744073709551615", 2n ** 64n - 1n],
  [UInt64ValueSchema, "0", 0n],
  [Int32ValueSchema, -2147483648, -2147483648],
  [Int32ValueSchema, 2147483647, 2147483647],
  [UInt32ValueSchema, 4294967295, 4294967295],
  [BoolValueSchema, true, true],
  [BoolValueSchema, false, false],
  [StringValueSchema, "", ""],
  [StringValueSchema, "😀", "😀"],
  [BytesValueSchema, "AQID", new Uint8Array([1, 2, 3])],
  [BytesValueSchema, "", new Uint8Array(0)],
];

// [schema, JSON value, rule]
const invalid: [DescMessage, unknown, string][] = [
  [DoubleValueSchema, "1e309", "range"],
  [DoubleValueSchema, "nan", "syntax"],
  [DoubleValueSchema, true, "json-type"],
  [FloatValueSchema, 3.5e38, "range"],
  [FloatValueSchema, "-3.5e38", "range"],
  [Int64ValueSchema, "-9223372036854775809", "range"],
  [Int64ValueSchema, "9223372036854775808", "range"],
  [Int64ValueSchema, "1.5", "syntax"],
  [Int64ValueSchema, " 1", "syntax"],
  [UInt64ValueSchema, "-1", "range"],
  [UInt64ValueSchema, "18446744073709551616", "range"],
  [Int32ValueSchema, -2147483649, "range"],
  [Int32ValueSchema, 2147483648, "range"],
  [Int32ValueSchema, "01", "syntax"],
  [UInt32ValueSchema, -1, "range"],
  [UInt32ValueSchema, 4294967296, "range"],
  [BoolValueSchema, "true", "json-type"],
  [BoolValueSchema, 0, "json-type"],
  [StringValueSchema, 1, "json-type"],
  [StringValueSchema, "\ud800", "utf16"],
  [BytesValueSchema, "A", "syntax"],
  [BytesValueSchema, 1, "json-type"],
  [Int32ValueSchema, { value: 1 }, "json-type"], // not the message form: the bare scalar
];

/** Rows as [type name, ...the rest, schema], so that titles show the name and the values, not the descriptor. */
const titled = <R extends unknown[]>(rows: [DescMessage, ...R][]) =>
  rows.map(([schema, ...rest]) => [schema.typeName, ...rest, schema] as [string, ...R, DescMessage]);

describe("wrapperFromJson and wrapperToJson", () => {
  it.each(titled(valid))("%s: %o", (_, json, value, schema) => {
    const m = wrapperFromJson(schema, json);
    expect(m).toEqual({ $typeName: schema.typeName, value });
    expect(wrapperToJson(schema, m)).toEqual(json);
  });

  it.each(titled(invalid))("%s rejects %o (%s)", (_, json, rule, schema) => {
    expect(catchWkt(() => wrapperFromJson(schema, json))).toMatchObject({
      rule,
      jsonPath: "$",
      typeName: schema.typeName,
    });
  });

  it.each(wrapperSchemas.map((s) => [s.typeName, s] as const))("%s: null is the zero value", (_, schema) => {
    const m = wrapperFromJson(schema, null) as unknown as Fields;
    expect(m).toEqual(create(schema as DescMessage));
  });

  it("rejects a schema that is no wrapper", () => {
    expect(catchWkt(() => wrapperFromJson(TimestampSchema, "x"))).toMatchObject({ rule: "json-type", jsonPath: "$" });
    expect(catchWkt(() => wrapperToJson(TimestampSchema, create(TimestampSchema)))).toMatchObject({
      rule: "json-type",
      jsonPath: "$",
    });
  });

  it.each(
    titled<[unknown, string]>([
      [Int32ValueSchema, "x", "json-type"],
      [Int32ValueSchema, 1.5, "range"],
      [UInt64ValueSchema, -1n, "range"],
      [FloatValueSchema, 1e300, "range"],
      [StringValueSchema, "\udc00", "utf16"],
      [BytesValueSchema, [1], "json-type"],
      [BoolValueSchema, "false", "json-type"],
    ]),
  )("wrapperToJson reports a hand-made %s holding %o (%s)", (_, value, rule, schema) => {
    const m = { $typeName: schema.typeName, value } as unknown as MessageShape<DescMessage>;
    expect(catchWkt(() => wrapperToJson(schema, m))).toMatchObject({ rule, jsonPath: "$", typeName: schema.typeName });
  });

  it("wrapperToJson writes an unset value as the zero value", () => {
    expect(wrapperToJson(Int64ValueSchema, { $typeName: "google.protobuf.Int64Value" } as never)).toBe("0");
    expect(wrapperToJson(BytesValueSchema, { $typeName: "google.protobuf.BytesValue" } as never)).toBe("");
  });
});

describe("wrappers through the message codec", () => {
  it.each(titled(valid))("%s at the root: %o", (_, json, value, schema) => {
    expect(fromJson(schema, json)).toEqual({ $typeName: schema.typeName, value });
    expect(toJson(schema, create(schema, { value } as never))).toEqual(json);
  });

  it.each(titled(invalid))("%s at the root rejects %o (%s)", (_, json, rule, schema) => {
    expect(catchWkt(() => fromJson(schema, json as JsonValue))).toMatchObject({
      rule,
      jsonPath: "$",
      typeName: schema.typeName,
    });
  });

  it("a 64-bit wrapper in JSON text keeps every digit", () => {
    expect(fromJsonString(Int64ValueSchema, "9223372036854775807").value).toBe(2n ** 63n - 1n);
    expect(fromJsonString(UInt64ValueSchema, "18446744073709551615").value).toBe(2n ** 64n - 1n);
    expect(catchWkt(() => fromJsonString(Int64ValueSchema, "9223372036854775808"))).toMatchObject({
      rule: "range",
      jsonPath: "$",
      line: 1,
      column: 1,
    });
  });

  // Singular wrapper fields hold the bare scalar; wrappers in lists are messages.
  it.each<[string, JsonValue, unknown]>([
    ["optionalBoolWrapper", false, false],
    ["optionalInt32Wrapper", 0, 0],
    ["optionalInt64Wrapper", "-9223372036854775808", -(2n ** 63n)],
    ["optionalUint32Wrapper", 4294967295, 4294967295],
    ["optionalUint64Wrapper", "18446744073709551615", 2n ** 64n - 1n],
    ["optionalFloatWrapper", "NaN", NaN],
    ["optionalDoubleWrapper", -0, -0],
    ["optionalStringWrapper", "", ""],
    ["optionalBytesWrapper", "", new Uint8Array(0)],
  ])("field %s: %o", (field, json, value) => {
    const m = fromJson(TestAllTypesProto3, { [field]: json }) as unknown as Fields;
    expect(m[field]).toEqual(value);
    expect((toJson(TestAllTypesProto3, m as never) as Fields)[field]).toEqual(json);
  });

  it.each<[string, JsonValue, string, string]>([
    ["optionalInt32Wrapper", "x", "syntax", "$.optionalInt32Wrapper"],
    ["optionalUint64Wrapper", "-1", "range", "$.optionalUint64Wrapper"],
    ["optionalBoolWrapper", "true", "json-type", "$.optionalBoolWrapper"],
    ["optionalFloatWrapper", 1e39, "range", "$.optionalFloatWrapper"],
    ["repeatedInt32Wrapper", [1, "x"], "syntax", "$.repeatedInt32Wrapper[1]"],
    ["repeatedStringWrapper", ["a", null], "json-type", "$.repeatedStringWrapper[1]"],
    ["repeatedBytesWrapper", ["AQ", "A"], "syntax", "$.repeatedBytesWrapper[1]"],
  ])("field %s rejects %o (%s at %s)", (field, json, rule, path) => {
    expect(catchWkt(() => fromJson(TestAllTypesProto3, { [field]: json }))).toMatchObject({ rule, jsonPath: path });
  });

  it("reports the wrapper's type name for errors in wrapper fields", () => {
    expect(catchWkt(() => fromJson(TestAllTypesProto3, { optionalInt64Wrapper: "x" })).typeName).toBe(
      "google.protobuf.Int64Value",
    );
    expect(catchWkt(() => fromJson(TestAllTypesProto3, { repeatedInt64Wrapper: ["x"] })).typeName).toBe(
      "google.protobuf.Int64Value",
    );
  });

  it("repeated wrapper fields hold wrapper messages", () => {
    const m = fromJson(TestAllTypesProto3, {
      repeatedInt64Wrapper: ["1", 2],
      repeatedBoolWrapper: [false],
    }) as unknown as Fields;
    expect(m.repeatedInt64Wrapper).toEqual([
      { $typeName: "google.protobuf.Int64Value", value: 1n },
      { $typeName: "google.protobuf.Int64Value", value: 2n },
    ]);
    expect(m.repeatedBoolWrapper).toEqual([{ $typeName: "google.protobuf.BoolValue", value: false }]);
    expect(toJson(TestAllTypesProto3, m as never)).toEqual({
      repeatedInt64Wrapper: ["1", "2"],
      repeatedBoolWrapper: [false],
    });
  });

  it("an unset singular wrapper field is absent; null leaves it unset", () => {
    const m = fromJson(TestAllTypesProto3, { optionalInt32Wrapper: null }) as unknown as Fields;
    expect(m.optionalInt32Wrapper).toBeUndefined();
    expect(toJson(TestAllTypesProto3, m as never)).toEqual({});
  });
});

describe("wrappers in Any", () => {
  // Spec rule 1: wrappers "remain only for wire compatibility and for putting a scalar into an Any". Their
  // custom JSON form goes under "value".
  // The binary form in Any.value rounds a float to float32: keep only float32-exact values here.
  const exact = valid.filter(
    ([schema, , value]) => schema !== FloatValueSchema || Object.is(Math.fround(value as number), value),
  );
  it.each(titled(exact))("%s: %o", (_, json, value, schema) => {
    const any = anyPack(schema, create(schema, { value } as never));
    const expected = { "@type": `type.googleapis.com/${schema.typeName}`, value: json };
    expect(anyToJson(any)).toEqual(expected);
    const back = anyFromJson(expected);
    expect(back).toEqual(any);
    expect(anyUnpack(back)).toEqual({ $typeName: schema.typeName, value });
  });

  it.each<[string, unknown, string]>([
    ["google.protobuf.UInt32Value", -1, "range"],
    ["google.protobuf.Int64Value", "x", "syntax"],
    ["google.protobuf.BoolValue", "true", "json-type"],
  ])("%s with value %o is rule %s at $.value", (typeName, value, rule) => {
    expect(catchWkt(() => anyFromJson({ "@type": `type.googleapis.com/${typeName}`, value }))).toMatchObject({
      rule,
      jsonPath: "$.value",
    });
  });

  it("a null value is the wrapper's default, as null is for every field (and as protobuf-es reads it)", () => {
    const any = anyFromJson({ "@type": "type.googleapis.com/google.protobuf.BoolValue", value: null });
    expect(anyUnpack(any)).toEqual({ $typeName: "google.protobuf.BoolValue", value: false });
    expect(fromJson(BoolValueSchema, null)).toEqual(wrapperFromJson(BoolValueSchema, null));
  });
});

describe("wrapper properties", () => {
  it("every wrapper reads back what it writes", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...wrapperSchemas).chain((s) => fc.tuple(fc.constant(s as DescMessage), arbMessage(s))),
        ([schema, m]) => {
          const json = wrapperToJson(schema, m as never);
          expect(wrapperFromJson(schema, json)).toEqual(m);
          expect(fromJsonString(schema, JSON.stringify(json))).toEqual(
            Object.is((m as Fields).value, -0) ? { ...m, value: 0 } : m,
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("any JSON value is a wrapper or our error", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...wrapperSchemas),
        fc.oneof(fc.jsonValue(), fc.string(), fc.bigInt().map(String)),
        (schema, json) => {
          try {
            wrapperFromJson(schema, json);
          } catch (e) {
            expect(isWktJsonError(e)).toBe(true);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe("the path option", () => {
  it.each([
    [Int32ValueSchema, 1.5],
    [Int64ValueSchema, "1e400"],
    [BoolValueSchema, "true"],
    [BytesValueSchema, "a*"],
    [StringValueSchema, "\ud800"],
  ] as [DescMessage, unknown][])("wrapperFromJson(%s, %j) reports its error at the given path", (schema, json) => {
    const plain = catchWkt(() => wrapperFromJson(schema, json));
    expect(catchWkt(() => wrapperFromJson(schema, json, { path: "$.pageSize" }))).toMatchObject({
      rule: plain.rule,
      jsonPath: "$.pageSize",
      typeName: schema.typeName,
    });
  });

  it.each([
    [Int32ValueSchema, create(Int32ValueSchema, { value: 2 ** 31 })],
    [UInt64ValueSchema, create(UInt64ValueSchema, { value: -1n })],
    [StringValueSchema, create(StringValueSchema, { value: "\udc00" })],
    [Int64ValueSchema, null],
    [Int64ValueSchema, create(Int32ValueSchema)],
  ] as [DescMessage, unknown][])("wrapperToJson(%s, %o) reports its error at the given path", (schema, message) => {
    const plain = catchWkt(() => wrapperToJson(schema, message as never));
    expect(catchWkt(() => wrapperToJson(schema, message as never, { path: "$.pageSize" }))).toMatchObject({
      rule: plain.rule,
      jsonPath: "$.pageSize",
      typeName: schema.typeName,
    });
  });

  it("changes nothing for valid values, and is $ by default", () => {
    expect(wrapperFromJson(Int64ValueSchema, "5", { path: "$.n" })).toEqual(wrapperFromJson(Int64ValueSchema, "5"));
    expect(wrapperFromJson(Int64ValueSchema, null, { path: "$.n" })).toEqual(create(Int64ValueSchema));
    expect(wrapperToJson(Int64ValueSchema, create(Int64ValueSchema, { value: 5n }), { path: "$.n" })).toBe("5");
    expect(catchWkt(() => wrapperFromJson(Int32ValueSchema, 1.5, {}))).toMatchObject({ jsonPath: "$" });
    expect(catchWkt(() => wrapperFromJson(Int32ValueSchema, 1.5, { path: undefined }))).toMatchObject({
      jsonPath: "$",
    });
  });

  it.each([[""], ["pageSize"], [5], [null], [{}]])("rejects the path %j (range), valid value or not", (path) => {
    const options = { path } as unknown as { path: string };
    const I = "google.protobuf.Int32Value";
    expect(catchWkt(() => wrapperFromJson(Int32ValueSchema, 1, options))).toMatchObject({
      rule: "range",
      jsonPath: "$",
      typeName: I,
    });
    expect(catchWkt(() => wrapperFromJson(Int32ValueSchema, 1.5, options))).toMatchObject({
      rule: "range",
      jsonPath: "$",
    });
    expect(catchWkt(() => wrapperToJson(Int32ValueSchema, create(Int32ValueSchema), options))).toMatchObject({
      rule: "range",
      jsonPath: "$",
    });
  });

  it("reports a schema that is not a wrapper before looking at the option", () => {
    expect(catchWkt(() => wrapperFromJson(TimestampSchema, "x", { path: "bad" }))).toMatchObject({
      rule: "json-type",
      jsonPath: "$",
    });
  });
});
