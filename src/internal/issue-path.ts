/**
 * Paths of the collect-all validator's issues, bounded in length: every issue holds its own path string, so a
 * path is built short from its segments (never the full path first), with long member names cut
 * ({@link issuePathKeyMax}) and very long paths keeping their innermost segments ({@link issuePathMax}).
 *
 * @internal
 * @module
 */
import { issuePathKeyMax, issuePathMax } from "../limits.js";
import { pathSegment, type PathSegment } from "../path.js";

/** The path segment of `s`, a member name longer than {@link issuePathKeyMax} cut with `…` (`["kkkk…"]`). */
function shortSegment(s: PathSegment): string {
  if (typeof s === "string" && s.length > issuePathKeyMax) return pathSegment(s.slice(0, issuePathKeyMax) + "…");
  return pathSegment(s);
}

/**
 * The issue path of `segments` from the root: at most {@link issuePathMax} code units, long member names cut,
 * and when the whole is still longer, the innermost segments after `$…`.
 *
 * @example
 * issuePath(["m", "k".repeat(1e6), "a", 2]); //=> '$.m["kk…"].a[2]', the key cut to its first 100 code units
 */
export function issuePath(segments: readonly PathSegment[]): string {
  let tail = "";
  for (let d = segments.length - 1; d >= 0; d--) {
    const s = shortSegment(segments[d]!);
    // A cut segment is at most 6 * issuePathKeyMax + 7 code units (every code unit escaped), below issuePathMax.
    if (tail.length + s.length + 1 > issuePathMax) return "$…" + tail;
    tail = s + tail;
  }
  return "$" + tail;
}
