/**
 * The read context of the proto3 JSON decoder: the options of `fromJson` and its kin as `@bufbuild/protobuf`
 * names them, checked once per call (through internal/options.ts), and the state one call carries (depth,
 * budget). The decoder (from-json.ts), the collect-all validator (validate.ts) and the Any reader
 * (any-json.ts) all start here, so that an option means the same in each.
 *
 * @module
 * @internal
 */
import type { Registry } from "@bufbuild/protobuf";
import { WktJsonError } from "../errors.js";
import type { ValueBudget } from "../internal/budget.js";
import { countOption, optionsTypeName, shown } from "../internal/options.js";
import { textDepthAsMaxDepth, textDepthBound } from "./depth-errors.js";
import { parseJsonText, type JsonTextParseOptions } from "./json-text.js";
import { checkRegistry } from "../wkt/registry.js";
import { unresolvedAnyOption, type UnresolvedAny } from "./any-fallback.js";
import { defaultMaxDepth, defaultMaxValues, defaultMaxValuesPerCodeUnit } from "../limits.js";

/**
 * Options of `fromJson`, `fromJsonString` and the merge functions: `@bufbuild/protobuf`'s
 * `JsonReadOptions` member for member (the functions take a `Partial` of it, so an options object written for
 * protobuf-es is accepted as it is), plus optional limits.
 */
export interface JsonReadOptions {
  /** Skip object members that name no field (and enum names the enum lacks) instead of failing. */
  ignoreUnknownFields: boolean;
  /**
   * Accept a message that leaves a proto2 `required` field (editions: `field_presence = LEGACY_REQUIRED`) unset,
   * as protobuf-es's `fromJson` does, and protobuf-go's `UnmarshalOptions.AllowPartial`. By default such JSON is
   * refused (rule `required`, at the path of the missing field's JSON name), at every depth, since `toJson` and
   * `toBinary` refuse to write the message it would give. Not a protobuf-es option; default false.
   */
  allowPartial?: boolean | undefined;
  /** Resolves the message types of `google.protobuf.Any` and extensions. Well-known types need none. */
  registry?: Registry | undefined;
  /**
   * What to do with an Any whose type the registry cannot resolve: `"error"` (rule `unknown-type`), `"skip"` (the
   * Any is left out: a singular field stays unset, a list element or map entry is dropped; at the root, the
   * empty Any), or `"raw"`: read the diagnostic form `{"@type": url, "@value": "<base64>"}` that `toJson` writes
   * under the same option, which is NOT ProtoJSON (docs/unknown-types.md). Not a protobuf-es option; default
   * `"error"`; anything else is rule `range`.
   */
  unresolvedAny?: UnresolvedAny | undefined;
  /**
   * Skip members named by a reserved name of their message (`reserved "old_name";`, in the proto name or its
   * lowerCamelCase JSON form), as the text format does, while other unknown members are still refused. Off by
   * default, as the spec says "Runtime JSON parsing is not affected by reserved names" (protobuf.dev, proto3
   * Reserved Field Names). Not a protobuf-es option; a boolean (else rule `range`).
   */
  ignoreReservedNames?: boolean | undefined;
  /** protobuf-es's name for {@link JsonReadOptions.maxDepth}; give either (both only if equal). */
  recursionLimit: number;
  /**
   * Nesting limit: each message, Any, Struct and ListValue level counts one. Deeper input is our error
   * (rule `depth`), never a stack overflow. Default 100.
   */
  maxDepth?: number | undefined;
  /**
   * With `fromJsonString`: the longest text accepted, in UTF-16 code units (rule `size`), checked before
   * anything is parsed. A whole number from 0 up (else rule `range`). Unlimited by default.
   */
  maxLength?: number | undefined;
  /**
   * Memory budget, in units of 8 bytes: the most memory a call may allocate for its result (rule `size`
   * beyond), charged as it is built (a message its object and the members `create()` gives it, an element its
   * slot, a bigint, a Uint8Array, a google.protobuf.Value each what it takes; README, Hostile input), whatever
   * the shape of the input. A whole number from 0 up (else rule `range`), or Infinity: a fixed cap. Default:
   * {@link defaultMaxValues} (4,000,000 units, 32 MB) plus {@link defaultMaxValuesPerCodeUnit} (6 units, 48
   * bytes) per UTF-16 code unit of the input's JSON text, counted from the value as it is read, so that a text
   * and its parsed value (`fromJsonString` and `fromJson`) get the same budget.
   */
  maxValues?: number | undefined;
  /**
   * Where the JSON sits in the caller's document, such as `"$.Definition"` for a JSON document sent in a form
   * field: errors and issues are reported at it and below it (`$.Definition.steps[2]`, path
   * `["Definition", "steps", 2]`), as the `path` option of the standalone helpers (`timestampFromJson`). A JSON
   * path starting with `$` (else rule `range`). Not a protobuf-es option; default `"$"`.
   */
  path?: string | undefined;
}

/** @internal Everything a reader needs, created once per call. */
export interface ReadContext extends ValueBudget {
  readonly ignoreUnknownFields: boolean;
  /** {@link JsonReadOptions.allowPartial}: missing required fields are not checked. */
  readonly allowPartial: boolean;
  readonly registry: Registry | undefined;
  /** {@link JsonReadOptions.unresolvedAny}, checked. */
  readonly unresolvedAny: UnresolvedAny;
  /** {@link JsonReadOptions.ignoreReservedNames}. */
  readonly ignoreReservedNames: boolean;
  readonly maxDepth: number;
  /** Messages entered so far. */
  depth: number;
  /**
   * Units charged less units earned so far (see {@link JsonReadOptions.maxValues}): one addition per
   * allocation, compared with `maxValues`.
   */
  values: number;
  readonly maxValues: number;
  readonly perCodeUnit: number;
  /**
   * The JSON came from `fromJsonString`'s parser in its `exactNumbers` mode, where every integer beyond
   * 2^53 written in any form is a `bigint`: a `number` beyond 2^53 is then a literal no integer field may take.
   */
  readonly exactNumbers?: boolean;
  /**
   * Every object of the JSON is a plain data object that `JSON.parse` or the text parser built, and
   * `Object.prototype` has no enumerable property: `for...in` lists exactly `Object.keys`, and faster (V8 reads
   * each member through the map's enumeration cache instead of a keyed lookup). Set by `fromJsonString`.
   */
  forIn?: boolean;
}

/** @internal A compiled reader: decodes a JSON value into a new message of one type. */
export type MessageReader = (json: unknown, ctx: ReadContext) => Record<string, unknown>;

/** @internal How a value of one field kind (or list item, or map value) is read; `undefined` json never reaches it. */
export type ValueReader = (json: unknown, ctx: ReadContext) => unknown;

/**
 * @internal What a {@link ValueReader} gives for an enum value that was an unknown name, skipped under
 * `ignoreUnknownFields`.
 */
export const skipped = Symbol("skipped");

/**
 * @internal The context of one decoding call, its options checked (`registry` up front, as toJson checks it, then
 * the counts); `exactNumbers` for JSON from the text parser. The budget is the same for a text and a JS value:
 * the default earns {@link defaultMaxValuesPerCodeUnit} per code unit of the value's JSON text as it is read.
 */
export function makeContext(options: Partial<JsonReadOptions> | undefined, exactNumbers: boolean): ReadContext {
  if (options === undefined) {
    return {
      ignoreUnknownFields: false,
      allowPartial: false,
      registry: undefined,
      unresolvedAny: "error",
      ignoreReservedNames: false,
      maxDepth: defaultMaxDepth,
      depth: 0,
      values: 0,
      maxValues: defaultMaxValues,
      perCodeUnit: defaultMaxValuesPerCodeUnit,
      exactNumbers,
      forIn: false,
    };
  }
  const maxValues = options?.maxValues;
  return {
    ignoreUnknownFields: options?.ignoreUnknownFields === true,
    allowPartial: options?.allowPartial === true,
    registry: checkRegistry(options?.registry),
    unresolvedAny: unresolvedAnyOption(options?.unresolvedAny),
    ignoreReservedNames: booleanOption("ignoreReservedNames", options?.ignoreReservedNames),
    maxDepth: depthOption(options),
    depth: 0,
    values: 0,
    maxValues: maxValues === undefined ? defaultMaxValues : countOption("maxValues", maxValues, defaultMaxValues),
    // A caller's own maxValues is a fixed cap; Infinity (trusted input) needs no credit either.
    perCodeUnit: maxValues === undefined ? defaultMaxValuesPerCodeUnit : 0,
    exactNumbers,
    forIn: false,
  };
}

/** An option that is true or false (or not given: false); rule `range` for anything else. */
function booleanOption(name: string, value: unknown): boolean {
  if (value === undefined || typeof value === "boolean") return value === true;
  throw new WktJsonError("range", "$", optionsTypeName, `${name} must be true or false, got ${shown(value)}`);
}

/**
 * @internal The nesting limit of an options object: `maxDepth`, or `recursionLimit` (protobuf-es's name for
 * it); giving both with different values is rule `range`. Each is checked as a count option.
 */
export function depthOption(
  options: { readonly maxDepth?: unknown; readonly recursionLimit?: unknown } | undefined,
): number {
  const maxDepth = options?.maxDepth;
  const recursionLimit = options?.recursionLimit;
  if (maxDepth !== undefined && recursionLimit !== undefined && maxDepth !== recursionLimit) {
    throw new WktJsonError(
      "range",
      "$",
      optionsTypeName,
      `maxDepth and recursionLimit (protobuf-es's name for it) differ: ${shown(maxDepth)} and ` +
        `${shown(recursionLimit)}; give one`,
    );
  }
  if (maxDepth !== undefined) return countOption("maxDepth", maxDepth, defaultMaxDepth);
  return countOption("recursionLimit", recursionLimit, defaultMaxDepth);
}

/**
 * @internal Options of the text parser for the codec: exact numbers (an int64 written `9.223372036854775807e18`
 * keeps every digit), the nesting guard, and the checked `maxLength`.
 */
export function textParseOptions(maxDepth: number, maxLength: number | undefined): JsonTextParseOptions {
  const parseOptions: JsonTextParseOptions = { maxDepth: textDepthBound(maxDepth), exactNumbers: true };
  // NaN or a negative limit would switch the check off or reject everything, silently.
  if (maxLength !== undefined) parseOptions.maxLength = countOption("maxLength", maxLength, 0);
  return parseOptions;
}

/**
 * @internal Parses a text with {@link textParseOptions}: the parser's `depth` error is told in terms of the
 * codec's `maxDepth`, the limit the caller set, not of the parser's own bound (see {@link textDepthAsMaxDepth}).
 */
export function parseJsonTextForCodec(text: string, parseOptions: JsonTextParseOptions, maxDepth: number): unknown {
  try {
    return parseJsonText(text, parseOptions);
  } catch (e) {
    throw textDepthAsMaxDepth(e, maxDepth);
  }
}
