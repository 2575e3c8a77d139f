/**
 * The options of `patch` and `jsonPatch`, checked and read once per call: the decoder's options for the body,
 * the update mask as a trie, and the field-behaviour path lists.
 *
 * @module
 */
import type { DescMessage } from "@bufbuild/protobuf";
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { atMaskPath, maskPathOf } from "../internal/mask-base.js";
import { basePathOf, errorAtBase } from "../internal/base-path.js";
import { optionsTypeName } from "../internal/options.js";
import { maskPaths, WILD, type FieldMaskLike } from "../internal/mask-path.js";
import type { Node } from "../internal/mask-trie.js";
import type { JsonReadOptions } from "../codec/read-context.js";
import type { JsonWriteOptions } from "../codec/to-json-options.js";
import { planOf } from "../wkt/field-access.js";
import { fieldMaskFromJson } from "../wkt/field-mask.js";
import { checkedPaths, checkedTrie } from "../wkt/field-mask-check.js";
import { addBehavior, immutableBit, outputOnlyBit, requiredBit, type BehaviorLists } from "./field-behavior.js";

/** Options of {@link patch}: the decoder's options for the body, plus the update mask and field behaviour. */
export interface PatchOptions extends Partial<JsonReadOptions> {
  /**
   * The request's update mask: a FieldMask, an array of proto paths (`["title", "author.given_name"]`), or the
   * FieldMask JSON form as a query parameter carries it (`"title,author.givenName"`). `*` alone (`"*"` or
   * `["*"]`) replaces the whole resource (AIP-134: "Update masks must support a special value `*`, meaning full
   * replacement"). Undefined (default): the fields present in the body (AIP-134: "an omitted field mask as an
   * implied field mask equivalent to all fields that are populated"; see `impliedMask`). The empty mask (`""`,
   * `[]`) changes nothing: it is a mask, not an omitted one, and names no field.
   */
  updateMask?: FieldMaskLike | string | undefined;
  /**
   * How far the mask implied by the body goes: `"leaves"` (default) down through singular message fields,
   * so a sent message is merged member by member; `"fields"` the body's top-level fields only, so a sent
   * message replaces the stored one.
   */
  impliedMask?: "leaves" | "fields";
  /**
   * Paths (proto names, through singular message fields) of OUTPUT_ONLY fields, besides the descriptor's. A field
   * that is OUTPUT_ONLY here or in the descriptor is OUTPUT_ONLY whatever else `immutable` or `required` say.
   */
  outputOnly?: readonly string[];
  /** Paths of IMMUTABLE fields, besides those the descriptor marks IMMUTABLE or IDENTIFIER. */
  immutable?: readonly string[];
  /** Paths of REQUIRED fields, besides the descriptor's. */
  required?: readonly string[];
  /** An OUTPUT_ONLY field in the body or the mask is an error (rule `field-behavior`) instead of being ignored. */
  strict?: boolean;
  /**
   * Allow an update to set an IMMUTABLE (or IDENTIFIER) field that the stored resource leaves unset (at its
   * default, for a field without presence), once: after that it may not change. Default false: AIP-203 says an
   * immutable field "may be set in a request to create a resource, but may not be changed after", and going
   * from unset to set is a change, so an update that sets one is an error (rule `field-behavior`).
   */
  immutableSetOnce?: boolean;
  /** Accept AIP-161 map keys in `updateMask` (`labels.env`). Default false. */
  aip161?: boolean;
  /**
   * JSON path of the update mask in the request, where every error about it is reported (a path that does not
   * parse or names no field, `*` inside a path, an OUTPUT_ONLY path under `strict`). A string starting with
   * `$`. Default `"$.updateMask"`, the member (or query parameter) AIP-134 names; `"$.update_mask"` for a
   * request that spells it so.
   */
  maskPath?: string | undefined;
  /**
   * Where the body sits in the caller's request, such as `"$.book"` (AIP-134's resource member) or
   * `"$.Definition"` for a JSON document sent in a form field: every error about the body (its decoding, its
   * field behaviour, a required field it leaves unset) is reported at it and below it (`$.Definition.title`,
   * path `["Definition", "title"]`; the text entry points keep line and column in the body's text). Errors
   * about the update mask stay at `maskPath` (not under `path`), those about the options at `$`, and those
   * about a stored JSON resource (`jsonPatch`) at its own paths. A JSON path starting with `$` (else rule
   * `range`). Default `"$"`.
   */
  path?: string | undefined;
  /**
   * Accept a result that lacks a proto2 `required` (editions: LEGACY_REQUIRED) field, as protobuf-es holds one.
   * The body is always read as partial (it holds the fields it changes), but by default the result of the
   * update may not leave a required field unset where the update touched it (a field the mask clears, a
   * message the update replaces or creates): `toJson` and `toBinary` would refuse to write it, so `patch`
   * refuses it first (rule `required`). `jsonPatch` writes its result as JSON and cannot write a partial one:
   * for it the error stands whatever this option says.
   */
  allowPartial?: boolean | undefined;
}

/** Options of {@link jsonPatch}: those of {@link patch}, plus how the result is written (`toJson`'s options). */
export interface JsonPatchOptions
  extends PatchOptions, Partial<Pick<JsonWriteOptions, "useProtoFieldName" | "enumAsInteger" | "alwaysEmitImplicit">> {}

export /** The options of a call, read. @internal */
interface Opts {
  read: Partial<JsonReadOptions>;
  /** The explicit mask's trie (`*` as isStar), or undefined for the implied mask. */
  mask: Node | undefined;
  /** The code units of the explicit mask's text (its paths and a separator each), which the call earns. */
  maskUnits: number;
  leaves: boolean;
  strict: boolean;
  aip161: boolean;
  /** `immutableSetOnce`. */
  setOnce: boolean;
  /** `allowPartial` (false for jsonPatch): the result may lack required fields. */
  partial: boolean;
  /** jsonPatch: the result is written as JSON (the required-field error says so). */
  jsonOnly: boolean;
  /** Field behaviour by proto path from the root, from the path lists (the root message's node). */
  lists: BehaviorLists;
  /** Where the update mask is in the request (`maskPath`, default `$.updateMask`): its errors are there. */
  maskPath: string;
  /** Where the body is in the request (the `path` option, default `$`): the errors about the body are below it. */
  base: string;
}

export /** Checks and reads the options of `patch` and `jsonPatch`. @internal */
function readOptions(schema: DescMessage, options: PatchOptions | undefined): Opts {
  planOf(schema); // checks the schema
  if (options !== undefined && (typeof options !== "object" || options === null))
    throw optionError("options", options, "an object");
  const flag = (name: "strict" | "aip161" | "immutableSetOnce" | "allowPartial"): boolean => {
    const v = options?.[name];
    if (v !== undefined && typeof v !== "boolean") throw optionError(name, v, "a boolean");
    return v === true;
  };
  const base = basePathOf(options, optionsTypeName);
  const strict = flag("strict");
  const aip161 = flag("aip161");
  const setOnce = flag("immutableSetOnce");
  const partial = flag("allowPartial");
  const implied = options?.impliedMask ?? "leaves";
  if (implied !== "leaves" && implied !== "fields") throw optionError("impliedMask", implied, `"leaves" or "fields"`);
  // A PATCH body holds the fields it changes: it may leave proto2 required fields out (allowPartial).
  const read: Partial<JsonReadOptions> = { allowPartial: true };
  for (const name of ["ignoreUnknownFields", "registry", "recursionLimit", "maxDepth", "maxValues"] as const) {
    if (options?.[name] !== undefined) (read as Record<string, unknown>)[name] = options[name];
  }
  let mask: Node | undefined;
  let maskUnits = 0;
  const maskPath = maskPathOf(options, "$.updateMask");
  const m = options?.updateMask;
  if (m !== undefined) {
    // The JSON form as a query parameter sends it; "*" is AIP-134's full replacement.
    const fm: FieldMaskLike = typeof m !== "string" ? m : fieldMaskFromJson(m, { path: maskPath });
    mask = atMaskPath(maskPath, () => checkedTrie(schema, fm, aip161, "updateMask"));
    for (const p of maskPaths(fm)) maskUnits += p.length + 1;
  }
  const lists: BehaviorLists = { bits: 0, children: undefined };
  for (const [name, bit] of [
    ["outputOnly", outputOnlyBit],
    ["immutable", immutableBit],
    ["required", requiredBit],
  ] as const) {
    const paths = options?.[name];
    if (paths === undefined) continue;
    for (const segs of checkedPaths(schema, paths, false, name)) {
      if (segs.includes(WILD)) throw optionError(name, "*", "paths of fields");
      addBehavior(lists, segs as string[], bit);
    }
  }
  return {
    read,
    mask,
    maskUnits,
    leaves: implied === "leaves",
    strict,
    aip161,
    setOnce,
    partial,
    jsonOnly: false,
    lists,
    maskPath,
    base,
  };
}

export /**
 * Calls `f`, a part of a PATCH or create that reads the body (its parse, its decode, the walks whose paths are
 * the body's), with its errors placed: given the line and column of their path in the body's text by `locate`
 * (the text entry points), then moved under the body's base path `base` (the `path` option). Errors about the
 * options (typeName `"options"`) stay at `$`. @internal
 */
function atBody<T>(base: string, f: () => T, locate?: (e: unknown) => unknown): T {
  try {
    return f();
  } catch (e) {
    throw bodyError(e, base, locate);
  }
}

export /** An error of the body placed as {@link atBody} places it. @internal */
function bodyError(e: unknown, base: string, locate?: (e: unknown) => unknown): unknown {
  if (!(e instanceof WktJsonError) || e.typeName === optionsTypeName) return e;
  return errorAtBase(locate === undefined ? e : locate(e), base);
}

function optionError(name: string, value: unknown, expected: string): WktJsonError {
  const got = typeof value === "string" ? JSON.stringify(value) : describe(value);
  return new WktJsonError("range", "$", "options", `${name} must be ${expected}, got ${got}`);
}
