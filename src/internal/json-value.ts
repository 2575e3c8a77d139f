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
import { describe } from "../int64.js";
import { errorAtPath } from "../path.js";
import { unlimitedBudget, valuesError, type ValueBudget } from "./budget.js";
import { isWellFormed } from "./utf16.js";

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

/** Sets `obj[key]`, as an own data property even for `__proto__`. */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

/**
 * Copies a JSON object, checking every value. `depthLeft` is the number of object/array levels still
 * allowed, this object included. With a `budget` (the decoder's), the object and each value in it cost 1.
 */
export function copyJsonObject(json: unknown, depthLeft: number, typeName: string, budget?: ValueBudget): JsonObject {
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new WktJsonError("json-type", "$", typeName, `expected an object, got ${describe(json)}`);
  }
  const b = budget ?? unlimitedBudget();
  if (depthLeft > 0 && (b.values += 1) > b.maxValues) throw valuesError(typeName, b);
  return copyObject(json as Record<string, unknown>, depthLeft, typeName, b);
}

function copyObject(json: Record<string, unknown>, depthLeft: number, typeName: string, budget: ValueBudget): JsonObject {
  if (depthLeft <= 0) throw new WktJsonError("depth", "$", typeName, "nesting is deeper than maxDepth");
  const out: JsonObject = {};
  const keys = Object.keys(json);
  let key = "";
  try {
    for (let i = 0; i < keys.length; i++) {
      key = keys[i]!;
      if ((budget.values += 1) > budget.maxValues) throw valuesError(typeName, budget);
      if (!isWellFormed(key)) {
        throw new WktJsonError("utf16", "$", typeName, "the key has a lone surrogate, which is not valid UTF-8");
      }
      const v = copyValue(json[key], depthLeft - 1, typeName, budget);
      if (key === "__proto__") setOwn(out, key, v);
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
export function copyValue(json: unknown, depthLeft: number, typeName: string, budget: ValueBudget = unlimitedBudget()): JsonValue {
  switch (typeof json) {
    case "string":
      if (!isWellFormed(json)) {
        throw new WktJsonError("utf16", "$", typeName, "the string has a lone surrogate, which is not valid UTF-8");
      }
      return json;
    case "number":
      if (!Number.isFinite(json)) {
        throw new WktJsonError("not-finite", "$", typeName, `${json} cannot be represented in JSON`);
      }
      return noteNumber(json);
    case "boolean":
      return json;
    case "bigint": {
      // Integer literals outside the safe range, as the JSON text parser keeps them: a JSON number is a double.
      const n = Number(json);
      if (!Number.isFinite(n)) throw new WktJsonError("not-finite", "$", typeName, "the number is too large");
      return n;
    }
    case "object": {
      if (json === null) return null;
      if (Array.isArray(json)) {
        if (depthLeft <= 0) throw new WktJsonError("depth", "$", typeName, "nesting is deeper than maxDepth");
        if ((budget.values += json.length) > budget.maxValues) throw valuesError(typeName, budget);
        const out: JsonValue[] = new Array(json.length);
        let i = 0;
        try {
          for (; i < json.length; i++) out[i] = copyValue(json[i], depthLeft - 1, typeName, budget);
        } catch (e) {
          throw errorAtPath(e, i);
        }
        return out;
      }
      const proto = Object.getPrototypeOf(json);
      if (proto !== Object.prototype && proto !== null) {
        throw new WktJsonError("json-type", "$", typeName, "expected a plain object, got an instance of a class");
      }
      return copyObject(json as Record<string, unknown>, depthLeft, typeName, budget);
    }
  }
  throw new WktJsonError("json-type", "$", typeName, `expected a JSON value, got ${describe(json)}`);
}
