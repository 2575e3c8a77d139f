/**
 * The `maskPath` option of every function that takes a FieldMask: where the mask sits in the caller's request
 * (`"$.readMask"`, `"$.updateMask"`), so that every error about the mask (a path that does not parse or names
 * no field, `*` where it may not stand, too many paths, a mask that is not a FieldMask) names the member the
 * client sent rather than `$`, whichever function found it. Errors about the data (the message, the JSON
 * resource, the body) keep their own paths.
 *
 * `maskPath` rather than `path`: in the functions that take data as well as a mask, a base `path` would be the
 * data's. `fieldMaskFromJson` and `fieldMaskToJson`, whose data is the mask, keep their `path` option.
 *
 * @internal
 * @module
 */
import { WktJsonError } from "../errors.js";
import { describe } from "./describe.js";
import { errorAtBase } from "./base-path.js";
import { optionsTypeName } from "./options.js";

/** The option every function that takes a mask has. */
export interface MaskPathOption {
  /**
   * JSON path of the mask in the caller's request, such as `"$.readMask"`: every error about the mask is
   * reported at it. A string starting with `$`. Default `"$"` (for `patch`, `"$.updateMask"`).
   */
  maskPath?: string | undefined;
}

/**
 * The `maskPath` of `options`, `fallback` when it gives none.
 *
 * @throws {WktJsonError} rule `range` (typeName `"options"`) if `maskPath` is given and is not a string
 *   starting with `$`.
 * @example
 * maskPathOf({ maskPath: "$.readMask" }); //=> "$.readMask"
 */
export function maskPathOf(options: unknown, fallback = "$"): string {
  const path =
    typeof options === "object" && options !== null ? ((options as MaskPathOption).maskPath as unknown) : undefined;
  if (path === undefined) return fallback;
  if (typeof path !== "string" || path.charCodeAt(0) !== 36) {
    const got = typeof path === "string" ? `${JSON.stringify(path)}, which does not start with "$"` : describe(path);
    throw new WktJsonError("range", "$", optionsTypeName, `maskPath must be a JSON path starting with "$", got ${got}`);
  }
  return path;
}

/**
 * `e` moved to the mask's path `base` when it is a {@link WktJsonError} still at `$` and not about the options
 * (typeName `"options"`); else `e` (one already placed, by `fieldMaskFromJson`'s `path`, stays where it is).
 * Called on what the mask's part of a function throws: a `mask-path` error, a mask that is not a FieldMask, a
 * `size` error of the work its text allows.
 */
export function maskErrorAt(e: unknown, base: string): unknown {
  return base !== "$" && e instanceof WktJsonError && e.jsonPath === "$" && e.typeName !== optionsTypeName
    ? errorAtBase(e, base)
    : e;
}

/**
 * Calls `fn`, the part of a function that reads a mask (parse, check, trie), with its mask errors at `base`.
 *
 * @example
 * const trie = atMaskPath("$.readMask", () => checkedTrie(schema, mask, false));
 */
export function atMaskPath<R>(base: string, fn: () => R): R {
  if (base === "$") return fn();
  try {
    return fn();
  } catch (e) {
    throw maskErrorAt(e, base);
  }
}
