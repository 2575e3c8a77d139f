/**
 * google.protobuf.Type, Field, Enum, EnumValue, Option, Api, Method, Mixin and SourceContext: how a service
 * describes its types to a client that has no `.proto` files. Built from `@bufbuild/protobuf` descriptors, turned
 * back into a registry the JSON codec can use (fetched by type URL in type-resolver.ts), and the rules the spec gives them.
 *
 * Spec, rule 2: "Any.type_url with scheme http, https or none: no scheme means https; the last path segment is
 * the fully qualified type name; an HTTP GET on the URL must yield the binary type descriptor or an error;
 * lookups may be cached or precompiled, so binary compatibility of types must be preserved."
 *
 * Rule 3: "Api.version, when set, has the form `<major>.<minor>`; a missing minor defaults to 0. When empty, the
 * major version is derived from the package name. When set, the package-name version must be consistent with
 * it. Major increments mark breaking changes, minor increments additive ones. The package name ends in
 * `v<major>`; for major 0 and 1 the suffix may be omitted. Major 0 is for experimental, non-GA APIs only."
 *
 * Rule 4: "Mixin: the including API must redeclare all methods of the included API. An empty (after comment and
 * whitespace stripping) documentation string is inherited. Each unset service-config annotation (http,
 * visibility) is inherited. An inherited http path has its version prefix replaced by the including API's
 * version, plus the root path when `root` is non-empty."
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
 * for editions files. Options become `Option` entries in field-number order, one per element of a repeated
 * option: built-in options under their short name, custom options under their full name; the value is an Any
 * holding the option's message, a wrapper for a scalar, an Int32Value for an enum. A message, enum or service
 * also gets the features it inherits from its file and enclosing messages in its `features` option, so that
 * the Type is self-contained.
 *
 * @module
 */
import {
  clone,
  create,
  createFileRegistry,
  createRegistry,
  fromBinary,
  getExtension,
  isFieldSet,
  merge,
  ScalarType,
  setExtension,
  toBinary,
  type DescEnum,
  type DescExtension,
  type DescField,
  type DescFile,
  type DescMessage,
  type DescService,
  type FileRegistry,
  type Registry,
} from "@bufbuild/protobuf";
import { nestedTypes, protoCamelCase } from "@bufbuild/protobuf/reflect";
import {
  ApiSchema,
  BoolValueSchema,
  BytesValueSchema,
  DescriptorProtoSchema,
  DoubleValueSchema,
  Edition,
  EnumDescriptorProtoSchema,
  EnumOptionsSchema,
  EnumSchema,
  EnumValueDescriptorProtoSchema,
  EnumValueOptionsSchema,
  EnumValueSchema,
  FeatureSet_FieldPresence,
  FeatureSet_MessageEncoding,
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
  FileDescriptorProtoSchema,
  FileDescriptorSetSchema,
  FloatValueSchema,
  Int32ValueSchema,
  Int64ValueSchema,
  MessageOptionsSchema,
  MethodOptionsSchema,
  MethodSchema,
  MixinSchema,
  OptionSchema,
  ServiceOptionsSchema,
  StringValueSchema,
  Syntax,
  TypeSchema,
  UInt32ValueSchema,
  UInt64ValueSchema,
  type Any,
  type Api,
  type DescriptorProto,
  type Enum,
  type EnumDescriptorProto,
  type FeatureSet,
  type Field,
  type FieldDescriptorProto,
  type FieldOptions,
  type FileDescriptorProto,
  type Method,
  type Option,
  type Type,
} from "@bufbuild/protobuf/wkt";
import { anyPack } from "../wkt/any.js";
import { WktJsonError } from "../errors.js";
import { registryNestingMax } from "../limits.js";
import { typeUrlParse, typeUrlPrefixDefault, wktFiles } from "../wkt/registry.js";

const typeTypeName = "google.protobuf.Type";
const enumTypeName = "google.protobuf.Enum";
const apiTypeName = "google.protobuf.Api";
const mixinTypeName = "google.protobuf.Mixin";

// ---------------------------------------------------------------------------------------------------------
// From descriptors

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

/** Message and enum types as {@link typesFromDescriptors} returns them and {@link registryFromTypes} takes them. */
export interface TypeSet {
  readonly types?: readonly Type[];
  readonly enums?: readonly Enum[];
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

/**
 * The descriptor's default value as C++ `DefaultValueAsString` prints it: integers in decimal, floats like
 * printf `%g` with the shortest precision that reads back, bytes C-escaped, enums by value name.
 */
function defaultValueText(field: DescField): string {
  const raw = field.proto.defaultValue;
  if (field.fieldKind !== "scalar") return raw;
  if (field.scalar === ScalarType.STRING) return raw;
  if (field.scalar === ScalarType.BYTES) {
    // Our own reading: protobuf-es 2.17 drops the \" and \' escapes of a bytes default.
    const bytes = cUnescape(raw);
    return bytes === undefined ? raw : cEscape(bytes);
  }
  let value: unknown;
  try {
    value = field.getDefaultValue();
  } catch {
    return raw; // a hand-written descriptor with an unreadable default: keep its text
  }
  switch (field.scalar) {
    case ScalarType.BOOL:
      return value === true ? "true" : "false";
    case ScalarType.FLOAT:
      return formatFloat(Number(value), 6, 9, Math.fround);
    case ScalarType.DOUBLE:
      return formatFloat(Number(value), 15, 17, (x) => x);
    default:
      return String(value);
  }
}

/** C++ `SimpleDtoa`/`SimpleFtoa`: `%.{short}g`, or `%.{long}g` when that does not read back. */
function formatFloat(v: number, short: number, long: number, round: (x: number) => number): string {
  if (v === Infinity) return "inf";
  if (v === -Infinity) return "-inf";
  if (Number.isNaN(v)) return "nan";
  const s = formatG(v, short);
  return round(Number(s)) === v ? s : formatG(v, long);
}

/** printf `%.{precision}g`. */
function formatG(v: number, precision: number): string {
  if (v === 0) return Object.is(v, -0) ? "-0" : "0";
  const exponential = v.toExponential(precision - 1);
  const e = exponential.indexOf("e");
  const exp = Number(exponential.slice(e + 1));
  if (exp < -4 || exp >= precision) {
    const digits = exp < 0 ? -exp : exp;
    return `${stripZeros(exponential.slice(0, e))}e${exp < 0 ? "-" : "+"}${digits < 10 ? "0" : ""}${digits}`;
  }
  return stripZeros(v.toFixed(precision - 1 - exp));
}

function stripZeros(s: string): string {
  if (s.indexOf(".") < 0) return s;
  let end = s.length;
  while (s.charCodeAt(end - 1) === 48) end--;
  if (s.charCodeAt(end - 1) === 46) end--;
  return s.slice(0, end);
}

/** C escapes (`\n`, `\"`, `\377`, `\x41`, ...) to bytes, other characters as UTF-8; undefined when malformed. */
function cUnescape(text: string): Uint8Array | undefined {
  const out: number[] = [];
  const named: Record<string, number> = {
    a: 7,
    b: 8,
    f: 12,
    n: 10,
    r: 13,
    t: 9,
    v: 11,
    "\\": 92,
    "'": 39,
    '"': 34,
    "?": 63,
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 92) {
      if (c < 0x80) out.push(c);
      else {
        const cp = text.codePointAt(i) as number;
        out.push(...new TextEncoder().encode(String.fromCodePoint(cp)));
        if (cp > 0xffff) i++;
      }
      continue;
    }
    const e = text[++i];
    if (e === undefined) return undefined;
    const n = named[e];
    if (n !== undefined) {
      out.push(n);
      continue;
    }
    let value = 0;
    let digits = 0;
    if (e >= "0" && e <= "7") {
      for (; digits < 3 && i < text.length && text[i]! >= "0" && text[i]! <= "7"; digits++, i++)
        value = value * 8 + Number(text[i]);
    } else if (e === "x" || e === "X") {
      i++;
      for (; i < text.length && /[0-9a-fA-F]/.test(text[i] as string); digits++, i++)
        value = value * 16 + parseInt(text[i] as string, 16);
    }
    if (digits === 0 || value > 255) return undefined;
    out.push(value);
    i--;
  }
  return new Uint8Array(out);
}

/**
 * absl::CEscape: named escapes for \n \r \t " ' \, three octal digits for other bytes outside 0x20-0x7e. With
 * `octalQuotes`, quotes are written \042 and \047 instead.
 */
function cEscape(bytes: Uint8Array, octalQuotes = false): string {
  let out = "";
  for (const b of bytes) {
    if (octalQuotes && (b === 34 || b === 39)) {
      out += b === 34 ? "\\042" : "\\047";
      continue;
    }
    switch (b) {
      case 10:
        out += "\\n";
        break;
      case 13:
        out += "\\r";
        break;
      case 9:
        out += "\\t";
        break;
      case 34:
        out += '\\"';
        break;
      case 39:
        out += "\\'";
        break;
      case 92:
        out += "\\\\";
        break;
      default:
        out += b < 0x20 || b > 0x7e ? "\\" + b.toString(8).padStart(3, "0") : String.fromCharCode(b);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Options <-> Option entries

type ExtensionFinder = (extendee: DescMessage, number: number) => DescExtension | undefined;
type OptionsMessage = { $typeName: string; $unknown?: Array<{ no: number }>; features?: FeatureSet } & Record<
  string,
  unknown
>;

const visibleExtensionsCache = new WeakMap<DescFile, Registry>();

/** The extensions a file can use: its own and those of every file it imports, transitively. */
function visibleExtensions(file: DescFile): Registry {
  let reg = visibleExtensionsCache.get(file);
  if (reg === undefined) {
    const exts: DescExtension[] = [];
    const seen = new Set<DescFile>();
    const files = [file];
    for (let i = 0; i < files.length; i++) {
      const f = files[i] as DescFile;
      if (seen.has(f)) continue;
      seen.add(f);
      for (const t of nestedTypes(f)) if (t.kind === "extension") exts.push(t);
      files.push(...f.dependencies);
    }
    reg = createRegistry(...exts);
    visibleExtensionsCache.set(file, reg);
  }
  return reg;
}

function extensionFinder(file: DescFile, registry: Registry | undefined): ExtensionFinder {
  const visible = visibleExtensions(file);
  return (extendee, no) => visible.getExtensionFor(extendee, no) ?? registry?.getExtensionFor(extendee, no);
}

/** Copies `own` options with the features inherited from the file and enclosing messages merged in (C++ does so). */
function withInheritedFeatures<T extends object>(
  schema: DescMessage,
  own: T | undefined,
  file: DescFile,
  parents: readonly DescMessage[],
): T | undefined {
  const inherited = create(FeatureSetSchema);
  const sources = [file.proto.options?.features, ...parents.map((p) => p.proto.options?.features)];
  for (const s of sources) if (s !== undefined) merge(FeatureSetSchema, inherited, clone(FeatureSetSchema, s));
  if (toBinary(FeatureSetSchema, inherited).length === 0) return own;
  const out = (own === undefined ? create(schema) : clone(schema, own as never)) as unknown as OptionsMessage;
  if (out.features !== undefined) merge(FeatureSetSchema, inherited, out.features);
  out.features = inherited;
  return out as unknown as T;
}

/** Every set option as `Option` entries, in field-number order, one per element of a repeated option. */
function optionList(schema: DescMessage, options: object | undefined, find: ExtensionFinder): Option[] {
  if (options === undefined) return [];
  const msg = options as OptionsMessage;
  const entries: Array<[number, Option[]]> = [];
  for (const field of schema.fields) {
    if (!isFieldSet(msg as never, field)) continue;
    entries.push([field.number, optionEntries(field, field.name, msg[field.localName])]);
  }
  const seen = new Set<number>();
  for (const u of msg.$unknown ?? []) {
    if (seen.has(u.no)) continue;
    seen.add(u.no);
    const ext = find(schema, u.no);
    if (ext === undefined) continue; // a custom option no visible extension names: it cannot be written
    entries.push([u.no, optionEntries(ext, ext.typeName, getExtension(msg as never, ext))]);
  }
  entries.sort((a, b) => a[0] - b[0]);
  return entries.flatMap((e) => e[1]);
}

function optionEntries(field: DescField | DescExtension, name: string, value: unknown): Option[] {
  const kind = valueKind(field);
  if (kind === undefined) return [];
  const values = field.fieldKind === "list" ? (value as unknown[]) : [value];
  return values.map((v) => create(OptionSchema, { name, value: packOptionValue(kind, v) }));
}

type ValueKind = { kind: "message"; message: DescMessage } | { kind: "enum" } | { kind: "scalar"; scalar: ScalarType };

function valueKind(field: DescField | DescExtension): ValueKind | undefined {
  switch (field.fieldKind) {
    case "message":
      return { kind: "message", message: field.message };
    case "enum":
      return { kind: "enum" };
    case "scalar":
      return { kind: "scalar", scalar: field.scalar };
    case "list":
      if (field.listKind === "message") return { kind: "message", message: field.message };
      if (field.listKind === "enum") return { kind: "enum" };
      return { kind: "scalar", scalar: field.scalar };
    default:
      return undefined; // options have no map fields
  }
}

function packOptionValue(kind: ValueKind, value: unknown): Any {
  switch (kind.kind) {
    case "message":
      return anyPack(kind.message, value as never);
    case "enum":
      return anyPack(Int32ValueSchema, create(Int32ValueSchema, { value: value as number }));
    case "scalar": {
      const wrapper = wrapperOf(kind.scalar);
      const v = wrapper === Int64ValueSchema || wrapper === UInt64ValueSchema ? BigInt(value as bigint) : value;
      return anyPack(wrapper, create(wrapper, { value: v } as never) as never);
    }
  }
}

/** The wrapper C++ packs an option scalar in: by C++ type, so sint32 and sfixed32 are Int32Value. */
function wrapperOf(scalar: ScalarType): DescMessage {
  switch (scalar) {
    case ScalarType.DOUBLE:
      return DoubleValueSchema;
    case ScalarType.FLOAT:
      return FloatValueSchema;
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return Int64ValueSchema;
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return UInt64ValueSchema;
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return Int32ValueSchema;
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return UInt32ValueSchema;
    case ScalarType.BOOL:
      return BoolValueSchema;
    case ScalarType.STRING:
      return StringValueSchema;
    case ScalarType.BYTES:
      return BytesValueSchema;
  }
}

interface OptionContext {
  readonly typeName: string;
  readonly registry: Registry | undefined;
}

/** The options message the `Option` entries describe; custom options no extension names are left out. */
function optionsFromList(
  schema: DescMessage,
  list: readonly Option[],
  path: string,
  ctx: OptionContext,
): OptionsMessage | undefined {
  if (list.length === 0) return undefined;
  const out = create(schema) as unknown as OptionsMessage;
  // The elements of each repeated custom option, set once at the end: getExtension and setExtension decode and
  // encode all elements, so setting them one by one is quadratic.
  const extLists = new Map<DescExtension, unknown[]>();
  list.forEach((opt, k) => {
    const at = `${path}[${k}]`;
    const builtin = opt.name.includes(".") ? undefined : schema.fields.find((f) => f.name === opt.name);
    if (builtin !== undefined) {
      const kind = valueKind(builtin);
      if (kind === undefined) return;
      const value = unpackOptionValue(kind, opt.value, `${at}.value`, ctx);
      if (builtin.fieldKind === "list") {
        const list = (out[builtin.localName] ??= []) as unknown[];
        list.push(value);
      } else if (kind.kind === "message" && out[builtin.localName] !== undefined) {
        merge(kind.message, out[builtin.localName] as never, value as never);
      } else {
        out[builtin.localName] = value;
      }
      return;
    }
    const ext = ctx.registry?.getExtension(opt.name);
    if (ext === undefined || ext.extendee.typeName !== schema.typeName) return; // unknown custom option
    const kind = valueKind(ext);
    if (kind === undefined) return;
    const value = unpackOptionValue(kind, opt.value, `${at}.value`, ctx);
    if (ext.fieldKind === "list") {
      let values = extLists.get(ext);
      if (values === undefined) extLists.set(ext, (values = []));
      values.push(value);
    } else {
      setExtension(out as never, ext, value as never);
    }
  });
  for (const [ext, values] of extLists) setExtension(out as never, ext, values as never);
  return out;
}

function unpackOptionValue(kind: ValueKind, any: Any | undefined, path: string, ctx: OptionContext): unknown {
  const expected =
    kind.kind === "message" ? kind.message : kind.kind === "enum" ? Int32ValueSchema : wrapperOf(kind.scalar);
  if (any === undefined) {
    throw new WktJsonError(
      "type-url",
      path,
      ctx.typeName,
      `the option has no value (expected an Any holding ${expected.typeName})`,
    );
  }
  let name: string;
  try {
    name = typeUrlParse(any.typeUrl).typeName;
  } catch (e) {
    throw movedError(e, path + ".typeUrl", ctx.typeName);
  }
  if (name !== expected.typeName) {
    throw new WktJsonError(
      "type-url",
      path,
      ctx.typeName,
      `the option's value is a ${name}, expected a ${expected.typeName}`,
    );
  }
  let message: Record<string, unknown>;
  try {
    message = fromBinary(expected, any.value) as unknown as Record<string, unknown>;
  } catch (e) {
    throw new WktJsonError(
      "binary",
      path,
      ctx.typeName,
      `the option's value is not a serialized ${expected.typeName}`,
      { cause: e },
    );
  }
  return kind.kind === "message" ? message : message["value"];
}

/** The error of a helper (reported at `$`) reported at `path` under `typeName`. Shared with type-resolver.ts. @internal */
export function movedError(e: unknown, path: string, typeName: string): unknown {
  if (!(e instanceof WktJsonError)) return e;
  return new WktJsonError(e.rule, path, typeName, e.detail, e.cause === undefined ? undefined : { cause: e.cause });
}

// ---------------------------------------------------------------------------------------------------------
// Back to descriptors

/** Options of {@link registryFromTypes}. */
export interface RegistryFromTypesOptions {
  /**
   * Types the given ones may reference without describing them, and extensions that name custom options
   * (without the extension, a custom option is left out). The well-known types and descriptor.proto's
   * messages are always known.
   */
  registry?: Registry;
}

const builtinFiles = (): DescFile[] => [...wktFiles, file_google_protobuf_descriptor];

let builtinRegistry: Registry | undefined;

/** The well-known types and descriptor.proto, which every registry built here knows. Shared with type-resolver.ts. @internal */
export function builtins(): Registry {
  return (builtinRegistry ??= createRegistry(...builtinFiles()));
}

type FileSyntax = { readonly syntax: "proto2" | "proto3" | "editions"; readonly edition: Edition };

interface Node {
  readonly kind: "message" | "enum";
  readonly name: string;
  /** JSON path of the Type or Enum in the input: `$.types[3]`. */
  readonly path: string;
  readonly type?: Type;
  readonly enum?: Enum;
  readonly syntax: FileSyntax;
  /** The Type has the option `map_entry`: fields of its type are map fields. */
  readonly mapEntry: boolean;
  readonly children: Node[];
  /** The message whose name encloses this one's, if given. */
  parent?: Node;
  /** The node whose file-level descriptor holds this one's (itself for a root). */
  root?: Node;
  /** Levels below {@link root}. */
  level: number;
  /** For a root: the package, the name without its last segment. */
  pkg: string;
  /** The syntax of its file: its own for a root by name, else that of the type that encloses it. */
  fileSyntax: FileSyntax;
  /** For a message: its options. */
  options?: OptionsMessage | undefined;
  /** For a message: the features it and its enclosing messages set, merged (innermost wins). */
  features?: FeatureSet | undefined;
  /** For a message: its DescriptorProto once built. */
  proto?: DescriptorProto;
}

interface Group {
  readonly pkg: string;
  readonly syntax: FileSyntax;
  readonly sourceFile: string;
  readonly roots: Node[];
  fileName: string;
}

/** A reference from a field to a type: a node we build, or a type some existing file defines. */
type Target = { readonly node: Node } | { readonly file: DescFile };

/**
 * Builds a `@bufbuild/protobuf` registry from `Type` and `Enum` messages (the inverse of
 * {@link typesFromDescriptors}), through one `FileDescriptorProto` per source file, so that the JSON codec can
 * read and write messages known only as Types. Types whose names nest (`pkg.Msg.Entry` in `pkg.Msg`) become
 * nested types; the syntax, edition and inherited features of each Type carry over, so presence, packing,
 * delimited encoding and open or closed enums are as the original schema had them. Time and stack are linear
 * in the input and bounded whatever its shape: package chains, import cycles and types nested thousands deep
 * (nesting deeper than {@link registryNestingMax} is rebuilt as a message at the top of a file whose package is
 * the enclosing type's name; the type names stay the same).
 *
 * The names of a Type's fields are checked as protoc checks them, and stricter where JSON or protobuf-es needs
 * it: no two fields may share a proto name, a JSON name, or a default (lowerCamelCase) JSON name (protoc only
 * warns about the last in proto2, but protobuf-es gives both fields one property); a JSON name may not be
 * another field's proto name (a reader accepts both names, so it could not tell the fields apart); and no field
 * may be called `@type` in JSON (the type URL's member when the message is in an Any).
 *
 * @throws {WktJsonError} rule `unknown-type` for a referenced type that is neither given nor known (the error
 *   names its type URL; path `$.types[i].fields[j].typeUrl`), `type-url` for a malformed type URL or type name
 *   or a duplicate type, `enum` for an unknown kind, cardinality or syntax, `range` for a field number or
 *   `oneof_index` out of range (rule 10), `duplicate-field` for a JSON name that clashes as said above (reported at
 *   the later field of the two: path `$.types[i].fields[j].jsonName`, or `.name` when its proto name is the
 *   earlier field's JSON name), `syntax` for an unknown edition or types that do not form valid
 *   descriptors (types of different packages that reference each other in a cycle among them), `binary` for
 *   an option value that does not decode.
 * @example
 * const registry = registryFromTypes(typesFromDescriptors(TestAllTypesProto3));
 * const schema = registry.getMessage("protobuf_test_messages.proto3.TestAllTypesProto3")!;
 * toJson(schema, fromJson(schema, { optionalInt32: 1 }, { registry }), { registry }); //=> { optionalInt32: 1 }
 */
export function registryFromTypes(set: TypeSet, options?: RegistryFromTypesOptions): FileRegistry {
  const known = options?.registry;
  const nodes = collectNodes(set);
  linkParents(nodes.order, nodes.byName);
  const roots = placeNodes(nodes.order, known);
  const { protos, refs } = buildProtos(roots, nodes.byName, known);
  const groups = fileGroups(roots, refs);
  const external = referencedFiles(refs);
  nameFiles(groups, external);
  return fileRegistry(external, groups, protos, refs);
}

/** The given types and enums by full name, in input order. */
interface Nodes {
  readonly byName: Map<string, Node>;
  readonly order: Node[];
}

/** A node for every Type and Enum given, its full name checked and unique. */
function collectNodes(set: TypeSet): Nodes {
  const byName = new Map<string, Node>();
  const order: Node[] = [];
  const add = (node: Node) => {
    checkFullName(node.name, `${node.path}.name`, node.kind === "message" ? typeTypeName : enumTypeName);
    if (byName.has(node.name)) {
      throw new WktJsonError(
        "type-url",
        `${node.path}.name`,
        node.kind === "message" ? typeTypeName : enumTypeName,
        `${node.name} is given twice`,
      );
    }
    byName.set(node.name, node);
    order.push(node);
  };
  (set.types ?? []).forEach((type, i) => {
    const path = `$.types[${i}]`;
    const syntax = fileSyntaxOf(type.syntax, type.edition, path, typeTypeName);
    const mapEntry = type.options.some((o) => o.name === "map_entry");
    add({
      kind: "message",
      name: type.name,
      path,
      type,
      syntax,
      mapEntry,
      children: [],
      level: 0,
      pkg: "",
      fileSyntax: syntax,
    });
  });
  (set.enums ?? []).forEach((e, i) => {
    const path = `$.enums[${i}]`;
    const syntax = fileSyntaxOf(e.syntax, e.edition, path, enumTypeName);
    add({
      kind: "enum",
      name: e.name,
      path,
      enum: e,
      syntax,
      mapEntry: false,
      children: [],
      level: 0,
      pkg: "",
      fileSyntax: syntax,
    });
  });
  return { byName, order };
}

/** Sets each node's parent (the given message its name is nested in) or, for a node without one, its package. */
function linkParents(order: readonly Node[], byName: ReadonlyMap<string, Node>): void {
  for (const node of order) {
    const dot = node.name.lastIndexOf(".");
    const outer = dot < 0 ? "" : node.name.slice(0, dot);
    const parent = byName.get(outer);
    if (parent?.kind === "enum") {
      throw new WktJsonError(
        "type-url",
        `${node.path}.name`,
        node.kind === "message" ? typeTypeName : enumTypeName,
        `${node.name} would be nested in the enum ${outer}`,
      );
    }
    if (parent !== undefined) node.parent = parent;
    else node.pkg = outer;
  }
}

/**
 * Places each node under its parent or at the top of a file, reads a message's options and features on the way,
 * and returns the roots. Iterative (names can nest thousands deep), and linear: each node is placed once, after
 * its parent.
 */
function placeNodes(order: readonly Node[], known: Registry | undefined): Node[] {
  const pending: Node[] = [];
  for (const start of order) {
    for (let n: Node | undefined = start; n !== undefined && n.root === undefined; n = n.parent) pending.push(n);
    while (pending.length > 0) {
      const node = pending.pop() as Node;
      const parent = node.parent;
      if (node.type !== undefined) {
        node.options = optionsFromList(MessageOptionsSchema, node.type.options, `${node.path}.options`, {
          typeName: typeTypeName,
          registry: known,
        });
        node.features = mergeFeatures(parent?.features, node.options?.features);
      }
      if (parent === undefined) {
        node.root = node;
        continue;
      }
      const level = parent.level + 1;
      // protobuf-es builds nested descriptors recursively: nesting is cut every registryNestingMax levels (a
      // map entry stays with its map field's message, up to twice that).
      if (level > registryNestingMax && (!node.mapEntry || level > 2 * registryNestingMax)) {
        node.root = node;
        node.pkg = parent.name;
      } else {
        node.root = parent.root as Node;
        node.level = level;
      }
      node.fileSyntax = parent.fileSyntax;
    }
  }
  const roots: Node[] = [];
  for (const node of order) {
    if (node.root === node) roots.push(node);
    else (node.parent as Node).children.push(node);
  }
  return roots;
}

/** The descriptor protos of the roots (each holding its nested types), and what each root's fields reference. */
interface BuiltProtos {
  readonly protos: Map<Node, DescriptorProto | EnumDescriptorProto>;
  readonly refs: Map<Node, Target[]>;
}

/** Descriptor protos, one tree per root, and what each root's fields reference. */
function buildProtos(
  roots: readonly Node[],
  byName: ReadonlyMap<string, Node>,
  known: Registry | undefined,
): BuiltProtos {
  const refs = new Map<Node, Target[]>();
  const ctx: BuildContext = { known, resolveRef: refResolver(byName, known, refs) };
  const protos = new Map<Node, DescriptorProto | EnumDescriptorProto>();
  const stack: Node[] = [];
  for (const root of roots) {
    refs.set(root, []);
    if (root.kind === "enum") {
      protos.set(root, enumProto(root, known));
      continue;
    }
    // Pre-order, without recursion: a message's proto is made before its children's, which it then holds.
    stack.push(root);
    while (stack.length > 0) {
      const node = stack.pop() as Node;
      const parent = node === root ? undefined : (node.parent as Node);
      if (node.kind === "enum") {
        (parent?.proto as DescriptorProto).enumType.push(enumProto(node, known));
        continue;
      }
      const proto = messageProto(node, root.fileSyntax, node === root && root.parent !== undefined, ctx);
      node.proto = proto;
      if (parent !== undefined) (parent.proto as DescriptorProto).nestedType.push(proto);
      else protos.set(root, proto);
      for (let c = node.children.length - 1; c >= 0; c--) stack.push(node.children[c] as Node);
    }
  }
  return { protos, refs };
}

/**
 * The resolver of a field's type URL: a given node or a type of `known` or the built-ins, of the kind the field
 * wants; each target is recorded in `refs` under the root of the referring node.
 */
function refResolver(
  byName: ReadonlyMap<string, Node>,
  known: Registry | undefined,
  refs: ReadonlyMap<Node, Target[]>,
): BuildContext["resolveRef"] {
  const enumNameSets = new WeakMap<object, ReadonlySet<string>>();
  const enumNames = (key: object, names: () => string[]): ReadonlySet<string> => {
    let s = enumNameSets.get(key);
    if (s === undefined) enumNameSets.set(key, (s = new Set(names())));
    return s;
  };
  return (from, field, path, want) => {
    let name: string;
    try {
      name = typeUrlParse(field.typeUrl).typeName;
    } catch (e) {
      throw movedError(e, path, typeTypeName);
    }
    const node = byName.get(name);
    let target: Target;
    let enumValues: () => ReadonlySet<string> = noNames;
    if (node !== undefined) {
      if (node.kind !== want) {
        throw new WktJsonError(
          "unknown-type",
          path,
          typeTypeName,
          `${JSON.stringify(field.typeUrl)} names the ${node.kind} ${name}, but the field is of ${want} kind`,
        );
      }
      target = { node: node.root as Node };
      const e = node.enum;
      if (e !== undefined) enumValues = () => enumNames(e, () => e.enumvalue.map((v) => v.name));
    } else {
      const desc = known?.get(name) ?? builtins().get(name);
      if (desc === undefined) {
        throw new WktJsonError(
          "unknown-type",
          path,
          typeTypeName,
          `${JSON.stringify(field.typeUrl)} names a type that is not among the given ${want === "enum" ? "enums" : "types"} (pass it, or a registry that has it)`,
        );
      }
      if (desc.kind === "message") {
        if (want !== "message")
          throw new WktJsonError(
            "unknown-type",
            path,
            typeTypeName,
            `${JSON.stringify(field.typeUrl)} names the message ${name}, but the field is of enum kind`,
          );
        target = { file: desc.file };
      } else if (desc.kind === "enum") {
        if (want !== "enum")
          throw new WktJsonError(
            "unknown-type",
            path,
            typeTypeName,
            `${JSON.stringify(field.typeUrl)} names the enum ${name}, but the field is of message kind`,
          );
        target = { file: desc.file };
        enumValues = () => enumNames(desc, () => desc.values.map((v) => v.name));
      } else {
        throw new WktJsonError(
          "unknown-type",
          path,
          typeTypeName,
          `${JSON.stringify(field.typeUrl)} names the ${desc.kind} ${name}, which is no ${want}`,
        );
      }
    }
    refs.get(from.root as Node)?.push(target);
    return { typeName: "." + name, mapEntry: node?.mapEntry === true, enumValues };
  };
}

/**
 * The roots grouped into files, each after the files it references: one file per source file, package and
 * syntax, or, where crafted Types make a cycle between source files (protoc never makes one), one per package
 * and syntax, which removes cycles between files of one package.
 */
function fileGroups(roots: readonly Node[], refs: ReadonlyMap<Node, readonly Target[]>): Group[] {
  const groups = groupRoots(roots, refs, true) ?? groupRoots(roots, refs, false);
  if (groups === undefined) {
    throw new WktJsonError(
      "syntax",
      "$",
      typeTypeName,
      "the types reference each other across packages in a cycle, which descriptors cannot express",
    );
  }
  return groups;
}

/**
 * The existing files referenced and the files they import, each after its imports; protobuf-es builds the whole
 * set in one pass, so that no chain of imports is followed recursively.
 */
function referencedFiles(refs: ReadonlyMap<Node, readonly Target[]>): DescFile[] {
  const external = new Set<string>();
  const ordered: DescFile[] = [];
  const visiting: Array<{ file: DescFile; next: number }> = [];
  for (const targets of refs.values()) {
    for (const t of targets) {
      if (!("file" in t) || external.has(t.file.proto.name)) continue;
      external.add(t.file.proto.name);
      visiting.push({ file: t.file, next: 0 });
      while (visiting.length > 0) {
        const top = visiting[visiting.length - 1] as { file: DescFile; next: number };
        const dep = top.file.dependencies[top.next++];
        if (dep === undefined) {
          visiting.pop();
          ordered.push(top.file);
        } else if (!external.has(dep.proto.name)) {
          external.add(dep.proto.name);
          visiting.push({ file: dep, next: 0 });
        }
      }
    }
  }
  return ordered;
}

/** Gives each group a unique file name, distinct from those of the files referenced. */
function nameFiles(groups: readonly Group[], external: readonly DescFile[]): void {
  const used = new Set(external.map((f) => f.proto.name));
  const nextSuffix = new Map<string, number>();
  for (const g of groups) {
    const base =
      g.sourceFile !== "" ? g.sourceFile : `${g.pkg === "" ? "" : g.pkg.replaceAll(".", "/") + "/"}types.proto`;
    let name = base;
    let n = nextSuffix.get(base) ?? 2;
    while (used.has(name)) name = `${base}~${n++}`;
    nextSuffix.set(base, n);
    used.add(name);
    g.fileName = name;
  }
}

/** The registry of the referenced files and one FileDescriptorProto per group, importing what its roots reference. */
function fileRegistry(
  external: readonly DescFile[],
  groups: readonly Group[],
  protos: ReadonlyMap<Node, DescriptorProto | EnumDescriptorProto>,
  refs: ReadonlyMap<Node, readonly Target[]>,
): FileRegistry {
  const groupOf = new Map<Node, Group>();
  for (const g of groups) for (const r of g.roots) groupOf.set(r, g);
  const files: FileDescriptorProto[] = external.map((f) => f.proto);
  for (const g of groups) {
    const deps = new Set<string>();
    for (const r of g.roots) {
      for (const t of refs.get(r) ?? []) {
        const dep = "file" in t ? t.file.proto.name : groupOf.get(t.node)?.fileName;
        if (dep !== undefined && dep !== g.fileName) deps.add(dep);
      }
    }
    const messageType: DescriptorProto[] = [];
    const enumType: EnumDescriptorProto[] = [];
    for (const r of g.roots) {
      if (r.kind === "message") messageType.push(protos.get(r) as DescriptorProto);
      else enumType.push(protos.get(r) as EnumDescriptorProto);
    }
    const file: FileDescriptorProto = create(FileDescriptorProtoSchema, {
      name: g.fileName,
      package: g.pkg,
      syntax: g.syntax.syntax,
      dependency: [...deps],
      messageType,
      enumType,
    });
    if (g.syntax.syntax === "editions") file.edition = g.syntax.edition;
    files.push(file);
  }
  try {
    return createFileRegistry(create(FileDescriptorSetSchema, { file: files }));
  } catch (e) {
    throw new WktJsonError(
      "syntax",
      "$",
      typeTypeName,
      `the types do not form valid descriptors: ${e instanceof Error ? e.message : String(e)}`,
      { cause: e },
    );
  }
}

const noNames = (): ReadonlySet<string> => new Set();

/** Groups roots into files, in an order where each file comes after the files it references; undefined on a cycle. */
function groupRoots(
  roots: readonly Node[],
  refs: ReadonlyMap<Node, readonly Target[]>,
  bySourceFile: boolean,
): Group[] | undefined {
  const byKey = new Map<string, Group>();
  const groupOf = new Map<Node, Group>();
  for (const r of roots) {
    const sourceFile = bySourceFile ? ((r.type ?? r.enum)?.sourceContext?.fileName ?? "") : "";
    const key = `${sourceFile}\u0000${r.pkg}\u0000${r.fileSyntax.syntax}\u0000${r.fileSyntax.edition}`;
    let g = byKey.get(key);
    if (g === undefined) {
      g = { pkg: r.pkg, syntax: r.fileSyntax, sourceFile, roots: [], fileName: "" };
      byKey.set(key, g);
    }
    g.roots.push(r);
    groupOf.set(r, g);
  }
  // The groups each group references, then a depth-first walk with an explicit stack (a chain of packages can
  // be as long as the input).
  const depsOf = new Map<Group, Group[]>();
  for (const g of byKey.values()) {
    const deps = new Set<Group>();
    for (const r of g.roots) {
      for (const t of refs.get(r) ?? []) {
        if (!("node" in t)) continue;
        const dep = groupOf.get(t.node);
        if (dep !== undefined && dep !== g) deps.add(dep);
      }
    }
    depsOf.set(g, [...deps]);
  }
  const ordered: Group[] = [];
  const state = new Map<Group, 1 | 2>(); // 1: on the stack, 2: done
  const stack: Array<{ group: Group; next: number }> = [];
  for (const start of byKey.values()) {
    if (state.has(start)) continue;
    state.set(start, 1);
    stack.push({ group: start, next: 0 });
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { group: Group; next: number };
      const dep = (depsOf.get(top.group) as Group[])[top.next++];
      if (dep === undefined) {
        stack.pop();
        state.set(top.group, 2);
        ordered.push(top.group);
        continue;
      }
      const s = state.get(dep);
      if (s === 1) return undefined;
      if (s === undefined) {
        state.set(dep, 1);
        stack.push({ group: dep, next: 0 });
      }
    }
  }
  return ordered;
}

interface ResolvedRef {
  /** `.pkg.Msg`, as FieldDescriptorProto.type_name has it. */
  readonly typeName: string;
  /** The type is a map entry (has the option map_entry): the field is a map field. */
  readonly mapEntry: boolean;
  /** The value names of an enum type (made on first use: only a field with a default asks). */
  readonly enumValues: () => ReadonlySet<string>;
}

interface BuildContext {
  readonly known: Registry | undefined;
  readonly resolveRef: (from: Node, field: Field, path: string, want: "message" | "enum") => ResolvedRef;
}

/** Feature defaults of the syntaxes a Type can have, for the features the rebuilt fields depend on. */
function featureDefault(
  syntax: FileSyntax,
  name: "repeatedFieldEncoding" | "messageEncoding" | "fieldPresence",
): number {
  switch (name) {
    case "repeatedFieldEncoding":
      return syntax.syntax === "proto2"
        ? FeatureSet_RepeatedFieldEncoding.EXPANDED
        : FeatureSet_RepeatedFieldEncoding.PACKED;
    case "messageEncoding":
      return FeatureSet_MessageEncoding.LENGTH_PREFIXED;
    case "fieldPresence":
      return syntax.syntax === "proto3" ? FeatureSet_FieldPresence.IMPLICIT : FeatureSet_FieldPresence.EXPLICIT;
  }
}

/**
 * A feature as protobuf-es resolves it: the field's own, then the enclosing messages' (`features`, merged with
 * the innermost winning), then the default.
 */
function resolvedFeature(
  name: "repeatedFieldEncoding" | "messageEncoding" | "fieldPresence",
  field: FieldDescriptorProto,
  features: FeatureSet | undefined,
  syntax: FileSyntax,
): number {
  const own = field.options?.features?.[name] ?? 0;
  if (own !== 0) return own;
  const v = features?.[name] ?? 0;
  return v !== 0 ? v : featureDefault(syntax, name);
}

/** `inner` over `outer`, sharing either when the other is unset. */
function mergeFeatures(outer: FeatureSet | undefined, inner: FeatureSet | undefined): FeatureSet | undefined {
  if (inner === undefined) return outer;
  if (outer === undefined) return inner;
  const merged = clone(FeatureSetSchema, outer);
  merge(FeatureSetSchema, merged, inner);
  return merged;
}

function setFieldFeature(field: FieldDescriptorProto, apply: (f: FeatureSet) => void): void {
  const options: FieldOptions = field.options ?? create(FieldOptionsSchema);
  const features: FeatureSet = options.features ?? create(FeatureSetSchema);
  apply(features);
  options.features = features;
  field.options = options;
}

const fieldNumberMax = 536_870_911;

/**
 * The DescriptorProto of a Type, without its nested types (the caller adds them). A root cut from the type that
 * encloses its name (`cut`) carries the features it inherits in its own options, as it has no parent to
 * inherit them from.
 */
function messageProto(node: Node, syntax: FileSyntax, cut: boolean, ctx: BuildContext): DescriptorProto {
  const type = node.type as Type;
  checkJsonNames(node);
  const fields = type.fields.map((f, j) => fieldProto(node, f, `${node.path}.fields[${j}]`, syntax, ctx));
  if (syntax.syntax === "proto3") markProto3Optional(type, fields);
  const proto = create(DescriptorProtoSchema, {
    name: node.name.slice(node.name.lastIndexOf(".") + 1),
    field: fields,
    oneofDecl: type.oneofs.map((name) => ({ name })),
  });
  let options = node.options;
  if (cut && node.features !== undefined && node.features !== options?.features) {
    options ??= create(MessageOptionsSchema) as unknown as OptionsMessage;
    options.features = clone(FeatureSetSchema, node.features);
  }
  if (options !== undefined) proto.options = options as never;
  return proto;
}

/** protoc's default JSON name; the name itself when it has no `_` (then lowerCamelCase changes nothing). */
function defaultJsonName(name: string): string {
  return name.includes("_") ? protoCamelCase(name) : name;
}

/**
 * The names of a Type's fields: protoc's rules (no two proto names or JSON names the same; no two default JSON
 * names the same, which protoc only warns about where the feature json_format is LEGACY_BEST_EFFORT, as in
 * proto2, but protobuf-es gives such fields one property of the message, so that one's value is lost), and what
 * JSON needs beyond them: no JSON name equal to another field's proto name, which readers also accept, and none
 * equal to `@type`, the type URL's member when the message is in an Any.
 */
function checkJsonNames(node: Node): void {
  const type = node.type as Type;
  // Each field against the fields before it, so that a clash is reported at the later field.
  const byJsonName = new Map<string, Field>();
  const byProtoName = new Map<string, Field>();
  const byDefaultName = new Map<string, Field>();
  type.fields.forEach((f, j) => {
    const fail = (member: "jsonName" | "name", detail: string) =>
      new WktJsonError(
        "duplicate-field",
        `${node.path}.fields[${j}].${member}`,
        typeTypeName,
        `${node.name}.${f.name}: ${detail}`,
      );
    const defaultName = defaultJsonName(f.name);
    const jsonName = f.jsonName !== "" ? f.jsonName : defaultName;
    if (jsonName === "@type")
      throw fail(
        "jsonName",
        `the JSON name "@type" is the member that holds the type URL when the message is in an Any`,
      );
    const same = byJsonName.get(jsonName);
    if (same !== undefined)
      throw fail("jsonName", `the JSON name ${JSON.stringify(jsonName)} is also the JSON name of field ${same.name}`);
    const named = byProtoName.get(jsonName);
    if (named !== undefined)
      throw fail(
        "jsonName",
        `the JSON name ${JSON.stringify(jsonName)} is the proto name of field ${named.name}, which readers accept as well`,
      );
    const twin = byProtoName.get(f.name);
    if (twin !== undefined) throw fail("name", `the proto name is also that of field ${twin.number}`);
    const namedJson = byJsonName.get(f.name);
    if (namedJson !== undefined)
      throw fail("name", `the proto name, which readers accept as well, is the JSON name of field ${namedJson.name}`);
    byJsonName.set(jsonName, f);
    byProtoName.set(f.name, f);
    const sameDefault = byDefaultName.get(defaultName);
    if (sameDefault !== undefined) {
      throw fail(
        "name",
        `the default JSON name ${JSON.stringify(defaultName)} is also that of field ${sameDefault.name}, and protobuf-es names both fields' property so`,
      );
    }
    byDefaultName.set(defaultName, f);
  });
}

/** The FieldDescriptorProto of a Type's field: checked, built, then given the encoding the Type states. */
function fieldProto(node: Node, f: Field, path: string, syntax: FileSyntax, ctx: BuildContext): FieldDescriptorProto {
  checkField(node, f, path);
  const kind = f.kind as number;
  const type = node.type as Type;
  const proto = create(FieldDescriptorProtoSchema, {
    name: f.name,
    number: f.number,
    label:
      f.cardinality === Field_Cardinality.REPEATED
        ? FieldDescriptorProto_Label.REPEATED
        : f.cardinality === Field_Cardinality.REQUIRED && syntax.syntax !== "editions"
          ? FieldDescriptorProto_Label.REQUIRED
          : FieldDescriptorProto_Label.OPTIONAL,
    type: kind as FieldDescriptorProto_Type,
    jsonName: f.jsonName !== "" ? f.jsonName : defaultJsonName(f.name),
  });
  let mapField = false;
  let enumValues: () => ReadonlySet<string> = noNames;
  if (kind === Field_Kind.TYPE_MESSAGE || kind === Field_Kind.TYPE_GROUP || kind === Field_Kind.TYPE_ENUM) {
    const ref = ctx.resolveRef(node, f, `${path}.typeUrl`, kind === Field_Kind.TYPE_ENUM ? "enum" : "message");
    proto.typeName = ref.typeName;
    mapField = ref.mapEntry && f.cardinality === Field_Cardinality.REPEATED;
    enumValues = ref.enumValues;
  }
  if (f.defaultValue !== "") {
    const text = defaultValueProto(kind, f, enumValues);
    if (text === undefined) {
      throw new WktJsonError(
        "syntax",
        `${path}.defaultValue`,
        typeTypeName,
        `${node.name}.${f.name}: ${JSON.stringify(f.defaultValue)} is not a default value of a ${Field_Kind[kind] ?? kind} field`,
      );
    }
    proto.defaultValue = text;
  }
  if (f.oneofIndex !== 0) {
    // Rule 10: "first index is 1; 0 means not in the list".
    if (!(f.oneofIndex >= 1 && f.oneofIndex <= type.oneofs.length)) {
      throw new WktJsonError(
        "range",
        `${path}.oneofIndex`,
        typeTypeName,
        `${node.name}.${f.name}: oneof_index ${f.oneofIndex} is not in 1..${type.oneofs.length} (the Type has ${type.oneofs.length} oneofs)`,
      );
    }
    proto.oneofIndex = f.oneofIndex - 1;
  }
  const options = optionsFromList(FieldOptionsSchema, f.options, `${path}.options`, {
    typeName: typeTypeName,
    registry: ctx.known,
  });
  if (options !== undefined) proto.options = options as never;
  applyEncoding(proto, f, mapField, node.features, syntax);
  return proto;
}

/** Checks a field's kind, cardinality and number, which the descriptor cannot hold otherwise. */
function checkField(node: Node, f: Field, path: string): void {
  const kind = f.kind as number;
  if (!(kind >= Field_Kind.TYPE_DOUBLE && kind <= Field_Kind.TYPE_SINT64)) {
    throw new WktJsonError(
      "enum",
      `${path}.kind`,
      typeTypeName,
      `${node.name}.${f.name}: kind ${kind} is not a field type`,
    );
  }
  if (!(f.cardinality >= Field_Cardinality.OPTIONAL && f.cardinality <= Field_Cardinality.REPEATED)) {
    throw new WktJsonError(
      "enum",
      `${path}.cardinality`,
      typeTypeName,
      `${node.name}.${f.name}: cardinality ${f.cardinality as number} is not optional, required or repeated`,
    );
  }
  if (!(f.number >= 1 && f.number <= fieldNumberMax)) {
    throw new WktJsonError(
      "range",
      `${path}.number`,
      typeTypeName,
      `${node.name}.${f.name}: field number ${f.number} is not in 1..${fieldNumberMax}`,
    );
  }
}

/**
 * Sets the features or `packed` option that make the field's encoding what the Type states: what it states
 * directly (kind, cardinality, packed) wins over what its options and syntax imply. `chain` is the features of
 * the enclosing messages.
 */
function applyEncoding(
  proto: FieldDescriptorProto,
  f: Field,
  mapField: boolean,
  chain: FeatureSet | undefined,
  syntax: FileSyntax,
): void {
  const kind = f.kind as number;
  if (syntax.syntax === "editions") {
    if (kind === Field_Kind.TYPE_GROUP) {
      proto.type = FieldDescriptorProto_Type.MESSAGE; // editions files spell groups as delimited messages
      if (resolvedFeature("messageEncoding", proto, chain, syntax) !== FeatureSet_MessageEncoding.DELIMITED) {
        setFieldFeature(proto, (fs) => (fs.messageEncoding = FeatureSet_MessageEncoding.DELIMITED));
      }
    } else if (
      kind === Field_Kind.TYPE_MESSAGE &&
      !mapField &&
      resolvedFeature("messageEncoding", proto, chain, syntax) === FeatureSet_MessageEncoding.DELIMITED
    ) {
      // (Map fields are length-prefixed whatever the features say, and C++ reports them TYPE_MESSAGE.)
      setFieldFeature(proto, (fs) => (fs.messageEncoding = FeatureSet_MessageEncoding.LENGTH_PREFIXED));
    }
    if (
      f.cardinality === Field_Cardinality.REQUIRED &&
      resolvedFeature("fieldPresence", proto, chain, syntax) !== FeatureSet_FieldPresence.LEGACY_REQUIRED
    ) {
      setFieldFeature(proto, (fs) => (fs.fieldPresence = FeatureSet_FieldPresence.LEGACY_REQUIRED));
    }
  }
  if (f.cardinality === Field_Cardinality.REPEATED && isPackable(kind)) {
    const explicit = proto.options !== undefined && isFieldSet(proto.options, FieldOptionsSchema.field.packed);
    const packed = explicit
      ? (proto.options as FieldOptions).packed
      : resolvedFeature("repeatedFieldEncoding", proto, chain, syntax) === FeatureSet_RepeatedFieldEncoding.PACKED;
    if (packed !== f.packed) {
      if (syntax.syntax === "editions" && !explicit) {
        const encoding = f.packed ? FeatureSet_RepeatedFieldEncoding.PACKED : FeatureSet_RepeatedFieldEncoding.EXPANDED;
        setFieldFeature(proto, (fs) => (fs.repeatedFieldEncoding = encoding));
      } else {
        const o: FieldOptions = proto.options ?? create(FieldOptionsSchema);
        o.packed = f.packed;
        proto.options = o;
      }
    }
  }
}

const int32Range: readonly [bigint, bigint] = [-(2n ** 31n), 2n ** 31n - 1n];
const uint32Range: readonly [bigint, bigint] = [0n, 2n ** 32n - 1n];
const int64Range: readonly [bigint, bigint] = [-(2n ** 63n), 2n ** 63n - 1n];
const uint64Range: readonly [bigint, bigint] = [0n, 2n ** 64n - 1n];

/**
 * The default_value text for the FieldDescriptorProto, or undefined when the Type's text is not a value of the
 * field's kind. Stricter than protobuf-es, which reads "-0x10" as -0 and an unknown enum name only when a message
 * is created (and then throws).
 */
function defaultValueProto(kind: number, f: Field, enumValues: () => ReadonlySet<string>): string | undefined {
  const text = f.defaultValue;
  if (f.cardinality === Field_Cardinality.REPEATED) return undefined;
  let range: readonly [bigint, bigint] | undefined;
  switch (kind) {
    case Field_Kind.TYPE_MESSAGE:
    case Field_Kind.TYPE_GROUP:
      return undefined;
    case Field_Kind.TYPE_ENUM:
      return enumValues().has(text) ? text : undefined;
    case Field_Kind.TYPE_STRING:
      return text;
    case Field_Kind.TYPE_BOOL:
      return text === "true" || text === "false" ? text : undefined;
    case Field_Kind.TYPE_BYTES: {
      const bytes = cUnescape(text);
      // Written back with octal escapes only, which protobuf-es 2.17 reads correctly (it drops \" and \').
      return bytes === undefined ? undefined : cEscape(bytes, true);
    }
    case Field_Kind.TYPE_FLOAT:
    case Field_Kind.TYPE_DOUBLE:
      return text === "inf" || text === "-inf" || text === "nan" || /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)
        ? text
        : undefined;
    case Field_Kind.TYPE_INT32:
    case Field_Kind.TYPE_SINT32:
    case Field_Kind.TYPE_SFIXED32:
      range = int32Range;
      break;
    case Field_Kind.TYPE_UINT32:
    case Field_Kind.TYPE_FIXED32:
      range = uint32Range;
      break;
    case Field_Kind.TYPE_UINT64:
    case Field_Kind.TYPE_FIXED64:
      range = uint64Range;
      break;
    default:
      range = int64Range;
  }
  if (!/^-?\d{1,20}$/.test(text)) return undefined;
  const v = BigInt(text);
  return v >= range[0] && v <= range[1] ? text : undefined;
}

function isPackable(kind: number): boolean {
  return (
    kind !== Field_Kind.TYPE_STRING &&
    kind !== Field_Kind.TYPE_BYTES &&
    kind !== Field_Kind.TYPE_MESSAGE &&
    kind !== Field_Kind.TYPE_GROUP
  );
}

/**
 * Marks proto3 `optional` fields. The Type lists their synthetic oneofs like real ones (as C++ does); protoc names
 * a synthetic oneof `_<field>`, prefixed with `X` until unique, and it has that one member.
 */
function markProto3Optional(type: Type, fields: FieldDescriptorProto[]): void {
  // The only member of each oneof, -1 for none, -2 for several: one pass over the fields.
  const member = type.oneofs.map(() => -1);
  type.fields.forEach((f, j) => {
    const o = f.oneofIndex - 1;
    if (o >= 0 && o < member.length) member[o] = member[o] === -1 ? j : -2;
  });
  type.oneofs.forEach((name, o) => {
    const j = member[o] as number;
    if (j < 0) return;
    const f = type.fields[j] as Field;
    if (f.cardinality !== Field_Cardinality.OPTIONAL) return;
    let i = 0;
    while (name.charCodeAt(i) === 88 /* X */) i++;
    if (name.slice(i) === `_${f.name}`) (fields[j] as FieldDescriptorProto).proto3Optional = true;
  });
}

function enumProto(node: Node, known: Registry | undefined): EnumDescriptorProto {
  const e = node.enum as Enum;
  if (e.enumvalue.length === 0) {
    throw new WktJsonError(
      "syntax",
      `${node.path}.enumvalue`,
      enumTypeName,
      `${node.name} has no values; an enum needs at least one`,
    );
  }
  const ctx: OptionContext = { typeName: enumTypeName, registry: known };
  const proto = create(EnumDescriptorProtoSchema, {
    name: node.name.slice(node.name.lastIndexOf(".") + 1),
    value: e.enumvalue.map((v, k) => {
      const value = create(EnumValueDescriptorProtoSchema, { name: v.name, number: v.number });
      const options = optionsFromList(EnumValueOptionsSchema, v.options, `${node.path}.enumvalue[${k}].options`, ctx);
      if (options !== undefined) value.options = options as never;
      return value;
    }),
  });
  const options = optionsFromList(EnumOptionsSchema, e.options, `${node.path}.options`, ctx);
  if (options !== undefined) proto.options = options as never;
  return proto;
}

function fileSyntaxOf(syntax: Syntax, edition: string, path: string, typeName: string): FileSyntax {
  switch (syntax) {
    case Syntax.PROTO2:
      return { syntax: "proto2", edition: Edition.EDITION_PROTO2 };
    case Syntax.PROTO3:
      return { syntax: "proto3", edition: Edition.EDITION_PROTO3 };
    case Syntax.EDITIONS: {
      const name = edition.startsWith("EDITION_") ? edition : `EDITION_${edition}`;
      const value = (Edition as unknown as Record<string, number | undefined>)[name];
      if (value === undefined || value < Edition.EDITION_2023 || value > Edition.EDITION_MAX - 1) {
        throw new WktJsonError(
          "syntax",
          `${path}.edition`,
          typeName,
          `edition ${JSON.stringify(edition)} is not an edition such as "2023"`,
        );
      }
      return { syntax: "editions", edition: value as Edition };
    }
    default:
      throw new WktJsonError(
        "enum",
        `${path}.syntax`,
        typeName,
        `syntax ${syntax as number} is not SYNTAX_PROTO2, SYNTAX_PROTO3 or SYNTAX_EDITIONS`,
      );
  }
}

/** `ident(.ident)*`, each identifier of letters, digits and `_` not starting with a digit. */
function checkFullName(name: string, path: string, typeName: string): void {
  let start = true;
  let ok = name.length > 0;
  for (let i = 0; ok && i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (c === 46) {
      ok = !start;
      start = true;
      continue;
    }
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    ok = letter || (!start && c >= 48 && c <= 57);
    start = false;
  }
  if (!ok || start)
    throw new WktJsonError("type-url", path, typeName, `${JSON.stringify(name)} is not a fully-qualified type name`);
}

// ---------------------------------------------------------------------------------------------------------
// Api.version (rule 3)

/** The version of an API: major (breaking changes) and minor (additive ones). */
export interface ApiVersion {
  readonly major: number;
  readonly minor: number;
}

/** What {@link apiVersion} and the mixin helpers read of an Api. */
export type ApiNameAndVersion = Pick<Api, "name" | "version">;

/** Version numbers up to 9 digits: beyond an int32 there is no API. */
const versionDigitsMax = 9;

/**
 * The major version of a package segment `v<major>` with an optional lower-case release suffix (`v2`,
 * `v1beta1`, `v2alpha`, `v1p1beta1`), or -1 when the segment is not one. The major is a number without leading
 * zeros, as in a version (see {@link parseVersionText}): `v01` is not `v1`, so it is no version segment.
 */
function versionSegmentMajor(segment: string): number {
  if (segment.charCodeAt(0) !== 118 /* v */) return -1;
  let i = 1;
  let major = 0;
  for (; i < segment.length; i++) {
    const d = segment.charCodeAt(i) - 48;
    if (!(d >= 0 && d <= 9)) break;
    major = major * 10 + d;
  }
  if (i === 1 || i - 1 > versionDigitsMax || (i > 2 && segment.charCodeAt(1) === 48) /* v0<digit> */) return -1;
  if (i < segment.length) {
    const c = segment.charCodeAt(i);
    if (!(c >= 97 && c <= 122)) return -1;
    for (let k = i + 1; k < segment.length; k++) {
      const c2 = segment.charCodeAt(k);
      if (!((c2 >= 97 && c2 <= 122) || (c2 >= 48 && c2 <= 57))) return -1;
    }
  }
  return major;
}

/** The last segment of the package of an API named `pkg.Service`, or "". */
function packageSuffix(apiName: string): string {
  const end = apiName.lastIndexOf(".");
  if (end < 0) return "";
  return apiName.slice(apiName.lastIndexOf(".", end - 1) + 1, end);
}

/**
 * `<major>` or `<major>.<minor>`, decimal numbers without leading zeros (semantic versioning's form, which
 * api.proto names: "01" and "1.02" are not versions); undefined otherwise.
 */
function parseVersionText(s: string): ApiVersion | undefined {
  let i = 0;
  const number = (): number => {
    const start = i;
    let v = 0;
    for (; i < s.length; i++) {
      const d = s.charCodeAt(i) - 48;
      if (!(d >= 0 && d <= 9)) break;
      v = v * 10 + d;
    }
    if (i === start || i - start > versionDigitsMax) return -1;
    return i - start > 1 && s.charCodeAt(start) === 48 ? -1 : v;
  };
  const major = number();
  if (major < 0) return undefined;
  if (i === s.length) return { major, minor: 0 };
  if (s.charCodeAt(i) !== 46) return undefined;
  i++;
  const minor = number();
  return minor < 0 || i !== s.length ? undefined : { major, minor };
}

/**
 * Returns the version of an API (rule 3): from `version` (`<major>.<minor>`, a missing minor is 0) or, when
 * `version` is empty, the major version of the package's `v<major>` suffix (`v1beta1` and `v2alpha` count as
 * their major; no suffix means major 1).
 *
 * @throws {WktJsonError} rule `api-version` (path `$.version`) for a malformed version (`"1.x"`, `"v1"`,
 *   `"1.2.3"`, `"-1"`, `"01.0"`) or one whose major disagrees with the package: the suffix's major, or 0 or 1 without one.
 * @example
 * apiVersion({ name: "google.storage.v2.Storage", version: "" }); //=> { major: 2, minor: 0 }
 * apiVersion({ name: "google.storage.v2.Storage", version: "2.3" }); //=> { major: 2, minor: 3 }
 * apiVersion({ name: "acme.Library", version: "0.4" }); //=> { major: 0, minor: 4 }
 */
export function apiVersion(api: ApiNameAndVersion): ApiVersion {
  const suffix = packageSuffix(api.name);
  const suffixMajor = versionSegmentMajor(suffix);
  if (api.version === "") return { major: suffixMajor < 0 ? 1 : suffixMajor, minor: 0 };
  const v = parseVersionText(api.version);
  if (v === undefined) {
    throw new WktJsonError(
      "api-version",
      "$.version",
      apiTypeName,
      `${JSON.stringify(api.version)} is not of the form <major>.<minor> (numbers without leading zeros), such as "1.10"`,
    );
  }
  if (suffixMajor >= 0 && v.major !== suffixMajor) {
    throw new WktJsonError(
      "api-version",
      "$.version",
      apiTypeName,
      `version ${api.version} has major version ${v.major}, but the package of ${api.name} ends in ${suffix}`,
    );
  }
  if (suffixMajor < 0 && v.major > 1) {
    throw new WktJsonError(
      "api-version",
      "$.version",
      apiTypeName,
      `version ${api.version} has major version ${v.major}, so the package of ${api.name} must end in v${v.major} (only major versions 0 and 1 may omit the suffix)`,
    );
  }
  return v;
}

/**
 * Checks an API's version against rule 3; see {@link apiVersion}.
 *
 * @throws {WktJsonError} rule `api-version` at `$.version`.
 * @example
 * apiVersionCheck({ name: "google.storage.v2.Storage", version: "2.1" }); // passes
 * apiVersionCheck({ name: "google.storage.v2.Storage", version: "3.0" }); // throws WktJsonError (rule "api-version", path "$.version")
 */
export function apiVersionCheck(api: ApiNameAndVersion): void {
  apiVersion(api);
}

/**
 * Tells whether an API's version satisfies rule 3, without throwing.
 *
 * @example
 * apiVersionIsValid({ name: "acme.v1.Library", version: "1.x" }); //=> false
 * apiVersionIsValid({ name: "acme.v1.Library", version: "1" }); //=> true
 */
export function apiVersionIsValid(api: ApiNameAndVersion): boolean {
  try {
    apiVersion(api);
    return true;
  } catch {
    return false;
  }
}

/**
 * Tells whether a client written against version `client` can use an API at version `server`: "Major
 * increments mark breaking changes, minor increments additive ones", so the majors must be equal and the
 * server's minor at least the client's. Major 0 is experimental and promises nothing: only the same 0.x version
 * is compatible.
 *
 * @example
 * apiVersionCompatible({ major: 1, minor: 2 }, { major: 1, minor: 5 }); //=> true
 * apiVersionCompatible({ major: 1, minor: 5 }, { major: 1, minor: 2 }); //=> false
 * apiVersionCompatible({ major: 1, minor: 0 }, { major: 2, minor: 0 }); //=> false
 */
export function apiVersionCompatible(client: ApiVersion, server: ApiVersion): boolean {
  if (client.major !== server.major) return false;
  return client.major === 0 ? client.minor === server.minor : server.minor >= client.minor;
}

// ---------------------------------------------------------------------------------------------------------
// Mixins (rule 4)

/**
 * The options a redeclared method inherits when it does not set them (rule 4): the service-config annotations
 * http and visibility, by the full names of their extensions.
 *
 * @example
 * mixinInheritedOptionNames; //=> ["google.api.http", "google.api.method_visibility"]
 */
export const mixinInheritedOptionNames: readonly string[] = ["google.api.http", "google.api.method_visibility"];

/** The type name a type URL ends in, without checking it. */
function urlTypeName(url: string): string {
  return url.slice(url.lastIndexOf("/") + 1);
}

function sameMethod(a: Method, b: Method): boolean {
  return (
    a.name === b.name &&
    urlTypeName(a.requestTypeUrl) === urlTypeName(b.requestTypeUrl) &&
    urlTypeName(a.responseTypeUrl) === urlTypeName(b.responseTypeUrl) &&
    a.requestStreaming === b.requestStreaming &&
    a.responseStreaming === b.responseStreaming
  );
}

/**
 * Returns the methods of the included API that the including API does not redeclare (rule 4: "the including
 * API must redeclare all methods of the included API"): same name, same request and response types (compared
 * by type name, so the type URLs' hosts may differ) and same streaming. Empty when the mixin is complete.
 *
 * @example
 * mixinCheck(storage, accessControl).map((m) => m.name); //=> ["GetAcl"]
 * mixinCheck(accessControl, accessControl); //=> []
 */
export function mixinCheck(including: Api, included: Api): Method[] {
  return included.methods.filter((m) => !including.methods.some((o) => sameMethod(o, m)));
}

/**
 * Throws unless the including API redeclares every method of the included one; see {@link mixinCheck}.
 *
 * @throws {WktJsonError} rule `mixin`, path `$.methods[i]` of the first missing method in the included API.
 * @example
 * mixinAssert(storage, accessControl); // throws WktJsonError (rule "mixin", path "$.methods[0]")
 */
export function mixinAssert(including: Api, included: Api): void {
  const missing = mixinCheck(including, included);
  const first = missing[0];
  if (first === undefined) return;
  const i = included.methods.indexOf(first);
  const names = missing.map((m) => m.name).join(", ");
  throw new WktJsonError(
    "mixin",
    `$.methods[${i}]`,
    apiTypeName,
    `${including.name} includes ${included.name} but does not redeclare ${missing.length === 1 ? "its method" : `${missing.length} of its methods`} ${names} with the same request and response types`,
  );
}

/** The version path segment of an API: its package suffix (`v2`, `v1beta1`), else `v<major>`. */
function versionPathSegment(api: ApiNameAndVersion): string {
  const { major } = apiVersion(api);
  const suffix = packageSuffix(api.name);
  return versionSegmentMajor(suffix) >= 0 ? suffix : `v${major}`;
}

/**
 * Rewrites the HTTP path of a method inherited through a mixin (rule 4): the version prefix is replaced by the
 * including API's version, followed by `root` when non-empty. `includingVersion` is a version path segment
 * (`"v2"`, `"v1beta1"`) or the including Api, whose package suffix (or major version) is used. A path without
 * a version prefix has nothing replaced and gets only the root.
 *
 * @throws {WktJsonError} rule `mixin` for a path that does not start with `/` or a version that is not a
 *   `v<major>` segment; `api-version` for an including Api that breaks rule 3.
 * @example
 * mixinHttpPath("/v1/{resource=**}:getAcl", "v2", "acls"); //=> "/v2/acls/{resource=**}:getAcl"
 * mixinHttpPath("/v1/{resource=**}:getAcl", { name: "google.storage.v2.Storage", version: "" }); //=> "/v2/{resource=**}:getAcl"
 */
export function mixinHttpPath(path: string, includingVersion: string | ApiNameAndVersion, root: string = ""): string {
  if (path.charCodeAt(0) !== 47 /* / */) {
    throw new WktJsonError("mixin", "$", mixinTypeName, `HTTP path ${JSON.stringify(path)} does not start with "/"`);
  }
  const version = typeof includingVersion === "string" ? includingVersion : versionPathSegment(includingVersion);
  if (versionSegmentMajor(version) < 0) {
    throw new WktJsonError(
      "mixin",
      "$",
      mixinTypeName,
      `${JSON.stringify(version)} is not a version path segment such as "v2" or "v1beta1"`,
    );
  }
  let start = 0;
  let end = root.length;
  while (start < end && root.charCodeAt(start) === 47) start++;
  while (end > start && root.charCodeAt(end - 1) === 47) end--;
  const rootPart = start < end ? "/" + root.slice(start, end) : "";
  let firstEnd = path.indexOf("/", 1);
  if (firstEnd < 0) firstEnd = path.length;
  if (versionSegmentMajor(path.slice(1, firstEnd)) < 0) return rootPart + path;
  return `/${version}${rootPart}${path.slice(firstEnd)}`;
}

/**
 * Returns the documentation of a redeclared method (rule 4): its own, unless that is empty after removing
 * comments (`(-- internal comment --)`) and whitespace, in which case the inherited one.
 *
 * @example
 * mixinInheritDoc("  (-- TODO: document --)\n", "Get the underlying ACL object."); //=> "Get the underlying ACL object."
 * mixinInheritDoc("Gets the ACL.", "Get the underlying ACL object."); //=> "Gets the ACL."
 */
export function mixinInheritDoc(own: string, inherited: string): string {
  let text = "";
  let i = 0;
  for (;;) {
    const open = own.indexOf("(--", i);
    const close = open < 0 ? -1 : own.indexOf("--)", open + 3);
    if (close < 0) {
      text += own.slice(i); // an unterminated "(--" is text
      break;
    }
    text += own.slice(i, open);
    i = close + 3;
  }
  return text.trim() === "" ? inherited : own;
}

/**
 * Returns a redeclared method's options with the service-config annotations it does not set taken from the
 * included method (rule 4): `google.api.http` and `google.api.method_visibility` unless `names` says otherwise.
 * Rewrite an inherited http rule's path with {@link mixinHttpPath}.
 *
 * @example
 * mixinInheritOptions([], accessControlGetAcl.options).map((o) => o.name); //=> ["google.api.http"]
 */
export function mixinInheritOptions(
  own: readonly Option[],
  inherited: readonly Option[],
  names: readonly string[] = mixinInheritedOptionNames,
): Option[] {
  const set = new Set(own.map((o) => o.name));
  return [...own, ...inherited.filter((o) => names.includes(o.name) && !set.has(o.name))];
}
