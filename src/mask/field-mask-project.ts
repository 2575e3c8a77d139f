/**
 * FieldMask projection of protobuf-es messages (rule 7): a new message holding only the masked fields.
 *
 * Rule 7 (wkt.md): "FieldMask projection: a response is filtered to the fields named in the mask; other fields
 * take default values. A repeated field is allowed only at the last position of a path. Without a mask a get
 * applies to all fields. For list operations the mask applies to each element."
 *
 * A message field reached through a longer path is kept only if something below it is (see field-mask-apply.ts
 * for why); a list reached through `*` is kept whole, with empty elements, unless every element is empty.
 *
 * With `aip161`, a map key and `*` beside it both apply to that entry: the walk carries the set of mask nodes
 * that apply (mask-select.ts), never a merged trie, under one work meter per call (meter.ts) that earns the
 * mask's text and the messages, entries and elements read, and is charged per (value, mask node) pair.
 *
 * @module
 */
import { create, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { setOwn } from "../internal/json-value.js";
import { atMaskPath, maskPathOf, type MaskPathOption } from "../internal/mask-base.js";
import { memoMask } from "../internal/mask-memo.js";
import type { FieldMaskLike } from "../internal/mask-path.js";
import { isStar, LEAF, trieOf, type Node } from "../internal/mask-trie.js";
import { hasAny, namedSteps, namesIn, selectsAll, stepAny, stepKey, type Selection } from "../internal/mask-select.js";
import { charge, earn, workMeter, type WorkMeter } from "../internal/meter.js";
import { defaultMaxDepth } from "../limits.js";
import {
  asMsg,
  boxNone,
  boxStruct,
  checkMessage,
  depthError,
  fieldGet,
  fieldIsSet,
  fieldSet,
  planOf,
  type FieldAccess,
  type MessagePlan,
  type Msg,
} from "../wkt/field-access.js";
import { checkedPaths } from "../wkt/field-mask-check.js";
import { boxValue, copyFieldValue, copyMessage, copySingular, unboxValue } from "./message-copy.js";

const hasOwn = Object.prototype.hasOwnProperty;

/** Options of {@link fieldMaskProject} and {@link fieldMaskProjectEach}. */
export interface FieldMaskProjectOptions extends MaskPathOption {
  /**
   * Accept the AIP-161 path syntax: map keys (`labels.env`, `` labels.`team name` ``) and `*` for every entry or
   * element (`authors.*.given_name`). Default false: strict proto paths (rule 7).
   */
  aip161?: boolean;
}

/**
 * Projects a message onto a mask (rule 7): a new message holding only the masked fields, every other field at
 * its default. No mask (undefined) or `*` copies the whole message (AIP-157: "An explicit value of `"*"` should
 * be supported, and must return all fields"; "If the field mask parameter is omitted, it must default to
 * `"*"`"); an empty mask keeps nothing (a mask is a set of paths, and AIP-161's read-write consistency holds:
 * an update with the empty mask changes nothing, a read with it returns nothing). A message field on the way to
 * a longer path is kept only if something below it is. The input is never mutated or shared with the result.
 *
 * @throws {WktJsonError} rule `mask-path` for a path that does not parse or name fields of `schema` (see
 *   `fieldMaskCheck`), and `json-type` if `mask` is not a FieldMask or array of strings: at `$`, or at
 *   `options.maskPath` (`range` if that is not a string starting with `$`). `json-type` if `message` is not a
 *   message of `schema`; `depth` for messages nested deeper than 100 levels.
 * @example
 * const m = create(TestAllTypesProto3Schema, { optionalInt32: 1, optionalNestedMessage: { a: 2 } });
 * fieldMaskProject(TestAllTypesProto3Schema, m, ["optional_nested_message.a"]);
 * //=> a TestAllTypesProto3 with only optionalNestedMessage: { a: 2 }
 * fieldMaskProject(TestAllTypesProto3Schema, m, fieldMaskFromJson("*")); //=> a copy of m
 * fieldMaskProject(TestAllTypesProto3Schema, m, ["nope"], { maskPath: "$.readMask" }); // throws WktJsonError (rule "mask-path", jsonPath "$.readMask")
 */
export function fieldMaskProject<Desc extends DescMessage>(
  schema: Desc,
  message: MessageShape<Desc>,
  mask?: FieldMaskLike,
  options?: FieldMaskProjectOptions,
): MessageShape<Desc> {
  checkMessage(schema, message, "message");
  const m = workMeter(schema.typeName);
  const trie = mask === undefined ? LEAF : projectionTrie(schema, mask, options, m);
  return projectRoot(planOf(schema), message as unknown as Msg, trie, m) as unknown as MessageShape<Desc>;
}

/**
 * Projects every message of a list (a repeated field, a List response's resources) onto one mask: rule 7's
 * "for list operations the mask applies to each element". The mask is checked once.
 *
 * @throws {WktJsonError} as {@link fieldMaskProject}, for the mask (at `options.maskPath`) and for every element
 *   (at `$[i]`).
 * @example
 * fieldMaskProjectEach(TestAllTypesProto3Schema, [m1, m2], ["optional_int32"]);
 * //=> [m1 with only optionalInt32, m2 with only optionalInt32]
 */
export function fieldMaskProjectEach<Desc extends DescMessage>(
  schema: Desc,
  messages: readonly MessageShape<Desc>[],
  mask?: FieldMaskLike,
  options?: FieldMaskProjectOptions,
): MessageShape<Desc>[] {
  if (!Array.isArray(messages)) {
    throw new WktJsonError("json-type", "$", schema.typeName, `messages: expected an array, got ${describe(messages)}`);
  }
  const m = workMeter(schema.typeName);
  const trie = mask === undefined ? LEAF : projectionTrie(schema, mask, options, m);
  const plan = planOf(schema);
  const out: MessageShape<Desc>[] = new Array(messages.length);
  for (let i = 0; i < messages.length; i++) {
    try {
      checkMessage(schema, messages[i], "message");
      out[i] = projectRoot(plan, messages[i] as unknown as Msg, trie, m) as unknown as MessageShape<Desc>;
    } catch (e) {
      throw atIndex(e, i);
    }
  }
  return out;
}

function projectionTrie(
  schema: DescMessage,
  mask: FieldMaskLike,
  options: FieldMaskProjectOptions | undefined,
  m: WorkMeter,
): Node {
  const aip161 = options?.aip161 === true;
  return atMaskPath(maskPathOf(options), () =>
    memoMask(
      mask,
      schema,
      aip161 ? "project-aip161" : "project",
      (paths) => {
        const trie = trieOf(checkedPaths(schema, paths, aip161));
        return isStar(trie) ? LEAF : trie;
      },
      m,
    ),
  );
}

function projectRoot(plan: MessagePlan, msg: Msg, trie: Node, m: WorkMeter): Msg {
  if (trie.leaf) return copyMessage(plan, msg, defaultMaxDepth);
  return projectMessage(plan, msg, [trie], defaultMaxDepth, m) ?? (create(plan.desc) as Msg);
}

/**
 * The projection of a message under a set of mask nodes (see mask-select.ts), or undefined if it keeps nothing.
 * The schema check lets only field names follow a message, so the set's names are looked up (one step each).
 */
function projectMessage(plan: MessagePlan, msg: Msg, sel: Selection, depthLeft: number, m: WorkMeter): Msg | undefined {
  if (depthLeft <= 0) throw depthError(plan.desc);
  if (selectsAll(sel)) return copyMessage(plan, msg, depthLeft);
  // A message holds a member per field of its type (protobuf-es makes them all): reading it earns that much, so
  // that looking up a mask's names (at most its fields per node) in each of many messages is paid for.
  earn(m, plan.fields.length);
  let out: Msg | undefined;
  let names: Iterable<[string, Selection]>;
  if (sel.length === 1) {
    const children = sel[0]!.children;
    if (children === undefined) return undefined;
    charge(m, children.size);
    names = single(children);
  } else names = namedSteps(sel, m);
  for (const [name, child] of names) {
    const fp = plan.byName.get(name)!;
    if (!fieldIsSet(fp, msg)) continue;
    const v = fieldGet(fp, msg);
    const r = selectsAll(child) ? copyFieldValue(fp, v, depthLeft) : projectFieldValue(fp, v, child, depthLeft, m);
    if (r === undefined) continue;
    out ??= create(plan.desc) as Msg;
    fieldSet(fp, out, r);
  }
  return out;
}

/** The children of one node as selections of one node each. */
function* single(children: ReadonlyMap<string, Node>): Iterable<[string, Selection]> {
  for (const [name, c] of children) yield [name, [c]];
}

/** The projection of a set field's value under a set that is not everything, or undefined if it keeps nothing. */
function projectFieldValue(fp: FieldAccess, v: unknown, sel: Selection, depthLeft: number, m: WorkMeter): unknown {
  switch (fp.kind) {
    case "list": {
      const each = stepAny(sel, m); // the schema check allows only `*` after a repeated field
      if (selectsAll(each)) return copyFieldValue(fp, v, depthLeft);
      const list = v as unknown[];
      const out: unknown[] = new Array(list.length);
      let kept = false;
      earn(m, 1 + list.length);
      for (let i = 0; i < list.length; i++) {
        charge(m, each.length);
        const r = projectSingular(fp, list[i], each, depthLeft, m);
        if (r !== undefined) kept = true;
        out[i] = r;
      }
      if (!kept) return undefined;
      for (let i = 0; i < out.length; i++) if (out[i] === undefined) out[i] = emptyValue(fp);
      return out;
    }
    case "map": {
      const map = v as Msg;
      const out: Msg = {};
      let kept = false;
      if (!hasAny(sel) && !fewerKeys(map, namesIn(sel), m)) {
        // Named keys only, fewer than the map's keys: look them up.
        for (const [key, child] of namedSteps(sel, m)) {
          if (!hasOwn.call(map, key)) continue;
          const r = projectSingular(fp, map[key], child, depthLeft, m);
          if (r !== undefined) {
            setOwn(out, key, r);
            kept = true;
          }
        }
      } else {
        // `*`, or more names than keys: each key of the map under the set of what selects it, never a merged
        // trie; the keys are read (and earn) once.
        for (const key of Object.keys(map)) {
          earn(m, key.length + 3);
          const child = stepKey(sel, key, m);
          if (child.length === 0) continue;
          const r = projectSingular(fp, map[key], child, depthLeft, m);
          if (r !== undefined) {
            setOwn(out, key, r);
            kept = true;
          }
        }
      }
      return kept ? out : undefined;
    }
    default:
      return projectSingular(fp, v, sel, depthLeft, m);
  }
}

/** Whether the map has at most `names` keys (counted no further, one step each). */
function fewerKeys(map: Msg, names: number, m: WorkMeter): boolean {
  let keys = 0;
  for (const key in map) if (hasOwn.call(map, key) && ++keys > names) break;
  charge(m, keys);
  return keys <= names;
}

/** A singular value (field value, element, map value) under a set: a copy when it selects all, else a projection. */
function projectSingular(fp: FieldAccess, v: unknown, sel: Selection, depthLeft: number, m: WorkMeter): unknown {
  if (selectsAll(sel)) return copySingular(fp, v, depthLeft);
  // The schema check lets only message values have sub-paths.
  const sub = planOf(fp.message!);
  if (fp.box === boxNone) return projectMessage(sub, asMsg(v, fp), sel, depthLeft - 1, m);
  const r = projectMessage(sub, boxValue(fp, v, depthLeft), sel, depthLeft - 1, m);
  return r === undefined ? undefined : unboxValue(fp, r, depthLeft);
}

/** The value an element takes when its projection keeps nothing: an empty message. */
function emptyValue(fp: FieldAccess): unknown {
  return fp.box === boxStruct ? {} : create(fp.message!);
}

/**
 * An error of element `i` of a list the `...Each` functions work on, at `$[i]`; a mask error stays where it is,
 * as the mask is the same for every element.
 *
 * @internal
 */
export function atIndex(e: unknown, i: number): unknown {
  if (!(e instanceof WktJsonError) || e.rule === "mask-path") return e;
  return new WktJsonError(e.rule, "$[" + i + "]" + e.jsonPath.slice(1), e.typeName, e.detail);
}
