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
import type { DescMessage, MessageShape, Registry } from "@bufbuild/protobuf";
import type { Any } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { checkMessage } from "../internal/message-type.js";
import { anyTypeName } from "../internal/names.js";
import { wktFromBinary, wktToBinary } from "../internal/wkt-binary.js";
import { checkSchema, typeUrlFor, typeUrlPrefixDefault, typeUrlResolve } from "./registry.js";

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
  return anyValueDecode(desc, any.value, wktFromBinary);
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
