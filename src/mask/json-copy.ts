/**
 * Plain JSON objects, and deep copies of JSON values, for the mask functions on JSON and on Struct fields: a
 * result never shares an array or plain object with its input.
 *
 * @module
 * @internal
 */
import { maxDepthError } from "../internal/depth-error.js";
import { setOwn } from "../internal/json-value.js";
import { workPerCodeUnit, type WorkMeter } from "../internal/meter.js";
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

/**
 * A deep copy of a JSON value: arrays and plain objects are copied, everything else is shared. With a meter, the
 * copy earns what it reads (the code units of keys and strings, one per other value, as its JSON text would
 * hold them) and charges a step per value: each value is read once, so a copy never runs a meter out, and what
 * it earns pays for the rest of the call's walk.
 */
export function copyJson(v: unknown, depthLeft: number, typeName: string, m?: WorkMeter): unknown {
  if (typeof v !== "object" || v === null) {
    // Earned and charged at once, unchecked: a value earns more than the step it costs.
    if (m !== undefined) m.left += workPerCodeUnit * (typeof v === "string" ? v.length + 2 : 1) - 1;
    return v;
  }
  if (depthLeft <= 0) throw maxDepthError(typeName);
  if (Array.isArray(v)) {
    if (m !== undefined) m.left += workPerCodeUnit * (2 + v.length) - 1;
    const out: unknown[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = copyJson(v[i], depthLeft - 1, typeName, m);
    return out;
  }
  if (!isJsonObject(v)) return v;
  const out: JsonRecord = {};
  if (m !== undefined) m.left += workPerCodeUnit * 2 - 1;
  for (const key of Object.keys(v)) {
    if (m !== undefined) m.left += workPerCodeUnit * (key.length + 3) - 1;
    setOwn(out, key, copyJson(v[key], depthLeft - 1, typeName, m));
  }
  return out;
}
