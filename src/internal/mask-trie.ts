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
 * Every walk here charges the caller's work meter (meter.ts): a node visited, a (node, generalizing node) pair
 * compared, a path written. Pairs can be as many as the product of the sizes of the tries at a depth (deciding
 * whether any of m patterns of `a` and `*` generalizes any of n paths is as hard as orthogonal vectors, so no
 * walk avoids that in general); past the input's allowance the call stops with rule `size`. Tries that share
 * subtrees (an intersection's result) are normalized and counted once per shared node, not once per path to it.
 *
 * Coverage, overlap and intersection are in mask-algebra.ts.
 *
 * @internal
 * @module
 */
import { formatSegment, maskPaths, parsePath, WILD, type Segment } from "./mask-path.js";
import { charge, earn, unmetered, workMeter, type WorkMeter } from "./meter.js";
import { fieldMaskTypeName } from "./names.js";

/** The meter of the internal callers that pass none: trusted tries (a schema's, a test's). */
const trusted: WorkMeter = unmetered(fieldMaskTypeName);

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

/**
 * Adds one parsed path to a trie under construction (nodes reachable from `root` must be unshared), charging
 * `m` one step per segment.
 */
export function insertPath(root: Node, segs: readonly Segment[], m: WorkMeter = trusted): void {
  charge(m, segs.length);
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

/**
 * The trie of parsed paths (normalized: covered paths pruned), charged to `m`. A caller that read the paths'
 * text has earned it on `m` already; without `m`, the call gets a meter of its own that earns the code units
 * of the segments.
 *
 * @example
 * const m = workMeter(fieldMaskTypeName, text.length); // or a meter the caller is already charging
 * const trie = trieOf(checkedPaths(schema, paths, aip161, undefined, m), m);
 */
export function trieOf(paths: readonly (readonly Segment[])[], m?: WorkMeter): Node {
  if (m === undefined) {
    m = workMeter(fieldMaskTypeName);
    for (const segs of paths) for (const s of segs) earn(m, s === WILD ? 2 : s.length + 1);
  }
  const root = emptyNode();
  for (const segs of paths) insertPath(root, segs, m);
  return normalize(root, m);
}

/**
 * Parses every path of `mask` and builds its trie. The text of the paths is earned on `m` as it is read, and the
 * work charged to it; without `m`, the call gets a meter of its own (rule `size` when a mask takes more work
 * than its size allows).
 *
 * @example
 * const m = workMeter(fieldMaskTypeName); // one per call of the public function
 * const trie = parseMask(mask, true, "mask", m); // earns the paths' code units, charges building and normalizing
 * charge(m, n); // the caller's own walk over the data goes on charging the same meter
 */
export function parseMask(mask: unknown, aip161: boolean, what?: string, m?: WorkMeter): Node {
  const paths = maskPaths(mask, what);
  m ??= workMeter(fieldMaskTypeName);
  const root = emptyNode();
  for (let k = 0; k < paths.length; k++) {
    const p = paths[k]!;
    earn(m, p.length);
    insertPath(root, parsePath(p, aip161), m);
  }
  return normalize(root, m);
}

/**
 * The nodes under `seg` of every node in `sel`: the named child and the `*` child (only `*` for `*`). Charges
 * `m` one step per node of `sel`.
 */
export function stepAll(sel: readonly Node[], seg: Segment, m: WorkMeter = trusted): Node[] {
  charge(m, sel.length);
  return stepFree(sel, seg);
}

/** Whether one node of the set is a leaf: the set selects everything below. */
export function anyLeaf(sel: readonly Node[]): boolean {
  for (let i = 0; i < sel.length; i++) if (sel[i]!.leaf) return true;
  return false;
}

/**
 * The normal form of a trie: every pattern that another covers is dropped, and so is every node left with
 * nothing below it. A new trie; `node` is not changed. Charges `m` one step per node and one per (node,
 * generalizing node) pair met. `shared`: the trie may share subtrees (an intersection's result); each shared
 * node is then normalized once per set of nodes that generalize it, not once per path that reaches it.
 */
export function normalize(node: Node, m: WorkMeter = trusted, shared = false): Node {
  const cx: Norm = { m, stack: [], byNode: undefined, bySet: undefined, ids: undefined };
  if (shared) {
    cx.byNode = new Map();
    cx.bySet = new Map();
    cx.ids = new Map();
  }
  return normalBelow(node, 0, 0, cx) ?? emptyNode();
}

/** The state of one {@link normalize}: its meter and, for tries that share subtrees, what it made already. */
interface Norm {
  readonly m: WorkMeter;
  /**
   * The sets of generalizing nodes of the walk, each a range of this stack: a call's children write theirs
   * after its own and overwrite them child after child, so that the walk allocates no array per node.
   */
  readonly stack: Node[];
  /** The normal form of a node with no generalizing nodes (null: nothing left). */
  byNode: Map<Node, Node | null> | undefined;
  /** The normal form of a node given a set of generalizing nodes, by the nodes' ids. */
  bySet: Map<string, Node | null> | undefined;
  ids: Map<Node, number> | undefined;
}

/**
 * `v` in normal form, given the nodes `cx.stack[from, to)`: the nodes at `v`'s depth, other than `v`'s own
 * prefix, whose prefixes generalize `v`'s (none of them a leaf). Undefined when nothing is left.
 */
function normalBelow(v: Node, from: number, to: number, cx: Norm): Node | undefined {
  if (v.leaf) return LEAF;
  const st = cx.stack;
  let key: Node | string = v;
  if (cx.byNode !== undefined) {
    // A trie that shares subtrees: each node normalized once for each set of generalizing nodes it meets.
    let r: Node | null | undefined;
    if (from === to) {
      r = cx.byNode.get(v);
    } else {
      to = distinct(st, from, to, cx.m);
      key = idsOf(v, st, from, to, cx.ids!);
      r = cx.bySet!.get(key);
    }
    if (r !== undefined) return r ?? undefined;
  }
  const n = v.children === undefined ? 0 : v.children.size;
  charge(cx.m, 1 + n + (n + 1) * (to - from));
  const vAny = v.any;
  let children: Map<string, Node> | undefined;
  let same = true; // every child came back as it was: `v` is normal already and is returned itself
  if (v.children !== undefined) {
    for (const [k, c] of v.children) {
      // The nodes that generalize `c`: the children under k and `*` of v's, and v's own `*`.
      let end = to;
      let covered = false;
      for (let i = from; i < to && !covered; i++) {
        const u = st[i]!;
        const uc = u.children?.get(k);
        if (uc !== undefined) {
          if (uc.leaf) covered = true;
          else st[end++] = uc;
        }
        if (u.any !== undefined) {
          if (u.any.leaf) covered = true;
          else st[end++] = u.any;
        }
      }
      if (vAny !== undefined) {
        if (vAny.leaf) covered = true;
        else st[end++] = vAny;
      }
      if (covered) {
        same = false;
        continue;
      }
      const r = normalBelow(c, to, end, cx);
      if (r !== c) same = false;
      if (r !== undefined) (children ??= new Map()).set(k, r);
    }
  }
  let any: Node | undefined;
  if (vAny !== undefined) {
    let end = to;
    let covered = false;
    for (let i = from; i < to && !covered; i++) {
      const u = st[i]!.any;
      if (u !== undefined) {
        if (u.leaf) covered = true;
        else st[end++] = u;
      }
    }
    if (!covered) any = normalBelow(vAny, to, end, cx);
    if (any !== vAny) same = false;
  }
  let out: Node | undefined;
  if (same && (children !== undefined || any !== undefined)) out = v;
  else if (children !== undefined || any !== undefined) out = { leaf: false, children, any };
  if (cx.byNode !== undefined) {
    if (typeof key === "string") cx.bySet!.set(key, out ?? null);
    else cx.byNode.set(v, out ?? null);
  }
  return out;
}

/**
 * Drops repeated nodes from `st[from, to)` (a trie that shares subtrees reaches a node by several paths) and
 * returns the new end of the range.
 */
function distinct(st: Node[], from: number, to: number, m: WorkMeter): number {
  if (to - from < 2) return to;
  charge(m, to - from);
  const seen = new Set<Node>();
  let end = from;
  for (let i = from; i < to; i++) {
    const u = st[i]!;
    if (!seen.has(u)) {
      seen.add(u);
      st[end++] = u;
    }
  }
  return end;
}

/** A key for `v` and the set `st[from, to)`, from ids given to nodes in the order first met. */
function idsOf(v: Node, st: readonly Node[], from: number, to: number, ids: Map<Node, number>): string {
  const id = (u: Node): number => {
    let k = ids.get(u);
    if (k === undefined) ids.set(u, (k = ids.size));
    return k;
  };
  let key = String(id(v)) + ":";
  for (let i = from; i < to; i++) key += (i === from ? "" : ",") + id(st[i]!);
  return key;
}

/** {@link stepAll} without the charge, for walks that charged the pairs already. */
function stepFree(sel: readonly Node[], seg: Segment): Node[] {
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

/**
 * The trie holding the patterns of both, as they are (not normalized); subtrees are shared. Charges `m` one step
 * per node where the two meet and per child there.
 */
export function merge(a: Node, b: Node, m: WorkMeter = trusted): Node {
  if (a === b || a.leaf || isEmptyNode(b)) return a;
  if (b.leaf || isEmptyNode(a)) return b;
  charge(m, 1 + (a.children?.size ?? 0) + (b.children?.size ?? 0));
  let children: Map<string, Node> | undefined;
  if (a.children !== undefined || b.children !== undefined) {
    children = new Map(a.children);
    if (b.children !== undefined) {
      for (const [k, bc] of b.children) {
        const ac = children.get(k);
        children.set(k, ac === undefined ? bc : merge(ac, bc, m));
      }
    }
  }
  const any = a.any === undefined ? b.any : b.any === undefined ? a.any : merge(a.any, b.any, m);
  return { leaf: false, children, any };
}

/**
 * The trie holding the patterns of all of `nodes` (not normalized; subtrees shared), or undefined for none. One
 * pass over the nodes where two or more meet, however many there are (merging them two by two would copy the
 * growing map of children each time); charges `m` one step per node and child met.
 *
 * @example
 * const all = mergeAll([...node.children.values()], m); // what any named key of `node` selects, at once
 */
export function mergeAll(nodes: readonly Node[], m: WorkMeter = trusted): Node | undefined {
  if (nodes.length < 2) return nodes[0];
  charge(m, nodes.length);
  if (anyLeaf(nodes)) return LEAF;
  let byKey: Map<string, Node[]> | undefined;
  const anys: Node[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const u = nodes[i]!;
    if (u.children !== undefined) {
      charge(m, u.children.size);
      byKey ??= new Map();
      for (const [k, c] of u.children) {
        const g = byKey.get(k);
        if (g === undefined) byKey.set(k, [c]);
        else g.push(c);
      }
    }
    if (u.any !== undefined) anys.push(u.any);
  }
  let children: Map<string, Node> | undefined;
  if (byKey !== undefined) {
    children = new Map();
    for (const [k, g] of byKey) children.set(k, mergeAll(g, m)!);
  }
  return { leaf: false, children, any: mergeAll(anys, m) };
}

/**
 * The number of paths of a trie (its leaves), counted up to `limit + 1`: a result above `limit` means more than
 * `limit`. Each node is counted once, however many paths reach it (a trie that shares subtrees may have far more
 * paths than nodes); charges `m` one step per node and child.
 */
export function countPaths(node: Node, limit = Infinity, m: WorkMeter = trusted): number {
  const cap = limit + 1;
  const memo = new Map<Node, number>();
  const count = (v: Node): number => {
    if (v.leaf) return 1;
    let n = memo.get(v);
    if (n !== undefined) return n;
    charge(m, 1 + (v.children?.size ?? 0));
    n = 0;
    if (v.children !== undefined) for (const c of v.children.values()) if ((n += count(c)) >= cap) break;
    if (v.any !== undefined && n < cap) n += count(v.any);
    n = Math.min(n, cap);
    memo.set(v, n);
    return n;
  };
  return count(node);
}

/**
 * The canonical paths of a trie, sorted. Charges `m` one step per node and child visited and one per code unit
 * of the paths written (a trie that shares subtrees spells them out once per path).
 */
export function pathsOf(node: Node, m: WorkMeter = trusted): string[] {
  const out: string[] = [];
  // Each node's segments sorted, walked in order: the paths come out sorted as whole strings would be, since a
  // formatted segment that is a prefix of another is followed there by a character above "." (identifier
  // characters, digits, or a backtick), so "a" before "a0" is "a.x" before "a0.x". Sorting short segments per
  // node, natively, instead of all the paths with a comparator: the last step was n log n over long strings.
  const walk = (n: Node, prefix: string): void => {
    if (n.leaf) {
      charge(m, 1 + prefix.length);
      out.push(prefix);
      return;
    }
    const dot = prefix === "" ? "" : prefix + ".";
    const size = n.children === undefined ? 0 : n.children.size;
    charge(m, 1 + size);
    // One way on (most nodes of a long path): no sorting, nothing allocated but the path.
    if (size === 0) {
      if (n.any !== undefined) walk(n.any, dot + "*");
      return;
    }
    if (size === 1 && n.any === undefined) {
      for (const [k, c] of n.children!) walk(c, dot + formatSegment(k));
      return;
    }
    const named: string[] = [];
    const byText = new Map<string, Node>();
    for (const [k, c] of n.children!) {
      const text = formatSegment(k);
      named.push(text);
      byText.set(text, c);
    }
    if (n.any !== undefined) {
      named.push("*");
      byText.set("*", n.any);
    }
    named.sort();
    for (const text of named) walk(byText.get(text)!, dot + text);
  };
  if (!isEmptyNode(node)) walk(node, "");
  return out;
}

/** Whether the trie is exactly the lone path `*`. */
export function isStar(node: Node): boolean {
  return !node.leaf && node.children === undefined && node.any !== undefined && node.any.leaf;
}
