/**
 * The options of `toJson` and `toJsonString` (`@bufbuild/protobuf`'s `JsonWriteOptions` and
 * `JsonWriteStringOptions`, plus `maxDepth`), and the write context made from them once per call.
 *
 * @module
 */
import type { DescMessage, Registry } from "@bufbuild/protobuf";
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { countOption } from "../internal/options.js";
import { defaultMaxDepth } from "../limits.js";
import { checkRegistry } from "../wkt/registry.js";
import { fieldEmission, flagOption } from "./to-json-emit.js";
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
   * Write a 64-bit integer (int64, uint64, sint64, fixed64, sfixed64; in fields, lists, map values,
   * Int64Value and UInt64Value) as a JSON number where a double holds the integer and prints its digits (every
   * integer up to 2^53 in magnitude, and larger ones such as 10^18); else as a string. Map keys stay strings.
   * Every proto3 JSON reader accepts a number. Default false.
   */
  int64AsNumber?: boolean | undefined;
  /**
   * Write a float (float32) value as the shortest decimal that reads back as the same float32 (`0.1`), as Go,
   * C++, Java and upb print it, instead of the digits of the double it widens to (`0.10000000149011612`, as
   * protobuf-es prints it). fromJson reads `0.1` as the double 0.1, which is the same float32 (the same
   * binary), not the same JavaScript number. Default false.
   */
  floatShortest?: boolean | undefined;
  /**
   * Fields written also when they hold their default value, as `alwaysEmitImplicit` writes every field: paths
   * from the message's type (`["title", "author.given_name"]`, proto or JSON names) to fields of implicit
   * presence, lists and maps. A field is written in every message of its type. Default none.
   */
  alwaysEmitImplicitFor?: readonly string[] | undefined;
  /**
   * Write an unset message field as `null` (a oneof member excepted, and google.protobuf.Value, whose null
   * is a value): every one (`true`), or the fields of these paths (as in `alwaysEmitImplicitFor`). Default false.
   */
  emitUnsetMessagesAsNull?: boolean | readonly string[] | undefined;
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
 * @internal The write context of one call: the options checked (`registry`, `maxDepth`, and the options beyond
 * protobuf-es's; protobuf-es's flags are true only when given as true), or the defaults without options. The
 * field paths of the options are resolved against `schema` (none without it).
 */
export function makeContext(options: Partial<JsonWriteOptions> | undefined, schema?: DescMessage): WriteContext {
  if (options === undefined) {
    return {
      alwaysEmitImplicit: false,
      enumAsInteger: false,
      useProtoFieldName: false,
      registry: undefined,
      maxDepth: defaultMaxDepth,
      int64AsNumber: false,
      floatShortest: false,
      emit: undefined,
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
    int64AsNumber: flagOption("int64AsNumber", options?.int64AsNumber),
    floatShortest: flagOption("floatShortest", options?.floatShortest),
    emit: schema === undefined ? undefined : fieldEmission(schema, options ?? {}),
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
