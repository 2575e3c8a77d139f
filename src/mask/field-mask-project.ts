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
 * @module
 */
import { create, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { setOwn } from "../internal/json-value.js";
import { memoMask } from "../internal/mask-memo.js";
import type { FieldMaskLike } from "../internal/mask-path.js";
import { childOf, isStar, LEAF, trieOf, type Node } from "../internal/mask-trie.js";
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
export interface FieldMaskProjectOptions {
  /**
   * Accept the AIP-161 path syntax: map keys (`labels.env`, `` labels.`team name` ``) and `*` for every entry or
   * element (`authors.*.given_name`). Default false: strict proto paths (rule 7).
   */
  aip161?: boolean;
}

/**
 * Projects a message onto a mask (rule 7): a new message holding only the masked fields, every other field at
 * its default. No mask (undefined) or `*` copies the whole message; an empty mask keeps nothing. A message
 * field on the way to a longer path is kept only if something below it is. The input is never mutated or
 * shared with the result.
 *
 * @throws {WktJsonError} rule `mask-path` for a path that does not parse or name fields of `schema` (see
 *   `fieldMaskCheck`); `json-type` if `message` is not a message of `schema` or `mask` is not a FieldMask or
 *   array of strings; `depth` for messages nested deeper than 100 levels.
 * @example
 * const m = create(TestAllTypesProto3Schema, { optionalInt32: 1, optionalNestedMessage: { a: 2 } });
 * fieldMaskProject(TestAllTypesProto3Schema, m, ["optional_nested_message.a"]);
 * //=> a TestAllTypesProto3 with only optionalNestedMessage: { a: 2 }
 */
export function fieldMaskProject<Desc extends DescMessage>(
  schema: Desc,
  message: MessageShape<Desc>,
  mask?: FieldMaskLike,
  options?: FieldMaskProjectOptions,
): MessageShape<Desc> {
  checkMessage(schema, message, "message");
  const trie = mask === undefined ? LEAF : projectionTrie(schema, mask, options);
  return projectRoot(planOf(schema), message as unknown as Msg, trie) as unknown as MessageShape<Desc>;
}

/**
 * Projects every message of a list (a repeated field, a List response's resources) onto one mask: rule 7's
 * "for list operations the mask applies to each element". The mask is checked once.
 *
 * @throws {WktJsonError} as {@link fieldMaskProject}, for the mask and for every element.
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
  const trie = mask === undefined ? LEAF : projectionTrie(schema, mask, options);
  const plan = planOf(schema);
  const out: MessageShape<Desc>[] = new Array(messages.length);
  for (let i = 0; i < messages.length; i++) {
    try {
      checkMessage(schema, messages[i], "message");
      out[i] = projectRoot(plan, messages[i] as unknown as Msg, trie) as unknown as MessageShape<Desc>;
    } catch (e) {
      throw atIndex(e, i);
    }
  }
  return out;
}

function projectionTrie(schema: DescMessage, mask: FieldMaskLike, options: FieldMaskProjectOptions | undefined): Node {
  const aip161 = options?.aip161 === true;
  return memoMask(mask, schema, aip161 ? "project-aip161" : "project", (paths) => {
    const trie = trieOf(checkedPaths(schema, paths, aip161));
    return isStar(trie) ? LEAF : trie;
  });
}

function projectRoot(plan: MessagePlan, msg: Msg, trie: Node): Msg {
  if (trie.leaf) return copyMessage(plan, msg, defaultMaxDepth);
  return projectMessage(plan, msg, trie, defaultMaxDepth) ?? (create(plan.desc) as Msg);
}

/** The projection of a message, or undefined if it keeps nothing. */
function projectMessage(plan: MessagePlan, msg: Msg, node: Node, depthLeft: number): Msg | undefined {
  if (depthLeft <= 0) throw depthError(plan.desc);
  if (node.leaf) return copyMessage(plan, msg, depthLeft);
  let out: Msg | undefined;
  if (node.children === undefined) return undefined;
  for (const [name, child] of node.children) {
    const fp = plan.byName.get(name)!;
    if (!fieldIsSet(fp, msg)) continue;
    const v = fieldGet(fp, msg);
    const r = child.leaf ? copyFieldValue(fp, v, depthLeft) : projectFieldValue(fp, v, child, depthLeft);
    if (r === undefined) continue;
    out ??= create(plan.desc) as Msg;
    fieldSet(fp, out, r);
  }
  return out;
}

/** The projection of a set field's value under a non-leaf node, or undefined if it keeps nothing. */
function projectFieldValue(fp: FieldAccess, v: unknown, node: Node, depthLeft: number): unknown {
  switch (fp.kind) {
    case "list": {
      const each = node.any!; // the schema check allows only `*` after a repeated field
      if (each.leaf) return copyFieldValue(fp, v, depthLeft);
      const list = v as unknown[];
      const out: unknown[] = new Array(list.length);
      let kept = false;
      for (let i = 0; i < list.length; i++) {
        const r = projectSingular(fp, list[i], each, depthLeft);
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
      if (node.any === undefined) {
        for (const [key, child] of node.children!) {
          if (!hasOwn.call(map, key)) continue;
          const r = projectSingular(fp, map[key], child, depthLeft);
          if (r !== undefined) {
            setOwn(out, key, r);
            kept = true;
          }
        }
      } else {
        for (const key of Object.keys(map)) {
          const r = projectSingular(fp, map[key], childOf(node, key)!, depthLeft);
          if (r !== undefined) {
            setOwn(out, key, r);
            kept = true;
          }
        }
      }
      return kept ? out : undefined;
    }
    default:
      return projectSingular(fp, v, node, depthLeft);
  }
}

/** A singular value (field value, element, map value) under a node: a copy for a leaf, else a projection. */
function projectSingular(fp: FieldAccess, v: unknown, node: Node, depthLeft: number): unknown {
  if (node.leaf) return copySingular(fp, v, depthLeft);
  // The schema check lets only message values have sub-paths.
  const sub = planOf(fp.message!);
  if (fp.box === boxNone) return projectMessage(sub, asMsg(v, fp), node, depthLeft - 1);
  const r = projectMessage(sub, boxValue(fp, v, depthLeft), node, depthLeft - 1);
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
  return new WktJsonError(e.rule, "$[" + i + "]" + e.path.slice(1), e.typeName, e.detail);
}
