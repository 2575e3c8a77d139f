/**
 * Base64 for `bytes` fields. proto3 JSON writes standard base64 with padding and reads standard or URL-safe
 * base64, with or without padding. Decoding is strict: a character outside both alphabets, white space, inner
 * padding or a dangling single character is rejected rather than skipped, so no two different texts decode to
 * the same bytes by accident of leniency.
 *
 * Portable code: typed arrays, `TextEncoder` and `TextDecoder`, which every current JavaScript runtime has.
 * Where the platform has a native codec (the standard `Uint8Array.prototype.toBase64`, or Node's `Buffer`), it
 * is used behind a feature check, after a self-test, and only in ways that cannot change a result:
 *
 * - encoding: the native encoder's output is standard base64 with padding, exactly what we write;
 * - decoding with the standard `Uint8Array.fromBase64` (Node 26; default options: the standard alphabet, a
 *   last chunk with or without padding, unused trailing bits ignored, as ours): it rejects everything ours
 *   rejects except ASCII white space, which it skips. Skipped characters leave fewer bytes than the text's
 *   length gives, so its bytes are taken only when their count is the one {@link decodedSize} computes; a text
 *   it rejects (URL-safe, mixed alphabets, malformed) goes to the portable decoder, which decides. Node 26.10,
 *   1 KB: about 1.0 µs against 1.6 µs for Buffer with the round-trip check used before the one below, and
 *   about as fast as Buffer with the check below (0.9-1.3 µs both, noisy machine); 64 KB: 12 µs against 7.4-8.6
 *   for Buffer. The standard function stays first: it is the one every runtime will have.
 * - decoding with Node's Buffer, where `fromBase64` is missing, of a text whose length is a multiple of four:
 *   Buffer's decoder reads both alphabets, skips what it does not know, stops at an `=`, and reads a character
 *   above U+00FF by its low byte. So its bytes are taken only when the text is ASCII (`Buffer.byteLength` in
 *   UTF-8 is its length) and the decoder wrote all the bytes that the length and padding give
 *   ({@link decodedSize}): a skipped character or an early stop leaves fewer legal characters, and three bytes
 *   come from every four, so fewer bytes. Then every character but the final padding is in one of the two
 *   alphabets, and the strict decoder reads the same bytes. A self-test at first use (every ASCII character
 *   outside both alphabets, white space, inner padding) turns the path off for a decoder that does otherwise.
 *   The bytes are written into a new array of their own. Node 20, 1 KB: about 0.75 µs where the round-trip
 *   check used before (decode into Buffer's pool, encode again, compare, copy) took 1.2 µs, and 2-4 µs in
 *   some processes; Node 24: 0.87 against 1.08 µs.
 *
 * Measured with `npm run bench` (64 KB): the portable encoder is about 4x and the decoder about 2x faster than
 * a string-building loop; the native paths are another order of magnitude faster.
 *
 * @internal
 * @module
 */

const encodeChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Whether a Uint16Array or Uint32Array over bytes reads them little-endian. */
const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * The two ASCII codes of the base64 characters of every 12-bit value, as one little-endian 16-bit unit (the
 * typed-array paths run only where typed arrays are little-endian: elsewhere the string loops do the work).
 */
const encodePairs = /* @__PURE__ */ (() => {
  const t = new Uint16Array(4096);
  for (let v = 0; v < 4096; v++) t[v] = encodeChars.charCodeAt(v >> 6) | (encodeChars.charCodeAt(v & 63) << 8);
  return t;
})();

/**
 * The 12-bit value of every pair of ASCII codes (two bytes read as one little-endian 16-bit unit), -1 for a
 * pair with a character outside both alphabets. 128 KB, built on first use.
 */
let decodePairs: Int16Array | undefined;

function pairTable(): Int16Array {
  if (decodePairs === undefined) {
    const single = decodeSingle;
    const t = new Int16Array(65536).fill(-1);
    for (let a = 0; a < 256; a++) {
      const va = single[a]!;
      if (va < 0) continue;
      for (let b = 0; b < 256; b++) {
        const vb = single[b]!;
        if (vb < 0) continue;
        t[a | (b << 8)] = (va << 6) | vb;
      }
    }
    decodePairs = t;
  }
  return decodePairs;
}

const utf8Decoder = /* @__PURE__ */ new TextDecoder();
const utf8Encoder = /* @__PURE__ */ new TextEncoder();

/** Reused for the character codes of texts up to {@link scratchMax} characters; decoding never re-enters. */
let scratch = new Uint8Array(0);
/** {@link scratch} read as 32-bit units (in memory order), for the decoder's one load per group of four. */
let scratch32 = new Uint32Array(0);
const scratchMax = 1 << 20;

// ---------------------------------------------------------------------------------------------------------
// Native paths

/** The part of Node's Buffer used here; a Buffer is a Uint8Array whose toString takes an encoding. */
interface NodeBufferConstructor {
  from(data: ArrayBufferLike, byteOffset: number, length: number): NodeBuffer;
  byteLength(text: string, encoding: "utf8"): number;
}

/** The part of a Node Buffer used here. */
interface NodeBuffer extends Uint8Array {
  /** Decodes `text` into the buffer from `offset`, at most `length` bytes; returns how many it wrote. */
  write(text: string, offset: number, length: number, encoding: "base64"): number;
}

/** `buffer.toString("base64")` of a Node Buffer. */
function bufferToBase64(buffer: NodeBuffer): string {
  return (buffer as unknown as { toString(encoding: string): string }).toString("base64");
}

type Encode = (bytes: Uint8Array) => string;
type Decode = (text: string) => Uint8Array | undefined;

// Crossovers, measured on Node 20 (bench/cases/wrappers.ts and a sweep of sizes): below them the fixed cost
// of a native call (TextDecoder, TextEncoder, Buffer) is more than the work it saves.
/** Bytes from which Node's Buffer encodes faster than the string loop. */
const nativeEncodeMin = 64;
/** Characters from which Node's decode, encode and compare beat the portable decoder. */
const nativeDecodeMin = 256;
/** Bytes from which the typed-array encoder (one TextDecoder call) beats the string loop. */
const arrayEncodeMin = 128;
/** Characters from which the typed-array decoder (one TextEncoder call) beats the charCodeAt loop. */
const arrayDecodeMin = 128;

/** The text of the self-tests: every character of the standard alphabet, then the bytes 251, 255, 1, 2. */
const selfTestText = encodeChars + "+/8BAg==";

/** A self-test of a native encoder. */
function encoderWorks(encode: Encode): boolean {
  try {
    // Every character of the alphabet, then the bytes 251, 255, 1, 2.
    const text = selfTestText;
    const bytes = base64DecodePortable(text)!;
    return encode(bytes) === text && encode(new Uint8Array(0)) === "" && encode(bytes.subarray(50)) === "AQI=";
  } catch {
    return false;
  }
}

/**
 * A self-test of a native decoder (`Uint8Array.fromBase64` or Buffer's, each with its checks): on texts where
 * leniency, white space, a wrong alphabet or a character read by its low byte would show, it gives what the
 * portable decoder gives, or undefined (the portable decoder then decides).
 */
function decoderWorks(decode: Decode): boolean {
  try {
    const texts = [
      "QUJD",
      "QUI=",
      "QUJ=",
      "QQ==",
      "QQ",
      "QUJDRA",
      "",
      "+/+/",
      "QUJ\u0144",
      "QU JD",
      "QUJD\n",
      "QU=D",
      "Q",
      "\u0151UJD",
      "-_8=",
      "+_-/",
      "QQ=",
      "QUJD====",
      "QQ==QQ==",
      "Q UJD QQ==",
      "QUJD QQ==",
      "QUJDQ Q==",
      "QUJDQQ =",
      "QUJD\tQUJD",
      "QUJD\u00c4UJD",
      "QUJD\u0000UJD",
      "QUJDQQ\u0144=",
    ];
    // Every character outside both alphabets, in the middle of a text, in its last group and before padding.
    for (let c = 0; c < 256; c++) {
      if (decodeSingle[c]! >= 0) continue;
      const x = String.fromCharCode(c);
      texts.push("QU" + x + "DQUJD", "QUJDQUJ" + x, "QUJDQU" + x + "=");
    }
    for (const text of texts) {
      const native = decode(text);
      if (native === undefined) continue;
      const portable = base64DecodePortable(text);
      if (portable === undefined || native.length !== portable.length || native.some((b, i) => b !== portable[i]))
        return false;
    }
    const good = decode(selfTestText);
    return good !== undefined && good.length === 52 && good[0] === 0 && good[49] === 255 && good[51] === 2;
  } catch {
    return false;
  }
}

function nodeBuffer(): NodeBufferConstructor | undefined {
  const B: unknown = (globalThis as { Buffer?: unknown }).Buffer;
  return typeof B === "function" && typeof (B as { from?: unknown }).from === "function"
    ? (B as unknown as NodeBufferConstructor)
    : undefined;
}

/** The native encoder, or undefined; chosen on first use. */
let nativeEncode: Encode | null | undefined;
/** The native decoder (round-trip checked), or undefined; chosen on first use. */
let nativeDecode: Decode | null | undefined;

function chooseNative(): void {
  nativeEncode = null;
  nativeDecode = null;
  const toBase64 = (Uint8Array.prototype as { toBase64?: (this: Uint8Array) => string }).toBase64;
  const B = nodeBuffer();
  let encode: Encode | undefined;
  if (typeof toBase64 === "function") {
    encode = (bytes) => toBase64.call(bytes);
  } else if (B !== undefined) {
    encode = (bytes) => bufferToBase64(B.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }
  if (encode === undefined || !encoderWorks(encode)) return;
  nativeEncode = encode;
  const fromBase64 = (Uint8Array as { fromBase64?: (text: string) => Uint8Array }).fromBase64;
  if (typeof fromBase64 === "function") {
    const decode: Decode = (text) => {
      let bytes: Uint8Array;
      try {
        bytes = fromBase64.call(Uint8Array, text);
      } catch {
        return undefined;
      }
      // White space it skipped shows as fewer bytes (see the module comment).
      return bytes.length === decodedSize(text) ? bytes : undefined;
    };
    if (decoderWorks(decode)) {
      nativeDecode = decode;
      return;
    }
  }
  if (B === undefined) return;
  const decode: Decode = (text) => {
    // Taken only for an ASCII text of which every byte was written: see the module comment.
    const size = decodedSize(text);
    if (size < 0 || (text.length & 3) !== 0 || B.byteLength(text, "utf8") !== text.length) return undefined;
    const bytes = new Uint8Array(size);
    return B.from(bytes.buffer, 0, size).write(text, 0, size, "base64") === size ? bytes : undefined;
  };
  if (decoderWorks(decode)) nativeDecode = decode;
}

// ---------------------------------------------------------------------------------------------------------
// Public functions

/**
 * Encodes bytes as standard base64 with padding.
 */
export function base64Encode(bytes: Uint8Array): string {
  if (bytes.length >= nativeEncodeMin) {
    if (nativeEncode === undefined) chooseNative();
    if (nativeEncode !== null) return nativeEncode!(bytes);
  }
  return base64EncodePortable(bytes);
}

/**
 * Decodes standard or URL-safe base64, with or without padding. Returns undefined for text that is not
 * base64.
 */
export function base64Decode(text: string): Uint8Array | undefined {
  // Only a padded text can be canonical (unpadded and URL-safe texts go straight to the portable decoder).
  if (text.length >= nativeDecodeMin && (text.length & 3) === 0) {
    if (nativeDecode === undefined) chooseNative();
    if (nativeDecode !== null) {
      const bytes = nativeDecode!(text);
      if (bytes !== undefined) return bytes;
    }
  }
  return base64DecodePortable(text);
}

/** {@link base64Encode} without native help. */
export function base64EncodePortable(bytes: Uint8Array): string {
  return bytes.length < arrayEncodeMin || !littleEndian ? encodeShort(bytes) : encodeLong(bytes);
}

/** Two base64 characters for every 12-bit value, as strings: halves the work of the string loop. */
let pairStrings: string[] | undefined;

/** Builds the text by string concatenation: for short inputs, no call into the engine beats it. */
function encodeShort(bytes: Uint8Array): string {
  let p = pairStrings;
  if (p === undefined) {
    p = pairStrings = new Array<string>(4096);
    for (let v = 0; v < 4096; v++) p[v] = encodeChars[v >> 6]! + encodeChars[v & 63]!;
  }
  const n = bytes.length;
  const full = n - (n % 3);
  let out = "";
  for (let i = 0; i < full; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += p[v >> 12]! + p[v & 4095]!;
  }
  const rest = n - full;
  if (rest === 1) {
    out += p[bytes[full]! << 4]! + "==";
  } else if (rest === 2) {
    const v = (bytes[full]! << 10) | (bytes[full + 1]! << 2);
    out += p[v >> 6]! + encodeChars[v & 63]! + "=";
  }
  return out;
}

/**
 * Writes the character codes into a byte array, each 3 bytes as two 16-bit units, and turns them into the
 * string with one `TextDecoder` call.
 */
function encodeLong(bytes: Uint8Array): string {
  const n = bytes.length;
  const full = n - (n % 3);
  const out = new Uint8Array(((n + 2) / 3) << 2);
  const out16 = new Uint16Array(out.buffer);
  const p = encodePairs;
  let j = 0;
  for (let i = 0; i < full; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out16[j] = p[v >> 12]!;
    out16[j + 1] = p[v & 4095]!;
    j += 2;
  }
  const rest = n - full;
  if (rest !== 0) {
    const o = j << 1;
    const v = rest === 1 ? bytes[full]! << 4 : (bytes[full]! << 10) | (bytes[full + 1]! << 2);
    out[o] = encodeChars.charCodeAt(rest === 1 ? v >> 6 : v >> 12);
    out[o + 1] = encodeChars.charCodeAt(rest === 1 ? v & 63 : (v >> 6) & 63);
    out[o + 2] = rest === 1 ? 61 : encodeChars.charCodeAt(v & 63);
    out[o + 3] = 61;
  }
  return utf8Decoder.decode(out);
}

/** {@link base64Decode} without native help. */
export function base64DecodePortable(text: string): Uint8Array | undefined {
  const size = decodedSize(text);
  if (size < 0) return undefined;
  return text.length < arrayDecodeMin || !littleEndian ? decodeShort(text, size) : decodeLong(text, size);
}

/**
 * The number of bytes a text decodes to if it is valid base64, from its length and padding alone; -1 for a
 * length no valid text has. The text's characters that carry them are the first `4 * (size / 3 | 0)`, then
 * `size % 3 + 1` more when `size % 3` is not 0: the rest, if any, is padding.
 */
function decodedSize(text: string): number {
  let len = text.length;
  if (len > 0 && text.charCodeAt(len - 1) === 61) {
    // Padding is optional, but when present it must complete the last group of four.
    if (len % 4 !== 0) return -1;
    len--;
    if (text.charCodeAt(len - 1) === 61) len--;
  }
  const rem = len % 4;
  if (rem === 1) return -1;
  return ((len - rem) / 4) * 3 + (rem === 0 ? 0 : rem - 1);
}

/** The 6-bit value of every byte, -1 outside both alphabets. */
const decodeSingle = /* @__PURE__ */ (() => {
  const t = new Int8Array(256).fill(-1);
  for (let i = 0; i < 64; i++) t[encodeChars.charCodeAt(i)] = i;
  t[45] = 62; // '-' (URL-safe)
  t[95] = 63; // '_' (URL-safe)
  return t;
})();

/** Decodes the characters that carry `size` bytes (see {@link decodedSize}), reading them with charCodeAt. */
function decodeShort(text: string, size: number): Uint8Array | undefined {
  const out = new Uint8Array(size);
  const t = decodeSingle;
  // Characters of the last group (0, 2 or 3), and of the full groups before it.
  const rem = size % 3 && (size % 3) + 1;
  const full = ((size / 3) | 0) << 2;
  let o = 0;
  let i = 0;
  for (; i < full; i += 4) {
    const c0 = text.charCodeAt(i);
    const c1 = text.charCodeAt(i + 1);
    const c2 = text.charCodeAt(i + 2);
    const c3 = text.charCodeAt(i + 3);
    const a = t[c0 & 255]!;
    const b = t[c1 & 255]!;
    const c = t[c2 & 255]!;
    const d = t[c3 & 255]!;
    if ((a | b | c | d) < 0 || (c0 | c1 | c2 | c3) > 255) return undefined;
    out[o] = (a << 2) | (b >> 4);
    out[o + 1] = ((b & 15) << 4) | (c >> 2);
    out[o + 2] = ((c & 3) << 6) | d;
    o += 3;
  }
  if (rem >= 2) {
    const c0 = text.charCodeAt(i);
    const c1 = text.charCodeAt(i + 1);
    const c2 = rem === 3 ? text.charCodeAt(i + 2) : 65; // 'A' stands in for the missing third character
    const a = t[c0 & 255]!;
    const b = t[c1 & 255]!;
    const c = t[c2 & 255]!;
    if ((a | b | c) < 0 || (c0 | c1 | c2) > 255) return undefined;
    out[o] = (a << 2) | (b >> 4);
    if (rem === 3) out[o + 1] = ((b & 15) << 4) | (c >> 2);
  }
  return out;
}

/**
 * Like {@link decodeShort}, for long texts: `TextEncoder.encodeInto` copies the character codes into a byte
 * buffer in one native call (valid text is ASCII, so character i is byte i), and pairs of codes are read as
 * 16-bit units and looked up in a table of 12-bit values.
 */
function decodeLong(text: string, size: number): Uint8Array | undefined {
  const textLength = text.length;
  // Two more bytes than the text, so that a character that does not fit shows as a short read.
  let codes = scratch;
  let codes32 = scratch32;
  if (codes.length < textLength + 2) {
    codes = new Uint8Array((textLength + 2 + 7) & ~7);
    codes32 = new Uint32Array(codes.buffer, 0, codes.length >> 2);
    if (codes.length <= scratchMax) {
      scratch = codes;
      scratch32 = codes32;
    }
  }
  const r = utf8Encoder.encodeInto(text, codes);
  if (r.read !== textLength || r.written !== textLength) return undefined; // a character that is not ASCII
  const out = new Uint8Array(size);
  const t = pairTable();
  const rem = size % 3 && (size % 3) + 1;
  const groups = (size / 3) | 0;
  // One 32-bit load per group of four characters: its low half is the first pair in memory order. Four
  // groups give 12 bytes, stored as three 32-bit words (little-endian: the first byte is the low one).
  const quads = groups >> 2;
  const out32 = new Uint32Array(out.buffer, 0, quads * 3);
  let g = 0;
  for (let q = 0; q < quads; q++) {
    const w0 = codes32[g]!;
    const w1 = codes32[g + 1]!;
    const w2 = codes32[g + 2]!;
    const w3 = codes32[g + 3]!;
    const h0 = t[w0 & 0xffff]!;
    const l0 = t[w0 >>> 16]!;
    const h1 = t[w1 & 0xffff]!;
    const l1 = t[w1 >>> 16]!;
    const h2 = t[w2 & 0xffff]!;
    const l2 = t[w2 >>> 16]!;
    const h3 = t[w3 & 0xffff]!;
    const l3 = t[w3 >>> 16]!;
    if ((h0 | l0 | h1 | l1 | h2 | l2 | h3 | l3) < 0) return undefined;
    // Each group's 24 bits with their bytes in memory order (first byte lowest).
    const s0 = (h0 >> 4) | ((h0 & 15) << 12) | (l0 & 0xf00) | ((l0 & 255) << 16);
    const s1 = (h1 >> 4) | ((h1 & 15) << 12) | (l1 & 0xf00) | ((l1 & 255) << 16);
    const s2 = (h2 >> 4) | ((h2 & 15) << 12) | (l2 & 0xf00) | ((l2 & 255) << 16);
    const s3 = (h3 >> 4) | ((h3 & 15) << 12) | (l3 & 0xf00) | ((l3 & 255) << 16);
    const k = q * 3;
    out32[k] = s0 | (s1 << 24);
    out32[k + 1] = (s1 >>> 8) | (s2 << 16);
    out32[k + 2] = (s2 >>> 16) | (s3 << 8);
    g += 4;
  }
  let o = quads * 12;
  for (; g < groups; g++) {
    const w = codes32[g]!;
    const hi = t[w & 0xffff]!;
    const lo = t[w >>> 16]!;
    if ((hi | lo) < 0) return undefined;
    out[o] = hi >> 4;
    out[o + 1] = ((hi & 15) << 4) | (lo >> 8);
    out[o + 2] = lo;
    o += 3;
  }
  if (rem >= 2) {
    const c0 = codes[groups << 2]!;
    const c1 = codes[(groups << 2) + 1]!;
    const hi = t[c0 | (c1 << 8)]!;
    if (hi < 0) return undefined;
    out[o] = hi >> 4;
    if (rem === 3) {
      // The third character paired with 'A' (value 0).
      const third = codes[(groups << 2) + 2]!;
      const c = t[third | (65 << 8)]!;
      if (c < 0) return undefined;
      out[o + 1] = ((hi & 15) << 4) | (c >> 8);
    }
  }
  return out;
}
