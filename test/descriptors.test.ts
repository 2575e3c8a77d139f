import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import {
  create,
  createFileRegistry,
  createRegistry,
  fromBinary,
  isFieldSet,
  toBinary,
  type DescEnum,
  type DescField,
  type DescMessage,
  type FileRegistry,
  type Registry,
} from "@bufbuild/protobuf";
import {
  ApiSchema,
  BoolValueSchema,
  EnumSchema,
  FeatureSet_EnumType,
  FeatureSet_FieldPresence,
  FeatureSet_JsonFormat,
  FeatureSet_RepeatedFieldEncoding,
  FeatureSetSchema,
  Field_Cardinality,
  Field_Kind,
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FieldDescriptorProtoSchema,
  FieldOptionsSchema,
  FieldSchema,
  file_google_protobuf_descriptor,
  FileDescriptorSetSchema,
  Int32ValueSchema,
  Int64ValueSchema,
  MethodSchema,
  NullValueSchema,
  OptionSchema,
  StringValueSchema,
  Syntax,
  TimestampSchema,
  TypeSchema,
  DurationSchema,
  type Any,
  type Api,
  type Enum,
  type Field,
  type Option,
  type Type,
} from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { anyPack, anyUnpack } from "../src/wkt/any.js";
import {
  apiFromDescriptor,
  enumFromDescriptor,
  typeFromDescriptor,
  typesFromDescriptors,
} from "../src/descriptors/descriptors.js";
import { registryFromTypes, type TypeSet } from "../src/descriptors/registry-from-types.js";
import {
  apiVersion,
  apiVersionCheck,
  apiVersionCompatible,
  apiVersionIsValid,
} from "../src/descriptors/api-version.js";
import {
  mixinAssert,
  mixinCheck,
  mixinHttpPath,
  mixinInheritDoc,
  mixinInheritOptions,
} from "../src/descriptors/mixin.js";
import { fromJson, fromJsonString } from "../src/codec/from-json.js";
import { toJson, toJsonString } from "../src/codec/to-json.js";
import { arbMessage } from "./arbitrary.js";
import {
  TestAllTypesEdition2023,
  TestAllTypesProto2,
  TestAllTypesProto2Editions,
  TestAllTypesProto3,
  TestAllTypesProto3Editions,
  testRegistry,
} from "./conformance-registry.js";
import { catchWkt } from "./helpers.js";

const G = "type.googleapis.com/";

// ---------------------------------------------------------------------------------------------------------
// Fixtures: small .proto files compiled with the pinned protoc, for what the conformance protos lack (services,
// custom options, proto3 optional, special defaults, inherited editions features).

const library = `
syntax = "proto3";
package acme.library.v2;
import "google/protobuf/descriptor.proto";
import "google/protobuf/timestamp.proto";

message Rule { string pattern = 1; uint32 max = 2; }
message HttpRule { string get = 1; string body = 2; }
extend google.protobuf.MessageOptions { sint32 message_level = 50001; repeated string tags = 50002; }
extend google.protobuf.FieldOptions { Rule rule = 50003; sint64 weight = 50004; }
extend google.protobuf.EnumValueOptions { string label = 50005; }
extend google.protobuf.MethodOptions { HttpRule http = 50006; }
extend google.protobuf.ServiceOptions { string host = 50007; }

message Book {
  option deprecated = true;
  option (message_level) = -7;
  option (tags) = "a";
  option (tags) = "b";
  string name = 1 [(rule) = { pattern: "^books/" max: 10 }, (weight) = -3, json_name = "title"];
  optional int32 pages = 2;
  map<string, Shelf> shelves = 3;
  repeated int32 ids = 4 [packed = false];
  oneof where { string shelf = 5; Shelf shelf_message = 6; }
  Kind kind = 7;
  google.protobuf.Timestamp create_time = 8;
  repeated Book related = 9;
  repeated double scores = 10;
}
message Shelf { string name = 1; repeated Book books = 2; }
enum Kind {
  KIND_UNSPECIFIED = 0;
  KIND_PAPER = 1 [(label) = "paper", deprecated = true];
}
message GetBookRequest { string name = 1; }
service Library {
  option (host) = "library.example.com";
  rpc GetBook(GetBookRequest) returns (Book) { option (http) = { get: "/v2/{name=books/*}" }; }
  rpc WatchBooks(stream GetBookRequest) returns (stream Book) { option deprecated = true; }
}
`;

const legacy = `
syntax = "proto2";
package acme.legacy;
enum Color { RED = 1; GREEN = 2; }
message Defaults {
  optional bytes b = 1 [default = "\\001\\n\\"x\\377'\\\\ok"];
  optional float f_inf = 2 [default = inf];
  optional double d_nan = 3 [default = nan];
  optional float f_tenth = 4 [default = 0.1];
  optional double d_small = 5 [default = 1e-5];
  optional double d_big = 6 [default = 123456789012345678];
  optional Color color = 7 [default = GREEN];
  optional string s = 8 [default = "tab\\there"];
  optional int64 i = 9 [default = -0x10];
  optional float f_neg_inf = 10 [default = -inf];
  optional bool flag = 11 [default = true];
  required int32 id = 12;
  repeated sint32 packed_ints = 13 [packed = true];
  optional group Item = 14 { optional int32 x = 1; }
  repeated group Entry = 15 { optional string k = 1; }
  optional float f_third = 16 [default = 0.333333333];
  optional double d_third = 17 [default = 0.1234567890123456789];
  optional uint64 big = 18 [default = 18446744073709551615];
}
`;

const modern = `
edition = "2023";
package acme.modern;
option features.field_presence = IMPLICIT;
option features.repeated_field_encoding = EXPANDED;
message Outer {
  option features.json_format = LEGACY_BEST_EFFORT;
  message Inner {
    repeated int32 values = 1;
    int32 plain = 2;
    int32 present = 3 [features.field_presence = EXPLICIT];
  }
  enum Mood {
    option features.enum_type = CLOSED;
    MOOD_UNKNOWN = 0;
    MOOD_HAPPY = 1;
  }
  Inner inner = 1 [features.message_encoding = DELIMITED];
  int32 must = 2 [features.field_presence = LEGACY_REQUIRED];
  repeated int32 packed_values = 3 [features.repeated_field_encoding = PACKED];
  Mood mood = 4 [features.field_presence = EXPLICIT];
  map<string, Inner> by_name = 5;
  repeated int32 expanded_values = 6;
}
service Moods { rpc Get(Outer) returns (Outer); }
`;

function compile(files: Record<string, string>): FileRegistry {
  const require = createRequire(import.meta.url);
  const protocDir = dirname(require.resolve("protoc/package.json"));
  const dir = mkdtempSync(join(tmpdir(), "wkt-json-descriptors-"));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const out = join(dir, "out.binpb");
    const args = [
      join(protocDir, "protoc.cjs"),
      `--proto_path=${dir}`,
      `--proto_path=${join(protocDir, "include")}`,
      "--include_imports",
      `--descriptor_set_out=${out}`,
      ...Object.keys(files),
    ];
    const r = spawnSync(process.execPath, args, { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`protoc failed: ${r.stderr}${r.error?.message ?? ""}`);
    return createFileRegistry(fromBinary(FileDescriptorSetSchema, readFileSync(out)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

let fixtures: FileRegistry;
beforeAll(() => {
  fixtures = compile({ "library.proto": library, "legacy.proto": legacy, "modern.proto": modern });
});

function msg(reg: Registry, name: string): DescMessage {
  const d = reg.getMessage(name);
  if (d === undefined) throw new Error(`no ${name}`);
  return d;
}

function field(type: Type, name: string): Field {
  const f = type.fields.find((x) => x.name === name);
  if (f === undefined) throw new Error(`${type.name} has no field ${name}`);
  return f;
}

function unpack(any: Any | undefined, registry?: Registry): Record<string, unknown> {
  if (any === undefined) throw new Error("no value");
  return anyUnpack(any, registry) as unknown as Record<string, unknown>;
}

function option(options: readonly Option[], name: string, registry?: Registry): unknown[] {
  return options
    .filter((o) => o.name === name)
    .map((o) => {
      const m = unpack(o.value, registry);
      return "value" in m && Object.keys(m).length === 2 ? m["value"] : m;
    });
}

const conformanceFiles = [
  "google/protobuf/test_messages_proto2.proto",
  "google/protobuf/test_messages_proto3.proto",
  "google/protobuf/test_messages_proto2_editions.proto",
  "google/protobuf/test_messages_proto3_editions.proto",
  "google/protobuf/test_messages_edition2023.proto",
];
const conformanceMessages = [...testRegistry].filter(
  (t): t is DescMessage => t.kind === "message" && conformanceFiles.includes(t.file.proto.name),
);
const conformanceEnums = [...testRegistry].filter(
  (t): t is DescEnum => t.kind === "enum" && conformanceFiles.includes(t.file.proto.name),
);

// ---------------------------------------------------------------------------------------------------------

describe("typeFromDescriptor over every message of the conformance protos", () => {
  it("covers the files", () => {
    expect(conformanceMessages.length).toBeGreaterThan(50);
    expect(new Set(conformanceMessages.map((m) => m.file.proto.name)).size).toBe(conformanceFiles.length);
  });

  // Checked against the FieldDescriptorProto protoc wrote, field by field, with C++'s reading of it.
  it.each(conformanceMessages.map((d) => [d.typeName, d] as const))("%s", (_, desc) => {
    const type = typeFromDescriptor(desc);
    const file = desc.file.proto;
    expect(type.name).toBe(desc.typeName);
    expect(type.sourceContext?.fileName).toBe(file.name);
    expect(type.syntax).toBe(
      file.syntax === "proto3" ? Syntax.PROTO3 : file.syntax === "editions" ? Syntax.EDITIONS : Syntax.PROTO2,
    );
    expect(type.edition).toBe(file.syntax === "editions" ? "2023" : "");
    expect(type.oneofs).toEqual(desc.proto.oneofDecl.map((o) => o.name));
    expect(type.fields.map((f) => f.number)).toEqual(desc.proto.field.map((f) => f.number));
    desc.fields.forEach((df: DescField, j) => {
      const f = type.fields[j] as Field;
      const p = df.proto;
      const delimited =
        (df.fieldKind === "message" || (df.fieldKind === "list" && df.listKind === "message")) && df.delimitedEncoding;
      expect(f.kind, p.name).toBe(delimited ? Field_Kind.TYPE_GROUP : (p.type as number));
      const required =
        p.label === FieldDescriptorProto_Label.REQUIRED ||
        p.options?.features?.fieldPresence === FeatureSet_FieldPresence.LEGACY_REQUIRED;
      expect(f.cardinality, p.name).toBe(
        p.label === FieldDescriptorProto_Label.REPEATED
          ? Field_Cardinality.REPEATED
          : required
            ? Field_Cardinality.REQUIRED
            : Field_Cardinality.OPTIONAL,
      );
      expect(f.name).toBe(p.name);
      expect(f.jsonName).toBe(p.jsonName);
      const refers =
        p.type === FieldDescriptorProto_Type.MESSAGE ||
        p.type === FieldDescriptorProto_Type.GROUP ||
        p.type === FieldDescriptorProto_Type.ENUM;
      expect(f.typeUrl, p.name).toBe(refers ? G + p.typeName.slice(1) : "");
      // Rule 10: counted from 1, 0 for none; it names the oneof in Type.oneofs.
      const inOneof = isFieldSet(p, FieldDescriptorProtoSchema.field.oneofIndex);
      expect(f.oneofIndex, p.name).toBe(inOneof ? p.oneofIndex + 1 : 0);
      if (inOneof) expect(type.oneofs[f.oneofIndex - 1]).toBe(desc.proto.oneofDecl[p.oneofIndex]?.name);
      expect(f.packed, p.name).toBe(df.fieldKind === "list" && df.packed);
      // protoc writes default_value in the form C++ prints it (%g floats, C-escaped bytes, enum value names).
      expect(f.defaultValue, p.name).toBe(
        isFieldSet(p, FieldDescriptorProtoSchema.field.defaultValue) ? p.defaultValue : "",
      );
      expect(f.options.map((o) => o.name)).toEqual(
        p.options === undefined
          ? []
          : FieldOptionsSchema.fields.filter((of) => isFieldSet(p.options as never, of)).map((of) => of.name),
      );
    });
  });

  it("reads like protobuf's own TypeResolver tests (TestAllTypesProto2)", () => {
    const type = typeFromDescriptor(TestAllTypesProto2);
    const expectField = (
      name: string,
      cardinality: Field_Cardinality,
      kind: Field_Kind,
      number: number,
      typeUrl = "",
    ) => expect(field(type, name)).toMatchObject({ cardinality, kind, number, typeUrl });
    expectField("optional_int32", Field_Cardinality.OPTIONAL, Field_Kind.TYPE_INT32, 1);
    expectField("optional_sfixed64", Field_Cardinality.OPTIONAL, Field_Kind.TYPE_SFIXED64, 10);
    expectField(
      "optional_nested_message",
      Field_Cardinality.OPTIONAL,
      Field_Kind.TYPE_MESSAGE,
      18,
      `${G}protobuf_test_messages.proto2.TestAllTypesProto2.NestedMessage`,
    );
    expectField(
      "optional_foreign_enum",
      Field_Cardinality.OPTIONAL,
      Field_Kind.TYPE_ENUM,
      22,
      `${G}protobuf_test_messages.proto2.ForeignEnumProto2`,
    );
    expectField("repeated_bytes", Field_Cardinality.REPEATED, Field_Kind.TYPE_BYTES, 45);
    expectField(
      "data",
      Field_Cardinality.OPTIONAL,
      Field_Kind.TYPE_GROUP,
      201,
      `${G}protobuf_test_messages.proto2.TestAllTypesProto2.Data`,
    );
    expectField(
      "map_int32_int32",
      Field_Cardinality.REPEATED,
      Field_Kind.TYPE_MESSAGE,
      56,
      `${G}protobuf_test_messages.proto2.TestAllTypesProto2.MapInt32Int32Entry`,
    );
    expect(field(type, "packed_int32").packed).toBe(true);
    expect(option(field(type, "packed_int32").options, "packed")).toEqual([true]);
    expect(field(type, "unpacked_int32").packed).toBe(false);
    expect(field(type, "default_float").defaultValue).toBe("9e+09");
    expect(field(type, "default_bytes").defaultValue).toBe("joshua");
    const oneof = type.oneofs.indexOf("oneof_field") + 1;
    expect(oneof).toBeGreaterThan(0);
    expect(type.fields.filter((f) => f.oneofIndex === oneof).map((f) => f.name)).toContain("oneof_uint32");
    expect(field(type, "optional_int32").oneofIndex).toBe(0);
  });

  it("gives proto3 packed defaults, and an explicit [packed = false] as the option", () => {
    const type = typeFromDescriptor(TestAllTypesProto3);
    expect(field(type, "repeated_int32").packed).toBe(true);
    expect(field(type, "repeated_int32").options).toEqual([]);
    expect(field(type, "unpacked_int32").packed).toBe(false);
    expect(option(field(type, "unpacked_int32").options, "packed")).toEqual([false]);
    expect(field(type, "repeated_string").packed).toBe(false);
  });

  it("carries the file's editions features in each message and enum (C++ PartiallyResolveFeatures)", () => {
    const fileFeatures = TestAllTypesProto2Editions.file.proto.options?.features;
    expect(fileFeatures).toBeDefined();
    for (const desc of [
      TestAllTypesProto2Editions,
      msg(testRegistry, "protobuf_test_messages.editions.proto2.TestAllTypesProto2.NestedMessage"),
    ]) {
      const [features] = option(
        typeFromDescriptor(desc).options,
        "features",
        createRegistry(file_google_protobuf_descriptor),
      );
      expect(features).toMatchObject({
        enumType: FeatureSet_EnumType.CLOSED,
        repeatedFieldEncoding: FeatureSet_RepeatedFieldEncoding.EXPANDED,
      });
    }
    const nested = enumFromDescriptor(
      testRegistry.getEnum("protobuf_test_messages.editions.proto2.TestAllTypesProto2.NestedEnum") as DescEnum,
    );
    expect(option(nested.options, "features", createRegistry(file_google_protobuf_descriptor))).toEqual([
      expect.objectContaining({ enumType: FeatureSet_EnumType.CLOSED }),
    ]);
    // A proto3 file has no features: nothing is added.
    expect(typeFromDescriptor(TestAllTypesProto3).options).toEqual([]);
  });

  it.each([
    ["proto2", TestAllTypesProto2, Syntax.PROTO2, ""],
    ["proto3", TestAllTypesProto3, Syntax.PROTO3, ""],
    ["editions", TestAllTypesEdition2023, Syntax.EDITIONS, "2023"],
  ] as const)("syntax of a %s file", (_, desc, syntax, edition) => {
    expect(typeFromDescriptor(desc)).toMatchObject({ syntax, edition });
  });

  it.each([
    ["", "type-url"],
    ["https://example.com", "type-url"],
    ["/", "type-url"],
  ])("rejects typeUrlPrefix %j (%s)", (typeUrlPrefix, rule) => {
    expect(catchWkt(() => typeFromDescriptor(TestAllTypesProto3, { typeUrlPrefix }))).toMatchObject({
      rule,
      jsonPath: "$",
    });
  });

  it("uses the typeUrlPrefix, with or without a trailing slash", () => {
    for (const typeUrlPrefix of ["example.com/types", "example.com/types/"]) {
      expect(field(typeFromDescriptor(TestAllTypesProto3, { typeUrlPrefix }), "optional_foreign_message").typeUrl).toBe(
        "example.com/types/protobuf_test_messages.proto3.ForeignMessage",
      );
    }
  });
});

describe("typeFromDescriptor on protoc-compiled fixtures", () => {
  it("writes custom options under their full name, built-in ones under their short name, in field-number order", () => {
    const type = typeFromDescriptor(msg(fixtures, "acme.library.v2.Book"));
    expect(type.options.map((o) => o.name)).toEqual([
      "deprecated",
      "acme.library.v2.message_level",
      "acme.library.v2.tags",
      "acme.library.v2.tags",
    ]);
    expect(option(type.options, "acme.library.v2.message_level")).toEqual([-7]);
    expect(type.options[1]?.value?.typeUrl).toBe(`${G}google.protobuf.Int32Value`); // sint32: C++ packs by C++ type
    expect(option(type.options, "acme.library.v2.tags")).toEqual(["a", "b"]);
    const name = field(type, "name");
    expect(name.jsonName).toBe("title");
    expect(name.options.map((o) => o.name)).toEqual(["acme.library.v2.rule", "acme.library.v2.weight"]);
    expect(option(name.options, "acme.library.v2.rule", fixtures)).toEqual([
      expect.objectContaining({ pattern: "^books/", max: 10 }),
    ]);
    expect(option(name.options, "acme.library.v2.weight")).toEqual([-3n]);
    expect(name.options[1]?.value?.typeUrl).toBe(`${G}google.protobuf.Int64Value`);
  });

  it("leaves out a custom option no visible extension names, unless a registry has it", () => {
    // The same Book, read from a registry whose descriptor.proto extensions are unknown to the file.
    const book = msg(fixtures, "acme.library.v2.Book");
    const bare = createFileRegistry(
      create(FileDescriptorSetSchema, {
        file: [
          file_google_protobuf_descriptor.proto,
          ...[...fixtures.files]
            .filter((f) => f.proto.name !== "library.proto" && f.proto.name !== "google/protobuf/descriptor.proto")
            .map((f) => f.proto),
          { ...book.file.proto, extension: [] },
        ],
      }),
    );
    const withoutExt = typeFromDescriptor(msg(bare, "acme.library.v2.Book"));
    expect(withoutExt.options.map((o) => o.name)).toEqual(["deprecated"]);
    const withExt = typeFromDescriptor(msg(bare, "acme.library.v2.Book"), { registry: fixtures });
    expect(withExt.options.map((o) => o.name)).toContain("acme.library.v2.message_level");
  });

  it("describes proto3 optional fields with their synthetic oneof (as C++ does)", () => {
    const type = typeFromDescriptor(msg(fixtures, "acme.library.v2.Book"));
    expect(type.oneofs).toEqual(["where", "_pages"]);
    expect(field(type, "pages").oneofIndex).toBe(2);
    expect(field(type, "shelf").oneofIndex).toBe(1);
    expect(field(type, "kind").oneofIndex).toBe(0);
  });

  it("describes a map field as a repeated field of its entry type, which has the option map_entry", () => {
    const { types } = typesFromDescriptors(msg(fixtures, "acme.library.v2.Book"));
    const book = types.find((t) => t.name === "acme.library.v2.Book") as Type;
    expect(field(book, "shelves")).toMatchObject({
      kind: Field_Kind.TYPE_MESSAGE,
      cardinality: Field_Cardinality.REPEATED,
      typeUrl: `${G}acme.library.v2.Book.ShelvesEntry`,
      packed: false,
    });
    const entry = types.find((t) => t.name === "acme.library.v2.Book.ShelvesEntry") as Type;
    expect(entry.fields.map((f) => [f.name, f.number, f.kind, f.typeUrl])).toEqual([
      ["key", 1, Field_Kind.TYPE_STRING, ""],
      ["value", 2, Field_Kind.TYPE_MESSAGE, `${G}acme.library.v2.Shelf`],
    ]);
    expect(option(entry.options, "map_entry")).toEqual([true]);
  });

  it.each([
    ["b", "\\001\\n\\\"x\\377\\'\\\\ok"],
    ["f_inf", "inf"],
    ["f_neg_inf", "-inf"],
    ["d_nan", "nan"],
    ["f_tenth", "0.1"],
    ["d_small", "1e-05"],
    ["d_big", "1.2345678901234568e+17"], // %.15g does not read back, so %.17g
    ["color", "GREEN"],
    ["s", "tab\there"],
    ["i", "-16"],
    ["flag", "true"],
    ["f_third", "0.333333343"],
    ["d_third", "0.12345678901234568"],
    ["big", "18446744073709551615"],
    ["id", ""],
  ])("default_value of %s is %j, as C++ prints it", (name, text) => {
    const desc = msg(fixtures, "acme.legacy.Defaults");
    expect(field(typeFromDescriptor(desc), name).defaultValue).toBe(text);
  });

  it("agrees with the default_value text protoc wrote (C++ formatting), except where C++ reformats a float", () => {
    const desc = msg(fixtures, "acme.legacy.Defaults");
    const type = typeFromDescriptor(desc);
    for (const p of desc.proto.field) {
      if (p.name === "f_third") continue; // protoc keeps the double text; C++ prints the float value (0.333333343)
      expect(field(type, p.name).defaultValue, p.name).toBe(p.defaultValue);
    }
  });

  it("reads proto2 groups, required and packed fields", () => {
    const type = typeFromDescriptor(msg(fixtures, "acme.legacy.Defaults"));
    expect(field(type, "item")).toMatchObject({
      kind: Field_Kind.TYPE_GROUP,
      cardinality: Field_Cardinality.OPTIONAL,
      typeUrl: `${G}acme.legacy.Defaults.Item`,
    });
    expect(field(type, "entry")).toMatchObject({
      kind: Field_Kind.TYPE_GROUP,
      cardinality: Field_Cardinality.REPEATED,
    });
    expect(field(type, "id").cardinality).toBe(Field_Cardinality.REQUIRED);
    expect(field(type, "packed_ints").packed).toBe(true);
  });

  it("resolves editions features: inherited ones in the message's options, the effects in kind, cardinality and packed", () => {
    const reg = createRegistry(fixtures);
    const outer = typeFromDescriptor(msg(fixtures, "acme.modern.Outer"));
    const inner = typeFromDescriptor(msg(fixtures, "acme.modern.Outer.Inner"));
    expect(outer).toMatchObject({ syntax: Syntax.EDITIONS, edition: "2023" });
    const inherited = {
      fieldPresence: FeatureSet_FieldPresence.IMPLICIT,
      repeatedFieldEncoding: FeatureSet_RepeatedFieldEncoding.EXPANDED,
      jsonFormat: FeatureSet_JsonFormat.LEGACY_BEST_EFFORT,
    };
    expect(option(outer.options, "features", reg)).toEqual([expect.objectContaining(inherited)]);
    expect(option(inner.options, "features", reg)).toEqual([expect.objectContaining(inherited)]);
    expect(field(outer, "inner").kind).toBe(Field_Kind.TYPE_GROUP);
    expect(field(outer, "must").cardinality).toBe(Field_Cardinality.REQUIRED);
    expect(field(outer, "packed_values").packed).toBe(true);
    expect(field(outer, "expanded_values").packed).toBe(false);
    expect(field(inner, "values").packed).toBe(false);
    const mood = enumFromDescriptor(fixtures.getEnum("acme.modern.Outer.Mood") as DescEnum);
    expect(option(mood.options, "features", reg)).toEqual([
      expect.objectContaining({ ...inherited, enumType: FeatureSet_EnumType.CLOSED }),
    ]);
  });
});

describe("enumFromDescriptor", () => {
  it("lists every value, aliases included, with options", () => {
    const aliased = enumFromDescriptor(
      testRegistry.getEnum("protobuf_test_messages.proto3.TestAllTypesProto3.AliasedEnum") as DescEnum,
    );
    expect(aliased.enumvalue.map((v) => [v.name, v.number])).toEqual([
      ["ALIAS_FOO", 0],
      ["ALIAS_BAR", 1],
      ["ALIAS_BAZ", 2],
      ["MOO", 2],
      ["moo", 2],
      ["bAz", 2],
    ]);
    expect(option(aliased.options, "allow_alias")).toEqual([true]);
    expect(aliased).toMatchObject({
      syntax: Syntax.PROTO3,
      sourceContext: { fileName: "google/protobuf/test_messages_proto3.proto" },
    });
    const kind = enumFromDescriptor(fixtures.getEnum("acme.library.v2.Kind") as DescEnum);
    const paper = kind.enumvalue[1];
    expect(paper?.options.map((o) => o.name)).toEqual(["deprecated", "acme.library.v2.label"]);
    expect(option(paper?.options ?? [], "acme.library.v2.label")).toEqual(["paper"]);
  });

  it.each(conformanceEnums.map((e) => [e.typeName, e] as const))("%s", (_, desc) => {
    const e = enumFromDescriptor(desc);
    expect(e.name).toBe(desc.typeName);
    expect(e.enumvalue.map((v) => [v.name, v.number])).toEqual(desc.proto.value.map((v) => [v.name, v.number]));
  });

  it("describes a well-known enum", () => {
    expect(enumFromDescriptor(NullValueSchema)).toMatchObject({
      name: "google.protobuf.NullValue",
      syntax: Syntax.PROTO3,
      enumvalue: [{ name: "NULL_VALUE", number: 0 }],
    });
  });
});

describe("apiFromDescriptor", () => {
  it("describes a service: methods, type URLs, streaming, options, version, source context, syntax", () => {
    const api = apiFromDescriptor(fixtures.getService("acme.library.v2.Library")!, {
      mixins: [{ name: "google.iam.v1.IAMPolicy", root: "iam" }],
    });
    expect(api).toMatchObject({
      name: "acme.library.v2.Library",
      version: "2.0",
      sourceContext: { fileName: "library.proto" },
      syntax: Syntax.PROTO3,
      mixins: [{ name: "google.iam.v1.IAMPolicy", root: "iam" }],
    });
    expect(
      api.methods.map((m) => [
        m.name,
        m.requestTypeUrl,
        m.requestStreaming,
        m.responseTypeUrl,
        m.responseStreaming,
        m.syntax,
      ]),
    ).toEqual([
      ["GetBook", `${G}acme.library.v2.GetBookRequest`, false, `${G}acme.library.v2.Book`, false, Syntax.PROTO3],
      ["WatchBooks", `${G}acme.library.v2.GetBookRequest`, true, `${G}acme.library.v2.Book`, true, Syntax.PROTO3],
    ]);
    expect(option(api.options, "acme.library.v2.host")).toEqual(["library.example.com"]);
    expect(option(api.methods[0]?.options ?? [], "acme.library.v2.http", fixtures)).toEqual([
      expect.objectContaining({ get: "/v2/{name=books/*}" }),
    ]);
    expect(api.methods[1]?.options.map((o) => o.name)).toEqual(["deprecated"]);
  });

  it.each([
    [undefined, "2.0"],
    ["2", "2"],
    ["2.7", "2.7"],
  ])("version option %j gives %j", (version, expected) => {
    const opts = version === undefined ? {} : { version };
    expect(apiFromDescriptor(fixtures.getService("acme.library.v2.Library")!, opts).version).toBe(expected);
  });

  it.each(["3.0", "1.x", "v2"])("rejects version option %j (api-version)", (version) => {
    expect(
      catchWkt(() => apiFromDescriptor(fixtures.getService("acme.library.v2.Library")!, { version })),
    ).toMatchObject({ rule: "api-version", jsonPath: "$.version" });
  });

  it("derives 1.0 for a package without a version suffix, and carries editions syntax", () => {
    const api = apiFromDescriptor(fixtures.getService("acme.modern.Moods")!);
    expect(api).toMatchObject({ version: "1.0", syntax: Syntax.EDITIONS, edition: "2023" });
    expect(api.methods[0]).toMatchObject({ syntax: Syntax.EDITIONS, edition: "2023" });
  });
});

describe("JSON of Type, Enum and Api", () => {
  const registry = () => createRegistry(fixtures, createRegistry(file_google_protobuf_descriptor));

  it("uses enum names", () => {
    const json = toJson(TypeSchema, typeFromDescriptor(TestAllTypesProto3)) as {
      fields: Array<Record<string, unknown>>;
      syntax: string;
    };
    expect(json.syntax).toBe("SYNTAX_PROTO3");
    expect(json.fields.find((f) => f["name"] === "optional_string")).toMatchObject({
      kind: "TYPE_STRING",
      cardinality: "CARDINALITY_OPTIONAL",
    });
    expect(json.fields.find((f) => f["name"] === "repeated_int32")).toMatchObject({
      kind: "TYPE_INT32",
      cardinality: "CARDINALITY_REPEATED",
      packed: true,
    });
    const editions = toJson(TypeSchema, typeFromDescriptor(TestAllTypesEdition2023), {
      registry: registry(),
    }) as Record<string, unknown>;
    expect(editions).toMatchObject({ syntax: "SYNTAX_EDITIONS", edition: "2023" });
    const legacyJson = toJson(TypeSchema, typeFromDescriptor(msg(fixtures, "acme.legacy.Defaults"))) as {
      fields: Array<Record<string, unknown>>;
    };
    expect(legacyJson.fields.find((f) => f["name"] === "id")).toMatchObject({ cardinality: "CARDINALITY_REQUIRED" });
    expect(legacyJson.fields.find((f) => f["name"] === "item")).toMatchObject({ kind: "TYPE_GROUP" });
    const api = toJson(ApiSchema, apiFromDescriptor(fixtures.getService("acme.library.v2.Library")!), {
      registry: registry(),
    }) as Record<string, unknown>;
    expect(api).toMatchObject({
      syntax: "SYNTAX_PROTO3",
      version: "2.0",
      methods: [{ name: "GetBook" }, { requestStreaming: true }],
    });
  });

  it("round-trips every Type and Enum of the conformance protos and the fixtures, as values and as text", () => {
    const reg = registry();
    const sets = [
      ...[
        TestAllTypesProto3,
        TestAllTypesProto2,
        TestAllTypesProto3Editions,
        TestAllTypesProto2Editions,
        TestAllTypesEdition2023,
      ].map((d) => typesFromDescriptors(d)),
      typesFromDescriptors(
        [...fixtures].filter((t): t is DescMessage | DescEnum => t.kind === "message" || t.kind === "enum"),
      ),
    ];
    let count = 0;
    for (const set of sets) {
      for (const t of set.types) {
        expect(fromJson(TypeSchema, toJson(TypeSchema, t, { registry: reg }), { registry: reg })).toEqual(t);
        expect(fromJsonString(TypeSchema, toJsonString(TypeSchema, t, { registry: reg }), { registry: reg })).toEqual(
          t,
        );
        count++;
      }
      for (const e of set.enums)
        expect(fromJson(EnumSchema, toJson(EnumSchema, e, { registry: reg }), { registry: reg })).toEqual(e);
    }
    expect(count).toBeGreaterThan(100);
    for (const s of fixtures.files) {
      for (const service of s.services) {
        const api = apiFromDescriptor(service);
        expect(fromJson(ApiSchema, toJson(ApiSchema, api, { registry: reg }), { registry: reg })).toEqual(api);
      }
    }
  });
});

// ---------------------------------------------------------------------------------------------------------

const roundTripRoots = [
  TestAllTypesProto3,
  TestAllTypesProto2,
  TestAllTypesProto3Editions,
  TestAllTypesProto2Editions,
  TestAllTypesEdition2023,
];

describe.each(roundTripRoots.map((d) => [d.typeName, d] as const))(
  "registryFromTypes(typesFromDescriptors(%s))",
  (_, desc) => {
    const set = typesFromDescriptors(desc);
    const rebuiltRegistry = registryFromTypes(set);
    const rebuilt = msg(rebuiltRegistry, desc.typeName);

    it("rebuilds every field as the original schema has it", () => {
      const originals = [
        desc,
        ...set.types.map((t) => testRegistry.getMessage(t.name)).filter((d): d is DescMessage => d !== undefined),
      ];
      for (const o of originals) {
        const r = msg(rebuiltRegistry, o.typeName);
        expect(r.fields.length).toBe(o.fields.length);
        o.fields.forEach((f, j) => {
          const g = r.fields[j] as DescField;
          const pick = (x: DescField) => ({
            name: x.name,
            number: x.number,
            fieldKind: x.fieldKind,
            jsonName: x.jsonName,
            presence: x.presence,
            packed: "packed" in x ? x.packed : undefined,
            delimited: "delimitedEncoding" in x ? x.delimitedEncoding : undefined,
            scalar: x.scalar,
            message: x.message?.typeName,
            enum: x.enum?.typeName,
            open: x.enum?.open,
            oneof: x.oneof?.name,
            mapKey: x.fieldKind === "map" ? x.mapKey : undefined,
            default: x.fieldKind === "scalar" || x.fieldKind === "enum" ? String(x.getDefaultValue()) : undefined,
            longAsString: "longAsString" in x ? x.longAsString : undefined,
          });
          expect(pick(g), `${o.typeName}.${f.name}`).toEqual(pick(f));
        });
      }
    });

    it("gives back the same Types (typeFromDescriptor of the rebuilt schema)", () => {
      for (const t of set.types) {
        const r = rebuiltRegistry.getMessage(t.name);
        if (r === undefined) continue; // map entries are no DescMessage in protobuf-es
        expect(typeFromDescriptor(r)).toEqual(t);
      }
      for (const e of set.enums) expect(enumFromDescriptor(rebuiltRegistry.getEnum(e.name) as DescEnum)).toEqual(e);
    });

    it("decodes a random message's JSON (written through the original schema) to an equal message", () => {
      fc.assert(
        fc.property(arbMessage(desc, { maxDepth: 3, anyTypes: [TimestampSchema, DurationSchema, desc] }), (m) => {
          const json = toJson(desc, m as never, { registry: testRegistry });
          const decoded = fromJson(rebuilt, json, { registry: rebuiltRegistry });
          expect(decoded).toEqual(m);
          expect(toJson(rebuilt, decoded, { registry: rebuiltRegistry })).toEqual(json);
          expect(toBinary(rebuilt, decoded)).toEqual(toBinary(desc, m as never));
        }),
        { numRuns: 25 },
      );
    });
  },
);

describe("registryFromTypes", () => {
  it("rebuilds protoc fixtures: custom options kept with a registry of the extensions, left out without", () => {
    const all = [...fixtures].filter(
      (t): t is DescMessage | DescEnum =>
        (t.kind === "message" || t.kind === "enum") && !t.typeName.startsWith("google."),
    );
    const set = typesFromDescriptors(all);
    const withExt = registryFromTypes(set, { registry: fixtures });
    for (const t of set.types) {
      const rebuilt = withExt.getMessage(t.name);
      if (rebuilt !== undefined) expect(typeFromDescriptor(rebuilt, { registry: fixtures }), t.name).toEqual(t);
    }
    for (const e of set.enums)
      expect(enumFromDescriptor(withExt.getEnum(e.name) as DescEnum, { registry: fixtures })).toEqual(e);
    // The bytes default is written so that protobuf-es reads it right (it drops \" and \' escapes).
    const defaults = msg(withExt, "acme.legacy.Defaults").field["b"];
    expect(defaults?.fieldKind === "scalar" && defaults.getDefaultValue()).toEqual(
      new Uint8Array([1, 10, 34, 120, 255, 39, 92, 111, 107]),
    );
    const withoutExt = registryFromTypes(set);
    expect(typeFromDescriptor(msg(withoutExt, "acme.library.v2.Book")).options.map((o) => o.name)).toEqual([
      "deprecated",
    ]);
    // Presence, packing, delimited encoding and closed enums survive through the features.
    const outer = msg(withoutExt, "acme.modern.Outer");
    expect(outer.field["inner"]).toMatchObject({ delimitedEncoding: true });
    expect(outer.field["must"]?.presence).toBe(FeatureSet_FieldPresence.LEGACY_REQUIRED);
    expect(outer.field["mood"]?.enum?.open).toBe(false);
    expect(outer.field["expandedValues"]).toMatchObject({ packed: false });
    expect(outer.field["packedValues"]).toMatchObject({ packed: true });
    expect(msg(withoutExt, "acme.modern.Outer.Inner").field["plain"]?.presence).toBe(FeatureSet_FieldPresence.IMPLICIT);
    expect(msg(withoutExt, "acme.modern.Outer.Inner").field["present"]?.presence).toBe(
      FeatureSet_FieldPresence.EXPLICIT,
    );
    // proto3 optional comes back as such, not as a one-field oneof.
    const rebuiltBook = msg(withoutExt, "acme.library.v2.Book");
    expect(rebuiltBook.field["pages"]?.oneof).toBeUndefined();
    expect(rebuiltBook.field["pages"]?.presence).toBe(FeatureSet_FieldPresence.EXPLICIT);
    expect(rebuiltBook.oneofs.map((o) => o.name)).toEqual(["where"]);
  });

  it("resolves referenced well-known types without being given them", () => {
    const reg = registryFromTypes({
      types: [
        typeWith("acme.Event", [
          { name: "at", number: 1, kind: Field_Kind.TYPE_MESSAGE, typeUrl: `${G}google.protobuf.Timestamp` },
        ]),
      ],
    });
    const event = msg(reg, "acme.Event");
    expect(event.field["at"]?.message?.typeName).toBe("google.protobuf.Timestamp");
    expect(toJson(event, fromJson(event, { at: "2024-01-01T00:00:00Z" }))).toEqual({ at: "2024-01-01T00:00:00Z" });
  });

  it("uses a given registry for referenced types", () => {
    const reg = registryFromTypes(
      {
        types: [
          typeWith("acme.Wrapper", [
            {
              name: "inner",
              number: 1,
              kind: Field_Kind.TYPE_MESSAGE,
              typeUrl: `${G}protobuf_test_messages.proto3.ForeignMessage`,
            },
          ]),
        ],
      },
      { registry: testRegistry },
    );
    expect(msg(reg, "acme.Wrapper").field["inner"]?.message?.typeName).toBe(
      "protobuf_test_messages.proto3.ForeignMessage",
    );
  });

  it("nests types under a package when their enclosing type is not given", () => {
    const reg = registryFromTypes({
      types: [typeWith("acme.Outer.Inner", [{ name: "x", number: 1, kind: Field_Kind.TYPE_INT32 }])],
    });
    expect(msg(reg, "acme.Outer.Inner").file.proto.package).toBe("acme.Outer");
  });

  it("builds types that reference each other across source files (a cycle protoc never makes)", () => {
    const a = typeWith(
      "acme.A",
      [{ name: "b", number: 1, kind: Field_Kind.TYPE_MESSAGE, typeUrl: `${G}acme.B` }],
      "a.proto",
    );
    const b = typeWith(
      "acme.B",
      [{ name: "a", number: 1, kind: Field_Kind.TYPE_MESSAGE, typeUrl: `${G}acme.A` }],
      "b.proto",
    );
    const reg = registryFromTypes({ types: [a, b] });
    expect(msg(reg, "acme.A").field["b"]?.message?.field["a"]?.message?.typeName).toBe("acme.A");
  });

  it("returns an empty registry for no types", () => {
    expect([...registryFromTypes({})]).toEqual([]);
  });

  const int = (name: string, number: number, more: Partial<Field> = {}) => ({
    name,
    number,
    kind: Field_Kind.TYPE_INT32,
    ...more,
  });
  it.each<[string, () => TypeSet, string, string]>([
    [
      "a referenced type that is missing",
      () => ({
        types: [
          typeWith("acme.A", [
            int("x", 1),
            { name: "b", number: 2, kind: Field_Kind.TYPE_MESSAGE, typeUrl: `${G}acme.B` },
          ]),
        ],
      }),
      "unknown-type",
      "$.types[0].fields[1].typeUrl",
    ],
    [
      "a referenced enum that is missing",
      () => ({
        types: [typeWith("acme.A", [{ name: "e", number: 1, kind: Field_Kind.TYPE_ENUM, typeUrl: `${G}acme.E` }])],
      }),
      "unknown-type",
      "$.types[0].fields[0].typeUrl",
    ],
    [
      "an enum field naming a message",
      () => ({
        types: [typeWith("acme.A", [{ name: "e", number: 1, kind: Field_Kind.TYPE_ENUM, typeUrl: `${G}acme.A` }])],
      }),
      "unknown-type",
      "$.types[0].fields[0].typeUrl",
    ],
    [
      "a message field naming a well-known enum",
      () => ({
        types: [
          typeWith("acme.A", [
            { name: "e", number: 1, kind: Field_Kind.TYPE_MESSAGE, typeUrl: `${G}google.protobuf.NullValue` },
          ]),
        ],
      }),
      "unknown-type",
      "$.types[0].fields[0].typeUrl",
    ],
    [
      "a malformed type URL",
      () => ({
        types: [
          typeWith("acme.A", [
            { name: "b", number: 1, kind: Field_Kind.TYPE_MESSAGE, typeUrl: "type.googleapis.com/" },
          ]),
        ],
      }),
      "type-url",
      "$.types[0].fields[0].typeUrl",
    ],
    [
      "a message field without a type URL",
      () => ({ types: [typeWith("acme.A", [{ name: "b", number: 1, kind: Field_Kind.TYPE_MESSAGE }])] }),
      "type-url",
      "$.types[0].fields[0].typeUrl",
    ],
    [
      "TYPE_UNKNOWN",
      () => ({ types: [typeWith("acme.A", [int("x", 1, { kind: Field_Kind.TYPE_UNKNOWN })])] }),
      "enum",
      "$.types[0].fields[0].kind",
    ],
    [
      "kind 19",
      () => ({ types: [typeWith("acme.A", [int("x", 1, { kind: 19 as Field_Kind })])] }),
      "enum",
      "$.types[0].fields[0].kind",
    ],
    [
      "CARDINALITY_UNKNOWN",
      () => ({ types: [typeWith("acme.A", [int("x", 1, { cardinality: Field_Cardinality.UNKNOWN })])] }),
      "enum",
      "$.types[0].fields[0].cardinality",
    ],
    ["field number 0", () => ({ types: [typeWith("acme.A", [int("x", 0)])] }), "range", "$.types[0].fields[0].number"],
    [
      "field number 2^29",
      () => ({ types: [typeWith("acme.A", [int("x", 536_870_912)])] }),
      "range",
      "$.types[0].fields[0].number",
    ],
    [
      "oneof_index -1",
      () => ({ types: [typeWith("acme.A", [int("x", 1, { oneofIndex: -1 })], "", ["o"])] }),
      "range",
      "$.types[0].fields[0].oneofIndex",
    ],
    [
      "oneof_index past the oneofs (rule 10)",
      () => ({ types: [typeWith("acme.A", [int("x", 1, { oneofIndex: 2 })], "", ["o"])] }),
      "range",
      "$.types[0].fields[0].oneofIndex",
    ],
    [
      "oneof_index 1 with no oneofs",
      () => ({ types: [typeWith("acme.A", [int("x", 1, { oneofIndex: 1 })])] }),
      "range",
      "$.types[0].fields[0].oneofIndex",
    ],
    [
      "a type given twice",
      () => ({ types: [typeWith("acme.A", []), typeWith("acme.A", [])] }),
      "type-url",
      "$.types[1].name",
    ],
    ["a bad type name", () => ({ types: [typeWith("acme..A", [])] }), "type-url", "$.types[0].name"],
    ["an empty type name", () => ({ types: [typeWith("", [])] }), "type-url", "$.types[0].name"],
    [
      "a type nested in an enum",
      () => ({ types: [typeWith("acme.E.A", [])], enums: [enumWith("acme.E")] }),
      "type-url",
      "$.types[0].name",
    ],
    [
      "an unknown edition",
      () => ({ types: [{ ...typeWith("acme.A", []), syntax: Syntax.EDITIONS, edition: "1999" }] }),
      "syntax",
      "$.types[0].edition",
    ],
    [
      "an empty edition",
      () => ({ types: [{ ...typeWith("acme.A", []), syntax: Syntax.EDITIONS }] }),
      "syntax",
      "$.types[0].edition",
    ],
    [
      "an unknown syntax",
      () => ({ enums: [{ ...enumWith("acme.E"), syntax: 5 as Syntax }] }),
      "enum",
      "$.enums[0].syntax",
    ],
    ["a field name that is no identifier", () => ({ types: [typeWith("acme.A", [int("no such", 1)])] }), "syntax", "$"],
    [
      "an option value of the wrong type",
      () => ({
        types: [
          {
            ...typeWith("acme.A", []),
            options: [opt("deprecated", anyPack(StringValueSchema, create(StringValueSchema, { value: "yes" })))],
          },
        ],
      }),
      "type-url",
      "$.types[0].options[0].value",
    ],
    [
      "an option value that does not decode",
      () => ({
        types: [
          {
            ...typeWith("acme.A", []),
            options: [
              opt("deprecated", {
                $typeName: "google.protobuf.Any",
                typeUrl: `${G}google.protobuf.BoolValue`,
                value: new Uint8Array([0xff]),
              } as Any),
            ],
          },
        ],
      }),
      "binary",
      "$.types[0].options[0].value",
    ],
    [
      "an option without a value",
      () => ({ types: [{ ...typeWith("acme.A", []), options: [create(OptionSchema, { name: "deprecated" })] }] }),
      "type-url",
      "$.types[0].options[0]",
    ],
    [
      "an enum value option of the wrong type",
      () => ({
        enums: [
          {
            ...enumWith("acme.E"),
            enumvalue: [
              {
                $typeName: "google.protobuf.EnumValue",
                name: "E_X",
                number: 0,
                options: [opt("deprecated", anyPack(Int32ValueSchema, create(Int32ValueSchema)))],
              },
            ],
          } as Enum,
        ],
      }),
      "type-url",
      "$.enums[0].enumvalue[0].options[0].value",
    ],
    // JSON names, as protoc checks them (json-name rules of descriptor.cc) and where JSON needs more.
    [
      "two fields with one custom JSON name",
      () => ({ types: [typeWith("acme.A", [int("a", 1, { jsonName: "x" }), int("b", 2, { jsonName: "x" })])] }),
      "duplicate-field",
      "$.types[0].fields[1].jsonName",
    ],
    [
      "the same, in proto2",
      () => ({
        types: [
          {
            ...typeWith("acme.A", [int("a", 1, { jsonName: "x" }), int("b", 2, { jsonName: "x" })]),
            syntax: Syntax.PROTO2,
          },
        ],
      }),
      "duplicate-field",
      "$.types[0].fields[1].jsonName",
    ],
    [
      "a custom JSON name that is another field's default",
      () => ({ types: [typeWith("acme.A", [int("foo_bar", 1), int("x", 2, { jsonName: "fooBar" })])] }),
      "duplicate-field",
      "$.types[0].fields[1].jsonName",
    ],
    [
      "two fields with one default JSON name",
      () => ({ types: [typeWith("acme.A", [int("foo_bar", 1), int("fooBar", 2)])] }),
      "duplicate-field",
      "$.types[0].fields[1].jsonName",
    ],
    [
      "two default JSON names alike behind distinct custom ones, in proto3",
      () => ({
        types: [typeWith("acme.A", [int("foo_bar", 1, { jsonName: "x" }), int("fooBar", 2, { jsonName: "y" })])],
      }),
      "duplicate-field",
      "$.types[0].fields[1].name",
    ],
    // protoc only warns here, but protobuf-es gives both fields the property fooBar.
    [
      "the same, in proto2",
      () => ({
        types: [
          {
            ...typeWith("acme.A", [int("foo_bar", 1, { jsonName: "x" }), int("fooBar", 2, { jsonName: "y" })]),
            syntax: Syntax.PROTO2,
          },
        ],
      }),
      "duplicate-field",
      "$.types[0].fields[1].name",
    ],
    [
      "the same, in editions with json_format LEGACY_BEST_EFFORT",
      () => ({
        types: [
          {
            ...typeWith("acme.A", [int("foo_bar", 1, { jsonName: "x" }), int("fooBar", 2, { jsonName: "y" })]),
            syntax: Syntax.EDITIONS,
            edition: "2023",
            options: [
              opt(
                "features",
                anyPack(
                  FeatureSetSchema,
                  create(FeatureSetSchema, { jsonFormat: FeatureSet_JsonFormat.LEGACY_BEST_EFFORT }),
                ),
              ),
            ],
          },
        ],
      }),
      "duplicate-field",
      "$.types[0].fields[1].name",
    ],
    [
      "a field called @type in JSON",
      () => ({ types: [typeWith("acme.A", [int("c", 1, { jsonName: "@type" })])] }),
      "duplicate-field",
      "$.types[0].fields[0].jsonName",
    ],
    [
      "JSON names that swap proto names",
      () => ({ types: [typeWith("acme.A", [int("a", 1, { jsonName: "b" }), int("b", 2, { jsonName: "a" })])] }),
      "duplicate-field",
      "$.types[0].fields[1].jsonName",
    ],
    [
      "a JSON name that is a later field's proto name",
      () => ({ types: [typeWith("acme.A", [int("a", 1, { jsonName: "b" }), int("b", 2, { jsonName: "c" })])] }),
      "duplicate-field",
      "$.types[0].fields[1].name",
    ],
    [
      "two fields of one proto name",
      () => ({ types: [typeWith("acme.A", [int("a", 1, { jsonName: "x" }), int("a", 2, { jsonName: "y" })])] }),
      "duplicate-field",
      "$.types[0].fields[1].name",
    ],
    [
      "a JSON name that is an earlier field's proto name",
      () => ({ types: [typeWith("acme.A", [int("b", 1), int("a", 2, { jsonName: "b" })])] }),
      "duplicate-field",
      "$.types[0].fields[1].jsonName",
    ],
  ])("rejects %s (%s at %s)", (_, input, rule, path) => {
    const e = catchWkt(() => registryFromTypes(input()));
    expect({ rule: e.rule, jsonPath: e.jsonPath.startsWith(path) ? path : e.jsonPath }).toEqual({
      rule,
      jsonPath: path,
    });
  });

  it.each<[string, () => TypeSet]>([
    [
      "a JSON name equal to the field's own proto name",
      () => ({ types: [typeWith("acme.A", [int("a", 1, { jsonName: "a" }), int("b_c", 2, { jsonName: "bC" })])] }),
    ],
    [
      "a JSON name that starts with @ but is not @type (protoc accepts it)",
      () => ({ types: [typeWith("acme.A", [int("a", 1, { jsonName: "@a" })])] }),
    ],
  ])("accepts %s", (_, input) => {
    const set = input();
    const reg = registryFromTypes(set);
    const a = msg(reg, "acme.A");
    expect(a.fields.map((f) => f.jsonName)).toEqual(set.types?.[0]?.fields.map((f) => f.jsonName));
  });

  it("accepts oneof_index at 0, 1 and the last oneof (rule 10)", () => {
    for (const oneofIndex of [0, 1, 2]) {
      const reg = registryFromTypes({ types: [typeWith("acme.A", [int("x", 1, { oneofIndex })], "", ["o", "p"])] });
      expect(msg(reg, "acme.A").field["x"]?.oneof?.name).toBe(
        oneofIndex === 0 ? undefined : ["o", "p"][oneofIndex - 1],
      );
    }
  });

  it("reads built-in options, repeated ones included", () => {
    const reg = registryFromTypes({
      types: [
        {
          ...typeWith("acme.A", [
            int("x", 1, {
              cardinality: Field_Cardinality.REPEATED,
              options: [opt("packed", anyPack(BoolValueSchema, create(BoolValueSchema, { value: false })))],
            }),
          ]),
          options: [opt("deprecated", anyPack(BoolValueSchema, create(BoolValueSchema, { value: true })))],
        },
      ],
      enums: [
        {
          ...enumWith("acme.E"),
          options: [opt("allow_alias", anyPack(BoolValueSchema, create(BoolValueSchema, { value: true })))],
        },
      ],
    });
    const a = msg(reg, "acme.A");
    expect(a.deprecated).toBe(true);
    expect(a.field["x"]).toMatchObject({ packed: false });
    expect(reg.getEnum("acme.E")?.proto.options?.allowAlias).toBe(true);
  });
});

function opt(name: string, value: Any): Option {
  return { $typeName: "google.protobuf.Option", name, value } as Option;
}

function typeWith(name: string, fields: Array<Partial<Field>>, fileName = "", oneofs: string[] = []): Type {
  return create(TypeSchema, {
    name,
    fields: fields.map((f) =>
      create(FieldSchema, { cardinality: Field_Cardinality.OPTIONAL, jsonName: "", ...f } as never),
    ),
    oneofs,
    sourceContext: { fileName },
    syntax: Syntax.PROTO3,
  });
}

function enumWith(name: string): Enum {
  return create(EnumSchema, {
    name,
    enumvalue: [{ name: `${name.split(".").pop()?.toUpperCase()}_UNSPECIFIED`, number: 0 }],
    syntax: Syntax.PROTO3,
  });
}

// ---------------------------------------------------------------------------------------------------------

describe("rule 3: apiVersion", () => {
  const api = (name: string, version: string) => ({ name, version });

  // "Api.version, when set, has the form <major>.<minor>; a missing minor defaults to 0."
  it.each([
    ["acme.v1.Library", "1.10", 1, 10],
    ["acme.v2.Library", "2", 2, 0],
    ["acme.v2.Library", "2.0", 2, 0],
    ["acme.v3.Library", "3.999999999", 3, 999_999_999],
    ["acme.lab.Library", "0.0", 0, 0],
    ["acme.v10.Library", "10.100", 10, 100],
  ])("%s version %j is %i.%i", (name, version, major, minor) => {
    expect(apiVersion(api(name, version))).toEqual({ major, minor });
  });

  it.each([
    "1.x",
    "v1",
    "1.2.3",
    "-1",
    "1.",
    ".1",
    " 1.0",
    "1.0 ",
    "1,0",
    "+1",
    "1e1",
    "1234567890.0",
    "1.1234567890",
    "١",
    "01",
    "01.0",
    "1.01",
    "1.00",
    "00",
  ])("rejects the malformed version %j", (version) => {
    expect(catchWkt(() => apiVersion(api("acme.v1.Library", version)))).toMatchObject({
      rule: "api-version",
      jsonPath: "$.version",
      typeName: "google.protobuf.Api",
    });
  });

  // "When empty, the major version is derived from the package name."
  it.each([
    ["google.storage.v2.Storage", 2],
    ["google.cloud.v1beta1.Things", 1],
    ["acme.v2alpha.Things", 2],
    ["acme.v1p1beta1.Things", 1],
    ["acme.v0.Things", 0],
    ["acme.v10.Things", 10],
    ["acme.library.Library", 1],
    ["acme.vision.Library", 1],
    ["acme.V2.Library", 1],
    ["acme.v2_internal.Library", 1],
    // A leading zero makes no v<major> segment (as "01" is no version): the package has no version suffix.
    ["acme.v01.Library", 1],
    ["acme.v02beta1.Library", 1],
    ["acme.v00.Library", 1],
    ["Library", 1],
  ])("%s without a version has major %i", (name, major) => {
    expect(apiVersion(api(name, ""))).toEqual({ major, minor: 0 });
  });

  // "When set, the package-name version must be consistent with it."
  it.each([
    ["google.storage.v2.Storage", "3.0"],
    ["google.storage.v2.Storage", "1.5"],
    ["google.cloud.v1beta1.Things", "2.0"],
    ["acme.v0.Things", "1.0"],
    ["acme.v02.Things", "2.0"],
  ])("%s rejects version %j", (name, version) => {
    expect(catchWkt(() => apiVersionCheck(api(name, version)))).toMatchObject({
      rule: "api-version",
      jsonPath: "$.version",
    });
  });

  // "The package name ends in v<major>; for major 0 and 1 the suffix may be omitted."
  it.each([
    ["acme.library.Library", "0.3", true],
    ["acme.library.Library", "1.2", true],
    ["acme.library.Library", "2.0", false],
    ["acme.v2.Library", "2.1", true],
  ])("%s with version %j is valid: %s", (name, version, valid) => {
    expect(apiVersionIsValid(api(name, version))).toBe(valid);
    if (!valid)
      expect(catchWkt(() => apiVersionCheck(api(name, version)))).toMatchObject({
        rule: "api-version",
        jsonPath: "$.version",
      });
  });

  // "Major increments mark breaking changes, minor increments additive ones."
  it.each([
    [{ major: 1, minor: 2 }, { major: 1, minor: 2 }, true],
    [{ major: 1, minor: 2 }, { major: 1, minor: 3 }, true],
    [{ major: 1, minor: 3 }, { major: 1, minor: 2 }, false],
    [{ major: 1, minor: 0 }, { major: 2, minor: 0 }, false],
    [{ major: 2, minor: 0 }, { major: 1, minor: 9 }, false],
  ])("a client at %o can use a server at %o: %s", (client, server, ok) => {
    expect(apiVersionCompatible(client, server)).toBe(ok);
  });

  // "Major 0 is for experimental, non-GA APIs only": accepted, with no compatibility promise between 0.x versions.
  it("accepts major 0 and promises nothing across 0.x versions", () => {
    expect(apiVersion(api("acme.v0.Lab", "0.4"))).toEqual({ major: 0, minor: 4 });
    expect(apiVersion(api("acme.lab.Lab", "0"))).toEqual({ major: 0, minor: 0 });
    expect(apiVersionCompatible({ major: 0, minor: 4 }, { major: 0, minor: 4 })).toBe(true);
    expect(apiVersionCompatible({ major: 0, minor: 4 }, { major: 0, minor: 5 })).toBe(false);
  });

  it("reads Api messages", () => {
    const a = create(ApiSchema, { name: "google.storage.v2.Storage", version: "2.1" });
    expect(apiVersion(a)).toEqual({ major: 2, minor: 1 });
  });
});

describe("rule 4: mixins", () => {
  const method = (name: string, req: string, res: string, streaming = false) =>
    create(MethodSchema, { name, requestTypeUrl: G + req, responseTypeUrl: G + res, requestStreaming: streaming });
  const acl: Api = create(ApiSchema, {
    name: "google.acl.v1.AccessControl",
    methods: [
      method("GetAcl", "google.acl.v1.GetAclRequest", "google.acl.v1.Acl"),
      method("SetAcl", "google.acl.v1.SetAclRequest", "google.acl.v1.Acl"),
    ],
  });
  const storage = (...methods: ReturnType<typeof method>[]): Api =>
    create(ApiSchema, {
      name: "google.storage.v2.Storage",
      methods: [method("GetData", "google.storage.v2.GetDataRequest", "google.storage.v2.Data"), ...methods],
      mixins: [{ name: acl.name }],
    });

  it.each<[string, Api, string[]]>([
    ["nothing redeclared", storage(), ["GetAcl", "SetAcl"]],
    ["one redeclared", storage(method("GetAcl", "google.acl.v1.GetAclRequest", "google.acl.v1.Acl")), ["SetAcl"]],
    [
      "all redeclared (type URL hosts may differ)",
      storage(method("GetAcl", "google.acl.v1.GetAclRequest", "google.acl.v1.Acl"), {
        ...method("SetAcl", "google.acl.v1.SetAclRequest", "google.acl.v1.Acl"),
        requestTypeUrl: "example.com/t/google.acl.v1.SetAclRequest",
      }),
      [],
    ],
    [
      "a different request type",
      storage(
        method("GetAcl", "google.acl.v1.Other", "google.acl.v1.Acl"),
        method("SetAcl", "google.acl.v1.SetAclRequest", "google.acl.v1.Acl"),
      ),
      ["GetAcl"],
    ],
    [
      "a different response type",
      storage(
        method("GetAcl", "google.acl.v1.GetAclRequest", "google.acl.v1.Other"),
        method("SetAcl", "google.acl.v1.SetAclRequest", "google.acl.v1.Acl"),
      ),
      ["GetAcl"],
    ],
    [
      "a different streaming",
      storage(
        method("GetAcl", "google.acl.v1.GetAclRequest", "google.acl.v1.Acl", true),
        method("SetAcl", "google.acl.v1.SetAclRequest", "google.acl.v1.Acl"),
      ),
      ["GetAcl"],
    ],
    [
      "a different name",
      storage(
        method("GetAcls", "google.acl.v1.GetAclRequest", "google.acl.v1.Acl"),
        method("SetAcl", "google.acl.v1.SetAclRequest", "google.acl.v1.Acl"),
      ),
      ["GetAcl"],
    ],
  ])("mixinCheck: %s", (_, including, missing) => {
    expect(mixinCheck(including, acl).map((m) => m.name)).toEqual(missing);
    if (missing.length === 0) {
      expect(() => mixinAssert(including, acl)).not.toThrow();
    } else {
      expect(catchWkt(() => mixinAssert(including, acl))).toMatchObject({
        rule: "mixin",
        jsonPath: `$.methods[${acl.methods.findIndex((m) => m.name === missing[0])}]`,
      });
    }
  });

  it.each<[string, string | { name: string; version: string }, string, string]>([
    ["/v1/{resource=**}:getAcl", "v2", "", "/v2/{resource=**}:getAcl"],
    ["/v1/{resource=**}:getAcl", "v2", "acls", "/v2/acls/{resource=**}:getAcl"],
    ["/v1/{resource=**}:getAcl", "v2", "/acls/", "/v2/acls/{resource=**}:getAcl"],
    ["/v1/{resource=**}:getAcl", "v2", "a/b", "/v2/a/b/{resource=**}:getAcl"],
    ["/v1beta1/{name=operations/**}", "v1", "", "/v1/{name=operations/**}"],
    ["/v1", "v3", "acls", "/v3/acls"],
    ["/v1/x", { name: "google.storage.v2.Storage", version: "" }, "acls", "/v2/acls/x"],
    ["/v1/x", { name: "google.storage.v2beta1.Storage", version: "" }, "", "/v2beta1/x"],
    ["/v1/x", { name: "acme.storage.Storage", version: "" }, "", "/v1/x"],
    ["/v1/x", { name: "acme.storage.Storage", version: "0.3" }, "", "/v0/x"],
    ["/{resource=**}:getAcl", "v2", "", "/{resource=**}:getAcl"],
    ["/{resource=**}:getAcl", "v2", "acls", "/acls/{resource=**}:getAcl"],
    ["/version/x", "v2", "", "/version/x"],
    ["/v01/x", "v2", "acls", "/acls/v01/x"],
    ["/v0/x", "v2", "", "/v2/x"],
  ])("mixinHttpPath(%j, %j, %j) is %j", (path, version, root, expected) => {
    expect(mixinHttpPath(path, version, root)).toBe(expected);
  });

  it.each<[string, string | { name: string; version: string }, string, string]>([
    ["v1/x", "v2", "mixin", "$"],
    ["", "v2", "mixin", "$"],
    ["/v1/x", "2", "mixin", "$"],
    ["/v1/x", "", "mixin", "$"],
    ["/v1/x", "v2/acls", "mixin", "$"],
    ["/v1/x", "v01", "mixin", "$"],
    ["/v1/x", { name: "google.storage.v2.Storage", version: "3.0" }, "api-version", "$.version"],
  ])("mixinHttpPath(%j, %j) fails (%s at %s)", (path, version, rule, at) => {
    expect(catchWkt(() => mixinHttpPath(path, version))).toMatchObject({ rule, jsonPath: at });
  });

  it.each([
    ["", "Inherited.", "Inherited."],
    ["  \n\t ", "Inherited.", "Inherited."],
    ["(-- internal only --)", "Inherited.", "Inherited."],
    ["  (-- a --)\n(-- b --)  ", "Inherited.", "Inherited."],
    ["Own.", "Inherited.", "Own."],
    ["(-- note --) Own.", "Inherited.", "(-- note --) Own."],
    ["(-- unterminated", "Inherited.", "(-- unterminated"],
    ["", "", ""],
  ])("mixinInheritDoc(%j, %j) is %j", (own, inherited, expected) => {
    expect(mixinInheritDoc(own, inherited)).toBe(expected);
  });

  it("inherits unset http and visibility annotations, nothing else", () => {
    const any = anyPack(Int64ValueSchema, create(Int64ValueSchema, { value: 1n }));
    const o = (name: string) => opt(name, any);
    expect(
      mixinInheritOptions(
        [o("deprecated")],
        [o("google.api.http"), o("google.api.method_visibility"), o("idempotency_level")],
      ).map((x) => x.name),
    ).toEqual(["deprecated", "google.api.http", "google.api.method_visibility"]);
    const own = o("google.api.http");
    expect(mixinInheritOptions([own], [o("google.api.http")])).toEqual([own]);
    expect(mixinInheritOptions([], [o("acme.x")], ["acme.x"]).map((x) => x.name)).toEqual(["acme.x"]);
  });
});
