/**
 * The update mask a PATCH body implies: the keys present in it, down to a chosen depth (`fieldMaskFromPatch`),
 * for `jsonMerge(stored, body, fieldMaskFromPatch(body))`. The mask is bounded whatever the body: at most
 * `maxPaths` paths of at most `maxLength` code units in all, as each path repeats the keys above it.
 *
 * @module
 */
import { protoCamelCase, protoSnakeCase } from "@bufbuild/protobuf/reflect";
import type { FieldMask } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { formatSegment, makeMask, maxSegments } from "../internal/mask-path.js";
import { fieldMaskTypeName, structTypeName } from "../internal/names.js";
import { charge, earn, unmetered, workMeter } from "../internal/meter.js";
import { checkCount, countOption, type CountRule } from "../internal/options.js";
import { defaultMaskMaxPaths, defaultPatchMaskMaxLength, formatBound } from "../limits.js";
import { hasOwnKey } from "../wkt/field-access.js";
import { isJsonObject, type JsonRecord } from "./json-copy.js";
import { jsonCtx, rootObject } from "./json-project.js";

/** The `depth` option: how many levels of nested objects become paths, from 1 (the top-level keys) up. */
const depthRule: CountRule = { min: 1, unbounded: true, unit: "levels of nested objects" };

/** Options of {@link fieldMaskFromPatch}. */
export interface FieldMaskFromPatchOptions {
  /**
   * How many levels of nested objects become paths: 1 (default) gives the top-level keys (`config`); 2 goes
   * one level into objects (`config.url`); `Infinity` goes down to the leaves. Arrays and empty objects are
   * always leaves.
   */
  depth?: number;
  /** `"json"`: keys are lowerCamel JSON names and become proto names (`dateCreated` → `date_created`). */
  names?: "literal" | "json";
  /** The most paths the mask may hold (default 10,000); beyond it, rule `size`. */
  maxPaths?: number;
  /**
   * The most UTF-16 code units the paths may hold together (default 1,048,576); beyond it, rule `size`. Each
   * path repeats the keys above it, so without this a body of one long key over many nested keys would make a
   * mask many times its own size.
   */
  maxLength?: number;
}

/**
 * The mask of the keys present in a PATCH body: the top-level keys by default, or down to `depth` levels of
 * nested objects. A key that is not an identifier is quoted (`` `team name` ``). With `names: "json"`,
 * lowerCamel keys become proto names (`dateCreated` → `date_created`). The mask of a PATCH handler:
 * `jsonMerge(stored, body, fieldMaskFromPatch(body))`. The mask is bounded whatever the body: at most
 * `maxPaths` paths of at most `maxLength` code units in all.
 *
 * @throws {WktJsonError} rule `json-type` if `patch` is not a plain object; `range` for a bad `depth`, `names`,
 *   `maxPaths` or `maxLength`; `depth` if the patch nests deeper than 100 levels within `depth`; `size` when
 *   the mask would hold more than `maxPaths` paths (default 10,000) or more than `maxLength` code units
 *   (default 1,048,576).
 * @example
 * fieldMaskFromPatch({ active: false, config: { url: "u" } }).paths; //=> ["active", "config"]
 * fieldMaskFromPatch({ config: { url: "u", content_type: "json" } }, { depth: 2 }).paths;
 * //=> ["config.url", "config.content_type"]
 */
export function fieldMaskFromPatch(patch: object, options?: FieldMaskFromPatchOptions): FieldMask {
  const root = rootObject(patch, "patch");
  const depth = checkCount("depth", options?.depth ?? 1, depthRule);
  const maxPaths = countOption("maxPaths", options?.maxPaths, defaultMaskMaxPaths);
  const maxLength = countOption("maxLength", options?.maxLength, defaultPatchMaskMaxLength);
  const json = jsonCtx({ names: options?.names ?? "literal" }).json;
  // A caller that lifted both bounds trusts the body; else the walk earns the keys it reads and is charged per
  // key and per code unit of the segments it formats.
  const m =
    maxPaths === Infinity && maxLength === Infinity ? unmetered(fieldMaskTypeName) : workMeter(fieldMaskTypeName);
  const paths: string[] = [];
  let length = 0;
  const walk = (obj: JsonRecord, prefix: string, level: number): void => {
    if (level > maxSegments) {
      throw new WktJsonError("depth", "$", structTypeName, `the patch nests deeper than ${maxSegments} levels`);
    }
    for (const key of Object.keys(obj)) {
      earn(m, key.length + 3);
      charge(m, 1 + key.length);
      const path = prefix + formatSegment(json ? protoName(key) : key);
      const v = obj[key];
      if (level < depth && isJsonObject(v) && hasOwnKey(v)) walk(v, path + ".", level + 1);
      else {
        // Checked before the path is kept, so the mask never grows past the bounds.
        if (paths.length >= maxPaths) throw patchTooLarge(`more than maxPaths (${formatBound(maxPaths)}) paths`);
        if ((length += path.length) > maxLength) {
          throw patchTooLarge(`paths of more than maxLength (${formatBound(maxLength)}) UTF-16 code units in all`);
        }
        paths.push(path);
      }
    }
  };
  walk(root, "", 1);
  return makeMask(paths);
}

function patchTooLarge(what: string): WktJsonError {
  return new WktJsonError("size", "$", fieldMaskTypeName, `the mask of the patch would hold ${what}`);
}

/** The proto name whose JSON name is `key`, or `key` itself when no proto name maps to it. */
function protoName(key: string): string {
  const snake = protoSnakeCase(key);
  return snake !== key && protoCamelCase(snake) === key ? snake : key;
}
