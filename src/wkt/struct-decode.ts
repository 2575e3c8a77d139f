/**
 * The Struct, Value and ListValue decoders: from a JSON value (`...FromJson`, the codec) or a plain-JS value
 * (`...FromObject`, `valueFromJs`, `listValueFromArray`), each a first try without paths (`valueFromFast`)
 * and the walk that owns every error and its path (`valueFrom`).
 *
 * The happy path allocates only the messages; paths are built by catch-and-rethrow when something fails.
 * `mode` carries three bits down the recursion: `modeJs`, `modeForIn`, `modeFast`.
 *
 * @internal
 * @module
 */
import type { ListValue, NullValue, Struct, Value } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import {
  earned,
  keyedCost,
  listValueCost,
  structCost,
  unlimitedBudget,
  valueCost,
  valuesError,
  type ValueBudget,
} from "../internal/budget.js";
import { byNameStore, setOwnByName } from "../internal/json-value.js";
import { listValueTypeName, structTypeName, valueTypeName } from "../internal/names.js";
import { isOtherRealmPlainPrototype, isPlainPrototype, prototypeIsClean } from "../internal/objects.js";
import { isWellFormed } from "../internal/utf16.js";
import { errorAtPath } from "../path.js";
import { maxDepthError } from "../internal/depth-error.js";
import { checkedNames, hasOwnPropertyIsBuiltin, jsonTypeError, utf16Error } from "./struct-walk.js";
import { notFiniteError } from "../internal/not-finite.js";

/** google.protobuf.NullValue.NULL_VALUE; a literal, so that this module loads no descriptor at run time. */
const nullValue = 0 as NullValue.NULL_VALUE;

/**
 * Decodes a JSON object into a Struct, allowing `depthLeft` more levels of nesting (the Struct itself takes
 * one; at `depthLeft <= 0` it is a `depth` error). Errors carry paths relative to `json` (`$`, `$.a[2]`); the
 * caller prefixes its own with `errorAtPath`. A stack overflow (only possible with a huge `depthLeft`) is
 * not caught here.
 *
 * @internal
 * @throws {WktJsonError} rules `json-type`, `not-finite`, `utf16`, `depth`; `size` when `budget` runs out.
 * @example
 * structFromJsonInternal({ a: {} }, 1, unlimitedBudget()); // throws WktJsonError (rule "depth", jsonPath "$.a")
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
  if ((budget.values += valueCost) > budget.maxValues) throw valuesError(valueTypeName, budget);
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
 * listValueFromJsonInternal([[1]], 1, unlimitedBudget()); // throws WktJsonError (rule "depth", jsonPath "$[0]")
 */
export function listValueFromJsonInternal(
  json: unknown,
  depthLeft: number,
  budget: ValueBudget = unlimitedBudget(),
): ListValue {
  if (!Array.isArray(json)) throw jsonTypeError(listValueTypeName, json, "a JSON array");
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
 * Decodes a plain-JS object into a Struct (`structFromObject`): a bigint must be exact as a double.
 *
 * @internal
 * @throws {WktJsonError} rules `json-type`, `not-finite`, `utf16`, `depth`, `range` (an inexact bigint).
 * @example
 * structFromObjectInternal({ n: 1n }, 100).fields.n.kind; //=> { case: "numberValue", value: 1 }
 */
export function structFromObjectInternal(obj: object, depthLeft: number): Struct {
  return structFromRoot(obj, depthLeft, true, unlimitedBudget());
}

/**
 * Decodes any plain-JS value into a Value (`valueFromJs`); see {@link structFromObjectInternal}.
 *
 * @internal
 * @throws {WktJsonError} rules `json-type`, `not-finite`, `utf16`, `depth`, `range` (an inexact bigint).
 * @example
 * valueFromJsInternal(null, 100).kind.case; //=> "nullValue"
 */
export function valueFromJsInternal(v: unknown, depthLeft: number): Value {
  return valueFrom(v, depthLeft, decodeMode(true), unlimitedBudget());
}

/**
 * Decodes a plain-JS array into a ListValue (`listValueFromArray`); see {@link structFromObjectInternal}.
 *
 * @internal
 * @throws {WktJsonError} rules `json-type`, `not-finite`, `utf16`, `depth`, `range` (an inexact bigint).
 * @example
 * listValueFromArrayInternal([1], 100).values.length; //=> 1
 */
export function listValueFromArrayInternal(a: readonly unknown[], depthLeft: number): ListValue {
  if (!Array.isArray(a)) throw jsonTypeError(listValueTypeName, a, "an array");
  return listFrom(a, depthLeft, decodeMode(true), unlimitedBudget());
}

/** Plain-JS treatment of bigint (exact only) instead of the JSON one (nearest double). */
const modeJs = 1;
/**
 * Object.prototype has no enumerable property, so `for...in` over an object whose prototype is Object.prototype
 * or null sees exactly its own enumerable members, in `Object.keys` order. `for...in` is much faster in V8
 * (no key array, loads through the enum cache); a polluted Object.prototype falls back to `Object.keys`.
 */
const modeForIn = 2;

/** The decoders' first try may run: `Object.prototype.hasOwnProperty` is the builtin. */
const modeFast = 4;

/** The decoders' `mode` for a call: the bits of JS or JSON input and of the prototype checks made now. */
function decodeMode(js: boolean): number {
  return (js ? modeJs : 0) | (prototypeIsClean() ? modeForIn : 0) | (hasOwnPropertyIsBuiltin() ? modeFast : 0);
}

/**
 * What the `budget` (see JsonReadOptions.maxValues) is charged: a Value by its container (a Struct per member,
 * with the member, less what its key earns; a ListValue for all its elements at once, less what they earn) or,
 * for a Value at the root, by the caller; a string earns its length here. {@link structCharges} names them.
 */
function valueFrom(json: unknown, depthLeft: number, mode: number, budget: ValueBudget): Value {
  // `typeof x === "..."` tests, not `switch (typeof x)`: V8 compiles the tests inline, while the switch calls
  // its Typeof builtin for every value (5% of the time of a wide Struct).
  if (typeof json === "string") {
    if (!isWellFormed(json)) throw utf16Error(valueTypeName, "the string");
    budget.values -= budget.perCodeUnit * (json.length + earned.string);
    return { $typeName: valueTypeName, kind: { case: "stringValue", value: json } };
  }
  if (typeof json === "number") {
    // NaN - NaN and Infinity - Infinity are NaN; every finite x - x is 0.
    if (json - json !== 0) throw notFiniteError(json);
    return { $typeName: valueTypeName, kind: { case: "numberValue", value: json } };
  }
  if (typeof json === "boolean") return { $typeName: valueTypeName, kind: { case: "boolValue", value: json } };
  if (typeof json === "object") {
    if (json === null) return { $typeName: valueTypeName, kind: { case: "nullValue", value: nullValue } };
    if (Array.isArray(json)) {
      return { $typeName: valueTypeName, kind: { case: "listValue", value: listFrom(json, depthLeft, mode, budget) } };
    }
    const p = Object.getPrototypeOf(json) as object | null;
    if (isPlainPrototype(p)) {
      return {
        $typeName: valueTypeName,
        kind: { case: "structValue", value: structFrom(json, depthLeft, mode, budget) },
      };
    }
    if (isOtherRealmPlainPrototype(p)) {
      // A plain object of another realm, whose Object.prototype may have enumerable members: Object.keys.
      const value = structFrom(json, depthLeft, mode & ~modeForIn, budget);
      return { $typeName: valueTypeName, kind: { case: "structValue", value } };
    }
    throw jsonTypeError(valueTypeName, json, "a JSON value");
  }
  if (typeof json === "bigint") {
    return { $typeName: valueTypeName, kind: { case: "numberValue", value: numberFromBigint(json, mode) } };
  }
  throw jsonTypeError(valueTypeName, json, "a JSON value");
}

/** Decodes the outermost Struct: the first try, then on any problem the walk that reports it. */
function structFromRoot(json: unknown, depthLeft: number, js: boolean, budget: ValueBudget): Struct {
  let mode = decodeMode(js);
  if (typeof json !== "object" || json === null) throw jsonTypeError(structTypeName, json, "a JSON object");
  const p = Object.getPrototypeOf(json) as object | null;
  if (!isPlainPrototype(p)) {
    // Arrays, Dates, Maps, class instances are not JSON objects; a plain object of another realm is.
    if (!isOtherRealmPlainPrototype(p)) throw jsonTypeError(structTypeName, json, "a JSON object");
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
 * points): the walk of `valueFrom` without path bookkeeping or a try/catch per level. At the first thing
 * that is wrong it throws, and the entry point puts the budget back and runs `valueFrom`, which throws
 * the first error with its path: the errors are exactly those of that walk. Member names are read with
 * for...in, filtered by hasOwnProperty only when the object's prototype may have enumerable members, and
 * checked once per cache slot as `structFast` (struct-encode.ts) checks them.
 */
function valueFromFast(json: unknown, depthLeft: number, mode: number, budget: ValueBudget): Value {
  if (typeof json === "string") {
    if (!isWellFormed(json)) throw retryDecode;
    budget.values -= budget.perCodeUnit * (json.length + earned.string);
    return { $typeName: valueTypeName, kind: { case: "stringValue", value: json } };
  }
  if (typeof json === "number") {
    if (json - json !== 0) throw retryDecode;
    return { $typeName: valueTypeName, kind: { case: "numberValue", value: json } };
  }
  if (typeof json === "boolean") return { $typeName: valueTypeName, kind: { case: "boolValue", value: json } };
  if (typeof json === "object") {
    if (json === null) return { $typeName: valueTypeName, kind: { case: "nullValue", value: nullValue } };
    if (Array.isArray(json)) {
      return {
        $typeName: valueTypeName,
        kind: { case: "listValue", value: listFromFast(json, depthLeft, mode, budget) },
      };
    }
    const p = Object.getPrototypeOf(json) as object | null;
    if (isPlainPrototype(p)) {
      // for...in sees exactly the own members when Object.prototype has no enumerable one (modeForIn).
      const own = (mode & modeForIn) !== 0;
      return {
        $typeName: valueTypeName,
        kind: { case: "structValue", value: structFromFast(json, depthLeft, mode, budget, own) },
      };
    }
    // A plain object of another realm (whose Object.prototype's own prototype is null), read with a filter.
    if (!isOtherRealmPlainPrototype(p)) throw retryDecode;
    return {
      $typeName: valueTypeName,
      kind: { case: "structValue", value: structFromFast(json, depthLeft, mode, budget, false) },
    };
  }
  if (typeof json === "bigint") {
    return { $typeName: valueTypeName, kind: { case: "numberValue", value: numberFromBigint(json, mode) } };
  }
  throw retryDecode;
}

function structFromFast(json: object, depthLeft: number, mode: number, budget: ValueBudget, own: boolean): Struct {
  if (depthLeft <= 0 || (budget.values += structCost) > budget.maxValues) throw retryDecode;
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
    if ((budget.values += structMemberCharge(key, budget)) > budget.maxValues) throw retryDecode;
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
  return { $typeName: structTypeName, fields };
}

/**
 * `structFromFast` for the outermost Struct, read with `Object.keys` as `structFastTop` (struct-encode.ts)
 * reads it (a plain object of another realm too). The wide Struct from a JSON value: 5-15% less time
 * (same-process A/B, Node 20 and 24); the flow definitions, with 4 members at the top, unchanged.
 */
function structFromFastTop(json: object, depthLeft: number, mode: number, budget: ValueBudget): Struct {
  if (depthLeft <= 0 || (budget.values += structCost) > budget.maxValues) throw retryDecode;
  const obj = json as { [key: string]: unknown };
  const keys = Object.keys(obj);
  const n = keys.length;
  const fields: { [key: string]: Value } = {};
  const below = depthLeft - 1;
  for (let i = 0; i < n; i++) {
    const key = keys[i]!;
    if ((budget.values += structMemberCharge(key, budget)) > budget.maxValues) throw retryDecode;
    if (!isWellFormed(key)) throw retryDecode;
    const value = valueFromFast(obj[key], below, mode, budget);
    if (byNameStore(key)) setOwnByName(fields, key, value);
    else fields[key] = value;
  }
  return { $typeName: structTypeName, fields };
}

function listFromFast(json: readonly unknown[], depthLeft: number, mode: number, budget: ValueBudget): ListValue {
  const n = json.length;
  if (depthLeft <= 0 || (budget.values += listCharge(n, budget)) > budget.maxValues) throw retryDecode;
  const values = new Array<Value>(n); // filled below; much faster than push for long lists
  const below = depthLeft - 1;
  for (let i = 0; i < n; i++) values[i] = valueFromFast(json[i], below, mode, budget);
  return { $typeName: listValueTypeName, values };
}

function structFrom(json: object, depthLeft: number, mode: number, budget: ValueBudget): Struct {
  if (depthLeft <= 0) throw maxDepthError(structTypeName);
  if ((budget.values += structCost) > budget.maxValues) throw valuesError(structTypeName, budget);
  // A plain object, as create(StructSchema) makes, so that toEqual holds against @bufbuild/protobuf.
  const fields: { [key: string]: Value } = {};
  const obj = json as { [key: string]: unknown };
  const below = depthLeft - 1;
  let key = "";
  try {
    if ((mode & modeForIn) !== 0) {
      for (key in obj) {
        if ((budget.values += structMemberCharge(key, budget)) > budget.maxValues) {
          throw valuesError(valueTypeName, budget);
        }
        if (!isWellFormed(key)) throw utf16Error(structTypeName, "the member name");
        const value = valueFrom(obj[key], below, mode, budget);
        if (byNameStore(key)) setOwnByName(fields, key, value);
        else fields[key] = value;
      }
    } else {
      const keys = Object.keys(obj);
      for (let i = 0; i < keys.length; i++) {
        key = keys[i]!;
        if ((budget.values += structMemberCharge(key, budget)) > budget.maxValues) {
          throw valuesError(valueTypeName, budget);
        }
        if (!isWellFormed(key)) throw utf16Error(structTypeName, "the member name");
        const value = valueFrom(obj[key], below, mode, budget);
        if (byNameStore(key)) setOwnByName(fields, key, value);
        else fields[key] = value;
      }
    }
  } catch (e) {
    throw errorAtPath(e, key);
  }
  return { $typeName: structTypeName, fields };
}

/** Decodes a ListValue; owns its errors and their paths (`$[2]`). */
function listFrom(json: readonly unknown[], depthLeft: number, mode: number, budget: ValueBudget): ListValue {
  if (depthLeft <= 0) throw maxDepthError(listValueTypeName);
  const n = json.length;
  if ((budget.values += listCharge(n, budget)) > budget.maxValues) throw valuesError(listValueTypeName, budget);
  const values = new Array<Value>(n); // filled below; much faster than push for long lists
  const below = depthLeft - 1;
  let i = 0;
  try {
    for (; i < n; i++) values[i] = valueFrom(json[i], below, mode, budget);
  } catch (e) {
    throw errorAtPath(e, i);
  }
  return { $typeName: listValueTypeName, values };
}

/**
 * What a Struct member costs of the budget: its entry and its Value, less what its key earns (see
 * internal/budget.ts). The readers of Struct's JSON charge it before the member's value (a string value then
 * earns its length); the collect-all validator and the text fast path (codec/struct-text.ts) charge the same.
 *
 * @internal
 */
export function structMemberCharge(key: string, budget: ValueBudget): number {
  return keyedCost + valueCost - budget.perCodeUnit * (key.length + earned.member);
}

/**
 * What a ListValue of `n` elements costs of the budget: the list, and a Value for each, less what the elements
 * earn (a string apart, which earns its length when it is read). Charged on entry, for all its elements.
 *
 * @internal
 */
export function listCharge(n: number, budget: ValueBudget): number {
  return listValueCost(n) + n * (valueCost - budget.perCodeUnit * earned.element);
}

function numberFromBigint(big: bigint, mode: number): number {
  const n = Number(big);
  if ((mode & modeJs) !== 0) {
    // BigInt(n) would throw a RangeError for Infinity, so finiteness goes first.
    if (n - n !== 0 || BigInt(n) !== big) {
      throw new WktJsonError(
        "range",
        "$",
        valueTypeName,
        `${String(big)}n cannot be held exactly by a double (number_value); convert it explicitly`,
      );
    }
    return n;
  }
  if (n - n !== 0) throw notFiniteError(big);
  return n;
}
