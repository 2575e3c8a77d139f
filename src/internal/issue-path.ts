/**
 * Paths of the collect-all validator's issues, exact and cheap to hold: an issue keeps its `path` as keys
 * (the input's own key strings, shared, never copied or cut). Its `jsonPath` string (`$.m["k"].a[2]`) and the
 * `message` that quotes it are made with the issue when the keys are short ({@link isLongPath}); under long keys
 * they are formatted each time they are read, as a concatenation that shares the keys, so the issue never holds
 * a copy of them. Issues of one call share a {@link PathFormat}, so a long key is escaped once however many
 * issues lie under it.
 *
 * @internal
 * @module
 */
import { pathSegment, type PathSegment } from "../path.js";

/**
 * Member names longer than this are formatted once per call and shared by every path that holds them; shorter
 * ones are formatted where they are met (as cheap as a lookup).
 */
const sharedFrom = 64;

/**
 * Length of a path (about, in code units) beyond which an issue's path string is formatted when read instead
 * of held: below it, the string costs about what its segments do.
 */
const heldUpTo = 1000;

/**
 * Whether the path of `segments` is long: more than about 1,000 code units (long keys, or deep). Such a path string
 * is formatted each time it is read, and not kept (V8 copies a concatenation's parts into one string when it is
 * searched or printed; a kept copy of a megabyte key per issue is what the segments avoid).
 */
export function isLongPath(segments: readonly PathSegment[]): boolean {
  let n = 0;
  for (let d = 0; d < segments.length; d++) {
    const s = segments[d]!;
    // A key counts its length; an index, or the dot or brackets around a key, a few code units.
    if ((n += typeof s === "string" ? s.length + 1 : 3) > heldUpTo) return true;
  }
  return false;
}

/** What the issues of one call share to format their paths: each long key's formatted segment. */
export type PathFormat = Map<string, string>;

/** A fresh {@link PathFormat}, for the issues of one call. */
export function pathFormat(): PathFormat {
  return new Map();
}

/**
 * The JSON path of `segments` from the root, every key whole: `$.m["team name"].a[2]`. A long key's segment
 * comes from `format` (made once per call), so that the paths of many issues under one key share it.
 *
 * @example
 * issuePath(["m", "k".repeat(1e6), "a", 2], pathFormat()); //=> "$.m.kkk….a[2]", the key whole
 */
export function issuePath(segments: readonly PathSegment[], format: PathFormat): string {
  let out = "$";
  for (let d = 0; d < segments.length; d++) {
    const s = segments[d]!;
    if (typeof s === "string" && s.length > sharedFrom) {
      let f = format.get(s);
      if (f === undefined) format.set(s, (f = pathSegment(s)));
      out += f;
    } else {
      out += pathSegment(s);
    }
  }
  return out;
}
