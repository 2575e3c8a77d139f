/**
 * Type URLs and the registry that resolves them. Spec rule 2: "Any.type_url with scheme http, https or none:
 * no scheme means https; the last path segment is the fully qualified type name ... Other schemes have
 * implementation-specific meaning." This library gives other schemes no meaning and rejects them.
 *
 * The codec's `registry` option takes a `@bufbuild/protobuf` `Registry`; every well-known type resolves
 * without one.
 *
 * @module
 */
import {
  createRegistry,
  ScalarType,
  type DescEnum,
  type DescField,
  type DescFile,
  type DescMessage,
  type Registry,
} from "@bufbuild/protobuf";
import {
  file_google_protobuf_any,
  file_google_protobuf_api,
  file_google_protobuf_duration,
  file_google_protobuf_empty,
  file_google_protobuf_field_mask,
  file_google_protobuf_source_context,
  file_google_protobuf_struct,
  file_google_protobuf_timestamp,
  file_google_protobuf_type,
  file_google_protobuf_wrappers,
} from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import {
  anyTypeName,
  boolValueTypeName,
  bytesValueTypeName,
  doubleValueTypeName,
  durationTypeName,
  emptyTypeName,
  fieldMaskTypeName,
  floatValueTypeName,
  int32ValueTypeName,
  int64ValueTypeName,
  listValueTypeName,
  nullValueTypeName,
  stringValueTypeName,
  structTypeName,
  timestampTypeName,
  uint32ValueTypeName,
  uint64ValueTypeName,
  valueTypeName,
} from "../internal/names.js";
import { isDigit } from "../internal/scan.js";

/** The parts of a type URL. */
export interface TypeUrlParts {
  /** `"https"`, `"http"`, or `""` when the URL has none (which means https). */
  readonly scheme: "" | "http" | "https";
  /** Everything between the scheme and the type name, such as `type.googleapis.com` or `example.com/types`. */
  readonly prefix: string;
  /** The fully-qualified type name, the last path segment: `google.protobuf.Duration`. */
  readonly typeName: string;
}

/** The default host of packed messages, as protobuf's own libraries use it. */
export const typeUrlPrefixDefault = "type.googleapis.com";

/**
 * Splits a type URL into scheme, prefix and type name, checking the type name is a valid fully-qualified
 * protobuf name.
 *
 * @throws {WktJsonError} rule `type-url` for an empty URL, a URL without `/`, a scheme other than http or
 *   https, a URL ending in `/`, or a last segment that is not a fully-qualified name; `json-type` for a URL
 *   that is not a string.
 * @example
 * typeUrlParse("type.googleapis.com/google.protobuf.Duration");
 * //=> { scheme: "", prefix: "type.googleapis.com", typeName: "google.protobuf.Duration" }
 * typeUrlParse("https://example.com/types/acme.v1.Flow").typeName; //=> "acme.v1.Flow"
 */
export function typeUrlParse(url: string): TypeUrlParts {
  if (typeof url !== "string") {
    throw new WktJsonError("json-type", "$", anyTypeName, `a type URL must be a string, got ${describe(url)}`);
  }
  const fail = (detail: string): never => {
    throw new WktJsonError("type-url", "$", anyTypeName, `type URL ${JSON.stringify(url)}: ${detail}`);
  };
  if (url.length === 0) fail("is empty");
  let scheme: TypeUrlParts["scheme"] = "";
  let rest = url;
  const sep = url.indexOf("://");
  if (sep >= 0) {
    const s = url.slice(0, sep).toLowerCase();
    if (s !== "http" && s !== "https") fail(`scheme ${JSON.stringify(s)} is not http or https`);
    scheme = s as "http" | "https";
    rest = url.slice(sep + 3);
  }
  const slash = rest.lastIndexOf("/");
  // any.proto: "This string must contain at least one "/" character."
  if (slash < 0) fail('has no "/": the form is <host>/<fully.qualified.Name>');
  const typeName = rest.slice(slash + 1);
  if (typeName.length === 0) fail('ends in "/" with no type name');
  if (!isFullName(typeName)) fail(`${JSON.stringify(typeName)} is not a fully-qualified type name`);
  return { scheme, prefix: rest.slice(0, slash), typeName };
}

/**
 * Builds the type URL of a message type: `<prefix>/<type name>`.
 *
 * @throws {WktJsonError} rule `json-type` when `schema` is neither a message descriptor nor a string, or
 *   `prefix` is not a string.
 * @example
 * typeUrlFor(DurationSchema); //=> "type.googleapis.com/google.protobuf.Duration"
 * typeUrlFor(DurationSchema, "example.com/types/"); //=> "example.com/types/google.protobuf.Duration"
 */
export function typeUrlFor(schema: DescMessage | string, prefix: string = typeUrlPrefixDefault): string {
  const name = typeof schema === "string" ? schema : checkSchema(schema).typeName;
  if (typeof prefix !== "string") {
    throw new WktJsonError(
      "json-type",
      "$",
      anyTypeName,
      `a type URL prefix must be a string, got ${describe(prefix)}`,
    );
  }
  return prefix.endsWith("/") ? prefix + name : `${prefix}/${name}`;
}

/** `ident(.ident)*` with `ident = [A-Za-z_][A-Za-z0-9_]*`. */
function isFullName(s: string): boolean {
  let start = true;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 46) {
      if (start) return false;
      start = true;
      continue;
    }
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
    if (!letter && (start || !isDigit(c))) return false;
    start = false;
  }
  return !start;
}

/** @internal The files of the well-known types of the spec's table, as `@bufbuild/protobuf/wkt` ships them. */
export const wktFiles: readonly DescFile[] = [
  file_google_protobuf_any,
  file_google_protobuf_api,
  file_google_protobuf_duration,
  file_google_protobuf_empty,
  file_google_protobuf_field_mask,
  file_google_protobuf_source_context,
  file_google_protobuf_struct,
  file_google_protobuf_timestamp,
  file_google_protobuf_type,
  file_google_protobuf_wrappers,
];

/** Every well-known type (the files of the spec's table): always resolvable, with or without a user registry. */
// The files are spelled out rather than spread from wktFiles: a spread is code a bundler must keep, where a
// pure call with plain arguments is dropped, with the ten files, when nothing uses it.
export const wktRegistry: Registry = /* @__PURE__ */ createRegistry(
  file_google_protobuf_any,
  file_google_protobuf_api,
  file_google_protobuf_duration,
  file_google_protobuf_empty,
  file_google_protobuf_field_mask,
  file_google_protobuf_source_context,
  file_google_protobuf_struct,
  file_google_protobuf_timestamp,
  file_google_protobuf_type,
  file_google_protobuf_wrappers,
);

/**
 * @internal The well-known types the codec gives a form of their own, found by their full name (the JSON form
 * of the spec's table, and the binary fast paths): a descriptor of one of these names must be the built-in
 * type, field for field, or the codec would read and write it in a form its fields do not hold.
 */
export const wktOwnForm: readonly string[] = [
  anyTypeName,
  durationTypeName,
  emptyTypeName,
  fieldMaskTypeName,
  listValueTypeName,
  nullValueTypeName,
  structTypeName,
  timestampTypeName,
  valueTypeName,
  boolValueTypeName,
  bytesValueTypeName,
  doubleValueTypeName,
  floatValueTypeName,
  int32ValueTypeName,
  int64ValueTypeName,
  stringValueTypeName,
  uint32ValueTypeName,
  uint64ValueTypeName,
];

/** A field's type as a .proto file spells it: `string`, `repeated google.protobuf.Value`, `map<string, ...>`. */
function typeText(f: DescField): string {
  const scalar = (t: number | undefined) => (t === undefined ? "" : (ScalarType[t] ?? String(t)).toLowerCase());
  switch (f.fieldKind) {
    case "scalar":
      return scalar(f.scalar);
    case "enum":
      return f.enum.typeName;
    case "message":
      return f.message.typeName;
    case "list":
      return `repeated ${f.listKind === "scalar" ? scalar(f.scalar) : (f.message ?? f.enum)!.typeName}`;
    case "map":
      return `map<${scalar(f.mapKey)}, ${f.mapKind === "scalar" ? scalar(f.scalar) : (f.message ?? f.enum)!.typeName}>`;
  }
}

/** What of a field decides its JSON and binary forms, by what a person would call it. */
function fieldShape(f: DescField): Record<string, string> {
  return {
    name: f.name,
    "JSON name": f.jsonName,
    type: typeText(f),
    oneof: f.oneof?.name ?? "none",
    presence: String(f.presence),
    packed: f.fieldKind === "list" ? String(f.packed) : "n/a",
    encoding: (f as { delimitedEncoding?: boolean }).delimitedEncoding === true ? "delimited" : "length-prefixed",
  };
}

/** How field `f` differs from the built-in field `b` of the same number, or undefined. */
function fieldDifference(f: DescField, b: DescField): string | undefined {
  const mine = fieldShape(f);
  const theirs = fieldShape(b);
  for (const key of Object.keys(theirs)) {
    if (mine[key] !== theirs[key]) {
      return `field ${b.number} has ${key} ${JSON.stringify(mine[key])}, the built-in's ${JSON.stringify(theirs[key])}`;
    }
  }
  return undefined;
}

/**
 * @internal How a descriptor of one of the well-known types with a form of their own ({@link wktOwnForm})
 * differs from the built-in one, or undefined when it is the same in every field (and, for NullValue, every
 * value) or is no such type. A descriptor set compiled from any protobuf release holds the same fields; one
 * that redefines them (a `google.protobuf.Struct` with other fields) would be read and written as a Struct
 * all the same, and its binary form would be garbage (`"[object Object]"`).
 *
 * @example
 * wktRedefinition(StructSchema); //=> undefined
 */
export function wktRedefinition(desc: DescMessage | DescEnum): string | undefined {
  const name = desc.typeName;
  if (!wktOwnForm.includes(name)) return undefined;
  const builtin = desc.kind === "enum" ? wktRegistry.getEnum(name) : wktRegistry.getMessage(name);
  if (builtin === undefined || builtin === desc) return undefined;
  if (builtin.kind === "enum" && desc.kind === "enum") {
    const values = (e: DescEnum) => e.values.map((v) => `${v.name}=${v.number}`).join(", ");
    return values(desc) === values(builtin)
      ? undefined
      : `its values are ${values(desc)}, the built-in's ${values(builtin)}`;
  }
  if (builtin.kind !== "message" || desc.kind !== "message") return `it is not a ${builtin.kind}`;
  const byNumber = new Map(desc.fields.map((f) => [f.number, f]));
  for (const b of builtin.fields) {
    const f = byNumber.get(b.number);
    if (f === undefined) return `it lacks field ${b.number} (${b.name})`;
    const difference = fieldDifference(f, b);
    if (difference !== undefined) return difference;
    byNumber.delete(b.number);
  }
  for (const f of byNumber.values()) return `it has field ${f.number} (${f.name}), which the built-in lacks`;
  return undefined;
}

/**
 * Resolves a type URL to a message descriptor: the user's registry first, then the well-known types.
 *
 * @throws {WktJsonError} rule `type-url` for a malformed URL (see {@link typeUrlParse}), `unknown-type` for a
 *   type neither registry has, `json-type` for a URL that is not a string or a `registry` that is not one.
 * @example
 * typeUrlResolve("type.googleapis.com/google.protobuf.Duration") === DurationSchema; //=> true
 * typeUrlResolve("type.googleapis.com/acme.Flow", myRegistry).typeName; //=> "acme.Flow"
 */
export function typeUrlResolve(url: string, registry?: Registry): DescMessage {
  const { typeName } = typeUrlParse(url);
  const desc = checkRegistry(registry)?.getMessage(typeName) ?? wktRegistry.getMessage(typeName);
  if (desc === undefined || !isMessageDesc(desc)) {
    throw new WktJsonError(
      "unknown-type",
      "$",
      anyTypeName,
      `type ${JSON.stringify(typeName)} is not in the registry (pass it with the registry option)`,
    );
  }
  return desc;
}

/**
 * @internal Whether a value is a message descriptor, as far as a cheap look tells (`kind`, `typeName`,
 * `fields`): the public functions take descriptors from callers and check them before use.
 */
export function isMessageDesc(value: unknown): value is DescMessage {
  if (typeof value !== "object" || value === null) return false;
  const d = value as Partial<DescMessage>;
  return d.kind === "message" && typeof d.typeName === "string" && Array.isArray(d.fields);
}

/**
 * @internal Returns `schema` if it is a message descriptor ({@link isMessageDesc}).
 *
 * @throws {WktJsonError} rule `json-type`, type name `schema`, for anything else.
 */
export function checkSchema<Desc extends DescMessage>(schema: Desc): Desc {
  if (!isMessageDesc(schema)) {
    throw new WktJsonError("json-type", "$", "schema", `expected a message descriptor, got ${describe(schema)}`);
  }
  return schema;
}

/**
 * @internal Returns the `registry` option when it is absent or a `@bufbuild/protobuf` Registry (an object with
 * `getMessage`, `getExtension` and `getExtensionFor`: the lookups the codec makes).
 *
 * @throws {WktJsonError} rule `json-type`, type name `options`, for anything else.
 */
export function checkRegistry(registry: Registry | undefined): Registry | undefined {
  if (registry === undefined) return undefined;
  if (
    typeof registry !== "object" ||
    registry === null ||
    typeof registry.getMessage !== "function" ||
    typeof registry.getExtension !== "function" ||
    typeof registry.getExtensionFor !== "function"
  ) {
    throw new WktJsonError(
      "json-type",
      "$",
      "options",
      `registry must be a Registry of @bufbuild/protobuf, got ${describe(registry)}`,
    );
  }
  return registry;
}
