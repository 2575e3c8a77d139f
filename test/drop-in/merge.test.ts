// mergeFromJson and mergeFromJsonString against @bufbuild/protobuf's, on the same targets and JSON: the same
// message comes out (compared by its binary form and by field), for every kind of field and for null.

import {
  clone,
  create,
  equals,
  mergeFromJson as pbMergeFromJson,
  mergeFromJsonString as pbMergeFromJsonString,
  toBinary,
  type DescMessage,
  type JsonValue,
  type MessageShape,
} from "@bufbuild/protobuf";
import {
  FieldMaskSchema,
  ListValueSchema,
  StructSchema,
  TimestampSchema,
  ValueSchema,
  AnySchema,
  DurationSchema,
  anyPack,
} from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { isWktJsonError } from "../../src/errors.js";
import { fromJson, mergeFromJson, mergeFromJsonString } from "../../src/index.js";
import { TestAllTypesProto2, TestAllTypesProto3, testRegistry as registry } from "../conformance-registry.js";

const M = TestAllTypesProto3;
const base: JsonValue = {
  optionalInt32: 1,
  optionalString: "s",
  optionalNestedMessage: { a: 1, corecursive: { optionalInt32: 7 } },
  repeatedInt32: [1, 2],
  repeatedNestedMessage: [{ a: 1 }],
  mapStringString: { a: "1", b: "2" },
  mapStringNestedMessage: { k: { a: 1 } },
  oneofNestedMessage: { a: 5, corecursive: { optionalString: "c" } },
  optionalStruct: { x: 1, y: [true] },
  optionalValue: { s: "t" },
  optionalTimestamp: "1970-01-01T00:00:01Z",
  optionalFieldMask: "a,bC",
  optionalInt32Wrapper: 3,
  optionalNestedEnum: "BAR",
  optionalForeignEnum: "FOREIGN_BAZ",
  repeatedStruct: [{ a: 1 }],
  repeatedValue: [1],
  optionalAny: { "@type": "type.googleapis.com/google.protobuf.Duration", value: "1s" },
  repeatedListValue: [[1, "a"]],
};

/** [what, schema, target JSON, JSON merged in, options]. */
const cases: [string, DescMessage, JsonValue, JsonValue, object?][] = [
  ["scalars replaced", M, base, { optionalInt32: 2, optionalString: "" }],
  ["lists appended", M, base, { repeatedInt32: [3], repeatedNestedMessage: [{ a: 2 }] }],
  [
    "map entries added and replaced",
    M,
    base,
    { mapStringString: { b: "x", c: "3" }, mapStringNestedMessage: { k: { corecursive: {} }, j: {} } },
  ],
  ["a set message merged into", M, base, { optionalNestedMessage: { corecursive: { optionalString: "n" } } }],
  ["an unset message set", M, {}, { optionalNestedMessage: { a: 9 } }],
  ["the selected oneof message merged into", M, base, { oneofNestedMessage: { a: 6 } }],
  ["another oneof member replaces", M, base, { oneofString: "x" }],
  [
    "null resets a scalar, an enum, a message",
    M,
    base,
    { optionalInt32: null, optionalNestedEnum: null, optionalNestedMessage: null, optionalString: null },
  ],
  ["null leaves lists and maps", M, base, { repeatedInt32: null, mapStringString: null }],
  ["null clears the selected oneof message", M, base, { oneofNestedMessage: null }],
  ["null for another oneof member leaves the oneof", M, base, { oneofString: null, oneofEnum: null }],
  [
    "null is a value for google.protobuf.Value and NullValue",
    M,
    base,
    { optionalValue: null, optionalNullValue: null },
  ],
  ["Struct members added", M, base, { optionalStruct: { y: 2, z: null } }],
  ["Value replaced", M, base, { optionalValue: [1] }],
  ["a list of ListValue appended", M, base, { repeatedListValue: [[2]] }],
  ["Timestamp and FieldMask replaced", M, base, { optionalTimestamp: "2000-01-01T00:00:00Z", optionalFieldMask: "z" }],
  ["an empty FieldMask leaves it", M, base, { optionalFieldMask: "" }],
  ["an empty Any leaves it", M, base, { optionalAny: {} }],
  [
    "an Any replaced",
    M,
    base,
    { optionalAny: { "@type": "type.googleapis.com/google.protobuf.Timestamp", value: "1970-01-01T00:00:00Z" } },
  ],
  ["a wrapper replaced, and reset by null", M, base, { optionalInt32Wrapper: 4, optionalInt64Wrapper: null }],
  ["repeated Struct and Value appended", M, base, { repeatedStruct: [{ b: 2 }], repeatedValue: ["x"] }],
  ["proto names", M, base, { optional_int32: 5, repeated_int32: [9] }],
  [
    "unknown fields ignored",
    M,
    base,
    { nope: 1, optionalNestedEnum: "NOPE", optionalInt32: 8 },
    { ignoreUnknownFields: true },
  ],
  ["an unknown enum name in a oneof ignored", M, base, { oneofEnum: "NOPE" }, { ignoreUnknownFields: true }],
  [
    "proto2: null resets to the default",
    TestAllTypesProto2,
    { optionalInt32: 5, defaultInt32: 1 },
    { optionalInt32: null, defaultInt32: null },
  ],
  ["proto2: closed enum", TestAllTypesProto2, { optionalNestedEnum: "FOO" }, { optionalNestedEnum: "BAZ" }],
  ["a Struct target", StructSchema, { a: 1, b: { c: 2 } }, { b: 3, d: [] }],
  ["a ListValue target", ListValueSchema, [1], [2, null]],
  ["a Value target", ValueSchema, { a: 1 }, { b: 2 }],
  ["a Timestamp target", TimestampSchema, "1970-01-01T00:00:01.5Z", "1970-01-01T00:00:02Z"],
  ["a FieldMask target", FieldMaskSchema, "a", "b,c"],
  [
    "an Any target",
    AnySchema,
    { "@type": "type.googleapis.com/google.protobuf.Duration", value: "1s" },
    { "@type": "type.googleapis.com/google.protobuf.Duration", value: "2s" },
  ],
  ["a Duration target", DurationSchema, "1s", "-2.5s"],
];

function same(schema: DescMessage, a: MessageShape<DescMessage>, b: MessageShape<DescMessage>): void {
  expect(toBinary(schema, a)).toEqual(toBinary(schema, b));
  expect(equals(schema, a, b, { registry, unpackAny: true })).toBe(true);
  expect(a).toEqual(b);
}

describe("mergeFromJson and mergeFromJsonString give @bufbuild/protobuf's message", () => {
  it.each(cases)("%s", (_, schema, target, json, more) => {
    const options = { registry, ...more };
    const start = fromJson(schema, target, { registry });
    const ours = clone(schema, start);
    const theirs = clone(schema, start);
    expect(mergeFromJson(schema, ours, json, options)).toBe(ours);
    pbMergeFromJson(schema, theirs, json, options);
    same(schema, ours, theirs);
    const oursText = clone(schema, start);
    const theirsText = clone(schema, start);
    expect(mergeFromJsonString(schema, oursText, JSON.stringify(json), options)).toBe(oursText);
    pbMergeFromJsonString(schema, theirsText, JSON.stringify(json), options);
    same(schema, oursText, theirsText);
  });

  it("merges twice as protobuf-es does (lists grow, the second value wins)", () => {
    const ours = create(M);
    const theirs = create(M);
    for (const json of [
      { repeatedInt32: [1], optionalInt32: 1 },
      { repeatedInt32: [2], optionalInt32: 2 },
    ]) {
      mergeFromJson(M, ours, json);
      pbMergeFromJson(M, theirs, json);
    }
    same(M, ours, theirs);
    expect((ours as unknown as { repeatedInt32: number[] }).repeatedInt32).toEqual([1, 2]);
  });
});

describe("mergeFromJson is all or nothing, with our errors", () => {
  it.each<[string, JsonValue, string, string]>([
    [
      "a bad value after good ones",
      { optionalInt32: 2, repeatedInt32: [5], optionalString: 1 },
      "json-type",
      "$.optionalString",
    ],
    ["a bad element", { repeatedInt32: [1, "x"] }, "syntax", "$.repeatedInt32[1]"],
    ["an unknown field", { optionalInt32: 2, nope: 1 }, "unknown-field", "$.nope"],
  ])("%s: the target is unchanged", (_, json, rule, path) => {
    const target = fromJson(M, base, { registry });
    const before = clone(M, target);
    let error: unknown;
    try {
      mergeFromJson(M, target, json, { registry });
    } catch (e) {
      error = e;
    }
    expect(isWktJsonError(error) && { rule: error.rule, jsonPath: error.jsonPath }).toEqual({ rule, jsonPath: path });
    same(M, target, before);
  });

  it("refuses a target of another type, a text that is not JSON, and a repeated key", () => {
    const wrong = (f: () => unknown): string | false => {
      try {
        f();
      } catch (e) {
        return isWktJsonError(e) && e.rule;
      }
      return false;
    };
    expect(wrong(() => mergeFromJson(M, create(TestAllTypesProto2) as never, {}))).toBe("json-type");
    expect(wrong(() => mergeFromJson(M, null as never, {}))).toBe("json-type");
    expect(wrong(() => mergeFromJsonString(M, create(M), "{"))).toBe("syntax");
    expect(wrong(() => mergeFromJsonString(M, create(M), '{"optionalInt32": 1, "optionalInt32": 2}'))).toBe(
      "duplicate-field",
    );
  });

  it("keeps every digit of an int64 from text", () => {
    const target = create(M);
    mergeFromJsonString(M, target, '{"optionalInt64": 9223372036854775807}');
    expect((target as unknown as { optionalInt64: bigint }).optionalInt64).toBe(9223372036854775807n);
  });

  it("sets an extension of the target from JSON", () => {
    const target = create(TestAllTypesProto2);
    const ext = registry.getExtension("protobuf_test_messages.proto2.extension_int32");
    expect(ext).toBeDefined();
    mergeFromJson(TestAllTypesProto2, target, { "[protobuf_test_messages.proto2.extension_int32]": 5 }, { registry });
    const theirs = create(TestAllTypesProto2);
    pbMergeFromJson(TestAllTypesProto2, theirs, { "[protobuf_test_messages.proto2.extension_int32]": 5 }, { registry });
    same(TestAllTypesProto2, target, theirs);
    expect(anyPack).toBeDefined();
  });
});
