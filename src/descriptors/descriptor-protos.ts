/**
 * The DescriptorProto, FieldDescriptorProto and EnumDescriptorProto of a Type or Enum, for registryFromTypes:
 * kind, cardinality, number, names, default value, oneof and options read back, with the features (presence,
 * packing, delimited encoding) that make the field encode as the Type states under its file's syntax. The names
 * of a Type's fields are checked here as protoc checks them, and stricter where JSON or protobuf-es needs it.
 *
 * @module
 * @internal
 */
import { clone, create, isFieldSet, merge, type Registry } from "@bufbuild/protobuf";
import { protoCamelCase } from "@bufbuild/protobuf/reflect";
import {
  DescriptorProtoSchema,
  Edition,
  EnumDescriptorProtoSchema,
  EnumOptionsSchema,
  EnumValueDescriptorProtoSchema,
  EnumValueOptionsSchema,
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
  MessageOptionsSchema,
  type DescriptorProto,
  type Enum,
  type EnumDescriptorProto,
  type FeatureSet,
  type Field,
  type FieldDescriptorProto,
  type FieldOptions,
  type Type,
} from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { enumTypeName, typeTypeName } from "../internal/names.js";
import { jsonNameClash } from "../internal/field-keys.js";
import { defaultValueProto } from "./default-value.js";
import { optionsFromList, type OptionContext, type OptionsMessage } from "./option-list.js";

/** The syntax and edition of the file a node goes into. */
export type FileSyntax = { readonly syntax: "proto2" | "proto3" | "editions"; readonly edition: Edition };

/** A Type or Enum given to registryFromTypes, and where it goes in the descriptors built. */
export interface Node {
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

/** No enum value names: the answer for a field that is not of enum kind. */
export const noNames = (): ReadonlySet<string> => new Set();

/** What a field's type URL names, as the field's proto needs it. */
export interface ResolvedRef {
  /** `.pkg.Msg`, as FieldDescriptorProto.type_name has it. */
  readonly typeName: string;
  /** The type is a map entry (has the option map_entry): the field is a map field. */
  readonly mapEntry: boolean;
  /** The value names of an enum type (made on first use: only a field with a default asks). */
  readonly enumValues: () => ReadonlySet<string>;
}

/** What building a field's proto needs beyond the node: the registry given and the type URL resolver. */
export interface BuildContext {
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
export function mergeFeatures(outer: FeatureSet | undefined, inner: FeatureSet | undefined): FeatureSet | undefined {
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
export function messageProto(node: Node, syntax: FileSyntax, cut: boolean, ctx: BuildContext): DescriptorProto {
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
  const named = type.fields.map((f) => ({
    name: f.name,
    jsonName: f.jsonName !== "" ? f.jsonName : defaultJsonName(f.name),
  }));
  const fail = (j: number, member: "jsonName" | "name", detail: string) =>
    new WktJsonError(
      "duplicate-field",
      `${node.path}.fields[${j}].${member}`,
      typeTypeName,
      `${node.name}.${type.fields[j]!.name}: ${detail}`,
    );
  // The first field with a problem is reported (the later field of a clash); at one field, "@type" first, then
  // the clashes readers and writers refuse too (jsonNameClash), then protobuf-es's property names.
  const atType = named.findIndex((f) => f.jsonName === "@type");
  const clash = jsonNameClash(named);
  const defaults = new Map<string, number>();
  const sameDefault = named.findIndex((f, j) => {
    const d = defaultJsonName(f.name);
    if (defaults.has(d)) return true;
    defaults.set(d, j);
    return false;
  });
  const last = named.length;
  const [a, c, d] = [atType, clash?.index ?? -1, sameDefault].map((j) => (j < 0 ? last : j)) as [
    number,
    number,
    number,
  ];
  if (a < last && a <= c && a <= d) {
    throw fail(
      a,
      "jsonName",
      `the JSON name "@type" is the member that holds the type URL when the message is in an Any`,
    );
  }
  if (clash !== undefined && c <= d) {
    const jsonName = named[c]!.jsonName;
    const other = type.fields[clash.other]!;
    switch (clash.kind) {
      case "json":
        throw fail(
          c,
          "jsonName",
          `the JSON name ${JSON.stringify(jsonName)} is also the JSON name of field ${other.name}`,
        );
      case "json-proto":
        throw fail(
          c,
          "jsonName",
          `the JSON name ${JSON.stringify(jsonName)} is the proto name of field ${other.name}, which readers accept as well`,
        );
      case "proto":
        throw fail(c, "name", `the proto name is also that of field ${other.number}`);
      case "proto-json":
        throw fail(c, "name", `the proto name, which readers accept as well, is the JSON name of field ${other.name}`);
    }
  }
  if (d < last) {
    const first = type.fields[defaults.get(defaultJsonName(named[d]!.name))!]!;
    throw fail(
      d,
      "name",
      `the default JSON name ${JSON.stringify(defaultJsonName(named[d]!.name))} is also that of field ${first.name}, and protobuf-es names both fields' property so`,
    );
  }
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

export function enumProto(node: Node, known: Registry | undefined): EnumDescriptorProto {
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
