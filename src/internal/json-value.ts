/**
 * Deep, checked copies of JSON values. protobuf-es keeps a `google.protobuf.Struct` field (outside a Value)
 * as a plain `JsonObject`, so reading or writing such a field copies the object: the copy never aliases the
 * caller's data, holds only JSON (finite numbers, well-formed strings, null, booleans, arrays, objects), and
 * keeps `__proto__` as an own data property.
 *
 * @internal
 * @module
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { WktJsonError } from "../errors.js";
import { describe } from "./describe.js";
import { maxDepthError } from "./depth-error.js";
import { errorAtPath } from "../path.js";
import {
  earned,
  jsonArrayCost,
  jsonObjectCost,
  keyedCost,
  unlimitedBudget,
  valuesError,
  type ValueBudget,
} from "./budget.js";
import { isPlainPrototype, prototypeIsClean } from "./objects.js";
import { isWellFormed } from "./utf16.js";
import { notFiniteError } from "./not-finite.js";

/**
 * Whether a -0 was copied or written as a JSON number (a Struct field's value, a google.protobuf.Value's
 * number_value) since {@link negativeZeroTake} last asked. `JSON.stringify` prints -0 as `0`, which reads back
 * as another number, so `toJsonString` asks after writing and then keeps the sign. One comparison per number
 * here costs less than searching the written JSON afterwards.
 */
let negativeZeroSeen = false;

/** Notes a JSON number that may be -0 (see {@link negativeZeroTake}); returns it. */
export function noteNumber(x: number): number {
  if (x === 0 && 1 / x < 0) negativeZeroSeen = true;
  return x;
}

/** Tells whether a -0 was noted since the last call, and forgets it. */
export function negativeZeroTake(): boolean {
  const seen = negativeZeroSeen;
  negativeZeroSeen = false;
  return seen;
}

/** Sets `obj[key]`, as an own data property even for `__proto__` (see {@link setOwnByName}). */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (byNameStore(key)) setOwnByName(obj, key, value);
  else obj[key] = value;
}

/**
 * Whether `obj[key] = value` must leave the store to {@link setOwnByName}: exactly for the names that function
 * lists. A hot loop writes `if (byNameStore(key)) setOwnByName(...) else obj[key] = value` itself rather than
 * calling {@link setOwn}: its keyed store then learns the objects of that loop alone (a loop over large
 * objects, which V8 keeps as dictionaries, stays on the dictionary store). Plain comparisons: a `switch` on the
 * length first cost the wide bench Struct about 9% more (same-process A/B), the comparisons 2-3%.
 */
export function byNameStore(key: string): boolean {
  return (
    key === "next" ||
    key === "length" ||
    key === "then" ||
    key === "resolve" ||
    key === "valueOf" ||
    key === "constructor" ||
    key === "__proto__"
  );
}

/**
 * `obj[key] = value` for `__proto__`, which a store would take for the prototype, and for the names V8 ties to
 * one of its "protectors" (`constructor`, `next`, `resolve`, `then`; newer V8 also `valueOf` and `length`): its
 * generic keyed store sends those to its C++ runtime (`next`: about 45 ns a store instead of 10, Node 20 and 24
 * alike), while a store by name is cached per hidden class like any other. `next` is 7% of the member names of
 * the bench's flow definition. Any other name takes the keyed store.
 */
export function setOwnByName(obj: Record<string, unknown>, key: string, value: unknown): void {
  type Named = {
    next: unknown;
    then: unknown;
    length: unknown;
    resolve: unknown;
    valueOf: unknown;
    constructor: unknown;
  };
  const o = obj as Named;
  switch (key) {
    case "__proto__":
      Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
      return;
    case "next":
      o.next = value;
      return;
    case "then":
      o.then = value;
      return;
    case "length":
      o.length = value;
      return;
    case "resolve":
      o.resolve = value;
      return;
    case "valueOf":
      o.valueOf = value;
      return;
    case "constructor":
      o.constructor = value;
      return;
    default:
      obj[key] = value;
  }
}

/**
 * Copies a JSON object, checking every value. `depthLeft` is the number of object/array levels still
 * allowed, this object included. With a `budget` (the decoder's), each object, array and member is charged
 * what it costs, less what its text earns (see internal/budget.ts), at the points {@link jsonCopyCharge}
 * names.
 */
export function copyJsonObject(json: unknown, depthLeft: number, typeName: string, budget?: ValueBudget): JsonObject {
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new WktJsonError("json-type", "$", typeName, `expected an object, got ${describe(json)}`);
  }
  return copyObject(json as Record<string, unknown>, depthLeft, typeName, budget ?? unlimitedBudget());
}

/**
 * The charges of a copy (each a cost less what the text earns), named for the walks that must charge as
 * {@link copyJsonObject} does (the validator, the decoder's adoption of a parsed tree): an object on entry,
 * past the depth check; each member before its value; an array on entry, past the depth check, for all its
 * elements; a string element, a credit before it is read.
 *
 * @internal
 */
export const jsonCopyCharge = {
  object: (): number => jsonObjectCost,
  member: (key: string, v: unknown, b: ValueBudget): number =>
    keyedCost - b.perCodeUnit * (key.length + earned.member + (typeof v === "string" ? v.length + earned.string : 0)),
  array: (n: number, b: ValueBudget): number => jsonArrayCost(n) - b.perCodeUnit * earned.element * n,
  stringElement: (s: string, b: ValueBudget): number => -b.perCodeUnit * (s.length + earned.string),
};

function copyObject(
  json: Record<string, unknown>,
  depthLeft: number,
  typeName: string,
  budget: ValueBudget,
): JsonObject {
  if (depthLeft <= 0) throw maxDepthError(typeName);
  if ((budget.values += jsonObjectCost) > budget.maxValues) throw valuesError(typeName, budget);
  const out: JsonObject = {};
  const keys = Object.keys(json);
  let key = "";
  try {
    for (let i = 0; i < keys.length; i++) {
      key = keys[i]!;
      const item = json[key];
      if ((budget.values += jsonCopyCharge.member(key, item, budget)) > budget.maxValues) {
        throw valuesError(typeName, budget);
      }
      if (!isWellFormed(key)) {
        throw new WktJsonError("utf16", "$", typeName, "the key has a lone surrogate, which is not valid UTF-8");
      }
      const v = copyValue(item, depthLeft - 1, typeName, budget);
      if (byNameStore(key)) setOwnByName(out, key, v);
      else out[key] = v;
    }
  } catch (e) {
    throw errorAtPath(e, key);
  }
  return out;
}

/**
 * Copies any JSON value; see {@link copyJsonObject}. The value itself is charged to `budget` by its container
 * (or the caller); an array charges its elements at once.
 */
export function copyValue(
  json: unknown,
  depthLeft: number,
  typeName: string,
  budget: ValueBudget = unlimitedBudget(),
): JsonValue {
  switch (typeof json) {
    case "string":
      if (!isWellFormed(json)) {
        throw new WktJsonError("utf16", "$", typeName, "the string has a lone surrogate, which is not valid UTF-8");
      }
      return json;
    case "number":
      if (!Number.isFinite(json)) throw notFiniteError(json);
      return noteNumber(json);
    case "boolean":
      return json;
    case "bigint": {
      // Integer literals outside the safe range, as the JSON text parser keeps them: a JSON number is a double.
      const n = Number(json);
      if (!Number.isFinite(n)) throw notFiniteError(json);
      return n;
    }
    case "object": {
      if (json === null) return null;
      if (Array.isArray(json)) {
        if (depthLeft <= 0) throw maxDepthError(typeName);
        if ((budget.values += jsonCopyCharge.array(json.length, budget)) > budget.maxValues) {
          throw valuesError(typeName, budget);
        }
        const out: JsonValue[] = new Array(json.length);
        let i = 0;
        try {
          for (; i < json.length; i++) {
            const e: unknown = json[i];
            if (typeof e === "string") budget.values += jsonCopyCharge.stringElement(e, budget);
            out[i] = copyValue(e, depthLeft - 1, typeName, budget);
          }
        } catch (e) {
          throw errorAtPath(e, i);
        }
        return out;
      }
      const proto = Object.getPrototypeOf(json);
      if (!isPlainPrototype(proto)) {
        throw new WktJsonError("json-type", "$", typeName, "expected a plain object, got an instance of a class");
      }
      return copyObject(json as Record<string, unknown>, depthLeft, typeName, budget);
    }
  }
  throw new WktJsonError("json-type", "$", typeName, `expected a JSON value, got ${describe(json)}`);
}

/**
 * A string without a character `JSON.stringify` escapes and without surrogates (a lone one cannot be printed).
 * Anchored, with a negated class: V8 runs it as one tight loop, twice as fast as searching for the characters.
 */
const plainString = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;

/**
 * Whether `s` is printed by `JSON.stringify` as itself in quotes and is well-formed: no character to escape and
 * no surrogate at all. One scan for both checks of the usual string (a loop for short ones, see
 * {@link innerWellFormed}); false sends the caller to the full checks.
 */
export function isPlainString(s: string): boolean {
  const n = s.length;
  if (n > 24) return plainString.test(s);
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c > 92 ? c >= 0xd800 && c <= 0xdfff : c < 32 || c === 34 || c === 92) return false;
  }
  return true;
}

/**
 * The inside of `JSON.stringify(s)` (without its quotes), or undefined when `s` has a lone surrogate (which
 * JSON.stringify would print as a `\udXXX` escape, and UTF-8 cannot carry): one scan for both in the usual
 * case, a string with nothing to escape and no surrogate at all. Short strings are scanned by a loop, which
 * costs less than starting the regular expression.
 */
export function innerWellFormed(s: string): string | undefined {
  const n = s.length;
  if (n > 24) {
    if (plainString.test(s)) return s;
  } else {
    let i = 0;
    for (; i < n; i++) {
      const c = s.charCodeAt(i);
      // Letters and most text are above "\\" (92): one comparison more tells them from surrogates.
      if (c > 92 ? c >= 0xd800 && c <= 0xdfff : c < 32 || c === 34 || c === 92) break;
    }
    if (i === n) return s;
  }
  return isWellFormed(s) ? JSON.stringify(s).slice(1, -1) : undefined;
}

/**
 * The text `JSON.stringify` prints for {@link copyJsonObject}`(json, depthLeft, typeName)` (no budget), except
 * that -0 is printed "-0": the same checks, in the same order, with the same errors and paths, but without
 * the copy, each value read once. Objects whose prototype is Object.prototype or null are walked with
 * `for...in` when Object.prototype has no enumerable property: it then sees exactly the own enumerable
 * members, in `Object.keys` order, and V8 reads each through the enum cache instead of a megamorphic keyed
 * load (a quarter of the time of a 600-byte object). Any other object is walked by `Object.keys`.
 *
 * Joining strings is most of the cost, so each member is one concatenation of few pieces: the separator and
 * the opening quote of the key, the key, `":`, and the value; a string value's closing quote goes into the
 * next separator (`","`) or the closing bracket.
 */
export function jsonObjectText(json: unknown, depthLeft: number, typeName: string): string {
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new WktJsonError("json-type", "$", typeName, `expected an object, got ${describe(json)}`);
  }
  const forIn = prototypeIsClean();
  return objectText(
    json as Record<string, unknown>,
    depthLeft,
    typeName,
    forIn,
    forIn ? Object.getPrototypeOf(json) : undefined,
  );
}

/** What goes before a member or element: first, after a value, after a string value (closing it). */
const sepFirst = 0;
const sepAfter = 1;
const sepAfterString = 2;
/**
 * By separator: what opens a key. The first one opens the object too: the text starts as "", which V8 joins
 * to a string without making a node of the tree toJsonString flattens at the end.
 */
const keyOpen = ['{"', ',"', '","'];
/** By separator: what opens a string element (the first one opening the array). */
const stringOpen = ['["', ',"', '","'];
/** By separator: what goes before an element that is not a string. */
const itemOpen = ["[", ",", '",'];

/** `proto` is the object's prototype, when `forIn` (its caller has read it: one runtime call per object). */
function objectText(
  json: Record<string, unknown>,
  depthLeft: number,
  typeName: string,
  forIn: boolean,
  proto: unknown,
): string {
  if (depthLeft <= 0) throw maxDepthError(typeName);
  let out = "";
  let sep = sepFirst;
  let key = "";
  try {
    if (forIn && isPlainPrototype(proto)) {
      for (key in json) {
        const k = innerWellFormed(key);
        if (k === undefined) throw keyError(typeName);
        const v = json[key];
        if (typeof v === "string") {
          out += keyOpen[sep]! + k + '":"' + stringInner(v, typeName);
          sep = sepAfterString;
        } else {
          out += keyOpen[sep]! + k + '":' + valueText(v, depthLeft - 1, typeName, forIn);
          sep = sepAfter;
        }
      }
    } else {
      const keys = Object.keys(json);
      for (let i = 0; i < keys.length; i++) {
        key = keys[i]!;
        const k = innerWellFormed(key);
        if (k === undefined) throw keyError(typeName);
        const v = json[key];
        if (typeof v === "string") {
          out += keyOpen[sep]! + k + '":"' + stringInner(v, typeName);
          sep = sepAfterString;
        } else {
          out += keyOpen[sep]! + k + '":' + valueText(v, depthLeft - 1, typeName, forIn);
          sep = sepAfter;
        }
      }
    }
  } catch (e) {
    throw errorAtPath(e, key);
  }
  return sep === sepAfter ? out + "}" : sep === sepAfterString ? out + '"}' : "{}";
}

function keyError(typeName: string): WktJsonError {
  return new WktJsonError("utf16", "$", typeName, "the key has a lone surrogate, which is not valid UTF-8");
}

/** The inside of a string value's text, as {@link copyValue} checks it. */
function stringInner(s: string, typeName: string): string {
  const inner = innerWellFormed(s);
  if (inner === undefined)
    throw new WktJsonError("utf16", "$", typeName, "the string has a lone surrogate, which is not valid UTF-8");
  return inner;
}

/**
 * The text of any JSON value but a string (strings are printed by their container), as {@link copyValue}
 * checks it and JSON.stringify prints the copy (-0 as "-0").
 */
function valueText(json: unknown, depthLeft: number, typeName: string, forIn: boolean): string {
  if (typeof json === "number") {
    if (json - json !== 0) throw notFiniteError(json);
    return json === 0 && 1 / json < 0 ? "-0" : "" + json;
  }
  if (typeof json === "boolean") return json ? "true" : "false";
  if (typeof json === "object") {
    if (json === null) return "null";
    if (Array.isArray(json)) return arrayText(json, depthLeft, typeName, forIn);
    const proto = Object.getPrototypeOf(json) as unknown;
    if (!isPlainPrototype(proto)) {
      throw new WktJsonError("json-type", "$", typeName, "expected a plain object, got an instance of a class");
    }
    return objectText(json as Record<string, unknown>, depthLeft, typeName, forIn, proto);
  }
  if (typeof json === "bigint") {
    const n = Number(json);
    if (!Number.isFinite(n)) throw notFiniteError(json);
    return "" + n;
  }
  if (typeof json === "string") return '"' + stringInner(json, typeName) + '"';
  throw new WktJsonError("json-type", "$", typeName, `expected a JSON value, got ${describe(json)}`);
}

function arrayText(json: readonly unknown[], depthLeft: number, typeName: string, forIn: boolean): string {
  if (depthLeft <= 0) throw maxDepthError(typeName);
  const n = json.length;
  let out = "";
  let sep = sepFirst;
  let i = 0;
  try {
    for (; i < n; i++) {
      const v = json[i];
      if (typeof v === "string") {
        out += stringOpen[sep]! + stringInner(v, typeName); // the separator and the opening quote
        sep = sepAfterString;
      } else {
        out += itemOpen[sep]! + valueText(v, depthLeft - 1, typeName, forIn);
        sep = sepAfter;
      }
    }
  } catch (e) {
    throw errorAtPath(e, i);
  }
  return sep === sepAfter ? out + "]" : sep === sepAfterString ? out + '"]' : "[]";
}
