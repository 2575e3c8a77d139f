/**
 * google.protobuf.Any. JSON form (spec): "The embedded message's own JSON plus a field `@type` holding the
 * type URL; if the embedded type has a custom JSON form, that form is placed in a field `value` next to
 * `@type`." Any.value holds the embedded message serialized as `@bufbuild/protobuf`'s `toBinary` serializes it:
 * the well-known types by our own codec (src/internal/wkt-binary.ts, byte for byte the same, and for
 * Struct, Value and ListValue straight between JSON and bytes), other messages by `toBinary`/`fromBinary`.
 *
 * Empty is written `{"@type": ".../google.protobuf.Empty"}` and read in that form and in the legacy
 * `{"@type": ..., "value": {}}` form. An Any with neither type URL nor value is `{}`.
 *
 * A message type with a field whose JSON name (or proto name) is `@type` cannot go into an Any's JSON form:
 * its member would replace the type URL on the way out (protobuf-es writes it last, over the URL) and could not
 * be told from the URL on the way in. protoc rejects such a json_name, but a descriptor built by hand need not
 * come from protoc; both directions throw rule `type-url` for it, whether the field is set or not, so that
 * nothing is written that reads back as another type.
 *
 * @module
 */
import {
  create,
  type DescMessage,
  type JsonObject,
  type JsonValue,
  type MessageShape,
  type Registry,
} from "@bufbuild/protobuf";
import { AnySchema, hasCustomJsonRepresentation, type Any } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { checkMaxValues, depthOption, readerFor, type JsonReadOptions, type ReadContext } from "../codec/from-json.js";
import { describe } from "../internal/describe.js";
import { basePathOf, errorAtBase } from "../internal/base-path.js";
import { setOwn } from "../internal/json-value.js";
import { wktBinaryToJsonFast, wktFromBinary, wktJsonToBinaryFast, wktToBinary } from "../internal/wkt-binary.js";
import { errorAtPath } from "../path.js";
import { checkRegistry, checkSchema, typeUrlFor, typeUrlPrefixDefault, typeUrlResolve } from "./registry.js";
import { maxDepthOption, writerFor, type WriteContext } from "../codec/to-json.js";

const anyTypeName = "google.protobuf.Any";

/** Options of {@link anyPack}. */
export interface AnyPackOptions {
  /** The part of the type URL before the type name. Default `type.googleapis.com`. */
  typeUrlPrefix?: string;
}

/**
 * Packs a message into an Any: the type URL `<prefix>/<type name>` and the message's binary serialization.
 *
 * @throws {WktJsonError} rule `json-type` when `schema` is not a message descriptor, `message` is not a
 *   message of it or `typeUrlPrefix` is not a string; `binary` when the message holds a value its field cannot
 *   hold, so that it has no binary serialization.
 * @example
 * const any = anyPack(DurationSchema, durationFromJson("1.5s"), { typeUrlPrefix: "example.com/types" });
 * any.typeUrl; //=> "example.com/types/google.protobuf.Duration"
 */
export function anyPack<Desc extends DescMessage>(
  schema: Desc,
  message: MessageShape<Desc>,
  options?: AnyPackOptions,
): Any {
  const typeName = checkSchema(schema).typeName;
  if (typeof message !== "object" || message === null) {
    throw new WktJsonError("json-type", "$", typeName, `expected a message, got ${describe(message)}`);
  }
  const actual = (message as { $typeName?: unknown }).$typeName;
  if (actual !== typeName) {
    const got = typeof actual === "string" ? actual : describe(actual);
    throw new WktJsonError("json-type", "$", typeName, `expected a message ${typeName}, got ${got}`);
  }
  const typeUrl = typeUrlFor(typeName, options?.typeUrlPrefix ?? typeUrlPrefixDefault);
  let value: Uint8Array;
  try {
    value = wktToBinary(schema, message);
  } catch (e) {
    if (e instanceof WktJsonError) throw e;
    // @bufbuild/protobuf's toBinary throws its own errors for values a field cannot hold.
    const why = e instanceof Error ? `: ${e.message}` : "";
    throw new WktJsonError("binary", "$", typeName, `cannot serialize the message${why}`, { cause: e });
  }
  return { $typeName: anyTypeName, typeUrl, value } as Any;
}

/**
 * Unpacks the message an Any holds, resolving its type URL through `registry` and the well-known types.
 *
 * @throws {WktJsonError} rule `type-url`, `unknown-type`, or `binary` when Any.value is not a serialized
 *   message of the named type; `json-type` when `any` is not an object, its `typeUrl` not a string or its
 *   `value` not a Uint8Array, or `registry` is not a Registry.
 * @example
 * const msg = anyUnpack(anyPack(TimestampSchema, ts));
 * msg.$typeName; //=> "google.protobuf.Timestamp"
 */
export function anyUnpack(any: Any, registry?: Registry): MessageShape<DescMessage> {
  if (typeof any !== "object" || any === null) {
    throw new WktJsonError("json-type", "$", anyTypeName, `expected an Any, got ${describe(any)}`);
  }
  const desc = typeUrlResolve(any.typeUrl, registry);
  return decodeValue(desc, any.value);
}

function decodeValue(desc: DescMessage, value: unknown): MessageShape<DescMessage> {
  if (!(value instanceof Uint8Array)) {
    throw new WktJsonError("json-type", "$", anyTypeName, `Any.value must be a Uint8Array, got ${describe(value)}`);
  }
  try {
    return wktFromBinary(desc, value);
  } catch (e) {
    throw new WktJsonError("binary", "$", anyTypeName, `Any.value is not a serialized ${desc.typeName}`, { cause: e });
  }
}

const atTypeFields = new WeakMap<DescMessage, string | null>();

/**
 * @internal The name of the field of `desc` whose JSON name or proto name is `@type` (which no Any's JSON form
 * can hold, see the module comment), or `null`; worked out once per descriptor.
 */
export function anyAtTypeField(desc: DescMessage): string | null {
  let name = atTypeFields.get(desc);
  if (name === undefined) {
    name = null;
    for (const f of desc.fields) {
      if (f.jsonName === "@type" || f.name === "@type") {
        name = f.name;
        break;
      }
    }
    atTypeFields.set(desc, name);
  }
  return name;
}

/** @internal Throws rule `type-url` if `desc` has a field named `@type` in JSON (see {@link anyAtTypeField}). */
export function checkNoAtTypeField(desc: DescMessage, direction: string): void {
  const field = anyAtTypeField(desc);
  if (field !== null) {
    throw new WktJsonError(
      "type-url",
      "$",
      anyTypeName,
      `cannot ${direction} an Any of ${desc.typeName}: its field ${JSON.stringify(field)} has the JSON name "@type", ` +
        "which is the Any's type URL",
    );
  }
}

/** @internal Decodes an Any from its JSON form; the caller counted the Any's own nesting level. */
export function anyFromJsonInternal(json: unknown, ctx: ReadContext): Any {
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new WktJsonError("json-type", "$", anyTypeName, `expected an object, got ${describe(json)}`);
  }
  const obj = json as Record<string, unknown>;
  const keys = Object.keys(obj);
  if (keys.length === 0) return create(AnySchema) as Any;
  if (!Object.prototype.hasOwnProperty.call(obj, "@type")) {
    throw new WktJsonError("type-url", "$", anyTypeName, `"@type" is missing; an Any with members must name its type`);
  }
  const url = obj["@type"];
  if (typeof url !== "string") {
    throw errorAtPath(
      new WktJsonError("json-type", "$", anyTypeName, `"@type" must be a string, got ${describe(url)}`),
      "@type",
    );
  }
  let desc: DescMessage;
  try {
    desc = typeUrlResolve(url, ctx.registry);
  } catch (e) {
    throw errorAtPath(e, "@type");
  }
  let inner: unknown;
  if (hasCustomJsonRepresentation(desc)) {
    for (const k of keys) {
      if (k !== "@type" && k !== "value") {
        const e = new WktJsonError(
          "unknown-field",
          "$",
          desc.typeName,
          `${JSON.stringify(k)} is not allowed: ${desc.typeName} goes under "value"`,
        );
        throw errorAtPath(e, k);
      }
    }
    if (!Object.prototype.hasOwnProperty.call(obj, "value")) {
      throw new WktJsonError(
        "json-type",
        "$",
        anyTypeName,
        `"value" is missing; ${desc.typeName} is written under "value"`,
      );
    }
    // Struct, Value, ListValue: the bytes straight from the JSON; anything it does not take (an error included)
    // goes the way below, which builds the message and reports what is wrong.
    const bytes = wktJsonToBinaryFast(desc, obj["value"], ctx.maxDepth - ctx.depth);
    if (bytes !== undefined) return { $typeName: anyTypeName, typeUrl: url, value: bytes } as Any;
    try {
      inner = readerFor(desc)(obj["value"], ctx);
    } catch (e) {
      throw errorAtPath(e, "value");
    }
  } else {
    try {
      checkNoAtTypeField(desc, "read");
    } catch (e) {
      throw errorAtPath(e, "@type");
    }
    const body: Record<string, unknown> = {};
    if (
      desc.typeName === "google.protobuf.Empty" &&
      keys.length === 2 &&
      Object.prototype.hasOwnProperty.call(obj, "value")
    ) {
      // The legacy form of an Empty: {"@type": ".../google.protobuf.Empty", "value": {}}.
      const v = obj["value"];
      if (typeof v !== "object" || v === null || Array.isArray(v)) {
        throw errorAtPath(
          new WktJsonError("json-type", "$", desc.typeName, `expected {}, got ${describe(v)}`),
          "value",
        );
      }
      try {
        inner = readerFor(desc)(v, ctx);
      } catch (e) {
        throw errorAtPath(e, "value");
      }
    } else {
      for (const k of keys) if (k !== "@type") setOwn(body, k, obj[k]);
      inner = readerFor(desc)(body, ctx);
    }
  }
  let value: Uint8Array;
  try {
    value = wktToBinary(desc, inner);
  } catch (e) {
    throw new WktJsonError("binary", "$", desc.typeName, `cannot serialize the embedded ${desc.typeName}`, {
      cause: e,
    });
  }
  return { $typeName: anyTypeName, typeUrl: url, value } as Any;
}

/** @internal Encodes an Any in its JSON form; the caller counted the Any's own nesting level. */
export function anyToJsonInternal(any: Any, ctx: WriteContext): JsonValue {
  const url = any.typeUrl ?? "";
  if (typeof url !== "string") {
    throw new WktJsonError("json-type", "$", anyTypeName, `Any.type_url must be a string, got ${describe(url)}`);
  }
  const bytes = any.value ?? new Uint8Array(0);
  if (url === "") {
    if (bytes instanceof Uint8Array && bytes.length === 0) return {};
    throw new WktJsonError("type-url", "$", anyTypeName, "Any.value is set but Any.type_url is empty");
  }
  const desc = typeUrlResolve(url, ctx.registry);
  if (bytes instanceof Uint8Array) {
    // Struct, Value, ListValue: JSON straight from the bytes; anything it does not take (an error included)
    // goes the way below, which decodes the message and reports what is wrong.
    const json = wktBinaryToJsonFast(desc, bytes, ctx.maxDepth - ctx.depth);
    if (json !== undefined) return { "@type": url, value: json };
  }
  const inner = decodeValue(desc, bytes);
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

/**
 * Decodes an Any from its JSON form.
 *
 * @throws {WktJsonError} rule `type-url` (missing or malformed `@type`), `unknown-type`, and any rule of the
 *   embedded type, with the path into it; `size` past `maxValues` (default 2,000,000, as for `fromJson`);
 *   `json-type` for a `registry` option that is not a Registry, `range` for a `maxDepth` that is not a whole
 *   number from 1 up, a `maxValues` that is not a whole number from 0 up or a `path` that is not a string
 *   starting with `$`. Paths are relative to `$`, or to `options.path` when given.
 * @example
 * anyFromJson({ "@type": "type.googleapis.com/google.protobuf.Duration", value: "1s" }).typeUrl;
 * //=> "type.googleapis.com/google.protobuf.Duration"
 * anyFromJson({ "@type": "type.googleapis.com/google.protobuf.Duration", value: "1" }, { path: "$.detail" });
 * // throws WktJsonError (rule "syntax", path "$.detail.value")
 */
export function anyFromJson(
  json: unknown,
  options?: Partial<JsonReadOptions> & {
    /**
     * JSON path of the value in the caller's document, such as `"$.detail"`: errors are reported at this path
     * and below it (`$.detail.value`) instead of at `$`. A string starting with `$`. Default `"$"`.
     */
    path?: string | undefined;
  },
): Any {
  const base = basePathOf(options, anyTypeName);
  const ctx: ReadContext = {
    ignoreUnknownFields: options?.ignoreUnknownFields === true,
    registry: checkRegistry(options?.registry),
    maxDepth: depthOption(options),
    depth: 0,
    values: 0,
    maxValues: checkMaxValues(options?.maxValues, undefined),
  };
  if (base === "$") return readerFor(AnySchema)(json, ctx) as unknown as Any;
  try {
    return readerFor(AnySchema)(json, ctx) as unknown as Any;
  } catch (e) {
    throw errorAtBase(e, base);
  }
}

/**
 * Encodes an Any in its JSON form.
 *
 * @throws {WktJsonError} rule `type-url`, `unknown-type`, `binary`, and any rule of the embedded type;
 *   `json-type` when `any` is not an Any (or its `typeUrl` not a string), or `registry` is not a Registry;
 *   `range` for a `path` that is not a string starting with `$`. Paths are relative to `$`, or to
 *   `options.path` when given.
 * @example
 * anyToJson(anyPack(DurationSchema, durationFromJson("1s")));
 * //=> { "@type": "type.googleapis.com/google.protobuf.Duration", value: "1s" }
 * anyToJson(create(AnySchema, { typeUrl: "type.googleapis.com/acme.Unknown" }), { path: "$.detail" });
 * // throws WktJsonError (rule "unknown-type", path "$.detail")
 */
export function anyToJson(
  any: Any,
  options?: {
    registry?: Registry;
    maxDepth?: number;
    /**
     * JSON path of the value in the caller's document, such as `"$.detail"`: errors are reported at this path
     * and below it (`$.detail.value`) instead of at `$`. A string starting with `$`. Default `"$"`.
     */
    path?: string | undefined;
  },
): JsonValue {
  const base = basePathOf(options, anyTypeName);
  const ctx: WriteContext = {
    alwaysEmitImplicit: false,
    enumAsInteger: false,
    useProtoFieldName: false,
    registry: checkRegistry(options?.registry),
    maxDepth: maxDepthOption(options?.maxDepth),
    depth: 0,
    negativeZero: false,
    foundPlan: undefined,
    foundValue: undefined,
  };
  if (base === "$") return writerFor(AnySchema)(any, ctx);
  try {
    return writerFor(AnySchema)(any, ctx);
  } catch (e) {
    throw errorAtBase(e, base);
  }
}
