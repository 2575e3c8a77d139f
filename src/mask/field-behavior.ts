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
import { BinaryReader } from "@bufbuild/protobuf/wire";
import { WktJsonError } from "../errors.js";
import type { Node } from "../internal/mask-trie.js";
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

export /**
 * The behaviour bits of a field: its descriptor's, and those the path lists (`lists`, by proto path from the
 * root) give it when its path is known (`path` is undefined inside lists and maps).
 */
function behavior(lists: ReadonlyMap<string, number>, fp: FieldAccess, path: string | undefined): number {
  const bits = descriptorBehavior(fp.field);
  return path === undefined || lists.size === 0 ? bits : bits | (lists.get(path) ?? 0);
}

/** Everything below: the mask names the whole value. */
export const ALL: unique symbol = Symbol("all");

/** The state of {@link checkBehavior}: the path lists, and the output-only paths found to restore. */
export interface BehaviorWalk {
  /** Field behaviour by proto path from the root, from the path lists. */
  lists: ReadonlyMap<string, number>;
  /** Proto paths of output-only fields inside what the mask replaced, to take from the stored resource. */
  restore: string[];
}

/**
 * Checks AIP-203 on the result where the mask touched it: immutable fields against the stored resource (found
 * through singular message fields; `stored` is undefined inside lists and maps), required fields set, and
 * records output-only fields to restore. `prefix` is the proto path from the root, or undefined inside lists
 * and maps, where the path lists do not reach.
 */
export function checkBehavior(
  plan: MessagePlan,
  result: Msg,
  stored: Msg | undefined,
  node: Node | typeof ALL,
  prefix: string | undefined,
  at: PathSegment[],
  walk: BehaviorWalk,
  depthLeft: number,
): void {
  if (depthLeft <= 0) throw depthError(plan.desc);
  for (const fp of plan.fields) {
    let child: Node | typeof ALL | undefined;
    if (node === ALL) child = ALL;
    else {
      const c = node.children?.get(fp.name);
      child = c === undefined ? undefined : c.leaf ? ALL : c;
    }
    if (child === undefined) continue;
    const path = prefix === undefined ? undefined : prefix + fp.name;
    const bits = behavior(walk.lists, fp, path);
    const jsonAt = (): string => pathJoin("$", ...at, fp.field.jsonName);
    if ((bits & outputOnlyBit) !== 0) {
      if (path !== undefined && stored !== undefined && child === ALL) walk.restore.push(path);
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
    if ((bits & requiredBit) !== 0 && !set) {
      throw new WktJsonError(
        "field-behavior",
        jsonAt(),
        plan.desc.typeName,
        `${fp.name} is REQUIRED: an update may not clear it`,
      );
    }
    if (!set || fp.message === undefined || fp.box !== boxNone) continue;
    const sub = planOf(fp.message);
    const v = fieldGet(fp, result);
    at.push(fp.field.jsonName);
    if (fp.kind === "message") {
      const s = stored !== undefined && fieldIsSet(fp, stored) ? (fieldGet(fp, stored) as Msg) : undefined;
      checkBehavior(sub, v as Msg, s, child, path === undefined ? undefined : path + ".", at, walk, depthLeft - 1);
    } else if (child === ALL && fp.kind === "list") {
      const list = v as Msg[];
      for (let i = 0; i < list.length; i++) {
        at.push(i);
        checkBehavior(sub, list[i]!, undefined, ALL, undefined, at, walk, depthLeft - 1);
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
        checkBehavior(sub, map[key]!, undefined, c, undefined, at, walk, depthLeft - 1);
        at.pop();
      }
    }
    at.pop();
  }
}
