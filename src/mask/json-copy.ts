/**
 * Plain JSON objects, and deep copies of JSON values, for the mask functions on JSON and on Struct fields: a
 * result never shares an array or plain object with its input.
 *
 * @module
 * @internal
 */
import { maxDepthError } from "../internal/depth-error.js";
import { setOwn } from "../internal/json-value.js";
import { isPlainPrototypeAnyRealm } from "../internal/objects.js";

/** A plain JSON object as a record of its properties. */
export type JsonRecord = Record<string, unknown>;

/**
 * Whether `v` is a plain object (of this realm or another, or with a null prototype): what the JSON functions
 * read properties of and copy; any other object (a Date, a Map) is a value, shared as it is.
 */
export function isJsonObject(v: unknown): v is JsonRecord {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  return isPlainPrototypeAnyRealm(Object.getPrototypeOf(v) as object | null);
}

/** A deep copy of a JSON value: arrays and plain objects are copied, everything else is shared. */
export function copyJson(v: unknown, depthLeft: number, typeName: string): unknown {
  if (typeof v !== "object" || v === null) return v;
  if (depthLeft <= 0) throw maxDepthError(typeName);
  if (Array.isArray(v)) {
    const out: unknown[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = copyJson(v[i], depthLeft - 1, typeName);
    return out;
  }
  if (!isJsonObject(v)) return v;
  const out: JsonRecord = {};
  for (const key of Object.keys(v)) setOwn(out, key, copyJson(v[key], depthLeft - 1, typeName));
  return out;
}
