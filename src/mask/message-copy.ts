/**
 * Deep copies of protobuf-es message values for the mask functions, whose results never share a mutable part
 * with their inputs: messages field by field (unknown fields included), lists, maps, bytes, and Struct values
 * as JSON. Also the boxing of a wrapper scalar or a Struct JSON object into its message, so that a path can go
 * into it.
 *
 * @module
 * @internal
 */
import { create } from "@bufbuild/protobuf";
import type { Struct } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { pathJoin, type PathSegment } from "../path.js";
import { setOwn } from "../internal/json-value.js";
import { structTypeName } from "../internal/names.js";
import {
  asMsg,
  boxNone,
  boxStruct,
  boxWrapper,
  depthError,
  fieldGet,
  fieldIsSet,
  fieldSet,
  planOf,
  type FieldAccess,
  type MessagePlan,
  type Msg,
} from "../wkt/field-access.js";
import { structFromJsonInternal } from "../wkt/struct-decode.js";
import { structToJsonInternal } from "../wkt/struct-encode.js";
import { copyJson } from "./json-copy.js";

/** A deep copy of a message, unknown fields included. */
export function copyMessage(plan: MessagePlan, msg: Msg, depthLeft: number): Msg {
  if (depthLeft <= 0) throw depthError(plan.desc);
  const out = create(plan.desc) as Msg;
  for (const fp of plan.fields) {
    if (fieldIsSet(fp, msg)) fieldSet(fp, out, copyFieldValue(fp, fieldGet(fp, msg), depthLeft));
  }
  const unknown = msg.$unknown;
  if (Array.isArray(unknown) && unknown.length > 0) out.$unknown = copyUnknown(unknown);
  return out;
}

/**
 * The `depth` error of a copy of `msg` with `depthLeft` levels (as {@link copyMessage} counts them) that
 * failed: at the JSON path of the first message (in the copy's order) below the limit, its detail starting with
 * `what` ("the stored resource"); `e` as is if it is no such error or no message is below the limit (a Struct
 * nested too deep keeps its own error). Called only on that failure: the walk is bounded by `depthLeft`.
 */
export function copyDepthError(e: unknown, plan: MessagePlan, msg: Msg, depthLeft: number, what: string): unknown {
  if (!(e instanceof WktJsonError) || e.rule !== "depth" || e.jsonPath !== "$") return e;
  const at: PathSegment[] = [];
  const find = (p: MessagePlan, v: Msg, left: number): MessagePlan | undefined => {
    if (left <= 0) return p;
    for (const fp of p.fields) {
      if (fp.message === undefined || fp.box !== boxNone || !fieldIsSet(fp, v)) continue;
      const sub = planOf(fp.message);
      const fv = fieldGet(fp, v);
      at.push(fp.field.jsonName);
      if (fp.kind === "list" && Array.isArray(fv)) {
        for (let i = 0; i < fv.length; i++) {
          at.push(i);
          const r = find(sub, fv[i] as Msg, left - 1);
          if (r !== undefined) return r;
          at.pop();
        }
      } else if (fp.kind === "map" && typeof fv === "object" && fv !== null) {
        for (const key of Object.keys(fv)) {
          at.push(key);
          const r = find(sub, (fv as Msg)[key] as Msg, left - 1);
          if (r !== undefined) return r;
          at.pop();
        }
      } else if (fp.kind !== "list" && fp.kind !== "map") {
        const r = find(sub, fv as Msg, left - 1);
        if (r !== undefined) return r;
      }
      at.pop();
    }
    return undefined;
  };
  const deep = find(plan, msg, depthLeft);
  if (deep === undefined) return e;
  return new WktJsonError(
    "depth",
    pathJoin("$", ...at),
    deep.desc.typeName,
    `${what}: messages nest deeper than ${depthLeft} levels (maxDepth)`,
    { cause: e },
  );
}

/** A copy of a message's unknown fields, their bytes copied. @internal */
export function copyUnknown(unknown: readonly unknown[]): unknown[] {
  return unknown.map((u) => {
    const f = u as { no: number; wireType: number; data: unknown };
    return { no: f.no, wireType: f.wireType, data: f.data instanceof Uint8Array ? f.data.slice() : f.data };
  });
}

/** A copy of a set field's value: a list, a map, or a singular value. */
export function copyFieldValue(fp: FieldAccess, v: unknown, depthLeft: number): unknown {
  switch (fp.kind) {
    case "list": {
      if (!Array.isArray(v)) throw wrongType(fp, v, "an array");
      const out: unknown[] = new Array(v.length);
      for (let i = 0; i < v.length; i++) out[i] = copySingular(fp, v[i], depthLeft);
      return out;
    }
    case "map": {
      if (typeof v !== "object" || v === null) throw wrongType(fp, v, "an object");
      const out: Msg = {};
      for (const key of Object.keys(v)) setOwn(out, key, copySingular(fp, (v as Msg)[key], depthLeft));
      return out;
    }
    default:
      return copySingular(fp, v, depthLeft);
  }
}

/** A copy of a singular value, element or map value of the field: messages and Struct JSON deeply, bytes too. @internal */
export function copySingular(fp: FieldAccess, v: unknown, depthLeft: number): unknown {
  if (fp.message !== undefined) {
    if (fp.box === boxNone) return copyMessage(planOf(fp.message), asMsg(v, fp), depthLeft - 1);
    if (fp.box === boxStruct) return copyJson(v, depthLeft - 1, structTypeName);
  }
  return v instanceof Uint8Array ? v.slice() : v;
}

function wrongType(fp: FieldAccess, v: unknown, expected: string): WktJsonError {
  return new WktJsonError(
    "json-type",
    "$",
    fp.field.parent.typeName,
    `field "${fp.name}": expected ${expected}, got ${describe(v)}`,
  );
}

/**
 * A wrapper scalar or a Struct JSON object as its message. The Struct walks' internal entries take
 * `depthLeft` as it is: the walk's callers have checked it (at least 1, at most the codec's limit, so no stack
 * overflow to turn into `depth`), and the errors are at `$` as the public functions' would be.
 */
export function boxValue(fp: FieldAccess, v: unknown, depthLeft: number): Msg {
  if (fp.box === boxWrapper) return create(fp.message!, { value: v } as never) as Msg;
  return structFromJsonInternal(v, depthLeft) as unknown as Msg;
}

/** The inverse of {@link boxValue}: a wrapper message as its scalar, a Struct as its JSON object. @internal */
export function unboxValue(fp: FieldAccess, m: Msg, depthLeft: number): unknown {
  if (fp.box === boxWrapper) return m.value;
  return structToJsonInternal(m as unknown as Struct, depthLeft);
}
