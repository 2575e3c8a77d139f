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
import {
  fromBinary,
  protoInt64,
  toBinary,
  type DescField,
  type DescMessage,
  type JsonObject,
  type JsonValue,
  type MessageShape,
} from "@bufbuild/protobuf";
import { noteNumber } from "./json-value.js";
import { isMessageOf } from "./message-type.js";

// ---------------------------------------------------------------------------------------------------------
// Which descriptors are taken

const enum Kind {
  Timestamp,
  Duration,
  FieldMask,
  Empty,
  Struct,
  Value,
  ListValue,
  Any,
  DoubleValue,
  FloatValue,
  Int64Value,
  UInt64Value,
  Int32Value,
  UInt32Value,
  BoolValue,
  StringValue,
  BytesValue,
}

/** Scalar type numbers of google.protobuf.FieldDescriptorProto.Type, as protobuf-es's ScalarType. */
const DOUBLE = 1,
  FLOAT = 2,
  INT64 = 3,
  UINT64 = 4,
  INT32 = 5,
  BOOL = 8,
  STRING = 9,
  BYTES = 12,
  UINT32 = 13;
const EDITION_PROTO3 = 999;
const IMPLICIT = 2;

/** [number, localName, kind, scalar type or message type name, oneof local name] of each field. */
type FieldSpec = readonly [number, string, "scalar" | "enum" | "message" | "list" | "map", number | string, string?];

const specs: Record<string, readonly [Kind, readonly FieldSpec[]]> = {
  "google.protobuf.Timestamp": [
    Kind.Timestamp,
    [
      [1, "seconds", "scalar", INT64],
      [2, "nanos", "scalar", INT32],
    ],
  ],
  "google.protobuf.Duration": [
    Kind.Duration,
    [
      [1, "seconds", "scalar", INT64],
      [2, "nanos", "scalar", INT32],
    ],
  ],
  "google.protobuf.FieldMask": [Kind.FieldMask, [[1, "paths", "list", STRING]]],
  "google.protobuf.Empty": [Kind.Empty, []],
  "google.protobuf.Struct": [Kind.Struct, [[1, "fields", "map", "google.protobuf.Value"]]],
  "google.protobuf.Value": [
    Kind.Value,
    [
      [1, "nullValue", "enum", "google.protobuf.NullValue", "kind"],
      [2, "numberValue", "scalar", DOUBLE, "kind"],
      [3, "stringValue", "scalar", STRING, "kind"],
      [4, "boolValue", "scalar", BOOL, "kind"],
      [5, "structValue", "message", "google.protobuf.Struct", "kind"],
      [6, "listValue", "message", "google.protobuf.ListValue", "kind"],
    ],
  ],
  "google.protobuf.ListValue": [Kind.ListValue, [[1, "values", "list", "google.protobuf.Value"]]],
  "google.protobuf.Any": [
    Kind.Any,
    [
      [1, "typeUrl", "scalar", STRING],
      [2, "value", "scalar", BYTES],
    ],
  ],
  "google.protobuf.DoubleValue": [Kind.DoubleValue, [[1, "value", "scalar", DOUBLE]]],
  "google.protobuf.FloatValue": [Kind.FloatValue, [[1, "value", "scalar", FLOAT]]],
  "google.protobuf.Int64Value": [Kind.Int64Value, [[1, "value", "scalar", INT64]]],
  "google.protobuf.UInt64Value": [Kind.UInt64Value, [[1, "value", "scalar", UINT64]]],
  "google.protobuf.Int32Value": [Kind.Int32Value, [[1, "value", "scalar", INT32]]],
  "google.protobuf.UInt32Value": [Kind.UInt32Value, [[1, "value", "scalar", UINT32]]],
  "google.protobuf.BoolValue": [Kind.BoolValue, [[1, "value", "scalar", BOOL]]],
  "google.protobuf.StringValue": [Kind.StringValue, [[1, "value", "scalar", STRING]]],
  "google.protobuf.BytesValue": [Kind.BytesValue, [[1, "value", "scalar", BYTES]]],
};

/** The kind of each descriptor seen, or null when protobuf-es handles it. */
const kinds = new WeakMap<DescMessage, Kind | null>();

function kindOf(desc: DescMessage): Kind | undefined {
  const known = kinds.get(desc);
  if (known !== undefined) return known ?? undefined;
  const kind = check(desc, new Set());
  kinds.set(desc, kind ?? null);
  return kind;
}

/** The kind of `desc` if it has exactly the shape of the well-known type of its name (and so do the types it uses). */
function check(desc: DescMessage, seen: Set<DescMessage>): Kind | undefined {
  const spec = Object.prototype.hasOwnProperty.call(specs, desc.typeName) ? specs[desc.typeName] : undefined;
  if (spec === undefined || !protoInt64.supported || desc.file.edition !== EDITION_PROTO3) return undefined;
  if (seen.has(desc)) return spec[0];
  seen.add(desc);
  const [kind, fields] = spec;
  if (desc.fields.length !== fields.length) return undefined;
  const oneofs = fields.some((f) => f[4] !== undefined) ? 1 : 0;
  if (desc.oneofs.length !== oneofs) return undefined;
  for (let i = 0; i < fields.length; i++) {
    if (!fieldMatches(desc.fields[i]!, fields[i]!, seen)) return undefined;
  }
  return kind;
}

function fieldMatches(f: DescField, [no, local, fieldKind, type, oneof]: FieldSpec, seen: Set<DescMessage>): boolean {
  if (f.number !== no || f.localName !== local || f.fieldKind !== fieldKind || f.oneof?.localName !== oneof)
    return false;
  if (oneof === undefined && f.presence !== IMPLICIT) return false;
  switch (f.fieldKind) {
    case "scalar":
      return f.scalar === type && !f.longAsString && (f.scalar !== STRING || f.utf8Validation);
    case "enum":
      return f.enum.typeName === type && f.enum.open;
    case "message":
      return f.message.typeName === type && !f.delimitedEncoding && check(f.message, seen) !== undefined;
    case "list":
      if (f.listKind === "scalar")
        return f.scalar === type && !f.longAsString && !f.packed && (f.scalar !== STRING || f.utf8Validation);
      return (
        f.listKind === "message" &&
        f.message.typeName === type &&
        !f.delimitedEncoding &&
        check(f.message, seen) !== undefined
      );
    case "map":
      return (
        f.mapKey === STRING &&
        f.utf8Validation &&
        f.mapKind === "message" &&
        f.message.typeName === type &&
        check(f.message, seen) !== undefined
      );
  }
}

// ---------------------------------------------------------------------------------------------------------
// Entry points

/**
 * Serializes a message of a well-known type exactly as `toBinary(desc, message)` does; other types, and
 * messages the fast path does not take, go to `toBinary` itself.
 *
 * @throws whatever `toBinary` throws for the message.
 * @example
 * wktToBinary(TimestampSchema, timestampFromMs(1500)); //=> Uint8Array [8, 1, 16, 128, 202, 181, 238, 1]
 */
export function wktToBinary(desc: DescMessage, message: unknown): Uint8Array {
  return wktToBinaryFast(desc, message) ?? toBinary(desc, message as MessageShape<DescMessage>);
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
  return wktFromBinaryFast(desc, bytes) ?? fromBinary(desc, bytes);
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
  const kind = kindOf(desc);
  if (kind === undefined || busy) return undefined;
  busy = true;
  try {
    return encode(kind, message);
  } catch {
    // Not taken (or a stack overflow): protobuf-es encodes or throws.
    return undefined;
  } finally {
    busy = false;
    out = empty;
    outView = undefined;
    if (sizes.length > sizesKept) sizes = [];
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
  const kind = kindOf(desc);
  if (kind === undefined || busy) return undefined;
  // Not taken (undefined) for anything left over or thrown: protobuf-es decodes or throws.
  return readWhole(bytes, () => decode(kind) as MessageShape<DescMessage>);
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
  const t = desc.typeName;
  if (t !== STRUCT && t !== VALUE && t !== LIST_VALUE) return undefined;
  const kind = kindOf(desc);
  if ((kind !== Kind.Struct && kind !== Kind.Value && kind !== Kind.ListValue) || busy) return undefined;
  return readWhole(bytes, () =>
    kind === Kind.Struct
      ? jsonStruct(rlen, 1, depthLeft)
      : kind === Kind.Value
        ? jsonValue(rlen, 1, depthLeft)
        : jsonList(rlen, 1, depthLeft),
  );
}

/**
 * Runs `read` over all of `bytes` with the reader state set up (the caller has checked that it is not busy):
 * its result if it consumed every byte, undefined if it left bytes over or threw.
 */
function readWhole<T>(bytes: Uint8Array, read: () => T): T | undefined {
  busy = true;
  rb = bytes;
  rp = 0;
  rlen = bytes.length;
  rview = undefined;
  try {
    const result = read();
    return rp === rlen ? result : undefined;
  } catch {
    return undefined;
  } finally {
    busy = false;
    rb = empty;
    rview = undefined;
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
  const t = desc.typeName;
  if (t !== STRUCT && t !== VALUE && t !== LIST_VALUE) return undefined;
  const kind = kindOf(desc);
  if ((kind !== Kind.Struct && kind !== Kind.Value && kind !== Kind.ListValue) || busy) return undefined;
  busy = true;
  objsUsed = 0;
  try {
    sn = 0;
    on = 0;
    let size: number;
    if (kind === Kind.Struct) {
      if (!isJsonObject(json)) return undefined;
      size = jStructSize(json, depthLeft);
    } else if (kind === Kind.ListValue) {
      if (!Array.isArray(json)) return undefined;
      size = jListSize(json, depthLeft);
    } else {
      objs[on++] = json;
      size = jValueSize(json, depthLeft);
    }
    sizesUsed = sn;
    objsUsed = on;
    begin(size);
    on = 0;
    if (kind === Kind.Value) jWriteValue(objs[on++]);
    else if (kind === Kind.Struct) jWriteStruct();
    else jWriteList();
    if (on !== objsUsed) bail();
    return finish();
  } catch {
    return undefined;
  } finally {
    busy = false;
    out = empty;
    outView = undefined;
    if (sizes.length > sizesKept) sizes = [];
    // No reference to the caller's data is kept.
    if (objs.length > sizesKept) objs = [];
    else objs.fill(undefined, 0, Math.max(on, objsUsed));
  }
}

/**
 * Set while a fast path runs. Nothing in them calls back into user code except property getters of a
 * hand-made message; a getter that serializes again gets protobuf-es rather than the shared state.
 */
let busy = false;

/** Thrown inside the fast paths to hand the work to protobuf-es. */
const notTaken = new Error("not taken by the fast path");

function bail(): never {
  throw notTaken;
}

const TIMESTAMP = "google.protobuf.Timestamp";
const DURATION = "google.protobuf.Duration";
const FIELD_MASK = "google.protobuf.FieldMask";
const EMPTY = "google.protobuf.Empty";
const STRUCT = "google.protobuf.Struct";
const VALUE = "google.protobuf.Value";
const LIST_VALUE = "google.protobuf.ListValue";
const ANY = "google.protobuf.Any";

const typeNames: Record<Kind, string> = {
  [Kind.Timestamp]: TIMESTAMP,
  [Kind.Duration]: DURATION,
  [Kind.FieldMask]: FIELD_MASK,
  [Kind.Empty]: EMPTY,
  [Kind.Struct]: STRUCT,
  [Kind.Value]: VALUE,
  [Kind.ListValue]: LIST_VALUE,
  [Kind.Any]: ANY,
  [Kind.DoubleValue]: "google.protobuf.DoubleValue",
  [Kind.FloatValue]: "google.protobuf.FloatValue",
  [Kind.Int64Value]: "google.protobuf.Int64Value",
  [Kind.UInt64Value]: "google.protobuf.UInt64Value",
  [Kind.Int32Value]: "google.protobuf.Int32Value",
  [Kind.UInt32Value]: "google.protobuf.UInt32Value",
  [Kind.BoolValue]: "google.protobuf.BoolValue",
  [Kind.StringValue]: "google.protobuf.StringValue",
  [Kind.BytesValue]: "google.protobuf.BytesValue",
};

// ---------------------------------------------------------------------------------------------------------
// Encoding: a size pass that records the length of every nested message and string in `sizes` (pre-order),
// then a write pass into one buffer of the exact size that reads them back in the same order.

let sizes: number[] = [];
/** Beyond this many recorded sizes, the array is dropped after the call rather than kept. */
const sizesKept = 4096;
/** Next free slot of `sizes` (size pass), next slot to read (write pass). */
let sn = 0;
let out: Uint8Array = new Uint8Array(0);
let p = 0;
const empty = new Uint8Array(0);

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;
const SAFE_MIN = -(2n ** 53n) + 1n;
const SAFE_MAX = 2n ** 53n - 1n;
const TWO32 = 4294967296;

/** Low and high 32 bits (two's complement, as int32) of the last 64-bit integer split. */
let lo = 0;
let hi = 0;

function split64(v: bigint): void {
  if (v >= SAFE_MIN && v <= SAFE_MAX) {
    const n = Number(v);
    lo = n >>> 0;
    hi = Math.floor(n / TWO32) | 0;
  } else {
    lo = Number(BigInt.asUintN(32, v)) | 0;
    hi = Number(BigInt.asIntN(32, v >> 32n));
  }
}

function isInt32(v: unknown): v is number {
  return typeof v === "number" && (v | 0) === v;
}

function isUint32(v: unknown): v is number {
  return typeof v === "number" && v >>> 0 === v;
}

/** Bails unless `m` is a message of `typeName` ({@link isMessageOf}) without unknown fields. */
function checkMessage(m: unknown, typeName: string): asserts m is Record<string, unknown> {
  if (!isMessageOf(m, typeName) || m.$unknown !== undefined) bail();
}

function varintSize(v: number): number {
  return v < 0x80 ? 1 : v < 0x4000 ? 2 : v < 0x200000 ? 3 : v < 0x10000000 ? 4 : 5;
}

/** Bytes of the varint of the 64-bit integer last split. */
function varint64Size(): number {
  if (hi === 0) return varintSize(lo >>> 0);
  if (hi < 0) return 10;
  // 32 + the bits of hi, 7 to a byte.
  return Math.ceil((64 - Math.clz32(hi)) / 7);
}

function int32Size(v: number): number {
  return v >= 0 ? varintSize(v) : 10;
}

/** UTF-8 length of a string as TextEncoder writes it (a lone surrogate becomes U+FFFD, 3 bytes). */
function utf8Size(s: string): number {
  const n = s.length;
  let size = n;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) size += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      size += 2;
      i++;
    } else size += 2;
  }
  return size;
}

function writeVarint(v: number): void {
  while (v > 0x7f) {
    out[p++] = (v & 0x7f) | 0x80;
    v >>>= 7;
  }
  out[p++] = v;
}

function writeInt32(v: number): void {
  if (v >= 0) {
    writeVarint(v);
    return;
  }
  for (let i = 0; i < 9; i++) {
    out[p++] = (v & 0x7f) | 0x80;
    v >>= 7;
  }
  out[p++] = 1;
}

/** Writes the 64-bit integer last split, as protobuf-es's BinaryWriter.writeVarint64. */
function writeVarint64(): void {
  for (let i = 0; i < 28; i += 7) {
    const shift = lo >>> i;
    const more = !(shift >>> 7 === 0 && hi === 0);
    out[p++] = (more ? shift | 0x80 : shift) & 0xff;
    if (!more) return;
  }
  const splitBits = ((lo >>> 28) & 0x0f) | ((hi & 0x07) << 4);
  const moreBits = !(hi >> 3 === 0);
  out[p++] = (moreBits ? splitBits | 0x80 : splitBits) & 0xff;
  if (!moreBits) return;
  for (let i = 3; i < 31; i += 7) {
    const shift = hi >>> i;
    const more = !(shift >>> 7 === 0);
    out[p++] = (more ? shift | 0x80 : shift) & 0xff;
    if (!more) return;
  }
  out[p++] = (hi >>> 31) & 0x01;
}

/** A DataView of `out`, made on the first float or double of a call. */
let outView: DataView | undefined;

function writeDouble(v: number): void {
  (outView ??= new DataView(out.buffer, out.byteOffset, out.byteLength)).setFloat64(p, v, true);
  p += 8;
}

function writeFloat(v: number): void {
  (outView ??= new DataView(out.buffer, out.byteOffset, out.byteLength)).setFloat32(p, v, true);
  p += 4;
}

/** Writes `s` as UTF-8 (`size` bytes, from {@link utf8Size}), as TextEncoder does. */
function writeString(s: string, size: number): void {
  const n = s.length;
  const start = p;
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) break;
    out[p++] = c;
  }
  for (; i < n; i++) {
    let c = s.charCodeAt(i);
    if (c < 0x80) {
      out[p++] = c;
    } else if (c < 0x800) {
      out[p++] = 0xc0 | (c >> 6);
      out[p++] = 0x80 | (c & 0x3f);
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const d = c <= 0xdbff && i + 1 < n ? s.charCodeAt(i + 1) : 0;
      if ((d & 0xfc00) === 0xdc00) {
        c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
        out[p++] = 0xf0 | (c >> 18);
        out[p++] = 0x80 | ((c >> 12) & 0x3f);
        out[p++] = 0x80 | ((c >> 6) & 0x3f);
        out[p++] = 0x80 | (c & 0x3f);
      } else {
        out[p++] = 0xef;
        out[p++] = 0xbf;
        out[p++] = 0xbd;
      }
    } else {
      out[p++] = 0xe0 | (c >> 12);
      out[p++] = 0x80 | ((c >> 6) & 0x3f);
      out[p++] = 0x80 | (c & 0x3f);
    }
  }
  if (p - start !== size) bail();
}

/** Allocates the output of `size` bytes and makes it the target of the write pass. */
function begin(size: number): void {
  out = new Uint8Array(size);
  outView = undefined;
  p = 0;
  sn = 0;
}

function finish(): Uint8Array {
  const result = out;
  if (p !== result.length || sn !== sizesUsed) bail();
  out = empty;
  outView = undefined;
  return result;
}

/** Slots the size pass used. */
let sizesUsed = 0;

function encode(kind: Kind, m: unknown): Uint8Array {
  const typeName = typeNames[kind];
  checkMessage(m, typeName);
  switch (kind) {
    case Kind.Timestamp:
    case Kind.Duration: {
      const seconds = m["seconds"];
      const nanos = m["nanos"];
      if (typeof seconds !== "bigint" || seconds < INT64_MIN || seconds > INT64_MAX || !isInt32(nanos)) bail();
      let size = 0;
      if (seconds !== 0n) {
        split64(seconds);
        size += 1 + varint64Size();
      }
      if (nanos !== 0) size += 1 + int32Size(nanos);
      begin(size);
      sizesUsed = 0;
      if (seconds !== 0n) {
        split64(seconds);
        out[p++] = 0x08;
        writeVarint64();
      }
      if (nanos !== 0) {
        out[p++] = 0x10;
        writeInt32(nanos);
      }
      return finish();
    }
    case Kind.Empty:
      return new Uint8Array(0);
    case Kind.FieldMask: {
      const paths = m["paths"];
      if (!Array.isArray(paths)) bail();
      sn = 0;
      let size = 0;
      for (let i = 0; i < paths.length; i++) {
        const s: unknown = paths[i];
        if (typeof s !== "string") bail();
        const n = utf8Size(s);
        sizes[sn++] = n;
        size += 1 + varintSize(n) + n;
      }
      sizesUsed = sn;
      begin(size);
      for (let i = 0; i < paths.length; i++) {
        const s = paths[i] as string;
        const n = sizes[sn++]!;
        out[p++] = 0x0a;
        writeVarint(n);
        writeString(s, n);
      }
      return finish();
    }
    case Kind.Struct:
      return sizedThenWritten(m, structSize, writeStruct);
    case Kind.Value:
      return sizedThenWritten(m, valueSize, writeValue);
    case Kind.ListValue:
      return sizedThenWritten(m, listSize, writeList);
    case Kind.Any: {
      const url = m["typeUrl"];
      const value = m["value"];
      if (typeof url !== "string" || !(value instanceof Uint8Array)) bail();
      const n = utf8Size(url);
      let size = 0;
      if (url !== "") size += 1 + varintSize(n) + n;
      if (value.length > 0) size += 1 + varintSize(value.length) + value.length;
      begin(size);
      sizesUsed = 0;
      if (url !== "") {
        out[p++] = 0x0a;
        writeVarint(n);
        writeString(url, n);
      }
      if (value.length > 0) {
        out[p++] = 0x12;
        writeVarint(value.length);
        out.set(value, p);
        p += value.length;
      }
      return finish();
    }
    default:
      return encodeWrapper(kind, m["value"]);
  }
}

function encodeWrapper(kind: Kind, v: unknown): Uint8Array {
  sizesUsed = 0;
  switch (kind) {
    case Kind.DoubleValue:
      if (typeof v !== "number") bail();
      if (Object.is(v, 0)) return new Uint8Array(0);
      begin(9);
      out[p++] = 0x09;
      writeDouble(v);
      return finish();
    case Kind.FloatValue:
      if (typeof v !== "number" || (Number.isFinite(v) && !Number.isFinite(Math.fround(v)))) bail();
      if (Object.is(v, 0)) return new Uint8Array(0);
      begin(5);
      out[p++] = 0x0d;
      writeFloat(v);
      return finish();
    case Kind.Int64Value:
    case Kind.UInt64Value: {
      if (typeof v !== "bigint") bail();
      if (kind === Kind.Int64Value ? v < INT64_MIN || v > INT64_MAX : v < 0n || v > UINT64_MAX) bail();
      if (v === 0n) return new Uint8Array(0);
      split64(kind === Kind.Int64Value ? v : BigInt.asIntN(64, v));
      begin(1 + varint64Size());
      out[p++] = 0x08;
      writeVarint64();
      return finish();
    }
    case Kind.Int32Value:
      if (!isInt32(v)) bail();
      if (v === 0) return new Uint8Array(0);
      begin(1 + int32Size(v));
      out[p++] = 0x08;
      writeInt32(v);
      return finish();
    case Kind.UInt32Value:
      if (!isUint32(v)) bail();
      if (v === 0) return new Uint8Array(0);
      begin(1 + varintSize(v));
      out[p++] = 0x08;
      writeVarint(v);
      return finish();
    case Kind.BoolValue:
      if (typeof v !== "boolean") bail();
      if (!v) return new Uint8Array(0);
      return new Uint8Array([0x08, 1]);
    case Kind.StringValue: {
      if (typeof v !== "string") bail();
      if (v === "") return new Uint8Array(0);
      const n = utf8Size(v);
      begin(1 + varintSize(n) + n);
      out[p++] = 0x0a;
      writeVarint(n);
      writeString(v, n);
      return finish();
    }
    case Kind.BytesValue: {
      if (!(v instanceof Uint8Array)) bail();
      if (v.length === 0) return new Uint8Array(0);
      begin(1 + varintSize(v.length) + v.length);
      out[p++] = 0x0a;
      writeVarint(v.length);
      out.set(v, p);
      p += v.length;
      return finish();
    }
  }
  return bail();
}

/**
 * Struct, Value and ListValue: the first pass records the size of every nested message (`sizes`), the second
 * writes into one exactly sized array.
 */
function sizedThenWritten(m: unknown, size: (m: unknown) => number, write: (m: unknown) => void): Uint8Array {
  sn = 0;
  const n = size(m);
  sizesUsed = sn;
  begin(n);
  write(m);
  return finish();
}

/** Size of a Struct's body; records [entries, then per entry: entry size, key size, value size, ...value]. */
function structSize(m: unknown): number {
  checkMessage(m, STRUCT);
  const fields = m["fields"];
  if (typeof fields !== "object" || fields === null) bail();
  const keys = Object.keys(fields);
  sizes[sn++] = keys.length;
  let size = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const slot = sn;
    sizes[sn++] = 0;
    sizes[sn++] = 0;
    sizes[sn++] = 0;
    const k = utf8Size(key);
    const v = valueSize((fields as Record<string, unknown>)[key]);
    const entry = 1 + varintSize(k) + k + 1 + varintSize(v) + v;
    sizes[slot] = entry;
    sizes[slot + 1] = k;
    sizes[slot + 2] = v;
    size += 1 + varintSize(entry) + entry;
  }
  return size;
}

/**
 * Writes the head of one `fields` map entry of a Struct (entry tag and size, key, value tag and size) from the
 * sizes the first pass recorded; returns the size of the value that follows.
 */
function writeEntryHead(key: string): number {
  const entry = sizes[sn++]!;
  const k = sizes[sn++]!;
  const v = sizes[sn++]!;
  out[p++] = 0x0a;
  writeVarint(entry);
  out[p++] = 0x0a;
  writeVarint(k);
  writeString(key, k);
  out[p++] = 0x12;
  writeVarint(v);
  return v;
}

function writeStruct(m: unknown): void {
  const fields = (m as Record<string, unknown>)["fields"] as Record<string, unknown>;
  const keys = Object.keys(fields);
  if (sizes[sn++] !== keys.length) bail();
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const v = writeEntryHead(key);
    const start = p;
    writeValue(fields[key]);
    if (p - start !== v) bail();
  }
}

/** Size of a Value's body; records the size of a string or nested message. */
function valueSize(m: unknown): number {
  checkMessage(m, VALUE);
  const kind = m["kind"] as { case?: unknown; value?: unknown } | null;
  if (typeof kind !== "object" || kind === null) bail();
  const v = kind.value;
  switch (kind.case) {
    case "nullValue":
      if (!isInt32(v)) bail();
      return 1 + int32Size(v);
    case "numberValue":
      if (typeof v !== "number") bail();
      return 9;
    case "stringValue": {
      if (typeof v !== "string") bail();
      const n = utf8Size(v);
      sizes[sn++] = n;
      return 1 + varintSize(n) + n;
    }
    case "boolValue":
      if (typeof v !== "boolean") bail();
      return 2;
    case "structValue": {
      const slot = sn;
      sizes[sn++] = 0;
      const n = structSize(v);
      sizes[slot] = n;
      return 1 + varintSize(n) + n;
    }
    case "listValue": {
      const slot = sn;
      sizes[sn++] = 0;
      const n = listSize(v);
      sizes[slot] = n;
      return 1 + varintSize(n) + n;
    }
    case undefined:
      return 0;
  }
  return bail();
}

function writeValue(m: unknown): void {
  const kind = (m as Record<string, unknown>)["kind"] as { case?: unknown; value?: unknown };
  const v = kind.value;
  switch (kind.case) {
    case "nullValue":
      out[p++] = 0x08;
      writeInt32(v as number);
      return;
    case "numberValue":
      out[p++] = 0x11;
      writeDouble(v as number);
      return;
    case "stringValue": {
      const n = sizes[sn++]!;
      out[p++] = 0x1a;
      writeVarint(n);
      writeString(v as string, n);
      return;
    }
    case "boolValue":
      out[p++] = 0x20;
      out[p++] = v ? 1 : 0;
      return;
    case "structValue": {
      const n = sizes[sn++]!;
      out[p++] = 0x2a;
      writeVarint(n);
      const start = p;
      writeStruct(v);
      if (p - start !== n) bail();
      return;
    }
    case "listValue": {
      const n = sizes[sn++]!;
      out[p++] = 0x32;
      writeVarint(n);
      const start = p;
      writeList(v);
      if (p - start !== n) bail();
      return;
    }
    case undefined:
      return;
  }
  bail();
}

/** Size of a ListValue's body; records [items, then per item: its size, ...item]. */
function listSize(m: unknown): number {
  checkMessage(m, LIST_VALUE);
  const values = m["values"];
  if (!Array.isArray(values)) bail();
  sizes[sn++] = values.length;
  let size = 0;
  for (let i = 0; i < values.length; i++) {
    const slot = sn;
    sizes[sn++] = 0;
    const n = valueSize(values[i]);
    sizes[slot] = n;
    size += 1 + varintSize(n) + n;
  }
  return size;
}

function writeList(m: unknown): void {
  const values = (m as Record<string, unknown>)["values"] as unknown[];
  if (sizes[sn++] !== values.length) bail();
  for (let i = 0; i < values.length; i++) {
    const n = sizes[sn++]!;
    out[p++] = 0x0a;
    writeVarint(n);
    const start = p;
    writeValue(values[i]);
    if (p - start !== n) bail();
  }
}

// ---------------------------------------------------------------------------------------------------------
// Decoding

let rb: Uint8Array = empty;
let rp = 0;
let rlen = 0;
let rview: DataView | undefined;

/** protobuf-es's default recursion limit of fromBinary: messages nested deeper are an error there. */
const recursionLimit = 100;

/** A uint32 varint as protobuf-es's varint32read reads it (up to 10 bytes, the low 32 bits kept). */
function readVarint32(): number {
  let b = rb[rp++]!;
  if ((b & 0x80) === 0) {
    if (rp > rlen) bail();
    return b;
  }
  let result = b & 0x7f;
  b = rb[rp++]!;
  result |= (b & 0x7f) << 7;
  if ((b & 0x80) === 0) {
    if (rp > rlen) bail();
    return result;
  }
  b = rb[rp++]!;
  result |= (b & 0x7f) << 14;
  if ((b & 0x80) === 0) {
    if (rp > rlen) bail();
    return result;
  }
  b = rb[rp++]!;
  result |= (b & 0x7f) << 21;
  if ((b & 0x80) === 0) {
    if (rp > rlen) bail();
    return result;
  }
  b = rb[rp++]!;
  result |= (b & 0x0f) << 28;
  for (let n = 5; (b & 0x80) !== 0 && n < 10; n++) b = rb[rp++]!;
  if ((b & 0x80) !== 0 || rp > rlen) bail();
  return result >>> 0;
}

/** A 64-bit varint into `lo` and `hi`, as protobuf-es's varint64read reads it. */
function readVarint64(): void {
  let l = 0;
  let h = 0;
  for (let shift = 0; shift < 28; shift += 7) {
    const b = rb[rp++]!;
    l |= (b & 0x7f) << shift;
    if ((b & 0x80) === 0) {
      if (rp > rlen) bail();
      lo = l;
      hi = h;
      return;
    }
  }
  const middle = rb[rp++]!;
  l |= (middle & 0x0f) << 28;
  h = (middle & 0x70) >> 4;
  if ((middle & 0x80) === 0) {
    if (rp > rlen) bail();
    lo = l;
    hi = h;
    return;
  }
  for (let shift = 3; shift <= 31; shift += 7) {
    const b = rb[rp++]!;
    h |= (b & 0x7f) << shift;
    if ((b & 0x80) === 0) {
      if (rp > rlen) bail();
      lo = l;
      hi = h;
      return;
    }
  }
  bail();
}

/** The signed 64-bit integer last read, as protobuf-es gives it (bigint). */
function int64(): bigint {
  // hi in [-2^21, 2^21): the value is a safe integer.
  if (hi >= -0x200000 && hi < 0x200000) return BigInt(hi * TWO32 + (lo >>> 0));
  return BigInt.asIntN(64, (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0));
}

function uint64(): bigint {
  if (hi >= 0 && hi < 0x200000) return BigInt(hi * TWO32 + (lo >>> 0));
  return (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
}

function readBool(): boolean {
  const b = rb[rp]!;
  if (b < 0x80) {
    rp++;
    if (rp > rlen) bail();
    return b !== 0;
  }
  readVarint64();
  return lo !== 0 || hi !== 0;
}

/** The end of a length-delimited record that starts here; within the bytes. */
function readLength(): number {
  const n = readVarint32();
  const end = rp + n;
  if (end > rlen) bail();
  return end;
}

let strict: TextDecoder | undefined;

/**
 * Recently decoded short ASCII strings, by a hash of their bytes: Struct keys repeat, and a key that is already
 * a string (and internalized, once used as a property name) costs neither an allocation nor a hash lookup
 * in the engine's string table.
 */
const recent: (string | undefined)[] = new Array<string | undefined>(1024).fill(undefined);

/** A string of `end - rp` bytes of valid UTF-8 (protobuf-es checks UTF-8 of proto3 strings). */
function readString(end: number): string {
  const start = rp;
  const n = end - start;
  rp = end;
  if (n <= 32) {
    let h = n;
    let i = start;
    for (; i < end; i++) {
      const b = rb[i]!;
      if (b > 0x7f) break;
      h = Math.imul(h ^ b, 0x01000193);
    }
    if (i === end) {
      h = (h ^ (h >>> 16)) & 1023;
      const hit = recent[h];
      if (hit !== undefined && hit.length === n) {
        let j = 0;
        while (j < n && hit.charCodeAt(j) === rb[start + j]) j++;
        if (j === n) return hit;
      }
      const codes = new Array<number>(n);
      for (let j = 0; j < n; j++) codes[j] = rb[start + j]!;
      const s = String.fromCharCode.apply(String, codes);
      recent[h] = s;
      return s;
    }
  }
  strict ??= new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  return strict.decode(rb.subarray(start, end));
}

function view(): DataView {
  return (rview ??= new DataView(rb.buffer, rb.byteOffset, rb.byteLength));
}

function readDouble(): number {
  const at = rp;
  rp += 8;
  if (rp > rlen) bail();
  return view().getFloat64(at, true);
}

function readFloat(): number {
  const at = rp;
  rp += 4;
  if (rp > rlen) bail();
  return view().getFloat32(at, true);
}

function decode(kind: Kind): unknown {
  switch (kind) {
    case Kind.Timestamp:
    case Kind.Duration: {
      let seconds = 0n;
      let nanos = 0;
      while (rp < rlen) {
        const tag = rb[rp++];
        if (tag === 0x08) {
          readVarint64();
          seconds = int64();
        } else if (tag === 0x10) nanos = readVarint32() | 0;
        else bail();
      }
      return { $typeName: typeNames[kind], seconds, nanos };
    }
    case Kind.Empty:
      if (rlen !== 0) bail();
      return { $typeName: EMPTY };
    case Kind.FieldMask: {
      const paths: string[] = [];
      while (rp < rlen) {
        if (rb[rp++] !== 0x0a) bail();
        paths.push(readString(readLength()));
      }
      return { $typeName: FIELD_MASK, paths };
    }
    case Kind.Struct:
      return readStruct(rlen, 1);
    case Kind.Value:
      return readValue(rlen, 1);
    case Kind.ListValue:
      return readList(rlen, 1);
    case Kind.Any: {
      let typeUrl = "";
      let value: Uint8Array = new Uint8Array(0);
      while (rp < rlen) {
        const tag = rb[rp++];
        if (tag === 0x0a) typeUrl = readString(readLength());
        else if (tag === 0x12) {
          const end = readLength();
          value = rb.subarray(rp, end);
          rp = end;
        } else bail();
      }
      return { $typeName: ANY, typeUrl, value };
    }
    default:
      return decodeWrapper(kind);
  }
}

function decodeWrapper(kind: Kind): unknown {
  let value: unknown;
  switch (kind) {
    case Kind.DoubleValue:
      value = 0;
      while (rp < rlen) {
        if (rb[rp++] !== 0x09) bail();
        value = readDouble();
      }
      break;
    case Kind.FloatValue:
      value = 0;
      while (rp < rlen) {
        if (rb[rp++] !== 0x0d) bail();
        value = readFloat();
      }
      break;
    case Kind.Int64Value:
    case Kind.UInt64Value:
      value = 0n;
      while (rp < rlen) {
        if (rb[rp++] !== 0x08) bail();
        readVarint64();
        value = kind === Kind.Int64Value ? int64() : uint64();
      }
      break;
    case Kind.Int32Value:
    case Kind.UInt32Value:
      value = 0;
      while (rp < rlen) {
        if (rb[rp++] !== 0x08) bail();
        const v = readVarint32();
        value = kind === Kind.Int32Value ? v | 0 : v;
      }
      break;
    case Kind.BoolValue:
      value = false;
      while (rp < rlen) {
        if (rb[rp++] !== 0x08) bail();
        value = readBool();
      }
      break;
    case Kind.StringValue:
      value = "";
      while (rp < rlen) {
        if (rb[rp++] !== 0x0a) bail();
        value = readString(readLength());
      }
      break;
    case Kind.BytesValue: {
      value = new Uint8Array(0);
      while (rp < rlen) {
        if (rb[rp++] !== 0x0a) bail();
        const end = readLength();
        value = rb.subarray(rp, end);
        rp = end;
      }
      break;
    }
    default:
      bail();
  }
  return { $typeName: typeNames[kind], value };
}

function readStruct(end: number, depth: number): unknown {
  if (depth > recursionLimit) bail();
  const fields: Record<string, unknown> = {};
  while (rp < end) {
    if (rb[rp++] !== 0x0a) bail();
    const entryEnd = readLength();
    let key: string | undefined;
    let value: unknown;
    while (rp < entryEnd) {
      const tag = rb[rp++];
      if (tag === 0x0a) key = readString(readLength());
      else if (tag === 0x12 && value === undefined) value = readValue(readLength(), depth + 1);
      else bail();
    }
    // An entry without key or value, or running past its end: protobuf-es's rules for those.
    if (rp !== entryEnd || key === undefined || value === undefined) bail();
    if (key === "__proto__")
      Object.defineProperty(fields, key, { value, writable: true, enumerable: true, configurable: true });
    else fields[key] = value;
  }
  if (rp !== end) bail();
  return { $typeName: STRUCT, fields };
}

function readValue(end: number, depth: number): unknown {
  if (depth > recursionLimit) bail();
  let kind: { case: string | undefined; value?: unknown } | undefined;
  while (rp < end) {
    // A second member of the oneof replaces or merges into the first: protobuf-es's rules for that.
    if (kind !== undefined) bail();
    switch (rb[rp++]) {
      case 0x08:
        kind = { case: "nullValue", value: readVarint32() | 0 };
        break;
      case 0x11:
        kind = { case: "numberValue", value: readDouble() };
        break;
      case 0x1a:
        kind = { case: "stringValue", value: readString(readLength()) };
        break;
      case 0x20:
        kind = { case: "boolValue", value: readBool() };
        break;
      case 0x2a:
        kind = { case: "structValue", value: readStruct(readLength(), depth + 1) };
        break;
      case 0x32:
        kind = { case: "listValue", value: readList(readLength(), depth + 1) };
        break;
      default:
        bail();
    }
  }
  if (rp !== end) bail();
  return { $typeName: VALUE, kind: kind ?? { case: undefined } };
}

function readList(end: number, depth: number): unknown {
  if (depth > recursionLimit) bail();
  const values: unknown[] = [];
  while (rp < end) {
    if (rb[rp++] !== 0x0a) bail();
    values.push(readValue(readLength(), depth + 1));
  }
  if (rp !== end) bail();
  return { $typeName: LIST_VALUE, values };
}

// ---------------------------------------------------------------------------------------------------------
// Bytes to JSON: the decoder above, building JSON values instead of messages, with the rules of struct.ts's
// encoder (a Struct or list takes one level of depthLeft, a Value none; -0 is noted for toJsonString).

function jsonStruct(end: number, depth: number, depthLeft: number): JsonObject {
  if (depth > recursionLimit || depthLeft <= 0) bail();
  const out: JsonObject = {};
  while (rp < end) {
    if (rb[rp++] !== 0x0a) bail();
    const entryEnd = readLength();
    let key: string | undefined;
    let value: JsonValue | undefined;
    while (rp < entryEnd) {
      const tag = rb[rp++];
      if (tag === 0x0a) key = readString(readLength());
      else if (tag === 0x12 && value === undefined) value = jsonValue(readLength(), depth + 1, depthLeft - 1);
      else bail();
    }
    if (rp !== entryEnd || key === undefined || value === undefined) bail();
    if (key === "__proto__")
      Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
    else out[key] = value;
  }
  if (rp !== end) bail();
  return out;
}

function jsonValue(end: number, depth: number, depthLeft: number): JsonValue {
  if (depth > recursionLimit) bail();
  let json: JsonValue | undefined;
  while (rp < end) {
    if (json !== undefined) bail();
    switch (rb[rp++]) {
      case 0x08:
        readVarint32();
        json = null;
        break;
      case 0x11: {
        const x = readDouble();
        // NaN and the infinities are errors of the encoder (rule not-finite).
        if (x - x !== 0) bail();
        json = noteNumber(x);
        break;
      }
      case 0x1a:
        json = readString(readLength());
        break;
      case 0x20:
        json = readBool();
        break;
      case 0x2a:
        json = jsonStruct(readLength(), depth + 1, depthLeft);
        break;
      case 0x32:
        json = jsonList(readLength(), depth + 1, depthLeft);
        break;
      default:
        bail();
    }
  }
  // No variant is an error of the encoder (rule value-kind).
  if (json === undefined || rp !== end) bail();
  return json;
}

function jsonList(end: number, depth: number, depthLeft: number): JsonValue[] {
  if (depth > recursionLimit || depthLeft <= 0) bail();
  const out: JsonValue[] = [];
  while (rp < end) {
    if (rb[rp++] !== 0x0a) bail();
    out.push(jsonValue(readLength(), depth + 1, depthLeft - 1));
  }
  if (rp !== end) bail();
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// JSON to bytes: the encoder above over JSON values, with the rules of struct.ts's decoder. The size pass
// also records, in `objs`, every key and value it read, so that the write pass reads nothing from the input
// again (a getter cannot make the two passes disagree).

let objs: unknown[] = [];
/** Slots of `objs` the size pass used. */
let objsUsed = 0;
/** Next free slot of `objs` (size pass), next slot to read (write pass). */
let on = 0;

/** A plain object, as struct.ts's decoder takes it without further ado; anything else goes that way. */
function isJsonObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === Object.prototype || proto === null;
}

/** UTF-8 length of a well-formed string; a lone surrogate is an error of the reader (rule utf16). */
function utf8SizeWellFormed(s: string): number {
  const n = s.length;
  let size = n;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) size += 1;
    else if (c < 0xd800 || c > 0xdfff) size += 2;
    else if (c <= 0xdbff && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      size += 2;
      i++;
    } else bail();
  }
  return size;
}

function jStructSize(obj: Record<string, unknown>, depthLeft: number): number {
  if (depthLeft <= 0) bail();
  const keys = Object.keys(obj);
  sizes[sn++] = keys.length;
  let size = 0;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const value = obj[key];
    objs[on++] = key;
    objs[on++] = value;
    const slot = sn;
    sizes[sn++] = 0;
    sizes[sn++] = 0;
    sizes[sn++] = 0;
    const k = utf8SizeWellFormed(key);
    const v = jValueSize(value, depthLeft - 1);
    const entry = 1 + varintSize(k) + k + 1 + varintSize(v) + v;
    sizes[slot] = entry;
    sizes[slot + 1] = k;
    sizes[slot + 2] = v;
    size += 1 + varintSize(entry) + entry;
  }
  return size;
}

function jListSize(list: readonly unknown[], depthLeft: number): number {
  if (depthLeft <= 0) bail();
  const n = list.length;
  sizes[sn++] = n;
  let size = 0;
  for (let i = 0; i < n; i++) {
    const value = list[i];
    objs[on++] = value;
    const slot = sn;
    sizes[sn++] = 0;
    const v = jValueSize(value, depthLeft - 1);
    sizes[slot] = v;
    size += 1 + varintSize(v) + v;
  }
  return size;
}

/** Size of the Value of a JSON value. The value itself is recorded by the caller (or here, at the root). */
function jValueSize(v: unknown, depthLeft: number): number {
  // `typeof v === "..."` tests: V8 compiles them inline, while `switch (typeof v)` calls its Typeof builtin.
  if (typeof v === "string") {
    const n = utf8SizeWellFormed(v);
    sizes[sn++] = n;
    return 1 + varintSize(n) + n;
  }
  if (typeof v === "number") {
    // NaN and the infinities are errors of the reader (rule not-finite).
    if (v - v !== 0) bail();
    return 9;
  }
  if (typeof v === "boolean") return 2;
  if (typeof v === "object") {
    if (v === null) return 2;
    const slot = sn;
    sizes[sn++] = 0;
    let n: number;
    if (Array.isArray(v)) n = jListSize(v, depthLeft);
    else if (isJsonObject(v)) n = jStructSize(v, depthLeft);
    else return bail();
    sizes[slot] = n;
    return 1 + varintSize(n) + n;
  }
  // undefined, functions, symbols: errors of the reader; bigint: a number it rounds.
  return bail();
}

function jWriteStruct(): void {
  const count = sizes[sn++]!;
  for (let i = 0; i < count; i++) {
    const key = objs[on++] as string;
    const value = objs[on++];
    const v = writeEntryHead(key);
    const start = p;
    jWriteValue(value);
    if (p - start !== v) bail();
  }
}

function jWriteList(): void {
  const count = sizes[sn++]!;
  for (let i = 0; i < count; i++) {
    const value = objs[on++];
    const v = sizes[sn++]!;
    out[p++] = 0x0a;
    writeVarint(v);
    const start = p;
    jWriteValue(value);
    if (p - start !== v) bail();
  }
}

function jWriteValue(v: unknown): void {
  if (typeof v === "string") {
    const n = sizes[sn++]!;
    out[p++] = 0x1a;
    writeVarint(n);
    writeString(v, n);
  } else if (typeof v === "number") {
    out[p++] = 0x11;
    writeDouble(v);
  } else if (typeof v === "boolean") {
    out[p++] = 0x20;
    out[p++] = v ? 1 : 0;
  } else if (v === null) {
    out[p++] = 0x08;
    out[p++] = 0;
  } else if (typeof v === "object") {
    const n = sizes[sn++]!;
    out[p++] = Array.isArray(v) ? 0x32 : 0x2a;
    writeVarint(n);
    const start = p;
    if (Array.isArray(v)) jWriteList();
    else jWriteStruct();
    if (p - start !== n) bail();
  } else {
    bail();
  }
}
