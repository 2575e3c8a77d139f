import {
  create,
  createFileRegistry,
  createRegistry,
  toBinary,
  type DescMessage,
  type JsonObject,
  type JsonValue,
  type MessageShape,
} from "@bufbuild/protobuf";
import {
  AnySchema,
  FileDescriptorProtoSchema,
  ApiSchema,
  DurationSchema,
  EmptySchema,
  FieldMaskSchema,
  Int32ValueSchema,
  ListValueSchema,
  SourceContextSchema,
  StructSchema,
  TimestampSchema,
  ValueSchema,
  type Any,
  type Duration,
} from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anyIs, anyPack, anyUnpack, anyUnpackTo } from "../src/wkt/any.js";
import { anyFromJson, anyToJson } from "../src/codec/any-codec.js";
import { isWktJsonError } from "../src/errors.js";
import { fromJson, fromJsonString } from "../src/codec/from-json.js";
import { toJson, toJsonString } from "../src/codec/to-json.js";
import { validateJson, validateJsonString } from "../src/codec/validate.js";
import { arbMessage } from "./arbitrary.js";
import {
  ForeignMessage,
  TestAllTypesEdition2023,
  TestAllTypesProto2,
  TestAllTypesProto3,
  testRegistry,
} from "./conformance-registry.js";
import { catchWkt } from "./helpers.js";

const G = "type.googleapis.com/";
const registry = testRegistry;

function make(desc: DescMessage, init?: Record<string, unknown>): MessageShape<DescMessage> {
  return create(desc, init as never);
}

describe("anyPack and anyUnpack", () => {
  it.each<[string | undefined, string]>([
    [undefined, "type.googleapis.com/google.protobuf.Duration"],
    ["type.googleapis.com", "type.googleapis.com/google.protobuf.Duration"],
    ["example.com/types", "example.com/types/google.protobuf.Duration"],
    ["example.com/types/", "example.com/types/google.protobuf.Duration"],
    ["https://example.com/a/b", "https://example.com/a/b/google.protobuf.Duration"],
  ])("prefix %s gives %s", (typeUrlPrefix, url) => {
    const d = create(DurationSchema, { seconds: 3n });
    const any = anyPack(DurationSchema, d, typeUrlPrefix === undefined ? undefined : { typeUrlPrefix });
    expect(any.typeUrl).toBe(url);
    expect(anyUnpack(any)).toEqual(d);
  });

  it("unpacks a message of a user type through the registry", () => {
    const m = make(ForeignMessage, { c: 7 });
    const any = anyPack(ForeignMessage, m);
    expect(anyUnpack(any, registry)).toEqual(m);
    // As protobuf-es's anyUnpack: a type the registry lacks (here no registry: the well-known types only) is
    // undefined, which the return type makes the caller handle.
    expect(anyUnpack(any)).toBeUndefined();
  });

  it.each<[string, Partial<Any>, string]>([
    [
      "bytes that are no Duration",
      { typeUrl: G + "google.protobuf.Duration", value: new Uint8Array([0xff]) },
      "binary",
    ],
    ["a malformed type URL", { typeUrl: "ftp://x/google.protobuf.Duration", value: new Uint8Array(0) }, "type-url"],
    ["a type URL without a slash", { typeUrl: "google.protobuf.Duration", value: new Uint8Array(0) }, "type-url"],
    ["a type URL ending in a slash", { typeUrl: G, value: new Uint8Array(0) }, "type-url"],
    ["a type URL that is not a string", { typeUrl: 5 as never, value: new Uint8Array(0) }, "json-type"],
    ["a value that is not bytes", { typeUrl: G + "google.protobuf.Duration", value: "x" as never }, "json-type"],
  ])("anyUnpack rejects %s", (_, fields, rule) => {
    const any = { $typeName: "google.protobuf.Any", ...fields } as Any;
    expect(catchWkt(() => anyUnpack(any))).toMatchObject({ rule, jsonPath: "$" });
    expect(catchWkt(() => anyUnpack(any, registry))).toMatchObject({ rule, jsonPath: "$" });
    expect(catchWkt(() => anyUnpack(any, DurationSchema))).toMatchObject({ rule, jsonPath: "$" });
  });

  it("gives undefined for an empty Any and a type neither the registry nor the well-known types have", () => {
    const empty = create(AnySchema);
    expect(anyUnpack(empty)).toBeUndefined();
    expect(anyUnpack(empty, registry)).toBeUndefined();
    expect(anyUnpack(empty, DurationSchema)).toBeUndefined();
    const unknown = { $typeName: "google.protobuf.Any", typeUrl: G + "acme.Unknown", value: new Uint8Array(0) } as Any;
    expect(anyUnpack(unknown)).toBeUndefined();
    expect(anyUnpack(unknown, registry)).toBeUndefined();
  });

  it("unpacks with a schema only a message of that type (protobuf-es's second form)", () => {
    const d = create(DurationSchema, { seconds: 3n });
    const any = anyPack(DurationSchema, d, { typeUrlPrefix: "https://example.com/t" });
    const back: Duration | undefined = anyUnpack(any, DurationSchema);
    expect(back).toEqual(d);
    expect(anyUnpack(any, TimestampSchema)).toBeUndefined();
    expect(anyUnpack(anyPack(ForeignMessage, make(ForeignMessage, { c: 7 })), ForeignMessage)).toEqual(
      make(ForeignMessage, { c: 7 }),
    );
  });

  it("packs into a given Any (protobuf-es's second form), and leaves it alone when it throws", () => {
    const into = create(AnySchema);
    expect(anyPack(DurationSchema, create(DurationSchema, { seconds: 1n }), into)).toBeUndefined();
    expect(into.typeUrl).toBe(G + "google.protobuf.Duration");
    expect(anyUnpack(into)).toEqual(create(DurationSchema, { seconds: 1n }));
    const before = { ...into };
    expect(catchWkt(() => anyPack(DurationSchema, create(TimestampSchema) as never, into)).rule).toBe("json-type");
    expect(into).toEqual(before);
  });
});

describe("anyIs and anyUnpackTo", () => {
  const d = create(DurationSchema, { seconds: 1n });
  const any = anyPack(DurationSchema, d);

  it("anyIs compares the type URL's type name with a schema's or a name, false for an empty Any", () => {
    expect(anyIs(any, DurationSchema)).toBe(true);
    expect(anyIs(any, "google.protobuf.Duration")).toBe(true);
    expect(anyIs(any, TimestampSchema)).toBe(false);
    expect(anyIs(any, "Duration")).toBe(false);
    expect(anyIs(anyPack(DurationSchema, d, { typeUrlPrefix: "example.com/x/y" }), DurationSchema)).toBe(true);
    expect(anyIs(create(AnySchema), DurationSchema)).toBe(false);
  });

  it.each<[string, unknown, unknown, string]>([
    [
      "a malformed type URL",
      { $typeName: "google.protobuf.Any", typeUrl: "x", value: new Uint8Array() },
      DurationSchema,
      "type-url",
    ],
    ["an Any that is null", null, DurationSchema, "json-type"],
    ["a schema that is no descriptor", any, {}, "json-type"],
  ])("anyIs refuses %s", (_, a, schema, rule) => {
    expect(catchWkt(() => anyIs(a as Any, schema as never))).toMatchObject({ rule, jsonPath: "$" });
  });

  it("anyUnpackTo merges into the message and returns it, or returns undefined and leaves it alone", () => {
    const into = create(DurationSchema, { nanos: 5 });
    expect(anyUnpackTo(any, DurationSchema, into)).toBe(into);
    expect(into).toEqual(create(DurationSchema, { seconds: 1n, nanos: 5 }));
    const ts = create(TimestampSchema, { seconds: 9n });
    expect(anyUnpackTo(any, TimestampSchema, ts)).toBeUndefined();
    expect(ts).toEqual(create(TimestampSchema, { seconds: 9n }));
    expect(anyUnpackTo(create(AnySchema), DurationSchema, into)).toBeUndefined();
  });

  it("anyUnpackTo refuses bytes that are no such message, leaving the message as it was", () => {
    const bad = { ...any, value: new Uint8Array([0xff]) };
    const into = create(DurationSchema, { nanos: 5 });
    expect(catchWkt(() => anyUnpackTo(bad, DurationSchema, into))).toMatchObject({ rule: "binary", jsonPath: "$" });
    expect(into).toEqual(create(DurationSchema, { nanos: 5 }));
    expect(catchWkt(() => anyUnpackTo(any, DurationSchema, create(TimestampSchema) as never)).rule).toBe("json-type");
  });
});

// ---------------------------------------------------------------------------------------------------------
// JSON form

describe('Any of a well-known type: a member beside "value"', () => {
  const json = { optionalAny: { "@type": G + "google.protobuf.Duration", value: "1s", extra: { a: [1] } } };
  const text = JSON.stringify(json);

  it("is rule unknown-field, in every reader", () => {
    for (const f of [
      () => fromJson(TestAllTypesProto3, json),
      () => fromJsonString(TestAllTypesProto3, text),
      () => anyFromJson(json.optionalAny),
    ]) {
      expect(catchWkt(f).rule).toBe("unknown-field");
    }
    expect(validateJson(TestAllTypesProto3, json)).toMatchObject([{ rule: "unknown-field" }]);
    expect(validateJsonString(TestAllTypesProto3, text)).toMatchObject([{ rule: "unknown-field" }]);
  });

  it("is skipped under ignoreUnknownFields, as protobuf-go (DiscardUnknown) and protobuf-es skip it", () => {
    const o = { ignoreUnknownFields: true };
    const want = { optionalAny: { "@type": G + "google.protobuf.Duration", value: "1s" } };
    expect(toJson(TestAllTypesProto3, fromJson(TestAllTypesProto3, json, o))).toEqual(want);
    expect(toJson(TestAllTypesProto3, fromJsonString(TestAllTypesProto3, text, o))).toEqual(want);
    expect(anyToJson(anyFromJson(json.optionalAny, o))).toEqual(want.optionalAny);
    expect(validateJson(TestAllTypesProto3, json, o)).toEqual([]);
    expect(validateJsonString(TestAllTypesProto3, text, o)).toEqual([]);
  });
});

describe('Any of a well-known type with a custom JSON form: the form goes under "value"', () => {
  it.each<[DescMessage, Record<string, unknown>, JsonValue]>([
    [TimestampSchema, { seconds: 1n, nanos: 500_000_000 }, "1970-01-01T00:00:01.500Z"],
    [DurationSchema, { seconds: -1n, nanos: -5 }, "-1.000000005s"],
    [FieldMaskSchema, { paths: ["a_b", "c.d_e"] }, "aB,c.dE"],
    [FieldMaskSchema, { paths: [] }, ""],
    [StructSchema, { fields: { a: { kind: { case: "numberValue", value: 1 } } } }, { a: 1 }],
    [StructSchema, {}, {}],
    [ValueSchema, { kind: { case: "nullValue", value: 0 } }, null],
    [ValueSchema, { kind: { case: "stringValue", value: "s" } }, "s"],
    [
      ValueSchema,
      { kind: { case: "listValue", value: { values: [{ kind: { case: "boolValue", value: true } }] } } },
      [true],
    ],
    [ListValueSchema, { values: [] }, []],
    [Int32ValueSchema, { value: 0 }, 0],
    [AnySchema, {}, {}],
  ])("%s", (schema, init, value) => {
    const any = anyPack(schema, make(schema, init));
    const json = { "@type": G + schema.typeName, value };
    expect(anyToJson(any)).toEqual(json);
    expect(Object.keys(anyToJson(any) as JsonObject)).toEqual(["@type", "value"]);
    expect(anyFromJson(json)).toEqual(any);
    // The same through the message codec, as a field.
    const msg = make(TestAllTypesProto3, { optionalAny: any });
    expect(toJson(TestAllTypesProto3, msg)).toEqual({ optionalAny: json });
    expect(fromJson(TestAllTypesProto3, { optionalAny: json })).toEqual(msg);
  });

  it("Any in Any nests the custom form", () => {
    const inner = anyPack(DurationSchema, create(DurationSchema, { seconds: 1n }));
    const outer = anyPack(AnySchema, inner);
    const json = {
      "@type": G + "google.protobuf.Any",
      value: { "@type": G + "google.protobuf.Duration", value: "1s" },
    };
    expect(anyToJson(outer)).toEqual(json);
    expect(anyFromJson(json)).toEqual(outer);
    expect(anyUnpack(anyUnpack(outer) as Any)).toEqual(create(DurationSchema, { seconds: 1n }));
  });
});

describe('Any of other messages: the fields inline, "@type" first', () => {
  it.each<[DescMessage, Record<string, unknown>, JsonObject]>([
    [ForeignMessage, { c: 1 }, { c: 1 }],
    [ForeignMessage, {}, {}],
    [
      TestAllTypesProto3,
      { optionalInt64: 5n, repeatedString: ["a"], optionalAny: anyPack(EmptySchema, create(EmptySchema)) },
      { optionalInt64: "5", repeatedString: ["a"], optionalAny: { "@type": G + "google.protobuf.Empty" } },
    ],
    [TestAllTypesProto2, { optionalInt32: 0, data: { groupInt32: 1 } }, { optionalInt32: 0, data: { groupInt32: 1 } }],
    [SourceContextSchema, { fileName: "a.proto" }, { fileName: "a.proto" }], // a WKT without a custom form
    [ApiSchema, { name: "acme.v1.Flow", version: "v1" }, { name: "acme.v1.Flow", version: "v1" }],
  ])("%s", (schema, init, fields) => {
    const any = anyPack(schema, make(schema, init));
    const out = anyToJson(any, { registry }) as JsonObject;
    expect(out).toEqual({ "@type": G + schema.typeName, ...fields });
    expect(Object.keys(out)[0]).toBe("@type");
    expect(anyFromJson(out, { registry })).toEqual(any);
  });

  it('reads "@type" in any position', () => {
    const any = anyPack(ForeignMessage, make(ForeignMessage, { c: 3 }));
    expect(anyFromJson({ c: 3, "@type": G + ForeignMessage.typeName }, { registry })).toEqual(any);
    expect(fromJsonString(AnySchema, `{"c": 3, "@type": "${G}${ForeignMessage.typeName}"}`, { registry })).toEqual(any);
  });

  it("skips unknown inline members with ignoreUnknownFields", () => {
    const json = { "@type": G + ForeignMessage.typeName, c: 2, zz: [1] };
    expect(catchWkt(() => anyFromJson(json, { registry }))).toMatchObject({ rule: "unknown-field", jsonPath: "$.zz" });
    expect(anyUnpack(anyFromJson(json, { registry, ignoreUnknownFields: true }), registry)).toEqual(
      make(ForeignMessage, { c: 2 }),
    );
  });
});

describe("Empty", () => {
  const any = anyPack(EmptySchema, create(EmptySchema));
  it('is written with "@type" only', () => {
    expect(anyToJson(any)).toEqual({ "@type": G + "google.protobuf.Empty" });
  });
  it.each<[JsonObject]>([
    [{ "@type": G + "google.protobuf.Empty" }],
    [{ "@type": G + "google.protobuf.Empty", value: {} }],
    [{ value: {}, "@type": G + "google.protobuf.Empty" }],
  ])("is read from %o", (json) => {
    expect(anyFromJson(json)).toEqual(any);
  });
  it.each<[JsonObject, string, string]>([
    [{ "@type": G + "google.protobuf.Empty", x: 1 }, "unknown-field", "$.x"],
    [{ "@type": G + "google.protobuf.Empty", value: { a: 1 } }, "unknown-field", "$.value.a"],
    [{ "@type": G + "google.protobuf.Empty", value: [] }, "json-type", "$.value"],
    [{ "@type": G + "google.protobuf.Empty", value: null }, "json-type", "$.value"],
  ])("rejects %o (%s at %s)", (json, rule, path) => {
    expect(catchWkt(() => anyFromJson(json))).toMatchObject({ rule, jsonPath: path });
  });
});

describe("the empty Any", () => {
  it("is {} both ways", () => {
    expect(anyFromJson({})).toEqual(create(AnySchema));
    expect(anyToJson(create(AnySchema))).toEqual({});
    expect(fromJson(TestAllTypesProto3, { optionalAny: {} })).toEqual(make(TestAllTypesProto3, { optionalAny: {} }));
    expect(toJson(TestAllTypesProto3, make(TestAllTypesProto3, { optionalAny: {} }))).toEqual({ optionalAny: {} });
  });
});

describe("type URLs in JSON", () => {
  it.each([
    "https://example.com/a/b/google.protobuf.Duration",
    "http://example.com/google.protobuf.Duration",
    "example.com:8080/types/google.protobuf.Duration",
    "/google.protobuf.Duration",
  ])("keeps a custom host and path prefix verbatim: %s", (url) => {
    const json = { "@type": url, value: "1s" };
    const any = anyFromJson(json);
    expect(any.typeUrl).toBe(url);
    expect(anyUnpack(any)).toEqual(create(DurationSchema, { seconds: 1n }));
    expect(anyToJson(any)).toEqual(json);
  });

  it.each<[JsonObject, string, string]>([
    [{ value: "1s" }, "type-url", "$"], // members without "@type"
    [{ c: 1 }, "type-url", "$"],
    [{ "@type": 5 }, "json-type", '$["@type"]'],
    [{ "@type": null }, "json-type", '$["@type"]'],
    [{ "@type": "" }, "type-url", '$["@type"]'],
    [{ "@type": "ftp://example.com/google.protobuf.Duration", value: "1s" }, "type-url", '$["@type"]'],
    [{ "@type": "example.com/", value: "1s" }, "type-url", '$["@type"]'],
    [{ "@type": "example.com/google..Duration", value: "1s" }, "type-url", '$["@type"]'],
    [{ "@type": "example.com/1abc" }, "type-url", '$["@type"]'],
    [{ "@type": G + "acme.Unknown" }, "unknown-type", '$["@type"]'],
    [{ "@type": G + ForeignMessage.typeName, c: 1 }, "unknown-type", '$["@type"]'], // not without the registry
  ])("rejects %o (%s at %s)", (json, rule, path) => {
    expect(catchWkt(() => anyFromJson(json))).toMatchObject({ rule, jsonPath: path });
  });
});

describe("the members of a custom form", () => {
  it.each<[JsonObject, string, string]>([
    [{ "@type": G + "google.protobuf.Duration" }, "json-type", "$"], // "value" is missing
    [{ "@type": G + "google.protobuf.Duration", value: "1s", seconds: 1 }, "unknown-field", "$.seconds"],
    [{ "@type": G + "google.protobuf.Duration", value: null }, "json-type", "$.value"],
    [{ "@type": G + "google.protobuf.Duration", value: "1" }, "syntax", "$.value"],
    [{ "@type": G + "google.protobuf.Timestamp", value: "x" }, "syntax", "$.value"],
    [{ "@type": G + "google.protobuf.FieldMask", value: "a_b" }, "mask-path", "$.value"],
    [{ "@type": G + "google.protobuf.Struct", value: [] }, "json-type", "$.value"],
    [{ "@type": G + "google.protobuf.Struct", value: { a: { b: ["\ud800"] } } }, "utf16", "$.value.a.b[0]"],
    [{ "@type": G + "google.protobuf.Int32Value", value: "1.5" }, "syntax", "$.value"],
    [
      { "@type": G + "google.protobuf.Any", value: { "@type": G + "google.protobuf.Timestamp", value: "x" } },
      "syntax",
      "$.value.value",
    ],
    [
      {
        "@type": G + "google.protobuf.Any",
        value: {
          "@type": G + "google.protobuf.Any",
          value: { "@type": G + "google.protobuf.ListValue", value: [1, [NaN]] },
        },
      },
      "not-finite",
      "$.value.value.value[1][0]",
    ],
    [{ "@type": G + ForeignMessage.typeName, value: 1 }, "unknown-field", "$.value"], // no custom form: "value" is no field
  ])("%o is %s at %s", (json, rule, path) => {
    expect(catchWkt(() => anyFromJson(json, { registry }))).toMatchObject({ rule, jsonPath: path });
  });

  it("paths reach into a message in an Any in a message", () => {
    const json = {
      optionalAny: {
        "@type": G + TestAllTypesProto3.typeName,
        optionalAny: { "@type": G + TestAllTypesProto3.typeName, repeatedInt32: [1, "x"] },
      },
    };
    expect(catchWkt(() => fromJson(TestAllTypesProto3, json, { registry }))).toMatchObject({
      rule: "syntax",
      jsonPath: "$.optionalAny.optionalAny.repeatedInt32[1]",
    });
    expect(catchWkt(() => fromJsonString(TestAllTypesProto3, JSON.stringify(json), { registry }))).toMatchObject({
      rule: "syntax",
      jsonPath: "$.optionalAny.optionalAny.repeatedInt32[1]",
      line: 1,
      column: 209,
    });
  });
});

describe("writing an Any", () => {
  it.each<[string, Partial<Any>, string]>([
    ["a value without a type URL", { typeUrl: "", value: new Uint8Array([8, 1]) }, "type-url"],
    ["an unknown type", { typeUrl: G + "acme.Unknown", value: new Uint8Array(0) }, "unknown-type"],
    ["a malformed URL", { typeUrl: "example.com/", value: new Uint8Array(0) }, "type-url"],
    ["bytes that are no message", { typeUrl: G + "google.protobuf.Duration", value: new Uint8Array([0xff]) }, "binary"],
    [
      "a truncated Struct",
      { typeUrl: G + "google.protobuf.Struct", value: new Uint8Array([0x0a, 0x05, 0x0a, 0x01, 0x61]) },
      "binary",
    ],
    [
      "a Struct with invalid UTF-8",
      {
        typeUrl: G + "google.protobuf.Struct",
        value: new Uint8Array([0x0a, 0x06, 0x0a, 0x02, 0xc3, 0x28, 0x12, 0x00]),
      },
      "binary",
    ],
    [
      "a Struct nested beyond the binary recursion limit",
      { typeUrl: G + "google.protobuf.Struct", value: toBinary(StructSchema, deepStruct(60)) },
      "binary",
    ],
    [
      "a Timestamp with a truncated varint",
      { typeUrl: G + "google.protobuf.Timestamp", value: new Uint8Array([0x08, 0x80]) },
      "binary",
    ],
  ])("rejects %s", (_, fields, rule) => {
    const any = { $typeName: "google.protobuf.Any", ...fields } as Any;
    expect(catchWkt(() => anyToJson(any))).toMatchObject({ rule, jsonPath: "$" });
    const msg = Object.assign(create(TestAllTypesProto3), { repeatedAny: [create(AnySchema), any] });
    expect(catchWkt(() => toJson(TestAllTypesProto3, msg))).toMatchObject({ rule, jsonPath: "$.repeatedAny[1]" });
  });

  it("reports errors of the packed message from the Any's path", () => {
    const bad = anyPack(DurationSchema, create(DurationSchema, { seconds: 1n, nanos: -1 }));
    expect(catchWkt(() => anyToJson(bad))).toMatchObject({ rule: "sign", jsonPath: "$.value" });
    const nested = anyPack(AnySchema, bad);
    expect(catchWkt(() => anyToJson(nested))).toMatchObject({ rule: "sign", jsonPath: "$.value.value" });
  });

  it("counts the Any and its contents toward maxDepth", () => {
    const any = anyPack(AnySchema, anyPack(DurationSchema, create(DurationSchema)));
    expect(anyToJson(any, { maxDepth: 3 })).toEqual({
      "@type": G + "google.protobuf.Any",
      value: { "@type": G + "google.protobuf.Duration", value: "0s" },
    });
    expect(catchWkt(() => anyToJson(any, { maxDepth: 2 }))).toMatchObject({ rule: "depth", jsonPath: "$.value.value" });
    const json = anyToJson(any, { maxDepth: 3 });
    expect(catchWkt(() => anyFromJson(json, { maxDepth: 2 }))).toMatchObject({
      rule: "depth",
      jsonPath: "$.value.value",
    });
  });

  it("counts a packed Struct, Value or ListValue as its own codec does, one level below the Any", () => {
    // {"a": {"a": ... 1}} and [[... 1]], `levels` objects or arrays deep.
    const nested = (levels: number, list: boolean): JsonValue => {
      let v: JsonValue = 1;
      for (let i = 0; i < levels; i++) v = list ? [v] : { a: v };
      return v;
    };
    for (const [schema, list] of [
      [StructSchema, false],
      [ValueSchema, false],
      [ValueSchema, true],
      [ListValueSchema, true],
    ] as const) {
      for (let levels = 1; levels <= 4; levels++) {
        const value = nested(levels, list);
        const json = { "@type": G + schema.typeName, value };
        const any = anyPack(schema, fromJson(schema, value));
        for (let maxDepth = 1; maxDepth <= 6; maxDepth++) {
          // The Any takes one level; its contents then have maxDepth - 1 left, levels of which they need.
          if (levels <= maxDepth - 1) {
            expect(anyFromJson(json, { maxDepth })).toEqual(any);
            expect(anyToJson(any, { maxDepth })).toEqual(json);
          } else {
            const path = "$.value" + (list ? "[0]" : ".a").repeat(maxDepth - 1);
            expect(catchWkt(() => anyFromJson(json, { maxDepth }))).toMatchObject({ rule: "depth", jsonPath: path });
            expect(catchWkt(() => anyToJson(any, { maxDepth }))).toMatchObject({ rule: "depth", jsonPath: path });
          }
        }
      }
    }
  });
});

/** A Struct nested `levels` deep: {"a": {"a": ... {}}}. */
function deepStruct(levels: number): MessageShape<typeof StructSchema> {
  let s = create(StructSchema);
  for (let i = 0; i < levels; i++)
    s = create(StructSchema, { fields: { a: { kind: { case: "structValue", value: s } } } });
  return s;
}

describe("Any and Struct", () => {
  it('a Struct holds no Any: an object with "@type" in a Struct is plain data', () => {
    const json = { optionalStruct: { a: { "@type": G + "google.protobuf.Duration", value: "not checked" } } };
    const m = fromJson(TestAllTypesProto3, json);
    expect(toJson(TestAllTypesProto3, m)).toEqual(json);
  });

  it("an Any holds a Struct with keys that look like Any members", () => {
    const json = { "@type": G + "google.protobuf.Struct", value: { "@type": "x", value: 1 } };
    expect(anyToJson(anyFromJson(json))).toEqual(json);
  });
});

describe("Any properties", () => {
  const types = [
    TimestampSchema,
    DurationSchema,
    FieldMaskSchema,
    StructSchema,
    ValueSchema,
    ListValueSchema,
    EmptySchema,
    Int32ValueSchema,
    ForeignMessage,
    TestAllTypesProto3,
    TestAllTypesProto2,
    TestAllTypesEdition2023,
  ];
  const arbAny = fc
    .constantFrom(...types)
    .chain((schema) =>
      arbMessage(schema, { maxDepth: 2, anyTypes: [DurationSchema, ForeignMessage] }).map((m) =>
        anyPack(schema, m as never),
      ),
    );

  it("anyFromJson(anyToJson(a)) is a", () => {
    fc.assert(
      fc.property(arbAny, (any) => {
        const json = anyToJson(any, { registry });
        expect(anyFromJson(json, { registry })).toEqual(any);
      }),
      { numRuns: 150 },
    );
  });

  it("any JSON object is an Any or our error", () => {
    const arbJson = fc.oneof(
      fc.dictionary(fc.constantFrom("@type", "value", "c", "seconds"), fc.jsonValue({ maxDepth: 2 })),
      fc.record({
        "@type": fc.constantFrom(...types.map((t) => G + t.typeName), "x/y", "", "ftp://a/b.C"),
        value: fc.jsonValue({ maxDepth: 2 }),
      }),
    );
    fc.assert(
      fc.property(arbJson, (json) => {
        try {
          anyFromJson(json, { registry });
        } catch (e) {
          expect(isWktJsonError(e)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});

// ---------------------------------------------------------------------------------------------------------
// A field whose JSON name is "@type": protoc rejects json_name = "@type", a descriptor built by hand need not.

describe('a message type with a field named "@type" in JSON', () => {
  /** acme.Weird { int32 a = 1 [json_name = "@type"]; string b = 2; }, and acme.Odd with a field *named* "@type". */
  const file = create(FileDescriptorProtoSchema, {
    name: "acme/weird.proto",
    dependency: ["google/protobuf/any.proto"],
    package: "acme",
    syntax: "proto3",
    messageType: [
      {
        name: "Weird",
        field: [
          { name: "a", number: 1, type: 5, label: 1, jsonName: "@type" },
          { name: "b", number: 2, type: 9, label: 1, jsonName: "b" },
        ],
      },
      {
        name: "Holder",
        field: [{ name: "any", number: 1, type: 11, label: 1, typeName: ".google.protobuf.Any", jsonName: "any" }],
      },
    ],
  });
  const files = createFileRegistry(file, (name) => (name === "google/protobuf/any.proto" ? AnySchema.file : undefined));
  const weird = files.getMessage("acme.Weird")!;
  const holder = files.getMessage("acme.Holder")!;
  const reg = createRegistry(files);
  const url = G + "acme.Weird";

  it("protobuf-es writes the field over the type URL (why we refuse)", () => {
    expect(weird.fields[0]!.jsonName).toBe("@type");
  });

  it.each<[string, Record<string, unknown>]>([
    ["set", { a: 7, b: "x" }],
    ["unset", { b: "x" }],
    ["empty", {}],
  ])("writing an Any of it (field %s) is rule type-url, never the field over the URL", (_, init) => {
    const any = anyPack(weird, create(weird, init as never));
    expect(catchWkt(() => toJson(AnySchema, any, { registry: reg }))).toMatchObject({
      rule: "type-url",
      jsonPath: "$",
    });
    expect(catchWkt(() => toJsonString(AnySchema, any, { registry: reg }))).toMatchObject({
      rule: "type-url",
      jsonPath: "$",
    });
    expect(catchWkt(() => anyToJson(any, { registry: reg }))).toMatchObject({ rule: "type-url", jsonPath: "$" });
    expect(catchWkt(() => toJsonString(AnySchema, any, { registry: reg, prettySpaces: 2 }))).toMatchObject({
      rule: "type-url",
    });
    const inHolder = create(holder, { any } as never);
    expect(catchWkt(() => toJson(holder, inHolder, { registry: reg }))).toMatchObject({
      rule: "type-url",
      jsonPath: "$.any",
    });
    expect(catchWkt(() => toJsonString(holder, inHolder, { registry: reg }))).toMatchObject({
      rule: "type-url",
      jsonPath: "$.any",
    });
  });

  it.each<[string, JsonValue]>([
    ["with the type URL only", { "@type": url }],
    ["with other members", { "@type": url, b: "x" }],
  ])("reading an Any of it %s is rule type-url at @type", (_, json) => {
    const e = catchWkt(() => fromJson(AnySchema, json, { registry: reg }));
    expect(e).toMatchObject({ rule: "type-url" });
    expect(e.jsonPath).toMatch(/^\$\[?"?\.?@type"?\]?$/);
    expect(catchWkt(() => fromJsonString(AnySchema, JSON.stringify(json), { registry: reg }))).toMatchObject({
      rule: "type-url",
      jsonPath: e.jsonPath,
    });
    expect(catchWkt(() => anyFromJson(json, { registry: reg }))).toMatchObject({
      rule: "type-url",
      jsonPath: e.jsonPath,
    });
    // The collect-all validators agree with the decoders: exactly this one issue.
    expect(validateJson(AnySchema, json, { registry: reg })).toMatchObject([
      { rule: "type-url", jsonPath: e.jsonPath, detail: e.detail },
    ]);
    expect(validateJsonString(AnySchema, JSON.stringify(json), { registry: reg })).toMatchObject([
      { rule: "type-url", jsonPath: e.jsonPath },
    ]);
  });

  it("the message itself is written and read as usual, outside an Any", () => {
    const m = create(weird, { a: 7, b: "x" } as never);
    expect(toJson(weird, m)).toEqual({ "@type": 7, b: "x" });
    expect(fromJson(weird, { "@type": 7, b: "x" })).toEqual(m);
  });
});

describe("the path option of anyFromJson and anyToJson", () => {
  const D = "type.googleapis.com/google.protobuf.Duration";

  it.each([
    [{ "@type": D, value: "1" }, "syntax", "$.detail.value"],
    [{ "@type": "type.googleapis.com/acme.Unknown" }, "unknown-type", '$.detail["@type"]'],
    [{ value: "1s" }, "type-url", "$.detail"],
    [[], "json-type", "$.detail"],
  ])("anyFromJson(%j) reports its error below the given path", (json, rule, path) => {
    expect(catchWkt(() => anyFromJson(json, { path: "$.detail" }))).toMatchObject({ rule, jsonPath: path });
    expect(catchWkt(() => anyFromJson(json)).jsonPath).toBe("$" + path.slice("$.detail".length));
  });

  it("anyToJson reports its error below the given path", () => {
    const unknown = create(AnySchema, { typeUrl: "type.googleapis.com/acme.Unknown" });
    expect(catchWkt(() => anyToJson(unknown, { path: "$.detail" }))).toMatchObject({
      rule: "unknown-type",
      jsonPath: "$.detail",
    });
    const badDuration = anyPack(DurationSchema, create(DurationSchema, { seconds: 1n, nanos: -1 }));
    expect(catchWkt(() => anyToJson(badDuration, { path: "$.detail" }))).toMatchObject({
      rule: "sign",
      jsonPath: "$.detail.value",
    });
  });

  it("changes nothing for valid values, and rejects a path that does not start with $ (range)", () => {
    const any = anyFromJson({ "@type": D, value: "1s" }, { path: "$.detail" });
    expect(any).toEqual(anyFromJson({ "@type": D, value: "1s" }));
    expect(anyToJson(any, { path: "$.detail" })).toEqual({ "@type": D, value: "1s" });
    for (const path of ["", "detail", 5, null]) {
      const options = { path } as unknown as { path: string };
      expect(catchWkt(() => anyFromJson({ "@type": D, value: "1s" }, options))).toMatchObject({
        rule: "range",
        jsonPath: "$",
      });
      expect(catchWkt(() => anyToJson(any, options))).toMatchObject({ rule: "range", jsonPath: "$" });
    }
  });
});
