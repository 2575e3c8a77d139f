/**
 * The options of `toJson` and `toJsonString` (`@bufbuild/protobuf`'s `JsonWriteOptions` and
 * `JsonWriteStringOptions`, plus `maxDepth`), and the write context made from them once per call.
 *
 * @module
 */
import type { Registry } from "@bufbuild/protobuf";
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { countOption } from "../internal/options.js";
import { defaultMaxDepth } from "../limits.js";
import { checkRegistry } from "../wkt/registry.js";
import type { WriteContext } from "./to-json-plan.js";
import { unresolvedAnyOption, type UnresolvedAny } from "./any-fallback.js";

/**
 * Options of `toJson`: `@bufbuild/protobuf`'s `JsonWriteOptions` member for member (the functions take a
 * `Partial` of it, so an options object written for protobuf-es is accepted as it is), plus an optional
 * nesting limit.
 */
export interface JsonWriteOptions {
  /** Also emit fields with implicit presence that hold their default value (and empty lists and maps). */
  alwaysEmitImplicit: boolean;
  /** Write enum values as numbers instead of names. */
  enumAsInteger: boolean;
  /** Use the proto field names (`optional_int32`) instead of the lowerCamelCase JSON names. */
  useProtoFieldName: boolean;
  /** Resolves the message types of `google.protobuf.Any`. Well-known types need none. */
  registry?: Registry | undefined;
  /** Nesting limit (messages, Any, Struct, ListValue each count one level); default 100. */
  maxDepth?: number | undefined;
  /**
   * What to write for an Any whose type the registry cannot resolve: `"error"` (rule `unknown-type`, default),
   * `"skip"` (the Any is left out: a singular field unset, a list element or map entry dropped; at the root, `{}`),
   * or, for logs and debugging only, `"raw"`: `{"@type": url, "@value": "<base64 of the bytes>"}`, which is NOT
   * ProtoJSON (fromJson reads it back only under the same option; docs/unknown-types.md). Not a protobuf-es
   * option; anything else is rule `range`.
   */
  unresolvedAny?: UnresolvedAny | undefined;
}

/** Options of `toJsonString`: `@bufbuild/protobuf`'s `JsonWriteStringOptions`, plus `maxDepth`. */
export interface JsonWriteStringOptions extends JsonWriteOptions {
  /** Indentation of the text, as `JSON.stringify`'s third argument. Default 0 (one line). */
  prettySpaces: number;
}

/**
 * @internal The write context of one call: the options checked (`registry`, `maxDepth`; the flags are true only
 * when given as true), or the defaults without options.
 */
export function makeContext(options: Partial<JsonWriteOptions> | undefined): WriteContext {
  if (options === undefined) {
    return {
      alwaysEmitImplicit: false,
      enumAsInteger: false,
      useProtoFieldName: false,
      registry: undefined,
      maxDepth: defaultMaxDepth,
      unresolvedAny: "error",
      depth: 0,
      negativeZero: false,
      foundPlan: undefined,
      foundValue: undefined,
    };
  }
  return {
    alwaysEmitImplicit: options?.alwaysEmitImplicit === true,
    enumAsInteger: options?.enumAsInteger === true,
    useProtoFieldName: options?.useProtoFieldName === true,
    registry: checkRegistry(options?.registry),
    maxDepth: countOption("maxDepth", options?.maxDepth, defaultMaxDepth),
    unresolvedAny: unresolvedAnyOption(options?.unresolvedAny),
    depth: 0,
    negativeZero: false,
    foundPlan: undefined,
    foundValue: undefined,
  };
}

/**
 * @internal The `prettySpaces` option checked: any number (JSON.stringify clamps it to 0 to 10), 0 when not
 * given (or null); else rule `json-type`, as JSON.stringify would indent by a string's text, which need not be
 * white space: no JSON then. Not a count option ({@link countOption}), but worded as one.
 */
export function prettySpacesOption(prettySpaces: unknown): number {
  const spaces = prettySpaces ?? 0;
  if (typeof spaces !== "number") {
    throw new WktJsonError(
      "json-type",
      "$",
      "options",
      `prettySpaces must be a number (spaces of indentation), got ${describe(spaces)}`,
    );
  }
  return spaces;
}
