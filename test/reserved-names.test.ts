// The `ignoreReservedNames` read option (src/codec/reserved-names.ts): a member whose name is reserved in its
// message (`reserved "reserved_field";` in the conformance suite's TestAllTypesProto2/3, proto2, proto3 and
// editions alike), as the proto name or its lowerCamelCase JSON form, is skipped, at every depth; every other
// unknown member is still refused. Off by default ("Runtime JSON parsing is not affected by reserved names").

import { create, createFileRegistry, createRegistry, type DescMessage, type JsonValue } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema, FileOptionsSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import {
  fromJson,
  fromJsonString,
  mergeFromJson,
  mergeFromJsonString,
  standardSchema,
  toJson,
  validateJson,
  validateJsonString,
} from "../src/index.js";
import {
  TestAllTypesProto2,
  TestAllTypesProto2Editions,
  TestAllTypesProto3,
  TestAllTypesProto3Editions,
  testRegistry,
} from "./conformance-registry.js";
import { catchWkt } from "./helpers.js";

/** fromJson, fromJsonString and validateJson(String) on one input: the message, or the rule and path of all. */
function readAll(schema: DescMessage, json: JsonValue, options: object) {
  const o = { registry: testRegistry, ...options };
  const text = JSON.stringify(json);
  let result: unknown;
  try {
    result = { value: toJson(schema, fromJson(schema, json, o), { registry: testRegistry }) };
  } catch (e) {
    const { rule, jsonPath } = catchWkt(() => {
      throw e;
    });
    result = { rule, jsonPath };
  }
  let fromText: unknown;
  try {
    fromText = { value: toJson(schema, fromJsonString(schema, text, o), { registry: testRegistry }) };
  } catch (e) {
    const { rule, jsonPath } = catchWkt(() => {
      throw e;
    });
    fromText = { rule, jsonPath };
  }
  expect(fromText).toEqual(result);
  for (const issues of [validateJson(schema, json, o), validateJsonString(schema, text, o)]) {
    if ("value" in (result as object)) expect(issues).toEqual([]);
    else expect(issues[0]).toMatchObject(result as object);
  }
  return result;
}

const types = [TestAllTypesProto3, TestAllTypesProto2, TestAllTypesProto3Editions, TestAllTypesProto2Editions];

describe.each(types)("$typeName reserves reserved_field", (schema) => {
  const url = `type.googleapis.com/${schema.typeName}`;
  // The proto2 types have no Any field.
  const hasAny = schema.fields.some((f) => f.name === "optional_any");
  const json: JsonValue = {
    reserved_field: 1,
    optionalInt32: 5,
    recursiveMessage: { reservedField: { any: ["thing"] }, optionalString: "in" },
    ...(hasAny ? { optionalAny: { "@type": url, reserved_field: null, optionalBool: true } } : {}),
    mapStringNestedMessage: { k: { a: 1 } },
  };

  it("is refused by default, as any unknown member", () => {
    expect(readAll(schema, json, {})).toEqual({ rule: "unknown-field", jsonPath: "$.reserved_field" });
  });

  it("is skipped under ignoreReservedNames, in both its forms, at every depth and inside an Any", () => {
    expect(readAll(schema, json, { ignoreReservedNames: true })).toEqual({
      value: {
        optionalInt32: 5,
        recursiveMessage: { optionalString: "in" },
        ...(hasAny ? { optionalAny: { "@type": url, optionalBool: true } } : {}),
        mapStringNestedMessage: { k: { a: 1 } },
      },
    });
  });

  it.each<[JsonValue, string]>([
    [{ reserved_field: 1, bogus: 1 }, "$.bogus"],
    [{ recursiveMessage: { reservedField: 1, reserved: 1 } }, "$.recursiveMessage.reserved"],
    [{ ReservedField: 1 }, "$.ReservedField"], // names are case-sensitive
    [{ optionalNestedMessage: { reserved_field: 1 } }, "$.optionalNestedMessage.reserved_field"], // not its type's
  ])("still refuses a truly unknown member: %j", (input, jsonPath) => {
    expect(readAll(schema, input, { ignoreReservedNames: true })).toEqual({ rule: "unknown-field", jsonPath });
  });

  it("merges: the reserved member changes nothing", () => {
    const target = create(schema, { optionalInt32: 1 } as never);
    mergeFromJson(schema, target, { reserved_field: 2, optionalString: "x" }, { ignoreReservedNames: true });
    mergeFromJsonString(schema, target, '{"reservedField": 3}', { ignoreReservedNames: true });
    expect(toJson(schema, target)).toEqual({ optionalInt32: 1, optionalString: "x" });
  });
});

describe("ignoreReservedNames", () => {
  it("leaves a key that names a field to the field", () => {
    // `reserved "old_name";` beside a field whose json_name is "oldName": that key is the field's.
    const Renamed = createFileRegistry(
      create(FileDescriptorProtoSchema, {
        name: "r.proto",
        package: "r",
        syntax: "proto3",
        messageType: [
          {
            name: "Renamed",
            field: [{ name: "renamed", number: 2, type: 5, label: 1, jsonName: "oldName" }],
            reservedName: ["old_name"],
          },
        ],
      }),
      () => undefined,
    ).getMessage("r.Renamed")!;
    expect(fromJson(Renamed, { oldName: 3, old_name: 4 }, { ignoreReservedNames: true })).toMatchObject({ renamed: 3 });
  });

  it("finds no reserved names in protobuf-es's own descriptor.proto types, whose embedded form drops them", () => {
    // FileOptions reserves "php_generic_services"; @bufbuild/protobuf's boot descriptor leaves it out.
    expect(FileOptionsSchema.proto.reservedName).toEqual([]);
    expect(
      catchWkt(() => fromJson(FileOptionsSchema, { php_generic_services: true }, { ignoreReservedNames: true })),
    ).toMatchObject({ rule: "unknown-field" });
  });

  it("passes through standardSchema", () => {
    const s = standardSchema(TestAllTypesProto3, { ignoreReservedNames: true, registry: createRegistry() });
    expect((s["~standard"].validate({ reserved_field: 1 }) as { issues?: unknown }).issues).toBeUndefined();
  });

  it.each([["yes"], [1], [null]])("refuses %j as its value (rule range, typeName options)", (v) => {
    const o = { ignoreReservedNames: v } as never;
    for (const f of [
      () => fromJson(TestAllTypesProto3, {}, o),
      () => fromJsonString(TestAllTypesProto3, "{}", o),
      () => validateJson(TestAllTypesProto3, {}, o),
      () => mergeFromJson(TestAllTypesProto3, create(TestAllTypesProto3), {}, o),
    ]) {
      expect(catchWkt(f)).toMatchObject({ rule: "range", jsonPath: "$", typeName: "options" });
    }
  });
});
