/**
 * Message reflection for the functions that walk protobuf-es messages field by field (the FieldMask functions,
 * `mergeFromJson`, `patch`): for each message type a plan of its fields, built once, and the reads and writes
 * protobuf-es's representation asks for.
 *
 * protobuf-es holds a message as a plain object: each field under its `localName`, a oneof member inside
 * `{ case, value }` under the oneof's name, a wrapper in a singular field outside a oneof as its bare scalar, and
 * a Struct (except inside Value) as a JSON object. A field is set as protobuf-es's `isFieldSet` says: a field
 * with explicit presence when its property is present, a field without presence when it differs from its zero
 * value, a repeated or map field when it holds an element or entry.
 *
 * @module
 * @internal
 */
import type { DescField, DescMessage, ScalarType } from "@bufbuild/protobuf";
import { isScalarZeroValue, scalarZeroValue } from "@bufbuild/protobuf/reflect";
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { isMessageOf, notMessageError } from "../internal/message-type.js";
import { structIsPlainJson, wrapperIsUnboxed } from "../internal/field-form.js";
import { checkFieldKeys, keysOfField } from "../internal/field-keys.js";
import { defaultMaxDepth } from "../limits.js";
import { checkSchema } from "./registry.js";

/** A protobuf-es message as a record of its properties. @internal */
export type Msg = Record<string, unknown>;

/** Message-typed values that protobuf-es holds as the message. @internal */
export const boxNone = 0;
/** Message-typed values that protobuf-es unboxes to their scalar: a wrapper in a singular field outside a oneof. @internal */
export const boxWrapper = 1;
/** Message-typed values that protobuf-es holds as a JSON object: a Struct anywhere except inside Value. @internal */
export const boxStruct = 2;

/**
 * How to read and write one field of a protobuf-es message: where its value lives and how it is held. (Not
 * the JSON writer's `FieldPlan` of to-json.ts, which is how a field is written.)
 *
 * @internal
 */
export interface FieldAccess {
  readonly field: DescField;
  /** The proto name: a path segment. */
  readonly name: string;
  /** The property of the message object. */
  readonly local: string;
  /** The property of the oneof group, for a oneof member. */
  readonly oneof: string | undefined;
  /** A singular field (not in a oneof) whose presence is its own property: proto2, editions, proto3 `optional`, messages. */
  readonly explicit: boolean;
  readonly kind: "scalar" | "enum" | "message" | "list" | "map";
  /** How a message-typed value (singular, element or map value) is held; see {@link boxNone}. */
  readonly box: 0 | 1 | 2;
  /** The message type of the value, element or map value. */
  readonly message: DescMessage | undefined;
  /** The scalar type of the value, element or map value (the wrapped scalar for an unboxed wrapper). */
  readonly scalar: ScalarType | undefined;
  /** The key type of a map field. */
  readonly mapKey: ScalarType | undefined;
  /** The zero value of an enum field. */
  readonly enumZero: number;
}

/** The fields of a message type, as {@link FieldAccess} records, in declaration order and indexed. @internal */
export interface MessagePlan {
  readonly desc: DescMessage;
  readonly fields: readonly FieldAccess[];
  readonly byName: ReadonlyMap<string, FieldAccess>;
  /** Oneof members by their property name: the `case` of the group. */
  readonly byLocal: ReadonlyMap<string, FieldAccess>;
  readonly byNumber: ReadonlyMap<number, FieldAccess>;
}

const plans = new WeakMap<DescMessage, MessagePlan>();

/** The plan of a message type, built once. @internal */
export function planOf(desc: DescMessage): MessagePlan {
  let plan = plans.get(desc);
  if (plan === undefined) {
    checkSchema(desc); // the first sight of a descriptor from a caller
    const fields = desc.fields.map(fieldAccess);
    plan = {
      desc,
      fields,
      byName: new Map(fields.map((fp) => [fp.name, fp])),
      byLocal: new Map(fields.map((fp) => [fp.local, fp])),
      byNumber: new Map(fields.map((fp) => [fp.field.number, fp])),
    };
    plans.set(desc, plan);
  }
  return plan;
}

const implicitPresence = 2; // google.protobuf.FeatureSet.FieldPresence.IMPLICIT

function fieldAccess(f: DescField): FieldAccess {
  const message = f.message;
  let box: 0 | 1 | 2 = boxNone;
  let scalar = f.scalar;
  if (message !== undefined) {
    if (structIsPlainJson(f, message)) box = boxStruct;
    else if (wrapperIsUnboxed(f, message, f.fieldKind !== "message")) {
      box = boxWrapper;
      scalar = message.fields[0]!.scalar;
    }
  }
  return {
    field: f,
    name: f.name,
    local: f.localName,
    oneof: f.oneof?.localName,
    explicit:
      f.oneof === undefined &&
      (f.fieldKind === "message" ||
        ((f.fieldKind === "scalar" || f.fieldKind === "enum") && f.presence !== implicitPresence)),
    kind: f.fieldKind,
    box,
    message,
    scalar,
    mapKey: f.fieldKind === "map" ? f.mapKey : undefined,
    enumZero: f.enum?.values[0]?.number ?? 0,
  };
}

const jsonKeys = new WeakMap<MessagePlan, Map<string, FieldAccess>>();

/**
 * The fields of a message's JSON object by each key that names one ({@link keysOfField}: the JSON name and the
 * proto name).
 *
 * @throws {WktJsonError} rule `duplicate-field` for a type in which one key names two fields (checkFieldKeys).
 *
 * @internal
 */
export function fieldsByJsonKey(plan: MessagePlan): ReadonlyMap<string, FieldAccess> {
  let m = jsonKeys.get(plan);
  if (m === undefined) {
    checkFieldKeys(plan.desc);
    m = new Map();
    for (const fp of plan.fields) for (const key of keysOfField(fp.field)) m.set(key, fp);
    jsonKeys.set(plan, m);
  }
  return m;
}

const hasOwn = Object.prototype.hasOwnProperty;

/** Whether the field is set, as protobuf-es's `isFieldSet` says. @internal */
export function fieldIsSet(fp: FieldAccess, msg: Msg): boolean {
  if (fp.oneof !== undefined) {
    const o = msg[fp.oneof] as { case?: unknown } | undefined;
    return o != null && o.case === fp.local;
  }
  const v = msg[fp.local];
  if (fp.explicit) return v !== undefined && hasOwn.call(msg, fp.local);
  switch (fp.kind) {
    case "list":
      return Array.isArray(v) && v.length > 0;
    case "map":
      return typeof v === "object" && v !== null && hasOwnKey(v);
    case "enum":
      return v !== fp.enumZero;
    default:
      return !isScalarZeroValue(fp.scalar!, v);
  }
}

/** The field's value (a oneof member's only when it is the selected case). @internal */
export function fieldGet(fp: FieldAccess, msg: Msg): unknown {
  if (fp.oneof !== undefined) {
    const o = msg[fp.oneof] as { case?: unknown; value?: unknown } | undefined;
    return o != null && o.case === fp.local ? o.value : undefined;
  }
  return msg[fp.local];
}

/** Sets the field to `v` (a oneof member becomes the selected case). @internal */
export function fieldSet(fp: FieldAccess, msg: Msg, v: unknown): void {
  if (fp.oneof !== undefined) msg[fp.oneof] = { case: fp.local, value: v };
  else msg[fp.local] = v;
}

/** Clears the field: unset with explicit presence, its zero value without. @internal */
export function fieldClear(fp: FieldAccess, msg: Msg): void {
  if (fp.oneof !== undefined) {
    const o = msg[fp.oneof] as { case?: unknown } | undefined;
    if (o != null && o.case === fp.local) msg[fp.oneof] = { case: undefined };
    return;
  }
  if (fp.explicit) {
    delete msg[fp.local];
    return;
  }
  switch (fp.kind) {
    case "list":
      msg[fp.local] = [];
      return;
    case "map":
      msg[fp.local] = {};
      return;
    case "enum":
      msg[fp.local] = fp.enumZero;
      return;
    default:
      msg[fp.local] = scalarZeroValue(fp.scalar!, (fp.field as { longAsString?: boolean }).longAsString === true);
  }
}

/** Whether an object has an own enumerable key (without listing its keys). @internal */
export function hasOwnKey(obj: object): boolean {
  for (const k in obj) if (hasOwn.call(obj, k)) return true;
  return false;
}

/** A message-typed value as a record, or a `json-type` error. @internal */
export function asMsg(v: unknown, fp: FieldAccess): Msg {
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    throw new WktJsonError(
      "json-type",
      "$",
      fp.field.parent.typeName,
      `field "${fp.name}": expected a ${fp.message!.typeName} message, got ${describe(v)}`,
    );
  }
  return v as Msg;
}

/**
 * Throws `json-type` unless `msg` is a message of `schema`; `what` names the argument. The rule and its
 * message are message-type.ts's; this form takes the descriptor, as the field-mask functions hold it.
 *
 * @internal
 */
export function checkMessage(schema: DescMessage, msg: unknown, what: string): void {
  if (!isMessageOf(msg, schema.typeName)) throw notMessageError(msg, schema.typeName, what);
}

/** The `depth` error for messages nested beyond the codec's limit. @internal */
export function depthError(desc: DescMessage): WktJsonError {
  return new WktJsonError("depth", "$", desc.typeName, `messages nest deeper than ${defaultMaxDepth} levels`);
}
