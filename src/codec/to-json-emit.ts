/**
 * The output options of `toJson` beyond protobuf-es's, checked once per call: `int64AsNumber`, `floatShortest`,
 * and the fields written although unset, `alwaysEmitImplicitFor` (per field, what `alwaysEmitImplicit` does for
 * every field: C++ `always_print_fields_with_no_presence`, Go `EmitDefaultValues`, Java
 * `includingDefaultValueFields(Set<FieldDescriptor>)`) and `emitUnsetMessagesAsNull` (`null` for an unset
 * message field, as Go's `EmitUnpopulated` writes it). Neither writes a oneof member or an extension that is
 * not set, as Go does not.
 *
 * A field is named by its path from the root type, dotted, each segment the proto or the JSON name of a field
 * (`author.given_name`, `author.givenName`), through fields that hold messages (singular, lists and map
 * values). The path names a field of a type, and the field is then written in every message of that type,
 * wherever it is nested, as Java's set of field descriptors works: the compiled writers are kept per type, and
 * a set of fields is looked up only where a writer skipped one.
 *
 * @module
 * @internal
 */
import type { DescField, DescMessage } from "@bufbuild/protobuf";
import { hasCustomJsonRepresentation } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { optionsTypeName } from "../internal/options.js";
import { valueTypeName } from "../internal/names.js";
import { shownLiteral } from "../internal/not-finite.js";
import { IMPLICIT, type FieldEmission } from "./to-json-plan.js";

/** The options {@link fieldEmission} reads (see JsonWriteOptions). */
export interface FieldEmissionOptions {
  alwaysEmitImplicitFor?: readonly string[] | undefined;
  emitUnsetMessagesAsNull?: boolean | readonly string[] | undefined;
}

/**
 * A boolean option: false when not given (undefined), else it must be a boolean; rule `json-type` at `$`
 * (typeName "options") for anything else.
 */
export function flagOption(name: string, value: unknown): boolean {
  if (value === undefined || typeof value === "boolean") return value === true;
  throw new WktJsonError("json-type", "$", optionsTypeName, `${name} must be true or false, got ${describe(value)}`);
}

/**
 * The fields the options name, resolved against `schema`, or undefined when they name none (and
 * `emitUnsetMessagesAsNull` is not true). Throws rule `json-type` for an option of the wrong type and
 * `unknown-field` for a path that names no field, or a field the option cannot write (see {@link resolvePath}).
 */
export function fieldEmission(schema: DescMessage, options: FieldEmissionOptions): FieldEmission | undefined {
  const implicitPaths = pathsOption("alwaysEmitImplicitFor", options.alwaysEmitImplicitFor);
  const nullOption = options.emitUnsetMessagesAsNull;
  const allNull = typeof nullOption === "boolean" ? nullOption : false;
  const nullPaths = typeof nullOption === "boolean" ? [] : pathsOption("emitUnsetMessagesAsNull", nullOption);
  if (implicitPaths.length === 0 && nullPaths.length === 0 && !allNull) return undefined;
  const implicit = new Set<DescField>();
  for (const path of implicitPaths) implicit.add(resolvePath(schema, path, "alwaysEmitImplicitFor"));
  const nulls = new Set<DescField>();
  for (const path of nullPaths) nulls.add(resolvePath(schema, path, "emitUnsetMessagesAsNull"));
  return { implicit, nulls: allNull ? true : nulls };
}

/** A list of field paths: undefined is none; anything but an array of strings is rule `json-type`. */
function pathsOption(name: string, value: unknown): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw optionError(name, value);
  for (const path of value) if (typeof path !== "string") throw optionError(name, path);
  return value as readonly string[];
}

function optionError(name: string, got: unknown): WktJsonError {
  const what = name === "emitUnsetMessagesAsNull" ? "true, false or a list of field paths" : "a list of field paths";
  return new WktJsonError("json-type", "$", optionsTypeName, `${name} must be ${what}, got ${describe(got)}`);
}

/**
 * The field a path names, from `schema`: each segment a field's proto or JSON name, every segment but the last
 * a field holding messages (a singular message, a list of them, or a map with message values) of a type written
 * as an object of its fields (not a well-known type with its own JSON form). The last must be a field the
 * option writes: for `alwaysEmitImplicitFor` a list, a map or a field of implicit presence (a field with
 * explicit presence is written when set; a oneof member is never written unset); for
 * `emitUnsetMessagesAsNull` a singular message field outside a oneof, but google.protobuf.Value, whose `null` is
 * a value (NullValue), not an unset field. Anything else is rule `unknown-field`, naming the option and the path.
 */
function resolvePath(schema: DescMessage, path: string, option: keyof FieldEmissionOptions): DescField {
  const segments = path.split(".");
  let desc = schema;
  for (let k = 0; k < segments.length; k++) {
    const name = segments[k]!;
    const field = desc.fields.find((f) => f.name === name || f.jsonName === name);
    if (field === undefined)
      throw pathError(option, path, `${desc.typeName} has no field ${JSON.stringify(shownLiteral(name))}`);
    if (k === segments.length - 1) {
      const why = option === "alwaysEmitImplicitFor" ? notImplicit(field) : notNullable(field);
      if (why !== undefined) throw pathError(option, path, `${field.name} ${why}`);
      return field;
    }
    const message = field.message;
    if (message === undefined || (field.fieldKind === "map" && field.mapKind !== "message")) {
      throw pathError(option, path, `${field.name} does not hold messages`);
    }
    if (hasCustomJsonRepresentation(message)) {
      throw pathError(option, path, `${field.name} holds ${message.typeName}, which has its own JSON form`);
    }
    desc = message;
  }
  throw pathError(option, path, "the path is empty"); // "".split(".") is [""]: not reached
}

/** Why `alwaysEmitImplicitFor` cannot write a field, or undefined. */
function notImplicit(field: DescField): string | undefined {
  if (field.fieldKind === "list" || field.fieldKind === "map") return undefined;
  if (field.oneof !== undefined) return `is a member of the oneof ${field.oneof.name}, written only when set`;
  if (field.presence !== IMPLICIT) return "has explicit presence: it is written when set";
  return undefined;
}

/** Why `emitUnsetMessagesAsNull` cannot write a field as null, or undefined. */
function notNullable(field: DescField): string | undefined {
  if (field.fieldKind !== "message") return "is not a singular message field";
  if (field.oneof !== undefined) return `is a member of the oneof ${field.oneof.name}, written only when set`;
  if (field.message.typeName === valueTypeName) return "is a google.protobuf.Value, whose null is a value";
  return undefined;
}

function pathError(option: string, path: string, why: string): WktJsonError {
  return new WktJsonError(
    "unknown-field",
    "$",
    optionsTypeName,
    `${option}: path ${JSON.stringify(shownLiteral(path))}: ${why}`,
  );
}
