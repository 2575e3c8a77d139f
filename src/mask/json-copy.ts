/**
 * Plain JSON objects, and deep copies of JSON values, for the mask functions on JSON and on Struct fields: a
 * result never shares an array or plain object with its input.
 *
 * @module
 * @internal
 */
import { WktJsonError } from "../errors.js";
import { setOwn } from "../internal/json-value.js";

/** A protobuf-es message or JSON object as a record of its properties. */
type Msg = Record<string, unknown>;

export function isObj(v: unknown): v is Msg {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
}

/** A deep copy of a JSON value: arrays and plain objects are copied, everything else is shared. */
export function copyJson(v: unknown, depthLeft: number, typeName: string): unknown {
  if (typeof v !== "object" || v === null) return v;
  if (depthLeft <= 0) throw new WktJsonError("depth", "$", typeName, `the JSON value nests deeper than the limit`);
  if (Array.isArray(v)) {
    const out: unknown[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = copyJson(v[i], depthLeft - 1, typeName);
    return out;
  }
  if (!isObj(v)) return v;
  const out: Msg = {};
  for (const key of Object.keys(v)) setOwn(out, key, copyJson(v[key], depthLeft - 1, typeName));
  return out;
}
