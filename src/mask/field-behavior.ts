/**
 * Field behaviour for PATCH (AIP-203): which fields are OUTPUT_ONLY, IMMUTABLE (or IDENTIFIER) and REQUIRED, and
 * the walk that applies them to an updated message.
 *
 * AIP-203, `google.api.field_behavior` (read from each field's options when the descriptor carries them, as
 * extension 1052 of google.protobuf.FieldOptions, or given as lists of paths through singular message fields):
 *
 * - OUTPUT_ONLY: "the field is provided in responses, but including the field in a request does nothing (the
 *   server must clear out any value in this field and must not throw an error as a result of the presence of a
 *   value)"; AIP-161: a service "must ignore any output only fields provided as input, even if they are cleared
 *   or modified". Such members of the body are dropped, and mask paths naming them ignored; with `strict: true`
 *   either is an error. Wherever the mask rewrites something above an output-only field (a parent message, `*`,
 *   a map entry, a list), the stored value is kept: of the stored message, of the stored map entry of the same
 *   key, of the stored list element at the same position (a list has no other identity). An output-only field
 *   the stored resource leaves unset stays unset.
 * - IMMUTABLE (and IDENTIFIER): "may be set in a request to create a resource, but may not be changed after": an
 *   update that changes a value set in the stored resource is an error, also by clearing a message or removing
 *   a map entry that holds it; so is setting one the stored resource leaves unset, unless `immutableSetOnce`.
 *   Sending the same value is not. Inside lists it is not checked (an element has no identity to compare by).
 * - REQUIRED: "a field ... must be provided": an update that leaves it unset (or at its default, for fields
 *   without presence; a message with no field off its default) is an error, for the fields the mask touches;
 *   in a message, list element or map value the update sets, its required fields too, and in a message or map
 *   entry the stored resource lacks, all of them (the update brings the whole message into being).
 *
 * A field that is OUTPUT_ONLY and also REQUIRED or IMMUTABLE (the descriptor's and the path lists' bits are
 * one set) is treated as OUTPUT_ONLY: a request can neither provide nor change it. Field behaviour applies to
 * the fields of the schema: not inside an Any's packed message (the client's bytes, which a service that
 * unpacks them checks) nor to extensions, which a FieldMask cannot name.
 *
 * @module
 * @internal
 */
import { create, type DescField, type DescMessage } from "@bufbuild/protobuf";
import { hasCustomJsonRepresentation } from "@bufbuild/protobuf/wkt";
import { BinaryReader } from "@bufbuild/protobuf/wire";
import { WktJsonError } from "../errors.js";
import type { Node } from "../internal/mask-trie.js";
import { charge, type WorkMeter } from "../internal/meter.js";
import type { PathSegment } from "../path.js";
import {
  boxNone,
  depthError,
  fieldClear,
  fieldGet,
  fieldIsSet,
  fieldSet,
  planOf,
  type FieldAccess,
  type MessagePlan,
  type Msg,
} from "../wkt/field-access.js";
import { fieldValueEquals } from "../wkt/message-equals.js";
import { clientPath } from "./client-path.js";
import { copyFieldValue } from "./message-copy.js";

const hasOwn = Object.prototype.hasOwnProperty;

/** Behaviour bits: OUTPUT_ONLY. */
export const outputOnlyBit = 1;
/** IMMUTABLE or IDENTIFIER. */
export const immutableBit = 2;
/** REQUIRED. */
export const requiredBit = 4;
/**
 * IDENTIFIER (always with {@link immutableBit}): AIP-203, "not accepted as input (i.e. OUTPUT_ONLY) in the
 * context of a create method, and considered IMMUTABLE when accepted as input in any other method".
 */
export const identifierBit = 8;
/**
 * INPUT_ONLY (AIP-203: "the field is provided in requests, and the corresponding field is not included in
 * output"). Only `jsonSchema` reads it (`writeOnly`), through {@link fieldIsInputOnly}: {@link behavior} and
 * {@link behaviorOfType} leave it out, so that the walks of PATCH and create do not visit such fields.
 */
export const inputOnlyBit = 16;

/** google.api.field_behavior: `repeated google.api.FieldBehavior field_behavior = 1052` on FieldOptions. */
const fieldBehaviorExtension = 1052;
const behaviorRequired = 2;
const behaviorOutputOnly = 3;
const behaviorInputOnly = 4;
const behaviorImmutable = 5;
const behaviorIdentifier = 8;

const behaviorCache = new WeakMap<DescField, number>();

/** The field's behaviour bits from its descriptor options, without {@link inputOnlyBit}. */
function descriptorBehavior(field: DescField): number {
  return descriptorBits(field) & ~inputOnlyBit;
}

/**
 * Whether the field's descriptor options mark it INPUT_ONLY.
 *
 * @throws never
 */
export function fieldIsInputOnly(field: DescField): boolean {
  return (descriptorBits(field) & inputOnlyBit) !== 0;
}

/**
 * The field's behaviour bits from its descriptor options. protobuf-es keeps an extension the registry does not
 * know among the options' unknown fields (`$unknown`, raw wire data), which is where this reads it, packed or
 * not; options it cannot read count as none.
 */
function descriptorBits(field: DescField): number {
  let bits = behaviorCache.get(field);
  if (bits !== undefined) return bits;
  bits = 0;
  const unknown = (
    field.proto?.options as { $unknown?: { no: number; wireType: number; data: Uint8Array }[] } | undefined
  )?.$unknown;
  if (Array.isArray(unknown)) {
    for (const u of unknown) {
      if (u.no !== fieldBehaviorExtension) continue;
      try {
        const r = new BinaryReader(u.data);
        const values: number[] = [];
        if (u.wireType === 0) values.push(r.int32());
        else if (u.wireType === 2) {
          const end = r.uint32() + r.pos;
          while (r.pos < end) values.push(r.int32());
        }
        for (const v of values) {
          if (v === behaviorOutputOnly) bits |= outputOnlyBit;
          else if (v === behaviorImmutable) bits |= immutableBit;
          else if (v === behaviorIdentifier) bits |= immutableBit | identifierBit;
          else if (v === behaviorRequired) bits |= requiredBit;
          else if (v === behaviorInputOnly) bits |= inputOnlyBit;
        }
      } catch {
        // Malformed option bytes: no behaviour.
      }
    }
  }
  behaviorCache.set(field, bits);
  return bits;
}

/**
 * The path lists of field behaviour (the `outputOnly`, `immutable` and `required` options) as a tree of proto
 * names from the root: each node holds the bits its path was given. Walks go down it beside the data, so that no
 * path string is built per field per level.
 */
export interface BehaviorLists {
  bits: number;
  children: Map<string, BehaviorLists> | undefined;
}

/** Adds `bit` to the path `segs` of the lists. */
export function addBehavior(root: BehaviorLists, segs: readonly string[], bit: number): void {
  let node = root;
  for (const s of segs) {
    node.children ??= new Map();
    let next = node.children.get(s);
    if (next === undefined) node.children.set(s, (next = { bits: 0, children: undefined }));
    node = next;
  }
  node.bits |= bit;
}

/**
 * The lists' node of a field of the message whose node is `lists`, or undefined (no entries below, or the path
 * is not known: inside lists and maps the path lists do not reach).
 */
export function behaviorBelow(lists: BehaviorLists | undefined, fp: FieldAccess): BehaviorLists | undefined {
  return lists?.children?.get(fp.name);
}

/**
 * The behaviour bits of a field: its descriptor's, and those the path lists give it (`lists` is the node of the
 * message holding the field, undefined where its path is not known: inside lists and maps).
 */
export function behavior(lists: BehaviorLists | undefined, fp: FieldAccess): number {
  const bits = descriptorBehavior(fp.field);
  const own = lists?.children?.get(fp.name);
  return own === undefined ? bits : bits | own.bits;
}

/**
 * Whether a REQUIRED field counts as provided (AIP-203: "a message is present if it has at least one field
 * that is not at its default value"): a singular message field holding a message of which at least one field
 * is present by this rule (recursively, so `{city: ""}` and `{address: {}}` are absent); a well-known type with
 * its own JSON form (Timestamp, Duration, a wrapper, Struct, ...) when it is set at all, as its JSON value is
 * what the client sent (a `0` Int32Value or the epoch are values), and a message type without fields; any
 * other field when it is set (`fieldIsSet`: a non-empty list or map, a scalar off its default, or set at all
 * with explicit presence).
 * Each message looked into costs a step per field.
 */
export function requiredPresent(fp: FieldAccess, msg: Msg, m: WorkMeter, depthLeft: number): boolean {
  if (!fieldIsSet(fp, msg)) return false;
  if (fp.kind !== "message" || fp.box !== boxNone || hasCustomJsonRepresentation(fp.message!)) return true;
  return messageHasValue(planOf(fp.message!), fieldGet(fp, msg) as Msg, m, depthLeft - 1);
}

/** Whether a message has a field present by the rule of {@link requiredPresent}. */
function messageHasValue(plan: MessagePlan, msg: Msg, m: WorkMeter, depthLeft: number): boolean {
  if (depthLeft <= 0) throw depthError(plan.desc);
  if (plan.fields.length === 0) return true; // a message without fields (Empty) is its presence
  charge(m, plan.fields.length + 1);
  for (const fp of plan.fields) if (requiredPresent(fp, msg, m, depthLeft)) return true;
  return false;
}

/** Everything below: the mask names the whole value. */
export const ALL: unique symbol = Symbol("all");

const typeBitsCache = new WeakMap<DescMessage, number>();

/**
 * The behaviour bits the descriptor gives a field of a message type or of any type below it (through message,
 * list and map fields, recursively), found once per type: a walk does not go into a type whose bits it does
 * not want, so that types without field behaviour cost nothing.
 */
export function behaviorOfType(desc: DescMessage): number {
  let bits = typeBitsCache.get(desc);
  if (bits !== undefined) return bits;
  bits = 0;
  const seen = new Set<DescMessage>([desc]);
  const todo = [desc];
  for (let d = todo.pop(); d !== undefined; d = todo.pop()) {
    for (const f of d.fields) {
      bits |= descriptorBehavior(f);
      const sub = f.message;
      if (sub !== undefined && !seen.has(sub)) {
        seen.add(sub);
        todo.push(sub);
      }
    }
  }
  typeBitsCache.set(desc, bits);
  return bits;
}

const withBehaviorCache = new WeakMap<MessagePlan, readonly FieldAccess[]>();

/**
 * The fields of a message type that have a behaviour in the descriptor or hold a message (not a wrapper or
 * Struct) of a type with one below it ({@link behaviorOfType}), in declaration order: all a walk that knows no
 * path list here looks at.
 */
function fieldsWithBehavior(plan: MessagePlan): readonly FieldAccess[] {
  let fields = withBehaviorCache.get(plan);
  if (fields === undefined) {
    fields = plan.fields.filter(
      (fp) =>
        descriptorBehavior(fp.field) !== 0 ||
        (fp.message !== undefined && fp.box === boxNone && behaviorOfType(fp.message) !== 0),
    );
    withBehaviorCache.set(plan, fields);
  }
  return fields;
}

/** The state of {@link keepBehavior}. */
export interface BehaviorWalk {
  /** The call's work meter, charged for what the update holds. */
  m: WorkMeter;
  /**
   * The meter of the walks of what the update cleared: those read the stored resource, which the server holds
   * and the merge has copied already, so they are not charged to the client's allowance (but depth-bounded).
   * Each stored node is read once (a oneof's selected member once per other member the mask names), so the
   * work is linear in the stored resource, as the merge's copy of it is; a stored resource that came from a
   * client went through the same limits when it was written.
   */
  free: WorkMeter;
  /** `immutableSetOnce`: an IMMUTABLE field the stored resource leaves unset may be set. */
  setOnce: boolean;
  /** Below a cleared message or map entry: the length of `at` that names it, for the error's detail; else -1. */
  cleared: number;
  /** The root message's plan and the request body as the client sent it: errors name its keys (client-path.ts). */
  root: MessagePlan;
  body: unknown;
  /** The update mask is `*` (full replacement): a field the body leaves out is cleared by it. */
  star?: boolean;
}

/** Walk mode: below a list element, which has no identity, so IMMUTABLE is not checked. */
const inList = 1;
/** Walk mode: below a message or map entry the update cleared; `result` is a new message to keep things in. */
const inCleared = 2;

/**
 * Applies AIP-203 to the merged result of a PATCH, in place, where the mask touched it (`node`; {@link ALL}
 * where it names the whole value), walking the result and the stored resource together:
 *
 * - an OUTPUT_ONLY field takes the stored value (a copy), or is cleared where the stored resource has none: of
 *   the stored message at the same place, for a map entry the stored entry of the same key, for a list element
 *   the stored element at the same position (a list has no other identity). Where the update cleared a message
 *   whose stored value holds output-only fields, a message holding just those is put in its place. In a oneof
 *   whose other member the update selects, that choice stands.
 * - an IMMUTABLE (or IDENTIFIER) field set in the stored resource must keep its value, also where the update
 *   clears a message or removes a map entry that holds it; one the stored resource leaves unset may not be set
 *   unless `setOnce`. Inside lists it is not checked: an element has no identity to compare it by.
 * - a REQUIRED field must be present ({@link requiredPresent}), in what the update holds (not below a message
 *   it cleared); a message or map entry the stored resource lacks is walked whole, whatever the mask names.
 *
 * `stored` is the stored message at the same place, undefined where it has none; `lists` the path lists' node
 * of this message (undefined inside lists and maps, where the lists do not reach); `mode` the walk modes.
 * Returns whether it set a field of `result` (whether a new message for a cleared one is worth keeping).
 *
 * Each message visited costs a step, and a step per field it looks at (where the mask names the whole value,
 * the fields {@link fieldsWithBehavior} lists) and per list element or map entry; depth-bounded.
 */
export function keepBehavior(
  plan: MessagePlan,
  result: Msg,
  stored: Msg | undefined,
  node: Node | typeof ALL,
  lists: BehaviorLists | undefined,
  at: PathSegment[],
  walk: BehaviorWalk,
  mode: number,
  depthLeft: number,
): boolean {
  if (depthLeft <= 0) {
    const detail = "the updated resource: messages nest deeper than maxDepth allows";
    throw new WktJsonError("depth", clientPath(walk.root, walk.body, at), plan.desc.typeName, detail);
  }
  const m = (mode & inCleared) !== 0 ? walk.free : walk.m;
  let wanted = outputOnlyBit | immutableBit | requiredBit;
  if ((mode & inList) !== 0) wanted &= ~immutableBit;
  if ((mode & inCleared) !== 0) wanted &= ~requiredBit;
  let kept = false;
  if (node === ALL) {
    // Where the path lists name fields of this message, every field; else those the descriptor gives a behaviour.
    const fields = lists?.children !== undefined ? plan.fields : fieldsWithBehavior(plan);
    charge(m, fields.length + 1);
    for (const fp of fields) {
      if (keepField(plan, fp, result, stored, ALL, lists, at, walk, mode, wanted, depthLeft)) kept = true;
    }
  } else if (node.children !== undefined) {
    charge(m, node.children.size + 1);
    for (const [name, child] of node.children) {
      const fp = plan.byName.get(name)!;
      const c = child.leaf ? ALL : child;
      if (keepField(plan, fp, result, stored, c, lists, at, walk, mode, wanted, depthLeft)) kept = true;
      // Setting a oneof member clears the member the stored resource selects: the update touches that too.
      const other = fp.oneof === undefined || stored === undefined ? undefined : selectedMember(plan, fp, stored);
      if (other !== undefined && other !== fp && !node.children.has(other.name)) {
        if (keepField(plan, other, result, stored, ALL, lists, at, walk, mode, wanted, depthLeft)) kept = true;
      }
    }
  }
  return kept;
}

/** The member of `fp`'s oneof that `msg` selects, if any. */
function selectedMember(plan: MessagePlan, fp: FieldAccess, msg: Msg): FieldAccess | undefined {
  const selected = (msg[fp.oneof!] as { case?: unknown } | undefined)?.case;
  return typeof selected === "string" ? plan.byLocal.get(selected) : undefined;
}

/** {@link keepBehavior} for one field the mask touched. */
function keepField(
  plan: MessagePlan,
  fp: FieldAccess,
  result: Msg,
  stored: Msg | undefined,
  node: Node | typeof ALL,
  lists: BehaviorLists | undefined,
  at: PathSegment[],
  walk: BehaviorWalk,
  mode: number,
  wanted: number,
  depthLeft: number,
): boolean {
  const bits = behavior(lists, fp) & wanted;
  const below = behaviorBelow(lists, fp);
  const deeper =
    fp.message !== undefined &&
    fp.box === boxNone &&
    (below?.children !== undefined || (behaviorOfType(fp.message) & wanted) !== 0);
  if (bits === 0 && !deeper) return false;
  if ((bits & outputOnlyBit) !== 0) return keepOutputOnly(fp, result, stored, depthLeft);
  if ((bits & requiredBit) !== 0 && !requiredPresent(fp, result, walk.m, depthLeft)) {
    throw new WktJsonError(
      "field-behavior",
      clientPath(walk.root, walk.body, [...at, fp.field.jsonName]),
      plan.desc.typeName,
      `${fp.name} is REQUIRED: an update may not clear it or leave it empty; send a value for it`,
    );
  }
  let kept = false;
  if (deeper) {
    at.push(fp.field.jsonName);
    kept = keepBelow(fp, result, stored, node, below, at, walk, mode, depthLeft);
    at.pop();
  }
  // After the walk below, which put back the output-only fields the body could not send.
  if ((bits & immutableBit) !== 0) {
    const named = bits | (behavior(lists, fp) & identifierBit); // `wanted` has no bit for IDENTIFIER: its name
    checkImmutable(plan, fp, named, result, stored, at, walk, mode, depthLeft);
  }
  return kept;
}

/** An output-only field: the stored value, or unset. Returns whether the field is now set. */
function keepOutputOnly(fp: FieldAccess, result: Msg, stored: Msg | undefined, depthLeft: number): boolean {
  if (fp.oneof !== undefined) {
    const selected = (result[fp.oneof] as { case?: unknown } | undefined)?.case;
    if (selected !== undefined && selected !== fp.local) return false;
  }
  if (stored !== undefined && fieldIsSet(fp, stored)) {
    fieldSet(fp, result, copyFieldValue(fp, fieldGet(fp, stored), depthLeft));
    return true;
  }
  fieldClear(fp, result);
  return false;
}

/** The walk into a message, list or map field of messages (`at` ends with the field). */
function keepBelow(
  fp: FieldAccess,
  result: Msg,
  stored: Msg | undefined,
  node: Node | typeof ALL,
  below: BehaviorLists | undefined,
  at: PathSegment[],
  walk: BehaviorWalk,
  mode: number,
  depthLeft: number,
): boolean {
  const sub = planOf(fp.message!);
  const sv = stored !== undefined && fieldIsSet(fp, stored) ? fieldGet(fp, stored) : undefined;
  if (fp.kind === "message") {
    if (fieldIsSet(fp, result)) {
      // A message the stored resource lacks is new as a whole: every field of it is the update's (REQUIRED too).
      const n = sv === undefined ? ALL : node;
      return keepBehavior(sub, fieldGet(fp, result) as Msg, sv as Msg, n, below, at, walk, mode, depthLeft - 1);
    }
    if (sv === undefined) return false;
    // Cleared (or, in a oneof, replaced by another member): keep what the stored message holds that the
    // client may not change, in a new message that replaces the cleared one only if it holds something.
    const fresh = create(sub.desc) as Msg;
    if (!keepCleared(sub, fresh, sv as Msg, below, at, walk, mode, depthLeft)) return false;
    const selected = fp.oneof === undefined ? undefined : (result[fp.oneof] as { case?: unknown } | undefined)?.case;
    if (selected !== undefined && selected !== fp.local) return false;
    fieldSet(fp, result, fresh);
    return true;
  }
  const m = (mode & inCleared) !== 0 ? walk.free : walk.m;
  if (fp.kind === "list") {
    // Element i against the stored element i: a list element has no other identity.
    const list = fieldGet(fp, result) as Msg[];
    const old = sv as Msg[] | undefined;
    charge(m, list.length);
    for (let i = 0; i < list.length; i++) {
      at.push(i);
      keepBehavior(sub, list[i]!, old?.[i], ALL, undefined, at, walk, mode | inList, depthLeft - 1);
      at.pop();
    }
    return false;
  }
  // A map: each entry against the stored entry of the same key; an entry removed may not take immutable values.
  const map = fieldGet(fp, result) as Msg;
  const old = sv as Msg | undefined;
  const visit = (key: string, n: Node | typeof ALL): void => {
    at.push(key);
    const s = old !== undefined && hasOwn.call(old, key) ? (old[key] as Msg) : undefined;
    if (hasOwn.call(map, key)) {
      // A new entry is the update's as a whole, as a new message is.
      keepBehavior(sub, map[key] as Msg, s, s === undefined ? ALL : n, undefined, at, walk, mode, depthLeft - 1);
    } else if (s !== undefined && (mode & inList) === 0 && (behaviorOfType(sub.desc) & immutableBit) !== 0) {
      keepCleared(sub, create(sub.desc) as Msg, s, undefined, at, walk, mode, depthLeft);
    }
    at.pop();
  };
  if (node === ALL) {
    const keys = Object.keys(map);
    charge(m, keys.length);
    for (const key of keys) visit(key, ALL);
    if (old !== undefined) for (const key of Object.keys(old)) if (!hasOwn.call(map, key)) visit(key, ALL);
  } else if (node.children !== undefined) {
    // AIP-161 keys in the mask (`labels.env`).
    charge(m, node.children.size);
    for (const [key, n] of node.children) visit(key, n.leaf ? ALL : n);
  }
  return false;
}

/** The walk of a stored message the update cleared (`at` names it), `fresh` the new message to keep things in. */
function keepCleared(
  plan: MessagePlan,
  fresh: Msg,
  stored: Msg,
  lists: BehaviorLists | undefined,
  at: PathSegment[],
  walk: BehaviorWalk,
  mode: number,
  depthLeft: number,
): boolean {
  if ((mode & inCleared) !== 0) return keepBehavior(plan, fresh, stored, ALL, lists, at, walk, mode, depthLeft - 1);
  walk.cleared = at.length;
  const kept = keepBehavior(plan, fresh, stored, ALL, lists, at, walk, mode | inCleared, depthLeft - 1);
  walk.cleared = -1;
  return kept;
}

/**
 * AIP-203 IMMUTABLE: "may be set in a request to create a resource, but may not be changed after"; IDENTIFIER:
 * "considered `IMMUTABLE` and accepted as input for mutation methods that accept the resource as the primary
 * input e.g. Standard Update". The error names the behaviour the field has (`bits`) and what the update did to it.
 */
function checkImmutable(
  plan: MessagePlan,
  fp: FieldAccess,
  bits: number,
  result: Msg,
  stored: Msg | undefined,
  at: PathSegment[],
  walk: BehaviorWalk,
  mode: number,
  depthLeft: number,
): void {
  const set = fieldIsSet(fp, result);
  const kind = (bits & identifierBit) !== 0 ? "IDENTIFIER" : "IMMUTABLE";
  let detail: string;
  if (stored !== undefined && fieldIsSet(fp, stored)) {
    if (set && fieldValueEquals(fp, fieldGet(fp, result), fieldGet(fp, stored), depthLeft)) return;
    if ((mode & inCleared) !== 0) {
      const parent = clientPath(walk.root, walk.body, at.slice(0, walk.cleared));
      detail = `${fp.name} is ${kind}: the update clears ${parent}, which holds it; send it with its stored value`;
    } else if (!set && walk.star === true) {
      detail =
        `${fp.name} is ${kind}, which an update may not change: the update mask "*" replaces the whole resource ` +
        `and the body leaves ${fp.name} out, which would clear it; send ${fp.name} with its stored value`;
    } else if (!set) {
      detail =
        `${fp.name} is ${kind}: the update clears it (the mask names it and the body gives it no value); send ` +
        `its stored value or leave it out of the update`;
    } else {
      detail = `${fp.name} is ${kind}: it may not change once set; send its stored value or leave it out of the update`;
    }
  } else {
    if (!set || walk.setOnce) return;
    detail =
      `${fp.name} is ${kind}: the stored resource leaves it unset, and it may be set only when the resource ` +
      `is created (option immutableSetOnce: once); leave it out of the update`;
  }
  const path = clientPath(walk.root, walk.body, [...at, fp.field.jsonName]);
  throw new WktJsonError("field-behavior", path, plan.desc.typeName, detail);
}
