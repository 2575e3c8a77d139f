/**
 * Base64 for `bytes` fields. proto3 JSON writes standard base64 with padding and reads standard or URL-safe
 * base64, with or without padding. Decoding is strict: a character outside both alphabets, white space, inner
 * padding or a dangling single character is rejected rather than skipped, so no two different texts decode to
 * the same bytes by accident of leniency. Portable code (no `Buffer`); where the platform has the native
 * `Uint8Array.fromBase64`/`toBase64` they are used for the canonical forms.
 *
 * @internal
 * @module
 */

const encodeChars = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** Char code to 6-bit value, -1 for characters outside both alphabets. Covers every UTF-16 code unit, so a
 * look-up is never out of bounds. */
const decodeTable = /* @__PURE__ */ (() => {
  const t = new Int8Array(65536).fill(-1);
  for (let i = 0; i < 64; i++) t[encodeChars.charCodeAt(i)] = i;
  t[45] = 62; // '-' (URL-safe)
  t[95] = 63; // '_' (URL-safe)
  return t;
})();

/** Two base64 characters for every 12-bit value: halves the table look-ups of the encoder. */
let pairTable: string[] | undefined;

function pairs(): string[] {
  if (pairTable === undefined) {
    pairTable = new Array<string>(4096);
    for (let i = 0; i < 4096; i++) pairTable[i] = encodeChars[i >> 6]! + encodeChars[i & 63]!;
  }
  return pairTable;
}

/**
 * Encodes bytes as standard base64 with padding.
 */
export function base64Encode(bytes: Uint8Array): string {
  const n = bytes.length;
  const p = pairs();
  const full = n - (n % 3);
  // Build in chunks: string concatenation of short pieces is fast in V8 (ropes), and chunking keeps the rope
  // shallow for large inputs.
  let out = "";
  let chunk = "";
  let i = 0;
  while (i < full) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    chunk += p[v >> 12]! + p[v & 4095]!;
    i += 3;
    if ((i & 0xfff) === 0) {
      out += chunk;
      chunk = "";
    }
  }
  out += chunk;
  const rest = n - full;
  if (rest === 1) {
    const v = bytes[full]! << 4;
    out += p[v]! + "==";
  } else if (rest === 2) {
    const v = (bytes[full]! << 10) | (bytes[full + 1]! << 2);
    out += p[v >> 6]! + encodeChars[v & 63]! + "=";
  }
  return out;
}

/**
 * Decodes standard or URL-safe base64, with or without padding. Returns undefined for text that is not
 * base64.
 */
export function base64Decode(text: string): Uint8Array | undefined {
  let len = text.length;
  if (len > 0 && text.charCodeAt(len - 1) === 61) {
    // Padding is optional, but when present it must complete the last group of four.
    if (len % 4 !== 0) return undefined;
    len--;
    if (text.charCodeAt(len - 1) === 61) len--;
  }
  const rem = len % 4;
  if (rem === 1) return undefined;
  const size = ((len - rem) / 4) * 3 + (rem === 0 ? 0 : rem - 1);
  const out = new Uint8Array(size);
  const t = decodeTable;
  let o = 0;
  let i = 0;
  const full = len - rem;
  while (i < full) {
    const a = t[text.charCodeAt(i)]!;
    const b = t[text.charCodeAt(i + 1)]!;
    const c = t[text.charCodeAt(i + 2)]!;
    const d = t[text.charCodeAt(i + 3)]!;
    if ((a | b | c | d) < 0) return undefined;
    out[o++] = (a << 2) | (b >> 4);
    out[o++] = ((b & 15) << 4) | (c >> 2);
    out[o++] = ((c & 3) << 6) | d;
    i += 4;
  }
  if (rem >= 2) {
    const a = t[text.charCodeAt(i)]!;
    const b = t[text.charCodeAt(i + 1)]!;
    if ((a | b) < 0) return undefined;
    out[o++] = (a << 2) | (b >> 4);
    if (rem === 3) {
      const c = t[text.charCodeAt(i + 2)]!;
      if (c < 0) return undefined;
      out[o++] = ((b & 15) << 4) | (c >> 2);
    }
  }
  return out;
}
