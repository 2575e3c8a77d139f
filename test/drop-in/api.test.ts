// The rest of @bufbuild/protobuf's JSON surface, side by side with protobuf-es: the enum functions, the
// options objects (protobuf-es's own types accepted as they are, recursionLimit), and proto2 required fields
// on write.

import {
  create,
  createFileRegistry,
  createRegistry,
  enumFromJson as pbEnumFromJson,
  enumToJson as pbEnumToJson,
  fromJson as pbFromJson,
  isEnumJson as pbIsEnumJson,
  toJson as pbToJson,
  type DescEnum,
  type JsonObject,
  type JsonReadOptions as PbJsonReadOptions,
  type JsonWriteOptions as PbJsonWriteOptions,
  type JsonWriteStringOptions as PbJsonWriteStringOptions,
} from "@bufbuild/protobuf";
import {
  AnySchema,
  anyPack,
  FieldDescriptorProto_TypeSchema,
  FileDescriptorProtoSchema,
  NullValue,
  NullValueSchema,
  StructSchema,
} from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { catchWkt } from "../helpers.js";
import { isWktJsonError } from "../../src/errors.js";
import {
  enumFromJson,
  enumToJson,
  fromJson,
  fromJsonString,
  isEnumJson,
  toJson,
  toJsonString,
  validateJson,
} from "../../src/index.js";
import {
  ForeignEnum,
  ForeignEnumProto2,
  TestAllRequiredTypesProto2,
  TestAllTypesProto2,
  TestAllTypesProto3,
  testRegistry as registry,
} from "../conformance-registry.js";

function theirsThrows(f: () => unknown): boolean {
  try {
    f();
  } catch {
    return true;
  }
  return false;
}

const enums: DescEnum[] = [ForeignEnum, ForeignEnumProto2, FieldDescriptorProto_TypeSchema, NullValueSchema];

describe("enumToJson, enumFromJson, isEnumJson", () => {
  it.each(enums)("$typeName: every value both ways as protobuf-es", (e) => {
    for (const v of e.values) {
      expect(enumToJson(e, v.number)).toEqual(pbEnumToJson(e, v.number));
      for (const json of [v.name, v.number, enumToJson(e, v.number)]) {
        if (json === null) continue;
        expect(enumFromJson(e, json as never)).toBe(pbEnumFromJson(e, json as never));
      }
      expect(isEnumJson(e, v.name)).toBe(pbIsEnumJson(e, v.name));
    }
    expect(enumFromJson(e, null as never)).toBe(pbEnumFromJson(e, null as never));
    for (const other of ["nope", 1.5, true, {}, ""]) expect(isEnumJson(e, other)).toBe(pbIsEnumJson(e, other));
  });

  it("refuses what protobuf-es refuses, with our error", () => {
    expect(catchWkt(() => enumToJson(ForeignEnum, 99 as never))).toMatchObject({ rule: "enum", jsonPath: "$" });
    expect(theirsThrows(() => pbEnumToJson(ForeignEnum, 99 as never))).toBe(true);
    expect(catchWkt(() => enumFromJson(ForeignEnum, "NOPE" as never)).rule).toBe("enum");
    expect(theirsThrows(() => pbEnumFromJson(ForeignEnum, "NOPE" as never))).toBe(true);
    expect(catchWkt(() => enumFromJson(ForeignEnum, 1.5 as never)).rule).toBe("enum");
    expect(catchWkt(() => enumFromJson(ForeignEnum, true as never)).rule).toBe("json-type");
    expect(catchWkt(() => enumToJson(null as never, 0 as never)).rule).toBe("json-type");
  });

  it("keeps an open enum's unknown number, and a closed enum's, as protobuf-es's enumFromJson does", () => {
    expect(enumFromJson(ForeignEnum, 99 as never)).toBe(pbEnumFromJson(ForeignEnum, 99 as never));
    expect(enumFromJson(ForeignEnumProto2, 99 as never)).toBe(pbEnumFromJson(ForeignEnumProto2, 99 as never));
    expect(enumToJson(NullValueSchema, NullValue.NULL_VALUE)).toBeNull();
  });
});

describe("options objects written for protobuf-es", () => {
  it("are accepted as they are, typed with protobuf-es's option types", () => {
    const read: PbJsonReadOptions = { ignoreUnknownFields: true, registry, recursionLimit: 50 };
    const write: PbJsonWriteOptions = {
      alwaysEmitImplicit: true,
      enumAsInteger: true,
      useProtoFieldName: true,
      registry: undefined,
    };
    const text: PbJsonWriteStringOptions = { ...write, prettySpaces: 2 };
    const json = { optionalInt32: 1, nope: 2 };
    const m = fromJson(TestAllTypesProto3, json, read);
    expect(m).toEqual(pbFromJson(TestAllTypesProto3, json, read));
    expect(toJson(TestAllTypesProto3, m, write)).toEqual(pbToJson(TestAllTypesProto3, m, write));
    expect(JSON.parse(toJsonString(TestAllTypesProto3, m, text))).toEqual(pbToJson(TestAllTypesProto3, m, write));
    expect(validateJson(TestAllTypesProto3, json, read)).toEqual([]);
  });

  it("recursionLimit is maxDepth under protobuf-es's name", () => {
    let json: JsonObject = {};
    for (let i = 0; i < 5; i++) json = { recursiveMessage: json };
    expect(catchWkt(() => fromJson(TestAllTypesProto3, json, { recursionLimit: 5 })).rule).toBe("depth");
    expect(theirsThrows(() => pbFromJson(TestAllTypesProto3, json, { recursionLimit: 5 }))).toBe(true);
    expect(() => fromJson(TestAllTypesProto3, json, { recursionLimit: 6 })).not.toThrow();
    expect(() => pbFromJson(TestAllTypesProto3, json, { recursionLimit: 6 })).not.toThrow();
    expect(catchWkt(() => fromJsonString(TestAllTypesProto3, JSON.stringify(json), { recursionLimit: 5 })).rule).toBe(
      "depth",
    );
    expect(validateJson(TestAllTypesProto3, json, { recursionLimit: 5 }).map((i) => i.rule)).toEqual(["depth"]);
    expect(() => fromJson(TestAllTypesProto3, json, { recursionLimit: 6, maxDepth: 6 })).not.toThrow();
    const both = catchWkt(() => fromJson(TestAllTypesProto3, json, { recursionLimit: 6, maxDepth: 7 }));
    expect({ rule: both.rule, jsonPath: both.jsonPath }).toEqual({ rule: "range", jsonPath: "$" });
    expect(both.detail).toContain("differ");
    expect(catchWkt(() => fromJson(StructSchema, {}, { recursionLimit: "5" as never })).rule).toBe("range");
  });
});

describe("proto2 required fields on write", () => {
  const full = () => {
    // Every required scalar and enum field of TestAllRequiredTypesProto2 set to its default.
    const m = create(TestAllRequiredTypesProto2) as unknown as Record<string, unknown>;
    for (const f of TestAllRequiredTypesProto2.fields) {
      if (f.fieldKind === "scalar" || f.fieldKind === "enum") m[f.localName] = m[f.localName];
    }
    return m;
  };

  it("an unset required field is rule required at its path, as protobuf-es refuses it", () => {
    const m = create(TestAllRequiredTypesProto2);
    const e = catchWkt(() => toJson(TestAllRequiredTypesProto2, m));
    expect(e.rule).toBe("required");
    expect(e.jsonPath).toBe("$.requiredInt32");
    expect(theirsThrows(() => pbToJson(TestAllRequiredTypesProto2, m))).toBe(true);
    expect(catchWkt(() => toJsonString(TestAllRequiredTypesProto2, m)).rule).toBe("required");
    expect(catchWkt(() => toJson(TestAllRequiredTypesProto2, m, { useProtoFieldName: true })).jsonPath).toBe(
      "$.required_int32",
    );
  });

  it("a required field of a nested message is named by its path (TestAllRequiredTypesProto2 is recursive: never complete)", () => {
    const m = full();
    for (const f of TestAllRequiredTypesProto2.fields) {
      if (f.fieldKind === "message" && f.oneof === undefined && !Object.prototype.hasOwnProperty.call(m, f.localName))
        m[f.localName] = create(f.message);
    }
    expect(theirsThrows(() => pbToJson(TestAllRequiredTypesProto2, m as never))).toBe(true);
    const e = catchWkt(() => toJson(TestAllRequiredTypesProto2, m as never));
    expect({ rule: e.rule, jsonPath: e.jsonPath }).toEqual({ rule: "required", jsonPath: "$.requiredNestedMessage.a" });
  });
});

// Deliberate differences on write, listed in differences.ts and docs/switching-from-protobuf-es.md (ids quoted below).
describe("differences on write and in errors", () => {
  it('"write-range": a value out of its field\'s range is refused on write, where protobuf-es writes it', () => {
    for (const [field, value] of [
      ["optionalUint32", -1],
      ["optionalUint64", -1n],
      ["repeatedUint32", [-1]],
    ] as const) {
      const m = { ...create(TestAllTypesProto3), [field]: value };
      expect(catchWkt(() => toJson(TestAllTypesProto3, m as never)).rule).toBe("range");
      const written = pbToJson(TestAllTypesProto3, m as never) as JsonObject;
      expect(theirsThrows(() => pbFromJson(TestAllTypesProto3, written))).toBe(true);
    }
  });

  it('"any-type-json-name": an Any of a message with a field JSON name "@type" is refused, where protobuf-es drops the field', () => {
    const file = create(FileDescriptorProtoSchema, {
      name: "clash.proto",
      package: "clash",
      syntax: "proto3",
      messageType: [{ name: "M", field: [{ name: "c", number: 1, type: 9, label: 1, jsonName: "@type" }] }],
    });
    const reg = createFileRegistry(file, () => undefined);
    const M = reg.getMessage("clash.M")!;
    const any = anyPack(M, create(M, { c: "x" } as never));
    expect(catchWkt(() => toJson(AnySchema, any, { registry: createRegistry(M) })).rule).toBe("type-url");
    const theirs = pbToJson(AnySchema, any, { registry: createRegistry(M) }) as JsonObject;
    expect(theirs["@type"]).toBe("type.googleapis.com/clash.M"); // the value of c is gone
  });

  it('"closed-enum-number": a closed enum\'s undeclared number is read, where protobuf-es refuses it', () => {
    // protobuf-es's binary reader keeps such a number in a list; both writers write it as a number.
    const m = create(TestAllTypesProto2, { repeatedNestedEnum: [1, 5] });
    const written = toJson(TestAllTypesProto2, m) as JsonObject;
    expect(written).toEqual(pbToJson(TestAllTypesProto2, m));
    expect(fromJson(TestAllTypesProto2, written)).toEqual(m);
    expect(theirsThrows(() => pbFromJson(TestAllTypesProto2, written))).toBe(true);
  });

  it('"required-on-read": JSON without a required field is refused, where protobuf-es reads it; allowPartial reads it', () => {
    const json = { requiredInt32: 1 }; // every other required field missing
    expect(catchWkt(() => fromJson(TestAllRequiredTypesProto2, json))).toMatchObject({
      rule: "required",
      jsonPath: "$.requiredInt64",
    });
    const theirs = pbFromJson(TestAllRequiredTypesProto2, json);
    expect(theirsThrows(() => pbToJson(TestAllRequiredTypesProto2, theirs))).toBe(true); // and cannot write it
    expect(fromJson(TestAllRequiredTypesProto2, json, { allowPartial: true })).toEqual(theirs);
    expect(fromJsonString(TestAllRequiredTypesProto2, JSON.stringify(json), { allowPartial: true })).toEqual(theirs);
  });

  it('"json-name-clash": a type whose JSON names clash (LEGACY_BEST_EFFORT) is refused, where protobuf-es merges the fields', () => {
    const file = create(FileDescriptorProtoSchema, {
      name: "legacy.proto",
      package: "legacy",
      syntax: "editions",
      edition: 1000, // EDITION_2023
      options: { features: { jsonFormat: 2 } }, // LEGACY_BEST_EFFORT
      messageType: [
        {
          name: "M",
          field: [
            { name: "foo_bar", number: 1, type: 5, label: 1, jsonName: "fooBar" },
            { name: "fooBar", number: 2, type: 5, label: 1, jsonName: "fooBar" },
          ],
        },
      ],
    });
    const M = createFileRegistry(file, () => undefined).getMessage("legacy.M")!;
    expect(catchWkt(() => fromJson(M, { fooBar: 1 }))).toMatchObject({ rule: "duplicate-field", jsonPath: "$" });
    expect(catchWkt(() => toJson(M, create(M)))).toMatchObject({ rule: "duplicate-field", jsonPath: "$" });
    const theirs = pbFromJson(M, { fooBar: 1 }) as unknown as Record<string, unknown>;
    expect(theirs["fooBar"]).toBe(1); // one property for two fields
  });

  it('"errors": every error is a WktJsonError with rule and path, where protobuf-es throws an Error with a message', () => {
    const e = catchWkt(() => fromJson(TestAllTypesProto3, { optionalInt32: "x" }));
    expect({ name: e.name, rule: e.rule, jsonPath: e.jsonPath }).toEqual({
      name: "WktJsonError",
      rule: "syntax",
      jsonPath: "$.optionalInt32",
    });
    let theirs: unknown;
    try {
      pbFromJson(TestAllTypesProto3, { optionalInt32: "x" });
    } catch (caught) {
      theirs = caught;
    }
    expect(theirs instanceof Error && !isWktJsonError(theirs) && theirs.message.startsWith("cannot decode")).toBe(true);
  });
});
