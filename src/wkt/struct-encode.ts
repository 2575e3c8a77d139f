/**
 * The Struct, Value and ListValue encoders to JSON values (`...ToJson`, `...ToObject`, the codec's toJson), each a
 * first try without paths or a try/catch per level (`valueFast`) and the walk that owns every error and
 * its path (`valueTo`).
 *
 * @internal
 * @module
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { ListValue, Struct, Value } from "@bufbuild/protobuf/wkt";
import { byNameStore, noteNumber, setOwnByName } from "../internal/json-value.js";
import { listValueTypeName, structTypeName, valueTypeName } from "../internal/names.js";
import { isPlainPrototype, prototypeIsClean } from "../internal/objects.js";
import { isWellFormed } from "../internal/utf16.js";
import { errorAtPath } from "../path.js";
import { maxDepthError } from "../internal/depth-error.js";
import {
  checkedNames,
  hasOwnPropertyIsBuiltin,
  notAMessageError,
  utf16Error,
  valueKindError,
  variantTypeError,
} from "./struct-walk.js";
import { notFiniteError } from "../internal/not-finite.js";

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

/** Encoder mode bit: `for...in` may read `fields` objects (see `valueTo`). */
const encodeForIn = 1;
/** Encoder mode bit: member names and strings are checked for lone surrogates. */
const encodeChecked = 2;

/**
 * Encoder mode bit: the first try (see `valueFast`) may run: `Object.prototype.hasOwnProperty` is the
 * builtin it was when struct-walk.ts loaded, so that it tells own members from inherited ones.
 */
const encodeFast = 4;

function encodeMode(checked: boolean): number {
  return (
    (prototypeIsClean() ? encodeForIn : 0) |
    (checked ? encodeChecked : 0) |
    (hasOwnPropertyIsBuiltin() ? encodeFast : 0)
  );
}

/**
 * `mode` bits: `encodeForIn`, Object.prototype has no enumerable member (checked once per call), so
 * `for...in` may read a `fields` object whose prototype is Object.prototype or null; `encodeChecked`,
 * member names and strings are checked for lone surrogates. Errors are built by the helpers of struct-walk.ts,
 * so that these functions stay small enough for V8 to inline into one another.
 */
function valueTo(v: Value, depthLeft: number, mode: number): JsonValue {
  const kind = (v as Partial<Value> | null | undefined)?.kind;
  if (typeof kind !== "object" || kind === null) throw notAMessageError(valueTypeName, v);
  switch (kind.case) {
    case "stringValue": {
      const s = kind.value as unknown;
      if (typeof s !== "string") throw variantTypeError("stringValue", s);
      if ((mode & encodeChecked) !== 0 && !isWellFormed(s)) throw utf16Error(valueTypeName, "string_value");
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
  if (depthLeft <= 0) throw maxDepthError(structTypeName);
  const fields = (s as Partial<Struct> | null | undefined)?.fields;
  if (typeof fields !== "object" || fields === null) throw notAMessageError(structTypeName, s);
  const out: JsonObject = {};
  const below = depthLeft - 1;
  let key = "";
  const member = (k: string): void => {
    key = k;
    if ((mode & encodeChecked) !== 0 && !isWellFormed(key)) throw utf16Error(structTypeName, "the map key");
    const json = valueTo(fields[key]!, below, mode);
    if (byNameStore(key)) setOwnByName(out, key, json);
    else out[key] = json;
  };
  try {
    // for-in sees exactly the own enumerable members, in Object.keys order, when the prototype of `fields` is a
    // clean Object.prototype or null; V8 then reads `fields[key]` through the enum cache instead of a megamorphic
    // keyed load. Any other `fields` is read by its keys, blind to any prototype it may have.
    if ((mode & encodeForIn) !== 0 && isPlainPrototype(Object.getPrototypeOf(fields) as object | null)) {
      for (const k in fields) member(k);
    } else {
      const keys = Object.keys(fields);
      for (let i = 0; i < keys.length; i++) member(keys[i]!);
    }
  } catch (e) {
    throw errorAtPath(e, key);
  }
  return out;
}

function listTo(l: ListValue, depthLeft: number, mode: number): JsonValue[] {
  if (depthLeft <= 0) throw maxDepthError(listValueTypeName);
  const values = (l as Partial<ListValue> | null | undefined)?.values;
  if (!Array.isArray(values)) throw notAMessageError(listValueTypeName, l);
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

/** Thrown by the first try when anything is wrong; never escapes this module. */
const retry: unknown = { retry: true };

/**
 * The first try of the encoders (the `...ToJsonInternal` entry points): the walk of `valueTo` without
 * path bookkeeping. It throws `retry` (or lets a TypeError happen, on a Value or Struct that is not an
 * object) at the first thing that is wrong, and the entry point then runs `valueTo`, which checks the
 * same things and throws the first error with its path: the errors are exactly those of that walk, and a
 * message that fails costs two walks.
 *
 * What makes it cheaper than that walk, on a 1 KB Struct (the bench's `toJson/struct-1kb`):
 * - Member names are read with `for...in` filtered by `hasOwnProperty.call`, which V8 compiles away when the
 *   object's keys come from its enum cache; that replaces `Object.getPrototypeOf` of every `fields` object,
 *   a call into the C++ runtime, and also holds for a polluted Object.prototype.
 * - A member name equal to one checked before is not checked again (`checkedNames`): member names
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
      if (++i === 32) plain = (mode & encodeForIn) !== 0 && isPlainPrototype(Object.getPrototypeOf(fields));
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
 * `structFast` for the outermost Struct, read with `Object.keys` (own enumerable members, whatever the
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
