/**
 * Equality of protobuf-es message values, field by field through their plans: what `fieldMaskFromDiff` calls a
 * change and what `patch` calls an IMMUTABLE field left as it was. NaN equals NaN and -0 differs from 0, as in
 * the binary encoding; bytes compare by content; a 64-bit integer as a bigint equals its decimal string
 * (`jstype = JS_STRING`). Unknown fields and extensions are not fields of the schema and are not compared.
 *
 * @module
 * @internal
 */
import { ScalarType } from "@bufbuild/protobuf";
import { WktJsonError } from "../errors.js";
import { structTypeName } from "../internal/names.js";
import { defaultMaxDepth } from "../limits.js";
import {
  boxStruct,
  boxWrapper,
  depthError,
  fieldGet,
  fieldIsSet,
  planOf,
  type FieldAccess,
  type MessagePlan,
  type Msg,
} from "./field-access.js";

const hasOwn = Object.prototype.hasOwnProperty;

/** Whether two values of a set field are equal: NaN equals NaN, -0 differs from 0, bytes by content. @internal */
export function fieldValueEquals(fp: FieldAccess, a: unknown, b: unknown, depthLeft: number): boolean {
  switch (fp.kind) {
    case "list": {
      if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return a === b;
      for (let i = 0; i < a.length; i++) if (!singularEquals(fp, a[i], b[i], depthLeft)) return false;
      return true;
    }
    case "map": {
      if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return a === b;
      const ka = Object.keys(a);
      if (ka.length !== Object.keys(b).length) return false;
      for (const k of ka) {
        if (!hasOwn.call(b, k)) return false;
        if (!singularEquals(fp, (a as Msg)[k], (b as Msg)[k], depthLeft)) return false;
      }
      return true;
    }
    default:
      return singularEquals(fp, a, b, depthLeft);
  }
}

/** Whether two messages of one type have the same fields set to equal values. @internal */
export function messageEquals(plan: MessagePlan, a: Msg, b: Msg, depthLeft: number): boolean {
  if (depthLeft <= 0) throw depthError(plan.desc);
  for (const fp of plan.fields) {
    const sa = fieldIsSet(fp, a);
    if (sa !== fieldIsSet(fp, b)) return false;
    if (sa && !fieldValueEquals(fp, fieldGet(fp, a), fieldGet(fp, b), depthLeft)) return false;
  }
  return true;
}

function singularEquals(fp: FieldAccess, a: unknown, b: unknown, depthLeft: number): boolean {
  if (fp.message !== undefined && fp.box !== boxWrapper) {
    if (fp.box === boxStruct) return jsonEquals(a, b, depthLeft);
    if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return a === b;
    return messageEquals(planOf(fp.message), a as Msg, b as Msg, depthLeft - 1);
  }
  return scalarEquals(fp.scalar, a, b);
}

function scalarEquals(type: ScalarType | undefined, a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (type === ScalarType.BYTES) {
    if (!(a instanceof Uint8Array) || !(b instanceof Uint8Array) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  // 64-bit integers: a bigint and its decimal string (jstype = JS_STRING) are the same value.
  return (
    (typeof a === "bigint" || typeof a === "string") &&
    (typeof b === "bigint" || typeof b === "string") &&
    type !== ScalarType.STRING &&
    String(a) === String(b)
  );
}

function jsonEquals(a: unknown, b: unknown, depthLeft: number): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (depthLeft <= 0)
    throw new WktJsonError("depth", "$", structTypeName, `JSON nests deeper than ${defaultMaxDepth} levels`);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEquals(a[i], b[i], depthLeft - 1)) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!hasOwn.call(b, k) || !jsonEquals((a as Msg)[k], (b as Msg)[k], depthLeft - 1)) return false;
  }
  return true;
}
