/**
 * JSON Schema (2020-12, or draft-07) of the proto3 JSON form of a message type, for OpenAPI documents, API
 * gateways, form builders and clients in other languages.
 *
 * Proto3 JSON mapping: "If a field has the default value it is omitted ... Parsers accept both the lowerCamelCase
 * JSON name and the original proto field name ... null is accepted for all field types and treated as the
 * default value"; 64-bit integers are written as decimal strings and read from numbers or strings; enums as
 * names, read from names or numbers; bytes as standard base64, read from standard or URL-safe base64 with or
 * without padding; Timestamp as RFC 3339 (`Z` on output, offsets on input), Duration as decimal seconds with
 * `s`, FieldMask as one string of lowerCamel paths, Struct and Value as any JSON, Any as an object with
 * `@type`.
 *
 * Two documents per type, as for every codec:
 *
 * - `io: "output"` (the default): the canonical JSON `toJson` writes, under the same write options
 *   (`useProtoFieldName`, `enumAsInteger`, `alwaysEmitImplicit`). Every output of `toJson` is valid against it.
 * - `io: "input"`: what `fromJson` accepts, both field names, numbers in strings, enum numbers, `null`.
 *   Every value `fromJson` accepts is valid against it; a value it refuses is invalid wherever JSON Schema can say
 *   why: a wrong JSON type, an unknown member, a field given under both names, two members of a oneof, a proto2
 *   `required` field (editions: LEGACY_REQUIRED) left out or `null`, at any depth (unless `allowPartial`, as the
 *   reader's option), an integer out of its 32-bit range, a malformed or impossible Timestamp (February 30
 *   included), Duration, FieldMask, base64 or number string, an enum name the enum lacks. What JSON Schema
 *   cannot say, the decoder still refuses: 64-bit ranges (bounded by digit counts here), lone surrogates,
 *   duplicate map keys in two spellings ("1" and "01"), nesting and size limits, the instant range of a Timestamp
 *   with an offset, the message types behind an Any's `@type` (and so their required fields). An Any of a
 *   well-known type (a fixed set) is checked: `if` its `@type` ends in `/google.protobuf.Duration` (any prefix),
 *   `then` its `value` is a Duration by that type's own entry, and nothing else stands beside it.
 *
 * From descriptors that carry source info (`buf build --include-source-info`, `protoc --include_source_info`),
 * each message's, field's and enum's proto comment is its `description`, an enum's with its values' comments
 * listed (option `descriptions: false` leaves them out). AIP-203 field behaviour in the descriptor's options:
 * OUTPUT_ONLY fields are `readOnly` and INPUT_ONLY ones `writeOnly`, in every document (see `create` for
 * REQUIRED).
 *
 * Each message and enum type is one entry of `$defs` (draft-07: `definitions`) under its full name, referenced
 * with `$ref`, so recursive types are finite and the document is linear in the number of types reachable.
 *
 * @module
 */
import {
  ScalarType,
  type DescEnum,
  type DescExtension,
  type DescField,
  type DescMessage,
  type JsonObject,
  type JsonValue,
  type Registry,
} from "@bufbuild/protobuf";
import {
  AnySchema,
  BoolValueSchema,
  BytesValueSchema,
  DoubleValueSchema,
  DurationSchema,
  EmptySchema,
  FieldMaskSchema,
  FloatValueSchema,
  Int32ValueSchema,
  Int64ValueSchema,
  isWrapperDesc,
  ListValueSchema,
  StringValueSchema,
  StructSchema,
  TimestampSchema,
  UInt32ValueSchema,
  UInt64ValueSchema,
  ValueSchema,
} from "@bufbuild/protobuf/wkt";
import { enumValueJsonName, enumValuesByName } from "../wkt/enum.js";
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { shownLiteral } from "../internal/not-finite.js";
import { setOwn } from "../internal/json-value.js";
import {
  anyTypeName,
  durationTypeName,
  emptyTypeName,
  fieldMaskTypeName,
  listValueTypeName,
  nullValueTypeName,
  structTypeName,
  timestampTypeName,
  valueTypeName,
} from "../internal/names.js";
import { nullIsValue } from "../internal/field-form.js";
import { checkSchema } from "../wkt/registry.js";
import { alwaysWritten, isRequiredField } from "../codec/to-json-plan.js";
import { checkFieldKeys, keysOfField } from "../internal/field-keys.js";
import { planOf, type FieldAccess } from "../wkt/field-access.js";
import {
  behavior,
  behaviorBelow,
  identifierBit,
  fieldIsInputOnly,
  outputOnlyBit,
  requiredBit,
  type BehaviorLists,
} from "../mask/field-behavior.js";
import { readCreateOptions } from "../mask/create.js";
import { commentOf } from "./json-schema-comments.js";
import {
  base64Input,
  base64Output,
  canonicalSigned,
  durationInput,
  durationOutput,
  fieldMaskPattern,
  float32Overflow,
  floatText,
  int32Max,
  int32Min,
  int32Text,
  int64Bound,
  int64Canonical,
  int64Text,
  keyInput,
  nonFinite,
  positiveUpTo,
  timestampInput,
  timestampOutput,
  typeUrlPattern,
  uint32Max,
  uint32Text,
  uint64Bound,
  uint64Canonical,
  uint64Text,
} from "./json-schema-patterns.js";

/** Options of {@link jsonSchema}. */
export interface JsonSchemaOptions {
  /**
   * `"output"` (default): the canonical JSON that `toJson` writes. `"input"`: everything `fromJson` accepts
   * (both field names, numbers in strings, enum numbers, `null` for a default value, Timestamps with offsets).
   */
  io?: "input" | "output";
  /** `"draft-2020-12"` (default; OpenAPI 3.1) or `"draft-07"` (`definitions` instead of `$defs`). */
  target?: "draft-2020-12" | "draft-07";
  /** Output: the proto field names (`optional_int32`) instead of the JSON names, as `toJson`'s option. */
  useProtoFieldName?: boolean;
  /** Output: enum values as numbers, as `toJson`'s option. */
  enumAsInteger?: boolean;
  /** Output: fields with implicit presence are always written (and so required), as `toJson`'s option. */
  alwaysEmitImplicit?: boolean;
  /** Input: members that name no field, and enum names the enum lacks, are allowed (`fromJson`'s option). */
  ignoreUnknownFields?: boolean;
  /**
   * Input: the reader runs with `allowPartial` (`fromJson`'s option), so a proto2 `required` field (editions:
   * LEGACY_REQUIRED) may be left out. By default the input schema lists each such field as required, under either
   * of its names, and not `null` (null is its default value: the field stays unset), as `fromJson` refuses JSON
   * without it (rule `required`). The output schema lists them whatever this says: `toJson` always writes them.
   */
  allowPartial?: boolean;
  /**
   * Input: the schema of a create request body (AIP-133): REQUIRED fields are `required`, OUTPUT_ONLY ones
   * `readOnly` (AIP-203, `google.api.field_behavior` in the descriptor's field options). Implies `io: "input"`.
   * A required field is required under either of its names, and not `null` (which is its default value); proto2
   * `required` fields are required too (unless `allowPartial`), as in every input schema. Field
   * behaviour belongs to a type, so every entry of the document is a create entry: to put a create schema beside
   * the plain input schema in one OpenAPI document, give it its own `nameSuffix` (such as `"Create"`).
   */
  create?: boolean;
  /**
   * Paths (proto names, from the root through singular message fields) of REQUIRED fields besides the
   * descriptor's, as {@link createFromJson} takes them: `required` in a create schema (`create: true`). A path
   * names a field at one place: the message types on a path get entries of their own for it (see `outputOnly`).
   */
  required?: readonly string[];
  /**
   * Paths of OUTPUT_ONLY fields besides the descriptor's, as {@link createFromJson} takes them: `readOnly`. Each
   * message type on a path of `required` or `outputOnly` has an entry of its own for that place, named
   * `${typeName}-at.${path}` (the root's: `${typeName}-at`), since the same type reached elsewhere (at another
   * path, or in a list or map, where a path does not reach) has no such behaviour.
   */
  outputOnly?: readonly string[];
  /** Extensions of the registry become members `[full.name]` of the messages they extend. */
  registry?: Registry;
  /**
   * Where the `$ref`s point: `"#/$defs/"` (default; draft-07 `"#/definitions/"`), or where the caller puts the
   * entries, such as `"#/components/schemas/"` for an OpenAPI document. Must start with `#` and end with `/`.
   */
  refPrefix?: string;
  /**
   * Appended to every entry's name (and its `$ref`s), so that the input and output schemas of one type can sit
   * side by side among an OpenAPI document's components: `{ io: "input", nameSuffix: "Input" }`. Default `""`.
   */
  nameSuffix?: string;
  /**
   * The proto comments of messages, fields, enums and enum values as `description`, where the descriptors carry
   * source info (`buf build --include-source-info`, `protoc --include_source_info`): a declaration's leading
   * comment, else its trailing one. Default `true`; `false` leaves them out (a smaller document, or comments
   * that are not for the API's readers).
   */
  descriptions?: boolean;
}

const drafts = {
  "draft-2020-12": { uri: "https://json-schema.org/draft/2020-12/schema", defs: "$defs" },
  "draft-07": { uri: "http://json-schema.org/draft-07/schema#", defs: "definitions" },
} as const;

/**
 * Returns the JSON Schema of the proto3 JSON form of a message type: its canonical output (default), or with
 * `{ io: "input" }` everything the decoder accepts. The root `$ref`s the type's entry in `$defs`, where every
 * message and enum type it reaches has one entry under its full name (and, with the `required` and `outputOnly`
 * path lists, one for each place on a path: `${typeName}-at.${path}`); an OpenAPI document takes the entries
 * as its components with `refPrefix: "#/components/schemas/"` (and a `nameSuffix` for the input schema).
 * The input schema lists proto2 `required` fields as required unless `allowPartial`, as `fromJson` reads.
 * Proto comments become `description`s where the descriptors carry source info; INPUT_ONLY fields are
 * `writeOnly`, OUTPUT_ONLY ones `readOnly`.
 *
 * @throws {WktJsonError} rule `json-type` if `schema` is not a message descriptor; `range` for an option
 *   that is not one of its documented values; for a `required` or `outputOnly` path that names no field, the
 *   error `createFromJson` gives for it (`mask-path`, `range`).
 * @example
 * const doc = jsonSchema(TimestampSchema);
 * doc.$ref; //=> "#/$defs/google.protobuf.Timestamp"
 * (doc.$defs as JsonObject)["google.protobuf.Timestamp"]; //=> { type: "string", format: "date-time", pattern: "^...Z$" }
 * jsonSchema(BookSchema, { io: "input" }); // what fromJson(BookSchema, json) accepts
 * jsonSchema(BookSchema, { io: "input", allowPartial: true }); // a PATCH body: may leave proto2 required out
 * jsonSchema(BookSchema, { create: true, required: ["author.given_name"] }); // as createFromJson reads it
 */
export function jsonSchema(schema: DescMessage, options?: JsonSchemaOptions): JsonObject {
  checkSchema(schema);
  const o = readOptions(options);
  const b = new Builder(o, pathLists(schema, options));
  // A wrapper at the root reads null as its default value (in a list, null is an error).
  const ref = b.refMessage(schema);
  const root = o.input && isWrapperDesc(schema) ? orNull(ref) : ref;
  b.drain();
  const draft = drafts[o.target];
  const out: JsonObject = { $schema: draft.uri };
  // draft-07 ignores the siblings of a $ref: the root refers through allOf.
  if (o.target === "draft-07" || root.$ref === undefined) out.allOf = [root];
  else out.$ref = root.$ref;
  out[draft.defs] = b.defs;
  return out;
}

interface Opts {
  input: boolean;
  create: boolean;
  target: "draft-2020-12" | "draft-07";
  protoNames: boolean;
  enumAsInteger: boolean;
  alwaysEmitImplicit: boolean;
  ignoreUnknownFields: boolean;
  /** Input without allowPartial: proto2 required fields are required. */
  readsRequired: boolean;
  registry: Registry | undefined;
  refPrefix: string;
  nameSuffix: string;
  descriptions: boolean;
}

function readOptions(options: JsonSchemaOptions | undefined): Opts {
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw optionError("options", options, "an object");
  }
  const create = options?.create;
  if (create !== undefined && typeof create !== "boolean") throw optionError("create", create, "a boolean");
  const io = options?.io ?? (create === true ? "input" : "output");
  if (io !== "input" && io !== "output") throw optionError("io", io, `"input" or "output"`);
  if (create === true && io !== "input") throw optionError("io", io, `"input" with create: true (a request body)`);
  const target = options?.target ?? "draft-2020-12";
  if (target !== "draft-2020-12" && target !== "draft-07") {
    throw optionError("target", target, `"draft-2020-12" or "draft-07"`);
  }
  const flag = (
    name:
      | "useProtoFieldName"
      | "enumAsInteger"
      | "alwaysEmitImplicit"
      | "ignoreUnknownFields"
      | "allowPartial"
      | "descriptions",
    fallback = false,
  ): boolean => {
    const v = options?.[name];
    if (v !== undefined && typeof v !== "boolean") throw optionError(name, v, "a boolean");
    return v ?? fallback;
  };
  const allowPartial = flag("allowPartial");
  const registry = options?.registry;
  if (
    registry !== undefined &&
    (typeof registry !== "object" ||
      registry === null ||
      typeof (registry as { [Symbol.iterator]?: unknown })[Symbol.iterator] !== "function")
  ) {
    throw optionError("registry", registry, "a Registry of @bufbuild/protobuf");
  }
  const text = (
    name: "refPrefix" | "nameSuffix",
    fallback: string,
    ok: (v: string) => boolean,
    expected: string,
  ): string => {
    const v = options?.[name];
    if (v === undefined) return fallback;
    if (typeof v !== "string" || !ok(v)) throw optionError(name, v, expected);
    return v;
  };
  // A prefix or suffix is part of a JSON pointer in a URI fragment: characters that would need escaping are refused.
  const safe = (v: string): boolean => /^[A-Za-z0-9._$/#-]*$/.test(v);
  const refPrefix = text(
    "refPrefix",
    `#/${drafts[target].defs}/`,
    (v) => v.startsWith("#") && v.endsWith("/") && safe(v),
    `a JSON pointer fragment such as "#/components/schemas/"`,
  );
  const nameSuffix = text("nameSuffix", "", (v) => safe(v) && !v.includes("/"), "letters, digits, '.', '_' or '-'");
  return {
    input: io === "input",
    create: create === true,
    target,
    refPrefix,
    nameSuffix,
    protoNames: flag("useProtoFieldName"),
    enumAsInteger: flag("enumAsInteger"),
    alwaysEmitImplicit: flag("alwaysEmitImplicit"),
    ignoreUnknownFields: flag("ignoreUnknownFields"),
    readsRequired: io === "input" && !allowPartial,
    registry,
    descriptions: flag("descriptions", true),
  };
}

/**
 * The `required` and `outputOnly` path lists, checked as createFromJson checks them, as the lists' tree; undefined
 * without entries.
 */
function pathLists(schema: DescMessage, options: JsonSchemaOptions | undefined): BehaviorLists | undefined {
  const required = options?.required;
  const outputOnly = options?.outputOnly;
  if (required === undefined && outputOnly === undefined) return undefined;
  const given: { required?: readonly string[]; outputOnly?: readonly string[] } = {};
  if (required !== undefined) given.required = required;
  if (outputOnly !== undefined) given.outputOnly = outputOnly;
  const lists = readCreateOptions(schema, given).lists;
  return lists.children === undefined ? undefined : lists;
}

function optionError(name: string, value: unknown, expected: string): WktJsonError {
  const got = typeof value === "string" ? JSON.stringify(shownLiteral(value)) : describe(value);
  return new WktJsonError("range", "$", "options", `${name} must be ${expected}, got ${got}`);
}

/**
 * An entry of the document: a type, and for a message at a place the path lists name, their node there and the
 * path (`.author.address`), which names the entry.
 */
interface Entry {
  desc: DescMessage | DescEnum;
  lists: BehaviorLists | undefined;
  at: string;
  name: string;
}

class Builder {
  readonly defs: JsonObject = {};
  private readonly queue: Entry[] = [];
  private readonly seen = new Set<string>();
  private extensionsByType: Map<string, DescExtension[]> | undefined;

  constructor(
    private readonly o: Opts,
    private readonly lists: BehaviorLists | undefined,
  ) {}

  /**
   * The reference to a type's entry; with `lists`, to its entry at path `at` (`${typeName}-at${at}`: type names
   * hold no "-", field names no "." or "-", so no two places share a name).
   */
  private ref(desc: DescMessage | DescEnum, lists?: BehaviorLists, at = ""): JsonObject {
    const name = lists === undefined ? desc.typeName : `${desc.typeName}-at${at}`;
    if (!this.seen.has(name)) {
      this.seen.add(name);
      this.queue.push({ desc, lists, at, name });
    }
    // Type names hold no "~" or "/", which a JSON pointer would escape.
    return { $ref: this.o.refPrefix + name + this.o.nameSuffix };
  }

  refMessage(desc: DescMessage): JsonObject {
    return this.ref(desc, this.lists);
  }

  drain(): void {
    for (let i = 0; i < this.queue.length; i++) {
      const { desc, lists, at, name } = this.queue[i]!;
      setOwn(
        this.defs,
        name + this.o.nameSuffix,
        desc.kind === "enum" ? this.enumDef(desc) : this.messageDef(desc, lists, at),
      );
    }
  }

  /** A message type's entry; `lists` its node of the path lists (undefined: none below), at path `at`. */
  private messageDef(desc: DescMessage, lists: BehaviorLists | undefined, at: string): JsonObject {
    const wkt = this.wktDef(desc);
    if (wkt !== undefined) return wkt;
    checkFieldKeys(desc); // a type whose JSON names clash has no JSON form, as the codec refuses it
    const o = this.o;
    const properties: JsonObject = {};
    const required: string[] = [];
    const dependent: JsonObject = {};
    const oneofs = new Map<string, JsonValue[]>();
    // Schemas every value must also match: a required field given under either name, each oneof.
    const constraints: JsonValue[] = [];
    const members: [DescField | DescExtension, string[]][] = [];
    for (const field of desc.fields) members.push([field, this.names(field)]);
    for (const ext of this.extensionsOf(desc)) members.push([ext, [`[${ext.typeName}]`]]);
    const plan = planOf(desc);
    for (const [field, names] of members) {
      // AIP-203 field behaviour, from the field's options (extensions: none).
      const fa = field.kind === "field" ? plan.byNumber.get(field.number) : undefined;
      const bits = fa === undefined ? 0 : behavior(lists, fa);
      // A singular message field the path lists go into: its type's entry at this place.
      const below = fa === undefined || field.fieldKind !== "message" ? undefined : behaviorBelow(lists, fa);
      const place = below?.children === undefined ? undefined : { lists: below, at: `${at}.${field.name}` };
      // In a create body a REQUIRED field must be provided (AIP-203), and in any input a proto2 required one (the
      // reader refuses JSON without it, unless allowPartial): null is its default value, so not null.
      const behaviorRequired = o.create && (bits & requiredBit) !== 0;
      const mustGive = behaviorRequired || (o.readsRequired && field.kind === "field" && isRequiredField(field));
      let s = mustGive ? this.givenSchema(field, place) : this.fieldSchema(field, false, place);
      if (behaviorRequired && fa !== undefined) s = nonEmpty(fa, s);
      // OUTPUT_ONLY: "provided in responses", ignored in requests; OpenAPI reads readOnly so. A create body reads
      // the IDENTIFIER so too (AIP-203: "not accepted as input (i.e. OUTPUT_ONLY) in the context of a create
      // method"). INPUT_ONLY: "provided in requests, and ... not included in output": writeOnly, in every
      // document; the output schema keeps the member, as toJson writes a field that is set (clearing it is the
      // service's part), and OpenAPI leaves writeOnly members out of the responses it documents.
      const marks: JsonObject = {};
      const description = this.description(field);
      if (description !== undefined) marks.description = description;
      if ((bits & (o.create ? outputOnlyBit | identifierBit : outputOnlyBit)) !== 0) marks.readOnly = true;
      if (field.kind === "field" && fieldIsInputOnly(field)) marks.writeOnly = true;
      s = annotate(s, marks, o.target);
      for (const name of names) setOwn(properties, name, s);
      if (names.length === 2) setOwn(dependent, names[0]!, { not: present(names[1]!, {}) });
      if (!o.input && alwaysWritten(field, o.alwaysEmitImplicit)) required.push(names[0]!);
      if (mustGive) {
        if (names.length === 1) required.push(names[0]!);
        else constraints.push({ anyOf: names.map((n) => present(n, {})) });
      }
      const oneof = field.kind === "field" ? field.oneof : undefined;
      if (oneof !== undefined) {
        let list = oneofs.get(oneof.name);
        if (list === undefined) oneofs.set(oneof.name, (list = []));
        const sets = names.map((n) => this.setSchema(field, n));
        list.push(sets.length === 1 ? sets[0]! : { anyOf: sets });
      }
    }
    const def: JsonObject = { type: "object", properties };
    const description = this.description(desc);
    if (description !== undefined) def.description = description;
    if (!(o.input && o.ignoreUnknownFields)) def.additionalProperties = false;
    if (required.length > 0) def.required = required;
    if (Object.keys(dependent).length > 0) {
      if (o.target === "draft-07") def.dependencies = dependent;
      else def.dependentSchemas = dependent;
    }
    // At most one member of each oneof set: exactly one of "none is set", "the first is set", ... holds.
    for (const sets of oneofs.values()) {
      if (sets.length > 1) constraints.push({ oneOf: [{ not: { anyOf: sets } }, ...sets] });
    }
    if (constraints.length === 1) Object.assign(def, constraints[0]);
    else if (constraints.length > 1) def.allOf = constraints;
    return def;
  }

  /** The proto comment of a message or field, unless the option turns them off. */
  private description(desc: DescMessage | DescField | DescExtension): string | undefined {
    return this.o.descriptions ? commentOf(desc) : undefined;
  }

  /** The member names of a field: the one written, or on input the JSON name and the proto name. */
  private names(field: DescField): string[] {
    if (!this.o.input) return [this.o.protoNames ? field.name : field.jsonName];
    return keysOfField(field);
  }

  /** What makes member `name` set a oneof: present, and not null (unless null is its value). */
  private setSchema(field: DescField | DescExtension, name: string): JsonObject {
    if (!this.o.input || nullIsValue(field)) return present(name, {});
    // Under ignoreUnknownFields an unknown enum value is skipped and sets nothing.
    const known: JsonObject =
      field.fieldKind === "enum" && this.o.ignoreUnknownFields
        ? { allOf: [{ not: { type: "null" } }, this.enumKnown(field.enum)] }
        : { not: { type: "null" } };
    return present(name, known);
  }

  /**
   * The value of a field that must be given (a proto2 required field, or REQUIRED in a create body): what sets
   * it. Not `null`, which leaves it unset (unless null is its value: a Value, a NullValue); under
   * ignoreUnknownFields an enum name the enum lacks is skipped, and leaves it unset too.
   */
  private givenSchema(field: DescField | DescExtension, place?: Place): JsonObject {
    if (field.fieldKind === "enum" && this.o.ignoreUnknownFields && !nullIsValue(field)) {
      return this.enumKnown(field.enum);
    }
    return this.fieldSchema(field, true, place);
  }

  /**
   * The schema of a field's value; on input `null` too (its default value), unless `notNull`. A singular message
   * field at a `place` the path lists go into refers to its type's entry there.
   */
  private fieldSchema(field: DescField | DescExtension, notNull = false, place?: Place): JsonObject {
    const input = this.o.input && !notNull;
    const nullable = nullIsValue(field);
    switch (field.fieldKind) {
      case "list": {
        const items =
          field.listKind === "scalar"
            ? this.scalar(field.scalar)
            : this.ref(field.listKind === "enum" ? field.enum : field.message);
        const s: JsonObject = { type: "array", items };
        return input ? orNull(s) : s;
      }
      case "map": {
        const value =
          field.mapKind === "scalar"
            ? this.scalar(field.scalar)
            : this.ref(field.mapKind === "enum" ? field.enum : field.message);
        const s: JsonObject = { type: "object", additionalProperties: value };
        const keys = this.mapKey(field.mapKey);
        if (keys !== undefined) s.propertyNames = keys;
        return input ? orNull(s) : s;
      }
      case "scalar": {
        const s = this.scalar(field.scalar);
        return input ? orNull(s) : s;
      }
      case "enum": {
        const s = this.ref(field.enum);
        return input && !nullable ? orNull(s) : s;
      }
      case "message": {
        const s = place === undefined ? this.ref(field.message) : this.ref(field.message, place.lists, place.at);
        return input && !nullable ? orNull(s) : s;
      }
    }
  }

  private scalar(t: ScalarType): JsonObject {
    const input = this.o.input;
    switch (t) {
      case ScalarType.STRING:
        return { type: "string" };
      case ScalarType.BOOL:
        return { type: "boolean" };
      case ScalarType.INT32:
      case ScalarType.SINT32:
      case ScalarType.SFIXED32:
        return input
          ? { type: ["integer", "string"], minimum: int32Min, maximum: int32Max, pattern: int32Text }
          : { type: "integer", minimum: int32Min, maximum: int32Max };
      case ScalarType.UINT32:
      case ScalarType.FIXED32:
        return input
          ? { type: ["integer", "string"], minimum: 0, maximum: uint32Max, pattern: uint32Text }
          : { type: "integer", minimum: 0, maximum: uint32Max };
      case ScalarType.INT64:
      case ScalarType.SINT64:
      case ScalarType.SFIXED64:
        // JSON.parse rounds a number beyond 2^53; the bounds are the doubles the range's ends round to, so
        // that every number in range passes (and 2^63 + 1, which rounds to 2^63, too: the decoder refuses it).
        return input
          ? { type: ["integer", "string"], minimum: -int64Bound, maximum: int64Bound, pattern: int64Text }
          : { type: "string", pattern: int64Canonical };
      case ScalarType.UINT64:
      case ScalarType.FIXED64:
        return input
          ? { type: ["integer", "string"], minimum: 0, maximum: uint64Bound, pattern: uint64Text }
          : { type: "string", pattern: uint64Canonical };
      case ScalarType.FLOAT:
        // toJson writes a float's shortest text, which can be just above float32's largest value as a double.
        return {
          type: ["number", "string"],
          exclusiveMinimum: -float32Overflow,
          exclusiveMaximum: float32Overflow,
          pattern: input ? floatText : nonFinite,
        };
      case ScalarType.DOUBLE:
        return { type: ["number", "string"], pattern: input ? floatText : nonFinite };
      case ScalarType.BYTES:
        return { type: "string", contentEncoding: "base64", pattern: input ? base64Input : base64Output };
    }
  }

  private mapKey(t: ScalarType): JsonObject | undefined {
    const input = this.o.input;
    const range = (max: string, minMagnitude: string): JsonObject => ({
      pattern: input
        ? keyInput(max, minMagnitude)
        : minMagnitude === ""
          ? `^(0|${positiveUpTo(max)})$`
          : `^(${canonicalSigned(max, minMagnitude)})$`,
    });
    switch (t) {
      case ScalarType.STRING:
        return undefined;
      case ScalarType.BOOL:
        return { enum: ["true", "false"] };
      case ScalarType.INT32:
      case ScalarType.SINT32:
      case ScalarType.SFIXED32:
        return range("2147483647", "2147483648");
      case ScalarType.UINT32:
      case ScalarType.FIXED32:
        return range("4294967295", "");
      case ScalarType.UINT64:
      case ScalarType.FIXED64:
        return range("18446744073709551615", "");
      default:
        return range("9223372036854775807", "9223372036854775808");
    }
  }

  private enumDef(desc: DescEnum): JsonObject {
    const def = this.enumValues(desc);
    if (!this.o.descriptions || desc.typeName === nullValueTypeName) return def;
    // The values' comments as a list after the enum's own, as protoc-gen-openapiv2 writes them: JSON Schema has
    // no place for a description per value of an `enum`.
    const lines: string[] = [];
    for (const v of desc.values) {
      const text = commentOf(v);
      if (text !== undefined) lines.push(`- ${enumValueJsonName(v)}: ${text.replace(/\n/g, "\n  ")}`);
    }
    const own = commentOf(desc);
    const text = lines.length === 0 ? own : (own === undefined ? "" : own + "\n\n") + lines.join("\n");
    return text === undefined ? def : annotate(def, { description: text }, this.o.target);
  }

  private enumValues(desc: DescEnum): JsonObject {
    const o = this.o;
    if (desc.typeName === nullValueTypeName) return o.input ? { enum: [null, "NULL_VALUE", 0] } : { type: "null" };
    enumValuesByName(desc); // refuses an enum whose value names and JSON names clash, as protoc does
    if (!o.input) {
      // An enum holds numbers it does not declare (read from binary: an open enum's field, a closed enum's
      // list or map), which toJson writes as numbers.
      if (o.enumAsInteger) return int32();
      return { anyOf: [{ enum: desc.values.map((v) => enumValueJsonName(v)) }, int32()] };
    }
    if (o.ignoreUnknownFields) return { type: ["string", "integer"], minimum: int32Min, maximum: int32Max };
    return this.enumKnown(desc);
  }

  /** The enum values the decoder reads as a value: names (JSON and proto), and any int32, open or closed. */
  private enumKnown(desc: DescEnum): JsonObject {
    return { anyOf: [{ enum: [...enumValuesByName(desc).keys()] }, int32()] };
  }

  private wktDef(desc: DescMessage): JsonObject | undefined {
    const input = this.o.input;
    switch (desc.typeName) {
      case timestampTypeName:
        return { type: "string", format: "date-time", pattern: input ? timestampInput : timestampOutput };
      case durationTypeName:
        return { type: "string", pattern: input ? durationInput : durationOutput };
      case fieldMaskTypeName:
        return { type: "string", pattern: fieldMaskPattern };
      case structTypeName:
        return { type: "object" };
      case valueTypeName:
        return {};
      case listValueTypeName:
        return { type: "array" };
      case emptyTypeName:
        return input && this.o.ignoreUnknownFields ? { type: "object" } : { type: "object", maxProperties: 0 };
      case anyTypeName:
        // {} is the empty Any; any other Any names its type, and holds that type's members (or "value").
        return {
          type: "object",
          properties: { "@type": { type: "string", pattern: typeUrlPattern } },
          anyOf: [{ maxProperties: 0 }, present("@type", {})],
          allOf: this.anyOfWellKnown(),
        };
    }
    if (isWrapperDesc(desc)) return this.scalar(desc.fields[0]!.scalar!);
    return undefined;
  }

  /**
   * The checks of an Any whose `@type` names a well-known type (a fixed set, whatever the registry): if the type
   * URL ends in `/google.protobuf.Duration` (any prefix before the last `/`), then `value` holds a Duration as
   * the type's own entry states it, and nothing else stands beside it. Empty is written with `@type` alone, or
   * read in the legacy form `"value": {}`; under ignoreUnknownFields its members are skipped, and it is not
   * checked.
   */
  private anyOfWellKnown(): JsonValue[] {
    const checks: JsonValue[] = [];
    for (const desc of anyWellKnown) {
      const empty = desc.typeName === emptyTypeName;
      if (empty && this.o.input && this.o.ignoreUnknownFields) continue;
      const then: JsonObject = {
        properties: { "@type": {}, value: this.ref(desc) },
        additionalProperties: false,
      };
      if (!empty) then.required = ["value"];
      const url = present("@type", { type: "string", pattern: `/${desc.typeName.replace(/\./g, "\\.")}$` });
      checks.push({ if: url, then });
    }
    return checks;
  }

  private extensionsOf(desc: DescMessage): readonly DescExtension[] {
    const registry = this.o.registry;
    if (registry === undefined) return [];
    if (this.extensionsByType === undefined) {
      const byType = new Map<string, DescExtension[]>();
      for (const d of registry as Iterable<{ kind: string }>) {
        if (d.kind !== "extension") continue;
        const ext = d as DescExtension;
        let list = byType.get(ext.extendee.typeName);
        if (list === undefined) byType.set(ext.extendee.typeName, (list = []));
        list.push(ext);
      }
      this.extensionsByType = byType;
    }
    return this.extensionsByType.get(desc.typeName) ?? [];
  }
}

/** Where a singular message field's type is reached, for the path lists: their node there, and the path. */
interface Place {
  lists: BehaviorLists;
  at: string;
}

/** The well-known types, whose JSON in an Any the Any's entry checks ({@link Builder.anyOfWellKnown}). */
const anyWellKnown: readonly DescMessage[] = [
  AnySchema,
  TimestampSchema,
  DurationSchema,
  FieldMaskSchema,
  StructSchema,
  ValueSchema,
  ListValueSchema,
  EmptySchema,
  DoubleValueSchema,
  FloatValueSchema,
  Int64ValueSchema,
  UInt64ValueSchema,
  Int32ValueSchema,
  UInt32ValueSchema,
  BoolValueSchema,
  StringValueSchema,
  BytesValueSchema,
];

/**
 * The schema of a REQUIRED field's value in a create body, "set to a non-empty value" (AIP-203) where JSON
 * Schema states it exactly: a list with an item, a map with an entry, a string or bytes field of implicit
 * presence that is not `""`. (A number, enum or bool at its default has many spellings, and a message is
 * empty when all its fields are: those the create path checks.)
 */
function nonEmpty(fa: FieldAccess, s: JsonObject): JsonObject {
  if (fa.oneof !== undefined || fa.explicit) return s;
  switch (fa.kind) {
    case "list":
      return { ...s, minItems: 1 };
    case "map":
      return { ...s, minProperties: 1 };
    case "scalar":
      return fa.scalar === ScalarType.STRING || fa.scalar === ScalarType.BYTES ? { ...s, minLength: 1 } : s;
  }
  return s;
}

/** Member `name` is present and its value valid against `value` (`properties` beside `required`, as ajv's strict mode asks). */
function present(name: string, value: JsonObject): JsonObject {
  const properties: JsonObject = {};
  setOwn(properties, name, value);
  return { required: [name], properties };
}

function int32(): JsonObject {
  return { type: "integer", minimum: int32Min, maximum: int32Max };
}

/**
 * `s` with the annotations `marks` (description, readOnly, writeOnly) beside it: draft-07 ignores the siblings
 * of a `$ref`, so there they go beside an `allOf` of it.
 */
function annotate(s: JsonObject, marks: JsonObject, target: Opts["target"]): JsonObject {
  if (Object.keys(marks).length === 0) return s;
  return target === "draft-07" && s.$ref !== undefined ? { allOf: [s], ...marks } : { ...s, ...marks };
}

/** A schema that also allows null: "null" added to its type list, or an anyOf. */
function orNull(s: JsonObject): JsonObject {
  const t = s.type;
  if (typeof t === "string") return { ...s, type: [t, "null"] };
  if (Array.isArray(t)) return { ...s, type: [...t, "null"] };
  return { anyOf: [{ type: "null" }, s] };
}
