/**
 * The one FieldMask path parser, and the path trie every FieldMask function works on.
 *
 * field_mask.proto: "paths: "f.a" paths: "f.b.d" — Here `f` represents a field in some root message, `a` and
 * `b` fields in the message found in `f`, and `d` a field found in the message in `f.b`." Rule 7 (wkt.md): "A
 * repeated field is allowed only at the last position of a path."
 *
 * AIP-161 extends the syntax, and this parser reads it:
 *
 * ```
 * path    = segment *("." segment)
 * segment = ident | integer | "*" | quoted
 * ident   = (ALPHA / "_") *(ALPHA / DIGIT / "_")      a field name, or a map key / property name
 * integer = ["-"] 1*DIGIT                            an integer map key; never a list index
 * quoted  = "`" *(any character but "`" / "``") "`"   any other key; "``" stands for one backtick
 * ```
 *
 * "Field masks must not permit accessing a particular element of a repeated field by index" (AIP-161): the
 * parser accepts an integer segment (it may be an integer map key), and the schema or the data rejects it where
 * it meets a list. `*` stands for every entry of a map or element of a list ("authors.*.given_name"), and the
 * lone path `*` for everything (AIP-134, AIP-157). Backtick escaping follows LUCI's mask package: "``" inside
 * backticks is one backtick. A quoted key that is itself an identifier or an integer means the same as the
 * bare one (`` `env` `` is `env`), so every path has one canonical text: bare where the syntax allows, quoted
 * otherwise.
 *
 * Strict proto mode (rule 7, the message functions' default) allows identifiers only, plus the lone `*`.
 *
 * A mask becomes a trie of segments. Tries are immutable once built: operations make new nodes and may share
 * subtrees.
 *
 * @internal
 * @module
 */
import type { FieldMask } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { describe } from "./describe.js";
import { defaultMaxDepth } from "../limits.js";

export const fieldMaskType = "google.protobuf.FieldMask";

/** The wildcard segment `*` (a quoted `` `*` `` is the literal key "*", a string). */
export const WILD: unique symbol = Symbol("*");

/** One parsed segment: a field name or key (decoded), or the wildcard. */
export type Segment = string | typeof WILD;

/** A FieldMask message or its list of paths. */
export type FieldMaskLike = FieldMask | readonly string[];

/** Most segments in one path: as deep as the codec nests messages. */
export const maxSegments = defaultMaxDepth;

/** Reads the paths of a FieldMask or array argument; `json-type` if it is neither or a path is not a string. */
export function maskPaths(mask: unknown, what = "mask"): readonly string[] {
  const paths: unknown = Array.isArray(mask)
    ? mask
    : typeof mask === "object" && mask !== null
      ? (mask as { paths?: unknown }).paths
      : undefined;
  if (!Array.isArray(paths)) {
    throw new WktJsonError(
      "json-type",
      "$",
      fieldMaskType,
      `${what}: expected a FieldMask or an array of paths, got ${describe(mask)}`,
    );
  }
  for (let k = 0; k < paths.length; k++) {
    if (typeof paths[k] !== "string") {
      throw new WktJsonError(
        "json-type",
        "$",
        fieldMaskType,
        `${what}: path ${k} is ${describe(paths[k])}, not a string`,
      );
    }
  }
  return paths as readonly string[];
}

interface Memo {
  readonly copy: readonly string[];
  readonly scope: unknown;
  readonly flavor: string;
  readonly value: unknown;
}

/** The last preparation of each paths array, so that a mask kept in a constant is parsed once. */
const memos = new WeakMap<readonly string[], Memo>();

/**
 * Prepares a mask (parse, check, build the trie) once per paths array: the result is kept beside a copy of
 * the paths and reused while the array still holds the same strings (it may have been changed in between) and
 * `scope` and `flavor` (what the preparation depends on: a schema, options) are the same.
 */
export function memoMask<T>(
  mask: unknown,
  scope: unknown,
  flavor: string,
  prepare: (paths: readonly string[]) => T,
): T {
  const paths = maskPaths(mask);
  const m = memos.get(paths);
  if (m !== undefined && m.scope === scope && m.flavor === flavor && m.copy.length === paths.length) {
    let k = 0;
    while (k < paths.length && m.copy[k] === paths[k]) k++;
    if (k === paths.length) return m.value as T;
  }
  const value = prepare(paths);
  memos.set(paths, { copy: paths.slice(), scope, flavor, value });
  return value;
}

/** Makes a FieldMask message; `paths` is owned by the result. */
export function makeMask(paths: string[]): FieldMask {
  return { $typeName: fieldMaskType, paths };
}

/** A `mask-path` error for `path`: `path "a.b": segment "b" <what>`. */
export function maskPathError(path: string, segment: Segment | undefined, what: string): WktJsonError {
  const seg = segment === undefined ? "" : `segment ${segment === WILD ? '"*"' : JSON.stringify(segment)} `;
  return new WktJsonError("mask-path", "$", fieldMaskType, `path ${JSON.stringify(path)}: ${seg}${what}`);
}

// ---------------------------------------------------------------------------------------------------------
// Scanning
// ---------------------------------------------------------------------------------------------------------

function isIdentStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

function isIdentPart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || (c >= 48 && c <= 57);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** 1 for an identifier, 2 for an integer, 0 for neither; over `s[from, to)`. */
function bareKind(s: string, from: number, to: number): 0 | 1 | 2 {
  if (from >= to) return 0;
  const c0 = s.charCodeAt(from);
  if (isIdentStart(c0)) {
    for (let i = from + 1; i < to; i++) if (!isIdentPart(s.charCodeAt(i))) return 0;
    return 1;
  }
  let i = from;
  if (c0 === 45) i++; // "-"
  if (i >= to) return 0;
  for (; i < to; i++) if (!isDigit(s.charCodeAt(i))) return 0;
  return 2;
}

/** Whether `s` is a proto identifier. */
export function isIdent(s: string): boolean {
  return bareKind(s, 0, s.length) === 1;
}

/** Whether `s` is an integer segment (`-?[0-9]+`). */
export function isIntegerText(s: string): boolean {
  return bareKind(s, 0, s.length) === 2;
}

/**
 * Whether `p` is a valid path made of identifier and integer segments only (no backticks, no `*`): then its
 * text is already canonical and a plain string sort orders it as the trie would. Allocates nothing.
 */
export function isSimplePath(p: string): boolean {
  const n = p.length;
  if (n === 0) return false;
  let segs = 1;
  let i = 0;
  for (;;) {
    let c = p.charCodeAt(i);
    const kind = c < 128 ? charClass[c]! : 0;
    if (kind === identStart) {
      for (i++; i < n; i++) {
        c = p.charCodeAt(i);
        if (c === 46) break;
        if (c >= 128 || charClass[c] === 0) return false;
      }
    } else {
      if (c === 45) i++; // "-"
      const digits = i;
      for (; i < n; i++) {
        c = p.charCodeAt(i);
        if (c === 46) break;
        if (c >= 128 || charClass[c] !== digit) return false;
      }
      if (i === digits) return false;
    }
    if (i === n) return true;
    if (++i === n || ++segs > maxSegments) return false; // a trailing "." or too many segments
  }
}

const digit = 1;
const identStart = 2;
/** ASCII character classes: 1 for a digit, 2 for a letter or "_" (a digit is also an identifier part). */
const charClass = (() => {
  const t = new Uint8Array(128);
  for (let c = 48; c <= 57; c++) t[c] = digit;
  for (let c = 65; c <= 90; c++) t[c] = identStart;
  for (let c = 97; c <= 122; c++) t[c] = identStart;
  t[95] = identStart;
  return t;
})();

/**
 * Parses one path into segments.
 *
 * `aip161` false (strict proto, rule 7): identifiers only, or the lone `*`. True: the whole grammar above.
 */
export function parsePath(p: string, aip161: boolean): Segment[] {
  const n = p.length;
  if (n === 0) throw maskPathError(p, undefined, "is empty");
  if (n === 1 && p.charCodeAt(0) === 42) return [WILD];
  const segs: Segment[] = [];
  let i = 0;
  for (;;) {
    if (segs.length >= maxSegments) {
      throw maskPathError(p, undefined, `has more than ${maxSegments} segments`);
    }
    const c = i < n ? p.charCodeAt(i) : -1;
    if (c === 96) {
      // "`": a quoted key, "``" inside stands for one backtick.
      let text = "";
      let from = i + 1;
      let j = from;
      for (;;) {
        if (j >= n) throw maskPathError(p, p.slice(i), "has no closing backtick");
        if (p.charCodeAt(j) === 96) {
          if (j + 1 < n && p.charCodeAt(j + 1) === 96) {
            text += p.slice(from, j + 1);
            j += 2;
            from = j;
            continue;
          }
          break;
        }
        j++;
      }
      text += p.slice(from, j);
      if (!aip161)
        throw maskPathError(p, text, "is quoted; map keys in paths need the AIP-161 syntax ({ aip161: true })");
      segs.push(text);
      i = j + 1;
      if (i < n && p.charCodeAt(i) !== 46) {
        throw maskPathError(p, text, "is followed by a character other than '.' after its closing backtick");
      }
    } else {
      let j = i;
      while (j < n && p.charCodeAt(j) !== 46) j++;
      if (j === i) throw maskPathError(p, undefined, "has an empty segment");
      if (j === i + 1 && c === 42) {
        if (!aip161)
          throw maskPathError(p, WILD, "is a wildcard; `*` inside a path needs the AIP-161 syntax ({ aip161: true })");
        segs.push(WILD);
      } else {
        const kind = bareKind(p, i, j);
        const text = p.slice(i, j);
        if (kind === 0) {
          let k = i;
          while (k < j && isIdentPart(p.charCodeAt(k))) k++;
          if (k === j) throw maskPathError(p, text, "starts with a digit; quote a key like this with backticks");
          const bad = String.fromCodePoint(p.codePointAt(k)!);
          throw maskPathError(
            p,
            text,
            `holds the character ${JSON.stringify(bad)}; quote a key like this with backticks`,
          );
        }
        if (kind === 2 && !aip161) {
          throw maskPathError(
            p,
            text,
            "is a number: a list index is never allowed, and map keys in paths need the AIP-161 syntax ({ aip161: true })",
          );
        }
        segs.push(text);
      }
      i = j;
    }
    if (i >= n) return segs;
    i++; // "."
    if (i >= n) throw maskPathError(p, undefined, "ends with '.'");
  }
}

/** The canonical text of one segment: bare where the grammar allows, else quoted. */
export function formatSegment(s: Segment): string {
  if (s === WILD) return "*";
  if (bareKind(s, 0, s.length) !== 0) return s;
  let out = "`";
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    if (s.charCodeAt(i) === 96) {
      out += s.slice(from, i + 1) + "`";
      from = i + 1;
    }
  }
  return out + s.slice(from) + "`";
}

/** The canonical text of a path. */
export function formatPath(segs: readonly Segment[]): string {
  let out = "";
  for (let i = 0; i < segs.length; i++) out += (i > 0 ? "." : "") + formatSegment(segs[i]!);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The trie
// ---------------------------------------------------------------------------------------------------------

/**
 * A set of paths below one point. `leaf`: the whole value at this point is selected (children are then
 * absent). `children`: named sub-paths, in insertion order. `any`: what `*` selects under every entry or
 * element; what a named key selects is its own subtree and `any`'s together (see {@link stepAll}).
 */
export interface Node {
  leaf: boolean;
  children: Map<string, Node> | undefined;
  any: Node | undefined;
}

export const LEAF: Node = Object.freeze({ leaf: true, children: undefined, any: undefined }) as Node;

export function emptyNode(): Node {
  return { leaf: false, children: undefined, any: undefined };
}

export function isEmptyNode(n: Node): boolean {
  return !n.leaf && n.any === undefined && (n.children === undefined || n.children.size === 0);
}

/** Adds one parsed path to a trie under construction (nodes reachable from `root` must be unshared). */
export function insertPath(root: Node, segs: readonly Segment[]): void {
  let node = root;
  for (let i = 0; i < segs.length; i++) {
    if (node.leaf) return;
    const s = segs[i]!;
    let next: Node | undefined;
    if (s === WILD) {
      next = node.any;
      if (next === undefined) node.any = next = emptyNode();
    } else {
      if (node.children === undefined) node.children = new Map();
      next = node.children.get(s);
      if (next === undefined) node.children.set(s, (next = emptyNode()));
    }
    if (next.leaf) return;
    node = next;
  }
  node.leaf = true;
  node.children = undefined;
  node.any = undefined;
}

/** The trie of parsed paths (normalized: covered paths pruned). */
export function trieOf(paths: readonly (readonly Segment[])[]): Node {
  const root = emptyNode();
  for (const segs of paths) insertPath(root, segs);
  return normalize(root);
}

/** Parses every path of `mask` and builds its trie. */
export function parseMask(mask: unknown, aip161: boolean, what?: string): Node {
  const paths = maskPaths(mask, what);
  const root = emptyNode();
  for (const p of paths) insertPath(root, parsePath(p, aip161));
  return normalize(root);
}

// ---------------------------------------------------------------------------------------------------------
// The algebra
//
// A path is a pattern: `*` matches any one key. A concrete path (keys only) is selected by a mask when a
// pattern of the mask matches a prefix of it. Keys are unbounded, so a pattern p is selected by a set of
// patterns exactly when one pattern q of the set covers it alone: shorter or as long, with `*` or p's own
// segment at each of its positions (test p with fresh keys at its `*` positions: only such a q matches that).
// Every operation below rests on that: coverage is decided pattern against pattern, and the normal form of a
// mask is the set of its patterns that no other pattern covers, which is unique for what the mask selects.
//
// The trie stores patterns literally, `*` as the `any` child. Walking one trie against another, the nodes of
// the other that generalize the current prefix form a set (a named segment is matched by the same name and by
// `*`), never a union built as a new trie: building unions is what made these operations exponential in the
// number of wildcards. The work is the number of (node, generalizing node) pairs met: linear when the
// wildcards of a mask do not overlap, at most the product of the tries' sizes at each depth when they do.
// ---------------------------------------------------------------------------------------------------------

/** The nodes under `seg` of every node in `sel`: the named child and the `*` child (only `*` for `*`). */
export function stepAll(sel: readonly Node[], seg: Segment): Node[] {
  const out: Node[] = [];
  for (let i = 0; i < sel.length; i++) {
    const u = sel[i]!;
    if (seg !== WILD) {
      const c = u.children?.get(seg);
      if (c !== undefined) out.push(c);
    }
    if (u.any !== undefined) out.push(u.any);
  }
  return out;
}

/** Whether one node of the set is a leaf: the set selects everything below. */
export function anyLeaf(sel: readonly Node[]): boolean {
  for (let i = 0; i < sel.length; i++) if (sel[i]!.leaf) return true;
  return false;
}

/**
 * The normal form of a trie: every pattern that another covers is dropped, and so is every node left with
 * nothing below it. A new trie; `node` is not changed.
 */
export function normalize(node: Node): Node {
  return normalBelow(node, []) ?? emptyNode();
}

/**
 * `v` in normal form, given `others`: the nodes at `v`'s depth, other than `v`, whose prefixes generalize
 * `v`'s (none of them a leaf). Undefined when nothing is left.
 */
function normalBelow(v: Node, others: readonly Node[]): Node | undefined {
  if (v.leaf) return LEAF;
  let children: Map<string, Node> | undefined;
  let same = true; // every child came back as it was: `v` is normal already and is returned itself
  if (v.children !== undefined) {
    for (const [k, c] of v.children) {
      let o: readonly Node[] = none;
      if (others.length > 0 || v.any !== undefined) {
        const step = stepAll(others, k);
        if (v.any !== undefined) step.push(v.any);
        if (anyLeaf(step)) {
          same = false;
          continue;
        }
        o = step;
      }
      const r = normalBelow(c, o);
      if (r !== c) same = false;
      if (r !== undefined) (children ??= new Map()).set(k, r);
    }
  }
  let any: Node | undefined;
  if (v.any !== undefined) {
    const o = others.length === 0 ? none : stepAll(others, WILD);
    if (!anyLeaf(o)) any = normalBelow(v.any, o);
    if (any !== v.any) same = false;
  }
  if (same && (children !== undefined || any !== undefined)) return v;
  if (children === undefined && any === undefined) return undefined;
  return { leaf: false, children, any };
}

const none: readonly Node[] = Object.freeze([]);

/**
 * The trie holding the patterns of both, as they are (not normalized); subtrees are shared. `left`, when
 * given, is charged one step per node where the two meet.
 */
export function merge(a: Node, b: Node, left?: { steps: number }): Node {
  if (a === b || a.leaf || isEmptyNode(b)) return a;
  if (b.leaf || isEmptyNode(a)) return b;
  if (left !== undefined) spend(left, 1 + (a.children?.size ?? 0) + (b.children?.size ?? 0));
  let children: Map<string, Node> | undefined;
  if (a.children !== undefined || b.children !== undefined) {
    children = new Map(a.children);
    if (b.children !== undefined) {
      for (const [k, bc] of b.children) {
        const ac = children.get(k);
        children.set(k, ac === undefined ? bc : merge(ac, bc, left));
      }
    }
  }
  const any = a.any === undefined ? b.any : b.any === undefined ? a.any : merge(a.any, b.any, left);
  return { leaf: false, children, any };
}

/** Merges already made by {@link mergeCached}: the first node's map from the second node to the result. */
const merged = new WeakMap<Node, WeakMap<Node, Node>>();

/** {@link merge} of two nodes of tries that are no longer changed, made once per pair and then reused. */
export function mergeCached(a: Node, b: Node): Node {
  let m = merged.get(a);
  if (m === undefined) merged.set(a, (m = new WeakMap()));
  let r = m.get(b);
  if (r === undefined) m.set(b, (r = merge(a, b)));
  return r;
}

/**
 * What a trie selects under the named key `key`: its own child and `*`'s together (a merge, made once per
 * node and key), or undefined if neither exists.
 */
export function childOf(node: Node, key: string): Node | undefined {
  const c = node.children?.get(key);
  if (node.any === undefined) return c;
  if (c === undefined) return node.any;
  return mergeCached(c, node.any);
}

/** A ∪ B, normalized. */
export function union(a: Node, b: Node): Node {
  return normalize(merge(a, b));
}

/** Whether A selects everything B selects. */
export function covers(a: Node, b: Node): boolean {
  return coveredBy([a], b);
}

/** Whether every pattern below `b` is covered by a pattern below the set `sel` (nodes at `b`'s depth). */
function coveredBy(sel: readonly Node[], b: Node): boolean {
  if (anyLeaf(sel)) return true;
  if (b.leaf) return false;
  if (b.children !== undefined) for (const [k, c] of b.children) if (!coveredBy(stepAll(sel, k), c)) return false;
  return b.any === undefined || coveredBy(stepAll(sel, WILD), b.any);
}

/** Whether the trie selects the parsed path. */
export function coversPath(node: Node, segs: readonly Segment[]): boolean {
  let sel: readonly Node[] = [node];
  for (let i = 0; ; i++) {
    if (anyLeaf(sel)) return true;
    if (i >= segs.length || sel.length === 0) return false;
    sel = stepAll(sel, segs[i]!);
  }
}

/** Whether some concrete path is selected by both tries. */
export function overlaps(a: Node, b: Node): boolean {
  if (isEmptyNode(a) || isEmptyNode(b)) return false;
  if (a.leaf || b.leaf) return true;
  if (a.children !== undefined) {
    for (const [k, ac] of a.children) {
      const bc = b.children?.get(k);
      if (bc !== undefined && overlaps(ac, bc)) return true;
      if (b.any !== undefined && overlaps(ac, b.any)) return true;
    }
  }
  if (a.any !== undefined) {
    if (b.children !== undefined) for (const bc of b.children.values()) if (overlaps(a.any, bc)) return true;
    if (b.any !== undefined && overlaps(a.any, b.any)) return true;
  }
  return false;
}

/** Thrown by {@link intersect} when its work or its result outgrows the budget it was given. */
export class BudgetExceeded extends Error {}

/**
 * A ∩ B, normalized. A concrete path is selected by both exactly when it matches the meet of a pattern of
 * each (position by position the more specific segment, as long as the longer), so the result is the
 * normalized set of those meets. The walk goes by prefix of the result, carrying the (A node, B node) pairs
 * whose meets share it; `budget` bounds the pairs and nodes it may touch (BudgetExceeded beyond).
 */
export function intersect(a: Node, b: Node, budget = Infinity): Node {
  const left = { steps: budget };
  return normalize(meetOf([a], [b], left) ?? emptyNode());
}

function spend(left: { steps: number }, n: number): void {
  if ((left.steps -= n) < 0) throw new BudgetExceeded();
}

/** The trie of the meets of the pairs (as[i], bs[i]), not normalized, or undefined if empty. */
function meetOf(as: readonly Node[], bs: readonly Node[], left: { steps: number }): Node | undefined {
  if (as.length === 1) return meetOne(as[0]!, bs[0]!, left);
  spend(left, as.length);
  let whole: Node | undefined; // subtrees selected whole below this prefix, merged
  const named = new Map<string, [Node[], Node[]]>();
  const anyA: Node[] = [];
  const anyB: Node[] = [];
  const pair = (k: string, x: Node, y: Node): void => {
    let p = named.get(k);
    if (p === undefined) named.set(k, (p = [[], []]));
    p[0].push(x);
    p[1].push(y);
  };
  for (let i = 0; i < as.length; i++) {
    const x = as[i]!;
    const y = bs[i]!;
    if (x.leaf || y.leaf) {
      const w = x.leaf ? y : x;
      if (w.leaf) return LEAF;
      whole = whole === undefined ? w : merge(whole, w, left);
      continue;
    }
    if (x.children !== undefined) {
      spend(left, x.children.size);
      for (const [k, xc] of x.children) {
        const yc = y.children?.get(k);
        if (yc !== undefined) pair(k, xc, yc);
        if (y.any !== undefined) pair(k, xc, y.any);
      }
    }
    if (x.any !== undefined) {
      if (y.children !== undefined) {
        spend(left, y.children.size);
        for (const [k, yc] of y.children) pair(k, x.any, yc);
      }
      if (y.any !== undefined) {
        anyA.push(x.any);
        anyB.push(y.any);
      }
    }
  }
  let children: Map<string, Node> | undefined;
  for (const [k, [xs, ys]] of named) {
    const r = meetOf(xs, ys, left);
    if (r !== undefined) (children ??= new Map()).set(k, r);
  }
  const any = anyA.length === 0 ? undefined : meetOf(anyA, anyB, left);
  const own: Node | undefined =
    children === undefined && any === undefined ? undefined : { leaf: false, children, any };
  if (own === undefined) return whole;
  return whole === undefined ? own : merge(whole, own, left);
}

/** {@link meetOf} of one pair, the usual case, without the lists of pairs by key. */
function meetOne(x: Node, y: Node, left: { steps: number }): Node | undefined {
  if (x.leaf) return isEmptyNode(y) ? undefined : y;
  if (y.leaf) return isEmptyNode(x) ? undefined : x;
  spend(left, 1 + (x.children?.size ?? 0) + (x.any !== undefined ? (y.children?.size ?? 0) : 0));
  let children: Map<string, Node> | undefined;
  const add = (k: string, xc: Node | undefined, yc: Node | undefined): void => {
    // The pairs under key k: (xc, yc), (xc, y.any), (x.any, yc).
    const xs: Node[] = [];
    const ys: Node[] = [];
    if (xc !== undefined) {
      if (yc !== undefined) (xs.push(xc), ys.push(yc));
      if (y.any !== undefined) (xs.push(xc), ys.push(y.any));
    }
    if (x.any !== undefined && yc !== undefined) (xs.push(x.any), ys.push(yc));
    if (xs.length === 0) return;
    const r = meetOf(xs, ys, left);
    if (r !== undefined) (children ??= new Map()).set(k, r);
  };
  if (x.children !== undefined) for (const [k, xc] of x.children) add(k, xc, y.children?.get(k));
  if (x.any !== undefined && y.children !== undefined) {
    for (const [k, yc] of y.children) if (x.children?.has(k) !== true) add(k, undefined, yc);
  }
  const any = x.any !== undefined && y.any !== undefined ? meetOne(x.any, y.any, left) : undefined;
  return children === undefined && any === undefined ? undefined : { leaf: false, children, any };
}

/** The number of paths of a trie (its leaves), counted up to `limit + 1`. */
export function countPaths(node: Node, limit = Infinity): number {
  let n = 0;
  const stack: Node[] = [node];
  while (stack.length > 0 && n <= limit) {
    const v = stack.pop()!;
    if (v.leaf) {
      n++;
      continue;
    }
    if (v.children !== undefined) for (const c of v.children.values()) stack.push(c);
    if (v.any !== undefined) stack.push(v.any);
  }
  return n;
}

/** The canonical paths of a trie, sorted. */
export function pathsOf(node: Node): string[] {
  const out: string[] = [];
  // Each node's segments sorted, walked in order: the paths come out sorted as whole strings would be, since a
  // formatted segment that is a prefix of another is followed there by a character above "." (identifier
  // characters, digits, or a backtick), so "a" before "a0" is "a.x" before "a0.x". Sorting short segments per
  // node, natively, instead of all the paths with a comparator: the last step was n log n over long strings.
  const walk = (n: Node, prefix: string): void => {
    if (n.leaf) {
      out.push(prefix);
      return;
    }
    const dot = prefix === "" ? "" : prefix + ".";
    const named: string[] = [];
    const byText = new Map<string, Node>();
    if (n.children !== undefined) {
      for (const [k, c] of n.children) {
        const text = formatSegment(k);
        named.push(text);
        byText.set(text, c);
      }
    }
    if (n.any !== undefined) {
      named.push("*");
      byText.set("*", n.any);
    }
    if (named.length > 1) named.sort();
    for (const text of named) walk(byText.get(text)!, dot + text);
  };
  if (!isEmptyNode(node)) walk(node, "");
  return out;
}

/** Whether the trie is exactly the lone path `*`. */
export function isStar(node: Node): boolean {
  return !node.leaf && node.children === undefined && node.any !== undefined && node.any.leaf;
}

/** Whether a wildcard appears anywhere below (and including) `node`; used to reject `*` in update masks. */
export function hasWildcard(node: Node): boolean {
  if (node.any !== undefined) return true;
  if (node.children !== undefined) for (const c of node.children.values()) if (hasWildcard(c)) return true;
  return false;
}
