/**
 * google.protobuf.Type, Field, Enum, EnumValue, Option, Api, Method, Mixin and SourceContext from
 * `@bufbuild/protobuf` descriptors: how a service describes its types to a client that has no `.proto` files.
 * registry-from-types.ts turns them back into a registry the JSON codec can use (fetched by type URL in
 * type-resolver.ts); api-version.ts and mixin.ts hold the rules the spec gives an Api.
 *
 * Rule 10: "Field.oneof_index: index of the field's type in Type.oneofs, first index is 1; 0 means not in the
 * list."
 *
 * The conversion from descriptors follows protobuf's own, `ConvertDescriptorToType` in C++
 * (src/google/protobuf/util/type_resolver_util.cc): `kind` is the descriptor's type (TYPE_GROUP for
 * delimited-encoded message fields, editions included); a map field is a repeated TYPE_MESSAGE field of its
 * synthetic `XxxEntry` type, which carries the option `map_entry`; `json_name` is always set; `default_value`
 * is set when the field declares one, in protoc's text form (`9e+09`, C-escaped bytes, the enum value's name);
 * `oneofs` lists every oneof, the synthetic oneofs of proto3 `optional` fields included, so their members get a
 * `oneof_index` too; `packed` is the effective packedness; `syntax` is SYNTAX_EDITIONS with `edition` "2023"
 * for editions files. Options become `Option` entries as option-list.ts writes them; a message, enum or service
 * also gets the features it inherits from its file and enclosing messages in its `features` option, so that
 * the Type is self-contained.
 *
 * @module
 */
import {
  create,
  isFieldSet,
  type DescEnum,
  type DescField,
  type DescFile,
  type DescMessage,
  type DescService,
  type Registry,
} from "@bufbuild/protobuf";
import { protoCamelCase } from "@bufbuild/protobuf/reflect";
import {
  ApiSchema,
  DescriptorProtoSchema,
  Edition,
  EnumOptionsSchema,
  EnumSchema,
  EnumValueOptionsSchema,
  EnumValueSchema,
  FeatureSet_FieldPresence,
  Field_Cardinality,
  Field_Kind,
  FieldDescriptorProtoSchema,
  FieldOptionsSchema,
  FieldSchema,
  MessageOptionsSchema,
  MethodOptionsSchema,
  MethodSchema,
  MixinSchema,
  ServiceOptionsSchema,
  Syntax,
  TypeSchema,
  type Api,
  type DescriptorProto,
  type Enum,
  type Field,
  type FieldDescriptorProto,
  type Type,
} from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { apiTypeName, typeTypeName } from "../internal/names.js";
import { typeUrlPrefixDefault } from "../wkt/registry.js";
import { apiVersion, apiVersionCheck } from "./api-version.js";
import { builtins } from "./builtins.js";
import { defaultValueText } from "./default-value.js";
import { extensionFinder, optionList, withInheritedFeatures, type ExtensionFinder } from "./option-list.js";

/** Options of {@link typeFromDescriptor}, {@link enumFromDescriptor} and {@link typesFromDescriptors}. */
export interface TypeFromDescriptorOptions {
  /**
   * What goes before the type name in `Field.type_url`: a host and optional path, without a scheme (the spec
   * writes type URLs in a Type without one). Default `type.googleapis.com`.
   */
  typeUrlPrefix?: string;
  /**
   * Extensions that name custom options. Those declared in the descriptor's file and the files it imports are
   * found without it; a custom option found in neither is left out (it cannot be named).
   */
  registry?: Registry;
}

/** Options of {@link typesFromDescriptors}. */
export interface TypesFromDescriptorsOptions extends TypeFromDescriptorOptions {
  /**
   * Also describe the well-known types and descriptor.proto's messages that the roots reference. Default
   * false: every reader has them built in ({@link registryFromTypes} and the resolver do).
   */
  wellKnownTypes?: boolean;
}

/** Options of {@link apiFromDescriptor}. */
export interface ApiFromDescriptorOptions extends TypeFromDescriptorOptions {
  /** `Api.version` (`<major>.<minor>`), checked against the package (rule 3). Default: `<major>.0` of the package. */
  version?: string;
  /** `Api.mixins`: the APIs this service includes (service configuration, not in the descriptor). */
  mixins?: ReadonlyArray<{ readonly name: string; readonly root?: string }>;
}

/**
 * Describes a message type as a `google.protobuf.Type`, the way protobuf's C++ `ConvertDescriptorToType` does:
 * fields with kind, cardinality, number, name, type URL (message and enum fields), `oneof_index` counted from 1
 * (rule 10), packedness, JSON name, default value and options, then oneofs, options, source context and syntax.
 *
 * @throws {WktJsonError} rule `type-url` for a `typeUrlPrefix` that is empty or has a scheme.
 * @example
 * const type = typeFromDescriptor(TimestampSchema);
 * type.fields.map((f) => [f.name, f.kind, f.jsonName]);
 * //=> [["seconds", Field_Kind.TYPE_INT64, "seconds"], ["nanos", Field_Kind.TYPE_INT32, "nanos"]]
 * type.sourceContext?.fileName; //=> "google/protobuf/timestamp.proto"
 */
export function typeFromDescriptor(desc: DescMessage, options?: TypeFromDescriptorOptions): Type {
  const prefix = checkTypeUrlPrefix(options?.typeUrlPrefix, typeTypeName);
  const find = extensionFinder(desc.file, options?.registry);
  const fields = desc.fields.map((f) => fieldFromDescriptor(f, prefix, find));
  return messageType(desc.typeName, desc.proto, desc.file, ancestors(desc), fields, find);
}

/**
 * Describes an enum type as a `google.protobuf.Enum`: values (aliases included) with their options, then the
 * enum's options, source context and syntax.
 *
 * @example
 * const e = enumFromDescriptor(NullValueSchema);
 * e.enumvalue.map((v) => [v.name, v.number]); //=> [["NULL_VALUE", 0]]
 * e.syntax; //=> Syntax.PROTO3
 */
export function enumFromDescriptor(desc: DescEnum, options?: Pick<TypeFromDescriptorOptions, "registry">): Enum {
  const find = extensionFinder(desc.file, options?.registry);
  const parents = desc.parent === undefined ? [] : [...ancestors(desc.parent), desc.parent];
  const { syntax, edition } = syntaxOf(desc.file);
  return create(EnumSchema, {
    name: desc.typeName,
    enumvalue: desc.values.map((v) =>
      create(EnumValueSchema, {
        name: v.name,
        number: v.number,
        options: optionList(EnumValueOptionsSchema, v.proto.options, find),
      }),
    ),
    options: optionList(
      EnumOptionsSchema,
      withInheritedFeatures(EnumOptionsSchema, desc.proto.options, desc.file, parents),
      find,
    ),
    sourceContext: { fileName: desc.file.proto.name },
    syntax,
    edition,
  });
}

/**
 * Describes a service as a `google.protobuf.Api`: methods with request and response type URLs, streaming flags
 * and options, then the service's options, a version (rule 3), source context, mixins and syntax.
 *
 * Without a `version` option, the version is `<major>.0` with the major version of the package's `v<major>`
 * suffix, or `1.0` for a package without one; protobuf's descriptors carry no minor version.
 *
 * @throws {WktJsonError} rule `api-version` for a `version` option that is malformed or disagrees with the
 *   package; `type-url` for a bad `typeUrlPrefix`.
 * @example
 * const api = apiFromDescriptor(registry.getService("google.storage.v2.Storage")!);
 * api.version; //=> "2.0"
 * api.methods[0].requestTypeUrl; //=> "type.googleapis.com/google.storage.v2.GetObjectRequest"
 */
export function apiFromDescriptor(desc: DescService, options?: ApiFromDescriptorOptions): Api {
  const prefix = checkTypeUrlPrefix(options?.typeUrlPrefix, apiTypeName);
  const find = extensionFinder(desc.file, options?.registry);
  const { syntax, edition } = syntaxOf(desc.file);
  let version = options?.version;
  if (version === undefined) {
    version = `${apiVersion({ name: desc.typeName, version: "" }).major}.0`;
  } else {
    apiVersionCheck({ name: desc.typeName, version });
  }
  return create(ApiSchema, {
    name: desc.typeName,
    methods: desc.methods.map((m) =>
      create(MethodSchema, {
        name: m.name,
        requestTypeUrl: `${prefix}/${m.input.typeName}`,
        requestStreaming: m.proto.clientStreaming,
        responseTypeUrl: `${prefix}/${m.output.typeName}`,
        responseStreaming: m.proto.serverStreaming,
        options: optionList(MethodOptionsSchema, m.proto.options, find),
        // Deprecated in api.proto in favour of Api.syntax, but the spec lists it: written, with the same value.
        syntax,
        edition,
      }),
    ),
    options: optionList(
      ServiceOptionsSchema,
      withInheritedFeatures(ServiceOptionsSchema, desc.proto.options, desc.file, []),
      find,
    ),
    version,
    sourceContext: { fileName: desc.file.proto.name },
    mixins: (options?.mixins ?? []).map((m) => create(MixinSchema, { name: m.name, root: m.root ?? "" })),
    syntax,
    edition,
  });
}

/**
 * Describes message and enum types and everything their fields reference, transitively: the input of
 * {@link registryFromTypes}, and what a server answers type-URL lookups from. Map fields bring their synthetic
 * `XxxEntry` types. Well-known types are left out unless asked for.
 *
 * @throws {WktJsonError} rule `type-url` for a bad `typeUrlPrefix`.
 * @example
 * const { types, enums } = typesFromDescriptors(TestAllTypesProto3);
 * types.some((t) => t.name === "protobuf_test_messages.proto3.TestAllTypesProto3.MapInt32Int32Entry"); //=> true
 * enums.map((e) => e.name).includes("protobuf_test_messages.proto3.ForeignEnum"); //=> true
 */
export function typesFromDescriptors(
  roots: DescMessage | DescEnum | Iterable<DescMessage | DescEnum>,
  options?: TypesFromDescriptorsOptions,
): { types: Type[]; enums: Enum[] } {
  const prefix = checkTypeUrlPrefix(options?.typeUrlPrefix, typeTypeName);
  const queue: Array<DescMessage | DescEnum> = "kind" in roots ? [roots] : [...roots];
  const seen = new Set<string>();
  const types: Type[] = [];
  const enums: Enum[] = [];
  const skip = (name: string) => options?.wellKnownTypes !== true && builtins().get(name) !== undefined;
  for (let i = 0; i < queue.length; i++) {
    const desc = queue[i] as DescMessage | DescEnum;
    if (seen.has(desc.typeName)) continue;
    seen.add(desc.typeName);
    if (desc.kind === "enum") {
      enums.push(enumFromDescriptor(desc, options));
      continue;
    }
    types.push(typeFromDescriptor(desc, options));
    const find = extensionFinder(desc.file, options?.registry);
    for (const f of desc.fields) {
      if (f.fieldKind === "map") {
        const entry = mapEntryType(desc, f, prefix, find);
        if (!seen.has(entry.name)) {
          seen.add(entry.name);
          types.push(entry);
        }
      }
      const ref = f.message ?? f.enum;
      if (ref !== undefined && !seen.has(ref.typeName) && !skip(ref.typeName)) queue.push(ref);
    }
  }
  return { types, enums };
}

function fieldFromDescriptor(field: DescField, prefix: string, find: ExtensionFinder): Field {
  const p = field.proto;
  let kind = p.type as number as Field_Kind;
  // C++ reports FieldDescriptor::type(), which is TYPE_GROUP for every delimited-encoded message field,
  // including editions fields declared TYPE_MESSAGE with features.message_encoding = DELIMITED.
  if ("delimitedEncoding" in field && field.delimitedEncoding === true) kind = Field_Kind.TYPE_GROUP;
  let typeUrl = "";
  if (field.fieldKind === "map") typeUrl = `${prefix}/${trimDot(p.typeName)}`;
  else if (field.message !== undefined) typeUrl = `${prefix}/${field.message.typeName}`;
  else if (field.enum !== undefined) typeUrl = `${prefix}/${field.enum.typeName}`;
  const cardinality =
    field.fieldKind === "list" || field.fieldKind === "map"
      ? Field_Cardinality.REPEATED
      : field.presence === FeatureSet_FieldPresence.LEGACY_REQUIRED
        ? Field_Cardinality.REQUIRED
        : Field_Cardinality.OPTIONAL;
  return create(FieldSchema, {
    kind,
    cardinality,
    number: field.number,
    name: field.name,
    typeUrl,
    oneofIndex: isFieldSet(p, FieldDescriptorProtoSchema.field.oneofIndex) ? p.oneofIndex + 1 : 0,
    packed: field.fieldKind === "list" && field.packed,
    options: optionList(FieldOptionsSchema, p.options, find),
    jsonName: jsonNameOf(p),
    defaultValue: isFieldSet(p, FieldDescriptorProtoSchema.field.defaultValue) ? defaultValueText(field) : "",
  });
}

/** The Type of a map field's synthetic entry message, which protobuf-es keeps only as a DescriptorProto. */
function mapEntryType(
  parent: DescMessage,
  field: DescField & { fieldKind: "map" },
  prefix: string,
  find: ExtensionFinder,
): Type {
  const entryName = trimDot(field.proto.typeName);
  const proto = parent.proto.nestedType.find((n) => `${parent.typeName}.${n.name}` === entryName);
  const valueType =
    field.mapKind === "message" ? field.message.typeName : field.mapKind === "enum" ? field.enum.typeName : "";
  const fields = (proto?.field ?? []).map((p) =>
    create(FieldSchema, {
      kind: p.type as number as Field_Kind,
      cardinality: Field_Cardinality.OPTIONAL,
      number: p.number,
      name: p.name,
      typeUrl: p.number === 2 && valueType !== "" ? `${prefix}/${valueType}` : "",
      options: optionList(FieldOptionsSchema, p.options, find),
      jsonName: jsonNameOf(p),
    }),
  );
  return messageType(
    entryName,
    proto ?? create(DescriptorProtoSchema),
    parent.file,
    [...ancestors(parent), parent],
    fields,
    find,
  );
}

function messageType(
  name: string,
  proto: DescriptorProto,
  file: DescFile,
  parents: readonly DescMessage[],
  fields: Field[],
  find: ExtensionFinder,
): Type {
  const { syntax, edition } = syntaxOf(file);
  return create(TypeSchema, {
    name,
    fields,
    oneofs: proto.oneofDecl.map((o) => o.name),
    options: optionList(
      MessageOptionsSchema,
      withInheritedFeatures(MessageOptionsSchema, proto.options, file, parents),
      find,
    ),
    sourceContext: { fileName: file.proto.name },
    syntax,
    edition,
  });
}

function jsonNameOf(p: FieldDescriptorProto): string {
  return isFieldSet(p, FieldDescriptorProtoSchema.field.jsonName) ? p.jsonName : protoCamelCase(p.name);
}

/** Enclosing messages, outermost first. */
function ancestors(desc: DescMessage): DescMessage[] {
  const out: DescMessage[] = [];
  for (let p = desc.parent; p !== undefined; p = p.parent) out.unshift(p);
  return out;
}

function trimDot(name: string): string {
  return name.startsWith(".") ? name.slice(1) : name;
}

function syntaxOf(file: DescFile): { syntax: Syntax; edition: string } {
  switch (file.proto.syntax) {
    case "proto3":
      return { syntax: Syntax.PROTO3, edition: "" };
    case "editions":
      return { syntax: Syntax.EDITIONS, edition: editionName(file.proto.edition) };
    default:
      return { syntax: Syntax.PROTO2, edition: "" };
  }
}

/** `"2023"` for EDITION_2023, as C++ prints an edition. */
function editionName(edition: number): string {
  const name = (Edition as unknown as Record<number, string | undefined>)[edition];
  return name !== undefined && name.startsWith("EDITION_") ? name.slice("EDITION_".length) : String(edition);
}

function checkTypeUrlPrefix(prefix: string | undefined, typeName: string): string {
  const p = prefix ?? typeUrlPrefixDefault;
  const bare = p.endsWith("/") ? p.slice(0, -1) : p;
  if (bare.length === 0 || p.includes("://")) {
    throw new WktJsonError(
      "type-url",
      "$",
      typeName,
      `typeUrlPrefix ${JSON.stringify(p)}: type URLs in a Type or Api are a host and path without a scheme, such as "type.googleapis.com"`,
    );
  }
  return bare;
}
