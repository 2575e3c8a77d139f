/**
 * Paths in the command's one-line messages, kept readable: a JSON path of 200 segments (`$[0][0]...`, a list
 * nested as deep as `--max-depth` lets it) or under a key of a megabyte is shortened around `…`, keeping the root
 * side and the innermost segments, where the error is. The library's own `WktJsonError.path` stays whole (it
 * names every key, for programs); line and column still locate the value in the input.
 *
 * @module
 */

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
  const segments = pathSegments(path).map(shortSegment);
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
