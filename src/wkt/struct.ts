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
import type { ListValue, NullValue, Struct, Value } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { basePathOf, errorAtBase } from "../internal/base-path.js";
import { describe } from "../internal/describe.js";
import { unlimitedBudget, valuesError, type ValueBudget } from "../internal/budget.js";
import { byNameStore, innerWellFormed, noteNumber, setOwnByName } from "../internal/json-value.js";
import { isWellFormed } from "../internal/utf16.js";
import { defaultMaxDepth, formatBound } from "../limits.js";
import { errorAtPath } from "../path.js";

const structType = "google.protobuf.Struct";
const valueType = "google.protobuf.Value";
const listValueType = "google.protobuf.ListValue";

/** google.protobuf.NullValue.NULL_VALUE; a literal, so that this module loads no descriptor at run time. */
const nullValue = 0 as NullValue.NULL_VALUE;

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

// ---------------------------------------------------------------------------------------------------------
// Public API: JSON side
// ---------------------------------------------------------------------------------------------------------

/**
 * Decodes a JSON object (as produced by `JSON.parse`) into a google.protobuf.Struct.
 *
 * @throws {WktJsonError} rule `json-type` if `json` is not a plain object or holds something that is not JSON
 *   (undefined, a function, a Date, a class instance, ...); `not-finite` for NaN or ±Infinity; `utf16` for a
 *   member name or string with a lone surrogate; `depth` when nesting exceeds `maxDepth`; `range` for an
 *   invalid `maxDepth` or `path` option. Paths are relative to `$`, or to `options.path` when given.
 * @example
 * structFromJson({ a: [1, null] }).fields.a.kind.case; //=> "listValue"
 * structFromJson({ tags: ["a", "b", NaN] }, { path: "$.meta" }); // throws WktJsonError (rule "not-finite", path "$.meta.tags[2]")
 */
export function structFromJson(json: unknown, options?: StructJsonOptions): Struct {
  const depth = maxDepthOf(options, structType);
  const base = basePathOf(options, structType);
  try {
    return structFromJsonInternal(json, depth, unlimitedBudget());
  } catch (e) {
    throw errorAtBase(stackOverflowToDepth(e, structType), base);
  }
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
 * // throws WktJsonError (rule "not-finite", path "$.meta.n")
 */
export function structToJson(s: Struct, options?: StructJsonOptions): JsonObject {
  const depth = maxDepthOf(options, structType);
  const base = basePathOf(options, structType);
  try {
    return structToJsonInternal(s, depth);
  } catch (e) {
    throw errorAtBase(stackOverflowToDepth(e, structType), base);
  }
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
 * valueFromJson({ when: undefined }, { path: "$.extra" }); // throws WktJsonError (rule "json-type", path "$.extra.when")
 */
export function valueFromJson(json: unknown, options?: StructJsonOptions): Value {
  const depth = maxDepthOf(options, valueType);
  const base = basePathOf(options, valueType);
  try {
    return valueFromJsonInternal(json, depth, unlimitedBudget());
  } catch (e) {
    throw errorAtBase(stackOverflowToDepth(e, valueType), base);
  }
}

/**
 * Encodes a google.protobuf.Value as the JSON value it holds.
 *
 * @throws {WktJsonError} rule `value-kind` for a Value with no variant set (rule 9); `not-finite` for a NaN or
 *   ±Infinity number_value (rule 9); `utf16`, `json-type`, `depth`, `range`, and paths as for
 *   {@link structToJson}.
 * @example
 * valueToJson(valueFromJson([true, "x"])); //=> [true, "x"]
 * valueToJson({ $typeName: "google.protobuf.Value", kind: { case: undefined } }, { path: "$.extra" }); // throws WktJsonError (rule "value-kind", path "$.extra")
 */
export function valueToJson(v: Value, options?: StructJsonOptions): JsonValue {
  const depth = maxDepthOf(options, valueType);
  const base = basePathOf(options, valueType);
  try {
    return valueToJsonInternal(v, depth);
  } catch (e) {
    throw errorAtBase(stackOverflowToDepth(e, valueType), base);
  }
}

/**
 * Decodes a JSON array into a google.protobuf.ListValue.
 *
 * @throws {WktJsonError} rule `json-type` if `json` is not an array or holds something that is not JSON;
 *   `not-finite`, `utf16`, `depth`, `range`, and paths as for {@link valueFromJson}.
 * @example
 * listValueFromJson([1, "a"]).values.length; //=> 2
 * listValueFromJson([1, Infinity], { path: "$.scores" }); // throws WktJsonError (rule "not-finite", path "$.scores[1]")
 */
export function listValueFromJson(json: unknown, options?: StructJsonOptions): ListValue {
  const depth = maxDepthOf(options, listValueType);
  const base = basePathOf(options, listValueType);
  try {
    return listValueFromJsonInternal(json, depth, unlimitedBudget());
  } catch (e) {
    throw errorAtBase(stackOverflowToDepth(e, listValueType), base);
  }
}

/**
 * Encodes a google.protobuf.ListValue as a JSON array.
 *
 * @throws {WktJsonError} rules `value-kind`, `not-finite`, `utf16`, `json-type`, `depth`, `range`, and paths
 *   as for {@link valueToJson}.
 * @example
 * listValueToJson(listValueFromJson([1, null])); //=> [1, null]
 * listValueToJson({ $typeName: "google.protobuf.ListValue", values: [{ $typeName: "google.protobuf.Value", kind: { case: undefined } }] }, { path: "$.scores" });
 * // throws WktJsonError (rule "value-kind", path "$.scores[0]")
 */
export function listValueToJson(l: ListValue, options?: StructJsonOptions): JsonValue[] {
  const depth = maxDepthOf(options, listValueType);
  const base = basePathOf(options, listValueType);
  try {
    return listValueToJsonInternal(l, depth);
  } catch (e) {
    throw errorAtBase(stackOverflowToDepth(e, listValueType), base);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Public API: plain-JS side
// ---------------------------------------------------------------------------------------------------------

/**
 * Converts a plain JS object of JSON-compatible values into a google.protobuf.Struct. Unlike
 * {@link structFromJson}, a `bigint` is accepted only if a double holds it exactly.
 *
 * @throws {WktJsonError} rule `json-type` for a value that is not JSON (undefined, a function, a symbol, a
 *   Date, a Map, a class instance, ...); `range` for a `bigint` a double cannot hold exactly; `not-finite`,
 *   `utf16`, `depth`, `range` for an invalid option, and paths, as for {@link structFromJson}.
 * @example
 * structFromObject({ retries: 3n }).fields.retries.kind; //=> { case: "numberValue", value: 3 }
 * structFromObject({ at: new Date() }, { path: "$.meta" }); // throws WktJsonError (rule "json-type", path "$.meta.at")
 */
export function structFromObject(obj: object, options?: StructJsonOptions): Struct {
  const depth = maxDepthOf(options, structType);
  const base = basePathOf(options, structType);
  try {
    return structFromRoot(obj, depth, true, unlimitedBudget());
  } catch (e) {
    throw errorAtBase(stackOverflowToDepth(e, structType), base);
  }
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
 * valueFromJs(2n ** 53n + 1n); // throws WktJsonError (rule "range", path "$")
 * valueFromJs([1n, 2n ** 53n + 1n], { path: "$.ids" }); // throws WktJsonError (rule "range", path "$.ids[1]")
 */
export function valueFromJs(v: unknown, options?: StructJsonOptions): Value {
  const depth = maxDepthOf(options, valueType);
  const base = basePathOf(options, valueType);
  try {
    return valueFrom(v, depth, decodeMode(true), unlimitedBudget());
  } catch (e) {
    throw errorAtBase(stackOverflowToDepth(e, valueType), base);
  }
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
 * listValueFromArray(["a", undefined], { path: "$.tags" }); // throws WktJsonError (rule "json-type", path "$.tags[1]")
 */
export function listValueFromArray(a: readonly unknown[], options?: StructJsonOptions): ListValue {
  const depth = maxDepthOf(options, listValueType);
  const base = basePathOf(options, listValueType);
  try {
    if (!Array.isArray(a)) throw jsonTypeError(listValueType, a, "an array");
    return listFrom(a, depth, decodeMode(true), unlimitedBudget());
  } catch (e) {
    throw errorAtBase(stackOverflowToDepth(e, listValueType), base);
  }
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

// ---------------------------------------------------------------------------------------------------------
// Internal entry points for the whole-message codec (src/codec/from-json.ts, src/codec/to-json.ts)
// ---------------------------------------------------------------------------------------------------------

/**
 * Decodes a JSON object into a Struct, allowing `depthLeft` more levels of nesting (the Struct itself takes
 * one; at `depthLeft <= 0` it is a `depth` error). Errors carry paths relative to `json` (`$`, `$.a[2]`); the
 * caller prefixes its own with `errorAtPath`. A stack overflow (only possible with a huge `depthLeft`) is
 * not caught here.
 *
 * @internal
 * @throws {WktJsonError} rules `json-type`, `not-finite`, `utf16`, `depth`; `size` when `budget` runs out.
 * @example
 * structFromJsonInternal({ a: {} }, 1, unlimitedBudget()); // throws WktJsonError (rule "depth", path "$.a")
 */
export function structFromJsonInternal(
  json: unknown,
  depthLeft: number,
  budget: ValueBudget = unlimitedBudget(),
): Struct {
  return structFromRoot(json, depthLeft, false, budget);
}

/**
 * Decodes any JSON value into a Value, allowing `depthLeft` more levels of nesting (a scalar needs none).
 *
 * @internal
 * @throws {WktJsonError} rules `json-type`, `not-finite`, `utf16`, `depth`; `size` when `budget` runs out.
 * @example
 * valueFromJsonInternal("x", 0, unlimitedBudget()).kind; //=> { case: "stringValue", value: "x" }
 */
export function valueFromJsonInternal(
  json: unknown,
  depthLeft: number,
  budget: ValueBudget = unlimitedBudget(),
): Value {
  if ((budget.values += 2) > budget.maxValues) throw valuesError(valueType, budget);
  const mode = decodeMode(false);
  if ((mode & modeFast) === 0) return valueFrom(json, depthLeft, mode, budget);
  const used = budget.values;
  try {
    return valueFromFast(json, depthLeft, mode, budget);
  } catch {
    budget.values = used;
    return valueFrom(json, depthLeft, mode, budget); // throws the first error, with its path (see valueFromFast)
  }
}

/**
 * Decodes a JSON array into a ListValue, allowing `depthLeft` more levels of nesting (the list takes one).
 *
 * @internal
 * @throws {WktJsonError} rules `json-type`, `not-finite`, `utf16`, `depth`; `size` when `budget` runs out.
 * @example
 * listValueFromJsonInternal([[1]], 1, unlimitedBudget()); // throws WktJsonError (rule "depth", path "$[0]")
 */
export function listValueFromJsonInternal(
  json: unknown,
  depthLeft: number,
  budget: ValueBudget = unlimitedBudget(),
): ListValue {
  if (!Array.isArray(json)) throw jsonTypeError(listValueType, json, "a JSON array");
  const mode = decodeMode(false);
  if ((mode & modeFast) === 0) return listFrom(json, depthLeft, mode, budget);
  const used = budget.values;
  try {
    return listFromFast(json, depthLeft, mode, budget);
  } catch {
    budget.values = used;
    return listFrom(json, depthLeft, mode, budget); // throws the first error, with its path (see valueFromFast)
  }
}

/**
 * Encodes a Struct as a JSON object, allowing `depthLeft` more levels of nesting (the Struct takes one).
 * `checked` false (here and in the Value and ListValue encoders) skips the lone-surrogate checks of member
 * names and strings, for a caller that prints the result with `JSON.stringify`, which writes every lone
 * surrogate as a `\udXXX` escape, and looks for those in the text instead (toJsonString).
 *
 * @internal
 * @throws {WktJsonError} rules `value-kind`, `not-finite`, `utf16`, `json-type`, `depth`.
 * @example
 * structToJsonInternal(structFromJson({ a: 1 }), 1); //=> { a: 1 }
 */
export function structToJsonInternal(msg: Struct, depthLeft: number, checked = true): JsonObject {
  const mode = encodeMode(checked);
  if ((mode & encodeFast) === 0) return structTo(msg, depthLeft, mode);
  try {
    return structFastTop(msg, depthLeft, mode);
  } catch {
    return structTo(msg, depthLeft, mode); // throws the first error, with its path (see valueFast)
  }
}

/**
 * Encodes a Value as a JSON value, allowing `depthLeft` more levels of nesting (a scalar needs none).
 *
 * @internal
 * @throws {WktJsonError} rules `value-kind`, `not-finite`, `utf16`, `json-type`, `depth`.
 * @example
 * valueToJsonInternal(valueFromJson(null), 0); //=> null
 */
export function valueToJsonInternal(msg: Value, depthLeft: number, checked = true): JsonValue {
  const mode = encodeMode(checked);
  if ((mode & encodeFast) === 0) return valueTo(msg, depthLeft, mode);
  try {
    return valueFast(msg, depthLeft, mode);
  } catch {
    return valueTo(msg, depthLeft, mode); // throws the first error, with its path (see valueFast)
  }
}

/**
 * Encodes a ListValue as a JSON array, allowing `depthLeft` more levels of nesting (the list takes one).
 *
 * @internal
 * @throws {WktJsonError} rules `value-kind`, `not-finite`, `utf16`, `json-type`, `depth`.
 * @example
 * listValueToJsonInternal(listValueFromJson([1]), 1); //=> [1]
 */
export function listValueToJsonInternal(msg: ListValue, depthLeft: number, checked = true): JsonValue[] {
  const mode = encodeMode(checked);
  if ((mode & encodeFast) === 0) return listTo(msg, depthLeft, mode);
  try {
    return listFast(msg, depthLeft, mode);
  } catch {
    return listTo(msg, depthLeft, mode); // throws the first error, with its path (see valueFast)
  }
}

/** Encoder mode bit: `for...in` may read `fields` objects (see {@link valueTo}). */
const encodeForIn = 1;
/** Encoder mode bit: member names and strings are checked for lone surrogates. */
const encodeChecked = 2;

/**
 * Encoder mode bit: the first try (see {@link valueFast}) may run: `Object.prototype.hasOwnProperty` is the
 * builtin it was when this module loaded, so that it tells own members from inherited ones.
 */
const encodeFast = 4;
const hasOwnPropertyAtLoad = Object.prototype.hasOwnProperty;

function encodeMode(checked: boolean): number {
  return (
    (objectPrototypeIsClean() ? encodeForIn : 0) |
    (checked ? encodeChecked : 0) |
    (Object.prototype.hasOwnProperty === hasOwnPropertyAtLoad ? encodeFast : 0)
  );
}

// ---------------------------------------------------------------------------------------------------------
// Decoding. The happy path allocates only the messages; paths are built by catch-and-rethrow when something
// fails. `mode` carries two bits down the recursion:
// ---------------------------------------------------------------------------------------------------------

/** Plain-JS treatment of bigint (exact only) instead of the JSON one (nearest double). */
const modeJs = 1;
/**
 * Object.prototype has no enumerable property, so `for...in` over an object whose prototype is Object.prototype
 * or null sees exactly its own enumerable members, in `Object.keys` order. `for...in` is much faster in V8
 * (no key array, loads through the enum cache); a polluted Object.prototype falls back to `Object.keys`.
 */
const modeForIn = 2;

/** The decoders' first try may run: Object.prototype.hasOwnProperty is the builtin (see {@link encodeFast}). */
const modeFast = 4;

function decodeMode(js: boolean): number {
  return (
    (js ? modeJs : 0) |
    (objectPrototypeIsClean() ? modeForIn : 0) |
    (Object.prototype.hasOwnProperty === hasOwnPropertyAtLoad ? modeFast : 0)
  );
}

function objectPrototypeIsClean(): boolean {
  for (const _ in Object.prototype) return false;
  return true;
}

/**
 * A Value costs 2 of the `budget` (see JsonReadOptions.maxValues), a Struct or ListValue 1 more: charged by
 * the container (a Struct per member, a ListValue for all its elements at once) or, for a Value at the root, by
 * the caller, so that this function charges nothing itself.
 */
function valueFrom(json: unknown, depthLeft: number, mode: number, budget: ValueBudget): Value {
  // `typeof x === "..."` tests, not `switch (typeof x)`: V8 compiles the tests inline, while the switch calls
  // its Typeof builtin for every value (5% of the time of a wide Struct).
  if (typeof json === "string") {
    if (!isWellFormed(json)) throw utf16Error(valueType, "the string");
    return { $typeName: valueType, kind: { case: "stringValue", value: json } };
  }
  if (typeof json === "number") {
    // NaN - NaN and Infinity - Infinity are NaN; every finite x - x is 0.
    if (json - json !== 0) throw notFiniteError(json);
    return { $typeName: valueType, kind: { case: "numberValue", value: json } };
  }
  if (typeof json === "boolean") return { $typeName: valueType, kind: { case: "boolValue", value: json } };
  if (typeof json === "object") {
    if (json === null) return { $typeName: valueType, kind: { case: "nullValue", value: nullValue } };
    if (Array.isArray(json)) {
      return { $typeName: valueType, kind: { case: "listValue", value: listFrom(json, depthLeft, mode, budget) } };
    }
    const p = Object.getPrototypeOf(json) as object | null;
    if (p === Object.prototype || p === null) {
      return { $typeName: valueType, kind: { case: "structValue", value: structFrom(json, depthLeft, mode, budget) } };
    }
    if (Object.getPrototypeOf(p) === null) {
      // A plain object of another realm, whose Object.prototype may have enumerable members: Object.keys.
      const value = structFrom(json, depthLeft, mode & ~modeForIn, budget);
      return { $typeName: valueType, kind: { case: "structValue", value } };
    }
    throw jsonTypeError(valueType, json, "a JSON value");
  }
  if (typeof json === "bigint") {
    return { $typeName: valueType, kind: { case: "numberValue", value: numberFromBigint(json, mode) } };
  }
  throw jsonTypeError(valueType, json, "a JSON value");
}

function structFromRoot(json: unknown, depthLeft: number, js: boolean, budget: ValueBudget): Struct {
  let mode = decodeMode(js);
  if (typeof json !== "object" || json === null) throw jsonTypeError(structType, json, "a JSON object");
  const p = Object.getPrototypeOf(json) as object | null;
  if (p !== Object.prototype && p !== null) {
    // Arrays, Dates, Maps, class instances are not JSON objects; a plain object of another realm is.
    if (Object.getPrototypeOf(p) !== null) throw jsonTypeError(structType, json, "a JSON object");
    mode &= ~modeForIn;
  }
  if ((mode & modeFast) === 0) return structFrom(json, depthLeft, mode, budget);
  const used = budget.values;
  try {
    return structFromFastTop(json, depthLeft, mode, budget);
  } catch {
    budget.values = used;
    return structFrom(json, depthLeft, mode, budget); // throws the first error, with its path (see valueFromFast)
  }
}

/** Thrown by the decoders' first try when anything is wrong; never escapes this module. */
const retryDecode: unknown = { retry: true };

/**
 * The first try of the decoders (`structFromJson`, `structFromObject` and the `...FromJsonInternal` entry
 * points): the walk of {@link valueFrom} without path bookkeeping or a try/catch per level. At the first thing
 * that is wrong it throws, and the entry point puts the budget back and runs {@link valueFrom}, which throws
 * the first error with its path: the errors are exactly those of that walk. Member names are read with
 * for...in, filtered by hasOwnProperty only when the object's prototype may have enumerable members, and
 * checked once per cache slot as {@link structFast} checks them.
 */
function valueFromFast(json: unknown, depthLeft: number, mode: number, budget: ValueBudget): Value {
  if (typeof json === "string") {
    if (!isWellFormed(json)) throw retryDecode;
    return { $typeName: valueType, kind: { case: "stringValue", value: json } };
  }
  if (typeof json === "number") {
    if (json - json !== 0) throw retryDecode;
    return { $typeName: valueType, kind: { case: "numberValue", value: json } };
  }
  if (typeof json === "boolean") return { $typeName: valueType, kind: { case: "boolValue", value: json } };
  if (typeof json === "object") {
    if (json === null) return { $typeName: valueType, kind: { case: "nullValue", value: nullValue } };
    if (Array.isArray(json)) {
      return { $typeName: valueType, kind: { case: "listValue", value: listFromFast(json, depthLeft, mode, budget) } };
    }
    const p = Object.getPrototypeOf(json) as object | null;
    if (p === Object.prototype || p === null) {
      // for...in sees exactly the own members when Object.prototype has no enumerable one (modeForIn).
      const own = (mode & modeForIn) !== 0;
      return {
        $typeName: valueType,
        kind: { case: "structValue", value: structFromFast(json, depthLeft, mode, budget, own) },
      };
    }
    // A plain object of another realm (whose Object.prototype's own prototype is null), read with a filter.
    if (Object.getPrototypeOf(p) !== null) throw retryDecode;
    return {
      $typeName: valueType,
      kind: { case: "structValue", value: structFromFast(json, depthLeft, mode, budget, false) },
    };
  }
  if (typeof json === "bigint") {
    return { $typeName: valueType, kind: { case: "numberValue", value: numberFromBigint(json, mode) } };
  }
  throw retryDecode;
}

function structFromFast(json: object, depthLeft: number, mode: number, budget: ValueBudget, own: boolean): Struct {
  if (depthLeft <= 0 || (budget.values += 1) > budget.maxValues) throw retryDecode;
  const fields: { [key: string]: Value } = {};
  const obj = json as { [key: string]: unknown };
  const below = depthLeft - 1;
  let i = 0;
  for (const key in obj) {
    // Only for a prototype that may have enumerable members (`own` false). V8 drops this call only while the
    // loop has met nothing but objects with an enum cache; otherwise it is a builtin call per member (4% of the
    // 100 KB Struct's time on Node 24 in a profile; 0.83-0.92 of the time before on Node 24 in a same-process
    // A/B for the 1 KB and 100 KB Structs, unchanged on Node 20).
    if (!own && !Object.prototype.hasOwnProperty.call(obj, key)) continue;
    if ((budget.values += 2) > budget.maxValues) throw retryDecode;
    if (i < 32) {
      const slot = (key.length + 31 * i++) & 255;
      if (checkedNames[slot] !== key) {
        if (!isWellFormed(key)) throw retryDecode;
        if (key.length <= 64) checkedNames[slot] = key;
      }
    } else if (!isWellFormed(key)) throw retryDecode;
    const value = valueFromFast(obj[key], below, mode, budget);
    if (byNameStore(key)) setOwnByName(fields, key, value);
    else fields[key] = value;
  }
  return { $typeName: structType, fields };
}

/**
 * {@link structFromFast} for the outermost Struct, read with `Object.keys` as {@link structFastTop} reads it (a
 * plain object of another realm too). The wide Struct from a JSON value: 5-15% less time (same-process A/B,
 * Node 20 and 24); the flow definitions, with 4 members at the top, unchanged.
 */
function structFromFastTop(json: object, depthLeft: number, mode: number, budget: ValueBudget): Struct {
  if (depthLeft <= 0 || (budget.values += 1) > budget.maxValues) throw retryDecode;
  const obj = json as { [key: string]: unknown };
  const keys = Object.keys(obj);
  const n = keys.length;
  const fields: { [key: string]: Value } = {};
  const below = depthLeft - 1;
  for (let i = 0; i < n; i++) {
    const key = keys[i]!;
    if ((budget.values += 2) > budget.maxValues) throw retryDecode;
    if (!isWellFormed(key)) throw retryDecode;
    const value = valueFromFast(obj[key], below, mode, budget);
    if (byNameStore(key)) setOwnByName(fields, key, value);
    else fields[key] = value;
  }
  return { $typeName: structType, fields };
}

function listFromFast(json: readonly unknown[], depthLeft: number, mode: number, budget: ValueBudget): ListValue {
  const n = json.length;
  if (depthLeft <= 0 || (budget.values += 1 + 2 * n) > budget.maxValues) throw retryDecode;
  const values = new Array<Value>(n); // filled below; much faster than push for long lists
  const below = depthLeft - 1;
  for (let i = 0; i < n; i++) values[i] = valueFromFast(json[i], below, mode, budget);
  return { $typeName: listValueType, values };
}

function structFrom(json: object, depthLeft: number, mode: number, budget: ValueBudget): Struct {
  if (depthLeft <= 0) throw depthError(structType);
  if ((budget.values += 1) > budget.maxValues) throw valuesError(structType, budget);
  // A plain object, as create(StructSchema) makes, so that toEqual holds against @bufbuild/protobuf.
  const fields: { [key: string]: Value } = {};
  const obj = json as { [key: string]: unknown };
  const below = depthLeft - 1;
  let key = "";
  try {
    if ((mode & modeForIn) !== 0) {
      for (key in obj) {
        if ((budget.values += 2) > budget.maxValues) throw valuesError(valueType, budget);
        if (!isWellFormed(key)) throw utf16Error(structType, "the member name");
        const value = valueFrom(obj[key], below, mode, budget);
        if (byNameStore(key)) setOwnByName(fields, key, value);
        else fields[key] = value;
      }
    } else {
      const keys = Object.keys(obj);
      for (let i = 0; i < keys.length; i++) {
        key = keys[i]!;
        if ((budget.values += 2) > budget.maxValues) throw valuesError(valueType, budget);
        if (!isWellFormed(key)) throw utf16Error(structType, "the member name");
        const value = valueFrom(obj[key], below, mode, budget);
        if (byNameStore(key)) setOwnByName(fields, key, value);
        else fields[key] = value;
      }
    }
  } catch (e) {
    throw errorAtPath(e, key);
  }
  return { $typeName: structType, fields };
}

function listFrom(json: readonly unknown[], depthLeft: number, mode: number, budget: ValueBudget): ListValue {
  if (depthLeft <= 0) throw depthError(listValueType);
  const n = json.length;
  if ((budget.values += 1 + 2 * n) > budget.maxValues) throw valuesError(listValueType, budget);
  const values = new Array<Value>(n); // filled below; much faster than push for long lists
  const below = depthLeft - 1;
  let i = 0;
  try {
    for (; i < n; i++) values[i] = valueFrom(json[i], below, mode, budget);
  } catch (e) {
    throw errorAtPath(e, i);
  }
  return { $typeName: listValueType, values };
}

function numberFromBigint(big: bigint, mode: number): number {
  const n = Number(big);
  if ((mode & modeJs) !== 0) {
    // BigInt(n) would throw a RangeError for Infinity, so finiteness goes first.
    if (n - n !== 0 || BigInt(n) !== big) {
      throw new WktJsonError(
        "range",
        "$",
        valueType,
        `${String(big)}n cannot be held exactly by a double (number_value); convert it explicitly`,
      );
    }
    return n;
  }
  if (n - n !== 0) throw notFiniteError(n, `the integer ${String(big)} is too large for a double`);
  return n;
}

// ---------------------------------------------------------------------------------------------------------
// Encoding
// ---------------------------------------------------------------------------------------------------------

/**
 * `mode` bits: {@link encodeForIn}, Object.prototype has no enumerable member (checked once per call), so
 * `for...in` may read a `fields` object whose prototype is Object.prototype or null; {@link encodeChecked},
 * member names and strings are checked for lone surrogates. Errors are built by the helpers at the end of this
 * module, so that these functions stay small enough for V8 to inline into one another.
 */
function valueTo(v: Value, depthLeft: number, mode: number): JsonValue {
  const kind = (v as Partial<Value> | null | undefined)?.kind;
  if (typeof kind !== "object" || kind === null) throw notAMessageError(valueType, v);
  switch (kind.case) {
    case "stringValue": {
      const s = kind.value as unknown;
      if (typeof s !== "string") throw variantTypeError("stringValue", s);
      if ((mode & encodeChecked) !== 0 && !isWellFormed(s)) throw utf16Error(valueType, "string_value");
      return s;
    }
    case "numberValue": {
      const x = kind.value as unknown;
      if (typeof x !== "number") throw variantTypeError("numberValue", x);
      if (x - x !== 0) throw notFiniteError(x);
      return noteNumber(x); // toJsonString keeps the sign of -0
    }
    case "boolValue": {
      const b = kind.value as unknown;
      if (typeof b !== "boolean") throw variantTypeError("boolValue", b);
      return b;
    }
    case "nullValue":
      return null;
    case "structValue":
      return structTo(kind.value, depthLeft, mode);
    case "listValue":
      return listTo(kind.value, depthLeft, mode);
    default:
      throw valueKindError((kind as { case: unknown }).case);
  }
}

function structTo(s: Struct, depthLeft: number, mode: number): JsonObject {
  if (depthLeft <= 0) throw depthError(structType);
  const fields = (s as Partial<Struct> | null | undefined)?.fields;
  if (typeof fields !== "object" || fields === null) throw notAMessageError(structType, s);
  // for-in sees exactly the own enumerable members, in Object.keys order, when the prototype of `fields` is a
  // clean Object.prototype or null; V8 then reads `fields[key]` through the enum cache instead of a megamorphic
  // keyed load. Any other `fields` takes the separate function below, which keeps this one small.
  if ((mode & encodeForIn) === 0) return structToByKeys(fields, depthLeft, mode);
  const p = Object.getPrototypeOf(fields) as object | null;
  if (p !== Object.prototype && p !== null) return structToByKeys(fields, depthLeft, mode);
  const out: JsonObject = {};
  const below = depthLeft - 1;
  let key = "";
  try {
    for (key in fields) {
      if ((mode & encodeChecked) !== 0 && !isWellFormed(key)) throw utf16Error(structType, "the map key");
      const json = valueTo(fields[key]!, below, mode);
      if (byNameStore(key)) setOwnByName(out, key, json);
      else out[key] = json;
    }
  } catch (e) {
    throw errorAtPath(e, key);
  }
  return out;
}

function structToByKeys(fields: Struct["fields"], depthLeft: number, mode: number): JsonObject {
  const out: JsonObject = {};
  const below = depthLeft - 1;
  const keys = Object.keys(fields); // blind to any prototype fields may have
  let key = "";
  try {
    for (let i = 0; i < keys.length; i++) {
      key = keys[i]!;
      if ((mode & encodeChecked) !== 0 && !isWellFormed(key)) throw utf16Error(structType, "the map key");
      const json = valueTo(fields[key]!, below, mode);
      if (byNameStore(key)) setOwnByName(out, key, json);
      else out[key] = json;
    }
  } catch (e) {
    throw errorAtPath(e, key);
  }
  return out;
}

function listTo(l: ListValue, depthLeft: number, mode: number): JsonValue[] {
  if (depthLeft <= 0) throw depthError(listValueType);
  const values = (l as Partial<ListValue> | null | undefined)?.values;
  if (!Array.isArray(values)) throw notAMessageError(listValueType, l);
  const n = values.length;
  const out = new Array<JsonValue>(n); // filled below; twice as fast as push for long lists
  const below = depthLeft - 1;
  let i = 0;
  try {
    for (; i < n; i++) out[i] = valueTo(values[i] as Value, below, mode);
  } catch (e) {
    throw errorAtPath(e, i);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Encoding, first try: no paths, no per-level try/catch
// ---------------------------------------------------------------------------------------------------------

/** Thrown by the first try when anything is wrong; never escapes this module. */
const retry: unknown = { retry: true };

/**
 * The first try of the encoders (the `...ToJsonInternal` entry points): the walk of {@link valueTo} without
 * path bookkeeping. It throws {@link retry} (or lets a TypeError happen, on a Value or Struct that is not an
 * object) at the first thing that is wrong, and the entry point then runs {@link valueTo}, which checks the
 * same things and throws the first error with its path: the errors are exactly those of that walk, and a
 * message that fails costs two walks.
 *
 * What makes it cheaper than that walk, on a 1 KB Struct (the bench's `toJson/struct-1kb`):
 * - Member names are read with `for...in` filtered by `hasOwnProperty.call`, which V8 compiles away when the
 *   object's keys come from its enum cache; that replaces `Object.getPrototypeOf` of every `fields` object,
 *   a call into the C++ runtime, and also holds for a polluted Object.prototype.
 * - A member name equal to one checked before is not checked again ({@link checkedNames}): member names
 *   repeat across the objects of a document. `isWellFormed` is a call into the engine, and on Node 24 each
 *   call also counts a use through the C++ runtime.
 * - No try/catch per level, and no checks that JavaScript makes anyway: reading `kind` of null throws.
 */
function valueFast(v: Value, depthLeft: number, mode: number): JsonValue {
  const kind = v.kind;
  switch (kind.case) {
    case "stringValue": {
      const s = kind.value as unknown;
      if (typeof s !== "string" || ((mode & encodeChecked) !== 0 && !isWellFormed(s))) throw retry;
      return s;
    }
    case "numberValue": {
      const x = kind.value as unknown;
      if (typeof x !== "number" || x - x !== 0) throw retry;
      return noteNumber(x); // toJsonString keeps the sign of -0
    }
    case "boolValue": {
      const b = kind.value as unknown;
      if (typeof b !== "boolean") throw retry;
      return b;
    }
    case "nullValue":
      return null;
    case "structValue":
      return structFast(kind.value, depthLeft, mode);
    case "listValue":
      return listFast(kind.value, depthLeft, mode);
    default:
      throw retry;
  }
}

function structFast(s: Struct, depthLeft: number, mode: number): JsonObject {
  if (depthLeft <= 0) throw retry;
  const fields = s.fields as unknown;
  // for...in over a string or a number would see its characters or nothing.
  if (typeof fields !== "object" || fields === null) throw retry;
  const out: JsonObject = {};
  const below = depthLeft - 1;
  const checked = (mode & encodeChecked) !== 0;
  let i = 0;
  let plain = false;
  for (const key in fields) {
    if (!plain) {
      // Written out, not through a module-level alias: V8 drops the call when it sees the builtin itself and
      // the keys come from the enum cache. A large object has no enum cache (V8 keeps it as a dictionary); there
      // one look at its prototype spares a call per member.
      if (!Object.prototype.hasOwnProperty.call(fields, key)) continue;
      if (++i === 32) plain = (mode & encodeForIn) !== 0 && isPlainPrototype(fields);
    }
    if (checked) {
      if (i < 32) {
        const slot = (key.length + 31 * i) & 255;
        if (checkedNames[slot] !== key) {
          if (!isWellFormed(key)) throw retry;
          if (key.length <= 64) checkedNames[slot] = key;
        }
      } else if (!isWellFormed(key)) throw retry;
    }
    const json = valueFast((fields as Struct["fields"])[key]!, below, mode);
    if (byNameStore(key)) setOwnByName(out, key, json);
    else out[key] = json;
  }
  return out;
}

/**
 * {@link structFast} for the outermost Struct, read with `Object.keys` (own enumerable members, whatever the
 * prototype, so no filter) and a loop of its own, so that V8 keeps separate feedback for it. The outermost
 * Struct is the likeliest to be large (a map of ids, the bench's wide Struct of 1,900 members), and a large
 * object is a dictionary to V8: `for...in` over one collects and sorts its keys as `Object.keys` does, then
 * looks each key up once more (ForInFilter) and needed `hasOwnProperty` for the first members. Same-process
 * A/B (CPU time, ours / protobuf-es): the wide Struct 1.07-1.14 -> 0.99-1.07 on Node 24, 0.97-1.11 ->
 * 0.98-1.05 on Node 20; the 1 KB and 100 KB flow definitions (4 members at the top) unchanged. Names are
 * checked one by one: a join of the 1,900 names and one check cost 36 µs against 9 (Node 20) and 20 (Node 24).
 */
function structFastTop(s: Struct, depthLeft: number, mode: number): JsonObject {
  if (depthLeft <= 0) throw retry;
  const fields = s.fields as unknown;
  if (typeof fields !== "object" || fields === null) throw retry;
  const keys = Object.keys(fields);
  const n = keys.length;
  const out: JsonObject = {};
  const below = depthLeft - 1;
  const checked = (mode & encodeChecked) !== 0;
  for (let i = 0; i < n; i++) {
    const key = keys[i]!;
    if (checked && !isWellFormed(key)) throw retry;
    const json = valueFast((fields as Struct["fields"])[key]!, below, mode);
    if (byNameStore(key)) setOwnByName(out, key, json);
    else out[key] = json;
  }
  return out;
}

function isPlainPrototype(o: object): boolean {
  const p = Object.getPrototypeOf(o) as object | null;
  return p === Object.prototype || p === null;
}

/**
 * Member names known to be well-formed, by their length and position in their object: a name is compared
 * (by reference, for the internalized strings `for...in` gives) before it is checked. A string never changes,
 * so a name found here needs no check. Only names of up to 64 characters are kept, so at most 256 short
 * strings stay alive. In the bench's 1 KB Struct three names in four are found.
 */
const checkedNames: string[] = new Array<string>(256).fill("");

function listFast(l: ListValue, depthLeft: number, mode: number): JsonValue[] {
  if (depthLeft <= 0) throw retry;
  const values = l.values as unknown;
  if (!Array.isArray(values)) throw retry;
  const n = values.length;
  const out = new Array<JsonValue>(n); // filled below; twice as fast as push for long lists
  const below = depthLeft - 1;
  for (let i = 0; i < n; i++) out[i] = valueFast(values[i] as Value, below, mode);
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// Encoding to text (toJsonString)
// ---------------------------------------------------------------------------------------------------------

/**
 * The JSON text of a ListValue or Value message (`list` tells which), as `JSON.stringify` prints what
 * {@link listValueToJsonInternal} or {@link valueToJsonInternal} returns, except that -0 is printed "-0"; or
 * undefined when anything is wrong (a Value without a variant, a number that is not finite, a lone surrogate, a
 * variant of the wrong type, nesting deeper than `depthLeft`, something that is not a message), and then the
 * caller takes the long way, which throws the first error with its path. Also undefined for a Value that holds
 * a Struct, which the long way prints faster (below).
 *
 * Written as the tree is walked, without building it: the walk of {@link valueFast} with the checks of the
 * checked walk (each member name and string is scanned once for both a lone surrogate and characters to
 * escape), so the text needs no search afterwards. Why only for these: `JSON.stringify` is slow on the arrays
 * the walk builds (`new Array(n)`, which V8 marks holey: Node 24 takes its slow path), and a number's text
 * joined here costs less than its trip through the array (the bench's list of 1,000 numbers: 0.92-0.93 ->
 * 0.55-0.56 of protobuf-es's time on Node 20, 1.02-1.04 -> 0.76-0.83 on Node 24; same-process A/B, CPU time).
 * Objects are another matter: `JSON.stringify` prints V8's fast objects quickly, and a long text joined here
 * must still be flattened; the 100 KB flow definition as a Struct took 1.01-1.26 of the long way's time on
 * Node 24 (0.72-0.89 for the 1 KB one and the wide Struct), so a Struct at the root keeps the long way.
 *
 * @internal
 * @example
 * listOrValueTextInternal(true, listValueFromJson([1, "a"]), 100); //=> '[1,"a"]'
 */
export function listOrValueTextInternal(list: boolean, msg: unknown, depthLeft: number): string | undefined {
  if (Object.prototype.hasOwnProperty !== hasOwnPropertyAtLoad) return undefined;
  const forIn = objectPrototypeIsClean();
  try {
    if (list) return listText(msg as ListValue, depthLeft, forIn);
    const v = msg as Value;
    if (v.kind.case === "structValue") return undefined;
    return valueText(v, depthLeft, forIn);
  } catch {
    return undefined;
  }
}

function valueText(v: Value, depthLeft: number, forIn: boolean): string {
  const kind = v.kind;
  switch (kind.case) {
    case "stringValue":
      return '"' + stringText(kind.value) + '"';
    case "numberValue": {
      const x = kind.value as unknown;
      if (typeof x !== "number" || x - x !== 0) throw retry;
      return x === 0 && 1 / x < 0 ? "-0" : "" + x;
    }
    case "boolValue": {
      const b = kind.value as unknown;
      if (typeof b !== "boolean") throw retry;
      return b ? "true" : "false";
    }
    case "nullValue":
      return "null";
    case "structValue":
      return structText(kind.value, depthLeft, forIn);
    case "listValue":
      return listText(kind.value, depthLeft, forIn);
    default:
      throw retry;
  }
}

/** A string value's text without its opening quote (its container writes that with what comes before it). */
function stringText(s: unknown): string {
  if (typeof s !== "string") throw retry;
  const inner = innerWellFormed(s);
  if (inner === undefined) throw retry;
  return inner;
}

/**
 * What opens a member or element, by what came before it: nothing (the opening bracket), a value, or a string
 * value, whose closing quote it writes.
 */
const memberOpen = ['{"', ',"', '","'];
const stringOpen = ['["', ',"', '","'];
const itemOpen = ["[", ",", '",'];

function structText(s: Struct, depthLeft: number, forIn: boolean): string {
  if (depthLeft <= 0) throw retry;
  const fields = s.fields as unknown;
  if (typeof fields !== "object" || fields === null) throw retry;
  const below = depthLeft - 1;
  let out = "";
  let sep = 0;
  let i = 0;
  let plain = false;
  for (const key in fields) {
    if (!plain) {
      if (!Object.prototype.hasOwnProperty.call(fields, key)) continue;
      if (++i === 32) plain = forIn && isPlainPrototype(fields);
    }
    let k: string | undefined = key;
    if (i < 32) {
      const slot = (key.length + 31 * i) & 255;
      if (plainNames[slot] !== key) {
        k = innerWellFormed(key);
        if (k === undefined) throw retry;
        if (k === key && key.length <= 64) plainNames[slot] = key;
      }
    } else {
      k = innerWellFormed(key);
      if (k === undefined) throw retry;
    }
    const v = (fields as Struct["fields"])[key]!;
    const kind = v.kind;
    if (kind.case === "stringValue") {
      out += memberOpen[sep]! + k + '":"' + stringText(kind.value);
      sep = 2;
    } else {
      out += memberOpen[sep]! + k + '":' + valueText(v, below, forIn);
      sep = 1;
    }
  }
  return sep === 1 ? out + "}" : sep === 2 ? out + '"}' : "{}";
}

/** As {@link checkedNames}, for member names that are printed as they are (nothing to escape, no surrogate). */
const plainNames: string[] = new Array<string>(256).fill("");

function listText(l: ListValue, depthLeft: number, forIn: boolean): string {
  if (depthLeft <= 0) throw retry;
  const values = l.values as unknown;
  if (!Array.isArray(values)) throw retry;
  const n = values.length;
  const below = depthLeft - 1;
  let out = "";
  let sep = 0;
  for (let i = 0; i < n; i++) {
    const v = values[i] as Value;
    const kind = v.kind;
    if (kind.case === "stringValue") {
      out += stringOpen[sep]! + stringText(kind.value);
      sep = 2;
    } else {
      out += itemOpen[sep]! + valueText(v, below, forIn);
      sep = 1;
    }
  }
  return sep === 1 ? out + "]" : sep === 2 ? out + '"]' : "[]";
}

// ---------------------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------------------

function maxDepthOf(options: StructJsonOptions | undefined, typeName: string): number {
  const m = options?.maxDepth;
  if (m === undefined) return defaultMaxDepth;
  if (typeof m !== "number" || !(m >= 0) || (m !== Infinity && !Number.isInteger(m))) {
    throw new WktJsonError("range", "$", typeName, `maxDepth must be a non-negative integer, got ${describe(m)}`);
  }
  return m;
}

/**
 * Only a `maxDepth` far above the default can exhaust the call stack; the caller gets the `depth` rule, not a
 * RangeError. The path is lost with the unwound stack, so it is `$`.
 */
function stackOverflowToDepth(e: unknown, typeName: string): unknown {
  if (e instanceof RangeError) {
    return new WktJsonError("depth", "$", typeName, "nesting exhausted the call stack; lower maxDepth", {
      cause: e,
    });
  }
  return e;
}

function depthError(typeName: string): WktJsonError {
  return new WktJsonError(
    "depth",
    "$",
    typeName,
    `nesting exceeds the depth limit (maxDepth, default ${formatBound(defaultMaxDepth)} levels of objects and arrays)`,
  );
}

function utf16Error(typeName: string, what: string): WktJsonError {
  return new WktJsonError("utf16", "$", typeName, `${what} has a lone surrogate, which UTF-8 cannot carry`);
}

function notFiniteError(x: number, detail?: string): WktJsonError {
  return new WktJsonError(
    "not-finite",
    "$",
    valueType,
    detail ?? `number_value cannot be ${String(x)}; only finite numbers are allowed`,
  );
}

function jsonTypeError(typeName: string, got: unknown, expected: string): WktJsonError {
  return new WktJsonError("json-type", "$", typeName, `expected ${expected}, got ${describe(got)}`);
}

function notAMessageError(typeName: string, got: unknown): WktJsonError {
  return new WktJsonError("json-type", "$", typeName, `expected a ${typeName} message, got ${describe(got)}`);
}

function valueKindError(variant: unknown): WktJsonError {
  if (variant === undefined) {
    return new WktJsonError("value-kind", "$", valueType, "no variant is set; a Value must hold exactly one");
  }
  return new WktJsonError("value-kind", "$", valueType, `unknown variant ${JSON.stringify(String(variant))}`);
}

function variantTypeError(variant: string, got: unknown): WktJsonError {
  return new WktJsonError("json-type", "$", valueType, `variant ${variant} holds ${describe(got)}`);
}
