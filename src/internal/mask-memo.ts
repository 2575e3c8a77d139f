/**
 * Masks prepared once: the message and JSON functions parse, check and build the trie of a mask on each call,
 * and a mask is usually a constant, so the last preparation of each paths array is kept and reused while the
 * array holds the same strings.
 *
 * @internal
 * @module
 */
import { maskPaths } from "./mask-path.js";
import { earn, type WorkMeter } from "./meter.js";

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
 * `scope` and `flavor` (what the preparation depends on: a schema, options) are the same. With a meter, the
 * call earns the mask's text (each path's code units and one for its separator), memoized or not: what a mask
 * allows a call to do does not depend on whether it was seen before.
 */
export function memoMask<T>(
  mask: unknown,
  scope: unknown,
  flavor: string,
  prepare: (paths: readonly string[]) => T,
  meter?: WorkMeter,
): T {
  const paths = maskPaths(mask);
  if (meter !== undefined) {
    let units = 0;
    for (let k = 0; k < paths.length; k++) units += paths[k]!.length + 1;
    earn(meter, units);
  }
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
