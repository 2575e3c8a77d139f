// Descriptors that protobuf-es builds without a word but that JSON cannot serve (issue 25, "Integrity and
// errors"): an enum whose values' JSON names clash (protoc refuses it: descriptor.cc,
// CheckEnumCustomStringUniqueness), and a type that redefines a well-known type with a form of its own. Both
// are refused wherever descriptors come in: registryFromTypes here, the command line in test/cli.test.ts, and
// for the enum also by the codec, for a registry built elsewhere.

import {
  create,
  createFileRegistry,
  createRegistry,
  setExtension,
  type DescEnum,
  type DescMessage,
} from "@bufbuild/protobuf";
import {
  EnumSchema,
  EnumValueOptionsSchema,
  file_google_protobuf_struct,
  FieldSchema,
  Field_Cardinality,
  Field_Kind,
  FileDescriptorSetSchema,
  StructSchema,
  Syntax,
  TypeSchema,
  DoubleValueSchema,
  type EnumValueOptions,
} from "@bufbuild/protobuf/wkt";
import {
  json as jsonEnumValueOption,
  JsonEnumValueOptionsSchema,
} from "@bufbuild/protobuf/wkt/google/protobuf/json_enumvalue_options_pb.js";
import { describe, expect, it } from "vitest";
import { typesFromDescriptors } from "../src/descriptors/descriptors.js";
import { registryFromTypes } from "../src/descriptors/registry-from-types.js";
import {
  anyPack,
  enumFromJson,
  enumToJson,
  fromJson,
  fromJsonString,
  jsonSchema,
  mergeFromJson,
  toJson,
  toJsonString,
  validateJson,
} from "../src/index.js";
import { enumJsonNameClash } from "../src/wkt/enum.js";
import { wktOwnForm, wktRedefinition } from "../src/wkt/registry.js";
import { testRegistry } from "./conformance-registry.js";
import { catchWkt } from "./helpers.js";

/** EnumValueOptions setting the custom JSON name `(pb.enumvalue.json).string`. */
function jsonName(name: string): EnumValueOptions {
  const options = create(EnumValueOptionsSchema);
  setExtension(options, jsonEnumValueOption, create(JsonEnumValueOptionsSchema, { string: name }));
  return options;
}

type Value = [name: string, number: number, custom?: string];

/** acme.Color of `values` (allow_alias when asked), and acme.M { Color c = 1; repeated Color cs = 2; map<string, Color> m = 3; }. */
function colors(values: Value[], allowAlias = false): { E: DescEnum; M: DescMessage } {
  const file = {
    name: "acme/color.proto",
    package: "acme",
    syntax: "proto3",
    enumType: [
      {
        name: "Color",
        value: values.map(([name, number, custom]) => ({
          name,
          number,
          ...(custom === undefined ? {} : { options: jsonName(custom) }),
        })),
        ...(allowAlias ? { options: { allowAlias: true } } : {}),
      },
    ],
    messageType: [
      {
        name: "M",
        field: [
          { name: "c", number: 1, type: 14, label: 1, typeName: ".acme.Color", jsonName: "c" },
          { name: "cs", number: 2, type: 14, label: 3, typeName: ".acme.Color", jsonName: "cs" },
          { name: "m", number: 3, type: 11, label: 3, typeName: ".acme.M.MEntry", jsonName: "m" },
        ],
        nestedType: [
          {
            name: "MEntry",
            field: [
              { name: "key", number: 1, type: 9, label: 1, jsonName: "key" },
              { name: "value", number: 2, type: 14, label: 1, typeName: ".acme.Color", jsonName: "value" },
            ],
            options: { mapEntry: true },
          },
        ],
      },
    ],
  };
  const registry = createFileRegistry(create(FileDescriptorSetSchema, { file: [file as never] }));
  return { E: registry.getEnum("acme.Color")!, M: registry.getMessage("acme.M")! };
}

describe("enum values whose JSON names clash, as protoc checks them", () => {
  it.each<[string, Value[], boolean, number]>([
    [
      "a custom JSON name that is a later value's name",
      [
        ["RED", 0],
        ["GREEN", 1, "BLUE"],
        ["BLUE", 2],
      ],
      false,
      2,
    ],
    [
      "a custom JSON name that is an earlier value's name",
      [
        ["RED", 0],
        ["BLUE", 1],
        ["GREEN", 2, "BLUE"],
      ],
      false,
      2,
    ],
    [
      "two values of one custom JSON name",
      [
        ["RED", 0],
        ["GREEN", 1, "x"],
        ["BLUE", 2, "x"],
      ],
      false,
      2,
    ],
    [
      "two values of one name",
      [
        ["RED", 0],
        ["GREEN", 1],
        ["GREEN", 2],
      ],
      false,
      2,
    ],
    [
      "custom JSON names that swap two names",
      [
        ["RED", 0, "GREEN"],
        ["GREEN", 1, "RED"],
      ],
      false,
      1,
    ],
    [
      "an alias with a custom JSON name its number's first value lacks",
      [
        ["RED", 0],
        ["GREEN", 1],
        ["LIME", 1, "lime"],
      ],
      true,
      2,
    ],
    [
      "an alias without the custom JSON name its number's first value has",
      [
        ["RED", 0],
        ["GREEN", 1, "g"],
        ["LIME", 1],
      ],
      true,
      2,
    ],
    [
      "an alias with another custom JSON name",
      [
        ["RED", 0],
        ["GREEN", 1, "g"],
        ["LIME", 1, "l"],
      ],
      true,
      2,
    ],
    [
      "an alias whose custom JSON name is its own name, the first value's not set",
      [
        ["RED", 0],
        ["GREEN", 1],
        ["LIME", 1, "LIME"],
      ],
      true,
      2,
    ],
  ])("refuses %s", (_, values, allowAlias, index) => {
    const { E, M } = colors(values, allowAlias);
    expect(enumJsonNameClash(E)?.index).toBe(index);
    // The codec refuses every value of it, read or written, at the value's path.
    const at = (path: string) => ({ rule: "enum", jsonPath: path, typeName: "acme.Color" });
    expect(catchWkt(() => toJson(M, create(M, { c: 1 } as never)))).toMatchObject(at("$.c"));
    expect(catchWkt(() => toJsonString(M, create(M, { cs: [0, 1] } as never)))).toMatchObject(at("$.cs[0]"));
    expect(catchWkt(() => toJsonString(M, create(M, { c: 1 } as never), { prettySpaces: 2 }))).toMatchObject(at("$.c"));
    expect(catchWkt(() => toJson(M, create(M, { m: { k: 0 } } as never)))).toMatchObject(at("$.m.k"));
    expect(catchWkt(() => fromJson(M, { c: "RED" }))).toMatchObject(at("$.c"));
    expect(catchWkt(() => fromJson(M, { cs: [0] }))).toMatchObject(at("$.cs[0]"));
    expect(catchWkt(() => fromJsonString(M, '{"m":{"k":"RED"}}'))).toMatchObject(at("$.m.k"));
    expect(catchWkt(() => mergeFromJson(M, create(M), { c: "RED" }))).toMatchObject(at("$.c"));
    expect(validateJson(M, { c: 0 })).toMatchObject([at("$.c")]);
    expect(catchWkt(() => enumToJson(E, 0))).toMatchObject(at("$"));
    expect(catchWkt(() => enumFromJson(E, "RED"))).toMatchObject(at("$"));
    // Its JSON Schema, for input and for output alike (output listed one name twice before).
    for (const io of ["input", "output"] as const) expect(catchWkt(() => jsonSchema(M, { io }))).toMatchObject(at("$"));
    // A message that holds no value of it is written and read as before.
    expect(toJson(M, create(M))).toEqual({});
    expect(toJson(M, fromJson(M, { cs: [] }))).toEqual({});
  });

  it.each<[string, Value[], boolean, Record<string, number>]>([
    [
      "custom JSON names of their own",
      [
        ["RED", 0],
        ["GREEN", 1, "green"],
      ],
      false,
      { RED: 0, green: 1, GREEN: 1 },
    ],
    [
      "a custom JSON name equal to the value's own name",
      [
        ["RED", 0, "RED"],
        ["GREEN", 1],
      ],
      false,
      { RED: 0, GREEN: 1 },
    ],
    [
      "aliases without custom JSON names",
      [
        ["RED", 0],
        ["GREEN", 1],
        ["LIME", 1],
      ],
      true,
      { RED: 0, GREEN: 1, LIME: 1 },
    ],
    [
      "aliases of one custom JSON name",
      [
        ["RED", 0],
        ["GREEN", 1, "g"],
        ["LIME", 1, "g"],
      ],
      true,
      { g: 1, GREEN: 1, LIME: 1 },
    ],
    [
      "an alias whose custom JSON name is the first value's name",
      [
        ["RED", 0],
        ["GREEN", 1, "GREEN"],
        ["LIME", 1, "GREEN"],
      ],
      true,
      { GREEN: 1, LIME: 1 },
    ],
  ])("accepts %s: every name reads back as its number", (_, values, allowAlias, names) => {
    const { E, M } = colors(values, allowAlias);
    expect(enumJsonNameClash(E)).toBeUndefined();
    for (const [name, number] of Object.entries(names)) {
      expect(fromJson(M, { c: name })).toMatchObject({ c: number });
      // Written by its number's first value's JSON name, which reads back as the number (0 is not written).
      const written = toJson(M, create(M, { c: number } as never)) as { c?: string };
      expect((fromJson(M, written) as { c?: number }).c ?? 0).toBe(number);
    }
  });

  it("the enums of the conformance suite and of the well-known types have none", () => {
    for (const type of testRegistry) if (type.kind === "enum") expect(enumJsonNameClash(type)).toBeUndefined();
  });
});

describe("registryFromTypes refuses an enum whose JSON names clash", () => {
  const known = createRegistry(jsonEnumValueOption);
  /** An acme.Color Enum with `values`, each custom JSON name given as the option pb.enumvalue.json. */
  const colorEnum = (values: Value[]) =>
    create(EnumSchema, {
      name: "acme.Color",
      syntax: Syntax.PROTO3,
      enumvalue: values.map(([name, number, custom]) => ({
        name,
        number,
        options:
          custom === undefined
            ? []
            : [
                {
                  name: "pb.enumvalue.json",
                  value: anyPack(JsonEnumValueOptionsSchema, create(JsonEnumValueOptionsSchema, { string: custom })),
                },
              ],
      })),
    });

  it.each<[string, Value[], string]>([
    [
      "GREEN named BLUE beside BLUE",
      [
        ["RED", 0],
        ["GREEN", 1, "BLUE"],
        ["BLUE", 2],
      ],
      "$.enums[0].enumvalue[2]",
    ],
    [
      "two values of one custom JSON name",
      [
        ["RED", 0],
        ["A", 1, "x"],
        ["B", 2, "x"],
      ],
      "$.enums[0].enumvalue[2]",
    ],
    [
      "two values of one name",
      [
        ["RED", 0],
        ["RED", 1],
      ],
      "$.enums[0].enumvalue[1]",
    ],
  ])("%s: rule enum at the later value", (_, values, path) => {
    expect(catchWkt(() => registryFromTypes({ enums: [colorEnum(values)] }, { registry: known }))).toMatchObject({
      rule: "enum",
      jsonPath: path,
      typeName: "google.protobuf.Enum",
    });
  });

  it("accepts custom JSON names of their own, which the codec then writes", () => {
    const registry = registryFromTypes(
      {
        enums: [
          colorEnum([
            ["RED", 0],
            ["GREEN", 1, "green"],
          ]),
        ],
      },
      { registry: known },
    );
    expect(enumToJson(registry.getEnum("acme.Color")!, 1)).toBe("green");
  });
});

describe("a type that redefines a well-known type with a form of its own", () => {
  const field = (name: string, number: number, kind: Field_Kind, typeUrl = "") =>
    create(FieldSchema, { name, number, kind, typeUrl, jsonName: name, cardinality: Field_Cardinality.OPTIONAL });

  it("registryFromTypes refuses a Struct of other fields (its binary form was garbage)", () => {
    const struct = create(TypeSchema, {
      name: "google.protobuf.Struct",
      syntax: Syntax.PROTO3,
      fields: [field("x", 1, Field_Kind.TYPE_STRING)],
    });
    expect(catchWkt(() => registryFromTypes({ types: [struct] }))).toMatchObject({
      rule: "type-url",
      jsonPath: "$.types[0].name",
    });
  });

  it.each<[string, () => Parameters<typeof registryFromTypes>[0], string]>([
    [
      "a DoubleValue whose value is a string",
      () => ({
        types: [
          create(TypeSchema, {
            name: "google.protobuf.DoubleValue",
            syntax: Syntax.PROTO3,
            fields: [field("value", 1, Field_Kind.TYPE_STRING)],
          }),
        ],
      }),
      "$.types[0].name",
    ],
    [
      "a Timestamp with one more field",
      () => ({
        types: [
          create(TypeSchema, {
            name: "google.protobuf.Timestamp",
            syntax: Syntax.PROTO3,
            fields: [
              field("seconds", 1, Field_Kind.TYPE_INT64),
              field("nanos", 2, Field_Kind.TYPE_INT32),
              field("zone", 3, Field_Kind.TYPE_STRING),
            ],
          }),
        ],
      }),
      "$.types[0].name",
    ],
    [
      "a NullValue of another value",
      () => ({
        enums: [
          create(EnumSchema, {
            name: "google.protobuf.NullValue",
            syntax: Syntax.PROTO3,
            enumvalue: [{ name: "NOTHING", number: 0 }],
          }),
        ],
      }),
      "$.enums[0].name",
    ],
  ])("registryFromTypes refuses %s", (_, input, path) => {
    expect(catchWkt(() => registryFromTypes(input()))).toMatchObject({ rule: "type-url", jsonPath: path });
  });

  it("registryFromTypes refuses a field of a Struct that its registry option redefines", () => {
    const known = createFileRegistry(
      create(FileDescriptorSetSchema, {
        file: [
          {
            name: "google/protobuf/struct.proto",
            package: "google.protobuf",
            syntax: "proto3",
            messageType: [{ name: "Struct", field: [{ name: "x", number: 1, type: 9, label: 1, jsonName: "x" }] }],
          },
        ],
      }),
    );
    const m = create(TypeSchema, {
      name: "acme.M",
      syntax: Syntax.PROTO3,
      fields: [field("s", 1, Field_Kind.TYPE_MESSAGE, "type.googleapis.com/google.protobuf.Struct")],
    });
    expect(catchWkt(() => registryFromTypes({ types: [m] }, { registry: known }))).toMatchObject({
      rule: "type-url",
      jsonPath: "$.types[0].fields[0].typeUrl",
    });
    const struct = registryFromTypes({ types: [m] }).getMessage("acme.M")?.field["s"]?.message;
    expect(struct?.typeName).toBe("google.protobuf.Struct");
    expect(wktRedefinition(struct!)).toBeUndefined();
  });

  it("registryFromTypes accepts the Struct family given field for field as the built-in", () => {
    const set = typesFromDescriptors(StructSchema, { wellKnownTypes: true });
    expect(set.types.map((t) => t.name)).toContain("google.protobuf.Struct.FieldsEntry");
    const registry = registryFromTypes(set);
    const struct = registry.getMessage("google.protobuf.Struct")!;
    expect(struct).not.toBe(StructSchema);
    expect(toJson(struct, fromJson(struct, { a: [1, null, "x"] }))).toEqual({ a: [1, null, "x"] });
  });

  it("wktRedefinition finds no difference in the built-in types nor in protoc's files (the conformance set)", () => {
    for (const name of wktOwnForm) {
      const desc = testRegistry.getMessage(name) ?? testRegistry.getEnum(name);
      expect([name, desc === undefined ? "missing" : wktRedefinition(desc)]).toEqual([name, undefined]);
    }
    // A copy of the built-in file, as a descriptor set of any protobuf release holds it.
    const copy = createFileRegistry(create(FileDescriptorSetSchema, { file: [file_google_protobuf_struct.proto] }));
    expect(wktRedefinition(copy.getMessage("google.protobuf.Struct")!)).toBeUndefined();
    expect(wktRedefinition(DoubleValueSchema)).toBeUndefined();
  });
});
