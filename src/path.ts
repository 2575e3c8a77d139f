/**
 * JSON paths of the value being read or written, such as `$.items[2].createTime` or `$.labels["team name"]`.
 *
 * Paths are built only when an error is raised: decoders throw with the path relative to the value they were
 * given (`$`), and each enclosing level rewrites it with {@link errorAtPath}. The happy path never builds a
 * string.
 *
 * @module
 */
import { WktJsonError } from "./errors.js";

/** A step into a JSON value: an object member name or an array index. */
export type PathSegment = string | number;

/**
 * Formats one path step: `.name` for identifier-like names, `["other key"]` otherwise, `[3]` for indexes.
 *
 * @example
 * pathSegment("createTime"); //=> ".createTime"
 * pathSegment("team name");  //=> "[\"team name\"]"
 * pathSegment(2);            //=> "[2]"
 */
export function pathSegment(segment: PathSegment): string {
  if (typeof segment === "number") return `[${segment}]`;
  return isIdentifier(segment) ? `.${segment}` : `[${JSON.stringify(segment)}]`;
}

/**
 * Appends steps to a path.
 *
 * @example
 * pathJoin("$", "items", 2, "createTime"); //=> "$.items[2].createTime"
 */
export function pathJoin(path: string, ...segments: PathSegment[]): string {
  let out = path;
  for (const s of segments) out += pathSegment(s);
  return out;
}

/**
 * Returns `error` with `segment` inserted right after the root `$` of its path, so that an error raised for a
 * member is reported from the enclosing value. Anything that is not a {@link WktJsonError} is returned as is.
 *
 * @example
 * const e = new WktJsonError("syntax", "$.seconds", "google.protobuf.Duration", "bad");
 * errorAtPath(e, "timeout").jsonPath; //=> "$.timeout.seconds"
 */
export function errorAtPath(error: unknown, segment: PathSegment): unknown {
  return errorUnder(error, "$" + pathSegment(segment));
}

/**
 * @internal The error with `prefix` (a JSON path from the root) put in place of the `$` its path starts with,
 * keeping rule, type name, detail, line, column and cause; anything that is not a {@link WktJsonError} as is.
 */
export function errorUnder(error: unknown, prefix: string): unknown {
  if (!(error instanceof WktJsonError)) return error;
  const moved = new WktJsonError(
    error.rule,
    prefix + error.jsonPath.slice(1),
    error.typeName,
    error.detail,
    error.cause === undefined ? undefined : { cause: error.cause },
  );
  if (error.line !== undefined) moved.line = error.line;
  if (error.column !== undefined) moved.column = error.column;
  return moved;
}

function isIdentifier(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36;
    if (!letter && !(i > 0 && c >= 48 && c <= 57)) return false;
  }
  return true;
}
