/**
 * google.protobuf.Any. JSON form (spec): "The embedded message's own JSON plus a field `@type` holding the
 * type URL; if the embedded type has a custom JSON form, that form is placed in a field `value` next to
 * `@type`." Any.value holds the embedded message serialized as `@bufbuild/protobuf`'s `toBinary` serializes it:
 * the well-known types by our own codec (src/internal/wkt-binary.ts, byte for byte the same, and for
 * Struct, Value and ListValue straight between JSON and bytes), other messages by `toBinary`/`fromBinary`.
 *
 * This module packs and unpacks; the rules of the JSON form are any-json-form.ts's, and codec/any-json.ts
 * reads and writes it.
 *
 * @module
 */
import { mergeFromBinary, type DescMessage, type Message, type MessageShape, type Registry } from "@bufbuild/protobuf";
import type { Any } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { checkMessage } from "../internal/message-type.js";
import { anyTypeName } from "../internal/names.js";
import { wktFromBinary, wktToBinary } from "../internal/wkt-binary.js";
import {
  checkRegistry,
  checkSchema,
  isMessageDesc,
  typeUrlFor,
  typeUrlParse,
  typeUrlPrefixDefault,
  wktRegistry,
} from "./registry.js";

/** Options of {@link anyPack}. */
export interface AnyPackOptions {
  /** The part of the type URL before the type name. Default `type.googleapis.com`. */
  typeUrlPrefix?: string;
}

/**
 * Packs a message into an Any: the type URL `<prefix>/<type name>` and the message's binary serialization.
 * protobuf-es's `anyPack`, with a type URL prefix of your choice; given an Any as the third argument (protobuf-es's
 * second form), it packs into that Any and returns nothing, setting nothing when it throws.
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
): Any;
/**
 * Packs a message into the given Any (protobuf-es's second form): sets its `typeUrl` (prefix
 * `type.googleapis.com`) and `value`.
 *
 * @throws {WktJsonError} as the first form; `into` is left as it was.
 * @example
 * const into = create(AnySchema);
 * anyPack(DurationSchema, durationFromJson("1s"), into); //=> undefined
 * into.typeUrl; //=> "type.googleapis.com/google.protobuf.Duration"
 */
export function anyPack<Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc>, into: Any): void;
export function anyPack<Desc extends DescMessage>(
  schema: Desc,
  message: MessageShape<Desc>,
  optionsOrInto?: AnyPackOptions | Any,
): Any | undefined {
  const into = isAny(optionsOrInto) ? optionsOrInto : undefined;
  const options = into === undefined ? (optionsOrInto as AnyPackOptions | undefined) : undefined;
  const typeName = checkSchema(schema).typeName;
  checkMessage(message, typeName);
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
  if (into === undefined) return { $typeName: anyTypeName, typeUrl, value } as Any;
  into.typeUrl = typeUrl;
  into.value = value;
  return undefined;
}

/** Whether the third argument of {@link anyPack} is an Any to pack into (protobuf-es's form), not options. */
function isAny(value: unknown): value is Any {
  return typeof value === "object" && value !== null && (value as { $typeName?: unknown }).$typeName === anyTypeName;
}

/**
 * Unpacks the message an Any holds, resolving its type URL through `registry` and the well-known types (which
 * resolve without one). protobuf-es's `anyUnpack`: `undefined` for an empty Any (type URL `""`) or a type that
 * neither the registry nor the well-known types have.
 *
 * @throws {WktJsonError} rule `type-url` for a malformed type URL (no `/`, a scheme other than http or https,
 *   a last segment that is not a type name); `binary` when Any.value is not a serialized message of the named
 *   type; `json-type` when `any` is not an object, its `typeUrl` not a string or its `value` not a Uint8Array,
 *   or `registry` is not a Registry.
 * @example
 * anyUnpack(anyPack(TimestampSchema, ts))?.$typeName; //=> "google.protobuf.Timestamp"
 * anyUnpack(create(AnySchema)); //=> undefined
 */
export function anyUnpack(any: Any, registry?: Registry): Message | undefined;
/**
 * Unpacks the message an Any holds if it is a message of `schema` (protobuf-es's second form): `undefined` for
 * an empty Any or one of another type.
 *
 * @throws {WktJsonError} as the first form.
 * @example
 * anyUnpack(anyPack(TimestampSchema, ts), TimestampSchema)?.seconds; //=> ts.seconds
 * anyUnpack(anyPack(TimestampSchema, ts), DurationSchema); //=> undefined
 */
export function anyUnpack<Desc extends DescMessage>(any: Any, schema: Desc): MessageShape<Desc> | undefined;
export function anyUnpack(any: Any, registryOrSchema?: Registry | DescMessage): Message | undefined {
  const typeName = anyTypeNameOf(any);
  if (typeName === undefined) return undefined;
  let desc: DescMessage | undefined;
  if (isMessageDesc(registryOrSchema)) {
    if (registryOrSchema.typeName !== typeName) return undefined;
    desc = registryOrSchema;
  } else {
    const found = checkRegistry(registryOrSchema)?.getMessage(typeName) ?? wktRegistry.getMessage(typeName);
    if (found === undefined || !isMessageDesc(found)) return undefined;
    desc = found;
  }
  return anyValueDecode(desc, any.value, wktFromBinary);
}

/**
 * Tells whether an Any holds a message of `schema` (or of the type named `typeName`): false for an empty Any.
 * protobuf-es's `anyIs`.
 *
 * @throws {WktJsonError} rule `type-url` for a malformed type URL; `json-type` when `any` is not an object or its
 *   `typeUrl` not a string, or `schema` is neither a message descriptor nor a string.
 * @example
 * anyIs(anyPack(TimestampSchema, ts), TimestampSchema); //=> true
 * anyIs(anyPack(TimestampSchema, ts), "google.protobuf.Duration"); //=> false
 */
export function anyIs(any: Any, schema: DescMessage): boolean;
/**
 * Tells whether an Any holds a message of the type named `typeName` (protobuf-es's second form).
 *
 * @throws {WktJsonError} as the first form.
 * @example
 * anyIs(anyPack(TimestampSchema, ts), "google.protobuf.Timestamp"); //=> true
 */
export function anyIs(any: Any, typeName: string): boolean;
export function anyIs(any: Any, schemaOrTypeName: DescMessage | string): boolean {
  const want = typeof schemaOrTypeName === "string" ? schemaOrTypeName : checkSchema(schemaOrTypeName).typeName;
  return anyTypeNameOf(any) === want;
}

/**
 * Unpacks the message an Any holds into `message` (merged, as protobuf-es's `mergeFromBinary` merges) and returns
 * it, if the Any holds a message of `schema`; returns `undefined`, and leaves `message` alone, otherwise.
 * protobuf-es's `anyUnpackTo`.
 *
 * @throws {WktJsonError} rule `binary` when Any.value is not a serialized message of `schema` (`message` is left as
 *   it was); `type-url` and `json-type` as {@link anyUnpack}, and `json-type` when `message` is not a message of
 *   `schema`.
 * @example
 * const into = create(DurationSchema, { nanos: 5 });
 * anyUnpackTo(anyPack(DurationSchema, create(DurationSchema, { seconds: 1n })), DurationSchema, into) === into; //=> true
 * into.seconds; //=> 1n
 */
export function anyUnpackTo<Desc extends DescMessage>(
  any: Any,
  schema: Desc,
  message: MessageShape<Desc>,
): MessageShape<Desc> | undefined {
  checkMessage(message, checkSchema(schema).typeName);
  if (!anyIs(any, schema)) return undefined;
  // Decoded on its own first, so that bytes that are no such message leave `message` as it was.
  anyValueDecode(schema, any.value, wktFromBinary);
  try {
    return mergeFromBinary(schema, message, any.value);
  } catch (e) {
    throw new WktJsonError("binary", "$", anyTypeName, `cannot merge Any.value into the ${schema.typeName}`, {
      cause: e,
    });
  }
}

/** The type name of an Any's type URL, or undefined for an empty Any (type URL `""`). */
function anyTypeNameOf(any: Any): string | undefined {
  if (typeof any !== "object" || any === null) {
    throw new WktJsonError("json-type", "$", anyTypeName, `expected an Any, got ${describe(any)}`);
  }
  const url = any.typeUrl;
  return url === "" ? undefined : typeUrlParse(url).typeName;
}

/**
 * @internal Decodes Any.value as a message of `desc` with `decode` (wktFromBinary, or the codec's
 * wktFromBinaryLean); rule `json-type` or `binary` when it is none.
 */
export function anyValueDecode(
  desc: DescMessage,
  value: unknown,
  decode: (desc: DescMessage, bytes: Uint8Array) => MessageShape<DescMessage>,
): MessageShape<DescMessage> {
  if (!(value instanceof Uint8Array)) {
    throw new WktJsonError("json-type", "$", anyTypeName, `Any.value must be a Uint8Array, got ${describe(value)}`);
  }
  try {
    return decode(desc, value);
  } catch (e) {
    throw new WktJsonError("binary", "$", anyTypeName, `Any.value is not a serialized ${desc.typeName}`, { cause: e });
  }
}
