/**
 * The JSON path of a field-behaviour error as the client wrote it: a walk that goes by the schema (the result
 * and the stored resource, proto3 JSON names) finds a field at `$.byKey.east.code`, where the body may have
 * named it `by_key` (the decoder accepts the proto name as well as the JSON name). AIP-203 errors are about a
 * member of the request, so their path uses the body's own keys wherever the body has the member, and the JSON
 * name below what the body lacks (a field cleared with its parent, a REQUIRED member not sent).
 *
 * @internal
 * @module
 */
import { hasCustomJsonRepresentation } from "@bufbuild/protobuf/wkt";
import { mapKeyFromJson } from "../internal/scalar.js";
import { pathJoin, type PathSegment } from "../path.js";
import { boxNone, fieldsByJsonKey, planOf, type FieldAccess, type MessagePlan } from "../wkt/field-access.js";

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * The path `$` + `at` (JSON names of fields, map keys as protobuf-es holds them, list indices, from the message
 * of `plan`) with each field and map key spelt as the body `body` spells it where it has it. Called on an
 * error only: a step per segment, and per key of a map whose key the body spells another way (`"07"` for 7).
 */
export function clientPath(plan: MessagePlan, body: unknown, at: readonly PathSegment[]): string {
  const out: PathSegment[] = [];
  let p: MessagePlan | undefined = plan;
  let json: unknown = body;
  for (let i = 0; i < at.length; i++) {
    const s = at[i]!;
    const obj =
      typeof json === "object" && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
    const fp: FieldAccess | undefined =
      p === undefined || typeof s !== "string" ? undefined : fieldsByJsonKey(p).get(s);
    if (fp === undefined) {
      // Not a field of the message the walk knows (not reached: the walk names fields it found).
      out.push(...at.slice(i));
      break;
    }
    const key = obj === undefined || hasOwn.call(obj, s) || !hasOwn.call(obj, fp.name) ? s : fp.name;
    out.push(key);
    json = obj !== undefined && hasOwn.call(obj, key) ? obj[key] : undefined;
    const sub: boolean = fp.message !== undefined && fp.box === boxNone && !hasCustomJsonRepresentation(fp.message);
    p = sub ? planOf(fp.message!) : undefined;
    if (fp.kind === "message") continue;
    // A list index or a map key, then the value's message.
    const e = at[++i];
    if (e === undefined) break;
    if (fp.kind === "list") {
      out.push(e);
      json = Array.isArray(json) && typeof e === "number" ? json[e] : undefined;
      continue;
    }
    const m =
      typeof json === "object" && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : undefined;
    let k = e;
    if (m !== undefined && typeof e === "string" && !hasOwn.call(m, e)) {
      for (const written of Object.keys(m)) {
        if (sameKey(fp.mapKey!, written, e)) {
          k = written;
          break;
        }
      }
    }
    out.push(k);
    json = m !== undefined && typeof k === "string" && hasOwn.call(m, k) ? m[k] : undefined;
  }
  return pathJoin("$", ...out);
}

/** Whether the body's map key `written` is the key protobuf-es holds as `held`. */
function sameKey(type: Parameters<typeof mapKeyFromJson>[0], written: string, held: string): boolean {
  try {
    return mapKeyFromJson(type, written) === held;
  } catch {
    return false;
  }
}
