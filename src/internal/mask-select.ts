/**
 * Selections: the set of mask trie nodes that apply at one point of the data, for the walks that apply a mask to
 * data (projection, omission, the checks of PATCH).
 *
 * Under a named key a mask selects what its named child selects and what its `*` child selects, together. The
 * walks used to build that union as a new trie (a merge, cached per pair of nodes): the `*` subtree was copied
 * under every named key the data held, and the copies were kept while the mask lived, so that a mask with many
 * names beside a wide `*` cost the product of the two in time and memory. A selection keeps the nodes as a set
 * instead, never merged: a step from a set under a key is the named child and the `*` child of each of its nodes
 * (mask-trie.ts's `stepAll`, here without duplicates and charged to the call's work meter). A value is selected
 * whole when one node of its set is a leaf.
 *
 * The work of a walk is the number of (data node, mask node) pairs it meets, charged one step each: linear when
 * the wildcards of the mask do not overlap, at most the product of data and mask when they do, and then refused
 * by the meter (rule `size`) past what the input's size allows. Nothing is kept after the call.
 *
 * @internal
 * @module
 */
import { charge, type WorkMeter } from "./meter.js";
import type { Node } from "./mask-trie.js";

/** The nodes of a mask that apply at one point of the data; never empty where a walk goes on. */
export type Selection = readonly Node[];

/** The set of no node. */
export const NOTHING: Selection = [];

/**
 * The sets of one node, made once per node and kept while the mask is (O(mask)): most steps of most masks give
 * one node, and a walk then allocates nothing per value.
 */
const singles = new WeakMap<Node, Selection>();

/** The set of the one node `n`. */
export function only(n: Node): Selection {
  let s = singles.get(n);
  if (s === undefined) singles.set(n, (s = [n]));
  return s;
}

/** The sets of more nodes than this find duplicates with a `Set`; smaller ones by looking. */
const smallSet = 16;

/**
 * `out` without duplicates (tries may share subtrees, and two nodes' children may then be one node), in the
 * order met. Linear: a `Set` past a few nodes.
 */
export function distinct(out: Node[]): Node[] {
  if (out.length <= 1) return out;
  if (out.length <= smallSet) {
    let k = 0;
    for (let i = 0; i < out.length; i++) {
      const n = out[i]!;
      let j = 0;
      while (j < k && out[j] !== n) j++;
      if (j === k) out[k++] = n;
    }
    out.length = k;
    return out;
  }
  return [...new Set(out)];
}

/** Whether one node of the set is a leaf: the set selects everything below. */
export function selectsAll(sel: Selection): boolean {
  for (let i = 0; i < sel.length; i++) if (sel[i]!.leaf) return true;
  return false;
}

/** Whether a node of the set has `*`. */
export function hasAny(sel: Selection): boolean {
  for (let i = 0; i < sel.length; i++) if (sel[i]!.any !== undefined) return true;
  return false;
}

/** A node of the set with named children, or undefined. */
export function namedNode(sel: Selection): Node | undefined {
  for (let i = 0; i < sel.length; i++) {
    const c = sel[i]!.children;
    if (c !== undefined && c.size > 0) return sel[i];
  }
  return undefined;
}

/** The number of named children of the nodes of the set. */
export function namesIn(sel: Selection): number {
  let n = 0;
  for (let i = 0; i < sel.length; i++) n += sel[i]!.children?.size ?? 0;
  return n;
}

/**
 * The set under the key `key` of the data (a map key or property name): the named child and the `*` child of each node, charged one step per node.
 * Empty when nothing below is selected.
 */
export function stepKey(sel: Selection, key: string, m: WorkMeter): Selection {
  charge(m, sel.length);
  if (sel.length === 1) {
    const u = sel[0]!;
    const c = u.children?.get(key);
    if (u.any === undefined) return c === undefined ? NOTHING : only(c);
    return c === undefined || c === u.any ? only(u.any) : [c, u.any];
  }
  const out: Node[] = [];
  for (let i = 0; i < sel.length; i++) {
    const u = sel[i]!;
    const c = u.children?.get(key);
    if (c !== undefined) out.push(c);
    if (u.any !== undefined) out.push(u.any);
  }
  return distinct(out);
}

/** The set under every element (`*` only), charged one step per node. */
export function stepAny(sel: Selection, m: WorkMeter): Selection {
  charge(m, sel.length);
  if (sel.length === 1) return sel[0]!.any === undefined ? NOTHING : only(sel[0]!.any);
  const out: Node[] = [];
  for (let i = 0; i < sel.length; i++) {
    const a = sel[i]!.any;
    if (a !== undefined) out.push(a);
  }
  return distinct(out);
}

/**
 * The named children of the nodes of the set, grouped by name in the order met (the `*` children not
 * included): what a walk needs when it looks the mask's names up in the data rather than the data's keys up in
 * the mask. Charged one step per name.
 */
export function namedSteps(sel: Selection, m: WorkMeter): Map<string, Selection> {
  const out = new Map<string, Selection>();
  if (sel.length === 1) {
    const children = sel[0]!.children;
    if (children === undefined) return out;
    charge(m, children.size);
    for (const [name, c] of children) out.set(name, only(c));
    return out;
  }
  const grouped = new Map<string, Node[]>();
  for (let i = 0; i < sel.length; i++) {
    const children = sel[i]!.children;
    if (children === undefined) continue;
    charge(m, children.size);
    for (const [name, c] of children) {
      const prev = grouped.get(name);
      if (prev === undefined) grouped.set(name, [c]);
      else prev.push(c);
    }
  }
  for (const [name, set] of grouped) out.set(name, distinct(set));
  return out;
}
