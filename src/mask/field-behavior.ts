/**
 * Field behaviour for PATCH (AIP-203): which fields are OUTPUT_ONLY, IMMUTABLE (or IDENTIFIER) and REQUIRED, and
 * the check of an updated message against them.
 *
 * AIP-203, `google.api.field_behavior` (read from each field's options when the descriptor carries them, as
 * extension 1052 of google.protobuf.FieldOptions, or given as lists of paths):
 *
 * - OUTPUT_ONLY: "the field is provided in responses, but including the field in a request does nothing (the
 *   server must clear out any value in this field and must not throw an error as a result of the presence of a
 *   value)". Such members of the body are dropped, and mask paths naming them ignored; with `strict: true`
 *   either is an error. Where the mask replaces a message holding an output-only field, the stored value is
 *   kept. Inside lists and maps (no identity to find the stored value by) the field is cleared.
 * - IMMUTABLE (and IDENTIFIER): "the field may be set in a request that creates the resource, but may not be
 *   changed afterwards": an update that changes a value set in the stored resource is an error; sending the
 *   same value, or setting a field the stored resource lacks, is not.
 * - REQUIRED: "a field ... must be provided": an update that leaves it unset (or at its default, for fields
 *   without presence) is an error, for the fields the mask touches; in a message the update sets, its required
 *   fields too.
 *
 * @module
 * @internal
 */
import type { DescField } from "@bufbuild/protobuf";
import { hasCustomJsonRepresentation } from "@bufbuild/protobuf/wkt";
import { BinaryReader } from "@bufbuild/protobuf/wire";
import { WktJsonError } from "../errors.js";
import { LEAF, type Node } from "../internal/mask-trie.js";
import { charge, type WorkMeter } from "../internal/meter.js";
import { defaultMaxDepth } from "../limits.js";
import { pathJoin, type PathSegment } from "../path.js";
import {
  boxNone,
  depthError,
  fieldGet,
  fieldIsSet,
  planOf,
  type FieldAccess,
  type MessagePlan,
  type Msg,
} from "../wkt/field-access.js";
import { fieldValueEquals } from "../wkt/message-equals.js";

/** Behaviour bits: OUTPUT_ONLY. */
export const outputOnlyBit = 1;
/** IMMUTABLE or IDENTIFIER. */
export const immutableBit = 2;
/** REQUIRED. */
export const requiredBit = 4;

/** google.api.field_behavior: `repeated google.api.FieldBehavior field_behavior = 1052` on FieldOptions. */
const fieldBehaviorExtension = 1052;
const behaviorRequired = 2;
const behaviorOutputOnly = 3;
const behaviorImmutable = 5;
const behaviorIdentifier = 8;

const behaviorCache = new WeakMap<DescField, number>();

/**
 * The field's behaviour bits from its descriptor options. protobuf-es keeps an extension the registry does not
 * know among the options' unknown fields (`$unknown`, raw wire data), which is where this reads it, packed or
 * not; options it cannot read count as none.
 */
function descriptorBehavior(field: DescField): number {
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
          else if (v === behaviorImmutable || v === behaviorIdentifier) bits |= immutableBit;
          else if (v === behaviorRequired) bits |= requiredBit;
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
 * what the client sent (a `0` Int32Value or the epoch are values), and a message type without fields; any other field when it is set
 * (`fieldIsSet`: a non-empty list or map, a scalar off its default, or set at all with explicit presence).
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

/**
 * Where a walk stands in the tree of paths to restore, made only when a path is added: the node of the message
 * being walked, or how to make it from its parent's.
 */
export interface RestoreAt {
  readonly parent: RestoreAt | undefined;
  readonly name: string;
  node: Node | undefined;
}

/** The node of `at` in the restore tree, made (with its parents) if needed. */
function restoreNode(at: RestoreAt): Node {
  if (at.node !== undefined) return at.node;
  const parent = restoreNode(at.parent!);
  parent.children ??= new Map();
  let n = parent.children.get(at.name);
  if (n === undefined) parent.children.set(at.name, (n = { leaf: false, children: undefined, any: undefined }));
  return (at.node = n);
}

/** The state of {@link checkBehavior}: the meter, and the output-only fields found to restore. */
export interface BehaviorWalk {
  /** The call's work meter. */
  m: WorkMeter;
  /**
   * The output-only fields inside what the mask replaced (reached through singular message fields), to take
   * from the stored resource: a trie of proto names from the root, filled as they are found.
   */
  restore: Node;
}

/**
 * Checks AIP-203 on the result where the mask touched it: immutable fields against the stored resource (found
 * through singular message fields; `stored` is undefined inside lists and maps), required fields set, and
 * records output-only fields to restore. `lists` is the path lists' node of this message and `restore` where it
 * stands in the restore tree, both undefined inside lists and maps, where paths are not known.
 *
 * Each message visited costs a step per field of its type, as decoding it did (protobuf-es makes every field of
 * a message it creates): the meter is charged a step per message and per field the walk goes into.
 */
export function checkBehavior(
  plan: MessagePlan,
  result: Msg,
  stored: Msg | undefined,
  node: Node | typeof ALL,
  lists: BehaviorLists | undefined,
  restore: RestoreAt | undefined,
  at: PathSegment[],
  walk: BehaviorWalk,
  depthLeft: number,
): void {
  if (depthLeft <= 0) throw depthError(plan.desc);
  charge(walk.m, 1);
  for (const fp of plan.fields) {
    let child: Node | typeof ALL | undefined;
    if (node === ALL) child = ALL;
    else {
      const c = node.children?.get(fp.name);
      child = c === undefined ? undefined : c.leaf ? ALL : c;
    }
    if (child === undefined) continue;
    const bits = behavior(lists, fp);
    const jsonAt = (): string => pathJoin("$", ...at, fp.field.jsonName);
    if ((bits & outputOnlyBit) !== 0) {
      if (restore !== undefined && stored !== undefined && child === ALL) {
        const r = restoreNode(restore);
        (r.children ??= new Map()).set(fp.name, LEAF);
      }
      continue;
    }
    const set = fieldIsSet(fp, result);
    if ((bits & immutableBit) !== 0 && stored !== undefined && fieldIsSet(fp, stored)) {
      if (!set || !fieldValueEquals(fp, fieldGet(fp, result), fieldGet(fp, stored), defaultMaxDepth)) {
        throw new WktJsonError(
          "field-behavior",
          jsonAt(),
          plan.desc.typeName,
          `${fp.name} is IMMUTABLE: it may not change once set`,
        );
      }
    }
    if ((bits & requiredBit) !== 0 && !requiredPresent(fp, result, walk.m, depthLeft)) {
      throw new WktJsonError(
        "field-behavior",
        jsonAt(),
        plan.desc.typeName,
        `${fp.name} is REQUIRED: an update may not clear it`,
      );
    }
    if (!set || fp.message === undefined || fp.box !== boxNone) continue;
    charge(walk.m, 1);
    const sub = planOf(fp.message);
    const v = fieldGet(fp, result);
    at.push(fp.field.jsonName);
    if (fp.kind === "message") {
      const s = stored !== undefined && fieldIsSet(fp, stored) ? (fieldGet(fp, stored) as Msg) : undefined;
      const below: RestoreAt | undefined =
        restore === undefined ? undefined : { parent: restore, name: fp.name, node: undefined };
      checkBehavior(sub, v as Msg, s, child, behaviorBelow(lists, fp), below, at, walk, depthLeft - 1);
    } else if (child === ALL && fp.kind === "list") {
      const list = v as Msg[];
      for (let i = 0; i < list.length; i++) {
        at.push(i);
        checkBehavior(sub, list[i]!, undefined, ALL, undefined, undefined, at, walk, depthLeft - 1);
        at.pop();
      }
    } else if (fp.kind === "map") {
      const map = v as Record<string, Msg>;
      for (const key of Object.keys(map)) {
        let c: Node | typeof ALL | undefined = ALL;
        if (child !== ALL) {
          const n = child.children?.get(key) ?? child.any;
          c = n === undefined ? undefined : n.leaf ? ALL : n;
        }
        if (c === undefined) continue;
        at.push(key);
        checkBehavior(sub, map[key]!, undefined, c, undefined, undefined, at, walk, depthLeft - 1);
        at.pop();
      }
    }
    at.pop();
  }
}
