/**
 * The decoder of the binary fast paths (wkt-binary.ts): the bytes of a well-known type to the message
 * `fromBinary` gives, or the bytes of a Struct, Value or ListValue straight to their JSON form. A tight loop over
 * the bytes with the reader state in module-local variables (bench area Any: toJson/any-struct-1kb), taking
 * only input protobuf-es reads the same way: anything else goes to `bail()`, and the caller hands the bytes to
 * protobuf-es.
 *
 * @module
 * @internal
 */
import type { DescMessage, JsonObject, JsonValue } from "@bufbuild/protobuf";
import { noteNumber } from "./json-value.js";
import { bail } from "./wkt-binary-kinds.js";
import { listValueTypeName, structTypeName, valueTypeName } from "./names.js";

const empty = new Uint8Array(0);
const TWO32 = 4294967296;

/** Low and high 32 bits (two's complement, as int32) of the last 64-bit varint read. */
let lo = 0;
let hi = 0;

let rb: Uint8Array = empty;
let rp = 0;
let rlen = 0;
let rview: DataView | undefined;

/** protobuf-es's default recursion limit of fromBinary: messages nested deeper are an error there. */
const recursionLimit = 100;

/**
 * A message of the well-known type `wkt` (its built-in descriptor) from all of `bytes`, or undefined where the
 * fast path does not take them (protobuf-es then decodes or throws); the body of wktFromBinaryFast.
 */
export function decodeMessage(
  wkt: DescMessage,
  bytes: Uint8Array,
  structFamily: ((typeName: string) => unknown) | undefined,
): unknown {
  return readWhole(bytes, () => decode(wkt, structFamily));
}

/**
 * A Struct, Value or ListValue message (`typeName`) from all of the bytes, for {@link decodeMessage}: passed by
 * the callers that want these three taken, so that a bundle whose callers never pass it (the codec, which reads
 * them straight to their JSON with {@link decodeJson}) does without this decoder.
 */
export function decodeStructFamily(typeName: string): unknown {
  return typeName === structTypeName
    ? readStruct(rlen, 1)
    : typeName === valueTypeName
      ? readValue(rlen, 1)
      : readList(rlen, 1);
}

/**
 * The JSON form of a serialized Struct, Value or ListValue (`typeName`), or undefined where the fast path does
 * not take the bytes or the JSON writer would report an error; the body of wktBinaryToJsonFast.
 */
export function decodeJson(typeName: string, bytes: Uint8Array, depthLeft: number): JsonValue | undefined {
  return readWhole(bytes, () =>
    typeName === structTypeName
      ? jsonStruct(rlen, 1, depthLeft)
      : typeName === valueTypeName
        ? jsonValue(rlen, 1, depthLeft)
        : jsonList(rlen, 1, depthLeft),
  );
}

/**
 * Runs `read` over all of `bytes` with the reader state set up (the caller has checked that no fast path is running):
 * its result if it consumed every byte, undefined if it left bytes over or threw.
 */
function readWhole<T>(bytes: Uint8Array, read: () => T): T | undefined {
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
    rb = empty;
    rview = undefined;
  }
}

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

function decode(wkt: DescMessage, structFamily: ((typeName: string) => unknown) | undefined): unknown {
  const typeName = wkt.typeName;
  if (typeName === structTypeName || typeName === valueTypeName || typeName === listValueTypeName) {
    // Not taken without the decoder of these three (see decodeStructFamily).
    return structFamily === undefined ? bail() : structFamily(typeName);
  }
  // The other well-known types: scalar fields of implicit presence (repeated ones read last-wins), and
  // FieldMask's list of strings. Each field's zero value first, in field order, as fromBinary's message has them.
  const fields = wkt.fields;
  const m: Record<string, unknown> = { $typeName: typeName };
  for (const f of fields) {
    const t = f.scalar;
    m[f.localName] =
      f.fieldKind === "list"
        ? []
        : t === 3 || t === 4 // INT64, UINT64
          ? 0n
          : t === 8 // BOOL
            ? false
            : t === 9 // STRING
              ? ""
              : t === 12 // BYTES
                ? new Uint8Array(0)
                : 0;
  }
  while (rp < rlen) {
    // A one-byte tag of a field with its own wire type (these types number their fields from 1, in order);
    // anything else goes to protobuf-es.
    const tag = rb[rp++]!;
    const f = fields[(tag >> 3) - 1];
    if (f === undefined || tag !== ((f.number << 3) | wireType(f.scalar!, f.fieldKind === "list"))) bail();
    let v: unknown;
    switch (f.scalar) {
      case 1: // DOUBLE
        v = readDouble();
        break;
      case 2: // FLOAT
        v = readFloat();
        break;
      case 3: // INT64
      case 4: // UINT64
        readVarint64();
        v = f.scalar === 3 ? int64() : uint64();
        break;
      case 5: // INT32
        v = readVarint32() | 0;
        break;
      case 8: // BOOL
        v = readBool();
        break;
      case 9: // STRING
        v = readString(readLength());
        break;
      case 12: {
        // BYTES
        const end = readLength();
        v = rb.subarray(rp, end);
        rp = end;
        break;
      }
      default: // UINT32
        v = readVarint32();
    }
    if (f.fieldKind === "list") (m[f.localName] as unknown[]).push(v);
    else m[f.localName] = v;
  }
  return m;
}

/** The wire type of a scalar field of a well-known type (a list: FieldMask's strings, never packed). */
function wireType(t: number, list: boolean): number {
  return list || t === 9 || t === 12 ? 2 : t === 1 ? 1 : t === 2 ? 5 : 0;
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
  return { $typeName: structTypeName, fields };
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
  return { $typeName: valueTypeName, kind: kind ?? { case: undefined } };
}

function readList(end: number, depth: number): unknown {
  if (depth > recursionLimit) bail();
  const values: unknown[] = [];
  while (rp < end) {
    if (rb[rp++] !== 0x0a) bail();
    values.push(readValue(readLength(), depth + 1));
  }
  if (rp !== end) bail();
  return { $typeName: listValueTypeName, values };
}

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
