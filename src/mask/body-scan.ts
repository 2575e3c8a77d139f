/**
 * The walk of a request body (PATCH or create) over its JSON, after the decoder accepted it: drops the members
 * naming OUTPUT_ONLY fields (or refuses them under `strict`), and builds the trie of the mask the body implies.
 *
 * @internal
 * @module
 */
import type { DescMessage, JsonValue, MessageShape } from "@bufbuild/protobuf";
import { hasCustomJsonRepresentation } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { fromJson } from "../codec/from-json.js";
import { maxDepthError } from "../internal/depth-error.js";
import { setOwn } from "../internal/json-value.js";
import { emptyNode, isEmptyNode, LEAF, type Node } from "../internal/mask-trie.js";
import { charge, earn, type WorkMeter } from "../internal/meter.js";
import { pathJoin, type PathSegment } from "../path.js";
import { boxNone, fieldsByJsonKey, hasOwnKey, planOf, type MessagePlan, type Msg } from "../wkt/field-access.js";
import { behavior, behaviorBelow, behaviorOfType, outputOnlyBit, type BehaviorLists } from "./field-behavior.js";
import type { Opts } from "./patch-options.js";

/**
 * How a request body (PATCH or create) is decoded: over the JSON value (what `JSON.parse` gave), or over the
 * value a text entry point parsed (exact integers, errors with line and column). It is called for the body, and
 * again for the body without its dropped members when some were dropped.
 */
export type BodyDecoder = (schema: DescMessage, body: JsonValue, o: Opts) => MessageShape<DescMessage>;

/** The {@link BodyDecoder} of a JSON value: the decoder with the call's read options. */
export const decodeBodyValue: BodyDecoder = (schema, body, o) => fromJson(schema, body, o.read);

export interface BodyScan {
  o: Opts;
  /** Whether an output-only member was dropped (the body is decoded again without it). */
  dropped: boolean;
  /** The nesting limit the body was decoded under. */
  maxDepth: number;
  /** The call's work meter: earns the body's keys as they are read. */
  m: WorkMeter;
  /**
   * Where a `strict` refusal goes when the caller lists every problem (a create request through
   * `standardSchema`): the member is then dropped and the walk goes on. Undefined: the refusal is thrown.
   */
  issues?: WktJsonError[] | undefined;
  /**
   * The behaviour bits whose members are dropped: OUTPUT_ONLY (default), and on create IDENTIFIER too, which
   * AIP-203 reads as OUTPUT_ONLY there.
   */
  drop?: number | undefined;
}

/**
 * Walks a message's JSON object of the (already decoded, so well-formed) body: drops output-only members (or
 * throws under `strict`), and adds the implied mask's paths to `implied`, this object's node of the implied
 * trie (undefined where the mask stops: inside lists and maps, below a field the mask names whole). `lists` is
 * the path lists' node of this message (undefined inside lists and maps, where paths are not known). Returns
 * the object, or a copy without the dropped members.
 */
export function scanObject(
  plan: MessagePlan,
  obj: Msg,
  at: PathSegment[],
  lists: BehaviorLists | undefined,
  implied: Node | undefined,
  scan: BodyScan,
  depthLeft: number,
): Msg {
  // Not reached: the body was decoded under the same maxDepth. A guard all the same.
  if (depthLeft <= 0) throw maxDepthError(plan.desc.typeName, scan.maxDepth);
  const members = fieldsByJsonKey(plan);
  let out: Msg | undefined;
  const keys = Object.keys(obj);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    earn(scan.m, key.length + 3);
    charge(scan.m, 1);
    const fp = members.get(key);
    const v = obj[key];
    if (fp === undefined) {
      // Skipped by the decoder (ignoreUnknownFields), or an extension, which a FieldMask cannot name.
      if (implied !== undefined && key.charCodeAt(0) === 91) {
        throw new WktJsonError(
          "mask-path",
          pathJoin("$", ...at, key),
          plan.desc.typeName,
          `the extension ${key} cannot be updated: a FieldMask names fields only; send an updateMask without it`,
        );
      }
      if (out !== undefined) setOwn(out, key, v);
      continue;
    }
    const bits = behavior(lists, fp);
    if ((bits & (scan.drop ?? outputOnlyBit)) !== 0) {
      if (scan.o.strict) {
        const e = new WktJsonError(
          "field-behavior",
          pathJoin("$", ...at, key),
          plan.desc.typeName,
          (bits & outputOnlyBit) !== 0
            ? `${fp.name} is OUTPUT_ONLY: a request may not set it (strict); leave it out of the request`
            : `${fp.name} is IDENTIFIER, which a create request may not set (AIP-203: OUTPUT_ONLY on create; ` +
                `strict); leave it out of the request`,
        );
        if (scan.issues === undefined) throw e;
        scan.issues.push(e);
      }
      scan.dropped = true;
      out ??= copyBefore(obj, keys, k);
      continue;
    }
    let value = v;
    // Into a message field's value only for the implied mask or for output-only fields below it: the path
    // lists' (which do not reach into lists and maps) or the descriptor's (behaviorOfType: none costs nothing).
    const sub =
      fp.message !== undefined &&
      fp.box === boxNone &&
      !hasCustomJsonRepresentation(fp.message) &&
      ((implied !== undefined && fp.kind === "message") ||
        (behaviorOfType(fp.message) & (scan.drop ?? outputOnlyBit)) !== 0 ||
        (fp.kind === "message" && behaviorBelow(lists, fp) !== undefined))
        ? planOf(fp.message)
        : undefined;
    const isObj = typeof v === "object" && v !== null && !Array.isArray(v);
    let deeper: Node | undefined; // the field's node of the implied trie, when the mask goes into it
    if (sub !== undefined && v !== null) {
      at.push(key);
      if (fp.kind === "message" && isObj) {
        if (implied !== undefined && scan.o.leaves && hasOwnKey(v)) {
          // Its place in the body's order now; dropped below if nothing in it is kept.
          (implied.children ??= new Map()).set(fp.name, (deeper = emptyNode()));
        }
        value = scanObject(sub, v as Msg, at, behaviorBelow(lists, fp), deeper, scan, depthLeft - 1);
        if (deeper !== undefined && isEmptyNode(deeper)) implied!.children!.delete(fp.name);
      } else if (fp.kind === "list" && Array.isArray(v)) {
        let copy: unknown[] | undefined;
        earn(scan.m, v.length);
        for (let i = 0; i < v.length; i++) {
          at.push(i);
          const e = v[i];
          const r =
            typeof e === "object" && e !== null
              ? scanObject(sub, e as Msg, at, undefined, undefined, scan, depthLeft - 1)
              : e;
          at.pop();
          if (r !== e) (copy ??= v.slice())[i] = r;
        }
        if (copy !== undefined) value = copy;
      } else if (fp.kind === "map" && isObj) {
        let copy: Msg | undefined;
        const mk = Object.keys(v);
        for (let i = 0; i < mk.length; i++) {
          earn(scan.m, mk[i]!.length + 3);
          const e = (v as Msg)[mk[i]!];
          at.push(mk[i]!);
          const r =
            typeof e === "object" && e !== null
              ? scanObject(sub, e as Msg, at, undefined, undefined, scan, depthLeft - 1)
              : e;
          at.pop();
          if (r !== e) copy ??= { ...(v as Msg) };
          if (copy !== undefined) setOwn(copy, mk[i]!, r);
        }
        if (copy !== undefined) value = copy;
      }
      at.pop();
    }
    if (implied !== undefined && deeper === undefined) (implied.children ??= new Map()).set(fp.name, LEAF);
    if (value !== v) out ??= copyBefore(obj, keys, k);
    if (out !== undefined) setOwn(out, key, value);
  }
  return out ?? obj;
}

/** A copy of the members of `obj` before `keys[k]`. */
function copyBefore(obj: Msg, keys: readonly string[], k: number): Msg {
  const out: Msg = {};
  for (let i = 0; i < k; i++) setOwn(out, keys[i]!, obj[keys[i]!]);
  return out;
}
