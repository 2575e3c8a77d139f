// The rest of @bufbuild/protobuf's JSON surface, side by side with protobuf-es: the enum functions, the
// options objects (protobuf-es's own types accepted as they are, recursionLimit), and proto2 required fields
// on write.

import {
  create,
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
import { NullValue, NullValueSchema, FieldDescriptorProto_TypeSchema, StructSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { isWktJsonError, type WktJsonError } from "../../src/errors.js";
import { enumFromJson, enumToJson, fromJson, fromJsonString, isEnumJson, toJson, toJsonString, validateJson } from "../../src/index.js";
import {
  ForeignEnum,
  ForeignEnumProto2,
  TestAllRequiredTypesProto2,
  TestAllTypesProto3,
  testRegistry as registry,
} from "../conformance-registry.js";

function ours(f: () => unknown): WktJsonError {
  try {
    f();
  } catch (e) {
    if (isWktJsonError(e)) return e;
    throw e;
  }
  throw new Error("expected a WktJsonError");
}

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
    expect(ours(() => enumToJson(ForeignEnum, 99 as never)).rule).toBe("enum");
    expect(theirsThrows(() => pbEnumToJson(ForeignEnum, 99 as never))).toBe(true);
    expect(ours(() => enumFromJson(ForeignEnum, "NOPE" as never)).rule).toBe("enum");
    expect(theirsThrows(() => pbEnumFromJson(ForeignEnum, "NOPE" as never))).toBe(true);
    expect(ours(() => enumFromJson(ForeignEnum, 1.5 as never)).rule).toBe("enum");
    expect(ours(() => enumFromJson(ForeignEnum, true as never)).rule).toBe("json-type");
    expect(ours(() => enumToJson(null as never, 0 as never)).rule).toBe("json-type");
  });

  it("keeps an open enum's unknown number, and refuses a closed enum's (stricter: see the README's differences)", () => {
    expect(enumFromJson(ForeignEnum, 99 as never)).toBe(pbEnumFromJson(ForeignEnum, 99 as never));
    expect(ours(() => enumFromJson(ForeignEnumProto2, 99 as never)).rule).toBe("enum");
    expect(enumToJson(NullValueSchema, NullValue.NULL_VALUE)).toBeNull();
  });
});

describe("options objects written for protobuf-es", () => {
  it("are accepted as they are, typed with protobuf-es's option types", () => {
    const read: PbJsonReadOptions = { ignoreUnknownFields: true, registry, recursionLimit: 50 };
    const write: PbJsonWriteOptions = { alwaysEmitImplicit: true, enumAsInteger: true, useProtoFieldName: true, registry: undefined };
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
    expect(ours(() => fromJson(TestAllTypesProto3, json, { recursionLimit: 5 })).rule).toBe("depth");
    expect(theirsThrows(() => pbFromJson(TestAllTypesProto3, json, { recursionLimit: 5 }))).toBe(true);
    expect(() => fromJson(TestAllTypesProto3, json, { recursionLimit: 6 })).not.toThrow();
    expect(() => pbFromJson(TestAllTypesProto3, json, { recursionLimit: 6 })).not.toThrow();
    expect(ours(() => fromJsonString(TestAllTypesProto3, JSON.stringify(json), { recursionLimit: 5 })).rule).toBe("depth");
    expect(validateJson(TestAllTypesProto3, json, { recursionLimit: 5 }).map((i) => i.rule)).toEqual(["depth"]);
    expect(() => fromJson(TestAllTypesProto3, json, { recursionLimit: 6, maxDepth: 6 })).not.toThrow();
    const both = ours(() => fromJson(TestAllTypesProto3, json, { recursionLimit: 6, maxDepth: 7 }));
    expect(both.rule).toBe("range");
    expect(both.detail).toContain("differ");
    expect(ours(() => fromJson(StructSchema, {}, { recursionLimit: "5" as never })).rule).toBe("range");
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
    const e = ours(() => toJson(TestAllRequiredTypesProto2, m));
    expect(e.rule).toBe("required");
    expect(e.path).toBe("$.requiredInt32");
    expect(theirsThrows(() => pbToJson(TestAllRequiredTypesProto2, m))).toBe(true);
    expect(ours(() => toJsonString(TestAllRequiredTypesProto2, m)).rule).toBe("required");
    expect(ours(() => toJson(TestAllRequiredTypesProto2, m, { useProtoFieldName: true })).path).toBe("$.required_int32");
  });

  it("a required field of a nested message is named by its path (TestAllRequiredTypesProto2 is recursive: never complete)", () => {
    const m = full();
    for (const f of TestAllRequiredTypesProto2.fields) {
      if (f.fieldKind === "message" && f.oneof === undefined && !Object.prototype.hasOwnProperty.call(m, f.localName)) m[f.localName] = create(f.message);
    }
    expect(theirsThrows(() => pbToJson(TestAllRequiredTypesProto2, m as never))).toBe(true);
    const e = ours(() => toJson(TestAllRequiredTypesProto2, m as never));
    expect({ rule: e.rule, path: e.path }).toEqual({ rule: "required", path: "$.requiredNestedMessage.a" });
  });
});
