/**
 * The JSON text of a ListValue or Value message, written as the tree is walked (toJsonString's fast way for
 * these two types); any problem gives undefined, and the caller takes the long way, which owns the errors.
 *
 * @internal
 * @module
 */
import type { ListValue, Struct, Value } from "@bufbuild/protobuf/wkt";
import { innerWellFormed } from "../internal/json-value.js";
import { isPlainPrototype, prototypeIsClean } from "../internal/objects.js";
import { hasOwnPropertyIsBuiltin } from "./struct-walk.js";

/** Thrown by the writers below when anything is wrong; never escapes this module. */
const retry: unknown = { retry: true };

/**
 * The JSON text of a ListValue or Value message (`list` tells which), as `JSON.stringify` prints what
 * `listValueToJsonInternal` or `valueToJsonInternal` returns, except that -0 is printed "-0"; or
 * undefined when anything is wrong (a Value without a variant, a number that is not finite, a lone surrogate, a
 * variant of the wrong type, nesting deeper than `depthLeft`, something that is not a message), and then the
 * caller takes the long way, which throws the first error with its path. Also undefined for a Value that holds
 * a Struct, which the long way prints faster (below).
 *
 * Written as the tree is walked, without building it: the walk of `valueFast` (struct-encode.ts) with the checks
 * of the checked walk (each member name and string is scanned once for both a lone surrogate and characters to
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
  if (!hasOwnPropertyIsBuiltin()) return undefined;
  const forIn = prototypeIsClean();
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
      if (++i === 32) plain = forIn && isPlainPrototype(Object.getPrototypeOf(fields));
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

/**
 * As `checkedNames` (struct-walk.ts), for member names that are printed as they are (nothing to escape, no
 * surrogate).
 */
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
