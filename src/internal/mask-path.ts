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
import { describe } from "../int64.js";
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
      throw new WktJsonError("json-type", "$", fieldMaskType, `${what}: path ${k} is ${describe(paths[k])}, not a string`);
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
export function memoMask<T>(mask: unknown, scope: unknown, flavor: string, prepare: (paths: readonly string[]) => T): T {
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
      if (!aip161) throw maskPathError(p, text, "is quoted; map keys in paths need the AIP-161 syntax ({ aip161: true })");
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
        if (!aip161) throw maskPathError(p, WILD, "is a wildcard; `*` inside a path needs the AIP-161 syntax ({ aip161: true })");
        segs.push(WILD);
      } else {
        const kind = bareKind(p, i, j);
        const text = p.slice(i, j);
        if (kind === 0) {
          let k = i;
          while (k < j && isIdentPart(p.charCodeAt(k))) k++;
          if (k === j) throw maskPathError(p, text, "starts with a digit; quote a key like this with backticks");
          const bad = String.fromCodePoint(p.codePointAt(k)!);
          throw maskPathError(p, text, `holds the character ${JSON.stringify(bad)}; quote a key like this with backticks`);
        }
        if (kind === 2 && !aip161) {
          throw maskPathError(p, text, "is a number: a list index is never allowed, and map keys in paths need the AIP-161 syntax ({ aip161: true })");
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
 * element; a named child's effective selection is its own subtree united with `any` ({@link childOf}).
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
  return prune(root);
}

/** Parses every path of `mask` and builds its trie. */
export function parseMask(mask: unknown, aip161: boolean, what?: string): Node {
  const paths = maskPaths(mask, what);
  const root = emptyNode();
  for (const p of paths) insertPath(root, parsePath(p, aip161));
  return prune(root);
}

/** Normalizes a freshly built trie bottom-up (its nodes are unshared, so they are reused). */
function prune(node: Node): Node {
  if (node.leaf) return LEAF;
  if (node.any !== undefined) node.any = prune(node.any);
  if (node.children !== undefined) for (const [k, c] of node.children) node.children.set(k, prune(c));
  return settleNode(node);
}

/**
 * Normalizes one level whose subtrees are already normal: a named child loses what `any` already selects
 * (the whole child if `any` covers it). Never mutates `node`'s subtrees; may replace `node.children`.
 */
export function settleNode(node: Node): Node {
  if (node.children !== undefined && node.children.size === 0) node.children = undefined;
  if (node.any === undefined || node.children === undefined) return node;
  const children = new Map<string, Node>();
  for (const [k, c] of node.children) {
    const r = without(c, node.any);
    if (!isEmptyNode(r)) children.set(k, r);
  }
  node.children = children.size === 0 ? undefined : children;
  return node;
}

/** `c` less what `a` covers, as far as a trie can say it without a schema (a leaf stays whole). */
function without(c: Node, a: Node): Node {
  if (covers(a, c)) return emptyNode();
  if (c.leaf || a.leaf) return c;
  const out = emptyNode();
  if (c.children !== undefined) {
    for (const [k, cc] of c.children) {
      const ac = childOf(a, k);
      const r = ac === undefined ? cc : without(cc, ac);
      if (!isEmptyNode(r)) (out.children ??= new Map()).set(k, r);
    }
  }
  if (c.any !== undefined) {
    const r = a.any === undefined ? c.any : without(c.any, a.any);
    if (!isEmptyNode(r)) out.any = r;
  }
  return settleNode(out);
}

/** The selection under the named child `key`: its own subtree united with `any`. */
export function childOf(node: Node, key: string): Node | undefined {
  const c = node.children?.get(key);
  if (node.any === undefined) return c;
  if (c === undefined) return node.any;
  return union(c, node.any);
}

/** A ∪ B, as a new trie (subtrees shared). */
export function union(a: Node, b: Node): Node {
  if (a.leaf || isEmptyNode(b)) return a;
  if (b.leaf || isEmptyNode(a)) return b;
  let children: Map<string, Node> | undefined;
  if (a.children !== undefined || b.children !== undefined) {
    children = new Map(a.children);
    if (b.children !== undefined) {
      for (const [k, bc] of b.children) {
        const ac = children.get(k);
        children.set(k, ac === undefined ? bc : union(ac, bc));
      }
    }
  }
  const any = a.any === undefined ? b.any : b.any === undefined ? a.any : union(a.any, b.any);
  return settleNode({ leaf: false, children, any });
}

/** Whether A selects everything B selects. */
export function covers(a: Node, b: Node): boolean {
  if (a.leaf) return true;
  if (b.leaf) return false;
  if (b.any !== undefined && (a.any === undefined || !covers(a.any, b.any))) return false;
  if (b.children !== undefined) {
    for (const [k, bc] of b.children) {
      const ac = childOf(a, k);
      if (ac === undefined || !covers(ac, bc)) return false;
    }
  }
  return true;
}

/** A ∩ B, or an empty node. */
export function intersect(a: Node, b: Node): Node {
  if (a.leaf) return b;
  if (b.leaf) return a;
  const out = emptyNode();
  const keys = new Set<string>();
  if (a.children !== undefined) for (const k of a.children.keys()) keys.add(k);
  if (b.children !== undefined) for (const k of b.children.keys()) keys.add(k);
  for (const k of keys) {
    const ac = childOf(a, k);
    const bc = childOf(b, k);
    if (ac === undefined || bc === undefined) continue;
    const c = intersect(ac, bc);
    if (!isEmptyNode(c)) (out.children ??= new Map()).set(k, c);
  }
  if (a.any !== undefined && b.any !== undefined) {
    const c = intersect(a.any, b.any);
    if (!isEmptyNode(c)) out.any = c;
  }
  return settleNode(out);
}

/** Whether the trie selects the parsed path. */
export function coversPath(node: Node, segs: readonly Segment[], at = 0): boolean {
  if (node.leaf) return true;
  if (at >= segs.length) return false;
  const s = segs[at]!;
  if (s === WILD) return node.any !== undefined && coversPath(node.any, segs, at + 1);
  const c = node.children?.get(s);
  if (c !== undefined && coversPath(c, segs, at + 1)) return true;
  return node.any !== undefined && coversPath(node.any, segs, at + 1);
}

/** The canonical paths of a trie, sorted. */
export function pathsOf(node: Node): string[] {
  const out: string[] = [];
  const walk = (n: Node, prefix: string): void => {
    if (n.leaf) {
      out.push(prefix);
      return;
    }
    const dot = prefix === "" ? "" : prefix + ".";
    if (n.children !== undefined) for (const [k, c] of n.children) walk(c, dot + formatSegment(k));
    if (n.any !== undefined) walk(n.any, dot + "*");
  };
  if (!isEmptyNode(node)) walk(node, "");
  return out.sort(compareStrings);
}

export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
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
