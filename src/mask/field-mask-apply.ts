/**
 * FieldMask projection and update, on protobuf-es messages and on plain JSON resources.
 *
 * Rule 7 (wkt.md): "FieldMask projection: a response is filtered to the fields named in the mask; other fields
 * take default values. A repeated field is allowed only at the last position of a path. Without a mask a get
 * applies to all fields. For list operations the mask applies to each element; for custom methods, the
 * declaration states where it applies."
 *
 * Rule 8: "FieldMask update: only the masked fields of the target change; values of unmasked fields in a
 * supplied resource are ignored. To reset a field to default, put it in the mask with the default value in the
 * resource. With no mask, all fields are updated (unknown fields are reset to default). A service may require a
 * mask and return an error without it."
 *
 * field_mask.proto fixes the update of a message field in the last position of a path ("sub-messages are
 * merged") and of a repeated field ("new values will be appended to the existing repeated field in the
 * target"), and lets an implementation offer options to replace them instead: `replaceMessageFields` and
 * `replaceRepeatedFields` here, as in Java's `FieldMaskUtil.MergeOptions` and C++'s `MergeOptions`.
 *
 * What this module decides where the texts are silent, and why:
 *
 * - Projection keeps a message (or JSON object) reached through a longer path only if something below it is
 *   kept: projecting `f.b` from `{f: {a: 1}}` gives `{}`, not `{f: {}}`. That is what makes projection
 *   compose: `project(project(m, a), b)` equals `project(m, intersect(a, b))`, which Java's and C++'s
 *   trimming does not satisfy (`f.a` then `f.b` leaves an empty `f`, `intersect` gives nothing). A list reached
 *   through `*` is kept whole (with empty elements, so positions do not move) unless every element is empty.
 * - Update: "to reset a field, put it in the mask with the default value" is applied to every kind of field: a
 *   masked field the source leaves unset (an empty repeated or map field, an unset message field, an absent
 *   JSON property) is reset, also when repeated fields would otherwise be appended and message fields merged
 *   (field_mask.proto: "in order to reset all fields of a resource, provide a default instance of the resource
 *   and set all fields in the mask"). A set source field is merged, appended or replaced as the options say.
 * - A merged message follows protobuf's merge (`merge()` of @bufbuild/protobuf): set fields overwrite, message
 *   fields merge, repeated fields append and map entries overwrite, unknown fields are appended;
 *   `replaceRepeatedFields` applies inside it too, so no list grows when the caller asked for replacement.
 * - No mask means every field of the schema (every property of target and patch, for JSON); the lone path `*`
 *   means full replacement (AIP-134): the result is a copy of the source, unknown fields included.
 * - `*` inside a path (AIP-161 wildcards) is for read masks: projections and omissions. An update mask names
 *   what it changes; `*` in it is an error.
 * - Results are new values: inputs are never mutated and never shared with the result (bytes and JSON values
 *   are copied; JSON values other than plain objects and arrays, such as a Date, are shared).
 * - JSON: a segment is a property name; `*` is every element of an array or property of an object. A named
 *   segment applied to an array is an error (AIP-161 forbids addressing an element by position). With
 *   `names: "json"` a segment `date_created` reads the property `dateCreated` (protoc's lowerCamel JSON name)
 *   and falls back to the literal name when the object lacks the JSON name (map keys and Struct keys stay
 *   literal in proto3 JSON). `__proto__`, `constructor` and `prototype` are ordinary names: only own
 *   properties are read, and `__proto__` is written as an own property.
 *
 * @module
 */
import { create, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { protoCamelCase, protoSnakeCase, scalarZeroValue } from "@bufbuild/protobuf/reflect";
import type { FieldMask, Struct } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import {
  asMsg,
  boxNone,
  boxStruct,
  boxWrapper,
  checkedPaths,
  checkMessage,
  depthError,
  fieldGet,
  fieldIsSet,
  planOf,
  type FieldPlan,
  type MessagePlan,
  type Msg,
} from "../wkt/field-mask.js";
import { describe } from "../internal/describe.js";
import { setOwn } from "../internal/json-value.js";
import {
  childOf,
  formatPath,
  formatSegment,
  isStar,
  LEAF,
  makeMask,
  maskPathError,
  maxSegments,
  memoMask,
  merge,
  mergeCached,
  parseMask,
  parsePath,
  trieOf,
  WILD,
  type FieldMaskLike,
  type Node,
  type Segment,
} from "../internal/mask-path.js";
import { defaultMaskMaxPaths, defaultMaxDepth, defaultPatchMaskMaxLength, formatBound } from "../limits.js";
import { structFromJson, structToJson } from "../wkt/struct.js";

const structTypeName = "google.protobuf.Struct";
const hasOwn = Object.prototype.hasOwnProperty;

// ---------------------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------------------

/** Options of {@link fieldMaskProject} and {@link fieldMaskProjectEach}. */
export interface FieldMaskProjectOptions {
  /**
   * Accept the AIP-161 path syntax: map keys (`labels.env`, `` labels.`team name` ``) and `*` for every entry or
   * element (`authors.*.given_name`). Default false: strict proto paths (rule 7).
   */
  aip161?: boolean;
}

/** Options of {@link fieldMaskMerge}. */
export interface FieldMaskMergeOptions {
  /** Replace a message field in the last position of a path instead of merging into it. Default false. */
  replaceMessageFields?: boolean;
  /** Replace repeated and map fields instead of appending to them (or adding entries). Default false. */
  replaceRepeatedFields?: boolean;
  /** A missing mask (undefined) is an error instead of meaning "all fields" (rule 8). Default false. */
  requireMask?: boolean;
  /** Accept the AIP-161 path syntax for map keys (`labels.env`). Default false: strict proto paths. */
  aip161?: boolean;
}

/** Options of the JSON functions: {@link jsonProject}, {@link jsonOmit} and their `...Each` forms. */
export interface JsonProjectOptions {
  /**
   * How a path segment finds a property: `"literal"` (default) by its exact name; `"json"` through the
   * lowerCamel JSON name of a proto field name (`date_created` reads `dateCreated`), falling back to the literal
   * name when the object lacks the JSON name.
   */
  names?: "literal" | "json";
  /** Most levels of nesting (objects and arrays) copied, the resource included. Default 100. */
  maxDepth?: number;
}

/** Options of {@link jsonOmit} and {@link jsonOmitEach}. */
export type JsonOmitOptions = JsonProjectOptions;

/** Options of {@link jsonMerge}. */
export interface JsonMergeOptions extends JsonProjectOptions {
  /** Replace an object in the last position of a path instead of merging into it. Default false. */
  replaceMessageFields?: boolean;
  /** Replace arrays instead of appending to them. Default false. */
  replaceRepeatedFields?: boolean;
  /** A missing mask (undefined) is an error instead of meaning "every property". Default false. */
  requireMask?: boolean;
}

/** Options of {@link fieldMaskFromPatch}. */
export interface FieldMaskFromPatchOptions {
  /**
   * How many levels of nested objects become paths: 1 (default) gives the top-level keys (`config`); 2 goes
   * one level into objects (`config.url`); `Infinity` goes down to the leaves. Arrays and empty objects are
   * always leaves.
   */
  depth?: number;
  /** `"json"`: keys are lowerCamel JSON names and become proto names (`dateCreated` → `date_created`). */
  names?: "literal" | "json";
  /** The most paths the mask may hold (default 10,000); beyond it, rule `size`. */
  maxPaths?: number;
  /**
   * The most UTF-16 code units the paths may hold together (default 1,048,576); beyond it, rule `size`. Each
   * path repeats the keys above it, so without this a body of one long key over many nested keys would make a
   * mask many times its own size.
   */
  maxLength?: number;
}

// ---------------------------------------------------------------------------------------------------------
// Messages: projection
// ---------------------------------------------------------------------------------------------------------

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
function projectFieldValue(fp: FieldPlan, v: unknown, node: Node, depthLeft: number): unknown {
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
function projectSingular(fp: FieldPlan, v: unknown, node: Node, depthLeft: number): unknown {
  if (node.leaf) return copySingular(fp, v, depthLeft);
  // The schema check lets only message values have sub-paths.
  const sub = planOf(fp.message!);
  if (fp.box === boxNone) return projectMessage(sub, asMsg(v, fp), node, depthLeft - 1);
  const r = projectMessage(sub, boxValue(fp, v, depthLeft), node, depthLeft - 1);
  return r === undefined ? undefined : unboxValue(fp, r, depthLeft);
}

/** The value an element takes when its projection keeps nothing: an empty message. */
function emptyValue(fp: FieldPlan): unknown {
  return fp.box === boxStruct ? {} : create(fp.message!);
}

// ---------------------------------------------------------------------------------------------------------
// Messages: update
// ---------------------------------------------------------------------------------------------------------

interface MergeFlags {
  replaceMessage: boolean;
  replaceRepeated: boolean;
}

/**
 * Updates `target` from `source` under a mask (rule 8) and returns the result as a new message: only masked
 * fields change; unmasked fields of the source are ignored; a masked field the source leaves at its default
 * (unset, empty) is reset. A message field in the last position of a path is merged into (protobuf merge), a
 * repeated field appended to and a map field's entries added, unless `replaceMessageFields` /
 * `replaceRepeatedFields` say to replace them. No mask (undefined) means every field of the schema, so fields
 * the source does not set are reset; with `requireMask: true` it is an error. The lone path `*` means full
 * replacement: a copy of `source`. Neither input is mutated or shared with the result.
 *
 * @throws {WktJsonError} rule `mask-path` for a path that does not parse or name fields of `schema`, for `*`
 *   inside a path (wildcards are for read masks), and for a missing mask under `requireMask`; `json-type` if
 *   `target` or `source` is not a message of `schema`; `depth` for messages nested deeper than 100 levels.
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
  let trie: Node;
  if (mask === undefined) {
    if (options?.requireMask === true) throw missingMask();
    trie = allFieldsTrie(plan);
  } else {
    const aip161 = options?.aip161 === true;
    trie = memoMask(mask, schema, aip161 ? "merge-aip161" : "merge", (texts) => {
      const paths = checkedPaths(schema, texts, aip161);
      rejectWildcards(paths, texts);
      return trieOf(paths);
    });
    if (isStar(trie))
      return copyMessage(plan, source as unknown as Msg, defaultMaxDepth) as unknown as MessageShape<Desc>;
  }
  const flags: MergeFlags = {
    replaceMessage: options?.replaceMessageFields === true,
    replaceRepeated: options?.replaceRepeatedFields === true,
  };
  const out = copyMessage(plan, target as unknown as Msg, defaultMaxDepth);
  mergeInto(plan, out, source as unknown as Msg, trie, flags, defaultMaxDepth);
  return out as unknown as MessageShape<Desc>;
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

function missingMask(): WktJsonError {
  return new WktJsonError(
    "mask-path",
    "$",
    "google.protobuf.FieldMask",
    "an update mask is required (requireMask), and none was given",
  );
}

/** `*` inside an update mask: an error naming the first such path (the lone `*` is full replacement). */
function rejectWildcards(parsed: readonly (readonly Segment[])[], texts: readonly string[]): void {
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
): void {
  if (depthLeft <= 0) throw depthError(plan.desc);
  if (node.children === undefined) return;
  for (const [name, child] of node.children) {
    const fp = plan.byName.get(name)!;
    const sSet = src !== undefined && fieldIsSet(fp, src);
    const sv = sSet ? fieldGet(fp, src!) : undefined;
    if (child.leaf) {
      mergeLeaf(fp, dst, sSet, sv, flags, depthLeft);
      continue;
    }
    if (fp.kind === "map") {
      mergeMapEntries(fp, dst, sSet ? (sv as Msg) : undefined, child, flags, depthLeft);
      continue;
    }
    // A singular message field on the way to a longer path.
    const dSet = fieldIsSet(fp, dst);
    if (!sSet && !dSet) continue;
    const r = mergeSubMessage(fp, dSet ? fieldGet(fp, dst) : undefined, sSet ? sv : undefined, child, flags, depthLeft);
    fieldSet(fp, dst, r);
  }
}

/** Merges under `node` into a message value (owned `dv`, or a new one) and returns the value to store. */
function mergeSubMessage(
  fp: FieldPlan,
  dv: unknown,
  sv: unknown,
  node: Node,
  flags: MergeFlags,
  depthLeft: number,
): unknown {
  const sub = planOf(fp.message!);
  if (fp.box === boxNone) {
    const d = dv === undefined ? (create(sub.desc) as Msg) : asMsg(dv, fp);
    mergeInto(sub, d, sv === undefined ? undefined : asMsg(sv, fp), node, flags, depthLeft - 1);
    return d;
  }
  const d = dv === undefined ? (create(sub.desc) as Msg) : boxValue(fp, dv, depthLeft);
  mergeInto(sub, d, sv === undefined ? undefined : boxValue(fp, sv, depthLeft), node, flags, depthLeft - 1);
  return unboxValue(fp, d, depthLeft);
}

/** AIP-161 paths through a map field: `labels.env`, `labels.env.sub`. */
function mergeMapEntries(
  fp: FieldPlan,
  dst: Msg,
  smap: Msg | undefined,
  node: Node,
  flags: MergeFlags,
  depthLeft: number,
): void {
  const dmap = dst[fp.local] as Msg;
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
    setOwn(dmap, key, mergeSubMessage(fp, dHas ? dmap[key] : undefined, sv, child, flags, depthLeft));
  }
}

/** Rule 8 for a field in the last position of a path. */
function mergeLeaf(fp: FieldPlan, dst: Msg, sSet: boolean, sv: unknown, flags: MergeFlags, depthLeft: number): void {
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
function mergeWholeValue(fp: FieldPlan, dv: unknown, sv: unknown, flags: MergeFlags, depthLeft: number): unknown {
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

// ---------------------------------------------------------------------------------------------------------
// Messages: copying and field access
// ---------------------------------------------------------------------------------------------------------

function fieldSet(fp: FieldPlan, msg: Msg, v: unknown): void {
  if (fp.oneof !== undefined) msg[fp.oneof] = { case: fp.local, value: v };
  else msg[fp.local] = v;
}

function fieldClear(fp: FieldPlan, msg: Msg): void {
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

/** A deep copy of a message, unknown fields included. */
function copyMessage(plan: MessagePlan, msg: Msg, depthLeft: number): Msg {
  if (depthLeft <= 0) throw depthError(plan.desc);
  const out = create(plan.desc) as Msg;
  for (const fp of plan.fields) {
    if (fieldIsSet(fp, msg)) fieldSet(fp, out, copyFieldValue(fp, fieldGet(fp, msg), depthLeft));
  }
  const unknown = msg.$unknown;
  if (Array.isArray(unknown) && unknown.length > 0) out.$unknown = copyUnknown(unknown);
  return out;
}

function copyUnknown(unknown: readonly unknown[]): unknown[] {
  return unknown.map((u) => {
    const f = u as { no: number; wireType: number; data: unknown };
    return { no: f.no, wireType: f.wireType, data: f.data instanceof Uint8Array ? f.data.slice() : f.data };
  });
}

/** A copy of a set field's value: a list, a map, or a singular value. */
function copyFieldValue(fp: FieldPlan, v: unknown, depthLeft: number): unknown {
  switch (fp.kind) {
    case "list": {
      if (!Array.isArray(v)) throw wrongType(fp, v, "an array");
      const out: unknown[] = new Array(v.length);
      for (let i = 0; i < v.length; i++) out[i] = copySingular(fp, v[i], depthLeft);
      return out;
    }
    case "map": {
      if (typeof v !== "object" || v === null) throw wrongType(fp, v, "an object");
      const out: Msg = {};
      for (const key of Object.keys(v)) setOwn(out, key, copySingular(fp, (v as Msg)[key], depthLeft));
      return out;
    }
    default:
      return copySingular(fp, v, depthLeft);
  }
}

function copySingular(fp: FieldPlan, v: unknown, depthLeft: number): unknown {
  if (fp.message !== undefined) {
    if (fp.box === boxNone) return copyMessage(planOf(fp.message), asMsg(v, fp), depthLeft - 1);
    if (fp.box === boxStruct) return copyJson(v, depthLeft - 1, structTypeName);
  }
  return v instanceof Uint8Array ? v.slice() : v;
}

function wrongType(fp: FieldPlan, v: unknown, expected: string): WktJsonError {
  return new WktJsonError(
    "json-type",
    "$",
    fp.field.parent.typeName,
    `field "${fp.name}": expected ${expected}, got ${describe(v)}`,
  );
}

/** A wrapper scalar or a Struct JSON object as its message. */
function boxValue(fp: FieldPlan, v: unknown, depthLeft: number): Msg {
  if (fp.box === boxWrapper) return create(fp.message!, { value: v } as never) as Msg;
  return structFromJson(v, { maxDepth: depthLeft }) as unknown as Msg;
}

function unboxValue(fp: FieldPlan, m: Msg, depthLeft: number): unknown {
  if (fp.box === boxWrapper) return m.value;
  return structToJson(m as unknown as Struct, { maxDepth: depthLeft });
}

function atIndex(e: unknown, i: number): unknown {
  if (!(e instanceof WktJsonError) || e.rule === "mask-path") return e;
  return new WktJsonError(e.rule, "$[" + i + "]" + e.path.slice(1), e.typeName, e.detail);
}

// ---------------------------------------------------------------------------------------------------------
// Plain JSON
// ---------------------------------------------------------------------------------------------------------

/** What a projection returns when it keeps nothing. */
const ABSENT: unique symbol = Symbol("absent");
type Kept = unknown | typeof ABSENT;

interface JsonCtx {
  json: boolean;
  maxDepth: number;
  /** The segments from the root to the value being visited, for error messages. */
  at: Segment[];
}

function jsonCtx(options: JsonProjectOptions | undefined): JsonCtx {
  const names = options?.names;
  if (names !== undefined && names !== "literal" && names !== "json") {
    throw new WktJsonError(
      "range",
      "$",
      structTypeName,
      `names must be "literal" or "json", got ${typeof names === "string" ? JSON.stringify(names) : describe(names)}`,
    );
  }
  const m = options?.maxDepth;
  if (m !== undefined && (typeof m !== "number" || !(m >= 1) || (m !== Infinity && !Number.isInteger(m)))) {
    throw new WktJsonError("range", "$", structTypeName, `maxDepth must be a positive integer, got ${describe(m)}`);
  }
  return { json: names === "json", maxDepth: m ?? defaultMaxDepth, at: [] };
}

function isObj(v: unknown): v is Msg {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
}

function rootObject(v: unknown, what: string): Msg {
  if (!isObj(v))
    throw new WktJsonError(
      "json-type",
      "$",
      structTypeName,
      `${what}: expected a plain JSON object, got ${describe(v)}`,
    );
  return v;
}

/** The property a segment names in these objects (see `names`). */
function keyFor(name: string, ctx: JsonCtx, a: Msg | undefined, b?: Msg): string {
  if (!ctx.json) return name;
  const camel = protoCamelCase(name);
  if (camel === name) return name;
  if ((a !== undefined && hasOwn.call(a, camel)) || (b !== undefined && hasOwn.call(b, camel))) return camel;
  if ((a !== undefined && hasOwn.call(a, name)) || (b !== undefined && hasOwn.call(b, name))) return name;
  return camel;
}

/**
 * The selection for each own key of `obj` that the node selects, in `obj`'s key order. The work is the
 * smaller of the node's names and the object's keys, plus the keys when the node has `*` or names are JSON
 * names: never the names once per object, which made a mask of many names over many small objects quadratic.
 */
function selected(obj: Msg, node: Node, ctx: JsonCtx): [string, Node][] {
  const out: [string, Node][] = [];
  const children = node.children;
  if (node.any === undefined && !ctx.json) {
    if (children === undefined) return out;
    if (children.size > 8) {
      // Many names: walk the keys instead when the object has no more of them than the node has names.
      let keys = 0;
      for (const key in obj) if (hasOwn.call(obj, key) && ++keys > children.size) break;
      if (keys <= children.size) {
        for (const key in obj) {
          const c = children.get(key);
          if (c !== undefined && hasOwn.call(obj, key)) out.push([key, c]);
        }
        return out;
      }
    }
    // Look each name up, then walk the object's keys (without allocating them) only as far as the last
    // selected one, to keep the object's order.
    let found = 0;
    let first: string | undefined;
    for (const name of children.keys()) {
      if (hasOwn.call(obj, name)) {
        found++;
        first ??= name;
      }
    }
    if (found <= 1) {
      if (first !== undefined) out.push([first, children.get(first)!]);
      return out;
    }
    for (const key in obj) {
      const c = children.get(key);
      if (c !== undefined && hasOwn.call(obj, key)) {
        out.push([key, c]);
        if (out.length === found) break;
      }
    }
    return out;
  }
  const byCamel = ctx.json && children !== undefined ? camelNames(node) : undefined;
  for (const key of Object.keys(obj)) {
    let c: Node | undefined;
    if (byCamel !== undefined) {
      // See keyFor: a name is read under its JSON name when the object has it, else under itself.
      c = byCamel.get(key);
      const literal = children!.get(key);
      if (literal !== undefined && literal !== c) {
        const camel = protoCamelCase(key);
        if (camel !== key && !hasOwn.call(obj, camel)) c = c === undefined ? literal : mergeCached(c, literal);
      }
    } else {
      c = children?.get(key);
    }
    if (node.any !== undefined) c = c === undefined ? node.any : mergeCached(c, node.any);
    if (c !== undefined) out.push([key, c]);
  }
  return out;
}

/** Each JSON name (protoc's lowerCamel) of a node's names, with what the names of that JSON name select. */
const camelMemo = new WeakMap<Node, Map<string, Node>>();

function camelNames(node: Node): Map<string, Node> {
  let m = camelMemo.get(node);
  if (m !== undefined) return m;
  m = new Map();
  for (const [name, child] of node.children!) {
    const camel = protoCamelCase(name);
    const prev = m.get(camel);
    m.set(camel, prev === undefined ? child : merge(prev, child));
  }
  camelMemo.set(node, m);
  return m;
}

function arrayByName(ctx: JsonCtx, node: Node): WktJsonError {
  const name = node.children!.keys().next().value!;
  const at = formatPath(ctx.at);
  return maskPathError(
    formatPath([...ctx.at, name]),
    name,
    `is applied to an array (the value at "${at}"): a mask cannot address an element by position (AIP-161); use "${at}.*" and the name after it`,
  );
}

function jsonDepthError(ctx: JsonCtx): WktJsonError {
  return new WktJsonError(
    "depth",
    "$",
    structTypeName,
    `the JSON value nests deeper than maxDepth (${formatBound(ctx.maxDepth)})`,
  );
}

/** A deep copy of a JSON value: arrays and plain objects are copied, everything else is shared. */
function copyJson(v: unknown, depthLeft: number, typeName: string): unknown {
  if (typeof v !== "object" || v === null) return v;
  if (depthLeft <= 0) throw new WktJsonError("depth", "$", typeName, `the JSON value nests deeper than the limit`);
  if (Array.isArray(v)) {
    const out: unknown[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = copyJson(v[i], depthLeft - 1, typeName);
    return out;
  }
  if (!isObj(v)) return v;
  const out: Msg = {};
  for (const key of Object.keys(v)) setOwn(out, key, copyJson(v[key], depthLeft - 1, typeName));
  return out;
}

function copyJ(v: unknown, depthLeft: number, ctx: JsonCtx): unknown {
  try {
    return copyJson(v, depthLeft, structTypeName);
  } catch (e) {
    if (e instanceof WktJsonError && e.rule === "depth") throw jsonDepthError(ctx);
    throw e;
  }
}

function projectJson(v: unknown, node: Node, depthLeft: number, ctx: JsonCtx): Kept {
  if (node.leaf) return copyJ(v, depthLeft, ctx);
  if (typeof v !== "object" || v === null) return ABSENT;
  if (depthLeft <= 0) throw jsonDepthError(ctx);
  if (Array.isArray(v)) {
    if (node.children !== undefined) throw arrayByName(ctx, node);
    const each = node.any!;
    const out: unknown[] = new Array(v.length);
    let kept = false;
    ctx.at.push(WILD);
    for (let i = 0; i < v.length; i++) {
      const r = projectJson(v[i], each, depthLeft - 1, ctx);
      if (r !== ABSENT) kept = true;
      out[i] = r;
    }
    ctx.at.pop();
    if (!kept) return ABSENT;
    for (let i = 0; i < out.length; i++) if (out[i] === ABSENT) out[i] = isObj(v[i]) ? {} : null;
    return out;
  }
  if (!isObj(v)) return ABSENT;
  let out: Msg | undefined;
  for (const [key, child] of selected(v, node, ctx)) {
    ctx.at.push(key);
    const r = projectJson(v[key], child, depthLeft - 1, ctx);
    ctx.at.pop();
    if (r === ABSENT) continue;
    out ??= {};
    setOwn(out, key, r);
  }
  return out ?? ABSENT;
}

function omitJson(v: unknown, node: Node, depthLeft: number, ctx: JsonCtx): Kept {
  if (node.leaf) return ABSENT;
  if (typeof v !== "object" || v === null) return v;
  if (depthLeft <= 0) throw jsonDepthError(ctx);
  if (Array.isArray(v)) {
    if (node.children !== undefined) throw arrayByName(ctx, node);
    const each = node.any!;
    if (each.leaf) return [];
    const out: unknown[] = new Array(v.length);
    ctx.at.push(WILD);
    for (let i = 0; i < v.length; i++) out[i] = omitJson(v[i], each, depthLeft - 1, ctx);
    ctx.at.pop();
    return out;
  }
  if (!isObj(v)) return v;
  const sel = selected(v, node, ctx);
  const out: Msg = {};
  let s = 0;
  for (const key of Object.keys(v)) {
    if (s < sel.length && sel[s]![0] === key) {
      const child = sel[s++]![1];
      ctx.at.push(key);
      const r = omitJson(v[key], child, depthLeft - 1, ctx);
      ctx.at.pop();
      if (r !== ABSENT) setOwn(out, key, r);
    } else {
      setOwn(out, key, copyJ(v[key], depthLeft - 1, ctx));
    }
  }
  return out;
}

/**
 * Projects a plain JSON resource onto a mask (rule 7 on JSON): a new object with only the masked properties.
 * A segment is a property name (see `names`), `*` every element of an array or property of an object
 * (`authors.*.given_name`); map keys per AIP-161 (`` labels.`team name` ``). An object on the way to a longer
 * path is kept only if something below it is; in an array reached through `*`, an element that keeps nothing
 * becomes `{}` (an object) or `null`, and the array is dropped if no element keeps anything. No mask or `*`
 * copies the whole object.
 *
 * @throws {WktJsonError} rule `mask-path` for a path that does not parse, or a named segment applied to an array;
 *   `json-type` if `object` is not a plain object or `mask` is not a FieldMask or array of strings; `depth`
 *   beyond `maxDepth`; `range` for a bad option.
 * @example
 * jsonProject({ id: 1, config: { url: "u", secret: "s" }, events: ["push"] }, ["config.url", "events"]);
 * //=> { config: { url: "u" }, events: ["push"] }
 */
export function jsonProject<T extends object>(
  object: T,
  mask?: FieldMaskLike,
  options?: JsonProjectOptions,
): Partial<T> {
  const ctx = jsonCtx(options);
  const root = rootObject(object, "object");
  const trie = mask === undefined ? LEAF : jsonTrie(mask);
  return projectJsonRoot(root, trie, ctx) as Partial<T>;
}

/** The trie of a read mask for the JSON functions (AIP-161 syntax). */
function jsonTrie(mask: FieldMaskLike): Node {
  return memoMask(mask, undefined, "json", (paths) => parseMask(paths, true));
}

function projectJsonRoot(root: Msg, trie: Node, ctx: JsonCtx): Msg {
  const r = projectJson(root, trie, ctx.maxDepth, ctx);
  return r === ABSENT ? {} : (r as Msg);
}

/**
 * Projects every object of an array onto one mask (rule 7's list operations); the mask is parsed once.
 *
 * @throws {WktJsonError} as {@link jsonProject}; `json-type` if `list` is not an array of plain objects.
 * @example
 * jsonProjectEach([{ id: 1, name: "a" }, { id: 2, name: "b" }], ["id"]); //=> [{ id: 1 }, { id: 2 }]
 */
export function jsonProjectEach<T extends object>(
  list: readonly T[],
  mask?: FieldMaskLike,
  options?: JsonProjectOptions,
): Partial<T>[] {
  const ctx = jsonCtx(options);
  const trie = mask === undefined ? LEAF : jsonTrie(mask);
  return eachObject(list, (obj) => projectJsonRoot(obj, trie, ctx)) as Partial<T>[];
}

/**
 * Removes the masked properties from a plain JSON resource: the complement of {@link jsonProject}, as a
 * migration's `exclude` list asks. `owner` removes the property, `owner.avatar_url` only that member,
 * `repositories.*.owner` the owner of every repository. A new object; the input is not changed.
 *
 * @throws {WktJsonError} rule `mask-path` for a path that does not parse, or a named segment applied to an array;
 *   `json-type` if `object` is not a plain object or `mask` is not a FieldMask or array of strings; `depth`
 *   beyond `maxDepth`; `range` for a bad option.
 * @example
 * jsonOmit({ id: 1, owner: { login: "o" }, url: "u" }, ["owner"]); //=> { id: 1, url: "u" }
 */
export function jsonOmit<T extends object>(object: T, mask: FieldMaskLike, options?: JsonOmitOptions): Partial<T> {
  const ctx = jsonCtx(options);
  const root = rootObject(object, "object");
  const trie = jsonTrie(mask);
  return omitJsonRoot(root, trie, ctx) as Partial<T>;
}

function omitJsonRoot(root: Msg, trie: Node, ctx: JsonCtx): Msg {
  const r = omitJson(root, trie, ctx.maxDepth, ctx);
  return r === ABSENT ? {} : (r as Msg);
}

/**
 * Removes the masked properties from every object of an array (see {@link jsonOmit}); the mask is parsed once.
 *
 * @throws {WktJsonError} as {@link jsonOmit}; `json-type` if `list` is not an array of plain objects.
 * @example
 * jsonOmitEach([{ id: 1, owner: {} }, { id: 2, owner: {} }], ["owner"]); //=> [{ id: 1 }, { id: 2 }]
 */
export function jsonOmitEach<T extends object>(
  list: readonly T[],
  mask: FieldMaskLike,
  options?: JsonOmitOptions,
): Partial<T>[] {
  const ctx = jsonCtx(options);
  const trie = jsonTrie(mask);
  return eachObject(list, (obj) => omitJsonRoot(obj, trie, ctx)) as Partial<T>[];
}

function eachObject(list: unknown, fn: (obj: Msg) => Msg): Msg[] {
  if (!Array.isArray(list))
    throw new WktJsonError("json-type", "$", structTypeName, `list: expected an array, got ${describe(list)}`);
  const out: Msg[] = new Array(list.length);
  for (let i = 0; i < list.length; i++) {
    try {
      out[i] = fn(rootObject(list[i], "element"));
    } catch (e) {
      throw atIndex(e, i);
    }
  }
  return out;
}

/**
 * Updates a plain JSON resource from a patch under a mask (rule 8 on JSON) and returns the result as a new
 * object: only masked properties change; a masked property the patch lacks is removed; a masked object is
 * merged into (deeply: objects merged, arrays appended, other values replaced) and a masked array appended to,
 * unless `replaceMessageFields` / `replaceRepeatedFields` say to replace them; an empty patch array resets the
 * property to `[]`. No mask means every property of `target` and `patch`; with `requireMask: true` it is an
 * error. The lone path `*` means full replacement: a copy of `patch`. A PATCH handler is
 * `jsonMerge(stored, body, fieldMaskFromPatch(body))`.
 *
 * @throws {WktJsonError} rule `mask-path` for a path that does not parse, `*` inside a path, a named segment
 *   applied to an array, and a missing mask under `requireMask`; `json-type` if `target` or `patch` is not a
 *   plain object or `mask` not a FieldMask or array of strings; `depth` beyond `maxDepth`; `range` for a bad
 *   option.
 * @example
 * const hook = { active: true, config: { url: "a", secret: "s" } };
 * jsonMerge(hook, { config: { url: "b" } }, ["config"], { replaceMessageFields: true });
 * //=> { active: true, config: { url: "b" } }
 * jsonMerge(hook, { url: "b" }, ["url"]); // on hook.config: //=> { url: "b", secret: "s" }
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
    if (options?.requireMask === true) throw missingMask();
    const children = new Map<string, Node>();
    for (const k of Object.keys(dstRoot)) children.set(k, LEAF);
    for (const k of Object.keys(srcRoot)) children.set(k, LEAF);
    trie = { leaf: false, children, any: undefined };
    ctx.json = false; // the keys are the objects' own
  } else {
    trie = memoMask(mask, undefined, "json-merge", (texts) => {
      const parsed = texts.map((p) => parsePath(p, true));
      rejectWildcards(parsed, texts);
      return trieOf(parsed);
    });
    if (isStar(trie)) return copyJ(srcRoot, ctx.maxDepth, ctx) as T;
  }
  const out = copyJ(dstRoot, ctx.maxDepth, ctx) as Msg;
  const flags: MergeFlags = {
    replaceMessage: options?.replaceMessageFields === true,
    replaceRepeated: options?.replaceRepeatedFields === true,
  };
  mergeJsonInto(out, srcRoot, trie, flags, ctx.maxDepth - 1, ctx);
  return out as T;
}

function mergeJsonInto(
  dst: Msg,
  src: Msg | undefined,
  node: Node,
  flags: MergeFlags,
  depthLeft: number,
  ctx: JsonCtx,
): void {
  if (depthLeft < 0) throw jsonDepthError(ctx);
  if (node.children === undefined) return;
  for (const [name, child] of node.children) {
    const key = keyFor(name, ctx, dst, src);
    const sHas = src !== undefined && hasOwn.call(src, key);
    const sv = sHas ? src![key] : undefined;
    const dHas = hasOwn.call(dst, key);
    const dv = dHas ? dst[key] : undefined;
    if (child.leaf) {
      if (!sHas) {
        if (dHas) delete dst[key];
      } else if (!flags.replaceMessage && isObj(sv) && isObj(dv)) {
        deepMergeJson(dv, sv, flags, depthLeft - 1, ctx);
      } else if (!flags.replaceRepeated && Array.isArray(sv) && Array.isArray(dv) && sv.length > 0) {
        for (const item of sv) dv.push(copyJ(item, depthLeft - 1, ctx));
      } else {
        setOwn(dst, key, copyJ(sv, depthLeft, ctx));
      }
      continue;
    }
    ctx.at.push(key);
    if (Array.isArray(dv)) throw arrayByName(ctx, child);
    if (Array.isArray(sv)) throw arrayByName(ctx, child);
    const s = isObj(sv) ? sv : undefined;
    if (s === undefined && !isObj(dv)) {
      ctx.at.pop();
      continue;
    }
    let d: Msg;
    if (isObj(dv)) d = dv;
    else setOwn(dst, key, (d = {}));
    mergeJsonInto(d, s, child, flags, depthLeft - 1, ctx);
    ctx.at.pop();
  }
}

/** Merges `src` into the owned object `dst`: objects merge, arrays append (unless replaced), the rest replaces. */
function deepMergeJson(dst: Msg, src: Msg, flags: MergeFlags, depthLeft: number, ctx: JsonCtx): void {
  if (depthLeft < 0) throw jsonDepthError(ctx);
  for (const key of Object.keys(src)) {
    const sv = src[key];
    const dv = hasOwn.call(dst, key) ? dst[key] : undefined;
    if (isObj(sv) && isObj(dv)) deepMergeJson(dv, sv, flags, depthLeft - 1, ctx);
    else if (!flags.replaceRepeated && Array.isArray(sv) && Array.isArray(dv)) {
      for (const item of sv) dv.push(copyJ(item, depthLeft - 1, ctx));
    } else setOwn(dst, key, copyJ(sv, depthLeft, ctx));
  }
}

/**
 * The mask of the keys present in a PATCH body: the top-level keys by default, or down to `depth` levels of
 * nested objects. A key that is not an identifier is quoted (`` `team name` ``). With `names: "json"`,
 * lowerCamel keys become proto names (`dateCreated` → `date_created`). The mask of a PATCH handler:
 * `jsonMerge(stored, body, fieldMaskFromPatch(body))`. The mask is bounded whatever the body: at most
 * `maxPaths` paths of at most `maxLength` code units in all.
 *
 * @throws {WktJsonError} rule `json-type` if `patch` is not a plain object; `range` for a bad `depth`, `names`,
 *   `maxPaths` or `maxLength`; `depth` if the patch nests deeper than 100 levels within `depth`; `size` when
 *   the mask would hold more than `maxPaths` paths (default 10,000) or more than `maxLength` code units
 *   (default 1,048,576).
 * @example
 * fieldMaskFromPatch({ active: false, config: { url: "u" } }).paths; //=> ["active", "config"]
 * fieldMaskFromPatch({ config: { url: "u", content_type: "json" } }, { depth: 2 }).paths;
 * //=> ["config.url", "config.content_type"]
 */
export function fieldMaskFromPatch(patch: object, options?: FieldMaskFromPatchOptions): FieldMask {
  const root = rootObject(patch, "patch");
  const depth = options?.depth ?? 1;
  if (typeof depth !== "number" || !(depth >= 1) || (depth !== Infinity && !Number.isInteger(depth))) {
    throw new WktJsonError(
      "range",
      "$",
      structTypeName,
      `depth must be a positive integer or Infinity, got ${describe(depth)}`,
    );
  }
  const maxPaths = countOption(options?.maxPaths, "maxPaths", defaultMaskMaxPaths);
  const maxLength = countOption(options?.maxLength, "maxLength", defaultPatchMaskMaxLength);
  const json = jsonCtx({ names: options?.names ?? "literal" }).json;
  const paths: string[] = [];
  let length = 0;
  const walk = (obj: Msg, prefix: string, level: number): void => {
    if (level > maxSegments) {
      throw new WktJsonError("depth", "$", structTypeName, `the patch nests deeper than ${maxSegments} levels`);
    }
    for (const key of Object.keys(obj)) {
      const path = prefix + formatSegment(json ? protoName(key) : key);
      const v = obj[key];
      if (level < depth && isObj(v) && hasOwnKey(v)) walk(v, path + ".", level + 1);
      else {
        // Checked before the path is kept, so the mask never grows past the bounds.
        if (paths.length >= maxPaths) throw patchTooLarge(`more than maxPaths (${formatBound(maxPaths)}) paths`);
        if ((length += path.length) > maxLength) {
          throw patchTooLarge(`paths of more than maxLength (${formatBound(maxLength)}) UTF-16 code units in all`);
        }
        paths.push(path);
      }
    }
  };
  walk(root, "", 1);
  return makeMask(paths);
}

/** Whether a plain object has an own enumerable key (without listing its keys). */
function hasOwnKey(obj: Msg): boolean {
  for (const key in obj) if (hasOwn.call(obj, key)) return true;
  return false;
}

function countOption(v: unknown, name: string, fallback: number): number {
  if (v === undefined) return fallback;
  if (typeof v !== "number" || !(v >= 0) || (v !== Infinity && !Number.isInteger(v))) {
    throw new WktJsonError(
      "range",
      "$",
      "google.protobuf.FieldMask",
      `${name} must be a non-negative integer or Infinity, got ${describe(v)}`,
    );
  }
  return v;
}

function patchTooLarge(what: string): WktJsonError {
  return new WktJsonError("size", "$", "google.protobuf.FieldMask", `the mask of the patch would hold ${what}`);
}

/** The proto name whose JSON name is `key`, or `key` itself when no proto name maps to it. */
function protoName(key: string): string {
  const snake = protoSnakeCase(key);
  return snake !== key && protoCamelCase(snake) === key ? snake : key;
}
