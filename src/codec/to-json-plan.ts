/**
 * The per-field plans of the proto3 JSON writer ("If a field has the default value (implicit presence) it is
 * omitted by default; fields with explicit presence are emitted when set"): {@link FieldPlan}, compiled once per
 * field, and {@link nextField}, the one loop that finds the next field to write. Both writers of a message (the
 * value writer and the text writer, to-json.ts) walk the same plans; the write context every writer receives is
 * declared here, as nextField leaves what it finds in it.
 *
 * @module
 * @internal
 */
import {
  ScalarType,
  type DescExtension,
  type DescField,
  type JsonObject,
  type JsonValue,
  type Registry,
} from "@bufbuild/protobuf";
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { setOwnByName, byNameStore } from "../internal/json-value.js";
import { errorAtPath } from "../path.js";
import { maxDepthError } from "../internal/depth-error.js";
import { valueTypeName } from "../internal/names.js";

/** @internal Everything a writer needs, created once per call. */
export interface WriteContext {
  readonly alwaysEmitImplicit: boolean;
  readonly enumAsInteger: boolean;
  readonly useProtoFieldName: boolean;
  readonly registry: Registry | undefined;
  readonly maxDepth: number;
  /** 64-bit integers as JSON numbers where the number prints as the integer's digits (see int64JsonNumber). */
  readonly int64AsNumber: boolean;
  /** float (float32) values as the shortest decimal that reads back as the same float32 (see float32.ts). */
  readonly floatShortest: boolean;
  /** The fields written although unset (see to-json-emit.ts); undefined without such options. */
  readonly emit: FieldEmission | undefined;
  /** JsonWriteOptions.unresolvedAny, checked (any-fallback.ts). */
  readonly unresolvedAny: "error" | "skip" | "raw";
  depth: number;
  /** Set when a float or double field held -0, which JSON.stringify would print as 0. */
  negativeZero: boolean;
  /**
   * The field {@link nextField} found last, and its value (the plan is a member's for a oneof group): read by
   * the caller at once, before anything it calls can find another field. Kept here rather than in module
   * variables: a context is young, so storing into it skips the write barrier's remembered set.
   */
  foundPlan: FieldPlan | undefined;
  foundValue: unknown;
}

/**
 * @internal The fields written although nextField skips them, by descriptor (an option names a field by its path
 * from the root type; the field is written in every message of its type, as Java's
 * `includingDefaultValueFields(Set<FieldDescriptor>)` takes it).
 */
export interface FieldEmission {
  /** Fields of implicit presence, lists and maps written also when they hold their default value. */
  readonly implicit: ReadonlySet<DescField>;
  /** Singular message fields (not in a oneof) written as `null` when unset: all of them (true), or these. */
  readonly nulls: ReadonlySet<DescField> | true;
}

/** @internal A compiled writer: encodes a message of one type as a JSON value. */
export type MessageWriter = (message: unknown, ctx: WriteContext) => JsonValue;

/** Encodes one value of a field (the field itself, a list item or a map value). */
export type ValueWriter = (value: unknown, ctx: WriteContext) => JsonValue;

/** Encodes one value of a field as JSON text, exactly as `JSON.stringify` would print {@link ValueWriter}'s result. */
export type ValueTextWriter = (value: unknown, ctx: WriteContext) => string;

/** @internal A compiled text writer: encodes a message of one type as JSON text on one line. */
export type MessageTextWriter = (message: unknown, ctx: WriteContext) => string;

/** Enters a message of `typeName` one level deeper; throws rule `depth` past `maxDepth`. */
export function enter(ctx: WriteContext, typeName: string): void {
  if (++ctx.depth > ctx.maxDepth) {
    throw maxDepthError(typeName, ctx.maxDepth);
  }
}

/** Field presence as protobuf-es numbers it (google.protobuf.FeatureSet.FieldPresence). */
export const IMPLICIT = 2;

// How a field is tested for presence (see nextField, which takes every value from IMPLICIT_ENUM up as implicit).
export const LIST = 0;
export const MAP = 1;

/** A member of a oneof: never in a message's plans, which hold it in a {@link ONEOF_GROUP}. */
export const ONEOF = 2;

/**
 * All members of a oneof whose fields follow one another in field number order (so in the output), as one
 * plan in place of theirs: the oneof is read once instead of once per member (see {@link groupOneofs}).
 */
const ONEOF_GROUP = 3;
export const EXPLICIT = 4;
export const IMPLICIT_ENUM = 5;
const IMPLICIT_STRING = 6;
const IMPLICIT_BOOL = 7;
const IMPLICIT_BYTES = 8;
const IMPLICIT_FLOAT = 9;
/** 32-bit integers (zero 0). */
const IMPLICIT_INT32 = 10;
/** 64-bit integers (zero 0n, or "0" with jstype = JS_STRING). */
const IMPLICIT_INT64 = 11;

/**
 * The compiled plan of one field, shared by the value writer and the text writer: how presence is tested (one
 * switch in {@link nextField}, no closure per field), its names, and the writers of its value.
 *
 * Every plan has one shape for V8, as the writers read the plans of many fields at one site: the two hints
 * (class fields, so defined first), then the fields declared with `declare` (so not defined as class fields),
 * assigned by the constructor in this order whatever object the plan is built from.
 */
export class FieldPlan {
  declare readonly presence: number;
  /** The field (for an extension, the field protobuf-es reads it as). */
  declare readonly field: DescField;
  /** The property of the message (of the oneof, for a member). */
  declare readonly local: string;
  /** The property holding the oneof, for a member of one; else "". */
  declare readonly oneofLocal: string;
  /** The zero value, for implicit presence. */
  declare readonly zero: unknown;
  declare readonly parentName: string;
  declare readonly jsonName: string;
  declare readonly protoName: string;
  /**
   * What the text writer puts before the value, `"jsonName":` in six forms: by index {@link keyFirst}
   * (`{"jsonName":`, opening the object), {@link keyAfter} (with a comma before) or {@link keyAfterQuote}
   * (`","jsonName":`, closing the string value of the field before, see `raw`), plus {@link keyProto} for the
   * proto name. For a `raw` field each ends with the opening quote of its value.
   */
  declare readonly keys: readonly string[];
  declare readonly write: ValueWriter;
  declare readonly writeText: ValueTextWriter;
  /**
   * The text writer writes the inside of a JSON string (the value is always one: a string, a 64-bit integer,
   * bytes, a Timestamp, ...), whose quotes are part of the keys: the opening one ends this field's key, the
   * closing one starts the next key (or the closing brace). Two pieces of text fewer for V8 to join.
   */
  declare readonly raw: boolean;
  /** A proto2 `required` field (editions: LEGACY_REQUIRED): unset, it cannot be written. */
  declare readonly required: boolean;
  /**
   * For a singular enum field (not NullValue): by index into {@link keys}, each named value's whole member
   * (`,"status":"PUBLISHED"`) by number. The text writer appends it as one piece, without joining the key,
   * the quotes and the name for each message.
   */
  declare readonly members: readonly ReadonlyMap<number, string>[] | undefined;
  /** A singular string field (raw): the text writer prints a plain string itself, without calling `writeText`. */
  declare readonly plainString: boolean;
  /** For {@link ONEOF_GROUP}: the plans of the members (each {@link ONEOF}); else empty. */
  declare readonly oneofMembers: readonly FieldPlan[];
  /**
   * Which of the field's names the value writer stores by name ({@link byNameStore}): {@link byNameJson} for
   * the JSON name, {@link byNameProto} for the proto name; 0 for most fields. Told once here, not per store.
   */
  declare readonly byName: number;

  constructor(init: FieldPlanInit) {
    this.presence = init.presence;
    this.field = init.field;
    this.local = init.local;
    this.oneofLocal = init.oneofLocal;
    this.zero = init.zero;
    this.parentName = init.parentName;
    this.jsonName = init.jsonName;
    this.protoName = init.protoName;
    this.keys = init.keys;
    this.write = init.write;
    this.writeText = init.writeText;
    this.raw = init.raw;
    this.required = init.required;
    this.members = init.members;
    this.plainString = init.plainString;
    this.oneofMembers = init.oneofMembers;
    this.byName = init.byName;
  }

  /**
   * For a map field: whether it had members when last written, which {@link mapFound} takes as a guess of
   * how to tell it is empty. Only a hint: either way the same fields are written.
   */
  mapHadKeys = false;

  /**
   * For a map field with integer keys (which can be array indexes): whether {@link mapFound} may list its keys
   * for its writer. Set once, after the plan is made.
   */
  intKeys = false;
}

/** What a {@link FieldPlan} is made from: its fields, given by name. */
type FieldPlanInit = Omit<FieldPlan, "mapHadKeys" | "intKeys">;

/** How an implicit-presence scalar is tested for its zero value (as `scalarIsZero` tells it). */
export function implicitPresence(scalar: ScalarType): number {
  switch (scalar) {
    case ScalarType.STRING:
      return IMPLICIT_STRING;
    case ScalarType.BOOL:
      return IMPLICIT_BOOL;
    case ScalarType.BYTES:
      return IMPLICIT_BYTES;
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return IMPLICIT_FLOAT;
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return IMPLICIT_INT64;
    default:
      return IMPLICIT_INT32;
  }
}

/** Bits of {@link FieldPlan.byName}. */
export const byNameJson = 1;
export const byNameProto = 2;

/** Indexes into {@link FieldPlan.keys}. */
export const keyFirst = 0;
export const keyAfter = 1;
export const keyAfterQuote = 2;
export const keyProto = 3;

/** google.protobuf.FeatureSet.FieldPresence.LEGACY_REQUIRED, proto2's `required`. */
export const LEGACY_REQUIRED = 3;

/**
 * Whether a field is proto2 `required` (editions: LEGACY_REQUIRED): the writer refuses a message that leaves it
 * unset, and {@link jsonSchema}'s output schema lists it as required. Not for a oneof member, a list or a map,
 * which a descriptor built by hand could mark so: they are never required.
 */
export function isRequiredField(field: DescField | DescExtension): boolean {
  return (
    field.presence === LEGACY_REQUIRED &&
    field.oneof === undefined &&
    field.fieldKind !== "list" &&
    field.fieldKind !== "map"
  );
}

/**
 * Whether the writer writes the field in every message: a required field (unset, the writer throws), and with
 * `alwaysEmitImplicit` a list, a map or a field of implicit presence outside a oneof. Never an extension, which is
 * written when the message holds it. The output JSON Schema (json-schema.ts) lists these fields as required.
 */
export function alwaysWritten(field: DescField | DescExtension, alwaysEmitImplicit: boolean): boolean {
  if (field.kind !== "field") return false;
  if (isRequiredField(field)) return true;
  if (!alwaysEmitImplicit || field.oneof !== undefined) return false;
  return field.fieldKind === "list" || field.fieldKind === "map" || field.presence === IMPLICIT;
}

/**
 * A required field left unset: its message cannot be written, as protobuf-es refuses it ("required field not
 * set"), since a reader of the JSON would lack it. The caller adds the field to the path.
 */
function requiredUnset(plan: FieldPlan): WktJsonError {
  return new WktJsonError("required", "$", plan.parentName, `the required field ${plan.protoName} is not set`);
}

/** What {@link implicitValue} returns for a field that is not written. */
const absent: unknown = Symbol("absent");

/**
 * Returns the index of the first plan from `from` on whose field is to be written, leaving the field's plan
 * and value in `ctx.foundPlan` and `ctx.foundValue`; `plans.length` when there is none. Throws, with the
 * field's name in the path, for a list or map that is not an array or object, and for an unset required field.
 *
 * One call walks the run of unset fields before a set one, as one loop with the presence tests written out:
 * a call per field cost a third more on a message that sets few of its fields. Small enough for V8 to inline
 * into each writer's one call site (under 460 bytes of bytecode, hence the one generic zero test and no case
 * for a lone oneof member), which a message that sets most of its fields needs: a call per set field cost the
 * 2 KB service payload 5-8%. Reading a property is most of the rest: protobuf-es keeps a message of more than a
 * few dozen fields as a hash table (V8's dictionary mode).
 */
export function nextField(
  plans: readonly FieldPlan[],
  from: number,
  message: Record<string, unknown>,
  ctx: WriteContext,
): number {
  const emitImplicit = ctx.alwaysEmitImplicit;
  let i = from;
  let plan: FieldPlan | undefined;
  try {
    for (; i < plans.length; i++) {
      plan = plans[i]!;
      let v: unknown;
      switch (plan.presence) {
        case LIST:
          v = message[plan.local];
          if (!Array.isArray(v)) throw notA("an array", plan, v);
          if (v.length === 0 && !emitImplicit) continue;
          break;
        case MAP:
          v = message[plan.local];
          // An empty map, the usual case, is told here without a key list (see mapFound).
          if (!plan.mapHadKeys && !emitImplicit && isEmptyRecord(v)) continue;
          if (!mapFound(plan, v, emitImplicit)) continue;
          break;
        case ONEOF_GROUP: {
          const oneof = message[plan.oneofLocal] as { case?: unknown; value?: unknown } | undefined;
          const c = oneof?.case;
          if (c === undefined) continue;
          const member = oneofMember(plan, c);
          if (member === undefined) continue;
          plan = member;
          v = oneof!.value;
          break;
        }
        case EXPLICIT:
          // Asked first whether the property is own: an unset field is then one lookup in the message instead of
          // a failed load that goes on to search its prototypes (a third of the time of such a field).
          if (!hasOwn.call(message, plan.local) || (v = message[plan.local]) === undefined) {
            if (plan.required) throw requiredUnset(plan);
            continue;
          }
          break;
        default:
          v = message[plan.local];
          // The zero value protobuf-es leaves in an unset field is the plan's own (0, "", false, 0n), but for
          // a float (-0 is written) and bytes (an array of its own); anything else goes to implicitValue.
          if (v === plan.zero && !emitImplicit && plan.presence !== IMPLICIT_FLOAT) continue;
          v = implicitValue(plan, v, emitImplicit);
          if (v === absent) continue;
      }
      ctx.foundPlan = plan;
      ctx.foundValue = v;
      return i;
    }
  } catch (e) {
    throw errorAtPath(e, keyOf(plan!, ctx));
  }
  return i;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * The value writer's loop over the fields of a message (nextField, writeField) when `ctx.emit` names fields
 * to write although unset: each field nextField passes over is written here if named (see to-json-emit.ts).
 * Apart from the writers' own loop, whose one call site of nextField must stay as it is (see there).
 */
export function writeFieldsEmitting(
  plans: readonly FieldPlan[],
  message: Record<string, unknown>,
  ctx: WriteContext,
  out: JsonObject,
): void {
  const emit = ctx.emit!;
  for (let i = 0; i < plans.length; i++) {
    const found = nextField(plans, i, message, ctx);
    for (; i < found; i++) emitSkipped(plans[i]!, message, emit, ctx, out);
    if (i === plans.length) return;
    writeField(ctx.foundPlan!, ctx.foundValue, ctx, out);
  }
}

/**
 * Writes a field nextField passed over, if `emit` names it: an unset message field as null; an empty list or
 * map, or a field of implicit presence holding its zero value, as alwaysEmitImplicit writes it. A oneof is
 * never written unset.
 */
function emitSkipped(
  plan: FieldPlan,
  message: Record<string, unknown>,
  emit: FieldEmission,
  ctx: WriteContext,
  out: JsonObject,
): void {
  const field = plan.field;
  switch (plan.presence) {
    case ONEOF_GROUP:
      return;
    case EXPLICIT: {
      const nulls = emit.nulls;
      const named =
        nulls === true ? field.fieldKind === "message" && field.message.typeName !== valueTypeName : nulls.has(field);
      if (named) storeMember(plan, null, ctx, out);
      return;
    }
    case MAP:
      if (emit.implicit.has(field)) storeMember(plan, {}, ctx, out);
      return;
    case LIST:
      if (emit.implicit.has(field)) writeField(plan, message[plan.local], ctx, out);
      return;
    default:
      if (emit.implicit.has(field)) writeField(plan, message[plan.local] ?? plan.zero, ctx, out);
  }
}

/**
 * The keys of the map {@link mapFound} found last (else undefined): taken, and cleared, by the map's writer,
 * which is called next, instead of listing them again. Undefined at every other time, since nothing comes
 * between mapFound's finding a map and the call of its writer.
 */
let foundKeys: string[] | undefined;

/**
 * The map whose keys {@link foundKeys} holds. A writer takes them only for that very map: should something throw
 * between mapFound and the writer, keys left behind are never read for another map.
 */
let foundRecord: object | undefined;

/**
 * Whether the value of a map field is to be written, for a value that nextField did not tell an empty map;
 * throws for a value that is not an object. nextField tells an empty map, the usual case, by for...in without a
 * key list (V8 answers it without a call), unless the map had members when last written
 * ({@link FieldPlan.mapHadKeys}): for...in of a map that has members with integer keys (array indexes, which V8
 * keeps as elements) goes through V8's runtime, which lists every key (185 ns for two keys, against 85 for
 * Object.keys). Here the keys of a map with integer keys are listed once, for its writer too
 * ({@link foundKeys}). Out of nextField, which must stay small enough for V8 to inline (see there).
 */
function mapFound(plan: FieldPlan, v: unknown, emitImplicit: boolean): boolean {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw notA("an object", plan, v);
  // Other keys are names: for...in told the map has members (or alwaysEmitImplicit), its writer lists them.
  if (!plan.intKeys) return true;
  const keys = Object.keys(v);
  plan.mapHadKeys = keys.length !== 0;
  if (keys.length === 0 && !emitImplicit && !hasEnumerable(v)) return false;
  foundKeys = keys;
  foundRecord = v;
  return true;
}

/** Whether `v` is an object (not an array) without an enumerable property, own or inherited. */
function isEmptyRecord(v: unknown): boolean {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  for (const _ in v) return false;
  return true;
}

/** {@link foundKeys} if they are the keys of `record` (then cleared), else the keys of `record`. */
export function takeKeys(record: object): string[] {
  const keys = foundKeys;
  if (keys === undefined || foundRecord !== record) return Object.keys(record);
  foundKeys = undefined;
  foundRecord = undefined;
  return keys;
}

/** The member of a oneof group whose property name is `c` (the oneof's case), if any. */
function oneofMember(group: FieldPlan, c: unknown): FieldPlan | undefined {
  const members = group.oneofMembers;
  for (let k = 0; k < members.length; k++) if (members[k]!.local === c) return members[k];
  return undefined;
}

/**
 * The value of an implicit-presence field when it is to be written (an unset property is the zero value), else
 * {@link absent}.
 */
function implicitValue(plan: FieldPlan, value: unknown, emitImplicit: boolean): unknown {
  const v = value ?? plan.zero;
  return emitImplicit || !isImplicitZero(plan.presence, v, plan.zero) ? v : absent;
}

/** Whether the value of an implicit-presence field is its zero value, which is not written. */
function isImplicitZero(presence: number, v: unknown, zero: unknown): boolean {
  switch (presence) {
    case IMPLICIT_BYTES:
      return v instanceof Uint8Array && v.length === 0;
    case IMPLICIT_FLOAT:
      return v === 0 && 1 / v > 0;
    case IMPLICIT_INT32:
    case IMPLICIT_INT64:
      // 0, 0n and "0" (jstype = JS_STRING), each compared as its own type. Not loose equality: `false`, `[]` or
      // " " in an integer field of a message built by hand are wrong-typed values to be reported, not zeros.
      return typeof v === "number" ? v === 0 : typeof v === "bigint" ? v === 0n : v === "0";
    case IMPLICIT_STRING:
      // As v === "", told without the generic comparison the writers' mixed feedback gives that.
      return typeof v === "string" && v.length === 0;
    case IMPLICIT_BOOL:
      return v === false;
    default:
      // IMPLICIT_ENUM: the first value (a number). One comparison per kind, so that each sees one type of
      // value; a number comparison, not the generic one.
      return typeof v === "number" && v === zero;
  }
}

/** Whether an object has an enumerable property, own or inherited (`for...in`). */
export function hasEnumerable(record: object): boolean {
  for (const _ in record) return true;
  return false;
}

/** The error for a list or map field holding something else. */
function notA(expected: string, plan: FieldPlan, actual: unknown): WktJsonError {
  return new WktJsonError("json-type", "$", plan.parentName, `expected ${expected}, got ${describe(actual)}`);
}

/** The JSON value of a field that is to be written (undefined for an empty map); errors get the field's name in their path. */
export function fieldJson(plan: FieldPlan, v: unknown, ctx: WriteContext): JsonValue | undefined {
  try {
    return plan.write(v, ctx);
  } catch (e) {
    throw errorAtPath(e, keyOf(plan, ctx));
  }
}

/** The member name of a field in the output: its proto name or its JSON name, by `useProtoFieldName`. */
export function keyOf(plan: FieldPlan, ctx: WriteContext): string {
  return ctx.useProtoFieldName ? plan.protoName : plan.jsonName;
}

/** Writes the value of a field that is to be written into `out`; errors get the field's name in their path. */
export function writeField(plan: FieldPlan, v: unknown, ctx: WriteContext, out: JsonObject): void {
  let json: JsonValue | undefined;
  try {
    json = plan.write(v, ctx);
  } catch (e) {
    throw errorAtPath(e, keyOf(plan, ctx));
  }
  if (json === undefined) return; // an empty map, not written
  storeMember(plan, json, ctx, out);
}

/** Stores the JSON of a field in `out` under its member name (by name where V8's keyed store would not do). */
export function storeMember(plan: FieldPlan, json: JsonValue, ctx: WriteContext, out: JsonObject): void {
  const proto = ctx.useProtoFieldName;
  const key = proto ? plan.protoName : plan.jsonName;
  // __proto__, and the names V8's generic keyed store sends to its runtime (see byNameStore).
  if (plan.byName !== 0 && (plan.byName & (proto ? byNameProto : byNameJson)) !== 0) setOwnByName(out, key, json);
  else out[key] = json;
}

/**
 * Replaces each run of plans that holds every member of one oneof (and nothing else) by a {@link ONEOF_GROUP}
 * plan: the first member's plan (its key is the path of an error in reading the oneof) with the members'. A
 * oneof whose members other fields come between gets a group of one per member, each written at its place.
 */
export function groupOneofs(plans: readonly FieldPlan[]): FieldPlan[] {
  const out: FieldPlan[] = [];
  for (let i = 0; i < plans.length;) {
    const first = plans[i]!;
    let end = i + 1;
    if (first.presence === ONEOF) {
      while (end < plans.length && plans[end]!.presence === ONEOF && plans[end]!.oneofLocal === first.oneofLocal) end++;
      const size = plans.filter((p) => p.presence === ONEOF && p.oneofLocal === first.oneofLocal).length;
      if (end - i === size) {
        out.push(withPresence(first, ONEOF_GROUP, plans.slice(i, end)));
        i = end;
        continue;
      }
      // A member written at its own place: a group of one (its oneof read once for it, as for each member).
      out.push(withPresence(first, ONEOF_GROUP, [first]));
      i++;
      continue;
    }
    out.push(first);
    i++;
  }
  return out;
}

/** A copy of a plan with another presence test and oneof members (a {@link ONEOF_GROUP} from a member). */
function withPresence(p: FieldPlan, presence: number, oneofMembers: readonly FieldPlan[]): FieldPlan {
  return new FieldPlan({ ...p, presence, oneofMembers });
}

/** The plans of every field, the members of each {@link ONEOF_GROUP} in its place. */
export function fieldPlans(plans: readonly FieldPlan[]): readonly FieldPlan[] {
  return plans.flatMap((p) => (p.presence === ONEOF_GROUP ? p.oneofMembers : [p]));
}

/**
 * Whether the members a message's value writer makes print in the order the text writer writes them: fields
 * in number order, then extensions. JSON.stringify prints integer-like keys first and a repeated key once; a
 * json_name can be anything, so a message with such a name (or one like an extension's "[...]") is printed
 * from its value instead.
 */
export function keysPrintInOrder(plans: readonly FieldPlan[]): boolean {
  for (const names of [plans.map((p) => p.jsonName), plans.map((p) => p.protoName)]) {
    if (new Set(names).size !== names.length) return false;
    for (const name of names) {
      if (/^(0|[1-9][0-9]*)$/.test(name) && Number(name) < 4294967295) return false;
      if (name.startsWith("[")) return false;
    }
  }
  return true;
}
