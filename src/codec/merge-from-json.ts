/**
 * Reading proto3 JSON into an existing message, as `@bufbuild/protobuf`'s `mergeFromJson` and
 * `mergeFromJsonString` do: "Repeated fields are appended. Map entries are added, overwriting existing keys.
 * If a message field is already present, it will be merged with the new data."
 *
 * The JSON is first decoded into a new message by {@link fromJson} (or {@link fromJsonString}), with every check
 * and limit of the decoder and its errors and paths; nothing is changed unless that succeeds. Then each member
 * of the JSON object is applied to the target, as protobuf-es applies it:
 *
 * - `null` resets a field (a message field is unset; a scalar or enum field is unset, or set to its zero
 *   value where it has implicit presence; a oneof member that is the selected case clears the oneof), except
 *   where `null` is a value (`google.protobuf.Value`, `google.protobuf.NullValue`); for a scalar oneof member,
 *   a list or a map it changes nothing.
 * - A list field gets the new elements appended; a map field the new entries, replacing those of the same key.
 * - A message field that is set is merged into, recursively; otherwise it is set. Well-known types with their
 *   own JSON form merge as their readers do in protobuf-es: a Struct gets the new members (replacing those of
 *   the same name), a ListValue the new values appended, an empty FieldMask string or an empty Any object
 *   changes nothing; Value, Timestamp, Duration, FieldMask, Any and the wrappers are replaced.
 * - Any other field is replaced; an enum name skipped under `ignoreUnknownFields`, and an Any left out under
 *   `unresolvedAny: "skip"` (a list element or map entry dropped, a singular field unset), change nothing.
 * - A member skipped under `ignoreUnknownFields` or `ignoreReservedNames` changes nothing.
 *
 * @module
 */
import {
  getExtension,
  setExtension,
  type DescMessage,
  type ScalarType,
  type JsonValue,
  type MessageShape,
  type Registry,
} from "@bufbuild/protobuf";
import { scalarZeroValue } from "@bufbuild/protobuf/reflect";
import {
  checkMessage,
  fieldsByJsonKey,
  planOf,
  boxNone,
  boxStruct,
  boxWrapper,
  type FieldAccess,
  type MessagePlan,
  type Msg,
} from "../wkt/field-access.js";
import {
  anyTypeName,
  boolValueTypeName,
  bytesValueTypeName,
  doubleValueTypeName,
  durationTypeName,
  fieldMaskTypeName,
  floatValueTypeName,
  int32ValueTypeName,
  int64ValueTypeName,
  listValueTypeName,
  stringValueTypeName,
  structTypeName,
  timestampTypeName,
  uint32ValueTypeName,
  uint64ValueTypeName,
  valueTypeName,
  wktPackagePrefix,
} from "../internal/names.js";
import { nullIsValue } from "../internal/field-form.js";
import { fromJson, fromJsonString } from "./from-json.js";
import { stackOverflowAsDepth } from "./depth-errors.js";
import { depthOption, type JsonReadOptions } from "./read-context.js";
import { enumValuesByName } from "../wkt/enum.js";
import { setOwn } from "../internal/json-value.js";
import { checkRegistry, checkSchema } from "../wkt/registry.js";
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { extensionOfKey } from "./field-keys.js";

/**
 * Reads proto3 JSON into `target`, merging: set fields are replaced, lists appended to, map entries added,
 * message fields merged into, and `null` resets a field (see the module overview). Returns `target`, which is
 * changed in place, and only if the whole JSON value decodes.
 *
 * @throws {WktJsonError} as {@link fromJson} for the JSON (the target is then unchanged); `json-type` if
 *   `target` is not a message of `schema`.
 * @example
 * const m = create(TestAllTypesProto3Schema, { optionalInt32: 1, repeatedInt32: [1] });
 * mergeFromJson(TestAllTypesProto3Schema, m, { repeatedInt32: [2], optionalString: "x" });
 * // m: { optionalInt32: 1, repeatedInt32: [1, 2], optionalString: "x", ... }
 */
export function mergeFromJson<Desc extends DescMessage>(
  schema: Desc,
  target: MessageShape<Desc>,
  json: JsonValue,
  options?: Partial<JsonReadOptions>,
): MessageShape<Desc> {
  checkTarget(schema, target);
  const source = fromJson(schema, json, partial(options));
  apply(schema, target, json, source, options);
  return target;
}

/**
 * Reads proto3 JSON text into `target`, merging as {@link mergeFromJson}; the text is read as
 * {@link fromJsonString} reads it (duplicate keys refused, every digit of a 64-bit integer kept, errors with
 * line and column).
 *
 * @throws {WktJsonError} as {@link fromJsonString} for the text (the target is then unchanged); `json-type` if
 *   `target` is not a message of `schema`.
 * @example
 * const m = create(TestAllTypesProto3Schema, { mapStringString: { a: "1" } });
 * mergeFromJsonString(TestAllTypesProto3Schema, m, '{"mapStringString": {"b": "2"}}');
 * // m.mapStringString: { a: "1", b: "2" }
 */
export function mergeFromJsonString<Desc extends DescMessage>(
  schema: Desc,
  target: MessageShape<Desc>,
  json: string,
  options?: Partial<JsonReadOptions>,
): MessageShape<Desc> {
  checkTarget(schema, target);
  const source = fromJsonString(schema, json, partial(options));
  // The text decoded, so it is JSON; its tree tells which members were given and which were null.
  apply(schema, target, JSON.parse(json) as JsonValue, source, options);
  return target;
}

/**
 * The decoder's options for the JSON merged: a merge sets some fields of a message that holds the others, so
 * its JSON may leave required fields out (allowPartial), as protobuf-es's merge reads it.
 */
function partial(options: Partial<JsonReadOptions> | undefined): Partial<JsonReadOptions> {
  return options === undefined ? mergeRead : { ...options, allowPartial: true };
}

const mergeRead: Partial<JsonReadOptions> = { allowPartial: true };

function checkTarget(schema: DescMessage, target: unknown): void {
  checkSchema(schema);
  checkMessage(schema, target, "target");
}

interface MergeContext {
  readonly ignoreUnknownFields: boolean;
  readonly registry: Registry | undefined;
}

function apply(
  schema: DescMessage,
  target: unknown,
  json: JsonValue,
  source: unknown,
  options: Partial<JsonReadOptions> | undefined,
): void {
  const ctx: MergeContext = {
    ignoreUnknownFields: options?.ignoreUnknownFields === true,
    registry: checkRegistry(options?.registry),
  };
  try {
    mergeMessage(planOf(schema), target as Msg, json, source as Msg, ctx);
  } catch (e) {
    throw stackOverflowAsDepth(e, schema.typeName, depthOption(options));
  }
}

function isObject(v: unknown): v is Record<string, JsonValue> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Merges `source` (the decoded `json`) into `target`, both messages of `plan`'s type. */
function mergeMessage(plan: MessagePlan, target: Msg, json: JsonValue, source: Msg, ctx: MergeContext): void {
  const typeName = plan.desc.typeName;
  if (typeName.startsWith(wktPackagePrefix) && mergeWellKnown(plan, typeName, target, json, source)) return;
  if (!isObject(json)) return; // the decoder took it, so only the types above have another JSON form
  const byKey = fieldsByJsonKey(plan);
  for (const key of Object.keys(json)) {
    const fp = byKey.get(key);
    if (fp === undefined) {
      mergeExtension(plan.desc, key, target, source, ctx);
      continue;
    }
    const v = json[key]!;
    if (v === null && !nullIsValue(fp.field)) {
      reset(fp, target);
      continue;
    }
    if (fp.kind === "enum" && skippedEnum(fp, v)) continue;
    mergeField(fp, target, v, source, ctx);
  }
}

/** Well-known types with their own JSON form, merged as protobuf-es's readers merge them; false for others. */
function mergeWellKnown(plan: MessagePlan, typeName: string, target: Msg, json: JsonValue, source: Msg): boolean {
  switch (typeName) {
    case structTypeName: {
      const to = target["fields"] as Msg;
      const from = source["fields"] as Msg;
      for (const k of Object.keys(from)) setOwn(to, k, from[k]);
      return true;
    }
    case listValueTypeName: {
      const to = target["values"] as unknown[];
      for (const v of source["values"] as unknown[]) to.push(v);
      return true;
    }
    case fieldMaskTypeName:
      if (json !== "") target["paths"] = source["paths"];
      return true;
    case anyTypeName:
      if (isObject(json) && Object.keys(json).length > 0) {
        target["typeUrl"] = source["typeUrl"];
        target["value"] = source["value"];
      }
      return true;
    case valueTypeName:
    case timestampTypeName:
    case durationTypeName:
    case doubleValueTypeName:
    case floatValueTypeName:
    case int64ValueTypeName:
    case uint64ValueTypeName:
    case int32ValueTypeName:
    case uint32ValueTypeName:
    case boolValueTypeName:
    case stringValueTypeName:
    case bytesValueTypeName:
      for (const fp of plan.fields) {
        const p = fp.oneof ?? fp.local;
        target[p] = source[p];
      }
      return true;
  }
  return false;
}

/** Whether the decoder skipped this enum value (a name unknown under ignoreUnknownFields; a number never is). */
function skippedEnum(fp: FieldAccess, v: JsonValue): boolean {
  return typeof v === "string" && !enumValuesByName(fp.field.enum!).has(v);
}

/** JSON `null` for a field: as protobuf-es's reader. */
function reset(fp: FieldAccess, target: Msg): void {
  switch (fp.kind) {
    case "list":
    case "map":
      return;
    case "scalar":
      if (fp.oneof !== undefined) return;
      break;
  }
  if (fp.oneof !== undefined) {
    const group = target[fp.oneof] as { case?: unknown } | undefined;
    if (group?.case === fp.local) target[fp.oneof] = { case: undefined };
    return;
  }
  if (fp.explicit) {
    delete target[fp.local];
    return;
  }
  const f = fp.field as { scalar?: ScalarType; longAsString?: boolean };
  target[fp.local] = fp.kind === "enum" ? fp.enumZero : scalarZeroValue(f.scalar!, f.longAsString === true);
}

function mergeField(fp: FieldAccess, target: Msg, v: JsonValue, source: Msg, ctx: MergeContext): void {
  switch (fp.kind) {
    case "list": {
      const to = target[fp.local] as unknown[];
      for (const item of source[fp.local] as unknown[]) to.push(item);
      return;
    }
    case "map": {
      const to = target[fp.local] as Msg;
      const from = source[fp.local] as Msg;
      for (const k of Object.keys(from)) setOwn(to, k, from[k]);
      return;
    }
    case "message":
      if (fp.oneof !== undefined) {
        const have = target[fp.oneof] as { case?: unknown; value?: unknown } | undefined;
        const given = source[fp.oneof] as { case?: unknown; value?: unknown };
        // An Any the decoder left out (unresolvedAny "skip"): the JSON changes nothing.
        if (given.case !== fp.local) return;
        if (have?.case === fp.local && fp.box === boxNone)
          mergeMessage(planOf(fp.message!), have.value as Msg, v, given.value as Msg, ctx);
        else target[fp.oneof] = given;
        return;
      }
      mergeMessageField(fp, target, v, source, ctx);
      return;
    default:
      if (fp.oneof !== undefined) target[fp.oneof] = source[fp.oneof];
      else target[fp.local] = source[fp.local];
  }
}

function mergeMessageField(fp: FieldAccess, target: Msg, v: JsonValue, source: Msg, ctx: MergeContext): void {
  const have = target[fp.local];
  const given = source[fp.local];
  // An Any the decoder left out (unresolvedAny "skip"): the JSON changes nothing.
  if (given === undefined) return;
  if (have === undefined || fp.box === boxWrapper) {
    target[fp.local] = given;
  } else if (fp.box === boxStruct) {
    // A Struct held as a JSON object: a new object with the old members, then the new ones.
    const merged: Msg = {};
    for (const k of Object.keys(have as Msg)) setOwn(merged, k, (have as Msg)[k]);
    for (const k of Object.keys(given as Msg)) setOwn(merged, k, (given as Msg)[k]);
    target[fp.local] = merged;
  } else {
    mergeMessage(planOf(fp.message!), have as Msg, v, given as Msg, ctx);
  }
}

/** An extension member (`"[pkg.ext]"`) the decoder read into `source`: set on the target, as protobuf-es does. */
function mergeExtension(desc: DescMessage, key: string, target: Msg, source: Msg, ctx: MergeContext): void {
  const ext = extensionOfKey(key, ctx.registry, desc.typeName);
  if (ext === undefined) return;
  try {
    setExtension(target as never, ext, getExtension(source as never, ext) as never);
  } catch (e) {
    throw new WktJsonError(
      "json-type",
      "$",
      desc.typeName,
      `extension ${key}: ${e instanceof Error ? e.message : describe(e)}`,
    );
  }
}
