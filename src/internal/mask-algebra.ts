/**
 * Coverage, overlap and intersection of FieldMask tries (see mask-trie.ts for the trie, its normal form and why
 * a walk goes over sets of generalizing nodes).
 *
 * @internal
 * @module
 */
import type { Segment } from "./mask-path.js";
import { anyLeaf, emptyNode, isEmptyNode, LEAF, merge, normalize, spend, stepAll, type Node } from "./mask-trie.js";

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
