/**
 * FieldMask projection and omission on plain JSON resources (rule 7 on JSON): what `jsonProject`, `jsonOmit`
 * and their `...Each` forms keep, and the reading of a mask against JSON objects that `jsonMerge` and
 * `fieldMaskFromPatch` share (the `names` and `maxDepth` options, which property a segment names).
 *
 * A segment is a property name; `*` is every element of an array or property of an object. A named segment
 * applied to an array is an error (AIP-161 forbids addressing an element by position). With `names: "json"` a
 * segment `date_created` reads the property `dateCreated` (protoc's lowerCamel JSON name) and falls back to the
 * literal name when the object lacks the JSON name. Only own properties are read; `__proto__` is written as an
 * own property.
 *
 * The walks carry the set of mask nodes that apply at each point of the data (mask-select.ts), never a merged
 * trie, and keep nothing once the call returns. Each call has one work meter (meter.ts): it earns the mask's text
 * and what the walk reads (keys, copied values), and is charged per (data node, mask node) pair; masks whose
 * wildcards overlap over wide data are refused with rule `size`.
 *
 * @module
 */
import { protoCamelCase } from "@bufbuild/protobuf/reflect";
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { maxDepthError } from "../internal/depth-error.js";
import { setOwn } from "../internal/json-value.js";
import { atMaskPath, maskErrorAt, maskPathOf, type MaskPathOption } from "../internal/mask-base.js";
import { memoMask } from "../internal/mask-memo.js";
import { formatPath, maskPathError, WILD, type FieldMaskLike, type Segment } from "../internal/mask-path.js";
import { LEAF, parseMask, type Node } from "../internal/mask-trie.js";
import {
  distinct,
  hasAny,
  namedNode,
  namedSteps,
  namesIn,
  only,
  selectsAll,
  stepAny,
  stepKey,
  type Selection,
} from "../internal/mask-select.js";
import { charge, earn, workMeter, type WorkMeter } from "../internal/meter.js";
import { structTypeName } from "../internal/names.js";
import { countOption } from "../internal/options.js";
import { defaultMaxDepth } from "../limits.js";
import { atIndex } from "./field-mask-project.js";
import { copyJson, isJsonObject, type JsonRecord } from "./json-copy.js";

const hasOwn = Object.prototype.hasOwnProperty;

/** Options of the JSON functions: {@link jsonProject}, {@link jsonOmit} and their `...Each` forms. */
export interface JsonProjectOptions extends MaskPathOption {
  /**
   * How a path segment finds a property: `"literal"` (default) by its exact name; `"json"` through the
   * lowerCamel JSON name of a proto field name (`date_created` reads `dateCreated`), falling back to the literal
   * name when the object lacks the JSON name.
   */
  names?: "literal" | "json";
  /**
   * Most levels of nesting (objects and arrays) copied, the resource included: a whole number from 1 up (finite,
   * as the copy recurses). Default 100.
   */
  maxDepth?: number;
}

/** Options of {@link jsonOmit} and {@link jsonOmitEach}. */
export type JsonOmitOptions = JsonProjectOptions;

/** What a projection returns when it keeps nothing. */
const ABSENT: unique symbol = Symbol("absent");
type Kept = unknown | typeof ABSENT;

/** The options of a JSON function, read, and where its walk stands. @internal */
export interface JsonCtx {
  json: boolean;
  maxDepth: number;
  /** The segments from the root to the value being visited, for error messages. */
  at: Segment[];
  /** The call's work meter: earned from the mask's text and the data read, charged by every walk. */
  m: WorkMeter;
  /** Where the mask sits in the caller's request (`maskPath`): every mask error is at it. */
  maskPath: string;
}

/** Checks and reads the options shared by the JSON functions (`names`, `maxDepth`). @internal */
export function jsonCtx(options: JsonProjectOptions | undefined): JsonCtx {
  const names = options?.names;
  if (names !== undefined && names !== "literal" && names !== "json") {
    throw new WktJsonError(
      "range",
      "$",
      structTypeName,
      `names must be "literal" or "json", got ${typeof names === "string" ? JSON.stringify(names) : describe(names)}`,
    );
  }
  const maxDepth = countOption("maxDepth", options?.maxDepth, defaultMaxDepth);
  const maskPath = maskPathOf(options);
  return { json: names === "json", maxDepth, at: [], m: workMeter(structTypeName), maskPath };
}

/** `v` as the plain JSON object a JSON function works on, or a `json-type` error naming the argument. @internal */
export function rootObject(v: unknown, what: string): JsonRecord {
  if (!isJsonObject(v))
    throw new WktJsonError(
      "json-type",
      "$",
      structTypeName,
      `${what}: expected a plain JSON object, got ${describe(v)}`,
    );
  return v;
}

/** The property a segment names in these objects (see `names`). */
export function keyFor(name: string, ctx: JsonCtx, a: JsonRecord | undefined, b?: JsonRecord): string {
  if (!ctx.json) return name;
  const camel = protoCamelCase(name);
  if (camel === name) return name;
  if ((a !== undefined && hasOwn.call(a, camel)) || (b !== undefined && hasOwn.call(b, camel))) return camel;
  if ((a !== undefined && hasOwn.call(a, name)) || (b !== undefined && hasOwn.call(b, name))) return name;
  return camel;
}

/**
 * The selection under each own key of `obj` that the set selects something under, in `obj`'s key order. The
 * work is the smaller of the set's names and the object's keys, plus the keys times the set's nodes when one of
 * them has `*` or names are JSON names: never the names once per object, which made a mask of many names over
 * many small objects quadratic. Keys read earn their code units.
 */
function selected(obj: JsonRecord, sel: Selection, ctx: JsonCtx): [string, Selection][] {
  const out: [string, Selection][] = [];
  const m = ctx.m;
  earn(m, 2); // the object's braces: what the lookups of a few names cost is paid by the objects looked in
  if (ctx.json || hasAny(sel)) {
    for (const key of Object.keys(obj)) {
      earn(m, key.length + 3);
      const s = ctx.json ? stepJsonKey(obj, sel, key, m) : stepKey(sel, key, m);
      if (s.length > 0) out.push([key, s]);
    }
    return out;
  }
  const names = namesIn(sel);
  if (names === 0) return out;
  if (names > 8) {
    // Many names: walk the keys instead when the object has no more of them than the set has names.
    let keys = 0;
    for (const key in obj) {
      if (!hasOwn.call(obj, key)) continue;
      earn(m, key.length + 3); // read: the lookups below are fewer than the keys counted
      if (++keys > names) break;
    }
    charge(m, keys);
    if (keys <= names) {
      for (const key in obj) {
        if (!hasOwn.call(obj, key)) continue;
        const s = stepKey(sel, key, m);
        if (s.length > 0) out.push([key, s]);
      }
      return out;
    }
  }
  // Look each name up, then walk the object's keys (without allocating them) only as far as the last
  // selected one, to keep the object's order.
  if (sel.length === 1) {
    const children = sel[0]!.children!;
    charge(m, children.size);
    let found = 0;
    let first: string | undefined;
    for (const name of children.keys()) {
      if (hasOwn.call(obj, name)) {
        found++;
        first ??= name;
      }
    }
    if (found <= 1) {
      if (first !== undefined) {
        earn(m, first.length + 3);
        out.push([first, only(children.get(first)!)]);
      }
      return out;
    }
    for (const key in obj) {
      charge(m, 1);
      const c = children.get(key);
      if (c !== undefined && hasOwn.call(obj, key)) {
        earn(m, key.length + 3);
        out.push([key, only(c)]);
        if (out.length === found) break;
      }
    }
    return out;
  }
  const found = namedSteps(sel, m);
  for (const name of found.keys()) if (!hasOwn.call(obj, name)) found.delete(name);
  for (const key in obj) {
    if (out.length === found.size) break;
    charge(m, 1);
    const s = found.get(key);
    if (s !== undefined && hasOwn.call(obj, key)) {
      earn(m, key.length + 3);
      out.push([key, s]);
    }
  }
  return out;
}

/**
 * The set under the key `key` of `obj` with JSON names (see {@link keyFor}): each node's names whose JSON name
 * is `key`, its name `key` itself when the object lacks `key`'s JSON name, and its `*`.
 */
function stepJsonKey(obj: JsonRecord, sel: Selection, key: string, m: WorkMeter): Selection {
  charge(m, sel.length);
  let literal: boolean | undefined; // whether a name `key` reads this property: computed once, if needed
  const out: Node[] = [];
  for (const u of sel) {
    if (u.children !== undefined) {
      const byCamel = camelNames(u, m);
      const c = byCamel.get(key);
      if (c !== undefined) for (const n of c) out.push(n);
      const l = u.children.get(key);
      if (l !== undefined) {
        if (literal === undefined) {
          charge(m, key.length);
          const camel = protoCamelCase(key);
          literal = camel !== key && !hasOwn.call(obj, camel);
        }
        if (literal) out.push(l);
      }
    }
    if (u.any !== undefined) out.push(u.any);
  }
  return out.length === 1 ? only(out[0]!) : distinct(out);
}

/**
 * Each JSON name (protoc's lowerCamel) of a node's names, with the nodes of the names of that JSON name: made
 * once per node of the mask (kept while the mask is), charged to the call that makes it.
 */
const camelMemo = new WeakMap<Node, Map<string, Node[]>>();

function camelNames(node: Node, m: WorkMeter): Map<string, Node[]> {
  let map = camelMemo.get(node);
  if (map !== undefined) return map;
  map = new Map();
  for (const [name, child] of node.children!) {
    charge(m, 1 + name.length);
    const camel = protoCamelCase(name);
    const prev = map.get(camel);
    if (prev === undefined) map.set(camel, [child]);
    else prev.push(child);
  }
  camelMemo.set(node, map);
  return map;
}

/** The error for a named segment applied to an array (AIP-161: no element by position). @internal */
export function arrayByName(ctx: JsonCtx, node: Node): WktJsonError {
  const name = node.children!.keys().next().value!;
  const at = formatPath(ctx.at);
  const e = maskPathError(
    formatPath([...ctx.at, name]),
    name,
    `is applied to an array (the value at "${at}"): a mask cannot address an element by position (AIP-161); use "${at}.*" and the name after it`,
  );
  return maskErrorAt(e, ctx.maskPath) as WktJsonError;
}

/** The `depth` error for JSON nested beyond `maxDepth`. @internal */
export function jsonDepthError(ctx: JsonCtx): WktJsonError {
  return maxDepthError(structTypeName, ctx.maxDepth);
}

/** {@link copyJson} with its depth error worded for the JSON functions (naming `maxDepth`). @internal */
export function copyJ(v: unknown, depthLeft: number, ctx: JsonCtx): unknown {
  try {
    return copyJson(v, depthLeft, structTypeName, ctx.m);
  } catch (e) {
    if (e instanceof WktJsonError && e.rule === "depth") throw jsonDepthError(ctx);
    throw e;
  }
}

function projectJson(v: unknown, sel: Selection, depthLeft: number, ctx: JsonCtx): Kept {
  if (selectsAll(sel)) return copyJ(v, depthLeft, ctx);
  if (typeof v !== "object" || v === null) return ABSENT;
  if (depthLeft <= 0) throw jsonDepthError(ctx);
  if (Array.isArray(v)) {
    const named = namedNode(sel);
    if (named !== undefined) throw arrayByName(ctx, named);
    const each = stepAny(sel, ctx.m);
    if (each.length === 0) return ABSENT;
    earn(ctx.m, 1 + v.length);
    const out: unknown[] = new Array(v.length);
    let kept = false;
    ctx.at.push(WILD);
    for (let i = 0; i < v.length; i++) {
      charge(ctx.m, each.length);
      const r = projectJson(v[i], each, depthLeft - 1, ctx);
      if (r !== ABSENT) kept = true;
      out[i] = r;
    }
    ctx.at.pop();
    if (!kept) return ABSENT;
    for (let i = 0; i < out.length; i++) if (out[i] === ABSENT) out[i] = isJsonObject(v[i]) ? {} : null;
    return out;
  }
  if (!isJsonObject(v)) return ABSENT;
  let out: JsonRecord | undefined;
  for (const [key, child] of selected(v, sel, ctx)) {
    ctx.at.push(key);
    const r = projectJson(v[key], child, depthLeft - 1, ctx);
    ctx.at.pop();
    if (r === ABSENT) continue;
    out ??= {};
    setOwn(out, key, r);
  }
  return out ?? ABSENT;
}

function omitJson(v: unknown, sel: Selection, depthLeft: number, ctx: JsonCtx): Kept {
  if (selectsAll(sel)) return ABSENT;
  if (typeof v !== "object" || v === null) return copyJ(v, depthLeft, ctx);
  if (depthLeft <= 0) throw jsonDepthError(ctx);
  if (Array.isArray(v)) {
    const named = namedNode(sel);
    if (named !== undefined) throw arrayByName(ctx, named);
    const each = stepAny(sel, ctx.m);
    if (selectsAll(each)) return [];
    if (each.length === 0) return copyJ(v, depthLeft, ctx);
    earn(ctx.m, 1 + v.length);
    const out: unknown[] = new Array(v.length);
    ctx.at.push(WILD);
    for (let i = 0; i < v.length; i++) {
      charge(ctx.m, each.length);
      out[i] = omitJson(v[i], each, depthLeft - 1, ctx);
    }
    ctx.at.pop();
    return out;
  }
  if (!isJsonObject(v)) return v;
  const sel2 = selected(v, sel, ctx);
  const out: JsonRecord = {};
  let s = 0;
  for (const key of Object.keys(v)) {
    if (s < sel2.length && sel2[s]![0] === key) {
      const child = sel2[s++]![1];
      ctx.at.push(key);
      const r = omitJson(v[key], child, depthLeft - 1, ctx);
      ctx.at.pop();
      if (r !== ABSENT) setOwn(out, key, r);
    } else {
      earn(ctx.m, key.length + 3);
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
 * copies the whole object (AIP-157); the empty mask keeps nothing, `{}` (see {@link fieldMaskProject}).
 *
 * @throws {WktJsonError} rule `mask-path` for a path that does not parse, or a named segment applied to an
 *   array, and `json-type` if `mask` is not a FieldMask or array of strings: at `$` or at `options.maskPath`.
 *   `json-type` if `object` is not a plain object; `depth` beyond `maxDepth`; `range` for a bad option.
 * @example
 * jsonProject({ id: 1, config: { url: "u", secret: "s" }, events: ["push"] }, ["config.url", "events"]);
 * //=> { config: { url: "u" }, events: ["push"] }
 * jsonProject({ id: 1 }, ["*"]); //=> { id: 1 }
 * jsonProject({ id: 1 }, ["id.x`"], { maskPath: "$.fields" }); // throws WktJsonError (rule "mask-path", jsonPath "$.fields")
 */
export function jsonProject<T extends object>(
  object: T,
  mask?: FieldMaskLike,
  options?: JsonProjectOptions,
): Partial<T> {
  const ctx = jsonCtx(options);
  const root = rootObject(object, "object");
  const trie = mask === undefined ? LEAF : jsonTrie(mask, ctx);
  return projectJsonRoot(root, trie, ctx) as Partial<T>;
}

/** The trie of a read mask for the JSON functions (AIP-161 syntax); the call earns the mask's text. */
function jsonTrie(mask: FieldMaskLike, ctx: JsonCtx): Node {
  return atMaskPath(ctx.maskPath, () => memoMask(mask, undefined, "json", (paths) => parseMask(paths, true), ctx.m));
}

function projectJsonRoot(root: JsonRecord, trie: Node, ctx: JsonCtx): JsonRecord {
  const r = projectJson(root, [trie], ctx.maxDepth, ctx);
  return r === ABSENT ? {} : (r as JsonRecord);
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
  const trie = mask === undefined ? LEAF : jsonTrie(mask, ctx);
  return eachObject(list, (obj) => projectJsonRoot(obj, trie, ctx)) as Partial<T>[];
}

/**
 * Removes the masked properties from a plain JSON resource: the complement of {@link jsonProject}, as a
 * migration's `exclude` list asks. `owner` removes the property, `owner.avatar_url` only that member,
 * `repositories.*.owner` the owner of every repository. A new object; the input is not changed.
 *
 * `*` removes everything; the empty mask removes nothing.
 *
 * @throws {WktJsonError} rule `mask-path` for a path that does not parse, or a named segment applied to an
 *   array, and `json-type` if `mask` is not a FieldMask or array of strings: at `$` or at `options.maskPath`.
 *   `json-type` if `object` is not a plain object; `depth` beyond `maxDepth`; `range` for a bad option.
 * @example
 * jsonOmit({ id: 1, owner: { login: "o" }, url: "u" }, ["owner"]); //=> { id: 1, url: "u" }
 */
export function jsonOmit<T extends object>(object: T, mask: FieldMaskLike, options?: JsonOmitOptions): Partial<T> {
  const ctx = jsonCtx(options);
  const root = rootObject(object, "object");
  const trie = jsonTrie(mask, ctx);
  return omitJsonRoot(root, trie, ctx) as Partial<T>;
}

function omitJsonRoot(root: JsonRecord, trie: Node, ctx: JsonCtx): JsonRecord {
  const r = omitJson(root, [trie], ctx.maxDepth, ctx);
  return r === ABSENT ? {} : (r as JsonRecord);
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
  const trie = jsonTrie(mask, ctx);
  return eachObject(list, (obj) => omitJsonRoot(obj, trie, ctx)) as Partial<T>[];
}

function eachObject(list: unknown, fn: (obj: JsonRecord) => JsonRecord): JsonRecord[] {
  if (!Array.isArray(list))
    throw new WktJsonError("json-type", "$", structTypeName, `list: expected an array, got ${describe(list)}`);
  const out: JsonRecord[] = new Array(list.length);
  for (let i = 0; i < list.length; i++) {
    try {
      out[i] = fn(rootObject(list[i], "element"));
    } catch (e) {
      throw atIndex(e, i);
    }
  }
  return out;
}
