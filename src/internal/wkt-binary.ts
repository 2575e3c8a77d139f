/**
 * The protobuf binary form of the well-known types that an Any holds most often (Timestamp, Duration,
 * FieldMask, the nine wrappers, Empty, Struct, Value, ListValue, Any), written and read without
 * `@bufbuild/protobuf`'s BinaryWriter/BinaryReader: the encoder computes the exact size first and writes into
 * one Uint8Array, the decoder is a tight loop over the bytes.
 *
 * Exactness is the contract, not a goal:
 *
 * - {@link wktToBinary} gives byte for byte what `toBinary(desc, message)` gives (fields in number order,
 *   zero values of implicit presence omitted, oneof members and list items always written, map entries as
 *   key 1 then value 2, negative int32 as 10-byte varints, lone surrogates as U+FFFD as `TextEncoder` writes
 *   them). Any message it does not take in full (a value of an unexpected JS type, unknown fields, a foreign
 *   `$typeName`, ...) goes to `toBinary`, which then encodes or throws as it always did.
 * - {@link wktFromBinary} gives a message equal to `fromBinary(desc, bytes)`, property order included, for the
 *   input it takes: each field with its own wire type, every length in bounds, strings of valid UTF-8, nesting
 *   within protobuf-es's recursion limit. Anything else (unknown fields, a second member of a oneof, map
 *   entries without key or value, overlong tags, truncated or malformed bytes) goes to `fromBinary`, which
 *   accepts or rejects it as it always did. Repeated singular scalars are read last-wins, as protobuf-es does.
 *
 * - {@link wktJsonToBinaryFast} and {@link wktBinaryToJsonFast} go between the JSON form and the bytes of a
 *   Struct, Value or ListValue without building the messages in between, giving exactly what the way through
 *   the messages (struct.ts's reader or writer and the codec above) gives when that succeeds, and nothing
 *   (undefined) for anything that way rejects, so that the caller takes it and reports the error as before.
 *
 * A descriptor is taken only if it is a proto3 message with exactly the fields of the well-known type (so a
 * user descriptor of the same name but another shape goes to protobuf-es), checked once per descriptor.
 *
 * @internal
 * @module
 */
import { fromBinary, toBinary, type DescMessage, type JsonValue, type MessageShape } from "@bufbuild/protobuf";
import { listValueTypeName, structTypeName, valueTypeName } from "./names.js";
import { kindOf } from "./wkt-binary-kinds.js";
import { decodeJson, decodeMessage, decodeStructFamily } from "./wkt-binary-reader.js";
import { encodeJson, encodeMessage, encodeStructFamily } from "./wkt-binary-writer.js";

/**
 * Set while a fast path runs. Nothing in them calls back into user code except property getters of a
 * hand-made message; a getter that serializes again gets protobuf-es rather than the shared state.
 */
let busy = false;

/**
 * Serializes a message of a well-known type exactly as `toBinary(desc, message)` does; other types, and
 * messages the fast path does not take, go to `toBinary` itself.
 *
 * @throws whatever `toBinary` throws for the message.
 * @example
 * wktToBinary(TimestampSchema, timestampFromMs(1500)); //=> Uint8Array [8, 1, 16, 128, 202, 181, 238, 1]
 */
export function wktToBinary(desc: DescMessage, message: unknown): Uint8Array {
  return toBinaryFast(desc, message, encodeStructFamily) ?? toBinary(desc, message as MessageShape<DescMessage>);
}

/**
 * {@link wktToBinary} for the codec: the same bytes, but a Struct, Value or ListValue message goes to `toBinary`.
 * The codec writes those three straight from their JSON ({@link wktJsonToBinaryFast}) and meets their messages
 * only where that declined (mostly on the way to an error), so its bundle does without their message encoder.
 *
 * @throws whatever `toBinary` throws for the message.
 * @example
 * wktToBinaryLean(TimestampSchema, timestampFromMs(1500)); //=> Uint8Array [8, 1, 16, 128, 202, 181, 238, 1]
 */
export function wktToBinaryLean(desc: DescMessage, message: unknown): Uint8Array {
  return toBinaryFast(desc, message, undefined) ?? toBinary(desc, message as MessageShape<DescMessage>);
}

/**
 * Parses a message of a well-known type exactly as `fromBinary(desc, bytes)` does; other types, and input the
 * fast path does not take, go to `fromBinary` itself.
 *
 * @throws whatever `fromBinary` throws for the bytes.
 * @example
 * wktFromBinary(TimestampSchema, new Uint8Array([8, 1])); //=> { $typeName: "google.protobuf.Timestamp", seconds: 1n, nanos: 0 }
 */
export function wktFromBinary(desc: DescMessage, bytes: Uint8Array): MessageShape<DescMessage> {
  return fromBinaryFast(desc, bytes, decodeStructFamily) ?? fromBinary(desc, bytes);
}

/**
 * {@link wktFromBinary} for the codec: the same message, but the bytes of a Struct, Value or ListValue go to
 * `fromBinary` (the codec reads those three straight to their JSON with {@link wktBinaryToJsonFast}, and
 * decodes their messages only where that declined, on the way to an error), so its bundle does without their
 * message decoder.
 *
 * @throws whatever `fromBinary` throws for the bytes.
 * @example
 * wktFromBinaryLean(TimestampSchema, new Uint8Array([8, 1])); //=> { $typeName: "google.protobuf.Timestamp", seconds: 1n, nanos: 0 }
 */
export function wktFromBinaryLean(desc: DescMessage, bytes: Uint8Array): MessageShape<DescMessage> {
  return fromBinaryFast(desc, bytes, undefined) ?? fromBinary(desc, bytes);
}

/**
 * The fast path of {@link wktToBinary} alone: the bytes, or undefined where it hands the message to
 * protobuf-es (exported for the tests, which check that it is taken).
 *
 * @example
 * wktToBinaryFast(TimestampSchema, create(TimestampSchema, { seconds: 1n })); //=> Uint8Array [8, 1]
 * wktToBinaryFast(TimestampSchema, { $typeName: "google.protobuf.Timestamp", seconds: 1, nanos: 0 }); //=> undefined
 */
export function wktToBinaryFast(desc: DescMessage, message: unknown): Uint8Array | undefined {
  return toBinaryFast(desc, message, encodeStructFamily);
}

/** The fast path of the binary writers; `structFamily` takes Struct, Value and ListValue messages, if given. */
function toBinaryFast(
  desc: DescMessage,
  message: unknown,
  structFamily: typeof encodeStructFamily | undefined,
): Uint8Array | undefined {
  const wkt = kindOf(desc);
  if (wkt === undefined || busy) return undefined;
  busy = true;
  try {
    return encodeMessage(wkt, message, structFamily);
  } finally {
    busy = false;
  }
}

/**
 * The fast path of {@link wktFromBinary} alone: the message, or undefined where it hands the bytes to
 * protobuf-es (exported for the tests, which check that it is taken).
 *
 * @example
 * wktFromBinaryFast(TimestampSchema, new Uint8Array([8, 1])); //=> { $typeName: "google.protobuf.Timestamp", seconds: 1n, nanos: 0 }
 * wktFromBinaryFast(TimestampSchema, new Uint8Array([8, 1, 24, 1])); //=> undefined (an unknown field)
 */
export function wktFromBinaryFast(desc: DescMessage, bytes: Uint8Array): MessageShape<DescMessage> | undefined {
  return fromBinaryFast(desc, bytes, decodeStructFamily);
}

/** The fast path of the binary readers; `structFamily` takes Struct, Value and ListValue bytes, if given. */
function fromBinaryFast(
  desc: DescMessage,
  bytes: Uint8Array,
  structFamily: typeof decodeStructFamily | undefined,
): MessageShape<DescMessage> | undefined {
  const wkt = kindOf(desc);
  if (wkt === undefined || busy) return undefined;
  busy = true;
  try {
    // Not taken (undefined) for anything left over or thrown: protobuf-es decodes or throws.
    return decodeMessage(wkt, bytes, structFamily) as MessageShape<DescMessage> | undefined;
  } finally {
    busy = false;
  }
}

/**
 * The JSON form of a serialized Struct, Value or ListValue, straight from the bytes, without building the
 * messages: what `structToJsonInternal(wktFromBinary(desc, bytes), depthLeft)` (or the Value and ListValue
 * forms) gives when that succeeds. Undefined for other types, for input the decoder does not take, and for
 * everything that is an error there (a Value with no variant, NaN or an infinity, nesting beyond
 * `depthLeft`): the caller then takes that path, which reports it.
 *
 * @example
 * wktBinaryToJsonFast(StructSchema, toBinary(StructSchema, structFromJson({ a: [1] })), 100); //=> { a: [1] }
 */
export function wktBinaryToJsonFast(desc: DescMessage, bytes: Uint8Array, depthLeft: number): JsonValue | undefined {
  const typeName = jsonKind(desc);
  if (typeName === undefined || busy) return undefined;
  busy = true;
  try {
    return decodeJson(typeName, bytes, depthLeft);
  } finally {
    busy = false;
  }
}

/**
 * The serialized Struct, Value or ListValue of a JSON value, straight from the JSON, without building the
 * messages: what `wktToBinary(desc, structFromJsonInternal(json, depthLeft))` (or the Value and ListValue
 * forms) gives when that succeeds. Undefined for other types and for everything the JSON reader would
 * reject or treat specially (not JSON, NaN, lone surrogates, `bigint`, objects of another realm, nesting
 * beyond `depthLeft`): the caller then takes that path, which reports it.
 *
 * @example
 * wktJsonToBinaryFast(StructSchema, { a: true }, 100); //=> Uint8Array [10, 7, 10, 1, 97, 18, 2, 32, 1]
 */
export function wktJsonToBinaryFast(desc: DescMessage, json: unknown, depthLeft: number): Uint8Array | undefined {
  const typeName = jsonKind(desc);
  if (typeName === undefined || busy) return undefined;
  busy = true;
  try {
    return encodeJson(typeName, json, depthLeft);
  } finally {
    busy = false;
  }
}

/** The name of a Struct, Value or ListValue descriptor the fast paths take (by name first: cheap), else undefined. */
function jsonKind(desc: DescMessage): string | undefined {
  const t = desc.typeName;
  if (t !== structTypeName && t !== valueTypeName && t !== listValueTypeName) return undefined;
  return kindOf(desc) === undefined ? undefined : t;
}
