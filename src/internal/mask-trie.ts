/**
 * The trie of a FieldMask's paths, which every FieldMask function works on, and its normal form.
 *
 * A mask becomes a trie of segments (parsed by mask-path.ts). Tries are immutable once built: operations make
 * new nodes and may share subtrees.
 *
 * A path is a pattern: `*` matches any one key. A concrete path (keys only) is selected by a mask when a
 * pattern of the mask matches a prefix of it. Keys are unbounded, so a pattern p is selected by a set of
 * patterns exactly when one pattern q of the set covers it alone: shorter or as long, with `*` or p's own
 * segment at each of its positions (test p with fresh keys at its `*` positions: only such a q matches that).
 * Every operation on tries rests on that: coverage is decided pattern against pattern, and the normal form of a
 * mask is the set of its patterns that no other pattern covers, which is unique for what the mask selects.
 *
 * The trie stores patterns literally, `*` as the `any` child. Walking one trie against another, the nodes of
 * the other that generalize the current prefix form a set (a named segment is matched by the same name and by
 * `*`), never a union built as a new trie: building unions is what made these operations exponential in the
 * number of wildcards. The work is the number of (node, generalizing node) pairs met: linear when the
 * wildcards of a mask do not overlap, at most the product of the tries' sizes at each depth when they do.
 *
 * Coverage, overlap and intersection are in mask-algebra.ts.
 *
 * @internal
 * @module
 */
import { formatSegment, maskPaths, parsePath, WILD, type Segment } from "./mask-path.js";

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

/** The node that selects everything at its point; shared and frozen. */
export const LEAF: Node = Object.freeze({ leaf: true, children: undefined, any: undefined }) as Node;

/** A new node that selects nothing (yet). */
export function emptyNode(): Node {
  return { leaf: false, children: undefined, any: undefined };
}

/** Whether the node selects nothing. */
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

/** Thrown by `intersect` (and {@link merge} under it) when the work or the result outgrows the budget given. */
export class BudgetExceeded extends Error {}

/** Charges `n` steps to the budget `left`; BudgetExceeded when it is spent. */
export function spend(left: { steps: number }, n: number): void {
  if ((left.steps -= n) < 0) throw new BudgetExceeded();
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
