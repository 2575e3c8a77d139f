/**
 * Coverage, overlap and intersection of FieldMask tries (see mask-trie.ts for the trie, its normal form and why
 * a walk goes over sets of generalizing nodes). Every walk charges the caller's work meter (meter.ts).
 *
 * @internal
 * @module
 */
import type { Segment } from "./mask-path.js";
import { anyLeaf, emptyNode, isEmptyNode, LEAF, mergeAll, normalize, stepAll, type Node } from "./mask-trie.js";
import { charge, unmetered, type WorkMeter } from "./meter.js";
import { fieldMaskTypeName } from "./names.js";

const trusted: WorkMeter = unmetered(fieldMaskTypeName);

/** Whether the trie selects the parsed path; charges `m` one step per (segment, generalizing node) pair. */
export function coversPath(node: Node, segs: readonly Segment[], m: WorkMeter = trusted): boolean {
  let sel: readonly Node[] = [node];
  for (let i = 0; ; i++) {
    if (anyLeaf(sel)) return true;
    if (i >= segs.length || sel.length === 0) return false;
    sel = stepAll(sel, segs[i]!, m);
  }
}

/**
 * Whether some concrete path is selected by both tries. Named children are matched by looking up the keys of
 * the node with fewer in the other; `*` meets every named child of the other side. Charges `m` one step per
 * pair of nodes compared.
 */
export function overlaps(a: Node, b: Node, m: WorkMeter = trusted): boolean {
  if (isEmptyNode(a) || isEmptyNode(b)) return false;
  if (a.leaf || b.leaf) return true;
  const ac = a.children;
  const bc = b.children;
  if (ac !== undefined && bc !== undefined) {
    const [small, large] = ac.size <= bc.size ? [ac, bc] : [bc, ac];
    charge(m, 1 + small.size);
    for (const [k, sc] of small) {
      const lc = large.get(k);
      if (lc !== undefined && overlaps(sc, lc, m)) return true;
    }
  }
  if (b.any !== undefined && ac !== undefined) {
    charge(m, ac.size);
    for (const c of ac.values()) if (overlaps(c, b.any, m)) return true;
  }
  if (a.any !== undefined && bc !== undefined) {
    charge(m, bc.size);
    for (const c of bc.values()) if (overlaps(a.any, c, m)) return true;
  }
  return a.any !== undefined && b.any !== undefined && overlaps(a.any, b.any, m);
}

/**
 * A ∩ B, normalized. A concrete path is selected by both exactly when it matches the meet of a pattern of
 * each (position by position the more specific segment, as long as the longer), so the result is the
 * normalized set of those meets. The walk goes by prefix of the result, carrying the (A node, B node) pairs
 * whose meets share it; it charges `m` for the pairs and nodes it touches, and for normalizing the result (which
 * shares subtrees of A and B: one subtree of B may stand under every key of A).
 */
export function intersect(a: Node, b: Node, m: WorkMeter = trusted): Node {
  return normalize(meetOf([a], [b], m) ?? emptyNode(), m, true);
}

/** The trie of the meets of the pairs (as[i], bs[i]), not normalized, or undefined if empty. */
function meetOf(as: readonly Node[], bs: readonly Node[], m: WorkMeter): Node | undefined {
  if (as.length === 1) return meetOne(as[0]!, bs[0]!, m);
  charge(m, as.length);
  const wholes: Node[] = []; // subtrees selected whole below this prefix
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
      wholes.push(w);
      continue;
    }
    if (x.children !== undefined) {
      charge(m, x.children.size);
      for (const [k, xc] of x.children) {
        const yc = y.children?.get(k);
        if (yc !== undefined) pair(k, xc, yc);
        if (y.any !== undefined) pair(k, xc, y.any);
      }
    }
    if (x.any !== undefined) {
      if (y.children !== undefined) {
        charge(m, y.children.size);
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
    const r = meetOf(xs, ys, m);
    if (r !== undefined) (children ??= new Map()).set(k, r);
  }
  const any = anyA.length === 0 ? undefined : meetOf(anyA, anyB, m);
  if (children !== undefined || any !== undefined) wholes.push({ leaf: false, children, any });
  return mergeAll(wholes, m);
}

/** {@link meetOf} of one pair, the usual case, without the lists of pairs by key. */
function meetOne(x: Node, y: Node, m: WorkMeter): Node | undefined {
  if (x.leaf) return isEmptyNode(y) ? undefined : y;
  if (y.leaf) return isEmptyNode(x) ? undefined : x;
  charge(m, 1 + (x.children?.size ?? 0) + (x.any !== undefined ? (y.children?.size ?? 0) : 0));
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
    const r = meetOf(xs, ys, m);
    if (r !== undefined) (children ??= new Map()).set(k, r);
  };
  if (x.children !== undefined) for (const [k, xc] of x.children) add(k, xc, y.children?.get(k));
  if (x.any !== undefined && y.children !== undefined) {
    for (const [k, yc] of y.children) if (x.children?.has(k) !== true) add(k, undefined, yc);
  }
  const any = x.any !== undefined && y.any !== undefined ? meetOne(x.any, y.any, m) : undefined;
  return children === undefined && any === undefined ? undefined : { leaf: false, children, any };
}
