/**
 * Paths shown to people, kept readable: a JSON path of 200 segments (`$[0][0]...`, a list nested as deep as
 * `maxDepth` lets it) or under a key of a megabyte is shortened around `…`, keeping the root side and the
 * innermost segments, where the error is. Used by the command line's one-line messages and by the HTTP
 * bodies of problem.ts. An error's own `jsonPath` and `path` stay whole (they name every key, for programs);
 * line and column still locate the value in the input.
 *
 * @internal
 * @module
 */
import { pathSegment, type PathSegment } from "./path.js";

/** Longest path printed whole, in UTF-16 code units. */
export const pathShownMax = 120;

/** Longest segment printed whole; a longer one (a long member name) keeps its start and `…`. */
const segmentShownMax = 40;

/**
 * The path `path` as a message shows it: whole when it is at most {@link pathShownMax} code units; otherwise its
 * first segments (about a third of the room), `…`, and its last (the rest), each segment longer than 40 code
 * units cut to its start and `…`. Cutting a quoted key between its escape character and the escaped one shows
 * the backslash alone; the message is for people, and line and column locate the value.
 *
 * @example
 * shortPath("$.a.b"); //=> "$.a.b"
 * shortPath("$" + "[0]".repeat(200)); //=> "$[0][0]…[0][0]" (about 120 code units)
 */
export function shortPath(path: string, max = pathShownMax): string {
  if (path.length <= max) return path;
  return around(pathSegments(path).map(shortSegment), max);
}

/**
 * {@link shortPath} of the path whose keys are `keys`, or `undefined` when that path is at most `max` code units
 * and so shown whole (the caller has it already). The path is never formatted whole: each key too long to show
 * is formatted once per `format` (one map for the issues of one call, which share their keys), so that a
 * thousand paths under a megabyte key cost about a megabyte, not a gigabyte.
 *
 * @example
 * shortPathOfKeys(["m", "k".repeat(1e6), "a", 2], new Map()); //=> `$.m["kkk…"].a[2]`, the key cut at 40 code units
 * shortPathOfKeys(["m", "a"], new Map()); //=> undefined: "$.m.a" is shown whole
 */
export function shortPathOfKeys(
  keys: readonly PathSegment[],
  format: Map<string, string>,
  max = pathShownMax,
): string | undefined {
  const shown: string[] = [];
  let whole = 1; // "$"
  for (const key of keys) {
    if (typeof key === "string" && key.length > max) {
      // Too long to show whole: formatted and cut once per key.
      let s = format.get(key);
      if (s === undefined) format.set(key, (s = shortSegment(pathSegment(key))));
      shown.push(s);
      whole = Infinity;
    } else {
      const s = pathSegment(key);
      whole += s.length;
      shown.push(s);
    }
  }
  return whole <= max ? undefined : around(shown.map(shortSegment), max);
}

/** `$`, the first of `segments` (about a third of `max`), `…` and the last: at most `max` code units. */
function around(segments: readonly string[], max: number): string {
  let head = "$";
  let first = 0;
  while (first < segments.length && head.length + segments[first]!.length <= max / 3) head += segments[first++];
  let tail = "";
  let last = segments.length;
  while (last > first && head.length + 1 + tail.length + segments[last - 1]!.length <= max) {
    tail = segments[--last] + tail;
  }
  return last === first ? head + tail : head + "…" + tail;
}

/** A segment as shown: whole up to 40 code units, else its start and `…` (inside the quotes of a quoted key). */
function shortSegment(s: string): string {
  if (s.length <= segmentShownMax) return s;
  return s.startsWith('["') ? s.slice(0, segmentShownMax) + '…"]' : s.slice(0, segmentShownMax) + "…";
}

/**
 * The segments of a path the library writes (`$`, then `.name`, `[3]` or `["any key"]`), each as written. A
 * path not of that form is one segment after `$`.
 */
function pathSegments(path: string): string[] {
  const out: string[] = [];
  let i = 1;
  while (i < path.length) {
    const start = i;
    if (path[i] === ".") {
      i++;
      while (i < path.length && path[i] !== "." && path[i] !== "[") i++;
    } else if (path[i] === "[" && path[i + 1] === '"') {
      i += 2;
      while (i < path.length && path[i] !== '"') i += path[i] === "\\" ? 2 : 1;
      i += 2; // the closing quote and bracket
    } else if (path[i] === "[") {
      while (i < path.length && path[i] !== "]") i++;
      i++;
    } else {
      return [path.slice(1)];
    }
    out.push(path.slice(start, Math.min(i, path.length)));
  }
  return out;
}
