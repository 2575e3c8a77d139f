/**
 * FieldMask update of protobuf-es messages (rule 8): only the masked fields of the target change.
 *
 * Rule 8 (wkt.md): "FieldMask update: only the masked fields of the target change; values of unmasked fields in
 * a supplied resource are ignored. To reset a field to default, put it in the mask with the default value in the
 * resource. With no mask, all fields are updated (unknown fields are reset to default). A service may require a
 * mask and return an error without it."
 *
 * field_mask.proto fixes the update of a message field in the last position of a path ("sub-messages are
 * merged") and of a repeated field ("new values will be appended to the existing repeated field in the
 * target"), and lets an implementation offer options to replace them instead: `replaceMessageFields` and
 * `replaceRepeatedFields`, as in Java's `FieldMaskUtil.MergeOptions` and C++'s `MergeOptions`. What this adds
 * where the texts are silent is in field-mask-apply.ts.
 *
 * @module
 */
import { create, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { WktJsonError } from "../errors.js";
import { setOwn } from "../internal/json-value.js";
import { atMaskPath, maskErrorAt, maskPathOf, type MaskPathOption } from "../internal/mask-base.js";
import { memoMask } from "../internal/mask-memo.js";
import { maskPathError, WILD, type FieldMaskLike, type Segment } from "../internal/mask-path.js";
import { isStar, LEAF, trieOf, type Node } from "../internal/mask-trie.js";
import { charge, workMeter, type WorkMeter } from "../internal/meter.js";
import { fieldMaskTypeName } from "../internal/names.js";
import { defaultMaxDepth } from "../limits.js";
import {
  asMsg,
  boxNone,
  checkMessage,
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
import { checkedPaths } from "../wkt/field-mask-check.js";
import {
  boxValue,
  copyDepthError,
  copyFieldValue,
  copyMessage,
  copySingular,
  copyUnknown,
  unboxValue,
} from "./message-copy.js";

const hasOwn = Object.prototype.hasOwnProperty;

/** Options of {@link fieldMaskMerge}. */
export interface FieldMaskMergeOptions extends MaskPathOption {
  /** Replace a message field in the last position of a path instead of merging into it. Default false. */
  replaceMessageFields?: boolean;
  /** Replace repeated and map fields instead of appending to them (or adding entries). Default false. */
  replaceRepeatedFields?: boolean;
  /** A missing mask (undefined) is an error instead of meaning "all fields" (rule 8). Default false. */
  requireMask?: boolean;
  /** Accept the AIP-161 path syntax for map keys (`labels.env`). Default false: strict proto paths. */
  aip161?: boolean;
}

/** How a masked message or repeated field is updated: replaced, or merged into / appended to. @internal */
export interface MergeFlags {
  replaceMessage: boolean;
  replaceRepeated: boolean;
}

/**
 * Updates `target` from `source` under a mask (rule 8) and returns the result as a new message: only masked
 * fields change; unmasked fields of the source are ignored; a masked field the source leaves at its default
 * (unset, empty) is reset. A message field in the last position of a path is merged into (protobuf merge), a
 * repeated field appended to and a map field's entries added, unless `replaceMessageFields` /
 * `replaceRepeatedFields` say to replace them (protobuf's `FieldMaskUtil.merge`; for a PATCH, see `patch`, which
 * replaces). No mask (undefined) means every field of the schema, so fields the source does not set are reset;
 * with `requireMask: true` it is an error. The lone path `*` means full replacement (AIP-134): a copy of
 * `source`. The empty mask changes nothing. Neither input is mutated or shared with the result.
 *
 * @throws {WktJsonError} rule `mask-path` for a path that does not parse or name fields of `schema`, for `*`
 *   inside a path (wildcards are for read masks), and for a missing mask under `requireMask`, and `json-type`
 *   if `mask` is not a FieldMask or array of strings: at `$` or at `options.maskPath`. `json-type` if
 *   `target` or `source` is not a message of `schema`; `depth` for messages nested deeper than 100 levels, at the path of the
 *   first such message of the target (or the source), the detail starting with "the target" ("the source").
 * @example
 * // field_mask.proto: target f {b {d: 1, x: 2}, c: [1]}, source f {b {d: 10}, c: [2]}, paths f.b and f.c
 * fieldMaskMerge(Schema, target, source, ["f.b", "f.c"]); //=> f {b {d: 10, x: 2}, c: [1, 2]}
 * fieldMaskMerge(Schema, target, source, ["f.b", "f.c"], { replaceMessageFields: true, replaceRepeatedFields: true });
 * //=> f {b {d: 10}, c: [2]}
 */
export function fieldMaskMerge<Desc extends DescMessage>(
  schema: Desc,
  target: MessageShape<Desc>,
  source: MessageShape<Desc>,
  mask?: FieldMaskLike,
  options?: FieldMaskMergeOptions,
): MessageShape<Desc> {
  checkMessage(schema, target, "target");
  checkMessage(schema, source, "source");
  const plan = planOf(schema);
  const m = workMeter(schema.typeName);
  const base = maskPathOf(options);
  let trie: Node;
  if (mask === undefined) {
    if (options?.requireMask === true) throw maskErrorAt(missingMask(), base);
    trie = allFieldsTrie(plan);
  } else {
    const aip161 = options?.aip161 === true;
    trie = atMaskPath(base, () =>
      memoMask(
        mask,
        schema,
        aip161 ? "merge-aip161" : "merge",
        (texts) => {
          const paths = checkedPaths(schema, texts, aip161);
          rejectWildcards(paths, texts);
          return trieOf(paths);
        },
        m,
      ),
    );
  }
  const flags: MergeFlags = {
    replaceMessage: options?.replaceMessageFields === true,
    replaceRepeated: options?.replaceRepeatedFields === true,
  };
  return mergeMasked(plan, target as unknown as Msg, source as unknown as Msg, trie, flags, m, defaultMaxDepth, {
    target: "the target",
    source: "the source",
  }) as unknown as MessageShape<Desc>;
}

/**
 * {@link fieldMaskMerge} with the mask's trie given (checked against the plan's schema, without `*` but the
 * lone `*`): for `patch`, which builds its masks as tries. The walk follows the mask (a step per name of each
 * node visited, charged to `m`); the copies of the messages are linear in them.
 *
 * @internal
 */
export function mergeMasked(
  plan: MessagePlan,
  target: Msg,
  source: Msg,
  trie: Node,
  flags: MergeFlags,
  m: WorkMeter,
  maxDepth: number,
  names: MergeNames,
): Msg {
  if (trie.leaf || isStar(trie)) return copyChecked(plan, source, maxDepth, names.source);
  const out = copyChecked(plan, target, maxDepth, names.target);
  try {
    mergeInto(plan, out, source, trie, flags, maxDepth, m);
  } catch (e) {
    // The target is within the limit: what the merge takes below it comes from the source.
    throw copyDepthError(e, plan, source, maxDepth, names.source);
  }
  return out;
}

/** What the errors of {@link mergeMasked} call its target and source ("the stored resource"). @internal */
export interface MergeNames {
  target: string;
  source: string;
}

/** A copy of `msg`, a `depth` error at the path of its first message nested too deep, called `what`. */
function copyChecked(plan: MessagePlan, msg: Msg, maxDepth: number, what: string): Msg {
  try {
    return copyMessage(plan, msg, maxDepth);
  } catch (e) {
    throw copyDepthError(e, plan, msg, maxDepth, what);
  }
}

const allFieldsTries = new WeakMap<MessagePlan, Node>();

function allFieldsTrie(plan: MessagePlan): Node {
  let t = allFieldsTries.get(plan);
  if (t === undefined) {
    t = { leaf: false, children: new Map(plan.fields.map((fp) => [fp.name, LEAF])), any: undefined };
    allFieldsTries.set(plan, t);
  }
  return t;
}

/** The error for a missing mask under `requireMask` (rule 8: "A service may require a mask"). @internal */
export function missingMask(): WktJsonError {
  return new WktJsonError(
    "mask-path",
    "$",
    fieldMaskTypeName,
    "an update mask is required (requireMask), and none was given",
  );
}

/** `*` inside an update mask: an error naming the first such path (the lone `*` is full replacement). */
export function rejectWildcards(parsed: readonly (readonly Segment[])[], texts: readonly string[]): void {
  for (let k = 0; k < parsed.length; k++) {
    const segs = parsed[k]!;
    if (segs.length === 1 && segs[0] === WILD) continue;
    if (segs.includes(WILD)) {
      throw maskPathError(
        texts[k]!,
        WILD,
        "is a wildcard; `*` selects entries in read masks only, an update mask names what it changes",
      );
    }
  }
}

/** Applies the masked fields of `src` to `dst` (owned by the caller). `node` is not a leaf. */
function mergeInto(
  plan: MessagePlan,
  dst: Msg,
  src: Msg | undefined,
  node: Node,
  flags: MergeFlags,
  depthLeft: number,
  m: WorkMeter,
): void {
  if (depthLeft <= 0) throw depthError(plan.desc);
  if (node.children === undefined) return;
  charge(m, node.children.size);
  for (const [name, child] of node.children) {
    const fp = plan.byName.get(name)!;
    const sSet = src !== undefined && fieldIsSet(fp, src);
    const sv = sSet ? fieldGet(fp, src!) : undefined;
    if (child.leaf) {
      mergeLeaf(fp, dst, sSet, sv, flags, depthLeft);
      continue;
    }
    if (fp.kind === "map") {
      mergeMapEntries(fp, dst, sSet ? (sv as Msg) : undefined, child, flags, depthLeft, m);
      continue;
    }
    // A singular message field on the way to a longer path.
    const dSet = fieldIsSet(fp, dst);
    if (!sSet && !dSet) continue;
    const r = mergeSubMessage(
      fp,
      dSet ? fieldGet(fp, dst) : undefined,
      sSet ? sv : undefined,
      child,
      flags,
      depthLeft,
      m,
    );
    fieldSet(fp, dst, r);
  }
}

/** Merges under `node` into a message value (owned `dv`, or a new one) and returns the value to store. */
function mergeSubMessage(
  fp: FieldAccess,
  dv: unknown,
  sv: unknown,
  node: Node,
  flags: MergeFlags,
  depthLeft: number,
  m: WorkMeter,
): unknown {
  const sub = planOf(fp.message!);
  if (fp.box === boxNone) {
    const d = dv === undefined ? (create(sub.desc) as Msg) : asMsg(dv, fp);
    mergeInto(sub, d, sv === undefined ? undefined : asMsg(sv, fp), node, flags, depthLeft - 1, m);
    return d;
  }
  const d = dv === undefined ? (create(sub.desc) as Msg) : boxValue(fp, dv, depthLeft);
  mergeInto(sub, d, sv === undefined ? undefined : boxValue(fp, sv, depthLeft), node, flags, depthLeft - 1, m);
  return unboxValue(fp, d, depthLeft);
}

/** AIP-161 paths through a map field: `labels.env`, `labels.env.sub`. */
function mergeMapEntries(
  fp: FieldAccess,
  dst: Msg,
  smap: Msg | undefined,
  node: Node,
  flags: MergeFlags,
  depthLeft: number,
  m: WorkMeter,
): void {
  const dmap = dst[fp.local] as Msg;
  charge(m, node.children!.size);
  for (const [key, child] of node.children!) {
    const sHas = smap !== undefined && hasOwn.call(smap, key);
    const dHas = hasOwn.call(dmap, key);
    const sv = sHas ? smap![key] : undefined;
    if (child.leaf) {
      if (!sHas) {
        if (dHas) delete dmap[key];
      } else if (dHas && fp.message !== undefined && !flags.replaceMessage) {
        setOwn(dmap, key, mergeWholeValue(fp, dmap[key], sv, flags, depthLeft));
      } else {
        setOwn(dmap, key, copySingular(fp, sv, depthLeft));
      }
      continue;
    }
    if (!sHas && !dHas) continue;
    setOwn(dmap, key, mergeSubMessage(fp, dHas ? dmap[key] : undefined, sv, child, flags, depthLeft, m));
  }
}

/** Rule 8 for a field in the last position of a path. */
function mergeLeaf(fp: FieldAccess, dst: Msg, sSet: boolean, sv: unknown, flags: MergeFlags, depthLeft: number): void {
  if (!sSet) {
    fieldClear(fp, dst);
    return;
  }
  switch (fp.kind) {
    case "list":
      if (flags.replaceRepeated || !fieldIsSet(fp, dst)) {
        dst[fp.local] = copyFieldValue(fp, sv, depthLeft);
      } else {
        const list = dst[fp.local] as unknown[];
        for (const item of sv as unknown[]) list.push(copySingular(fp, item, depthLeft));
      }
      return;
    case "map":
      if (flags.replaceRepeated) {
        dst[fp.local] = copyFieldValue(fp, sv, depthLeft);
      } else {
        const map = dst[fp.local] as Msg;
        for (const key of Object.keys(sv as Msg)) setOwn(map, key, copySingular(fp, (sv as Msg)[key], depthLeft));
      }
      return;
    case "message":
      if (!flags.replaceMessage && fieldIsSet(fp, dst)) {
        fieldSet(fp, dst, mergeWholeValue(fp, fieldGet(fp, dst), sv, flags, depthLeft));
      } else {
        fieldSet(fp, dst, copySingular(fp, sv, depthLeft));
      }
      return;
    default:
      fieldSet(fp, dst, copySingular(fp, sv, depthLeft));
  }
}

/** protobuf's merge of a whole message value `sv` into the owned value `dv`; returns the value to store. */
function mergeWholeValue(fp: FieldAccess, dv: unknown, sv: unknown, flags: MergeFlags, depthLeft: number): unknown {
  const sub = planOf(fp.message!);
  if (fp.box === boxNone) {
    const d = asMsg(dv, fp);
    mergeWhole(sub, d, asMsg(sv, fp), flags, depthLeft - 1);
    return d;
  }
  const d = boxValue(fp, dv, depthLeft);
  mergeWhole(sub, d, boxValue(fp, sv, depthLeft), flags, depthLeft - 1);
  return unboxValue(fp, d, depthLeft);
}

function mergeWhole(plan: MessagePlan, dst: Msg, src: Msg, flags: MergeFlags, depthLeft: number): void {
  if (depthLeft <= 0) throw depthError(plan.desc);
  for (const fp of plan.fields) {
    if (!fieldIsSet(fp, src)) continue;
    const sv = fieldGet(fp, src);
    if (fp.kind === "message") {
      if (fieldIsSet(fp, dst)) fieldSet(fp, dst, mergeWholeValue(fp, fieldGet(fp, dst), sv, flags, depthLeft));
      else fieldSet(fp, dst, copySingular(fp, sv, depthLeft));
    } else {
      mergeLeaf(fp, dst, true, sv, flags, depthLeft);
    }
  }
  const unknown = src.$unknown;
  if (Array.isArray(unknown) && unknown.length > 0) {
    const copied = copyUnknown(unknown);
    const existing = dst.$unknown;
    dst.$unknown = Array.isArray(existing) ? existing.concat(copied) : copied;
  }
}
