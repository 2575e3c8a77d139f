/**
 * The `path` option of the standalone helpers (`timestampFromJson(body.dueAt, { path: "$.dueAt" })`): where the
 * value sits in the caller's document, so that an error names the field a client sent rather than `$`.
 *
 * The helpers raise their errors at `$` (and below it: `$.tags[2]` inside a Struct) as they always have; only
 * when a caller passes options does the public function catch the error and move it under the base path. A call
 * without options pays one comparison and allocates nothing.
 *
 * @internal
 * @module
 */
import { WktJsonError } from "../errors.js";
import { describe } from "./describe.js";
import { errorUnder } from "../path.js";
import { jsonPathSegments } from "../json-path.js";

/** What every options object with a base path has. */
export interface BasePathOption {
  /**
   * JSON path of the value in the caller's document, such as `"$.dueAt"` or `"$.items[2].meta"`; errors are
   * reported at it and below it (`$.meta.tags[2]`). A string starting with `$`. Default `"$"`.
   */
  path?: string | undefined;
}

/**
 * Returns the base path `options` gives, `"$"` when it gives none.
 *
 * @throws {WktJsonError} rule `range` (at `$`, under `typeName`) if `path` is given and is not a JSON path (a
 *   string starting with `$`, whose keys are `.name`, `["any key"]` or `[2]`).
 * @example
 * basePathOf({ path: "$.dueAt" }, "google.protobuf.Timestamp"); //=> "$.dueAt"
 * basePathOf({ path: "dueAt" }, "google.protobuf.Timestamp"); // throws WktJsonError (rule "range")
 */
export function basePathOf(options: unknown, typeName: string): string {
  const path = (options as BasePathOption | null | undefined)?.path as unknown;
  if (path === undefined) return "$";
  if (typeof path !== "string" || path.charCodeAt(0) !== 36) {
    const got = typeof path === "string" ? `${quote(path)}, which does not start with "$"` : describe(path);
    throw new WktJsonError("range", "$", typeName, `the path option must be a JSON path starting with "$", got ${got}`);
  }
  // The keys of every error's path are read back from it (WktJsonError.path): the base must read as keys.
  if (path.length > 1 && jsonPathSegments(path) === undefined) {
    throw new WktJsonError(
      "range",
      "$",
      typeName,
      `the path option must be a JSON path such as "$.items[2]" or '$["team name"]', got ${quote(path)}`,
    );
  }
  return path;
}

/**
 * Returns `error` with its path moved under `base` (`$.tags[2]` under `$.meta` is `$.meta.tags[2]`), keeping
 * line, column and cause. Anything that is not a {@link WktJsonError}, and any error when `base` is `$`, is
 * returned as is.
 *
 * @example
 * errorAtBase(new WktJsonError("range", "$[2]", "google.protobuf.ListValue", "x"), "$.tags").jsonPath; //=> "$.tags[2]"
 */
export function errorAtBase(error: unknown, base: string): unknown {
  return base === "$" ? error : errorUnder(error, base);
}

/**
 * Calls `fn(arg)` and moves any error it raises under the base path of `options` (checked first).
 *
 * @throws {WktJsonError} what `fn` throws, under the base path; rule `range` for an invalid `path` option.
 * @example
 * callAtBase(timestampFromJson, "x", { path: "$.dueAt" }, "google.protobuf.Timestamp"); // throws WktJsonError (jsonPath "$.dueAt")
 */
export function callAtBase<A, R>(fn: (arg: A) => R, arg: A, options: unknown, typeName: string): R {
  const base = basePathOf(options, typeName);
  try {
    return fn(arg);
  } catch (e) {
    throw errorAtBase(e, base);
  }
}

function quote(s: string): string {
  return JSON.stringify(s.length > 40 ? s.slice(0, 40) + "…" : s);
}
