/**
 * FieldMask set algebra (normalize, union, intersect, subtract, covers) and the masks a schema or two messages
 * give (every field, fields by number, the diff of two messages).
 *
 * Every `mask` parameter takes a FieldMask message or an array of path strings; every
 * function that returns a mask returns a new FieldMask message with canonical, sorted paths (except
 * {@link fieldMaskForAllFields}, {@link fieldMaskFromFieldNumbers} and {@link fieldMaskFromDiff}, which keep the
 * schema's field order). The schema-free operations (normalize, union, intersect, covers, subtract without a
 * schema) read the AIP-161 syntax (`labels.env`, `` labels.`team name` ``, `authors.*.given_name`, the lone
 * `*`): a strict proto path is a special case of it. The schema-aware ones are strict proto (rule 7) unless
 * given `{ aip161: true }`.
 *
 * - A path covers itself and every path below it; `*` covers every key at its position, and the lone `*`
 *   covers everything.
 * - Every function that takes a mask from a client does at most a bounded amount of work per code unit of its
 *   paths (the work meter, README "Hostile input"): masks whose `*` paths generalize one another in too many
 *   ways are refused with rule `size` instead of taking time out of proportion to their size.
 * - Go's `fieldmaskpb` and Java's `FieldMaskUtil` sort and drop covered paths the same way; they have no
 *   wildcards or map keys, no subtract that expands a parent into its remaining fields, and no diff.
 *
 * @module
 */
import type { DescMessage, MessageShape } from "@bufbuild/protobuf";
import type { FieldMask } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { coversPath, intersect, overlaps } from "../internal/mask-algebra.js";
import { atMaskPath, maskPathOf, type MaskPathOption } from "../internal/mask-base.js";
import {
  formatPath,
  isSimplePath,
  makeMask,
  maskPathError,
  maskPaths,
  parsePath,
  WILD,
  type FieldMaskLike,
  type Segment,
} from "../internal/mask-path.js";
import {
  anyLeaf,
  countPaths,
  emptyNode,
  isEmptyNode,
  LEAF,
  mergeAll,
  normalize,
  parseMask,
  pathsOf,
  stepAll,
  type Node,
} from "../internal/mask-trie.js";
import { charge, earn, unmetered, workMeter, type WorkMeter } from "../internal/meter.js";
import { fieldMaskTypeName } from "../internal/names.js";
import { countOption } from "../internal/options.js";
import { defaultMaskMaxPaths, defaultMaxDepth, formatBound } from "../limits.js";
import {
  asMsg,
  checkMessage,
  depthError,
  fieldGet,
  fieldIsSet,
  planOf,
  type FieldAccess,
  type MessagePlan,
  type Msg,
} from "./field-access.js";
import { checkedTrie } from "./field-mask-check.js";
import { fieldValueEquals } from "./message-equals.js";

/**
 * Sorts the paths of a mask, removes duplicates and every path covered by another (`a.b` goes when `a` is
 * there; `labels.env` when `labels.*` is), and writes each path in canonical form (map keys bare where the
 * syntax allows, quoted otherwise).
 *
 * @throws {WktJsonError} rule `mask-path` for a path that does not parse; `json-type` if `mask` is not a
 *   FieldMask or an array of strings; `size` if its `*` paths generalize one another in so many ways that
 *   normalizing takes more work than its size allows (README, Hostile input); each at `$` or at
 *   `options.maskPath`.
 * @example
 * fieldMaskNormalize(["b", "a.x", "a", "b"]).paths; //=> ["a", "b"]
 * fieldMaskNormalize(["a..b"], { maskPath: "$.readMask" }); // throws WktJsonError (rule "mask-path", jsonPath "$.readMask")
 */
export function fieldMaskNormalize(mask: FieldMaskLike, options?: MaskPathOption): FieldMask;
/** @hidden */
// Without options, so that `masks.map(fieldMaskNormalize)` still compiles (map passes an index second).
export function fieldMaskNormalize(mask: FieldMaskLike): FieldMask;
export function fieldMaskNormalize(mask: FieldMaskLike, options?: MaskPathOption): FieldMask {
  return atMaskPath(maskPathOf(options), () => makeMask(normalizePaths(maskPaths(mask), workMeter(fieldMaskTypeName))));
}

/** The normal form of `paths` as canonical text, their code units earned on `m` and the work charged to it. */
function normalizePaths(paths: readonly string[], m: WorkMeter): string[] {
  for (let k = 0; k < paths.length; k++) {
    if (!isSimplePath(paths[k]!)) return pathsOf(parseMask(paths, true, undefined, m), m);
  }
  // Only identifiers and integers: '.' sorts below every character a segment may hold, so a path's
  // descendants follow it directly, and comparing with the last path kept is enough.
  for (let k = 0; k < paths.length; k++) earn(m, paths[k]!.length);
  charge(m, paths.length * Math.ceil(Math.log2(paths.length + 1))); // the sort's comparisons
  const sorted = paths.slice().sort(); // code-unit order, as pathsOf sorts
  const out: string[] = [];
  let last: string | undefined;
  for (let k = 0; k < sorted.length; k++) {
    const p = sorted[k]!;
    if (last !== undefined && (p === last || (p.charCodeAt(last.length) === 46 && p.startsWith(last)))) continue;
    out.push(p);
    last = p;
  }
  return out;
}

/**
 * The union of masks: every path of each, normalized (see {@link fieldMaskNormalize}).
 *
 * The last argument may be the options instead of a mask (an object with `maskPath` and no `paths`).
 *
 * @throws {WktJsonError} rule `mask-path` for a path that does not parse; `json-type` if an argument is not a
 *   FieldMask or an array of strings; `size` as {@link fieldMaskNormalize}; each at `$` or at the options'
 *   `maskPath`.
 * @example
 * fieldMaskUnion(["config.url"], ["config", "events"]).paths; //=> ["config", "events"]
 * fieldMaskUnion(["a"], ["b..c"], { maskPath: "$.fields" }); // throws WktJsonError (rule "mask-path", jsonPath "$.fields")
 */
export function fieldMaskUnion(...masks: FieldMaskLike[]): FieldMask;
export function fieldMaskUnion(...args: [...masks: FieldMaskLike[], options: MaskPathOption]): FieldMask;
export function fieldMaskUnion(...args: unknown[]): FieldMask {
  const last = args[args.length - 1];
  const options =
    typeof last === "object" && last !== null && !Array.isArray(last) && !("paths" in last) && "maskPath" in last
      ? (last as MaskPathOption)
      : undefined;
  const masks = options === undefined ? args : args.slice(0, -1);
  return atMaskPath(maskPathOf(options), () => {
    const all: string[] = [];
    for (let k = 0; k < masks.length; k++) {
      const paths = maskPaths(masks[k], `mask ${k}`);
      for (let i = 0; i < paths.length; i++) all.push(paths[i]!);
    }
    return makeMask(normalizePaths(all, workMeter(fieldMaskTypeName)));
  });
}

/**
 * Options of the FieldMask functions whose result can hold more paths than their input. `maskPath`: where the
 * masks sit in the caller's request; every error about them is at it.
 */
export interface FieldMaskSizeOptions extends MaskPathOption {
  /**
   * The most paths the result may hold (default 10,000): beyond it the function throws rule `size` instead of
   * building it. The work of the function is bounded by the size of its input (README, Hostile input);
   * `Infinity` lifts both bounds, for masks from a trusted source.
   */
  maxPaths?: number;
}

function tooManyPaths(what: string, maxPaths: number): WktJsonError {
  return new WktJsonError(
    "size",
    "$",
    fieldMaskTypeName,
    `${what} holds more than maxPaths (${formatBound(maxPaths)}) paths`,
  );
}

/** The meter of a call with a `maxPaths` option: none for `Infinity` (trusted masks). */
function meterFor(maxPaths: number): WorkMeter {
  return maxPaths === Infinity ? unmetered(fieldMaskTypeName) : workMeter(fieldMaskTypeName);
}

/**
 * The intersection of two masks: what both select (`a` ∩ `a.b` is `a.b`; `authors.*.name` ∩ `authors` is
 * `authors.*.name`), normalized. Two masks of n paths can intersect in n² paths: `maxPaths` caps the result.
 *
 * @throws {WktJsonError} rule `mask-path` for a path that does not parse; `json-type` if an argument is not a
 *   FieldMask or an array of strings; `size` when the result would hold more than `maxPaths` paths (default
 *   10,000), or the masks overlap through `*` in so many ways that finding it takes more work than their size
 *   allows (README, Hostile input); `range` for a bad `maxPaths`.
 * @example
 * fieldMaskIntersect(["a", "b.c"], ["a.x", "b"]).paths; //=> ["a.x", "b.c"]
 * fieldMaskIntersect(["a.*"], ["*.b"]).paths; //=> ["a.b"]
 */
export function fieldMaskIntersect(a: FieldMaskLike, b: FieldMaskLike, options?: FieldMaskSizeOptions): FieldMask {
  return atMaskPath(maskPathOf(options), () => intersectMasks(a, b, options));
}

function intersectMasks(a: FieldMaskLike, b: FieldMaskLike, options: FieldMaskSizeOptions | undefined): FieldMask {
  const maxPaths = countOption("maxPaths", options?.maxPaths, defaultMaskMaxPaths);
  const m = meterFor(maxPaths);
  const ta = parseMask(a, true, "mask a", m);
  const tb = parseMask(b, true, "mask b", m);
  const t = intersect(ta, tb, m);
  if (countPaths(t, maxPaths, m) > maxPaths) throw tooManyPaths("the intersection", maxPaths);
  return makeMask(pathsOf(t, m));
}

/**
 * The paths of `a` less what `b` selects, normalized. When `b` removes part of a path of `a` (`a` minus
 * `a.b`), the rest of it is spelled out from `schema`: the path becomes the remaining fields of its message
 * (`a.c`, `a.d`, ...), recursively. Without a schema that case is an error. Both masks are checked against
 * `schema` when it is given (AIP-161 syntax allowed). Spelling out can make the result larger than `a`:
 * `maxPaths` caps it.
 *
 * @throws {WktJsonError} rule `mask-path` for a path that does not parse or (with a schema) names no field;
 *   when `b` removes part of a path of `a` and no schema is given; or when the rest cannot be written as paths
 *   (one map entry out of `labels` or `labels.*`). `json-type` if an argument is not a FieldMask or an array of
 *   strings. `size` when the result would hold more than `maxPaths` paths (default 10,000), or finding it takes
 *   more work than the masks' size allows (README, Hostile input); `range` for a bad `maxPaths`.
 * @example
 * fieldMaskSubtract(["a", "b"], ["b"]).paths; //=> ["a"]
 * fieldMaskSubtract(["optional_nested_message"], ["optional_nested_message.a"], TestAllTypesProto3Schema).paths;
 * //=> ["optional_nested_message.corecursive"]
 */
export function fieldMaskSubtract(
  a: FieldMaskLike,
  b: FieldMaskLike,
  schema?: DescMessage,
  options?: FieldMaskSizeOptions,
): FieldMask {
  return atMaskPath(maskPathOf(options), () => subtractMasks(a, b, schema, options));
}

function subtractMasks(
  a: FieldMaskLike,
  b: FieldMaskLike,
  schema: DescMessage | undefined,
  options: FieldMaskSizeOptions | undefined,
): FieldMask {
  const maxPaths = countOption("maxPaths", options?.maxPaths, defaultMaskMaxPaths);
  const m = meterFor(maxPaths);
  let ta: Node;
  let tb: Node;
  let loc: Loc | undefined;
  if (schema === undefined) {
    ta = parseMask(a, true, "mask a", m);
    tb = parseMask(b, true, "mask b", m);
  } else {
    ta = checkedTrie(schema, a, true, "mask a", m);
    tb = checkedTrie(schema, b, true, "mask b", m);
    loc = planOf(schema);
  }
  // A path of `a` spelled out into n fields adds n leaves, of which those that `b` goes on into are removed
  // again: at most one per node of `b`. So once the leaves added outnumber maxPaths and b's nodes together,
  // the result holds more than maxPaths.
  const ctx: SubtractCtx = {
    added: 0,
    limit: Math.min(maxPaths, Number.MAX_SAFE_INTEGER) + countNodes(tb, m),
    maxPaths,
    m,
    unions: new Map(),
  };
  const r = normalize(subtract(ta, [tb], loc, [], ctx), m);
  if (countPaths(r, maxPaths, m) > maxPaths) throw tooManyPaths("the difference", maxPaths);
  return makeMask(pathsOf(r, m));
}

interface SubtractCtx {
  /** Leaves added by spelling out paths of `a` so far. */
  added: number;
  limit: number;
  readonly maxPaths: number;
  readonly m: WorkMeter;
  /** For a node of `b`: what its named children select together (see {@link subtract}). */
  readonly unions: Map<Node, Node>;
}

function countNodes(node: Node, m: WorkMeter): number {
  let n = 0;
  const stack: Node[] = [node];
  while (stack.length > 0) {
    const v = stack.pop()!;
    n++;
    if (v.children !== undefined) {
      charge(m, v.children.size);
      for (const c of v.children.values()) stack.push(c);
    }
    if (v.any !== undefined) stack.push(v.any);
  }
  return n;
}

/** Where a trie node stands in a schema: a message, a repeated/map field (its entries come next), or a scalar. */
type Loc = MessagePlan | FieldAccess | null;

function childLoc(loc: Loc | undefined, seg: Segment): Loc | undefined {
  if (loc === undefined || loc === null) return loc;
  if ("byName" in loc) {
    const fp = seg === WILD ? undefined : loc.byName.get(seg);
    if (fp === undefined) return null;
    if (fp.kind === "message") return planOf(fp.message!);
    return fp.kind === "list" || fp.kind === "map" ? fp : null;
  }
  return loc.message !== undefined ? planOf(loc.message) : null;
}

/**
 * `a` less what the set `b` selects (nodes of b's trie at a's depth whose prefixes generalize a's), not
 * normalized; an empty node when nothing is left.
 */
function subtract(a: Node, b: readonly Node[], loc: Loc | undefined, at: Segment[], ctx: SubtractCtx): Node {
  if (anyLeaf(b)) return emptyNode();
  if (isEmptyNode(a) || b.length === 0) return a;
  if (a.leaf) {
    if (loc === undefined) {
      throw maskPathError(
        formatPath(at),
        undefined,
        "loses a part to the subtracted mask; naming what remains of it needs the schema (fieldMaskSubtract(a, b, schema))",
      );
    }
    a = expand(loc, at, ctx);
  }
  let children: Map<string, Node> | undefined;
  if (a.children !== undefined) {
    for (const [k, ac] of a.children) {
      const bk = stepAll(b, k, ctx.m);
      at.push(k);
      const r = bk.length === 0 ? ac : subtract(ac, bk, childLoc(loc, k), at, ctx);
      at.pop();
      if (!isEmptyNode(r)) (children ??= new Map()).set(k, r);
    }
  }
  let any: Node | undefined;
  if (a.any !== undefined) {
    const bAny = stepAll(b, WILD, ctx.m);
    at.push(WILD);
    const rest = bAny.length === 0 ? a.any : subtract(a.any, bAny, childLoc(loc, WILD), at, ctx);
    at.pop();
    // `*` keeps selecting every key, so it cannot lose a part under one key only: no named child of a node of
    // `b` may overlap `rest`. Tested against what the named children of each node select together (made once
    // per node), not child by child: one walk over `rest` instead of one per child.
    for (const u of b) {
      if (u.children === undefined) continue;
      let all = ctx.unions.get(u);
      if (all === undefined) ctx.unions.set(u, (all = mergeAll([...u.children.values()], ctx.m)!));
      if (!overlaps(rest, all, ctx.m)) continue;
      throw maskPathError(
        formatPath([...at, overlappingKey(rest, [...u.children], ctx.m)]),
        undefined,
        `cannot be taken out of "${formatPath([...at, WILD])}": a mask has no way to say "every entry but one"`,
      );
    }
    if (!isEmptyNode(rest)) any = rest;
  }
  return { leaf: false, children, any };
}

/**
 * The first key of `children` whose subtree overlaps `rest`, given that one does: found by halving the list
 * and testing what the first half selects together, so that the search costs about two merges of the list and
 * a walk over `rest` per halving, not a walk over `rest` per child.
 */
function overlappingKey(rest: Node, children: readonly [string, Node][], m: WorkMeter): string {
  let lo = 0;
  let hi = children.length;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    const half: Node[] = [];
    for (let i = lo; i < mid; i++) half.push(children[i]![1]);
    if (overlaps(rest, mergeAll(half, m)!, m)) hi = mid;
    else lo = mid;
  }
  return children[lo]![0];
}

/** A leaf at `loc` written as its parts: every field of a message, every entry of a repeated or map field. */
function expand(loc: Loc, at: Segment[], ctx: SubtractCtx): Node {
  if (loc === null) throw maskPathError(formatPath(at), undefined, "is a scalar and has no parts to take away");
  const out = emptyNode();
  if ("byName" in loc) {
    charge(ctx.m, loc.fields.length);
    ctx.added += loc.fields.length;
    if (ctx.added > ctx.limit) throw tooManyPaths("the difference", ctx.maxPaths);
    out.children = new Map();
    for (const fp of loc.fields) out.children.set(fp.name, LEAF);
  } else {
    ctx.added++;
    out.any = LEAF;
  }
  return out;
}

/**
 * Tells whether a mask selects a path: the path itself, a path above it, or a wildcard at its position is in
 * the mask (`a` covers `a.b.c`; `labels.*` covers `labels.env`; `*` covers everything).
 *
 * @throws {WktJsonError} rule `mask-path` for a path that does not parse; `json-type` if `mask` is not a
 *   FieldMask or an array of strings, or `path` is not a string; `size` as {@link fieldMaskNormalize}; each at
 *   `$` or at `options.maskPath`.
 * @example
 * fieldMaskCovers(["config", "events"], "config.secret"); //=> true
 * fieldMaskCovers(["config.url"], "config"); //=> false
 * fieldMaskCovers(["*"], "config"); //=> true
 */
export function fieldMaskCovers(mask: FieldMaskLike, path: string, options?: MaskPathOption): boolean {
  return atMaskPath(maskPathOf(options), () => {
    if (typeof path !== "string") {
      throw new WktJsonError("json-type", "$", fieldMaskTypeName, `path: expected a string, got ${describe(path)}`);
    }
    const m = workMeter(fieldMaskTypeName, path.length);
    return coversPath(parseMask(mask, true, undefined, m), parsePath(path, true), m);
  });
}

/**
 * The mask of every field of `schema`: each top-level field by its proto name, in declaration order.
 *
 * @throws never: the schema defines the paths.
 * @example
 * fieldMaskForAllFields(DurationSchema).paths; //=> ["seconds", "nanos"]
 */
export function fieldMaskForAllFields(schema: DescMessage): FieldMask {
  return makeMask(planOf(schema).fields.map((fp) => fp.name));
}

/**
 * The mask of the top-level fields of `schema` with the given field numbers, in the order given, without
 * duplicates (Java's `FieldMaskUtil.fromFieldNumbers`).
 *
 * @throws {WktJsonError} rule `mask-path` for a number that is not a field of `schema`.
 * @example
 * fieldMaskFromFieldNumbers(DurationSchema, [2, 1]).paths; //=> ["nanos", "seconds"]
 */
export function fieldMaskFromFieldNumbers(schema: DescMessage, numbers: readonly number[]): FieldMask {
  const plan = planOf(schema);
  if (!Array.isArray(numbers)) {
    throw new WktJsonError(
      "json-type",
      "$",
      fieldMaskTypeName,
      `numbers: expected an array of field numbers, got ${describe(numbers)}`,
    );
  }
  const seen = new Set<number>();
  const paths: string[] = [];
  for (const n of numbers) {
    const fp = plan.byNumber.get(n);
    if (fp === undefined) {
      throw new WktJsonError(
        "mask-path",
        "$",
        fieldMaskTypeName,
        `field number ${typeof n === "number" ? String(n) : describe(n)} is not a field of ${schema.typeName}`,
      );
    }
    if (!seen.has(n)) {
      seen.add(n);
      paths.push(fp.name);
    }
  }
  return makeMask(paths);
}

/**
 * The update mask that turns message `a` into message `b`: the paths of the fields whose values differ, going
 * down into a singular message field set in both (so only its changed sub-fields are listed) and naming any
 * other field whole (a repeated or map field, a oneof member, a field set in one message only). Paths are in
 * schema order. `fieldMaskMerge(schema, a, b, fieldMaskFromDiff(schema, a, b), { replaceMessageFields: true,
 * replaceRepeatedFields: true })` equals `b`. Unknown fields and extensions are not fields of the schema and
 * are not compared. NaN equals NaN and -0 differs from 0, as in the binary encoding.
 *
 * @throws {WktJsonError} rule `json-type` if `a` or `b` is not a message of `schema`; `depth` if messages nest
 *   deeper than the codec's limit (a cycle in a hand-built message).
 * @example
 * fieldMaskFromDiff(TestAllTypesProto3Schema, create(TestAllTypesProto3Schema, { optionalInt32: 1 }),
 *   create(TestAllTypesProto3Schema, { optionalInt32: 2, optionalNestedMessage: { a: 3 } })).paths;
 * //=> ["optional_int32", "optional_nested_message"]
 */
export function fieldMaskFromDiff<Desc extends DescMessage>(
  schema: Desc,
  a: MessageShape<Desc>,
  b: MessageShape<Desc>,
): FieldMask {
  checkMessage(schema, a, "a");
  checkMessage(schema, b, "b");
  const out: string[] = [];
  diff(planOf(schema), a as unknown as Msg, b as unknown as Msg, "", out, defaultMaxDepth);
  return makeMask(out);
}

function diff(plan: MessagePlan, a: Msg, b: Msg, prefix: string, out: string[], depthLeft: number): void {
  if (depthLeft <= 0) throw depthError(plan.desc);
  for (const fp of plan.fields) {
    const sa = fieldIsSet(fp, a);
    const sb = fieldIsSet(fp, b);
    if (!sa && !sb) continue;
    const va = fieldGet(fp, a);
    const vb = fieldGet(fp, b);
    if (sa && sb && fp.kind === "message" && fp.box === 0) {
      diff(planOf(fp.message!), asMsg(va, fp), asMsg(vb, fp), prefix + fp.name + ".", out, depthLeft - 1);
    } else if (sa !== sb || !fieldValueEquals(fp, va, vb, depthLeft)) {
      out.push(prefix + fp.name);
    }
  }
}
