/**
 * google.protobuf.Any in the codec: its JSON form read into an Any and written from one (the form itself, and
 * its decisions, are wkt/any-json-form.ts's). The embedded message is read or written by the codec's compiled readers
 * and writers, which the caller passes in (`readerFor`, `writerFor`): the recursive step is a parameter, so
 * that this module needs neither from-json.ts nor to-json.ts, which both call it.
 *
 * @module
 * @internal
 */
import { create, type DescMessage, type JsonObject, type JsonValue, type Registry } from "@bufbuild/protobuf";
import { AnySchema, hasCustomJsonRepresentation, type Any } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { setOwn } from "../internal/json-value.js";
import { anyTypeName } from "../internal/names.js";
import {
  wktBinaryToJsonFast,
  wktFromBinaryLean,
  wktJsonToBinaryFast,
  wktToBinaryLean,
} from "../internal/wkt-binary.js";
import { errorAtPath } from "../path.js";
import {
  anyEmpty,
  anyEmptyNotObject,
  anyExtraMember,
  anyFormLegacyEmpty,
  anyFormValue,
  anyJsonError,
  anyJsonForm,
  anyJsonHead,
  anyNoValue,
  anyValueFormKey,
  checkNoAtTypeField,
} from "../wkt/any-json-form.js";
import { anyValueDecode } from "../wkt/any.js";
import {
  anyJsonTarget,
  anyLeftOut,
  typeUrlLookup,
  unresolvedAnyJson,
  withoutUnresolvedAny,
  type UnresolvedAny,
} from "./any-fallback.js";
import { skipped, type MessageReader, type ReadContext } from "./read-context.js";

/**
 * @internal Decodes an Any from its JSON form; the caller counted the Any's own nesting level. `readerFor`
 * gives the reader of the embedded type. An Any whose type the registry lacks is, under the `unresolvedAny`
 * option (any-fallback.ts), {@link skipped} (`"skip"`), or read from its raw form (`"raw"`).
 */
export function anyFromJsonInternal(
  json: unknown,
  ctx: ReadContext,
  readerFor: (desc: DescMessage) => MessageReader,
): Any | typeof skipped {
  const head = anyJsonHead(json);
  if (typeof head === "number") {
    if (head === anyEmpty) return create(AnySchema) as Any;
    throw anyJsonError(head, json);
  }
  const keys = head;
  const obj = json as Record<string, unknown>;
  const url = obj["@type"] as string;
  const target = anyJsonTarget(obj, keys, ctx.registry, ctx.unresolvedAny);
  if (target === undefined) return skipped;
  if (target instanceof Uint8Array) return { $typeName: anyTypeName, typeUrl: url, value: target } as Any;
  const desc = target;
  let inner: unknown;
  const form = anyJsonForm(desc, obj, keys.length);
  if (form === anyFormValue) {
    // A member beside "value" is an unknown field: skipped under ignoreUnknownFields, as protobuf-go
    // (DiscardUnknown) and protobuf-es skip it.
    if (!ctx.ignoreUnknownFields)
      for (const k of keys) if (!anyValueFormKey(k)) throw anyJsonError(anyExtraMember, k, desc);
    if (!Object.prototype.hasOwnProperty.call(obj, "value")) throw anyJsonError(anyNoValue, undefined, desc);
    // Struct, Value, ListValue: the bytes straight from the JSON; anything it does not take (an error included)
    // goes the way below, which builds the message and reports what is wrong.
    const bytes = wktJsonToBinaryFast(desc, obj["value"], ctx.maxDepth - ctx.depth);
    if (bytes !== undefined) return { $typeName: anyTypeName, typeUrl: url, value: bytes } as Any;
    try {
      inner = readerFor(desc)(obj["value"], ctx);
    } catch (e) {
      throw errorAtPath(e, "value");
    }
    // An Any in an Any, left out: so is this one (any-fallback.ts).
    if (inner === skipped) return skipped;
  } else {
    try {
      checkNoAtTypeField(desc, "read");
    } catch (e) {
      throw errorAtPath(e, "@type");
    }
    if (form === anyFormLegacyEmpty) {
      const v = obj["value"];
      if (typeof v !== "object" || v === null || Array.isArray(v)) throw anyJsonError(anyEmptyNotObject, v, desc);
      try {
        inner = readerFor(desc)(v, ctx);
      } catch (e) {
        throw errorAtPath(e, "value");
      }
    } else {
      const body: Record<string, unknown> = {};
      for (const k of keys) if (k !== "@type") setOwn(body, k, obj[k]);
      inner = readerFor(desc)(body, ctx);
    }
  }
  let value: Uint8Array;
  try {
    value = wktToBinaryLean(desc, inner);
  } catch (e) {
    throw new WktJsonError("binary", "$", desc.typeName, `cannot serialize the embedded ${desc.typeName}`, {
      cause: e,
    });
  }
  return { $typeName: anyTypeName, typeUrl: url, value } as Any;
}

/** @internal What {@link anyToJsonInternal} needs of the writer's context. */
export interface AnyWriteContext {
  readonly registry: Registry | undefined;
  readonly maxDepth: number;
  depth: number;
  /** What to write for an Any whose type the registry lacks (any-fallback.ts); default `"error"`. */
  readonly unresolvedAny?: UnresolvedAny;
}

/**
 * @internal Encodes an Any in its JSON form; the caller counted the Any's own nesting level. `writerFor` gives
 * the writer of the embedded type, which takes the caller's own context.
 */
export function anyToJsonInternal<C extends AnyWriteContext>(
  any: Any,
  ctx: C,
  writerFor: (desc: DescMessage) => (message: unknown, ctx: C) => JsonValue,
): JsonValue {
  const url = any.typeUrl ?? "";
  if (typeof url !== "string") {
    throw new WktJsonError("json-type", "$", anyTypeName, `Any.type_url must be a string, got ${describe(url)}`);
  }
  const bytes = any.value ?? new Uint8Array(0);
  if (url === "") {
    if (bytes instanceof Uint8Array && bytes.length === 0) return {};
    throw new WktJsonError("type-url", "$", anyTypeName, "Any.value is set but Any.type_url is empty");
  }
  const mode = ctx.unresolvedAny ?? "error";
  const desc = typeUrlLookup(url, ctx.registry, mode);
  if (desc === undefined) return unresolvedAnyJson(url, bytes, mode);
  if (bytes instanceof Uint8Array) {
    // Struct, Value, ListValue: JSON straight from the bytes; anything it does not take (an error included)
    // goes the way below, which decodes the message and reports what is wrong.
    const json = wktBinaryToJsonFast(desc, bytes, ctx.maxDepth - ctx.depth);
    if (json !== undefined) return { "@type": url, value: json };
  }
  const decoded = anyValueDecode(desc, bytes, wktFromBinaryLean);
  // The root of the call, an Any of an Any left out: the empty Any, as it reads back under "skip".
  if (mode === "skip" && desc.typeName === anyTypeName && anyLeftOut(decoded, ctx.registry, ctx.maxDepth - ctx.depth)) {
    return {};
  }
  // Under "skip", the Anys of the embedded message that are left out (the caller pruned its own message).
  const inner = mode === "skip" ? withoutUnresolvedAny(desc, decoded, ctx) : decoded;
  const out: JsonObject = { "@type": url };
  if (hasCustomJsonRepresentation(desc)) {
    try {
      out["value"] = writerFor(desc)(inner, ctx);
    } catch (e) {
      throw errorAtPath(e, "value");
    }
    return out;
  }
  checkNoAtTypeField(desc, "write");
  const json = writerFor(desc)(inner, ctx) as JsonObject;
  for (const k of Object.keys(json)) setOwn(out, k, json[k]);
  return out;
}
