/**
 * FieldMask update of plain JSON resources (rule 8 on JSON): `jsonMerge`, the PATCH of a resource kept as JSON.
 * Only masked properties change; a masked property the patch lacks is removed; a masked object is merged into
 * and a masked array replaced, unless the options say otherwise.
 *
 * Arrays are replaced by default, as a PATCH replaces them. AIP-161's read-write consistency asks it: "If a user
 * updates a resource with a given mask, and then reads the same resource with the same mask, the exact same data
 * must be returned", which an appended array is not; `patch` replaces a masked repeated field for that reason,
 * and JSON Merge Patch (RFC 7396) replaces arrays too (a value that is not an object replaces the target).
 * protobuf's `FieldMaskUtil.merge` appends to a repeated field ("new values will be appended to the existing
 * repeated field in the target", field_mask.proto): that stays `fieldMaskMerge`'s default on messages, and is
 * `replaceRepeatedFields: false` here.
 *
 * @module
 */
import { atMaskPath, maskErrorAt } from "../internal/mask-base.js";
import { memoMask } from "../internal/mask-memo.js";
import { parsePath, type FieldMaskLike } from "../internal/mask-path.js";
import { isStar, LEAF, trieOf, type Node } from "../internal/mask-trie.js";
import { setOwn } from "../internal/json-value.js";
import { distinct, namedNode, namedSteps, selectsAll, type Selection } from "../internal/mask-select.js";
import { charge, earn } from "../internal/meter.js";
import { missingMask, rejectWildcards, type MergeFlags } from "./field-mask-merge.js";
import { isJsonObject, type JsonRecord } from "./json-copy.js";
import {
  arrayByName,
  copyJ,
  jsonCtx,
  jsonDepthError,
  keyFor,
  rootObject,
  type JsonCtx,
  type JsonProjectOptions,
} from "./json-project.js";

const hasOwn = Object.prototype.hasOwnProperty;

/** Options of {@link jsonMerge}. */
export interface JsonMergeOptions extends JsonProjectOptions {
  /** Replace an object in the last position of a path instead of merging into it. Default false. */
  replaceMessageFields?: boolean;
  /**
   * Replace arrays (default true, as a PATCH does); `false` appends the patch's elements to the target's array,
   * as protobuf's `FieldMaskUtil.merge` does for a repeated field.
   */
  replaceRepeatedFields?: boolean;
  /** A missing mask (undefined) is an error instead of meaning "every property". Default false. */
  requireMask?: boolean;
}

/**
 * Updates a plain JSON resource from a patch under a mask (rule 8 on JSON), as a PATCH does, and returns the
 * result as a new object: only masked properties change; a masked property the patch lacks is removed; a masked
 * array is replaced (`replaceRepeatedFields: false` appends, as protobuf's `FieldMaskUtil`); a masked object is
 * merged into (deeply: objects merged, arrays replaced, other values replaced) unless `replaceMessageFields`
 * says to replace it. No mask means every property of `target` and `patch`; with `requireMask: true` it is an
 * error. The lone path `*` means full replacement (AIP-134): a copy of `patch`. The empty mask changes nothing.
 * A PATCH handler is `jsonMerge(stored, body, fieldMaskFromPatch(body))`.
 *
 * @throws {WktJsonError} rule `mask-path` for a path that does not parse, `*` inside a path, a named segment
 *   applied to an array, and a missing mask under `requireMask`, and `json-type` if `mask` is not a FieldMask
 *   or array of strings: at `$` or at `options.maskPath`. `json-type` if `target` or `patch` is not a plain
 *   object; `depth` beyond `maxDepth`; `range` for a bad option.
 * @example
 * const hook = { active: true, events: ["push"], config: { url: "a", secret: "s" } };
 * const sent = { events: ["push", "issues"], config: { url: "b" } };
 * jsonMerge(hook, sent, fieldMaskFromPatch(sent));
 * //=> { active: true, events: ["push", "issues"], config: { url: "b", secret: "s" } }
 * jsonMerge(hook, sent, fieldMaskFromPatch(sent), { replaceMessageFields: true }).config; //=> { url: "b" }
 * jsonMerge(hook, sent, ["events"], { replaceRepeatedFields: false }).events; //=> ["push", "push", "issues"]
 */
export function jsonMerge<T extends object>(
  target: T,
  patch: object,
  mask?: FieldMaskLike,
  options?: JsonMergeOptions,
): T {
  const ctx = jsonCtx(options);
  const dstRoot = rootObject(target, "target");
  const srcRoot = rootObject(patch, "patch");
  let trie: Node;
  if (mask === undefined) {
    if (options?.requireMask === true) throw maskErrorAt(missingMask(), ctx.maskPath);
    const children = new Map<string, Node>();
    for (const root of [dstRoot, srcRoot]) {
      for (const k of Object.keys(root)) {
        earn(ctx.m, k.length + 3); // keys read, to pay for the walk over them
        children.set(k, LEAF);
      }
    }
    trie = { leaf: false, children, any: undefined };
    ctx.json = false; // the keys are the objects' own
  } else {
    trie = atMaskPath(ctx.maskPath, () =>
      memoMask(
        mask,
        undefined,
        "json-merge",
        (texts) => {
          const parsed = texts.map((p) => parsePath(p, true));
          rejectWildcards(parsed, texts);
          return trieOf(parsed);
        },
        ctx.m,
      ),
    );
    if (isStar(trie)) return copyJ(srcRoot, ctx.maxDepth, ctx) as T;
  }
  const out = copyJ(dstRoot, ctx.maxDepth, ctx) as JsonRecord;
  const flags: MergeFlags = {
    replaceMessage: options?.replaceMessageFields === true,
    replaceRepeated: options?.replaceRepeatedFields !== false,
  };
  mergeJsonInto(out, srcRoot, [trie], flags, ctx.maxDepth - 1, ctx);
  return out as T;
}

/**
 * Applies the masked properties of `src` to `dst` (owned) under a set of mask nodes, none a leaf (an update
 * mask has no `*`, so a set is more than one node only where JSON names meet: `date_created` and `dateCreated`
 * both read `dateCreated`). Each property is updated once, under all the names that read it.
 */
function mergeJsonInto(
  dst: JsonRecord,
  src: JsonRecord | undefined,
  sel: Selection,
  flags: MergeFlags,
  depthLeft: number,
  ctx: JsonCtx,
): void {
  if (depthLeft < 0) throw jsonDepthError(ctx);
  const byName = namedSteps(sel, ctx.m);
  let byKey: Map<string, Selection> = byName;
  if (ctx.json) {
    byKey = new Map();
    for (const [name, nodes] of byName) {
      charge(ctx.m, name.length);
      const key = keyFor(name, ctx, dst, src);
      const prev = byKey.get(key);
      byKey.set(key, prev === undefined ? nodes : distinct([...prev, ...nodes]));
    }
  }
  for (const [key, child] of byKey) {
    const sHas = src !== undefined && hasOwn.call(src, key);
    const sv = sHas ? src![key] : undefined;
    const dHas = hasOwn.call(dst, key);
    const dv = dHas ? dst[key] : undefined;
    if (selectsAll(child)) {
      if (!sHas) {
        if (dHas) delete dst[key];
      } else if (!flags.replaceMessage && isJsonObject(sv) && isJsonObject(dv)) {
        deepMergeJson(dv, sv, flags, depthLeft - 1, ctx);
      } else if (!flags.replaceRepeated && Array.isArray(sv) && Array.isArray(dv) && sv.length > 0) {
        for (const item of sv) dv.push(copyJ(item, depthLeft - 1, ctx));
      } else {
        setOwn(dst, key, copyJ(sv, depthLeft, ctx));
      }
      continue;
    }
    ctx.at.push(key);
    if (Array.isArray(dv) || Array.isArray(sv)) throw arrayByName(ctx, namedNode(child)!);
    const s = isJsonObject(sv) ? sv : undefined;
    if (s === undefined && !isJsonObject(dv)) {
      ctx.at.pop();
      continue;
    }
    let d: JsonRecord;
    if (isJsonObject(dv)) d = dv;
    else setOwn(dst, key, (d = {}));
    mergeJsonInto(d, s, child, flags, depthLeft - 1, ctx);
    ctx.at.pop();
  }
}

/** Merges `src` into the owned object `dst`: objects merge, arrays are replaced (or appended), the rest replaces. */
function deepMergeJson(dst: JsonRecord, src: JsonRecord, flags: MergeFlags, depthLeft: number, ctx: JsonCtx): void {
  if (depthLeft < 0) throw jsonDepthError(ctx);
  for (const key of Object.keys(src)) {
    earn(ctx.m, key.length + 3);
    charge(ctx.m, 1);
    const sv = src[key];
    const dv = hasOwn.call(dst, key) ? dst[key] : undefined;
    if (isJsonObject(sv) && isJsonObject(dv)) deepMergeJson(dv, sv, flags, depthLeft - 1, ctx);
    else if (!flags.replaceRepeated && Array.isArray(sv) && Array.isArray(dv)) {
      for (const item of sv) dv.push(copyJ(item, depthLeft - 1, ctx));
    } else setOwn(dst, key, copyJ(sv, depthLeft, ctx));
  }
}
