/**
 * The encoder of the binary fast paths (wkt-binary.ts): a message of a well-known type, or the JSON form of a
 * Struct, Value or ListValue, to the bytes `toBinary` gives. Two passes over the input: a size pass that records
 * the length of every nested message and string in `sizes` (pre-order), then a write pass into one buffer of the
 * exact size that reads them back in the same order. Both inputs share the state and the primitives below, which
 * the hot loops reach as module-local variables (bench area Any: toJson/any-struct-1kb, fromJson/any-struct-1kb).
 *
 * Anything the encoder does not take goes to `bail()`: the caller then hands the message to protobuf-es.
 *
 * @module
 * @internal
 */
import type { DescField, DescMessage } from "@bufbuild/protobuf";
import { isMessageOf } from "./message-type.js";
import { isPlainPrototype } from "./objects.js";
import { bail } from "./wkt-binary-kinds.js";
import { listValueTypeName, structTypeName, valueTypeName } from "./names.js";

/** The encoder of Struct, Value and ListValue messages, by type name (see {@link encodeStructFamily}). */
type StructFamily = (typeName: string, m: Record<string, unknown>) => Uint8Array;

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

/**
 * The bytes of a message of the well-known type `wkt` (its built-in descriptor), or undefined where the fast
 * path does not take it (protobuf-es then encodes or throws); the body of wktToBinaryFast, which has checked
 * that no fast path is running.
 */
export function encodeMessage(
  wkt: DescMessage,
  message: unknown,
  structFamily: StructFamily | undefined,
): Uint8Array | undefined {
  try {
    return encode(wkt, message, structFamily);
  } catch {
    // Not taken (or a stack overflow): protobuf-es encodes or throws.
    return undefined;
  } finally {
    out = empty;
    outView = undefined;
    if (sizes.length > sizesKept) sizes = [];
  }
}

/**
 * The bytes of a Struct, Value or ListValue (`typeName`) from its JSON form, or undefined where the fast path
 * does not take it; the body of wktJsonToBinaryFast, which has checked that no fast path is running.
 */
export function encodeJson(typeName: string, json: unknown, depthLeft: number): Uint8Array | undefined {
  objsUsed = 0;
  try {
    sn = 0;
    on = 0;
    let size: number;
    if (typeName === structTypeName) {
      if (!isJsonObject(json)) return undefined;
      size = jStructSize(json, depthLeft);
    } else if (typeName === listValueTypeName) {
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
    if (typeName === valueTypeName) jWriteValue(objs[on++]);
    else if (typeName === structTypeName) jWriteStruct();
    else jWriteList();
    if (on !== objsUsed) bail();
    return finish();
  } catch {
    return undefined;
  } finally {
    out = empty;
    outView = undefined;
    if (sizes.length > sizesKept) sizes = [];
    // No reference to the caller's data is kept.
    if (objs.length > sizesKept) objs = [];
    else objs.fill(undefined, 0, Math.max(on, objsUsed));
  }
}

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

function encode(wkt: DescMessage, m: unknown, structFamily: StructFamily | undefined): Uint8Array {
  const typeName = wkt.typeName;
  checkMessage(m, typeName);
  if (typeName === structTypeName || typeName === valueTypeName || typeName === listValueTypeName) {
    // Not taken without the encoder of these three (see encodeStructFamily).
    return structFamily === undefined ? bail() : structFamily(typeName, m);
  }
  // The other well-known types: scalar fields of implicit presence, and FieldMask's list of strings. Each value
  // is read once; a size pass, then a write pass into one exactly sized array.
  const fields = wkt.fields;
  const values: unknown[] = [];
  for (let i = 0; i < fields.length; i++) values.push(m[fields[i]!.localName]);
  sn = 0;
  let size = 0;
  for (let i = 0; i < fields.length; i++) size += field(fields[i]!, values[i], false);
  sizesUsed = sn;
  begin(size);
  for (let i = 0; i < fields.length; i++) field(fields[i]!, values[i], true);
  return finish();
}

/**
 * The size of field `f` of value `v` (nothing for a zero value of implicit presence), written when `write`; the
 * size pass records the UTF-8 length of each string in `sizes`, the write pass reads them back.
 */
function field(f: DescField, v: unknown, write: boolean): number {
  const t = f.scalar;
  const tag = f.number << 3;
  if (f.fieldKind === "list") {
    // FieldMask.paths: each string a field of its own (a string list is never packed).
    if (!Array.isArray(v)) bail();
    let size = 0;
    for (let i = 0; i < v.length; i++) size += stringField(tag, v[i], write);
    return size;
  }
  switch (t) {
    case 1: // DOUBLE
      if (typeof v !== "number") bail();
      if (Object.is(v, 0)) return 0;
      if (write) {
        out[p++] = tag | 1;
        writeDouble(v);
      }
      return 9;
    case 2: // FLOAT
      if (typeof v !== "number" || (Number.isFinite(v) && !Number.isFinite(Math.fround(v)))) bail();
      if (Object.is(v, 0)) return 0;
      if (write) {
        out[p++] = tag | 5;
        writeFloat(v);
      }
      return 5;
    case 3: // INT64
    case 4: // UINT64
      if (typeof v !== "bigint" || (t === 3 ? v < INT64_MIN || v > INT64_MAX : v < 0n || v > UINT64_MAX)) bail();
      if (v === 0n) return 0;
      split64(t === 3 ? v : BigInt.asIntN(64, v));
      if (write) {
        out[p++] = tag;
        writeVarint64();
      }
      return 1 + varint64Size();
    case 5: // INT32
    case 13: // UINT32: written as the non-negative int32 it equals, the same varint
      if (typeof v !== "number" || (t === 5 ? v | 0 : v >>> 0) !== v) bail();
      if (v === 0) return 0;
      if (write) {
        out[p++] = tag;
        writeInt32(v);
      }
      return 1 + int32Size(v);
    case 8: // BOOL
      if (typeof v !== "boolean") bail();
      if (!v) return 0;
      if (write) {
        out[p++] = tag;
        out[p++] = 1;
      }
      return 2;
    case 9: // STRING
      return v === "" ? 0 : stringField(tag, v, write);
    case 12: // BYTES
      if (!(v instanceof Uint8Array)) bail();
      if (v.length === 0) return 0;
      if (write) {
        out[p++] = tag | 2;
        writeVarint(v.length);
        out.set(v, p);
        p += v.length;
      }
      return 1 + varintSize(v.length) + v.length;
  }
  return bail();
}

/** A string field (`tag` without its wire type) of {@link field}, empty or not. */
function stringField(tag: number, s: unknown, write: boolean): number {
  if (typeof s !== "string") bail();
  let n: number;
  if (write) {
    n = sizes[sn++]!;
    out[p++] = tag | 2;
    writeVarint(n);
    writeString(s, n);
  } else sizes[sn++] = n = utf8Size(s);
  return 1 + varintSize(n) + n;
}

/**
 * The bytes of a Struct, Value or ListValue message (`typeName`), for {@link encodeMessage}: passed by the
 * callers that want these three taken, so that a bundle whose callers never pass it (the codec, which writes
 * them straight from their JSON with {@link encodeJson}) does without this encoder.
 */
export function encodeStructFamily(typeName: string, m: Record<string, unknown>): Uint8Array {
  return typeName === structTypeName
    ? sizedThenWritten(m, structSize, writeStruct)
    : typeName === valueTypeName
      ? sizedThenWritten(m, valueSize, writeValue)
      : sizedThenWritten(m, listSize, writeList);
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
  checkMessage(m, structTypeName);
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
  checkMessage(m, valueTypeName);
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
  checkMessage(m, listValueTypeName);
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
  return isPlainPrototype(Object.getPrototypeOf(v));
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
