// jsonSchema of google.protobuf.Any holding a well-known type (issue 26): "The input schema of an Any whose
// `@type` is a well-known type does not check the contents: a Duration "1x", a Timestamp of Feb 30, an Int64Value
// "x", a Struct 5, a FieldMask "a..b" inside an Any pass the schema and are refused by the decoder. The
// well-known types are a fixed set: constrain them with if/then on @type." Checked with ajv (draft 2020-12 and
// draft-07) against the decoder on a table of Any cases.

import type { DescMessage, JsonValue } from "@bufbuild/protobuf";
import { AnySchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { fromJson, isWktJsonError, jsonSchema, validateJson, type JsonSchemaOptions } from "../src/index.js";
import { TestAllTypesProto3, testRegistry } from "./conformance-registry.js";
import { schemaValidator, type Validate } from "./fixtures/ajv.js";

const validator = (schema: DescMessage, options: JsonSchemaOptions): Validate =>
  schemaValidator(schema, { ...options, registry: testRegistry });

const url = (name: string, prefix = "type.googleapis.com"): string => `${prefix}/google.protobuf.${name}`;
const any = (name: string, value: JsonValue, prefix?: string): JsonValue => ({ "@type": url(name, prefix), value });

/** Whether the decoder accepts an Any's JSON (at the root, and as a field of a message). */
function decodes(json: JsonValue, ignoreUnknownFields = false): boolean {
  try {
    fromJson(AnySchema, json, { registry: testRegistry, ignoreUnknownFields });
  } catch (e) {
    if (!isWktJsonError(e)) throw e;
    return false;
  }
  return true;
}

// [case, Any JSON, accepted by the decoder]
const table: [string, JsonValue, boolean][] = [
  // The five shapes, and their valid neighbours.
  ['Duration "1x"', any("Duration", "1x"), false],
  ['Duration "1.5s"', any("Duration", "1.5s"), true],
  ["Duration beyond 10,000 years", any("Duration", "315576000001s"), false],
  ["Duration 5 (a number)", any("Duration", 5), false],
  ["Timestamp of February 30", any("Timestamp", "2024-02-30T00:00:00Z"), false],
  ["Timestamp of February 29 in a leap year", any("Timestamp", "2024-02-29T00:00:00Z"), true],
  ["Timestamp of February 29 in 2023", any("Timestamp", "2023-02-29T00:00:00Z"), false],
  ["Timestamp with an offset", any("Timestamp", "2024-01-01T00:00:00+01:00"), true],
  ['Int64Value "x"', any("Int64Value", "x"), false],
  ['Int64Value "1"', any("Int64Value", "1"), true],
  ["Int64Value 1", any("Int64Value", 1), true],
  ['Int64Value "9223372036854775808"', any("Int64Value", "9223372036854775808"), false],
  ["Int64Value 1.5", any("Int64Value", 1.5), false],
  ["Struct 5", any("Struct", 5), false],
  ["Struct []", any("Struct", []), false],
  ["Struct {...}", any("Struct", { a: [1, { b: null }] }), true],
  ['FieldMask "a..b"', any("FieldMask", "a..b"), false],
  ['FieldMask "a.b,cD"', any("FieldMask", "a.b,cD"), true],
  ['FieldMask ""', any("FieldMask", ""), true],
  ['FieldMask "a_b" (JSON paths are lowerCamel)', any("FieldMask", "a_b"), false],
  // The other well-known types.
  ["Value null", any("Value", null), true],
  ["Value {...}", any("Value", { a: 1 }), true],
  ["ListValue [1]", any("ListValue", [1, "a"]), true],
  ["ListValue {}", any("ListValue", {}), false],
  ["Int32Value 2147483648", any("Int32Value", 2147483648), false],
  ["UInt32Value -1", any("UInt32Value", -1), false],
  ['UInt64Value "18446744073709551615"', any("UInt64Value", "18446744073709551615"), true],
  ["FloatValue 3.5e38", any("FloatValue", 3.5e38), false],
  ['DoubleValue "NaN"', any("DoubleValue", "NaN"), true],
  ['BoolValue "true"', any("BoolValue", "true"), false],
  ["BoolValue false", any("BoolValue", false), true],
  ['StringValue "x"', any("StringValue", "x"), true],
  ["StringValue 5", any("StringValue", 5), false],
  ['BytesValue "AQID"', any("BytesValue", "AQID"), true],
  ['BytesValue "!"', any("BytesValue", "!"), false],
  ["Empty, @type alone", { "@type": url("Empty") }, true],
  ["Empty, legacy value {}", any("Empty", {}), true],
  ["Empty, value 5", any("Empty", 5), false],
  ["Empty with a member", { "@type": url("Empty"), x: 1 }, false],
  ["an Any in an Any", any("Any", any("Duration", "1s")), true],
  ['an Any in an Any holding Duration "1x"', any("Any", any("Duration", "1x")), false],
  ["an empty Any in an Any", any("Any", {}), true],
  // The form: "value" and nothing else beside "@type".
  ["a well-known type without value", { "@type": url("Duration") }, false],
  ["a member beside value", { "@type": url("Duration"), value: "1s", x: 1 }, false],
  ["a well-known type's members beside @type", { "@type": url("Duration"), seconds: 1 }, false],
  // Any prefix before the last "/".
  ['Duration "1x" under another host and path', any("Duration", "1x", "https://example.com/a/b"), false],
  ['Duration "1s" under another host and path', any("Duration", "1s", "example.com/types"), true],
  ['Duration "1x" under an empty prefix', any("Duration", "1x", ""), false],
  // Not a well-known type: only a suffix match counts.
  [
    "a message type's members",
    { "@type": `type.googleapis.com/${TestAllTypesProto3.typeName}`, optionalInt32: 1 },
    true,
  ],
  ["a name that ends like a well-known type", { "@type": "type.googleapis.com/acme.google.protobuf.Duration" }, false],
  // Refused by the decoder, valid against the schema: rules no pattern states (see `unstated`).
  ["Timestamp in year 0 by its offset", any("Timestamp", "0000-12-31T23:30:00-00:20"), false],
  ['Int64Value "1e19" (a number in a string with an exponent)', any("Int64Value", "1e19"), false],
  ["StringValue with a lone surrogate", any("StringValue", "\ud800"), false],
];

/** The cases the schema lets through though the decoder refuses them, and why no pattern can say so. */
const unstated = new Map<string, string>([
  ["Timestamp in year 0 by its offset", "the instant range of a Timestamp with an offset"],
  ['Int64Value "1e19" (a number in a string with an exponent)', "the value of a number with an exponent"],
  ["StringValue with a lone surrogate", "JSON Schema has no notion of UTF-16"],
  ["a name that ends like a well-known type", "acme.google.protobuf.Duration is not in the registry"],
]);

describe("an Any holding a well-known type: the schema checks its value as the type's own entry does", () => {
  it("the table's verdicts are the decoder's", () => {
    expect(table.filter(([, json, ok]) => decodes(json) !== ok).map(([name]) => name)).toEqual([]);
  });

  for (const target of ["draft-2020-12", "draft-07"] as const) {
    it.each(table)(`${target}, input: %s (decoder accepts: %s)`, (name, json, ok) => {
      const expected = ok || unstated.has(name);
      expect(validator(AnySchema, { io: "input", target })(json)).toBe(expected);
      // The same Any as a field, and in a list.
      const v = validator(TestAllTypesProto3, { io: "input", target });
      expect(v({ optionalAny: json })).toBe(expected);
      expect(v({ repeatedAny: [any("Duration", "1s"), json] })).toBe(expected);
    });
  }

  it("the issue's five shapes are refused by the input schema, and by validateJson", () => {
    const shapes = [
      any("Duration", "1x"),
      any("Timestamp", "2024-02-30T00:00:00Z"),
      any("Int64Value", "x"),
      any("Struct", 5),
      any("FieldMask", "a..b"),
    ];
    for (const target of ["draft-2020-12", "draft-07"] as const) {
      for (const json of shapes) expect(validator(AnySchema, { io: "input", target })(json)).toBe(false);
    }
    for (const json of shapes) expect(validateJson(AnySchema, json)).toHaveLength(1);
  });

  it("the output schema checks the canonical form: Int64Value as a string, Duration with 0, 3, 6 or 9 digits", () => {
    const out = validator(AnySchema, { io: "output" });
    expect(out(any("Int64Value", "1"))).toBe(true);
    expect(out(any("Int64Value", 1))).toBe(false);
    expect(out(any("Duration", "1.500s"))).toBe(true);
    expect(out(any("Duration", "1.5s"))).toBe(false);
    expect(out({ "@type": url("Empty") })).toBe(true);
  });

  it("ignoreUnknownFields: Empty's members are skipped, so Empty is not checked; the others are", () => {
    const v = validator(AnySchema, { io: "input", ignoreUnknownFields: true });
    const empty = { "@type": url("Empty"), x: 1 };
    expect(decodes(empty, true)).toBe(true);
    expect(v(empty)).toBe(true);
    expect(decodes(any("Duration", "1x"), true)).toBe(false);
    expect(v(any("Duration", "1x"))).toBe(false);
  });

  it("each well-known type's check refers to its own entry of $defs", () => {
    const doc = jsonSchema(AnySchema, { io: "input" });
    const defs = doc.$defs as Record<string, { allOf?: { if: unknown; then: { properties: { value: unknown } } }[] }>;
    const checks = defs["google.protobuf.Any"]!.allOf!;
    expect(checks).toHaveLength(17);
    expect(checks[2]).toEqual({
      if: {
        required: ["@type"],
        properties: { "@type": { type: "string", pattern: "/google\\.protobuf\\.Duration$" } },
      },
      then: {
        properties: { "@type": {}, value: { $ref: "#/$defs/google.protobuf.Duration" } },
        additionalProperties: false,
        required: ["value"],
      },
    });
    for (const c of checks) {
      const ref = (c.then.properties.value as { $ref: string }).$ref;
      expect(Object.prototype.hasOwnProperty.call(defs, ref.slice("#/$defs/".length))).toBe(true);
    }
  });
});
