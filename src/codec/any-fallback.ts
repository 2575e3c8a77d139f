/**
 * What the codec does with a google.protobuf.Any whose type the registry cannot resolve: the `unresolvedAny`
 * option of `toJson`, `toJsonString`, `fromJson`, `fromJsonString`, the merges and `validateJson*`.
 *
 * The proto3 JSON mapping has no form for such an Any ("If the Any contains a value that has a special JSON
 * mapping ... Otherwise, the value will be converted into a JSON object, and the "@type" field will be inserted"):
 * a writer that cannot find the type cannot write its fields, and a reader cannot read them. Every upstream
 * implementation fails the whole message (protobuf #23579, #6994; protobuf-es #989; connect-es #1192):
 *
 * - `"error"` (default): as today, rule `unknown-type`.
 * - `"skip"`: the Any is left out, as a field the JSON does not hold: a singular field (in a oneof or not) stays
 *   unset, and an element of a list or a map entry is dropped, as the decoder drops an unknown enum name there
 *   under `ignoreUnknownFields` (protobuf-go and protobuf-es do the same): a list or map has no "unset" element,
 *   and a placeholder (an empty Any) would be a value the sender never sent. An Any whose content is an Any that
 *   is left out is left out too. An Any that nothing holds (the root of the call, or one inside an extension)
 *   reads and writes as the empty Any, `{}`.
 * - `"raw"`, for logs and debugging only: `{"@type": "<url>", "@value": "<base64 of the bytes>"}`. This is NOT
 *   ProtoJSON: no other implementation reads it (protobuf-go reports `@value` as an unknown field, or drops it
 *   under DiscardUnknown). The member is `@value`, as C#'s `JsonFormatter.ToDiagnosticString` writes it
 *   (protobuf #1008), not `value`: `{"@type": ..., "value": "AAEC"}` is already the JSON of an Any holding a
 *   BytesValue, and the form of any type with a field named `value`, so a reader could not tell them apart.
 *   `fromJson` with the same option reads the raw form back exactly (type URL and bytes as written, whether or
 *   not the registry knows the type by then; the bytes are not decoded); without it, the raw form is an error
 *   (`unknown-type`, or `unknown-field` for `@value` once the type resolves).
 *
 * The fallback applies only where the error would be `unknown-type`: a malformed type URL (`type-url`), bytes
 * that are not the named type (`binary`) and every other problem are errors whatever the option.
 *
 * @module
 * @internal
 */
import { ScalarType, type DescMessage, type JsonObject, type Registry } from "@bufbuild/protobuf";
import { isWktJsonError, WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { anyTypeName, listValueTypeName, structTypeName, valueTypeName } from "../internal/names.js";
import { setOwn } from "../internal/json-value.js";
import { optionsTypeName } from "../internal/options.js";
import { shownLiteral } from "../internal/not-finite.js";
import { scalarFromJson, scalarToJson } from "../internal/scalar.js";
import { wktFromBinaryLean } from "../internal/wkt-binary.js";
import { errorAtPath } from "../path.js";
import { typeUrlResolve } from "../wkt/registry.js";
import { fieldGet, planOf, type FieldAccess, type Msg } from "../wkt/field-access.js";

/** The values of the `unresolvedAny` option. */
export type UnresolvedAny = "error" | "skip" | "raw";

/** The member of the raw form that holds the bytes (see the module comment). */
export const anyRawValueKey = "@value";

/**
 * @internal The `unresolvedAny` option checked: `"error"` when not given; rule `range` for anything but the three
 * names.
 *
 * @example
 * unresolvedAnyOption(undefined); //=> "error"
 * unresolvedAnyOption("ignore"); // throws WktJsonError (rule "range", typeName "options")
 */
export function unresolvedAnyOption(value: unknown): UnresolvedAny {
  if (value === undefined || value === "error" || value === "skip" || value === "raw") return value ?? "error";
  const got = typeof value === "string" ? JSON.stringify(shownLiteral(value)) : describe(value);
  throw new WktJsonError("range", "$", optionsTypeName, `unresolvedAny must be "error", "skip" or "raw", got ${got}`);
}

/** Whether `e` is the error of a type URL the registry cannot resolve (and only that). */
function isUnknownType(e: unknown): boolean {
  return isWktJsonError(e) && e.rule === "unknown-type";
}

/**
 * @internal The descriptor a type URL names, or undefined when neither the registry nor the well-known types have
 * it (rule `unknown-type`, which is thrown under `"error"`).
 *
 * @throws {WktJsonError} rule `type-url` for a malformed URL, whatever `mode`; `unknown-type` under `"error"`.
 * @example
 * typeUrlLookup("example.com/acme.Gone", undefined, "skip"); //=> undefined
 */
export function typeUrlLookup(
  url: string,
  registry: Registry | undefined,
  mode: UnresolvedAny,
): DescMessage | undefined {
  try {
    return typeUrlResolve(url, registry);
  } catch (e) {
    if (mode !== "error" && isUnknownType(e)) return undefined;
    throw e;
  }
}

/**
 * @internal How the decoder and the collect-all validator take an Any's JSON object whose `"@type"` is a string
 * (`keys` its keys): the type to read its JSON as, the bytes of the raw form (`"raw"`), or undefined: left out
 * (`"skip"`). Errors are at their path below the Any (`$["@type"]`, `$["@value"]`).
 *
 * @throws {WktJsonError} rule `type-url` for a malformed URL; `unknown-type` for a type the registry lacks
 *   (under `"raw"` unless the object is the raw form); `json-type` or `syntax` for an `"@value"` that is not base64.
 * @example
 * anyJsonTarget({ "@type": "example.com/acme.Gone", "@value": "AAE=" }, ["@type", "@value"], undefined, "raw");
 * //=> new Uint8Array([0, 1])
 */
export function anyJsonTarget(
  obj: Record<string, unknown>,
  keys: readonly string[],
  registry: Registry | undefined,
  mode: UnresolvedAny,
): DescMessage | Uint8Array | undefined {
  const url = obj["@type"] as string;
  let desc: DescMessage | undefined;
  try {
    desc = typeUrlLookup(url, registry, mode);
  } catch (e) {
    throw errorAtPath(e, "@type");
  }
  if (mode === "raw" && isAnyRawForm(obj, keys, desc)) {
    try {
      return scalarFromJson(ScalarType.BYTES, obj[anyRawValueKey], false) as Uint8Array;
    } catch (e) {
      throw errorAtPath(e, anyRawValueKey);
    }
  }
  if (desc !== undefined || mode === "skip") return desc;
  // "raw", and the object is not the raw form: the error of "error".
  try {
    return typeUrlResolve(url, registry);
  } catch (e) {
    throw errorAtPath(e, "@type");
  }
}

/**
 * @internal Whether an Any's JSON object (`keys` its keys) is the raw form: `"@type"` and `"@value"` alone, and
 * `desc`, the type it names (undefined: not in the registry), has no field whose JSON name is `"@value"` (protoc
 * lets a json_name start with "@"): such a type writes that member in its own form, read as ProtoJSON.
 *
 * @example
 * isAnyRawForm({ "@type": "example.com/acme.Gone", "@value": "" }, ["@type", "@value"], undefined); //=> true
 */
export function isAnyRawForm(obj: object, keys: readonly string[], desc: DescMessage | undefined): boolean {
  return (
    keys.length === 2 &&
    Object.prototype.hasOwnProperty.call(obj, anyRawValueKey) &&
    Object.prototype.hasOwnProperty.call(obj, "@type") &&
    (desc === undefined || !desc.fields.some((f) => f.jsonName === anyRawValueKey))
  );
}

/**
 * @internal The JSON of an Any whose type the registry lacks, under `mode` (not `"error"`): the raw form, or `{}`
 * for `"skip"` (an Any that could not be left out: see the module comment).
 *
 * @throws {WktJsonError} rule `json-type` when `bytes` is not a Uint8Array.
 * @example
 * unresolvedAnyJson("example.com/acme.Gone", new Uint8Array([0, 1]), "raw");
 * //=> { "@type": "example.com/acme.Gone", "@value": "AAE=" }
 */
export function unresolvedAnyJson(url: string, bytes: unknown, mode: UnresolvedAny): JsonObject {
  if (mode === "skip") return {};
  if (!(bytes instanceof Uint8Array)) {
    throw new WktJsonError("json-type", "$", anyTypeName, `Any.value must be a Uint8Array, got ${describe(bytes)}`);
  }
  return { "@type": url, [anyRawValueKey]: scalarToJson(ScalarType.BYTES, bytes) };
}

/**
 * @internal Whether a message of `desc` can hold an Any in its fields (not through an Any's contents): whether
 * a field's message type, at any depth, is google.protobuf.Any. Worked out once per type, by a
 * search of the types its fields reach (recursive types included).
 *
 * @example
 * holdsAny(TypeSchema); //=> true (Type.options[].value)
 */
export function holdsAny(desc: DescMessage): boolean {
  let holds = holdsAnyOf.get(desc);
  if (holds === undefined) {
    holds = false;
    const seen = new Set<DescMessage>([desc]);
    const queue = [desc];
    for (let i = 0; i < queue.length && !holds; i++) {
      for (const f of queue[i]!.fields) {
        const m = f.message;
        if (m === undefined || seen.has(m) || freeForm.has(m.typeName)) continue;
        if (m.typeName === anyTypeName) {
          holds = true;
          break;
        }
        seen.add(m);
        queue.push(m);
      }
    }
    holdsAnyOf.set(desc, holds);
  }
  return holds;
}

const holdsAnyOf = new WeakMap<DescMessage, boolean>();
/** Struct, Value and ListValue: free-form JSON, which holds no Any. */
const freeForm = new Set([structTypeName, valueTypeName, listValueTypeName]);

/** @internal What {@link withoutUnresolvedAny} reads of the writer's context. */
export interface PruneContext {
  readonly registry: Registry | undefined;
  readonly maxDepth: number;
  readonly depth: number;
}

/**
 * @internal `message` (of `desc`) without the Anys that `toJson` under `unresolvedAny: "skip"` leaves out, at
 * every depth outside Any contents (the Any writer prunes what it decodes): a singular field holding one unset,
 * list elements and map entries dropped. Copies only what it changes (`message` itself is never changed), and
 * each object once, so that a message that shares submessages is walked in linear time. An Any is left out when
 * its type is not in the registry, or when it holds an Any that is left out. Anything the writer rejects (not a
 * message, a malformed type URL, bytes that do not decode, nesting beyond `maxDepth`) is left as it is, for the
 * writer to report.
 *
 * @example
 * withoutUnresolvedAny(TypeSchema, type, ctx).options; // the Options whose value resolves
 */
export function withoutUnresolvedAny<T>(desc: DescMessage, message: T, ctx: PruneContext): T {
  if (!holdsAny(desc) || desc.typeName === anyTypeName) return message;
  const done = new Map<object, unknown>();
  const prune = (d: DescMessage, m: unknown, depthLeft: number): unknown => {
    if (typeof m !== "object" || m === null || depthLeft <= 0 || (m as Msg)["$typeName"] !== d.typeName) return m;
    const before = done.get(m);
    if (before !== undefined) return before;
    done.set(m, m); // a cycle back to `m` meets `m` itself (the writer reports its depth)
    let copy: Msg | undefined;
    for (const fp of planOf(d).fields) {
      const inner = fp.message;
      if (inner === undefined || fp.box !== 0 || (inner.typeName !== anyTypeName && !holdsAny(inner))) continue;
      const v = fieldGet(fp, m as Msg);
      if (v === undefined || v === null) continue;
      const next = pruneValue(fp, inner, v, depthLeft - 1);
      if (next === v) continue;
      copy ??= Object.assign(Object.create(Object.getPrototypeOf(m) as object | null) as Msg, m);
      setField(fp, copy, next);
    }
    const out = copy ?? m;
    done.set(m, out);
    return out;
  };
  /** A field's value pruned: a message, or a list or map of them; `dropped` for an Any left out. */
  const pruneValue = (fp: FieldAccess, inner: DescMessage, v: unknown, depthLeft: number): unknown => {
    const one = (item: unknown): unknown =>
      inner.typeName === anyTypeName
        ? anyLeftOut(item, ctx.registry, depthLeft)
          ? dropped
          : item
        : prune(inner, item, depthLeft);
    if (fp.kind === "list") {
      if (!Array.isArray(v)) return v;
      let out: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        const next = one(item);
        if (next !== item && out === undefined) out = v.slice(0, i);
        if (out !== undefined && next !== dropped) out.push(next);
      }
      return out ?? v;
    }
    if (fp.kind === "map") {
      if (typeof v !== "object") return v;
      const record = v as Record<string, unknown>;
      const keys = Object.keys(record);
      let out: Record<string, unknown> | undefined;
      for (let i = 0; i < keys.length; i++) {
        const item = record[keys[i]!];
        const next = one(item);
        if (next !== item && out === undefined) {
          out = {};
          for (let j = 0; j < i; j++) setOwn(out, keys[j]!, record[keys[j]!]);
        }
        if (out !== undefined && next !== dropped) setOwn(out, keys[i]!, next);
      }
      return out ?? v;
    }
    return one(v);
  };
  return prune(desc, message, ctx.maxDepth - ctx.depth) as T;
}

/** What {@link withoutUnresolvedAny}'s walk gives for an Any it leaves out. */
const dropped = Symbol("dropped");

/** Sets a field of a message copy to its pruned value; `dropped` unsets it. */
function setField(fp: FieldAccess, copy: Msg, v: unknown): void {
  if (fp.oneof !== undefined) copy[fp.oneof] = v === dropped ? { case: undefined } : { case: fp.local, value: v };
  else if (v === dropped) delete copy[fp.local];
  else copy[fp.local] = v;
}

/**
 * @internal Whether `toJson` under `"skip"` leaves an Any out: its type URL is well-formed and names a type the
 * registry lacks, or it names google.protobuf.Any and the Any its bytes hold is left out (looked into up to
 * `depthLeft` levels). Anything else the writer takes, or reports.
 *
 * @example
 * anyLeftOut(create(AnySchema, { typeUrl: "example.com/acme.Gone" }), undefined, 100); //=> true
 */
export function anyLeftOut(any: unknown, registry: Registry | undefined, depthLeft: number): boolean {
  for (let left = depthLeft; typeof any === "object" && any !== null && left > 0; left--) {
    const url = (any as Msg)["typeUrl"];
    if (typeof url !== "string" || url === "") return false;
    let desc: DescMessage | undefined;
    try {
      desc = typeUrlLookup(url, registry, "skip");
    } catch {
      return false; // a malformed URL: the writer's error
    }
    if (desc === undefined) return true;
    if (desc.typeName !== anyTypeName) return false;
    const bytes = (any as Msg)["value"];
    if (!(bytes instanceof Uint8Array)) return false;
    try {
      any = wktFromBinaryLean(desc, bytes);
    } catch {
      return false; // bytes that are not an Any: the writer's error
    }
  }
  return false;
}
