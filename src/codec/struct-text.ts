/**
 * The fast path of `fromJsonString` for google.protobuf.Struct, Value and ListValue: one walk over the tree
 * `JSON.parse` builds, which checks what the long way checks and turns the tree into the messages in place.
 *
 * The long way (`parseJsonText`, then the Struct reader of struct.ts) walks the text or the tree three times
 * and keeps two trees alive at once. Here, for a text that decodes without error:
 *
 * - `JSON.parse` checks the grammar and builds the tree.
 * - One walk checks nesting against `maxDepth` (each object and array one level, as the Struct reader counts),
 *   that every number is finite (a literal too large for a double parses to ±Infinity), and counts the keys.
 *   It replaces every member value and array element with its Value as it goes, so the objects of the tree
 *   become the `fields` of the Structs and its arrays the `values` of the ListValues (but for arrays that
 *   start with a number, see {@link listIn}): no second tree, no second set of keys.
 * - Member names and strings are well-formed UTF-16 if the text is and holds no `\u` escape of a surrogate
 *   (a parsed string is made of text characters and escapes; a surrogate pair of the text is never split by
 *   a quote), so one native check of the text replaces one per string; otherwise each string is checked.
 * - {@link textKeptEveryMember} proves that no key was repeated (`JSON.parse` keeps the last silently).
 *
 * Numbers beyond 2^53 need nothing: the long way makes such an integer literal an exact `bigint` and the
 * Value reader rounds it with `Number()`, which gives the double nearest the literal's exact value, the very
 * double `JSON.parse` gives (both round correctly to nearest, ties to even).
 *
 * Anything else (a text `JSON.parse` rejects, a repeated key, too deep, a lone surrogate, a number out of
 * range, the wrong JSON type at the root, a polluted `Object.prototype`, a stack overflow) makes it return
 * undefined, and the caller takes the long way, which then builds the one error it always built. So both ways
 * return the same messages and the errors come from one place; test/property/struct-text.prop.ts checks it.
 *
 * @internal
 * @module
 */
import type { ListValue, NullValue, Struct, Value } from "@bufbuild/protobuf/wkt";
import { byNameStore, setOwnByName } from "../internal/json-value.js";
import { textKeptEveryMember } from "./json-text.js";
import { earned, structCost, valueCost, type ValueBudget } from "../internal/budget.js";
import { listCharge, structMemberCharge } from "../wkt/struct-decode.js";
import { listValueTypeName, structTypeName, valueTypeName } from "../internal/names.js";
import { prototypeIsClean } from "../internal/objects.js";
import { isWellFormed } from "../internal/utf16.js";

/** google.protobuf.NullValue.NULL_VALUE. */
const nullValue = 0 as NullValue.NULL_VALUE;

/** Thrown inside the walk to give up; caught at its top. */
const bail = new Error("struct-text: take the long way");

/** Keys seen by the walk. */
let keysSeen = 0;
/** Whether strings must be checked one by one (the text may hold a lone surrogate). */
let checkStrings = true;

/**
 * Decodes a JSON text into a Struct, Value or ListValue (by `typeName`) in one walk over `JSON.parse`'s tree,
 * allowing `maxDepth` levels of objects and arrays and `maxValues` of the decoder's budget, which earns
 * `perCodeUnit` per code unit of text as the decoder's does (see JsonReadOptions.maxValues). Returns undefined,
 * having thrown nothing, when the text is
 * not one that decodes without error, or when it cannot tell; the caller then takes the long way, which
 * decides and builds the error.
 *
 * @internal
 * @example
 * structFamilyFromText("google.protobuf.ListValue", "[1]", 100)?.values[0].kind; //=> { case: "numberValue", value: 1 }
 * structFamilyFromText("google.protobuf.Struct", '{"a": 1, "a": 2}', 100); //=> undefined
 */
export function structFamilyFromText(
  typeName: string,
  text: string,
  maxDepth: number,
  maxValues = Infinity,
  perCodeUnit = 0,
): Struct | Value | ListValue | undefined {
  if (typeof text !== "string" || !prototypeIsClean()) return undefined;
  let tree: unknown;
  try {
    tree = JSON.parse(text);
  } catch {
    return undefined;
  }
  checkStrings = !textHasNoLoneSurrogate(text);
  keysSeen = 0;
  valuesLeft = maxValues;
  rate.perCodeUnit = perCodeUnit;
  let out: Struct | Value | ListValue;
  try {
    if (typeName === structTypeName) {
      if (typeof tree !== "object" || tree === null || Array.isArray(tree)) return undefined;
      out = rootStructIn(tree as Record<string, unknown>, maxDepth);
    } else if (typeName === listValueTypeName) {
      if (!Array.isArray(tree)) return undefined;
      out = rootListIn(tree, maxDepth);
    } else if (typeName === valueTypeName) {
      if ((valuesLeft -= valueCost) < 0) return undefined;
      out = valueIn(tree, maxDepth);
    } else {
      return undefined;
    }
  } catch {
    // `bail`, or a stack overflow with a huge maxDepth.
    return undefined;
  }
  return textKeptEveryMember(text, keysSeen) ? out : undefined;
}

/**
 * Tells whether no string `JSON.parse` makes of `text` can hold a lone surrogate: the text is well-formed and
 * has no `\u` escape of a surrogate (`\uD800` to `\uDFFF`, either case). Conservative: `\\uD800` (an escaped
 * backslash) also counts as an escape.
 */
function textHasNoLoneSurrogate(text: string): boolean {
  if (!isWellFormed(text)) return false;
  for (let i = text.indexOf("\\u"); i >= 0; i = text.indexOf("\\u", i + 2)) {
    const c = text.charCodeAt(i + 2) | 0x20; // lower case
    if (c === 100 /* d */) {
      const d = text.charCodeAt(i + 3) | 0x20;
      if ((d >= 56 && d <= 57) /* 8 9 */ || (d >= 97 && d <= 102) /* a-f */) return false;
    }
  }
  return true;
}

/**
 * What is left of the budget (`maxValues`), charged and earned at the points where struct-decode.ts charges and
 * earns it (so that no prefix of the walk is past it where the long way's is not); past it the fast path gives
 * up and the long way reports the error.
 */
let valuesLeft = Infinity;
/** The call's rate of credit per code unit (its budget's), as struct-decode.ts's charges read it. */
const rate: { -readonly [K in keyof ValueBudget]: ValueBudget[K] } = { values: 0, maxValues: Infinity, perCodeUnit: 0 };

function valueIn(v: unknown, depthLeft: number): Value {
  // `typeof v === "..."` tests: V8 compiles them inline, while `switch (typeof v)` calls its Typeof builtin.
  if (typeof v === "string") {
    if (checkStrings && !isWellFormed(v)) throw bail;
    valuesLeft += rate.perCodeUnit * (v.length + earned.string);
    return { $typeName: valueTypeName, kind: { case: "stringValue", value: v } };
  }
  if (typeof v === "number") {
    if (v - v !== 0) throw bail;
    return { $typeName: valueTypeName, kind: { case: "numberValue", value: v } };
  }
  if (typeof v === "boolean") return { $typeName: valueTypeName, kind: { case: "boolValue", value: v } };
  if (typeof v === "object") {
    if (v === null) return { $typeName: valueTypeName, kind: { case: "nullValue", value: nullValue } };
    if (Array.isArray(v)) return { $typeName: valueTypeName, kind: { case: "listValue", value: listIn(v, depthLeft) } };
    return {
      $typeName: valueTypeName,
      kind: { case: "structValue", value: structIn(v as Record<string, unknown>, depthLeft) },
    };
  }
  throw bail;
}

/** Turns an object of `JSON.parse` into a Struct whose `fields` it becomes. */
function structIn(obj: Record<string, unknown>, depthLeft: number): Struct {
  if (depthLeft <= 0 || (valuesLeft -= structCost) < 0) throw bail;
  const below = depthLeft - 1;
  let n = 0;
  // for-in sees exactly the own keys: Object.prototype was checked to have no enumerable property. Every key
  // is an own writable data property (JSON.parse defines them so), so assignment writes it, `__proto__` too:
  // the inherited accessor is reached only by a key the object does not have.
  for (const key in obj) {
    n++;
    if ((valuesLeft -= structMemberCharge(key, rate)) < 0) throw bail;
    if (checkStrings && !isWellFormed(key)) throw bail;
    const value = valueIn(obj[key], below);
    // Names V8 ties to one of its protectors are stored by name (see setOwnByName).
    if (byNameStore(key)) setOwnByName(obj, key, value);
    else obj[key] = value;
  }
  keysSeen += n;
  return { $typeName: structTypeName, fields: obj as { [key: string]: Value } };
}

/**
 * {@link structIn} for the root object of a Struct, whose keys it reads with `Object.keys` instead of
 * `for...in`. An object of more than about a thousand members (a map keyed by ids, most often at the root) is
 * a dictionary in V8: `for...in` sorts its keys as `Object.keys` does, then looks each one up again before the
 * loop body sees it (ForInFilter). For a small root the array of keys costs next to nothing (1-3% less time on
 * the three Struct fixtures, Node 20 and 24; no loss on fast roots of 300 and 900 members).
 */
function rootStructIn(obj: Record<string, unknown>, depthLeft: number): Struct {
  if (depthLeft <= 0 || (valuesLeft -= structCost) < 0) throw bail;
  const below = depthLeft - 1;
  const keys = Object.keys(obj);
  const n = keys.length;
  for (let i = 0; i < n; i++) {
    const key = keys[i]!;
    if ((valuesLeft -= structMemberCharge(key, rate)) < 0) throw bail;
    if (checkStrings && !isWellFormed(key)) throw bail;
    const value = valueIn(obj[key], below);
    if (byNameStore(key)) setOwnByName(obj, key, value);
    else obj[key] = value;
  }
  keysSeen += n;
  return { $typeName: structTypeName, fields: obj as { [key: string]: Value } };
}

/** Turns an array of `JSON.parse` into a ListValue whose `values` it becomes (or a new array: see below). */
function listIn(a: unknown[], depthLeft: number): ListValue {
  const n = a.length;
  if (depthLeft <= 0 || (valuesLeft -= listCharge(n, rate)) < 0) throw bail;
  const below = depthLeft - 1;
  if (n > 0 && typeof a[0] === "number") {
    // JSON.parse gives an array of numbers, not all small integers, unboxed doubles; storing the first Value
    // into it would make V8 copy it into a new backing store and box every number. A new array skips that
    // (a ListValue of 1,000 numbers: 1.69x JSON.parse's time before, 1.36x after, on Node 20).
    const values = new Array<Value>(n);
    for (let i = 0; i < n; i++) {
      const v = a[i];
      // Numbers inline, with their own object literal: valueIn's sites also see strings, objects, ...
      values[i] =
        typeof v === "number" && v - v === 0
          ? { $typeName: valueTypeName, kind: { case: "numberValue", value: v } }
          : valueIn(v, below);
    }
    return { $typeName: listValueTypeName, values };
  }
  for (let i = 0; i < n; i++) a[i] = valueIn(a[i], below);
  return { $typeName: listValueTypeName, values: a as Value[] };
}

/**
 * {@link listIn} for the root array of a ListValue, a copy with load sites of its own. An element load
 * (`a[i]`) whose feedback holds both an array of unboxed doubles and an array of tagged elements makes V8's
 * optimized code convert every array of doubles it meets into tagged elements first, boxing each number in
 * the runtime (`CopyDoubleToObjectElements`). The arrays inside a Struct mix numbers with strings and
 * objects, so after one mixed Struct every root ListValue of numbers paid that: 1,000 numbers took 1.63x
 * (Node 20) and 1.92x (Node 24) JSON.parse's time after a 1 KB Struct, 1.36x and 1.42x alone. The root's own
 * sites see root arrays only.
 */
function rootListIn(a: unknown[], depthLeft: number): ListValue {
  const n = a.length;
  if (depthLeft <= 0 || (valuesLeft -= listCharge(n, rate)) < 0) throw bail;
  const below = depthLeft - 1;
  if (n > 0 && typeof a[0] === "number") {
    const values = new Array<Value>(n);
    for (let i = 0; i < n; i++) {
      const v = a[i];
      values[i] =
        typeof v === "number" && v - v === 0
          ? { $typeName: valueTypeName, kind: { case: "numberValue", value: v } }
          : valueIn(v, below);
    }
    return { $typeName: listValueTypeName, values };
  }
  for (let i = 0; i < n; i++) a[i] = valueIn(a[i], below);
  return { $typeName: listValueTypeName, values: a as Value[] };
}
