/**
 * google.protobuf.Struct, Value, ListValue and NullValue: free-form JSON inside protobuf.
 *
 * Spec (wkt.md): "Struct | fields: map<string, Value> | JSON object"; "Value | union of: null_value (NullValue),
 * number_value (double), string_value (string), bool_value (bool), struct_value (Struct), list_value
 * (ListValue) | any JSON value"; "ListValue | values: Value[] | JSON array"; "NullValue | enum with single value
 * `NULL_VALUE` | JSON null". Rule 9: "Value: a producer sets exactly one variant; no variant is an error.
 * number_value cannot carry NaN or Infinity; serializing them is an error."
 *
 * What this module adds to that text, and why:
 *
 * - A JSON object is a plain object: its prototype is Object.prototype (of any realm) or null. Dates, Maps,
 *   Sets, typed arrays, boxed primitives and class instances are refused (rule `json-type`) rather than
 *   guessed at: `JSON.stringify` would change them (`toJSON`, `{}`). So are undefined, functions, symbols and
 *   array holes, which `JSON.stringify` drops or turns into null.
 * - Strings (member names and string values) must be well-formed UTF-16, both ways: a protobuf `string` holds
 *   valid UTF-8, so a lone surrogate cannot be represented and is rejected (rule `utf16`) instead of being
 *   silently replaced by U+FFFD when the message is serialized.
 * - `__proto__`, `constructor` and `prototype` are ordinary member names. Decoding reads only own enumerable
 *   string-keyed properties (`Object.keys`, or `for...in` where that is the same); `fields` is a plain object,
 *   as `create(StructSchema)` of `@bufbuild/protobuf` makes it, and both `fields` and the JSON output get
 *   `__proto__` through `Object.defineProperty`, so no prototype is ever read or replaced. (Being a plain
 *   object, `fields.constructor` reads `Object` when the Struct has no such member: test membership with
 *   `Object.hasOwn`, as with protobuf-es.)
 * - Nesting is limited (default {@link defaultMaxDepth}): every JSON object or array counts one level; a Value
 *   adds nothing beyond its container. The recursion stops at the limit, so `[[[[...` 100,000 levels deep is a
 *   `depth` error, never a stack overflow.
 * - Member order is kept both ways as far as JavaScript objects allow: integer-like names ("1", "42") are
 *   enumerated first in ascending numeric order by every JS engine, in `JSON.parse` results just the same,
 *   so `{"b":1,"2":2}` comes back as `{"2":2,"b":1}`. No JS object can keep that order; a caller who needs it
 *   must keep the JSON text.
 * - Negative zero is kept in the Value (`numberValue: -0`) and in the JSON value; `JSON.stringify(-0)` prints
 *   `0`, so it is the JSON text, not this module, that loses the sign.
 * - `bigint`: the JSON-text parser of this library gives integer literals outside the safe range as `bigint`;
 *   in a Value they are a double like any JSON number, so the `...FromJson` functions round them with
 *   `Number()` (what `JSON.parse` does). On the JS side (`valueFromJs`, `structFromObject`, ...) a `bigint` is
 *   a deliberate exact integer, so it is accepted only if a double holds it exactly; otherwise rule `range`,
 *   rather than a silent change of value.
 *
 * @module
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { ListValue, Struct, Value } from "@bufbuild/protobuf/wkt";
import { basePathOf, errorAtBase } from "../internal/base-path.js";
import { listValueTypeName, structTypeName, valueTypeName } from "../internal/names.js";
import { countOption } from "../internal/options.js";
import { defaultMaxDepth } from "../limits.js";
import {
  listValueFromArrayInternal,
  listValueFromJsonInternal,
  structFromJsonInternal,
  structFromObjectInternal,
  valueFromJsInternal,
  valueFromJsonInternal,
} from "./struct-decode.js";
import { listValueToJsonInternal, structToJsonInternal, valueToJsonInternal } from "./struct-encode.js";
import { stackOverflowToDepth } from "./struct-walk.js";

/**
 * Options of the `...FromJson`, `...FromJs` and `...ToJson` functions of this module (and of `structToObject`,
 * `valueToJs`, `listValueToArray`, which are their `...ToJson` twins).
 */
export interface StructJsonOptions {
  /**
   * Most levels of nesting (JSON objects and arrays) allowed, counting the outermost Struct or ListValue as
   * one. Default {@link defaultMaxDepth} (100).
   */
  maxDepth?: number;
  /**
   * JSON path of the value in the caller's document, such as `"$.meta"`: errors are reported at this path and
   * below it (`$.meta.tags[2]`) instead of at `$`. A string starting with `$`. Default `"$"`.
   */
  path?: string | undefined;
}

/**
 * Decodes a JSON object (as produced by `JSON.parse`) into a google.protobuf.Struct.
 *
 * @throws {WktJsonError} rule `json-type` if `json` is not a plain object or holds something that is not JSON
 *   (undefined, a function, a Date, a class instance, ...); `not-finite` for NaN or ±Infinity; `utf16` for a
 *   member name or string with a lone surrogate; `depth` when nesting exceeds `maxDepth`; `range` for an
 *   invalid `maxDepth` or `path` option. Paths are relative to `$`, or to `options.path` when given.
 * @example
 * structFromJson({ a: [1, null] }).fields.a.kind.case; //=> "listValue"
 * structFromJson({ tags: ["a", "b", NaN] }, { path: "$.meta" }); // throws WktJsonError (rule "not-finite", jsonPath "$.meta.tags[2]")
 */
export function structFromJson(json: unknown, options?: StructJsonOptions): Struct {
  return withOptions(structFromJsonInternal, json, options, structTypeName);
}

/**
 * Encodes a google.protobuf.Struct as a JSON object.
 *
 * @throws {WktJsonError} rule `value-kind` for a Value with no variant set; `not-finite` for a NaN or ±Infinity
 *   number_value; `utf16` for a lone surrogate; `json-type` for a variant holding the wrong JS type; `depth`
 *   when nesting exceeds `maxDepth`; `range` for an invalid `maxDepth` or `path` option. Paths are relative to
 *   `$`, or to `options.path` when given.
 * @example
 * structToJson(structFromJson({ a: 1, b: "x" })); //=> { a: 1, b: "x" }
 * structToJson({ $typeName: "google.protobuf.Struct", fields: { n: { $typeName: "google.protobuf.Value", kind: { case: "numberValue", value: NaN } } } }, { path: "$.meta" });
 * // throws WktJsonError (rule "not-finite", jsonPath "$.meta.n")
 */
export function structToJson(s: Struct, options?: StructJsonOptions): JsonObject {
  return withOptions(structToJsonInternal, s, options, structTypeName);
}

/**
 * Decodes any JSON value into a google.protobuf.Value. A `bigint` (how this library's JSON-text parser gives
 * integers beyond the safe range) becomes the nearest double, as in `JSON.parse`.
 *
 * @throws {WktJsonError} rule `json-type` for anything that is not JSON; `not-finite` for NaN, ±Infinity or a
 *   `bigint` too large for a double; `utf16` for a lone surrogate; `depth` when nesting exceeds `maxDepth`;
 *   `range` for an invalid `maxDepth` or `path` option. Paths are relative to `$`, or to `options.path`.
 * @example
 * valueFromJson(1.5).kind; //=> { case: "numberValue", value: 1.5 }
 * valueFromJson({ when: undefined }, { path: "$.extra" }); // throws WktJsonError (rule "json-type", jsonPath "$.extra.when")
 */
export function valueFromJson(json: unknown, options?: StructJsonOptions): Value {
  return withOptions(valueFromJsonInternal, json, options, valueTypeName);
}

/**
 * Encodes a google.protobuf.Value as the JSON value it holds.
 *
 * @throws {WktJsonError} rule `value-kind` for a Value with no variant set (rule 9); `not-finite` for a NaN or
 *   ±Infinity number_value (rule 9); `utf16`, `json-type`, `depth`, `range`, and paths as for
 *   {@link structToJson}.
 * @example
 * valueToJson(valueFromJson([true, "x"])); //=> [true, "x"]
 * valueToJson({ $typeName: "google.protobuf.Value", kind: { case: undefined } }, { path: "$.extra" }); // throws WktJsonError (rule "value-kind", jsonPath "$.extra")
 */
export function valueToJson(v: Value, options?: StructJsonOptions): JsonValue {
  return withOptions(valueToJsonInternal, v, options, valueTypeName);
}

/**
 * Decodes a JSON array into a google.protobuf.ListValue.
 *
 * @throws {WktJsonError} rule `json-type` if `json` is not an array or holds something that is not JSON;
 *   `not-finite`, `utf16`, `depth`, `range`, and paths as for {@link valueFromJson}.
 * @example
 * listValueFromJson([1, "a"]).values.length; //=> 2
 * listValueFromJson([1, Infinity], { path: "$.scores" }); // throws WktJsonError (rule "not-finite", jsonPath "$.scores[1]")
 */
export function listValueFromJson(json: unknown, options?: StructJsonOptions): ListValue {
  return withOptions(listValueFromJsonInternal, json, options, listValueTypeName);
}

/**
 * Encodes a google.protobuf.ListValue as a JSON array.
 *
 * @throws {WktJsonError} rules `value-kind`, `not-finite`, `utf16`, `json-type`, `depth`, `range`, and paths
 *   as for {@link valueToJson}.
 * @example
 * listValueToJson(listValueFromJson([1, null])); //=> [1, null]
 * listValueToJson({ $typeName: "google.protobuf.ListValue", values: [{ $typeName: "google.protobuf.Value", kind: { case: undefined } }] }, { path: "$.scores" });
 * // throws WktJsonError (rule "value-kind", jsonPath "$.scores[0]")
 */
export function listValueToJson(l: ListValue, options?: StructJsonOptions): JsonValue[] {
  return withOptions(listValueToJsonInternal, l, options, listValueTypeName);
}

/**
 * Converts a plain JS object of JSON-compatible values into a google.protobuf.Struct. Unlike
 * {@link structFromJson}, a `bigint` is accepted only if a double holds it exactly.
 *
 * @throws {WktJsonError} rule `json-type` for a value that is not JSON (undefined, a function, a symbol, a
 *   Date, a Map, a class instance, ...); `range` for a `bigint` a double cannot hold exactly; `not-finite`,
 *   `utf16`, `depth`, `range` for an invalid option, and paths, as for {@link structFromJson}.
 * @example
 * structFromObject({ retries: 3n }).fields.retries.kind; //=> { case: "numberValue", value: 3 }
 * structFromObject({ at: new Date() }, { path: "$.meta" }); // throws WktJsonError (rule "json-type", jsonPath "$.meta.at")
 */
export function structFromObject(obj: object, options?: StructJsonOptions): Struct {
  return withOptions(structFromObjectInternal, obj, options, structTypeName);
}

/**
 * Converts a google.protobuf.Struct into a plain JS object (the same as {@link structToJson}).
 *
 * @throws {WktJsonError} rules as for {@link structToJson}.
 * @example
 * structToObject(structFromObject({ a: [1] })); //=> { a: [1] }
 */
export function structToObject(s: Struct, options?: StructJsonOptions): JsonObject {
  return structToJson(s, options);
}

/**
 * Converts a JS value into a google.protobuf.Value. A `bigint` is accepted only if a double holds it exactly.
 *
 * @throws {WktJsonError} rule `json-type` for a value that is not JSON; `range` for an inexact `bigint`;
 *   `not-finite` for NaN or ±Infinity; `utf16` for a lone surrogate; `depth` when nesting exceeds `maxDepth`;
 *   `range` for an invalid `maxDepth` or `path` option. Paths are relative to `$`, or to `options.path`.
 * @example
 * valueFromJs(2n ** 53n).kind; //=> { case: "numberValue", value: 9007199254740992 }
 * valueFromJs(2n ** 53n + 1n); // throws WktJsonError (rule "range", jsonPath "$")
 * valueFromJs([1n, 2n ** 53n + 1n], { path: "$.ids" }); // throws WktJsonError (rule "range", jsonPath "$.ids[1]")
 */
export function valueFromJs(v: unknown, options?: StructJsonOptions): Value {
  return withOptions(valueFromJsInternal, v, options, valueTypeName);
}

/**
 * Converts a google.protobuf.Value into the plain JS value it holds (the same as {@link valueToJson}).
 *
 * @throws {WktJsonError} rules as for {@link valueToJson}.
 * @example
 * valueToJs(valueFromJs({ x: null })); //=> { x: null }
 */
export function valueToJs(v: Value, options?: StructJsonOptions): JsonValue {
  return valueToJson(v, options);
}

/**
 * Converts a JS array of JSON-compatible values into a google.protobuf.ListValue.
 *
 * @throws {WktJsonError} rule `json-type` if `a` is not an array or holds something that is not JSON; `range`,
 *   `not-finite`, `utf16`, `depth`, and paths as for {@link valueFromJs}.
 * @example
 * listValueFromArray(["a", 1]).values[1].kind; //=> { case: "numberValue", value: 1 }
 * listValueFromArray(["a", undefined], { path: "$.tags" }); // throws WktJsonError (rule "json-type", jsonPath "$.tags[1]")
 */
export function listValueFromArray(a: readonly unknown[], options?: StructJsonOptions): ListValue {
  return withOptions(listValueFromArrayInternal, a, options, listValueTypeName);
}

/**
 * Converts a google.protobuf.ListValue into a plain JS array (the same as {@link listValueToJson}).
 *
 * @throws {WktJsonError} rules as for {@link listValueToJson}.
 * @example
 * listValueToArray(listValueFromArray([true])); //=> [true]
 */
export function listValueToArray(l: ListValue, options?: StructJsonOptions): JsonValue[] {
  return listValueToJson(l, options);
}

/**
 * Runs `walk(value, maxDepth)` with the `maxDepth` of `options` and moves its error under their base path: the
 * options handling of every function above, in one place.
 */
function withOptions<V, R>(
  walk: (value: V, maxDepth: number) => R,
  value: V,
  options: StructJsonOptions | undefined,
  typeName: string,
): R {
  const depth = countOption("maxDepth", options?.maxDepth, defaultMaxDepth);
  const base = basePathOf(options, typeName);
  try {
    return walk(value, depth);
  } catch (e) {
    throw errorAtBase(stackOverflowToDepth(e, typeName), base);
  }
}
