/**
 * Scalars in proto3 JSON: "int32, fixed32, uint32: JSON number (a string is accepted); int64, fixed64,
 * uint64: JSON string (a number is accepted); float, double: JSON number or one of the strings "NaN",
 * "Infinity", "-Infinity" (a numeric string is accepted; exponent notation is accepted); bool: true/false;
 * string: JSON string; bytes: standard base64 with padding on output, standard or URL-safe with or without
 * padding on input."
 *
 * Readers return the value in protobuf-es's local representation (bigint, or a decimal string for
 * `jstype = JS_STRING` fields) and throw a {@link WktJsonError} at path `$`; the message codec moves the error
 * to the field's path.
 *
 * @internal
 * @module
 */
import { ScalarType } from "@bufbuild/protobuf";
import { WktJsonError } from "../errors.js";
import { describe } from "./describe.js";
import { int64Max, int64Min, uint64Max } from "../limits.js";
import { base64Decode, base64Encode } from "./base64.js";
import { isDigit } from "./scan.js";
import { isWellFormed } from "./utf16.js";
import { doubleValueTypeName, floatValueTypeName } from "./names.js";
import { shownLiteral } from "./not-finite.js";

/** The proto name of a scalar type, used as the type name in errors. */
export function scalarTypeName(t: ScalarType): string {
  return ScalarType[t]!.toLowerCase();
}

const int32Min = -2147483648;
const int32Max = 2147483647;
const uint32Max = 4294967295;
/** The largest finite float32. */
const float32Max = 3.4028234663852886e38;

/**
 * Scans a JSON number (RFC 8259 grammar, no surrounding space) and returns the exact integer it denotes, or:
 * `undefined` when `s` is not a JSON number, `null` when it is a number but not an integer, and `Infinity`
 * (as a marker) when its magnitude exceeds 10^40 (every integer type's range is far below that).
 */
export function jsonNumberToBigInt(s: string): bigint | undefined | null | typeof Infinity {
  const n = s.length;
  // Fast path, the common case of int64 strings: a plain decimal integer (no fraction, exponent or leading
  // zero) of at most 40 characters goes straight to BigInt, without slicing.
  if (n > 0 && n <= 40) {
    let k = s.charCodeAt(0) === 45 ? 1 : 0;
    const first = s.charCodeAt(k);
    if (first >= 49 && first <= 57) {
      for (k++; k < n; k++) {
        const c = s.charCodeAt(k);
        if (!isDigit(c)) break;
      }
      if (k === n) return BigInt(s);
    }
  }
  let i = 0;
  let neg = false;
  if (s.charCodeAt(0) === 45) {
    neg = true;
    i = 1;
  }
  const intStart = i;
  const first = s.charCodeAt(i);
  if (first === 48) {
    i++;
  } else if (first >= 49 && first <= 57) {
    while (i < n && isDigit(s.charCodeAt(i))) i++;
  } else {
    return undefined;
  }
  const intEnd = i;
  let fracStart = i;
  let fracEnd = i;
  if (s.charCodeAt(i) === 46) {
    i++;
    fracStart = i;
    while (i < n && isDigit(s.charCodeAt(i))) i++;
    fracEnd = i;
    if (fracEnd === fracStart) return undefined;
  }
  let exp = 0;
  const e = s.charCodeAt(i);
  if (e === 101 || e === 69) {
    i++;
    let expNeg = false;
    const sign = s.charCodeAt(i);
    if (sign === 43 || sign === 45) {
      expNeg = sign === 45;
      i++;
    }
    const expStart = i;
    // Saturate: an exponent beyond the text's length plus 40 decides the outcome on its own (the fraction
    // cannot cancel more digits than the text has, and every integer type fits in 40 digits). A fixed cap
    // would not do: "0.<2 million zeros>1e1000000000" is an integer far out of range, not a fraction.
    const expCap = n + 41;
    while (i < n && isDigit(s.charCodeAt(i))) {
      if (exp < expCap) exp = exp * 10 + (s.charCodeAt(i) - 48);
      i++;
    }
    if (i === expStart) return undefined;
    if (expNeg) exp = -exp;
  }
  if (i !== n) return undefined;
  // digits = int part + fraction part, value = digits * 10^(exp - fractionLength)
  let digits = s.slice(intStart, intEnd) + s.slice(fracStart, fracEnd);
  let scale = exp - (fracEnd - fracStart);
  // Strip leading zeros and move trailing zeros into the scale.
  let lead = 0;
  while (lead < digits.length - 1 && digits.charCodeAt(lead) === 48) lead++;
  digits = digits.slice(lead);
  if (digits === "0") return 0n;
  let end = digits.length;
  while (end > 1 && digits.charCodeAt(end - 1) === 48) end--;
  scale += digits.length - end;
  digits = digits.slice(0, end);
  if (scale < 0) return null;
  if (digits.length + scale > 40) return Infinity;
  const v = BigInt(scale === 0 ? digits : digits + "0".repeat(scale));
  return neg ? -v : v;
}

/** Tells whether `s` is a JSON number, such as `-1.5e3`: the form a numeric string must take in proto3 JSON. */
export function isJsonNumber(s: string): boolean {
  return jsonNumberToBigInt(s) !== undefined;
}

function fail(rule: "json-type" | "syntax" | "range" | "utf16", t: ScalarType, detail: string): never {
  throw new WktJsonError(rule, "$", scalarTypeName(t), detail);
}

/** Throws rule `json-type` for a value that is not the JSON `expected` (`"a number"`). */
function failType(t: ScalarType, expected: string, got: unknown): never {
  fail("json-type", t, `expected ${expected}, got ${describe(got)}`);
}

/**
 * The detail of the error for a number literal that is not an integer although its double is one: beyond 2^53
 * (`9007199254740993.5`, the double 9007199254740994) or within (`1.00000000000000000001`, `1e-400`). The codec
 * refuses it in an integer field when it has the literal's text (see inexact-integers.ts).
 */
export function roundedFractionDetail(double: number): string {
  return `the number is not an integer: its fraction is beyond what a double holds (a double reads it as ${double})`;
}

/** Reads a 32-bit integer of type `t` from a JSON number or numeric string. */
function readInt32(json: unknown, t: ScalarType, min: number, max: number): number {
  let v: number;
  if (typeof json === "number") {
    if (!Number.isInteger(json)) {
      fail(Number.isFinite(json) ? "syntax" : "range", t, `${json} is not an integer`);
    }
    v = json;
  } else if (typeof json === "string") {
    const b = jsonNumberToBigInt(json);
    if (b === undefined) fail("syntax", t, `${JSON.stringify(json)} is not a number`);
    if (b === null) fail("syntax", t, `${JSON.stringify(json)} is not an integer`);
    v = b === Infinity ? Infinity : Number(b);
  } else if (typeof json === "bigint") {
    // Integer literals outside the safe range, as the JSON text parser keeps them.
    v = json < -1n << 40n || json > 1n << 40n ? Infinity : Number(json);
  } else {
    failType(t, "a number", json);
  }
  if (v < min || v > max) fail("range", t, `${String(json)} is outside ${min} to ${max}`);
  return v === 0 ? 0 : v; // -0 is 0 for integers
}

/** Reads a 64-bit integer of type `t` as a bigint. */
function readInt64(json: unknown, t: ScalarType, min: bigint, max: bigint): bigint {
  let v: bigint;
  if (typeof json === "bigint") {
    v = json;
  } else if (typeof json === "number") {
    if (!Number.isInteger(json)) {
      fail(Number.isFinite(json) ? "syntax" : "range", t, `${json} is not an integer`);
    }
    v = BigInt(json);
  } else if (typeof json === "string") {
    const b = jsonNumberToBigInt(json);
    if (b === undefined) fail("syntax", t, `${JSON.stringify(json)} is not a number`);
    if (b === null) fail("syntax", t, `${JSON.stringify(json)} is not an integer`);
    if (typeof b === "number") fail("range", t, `${JSON.stringify(json)} is outside ${min} to ${max}`);
    v = b;
  } else {
    failType(t, "a number or a string", json);
  }
  if (v < min || v > max) fail("range", t, `${String(json)} is outside ${min} to ${max}`);
  return v;
}

/**
 * The detail of a `range` error of a double or float (a field, or a DoubleValue or FloatValue) told with the
 * number literal the JSON text wrote (`1e400`, `1e39` in a float), not with the Infinity (or the long integer)
 * it reads as, and saying what to write instead: proto3 JSON gives a double or float the strings "Infinity" and
 * "-Infinity" for an infinite value. Undefined when `typeName` is no such type or `literal` is not a number
 * literal beyond its range (a numeric string, whose error quotes it already, starts with a quote).
 *
 * @example
 * floatLiteralRangeDetail("double", "1e400");
 * //=> 'the number 1e400 is beyond the range of a double; write the string "Infinity" for an infinite value, or a finite number'
 */
export function floatLiteralRangeDetail(typeName: string, literal: string): string | undefined {
  const float = typeName === "float" || typeName === floatValueTypeName;
  if (!float && typeName !== "double" && typeName !== doubleValueTypeName) return undefined;
  if (!isJsonNumber(literal)) return undefined;
  const v = Number(literal);
  if (float ? Number.isFinite(Math.fround(v)) : Number.isFinite(v)) return undefined;
  const infinity = literal.charCodeAt(0) === 45 ? '"-Infinity"' : '"Infinity"';
  const within = float ? "a number within ±3.4028235e38" : "a finite number";
  return (
    `the number ${shownLiteral(literal)} is beyond the range of a ${float ? "float" : "double"}; write the string ` +
    `${infinity} for an infinite value, or ${within}`
  );
}

/**
 * The detail of a `range` error about `literal` (the number as the text wrote it), told as written: a double's
 * or float's ({@link floatLiteralRangeDetail}), or any other whose `detail` names the Infinity the literal reads
 * as (an integer field: "Infinity is outside the range of int32" becomes "the number 1e400 is outside the range
 * of int32"); `undefined` when `detail` stays. The decoder and the validator both tell it so.
 *
 * @example
 * literalRangeDetail("int32", "Infinity is outside the range of int32", "1e400"); // "the number 1e400 is outside the range of int32"
 */
export function literalRangeDetail(typeName: string, detail: string, literal: string): string | undefined {
  const float = floatLiteralRangeDetail(typeName, literal);
  if (float !== undefined) return float;
  if (!/^-?Infinity /.test(detail) || !isJsonNumber(literal) || Number.isFinite(Number(literal))) return undefined;
  return `the number ${shownLiteral(literal)}${detail.slice(detail.indexOf(" "))}`;
}

/**
 * The `range` error `e` of a double or float told with the literal the text wrote ({@link floatLiteralRangeDetail}),
 * and of any other field whose detail names the Infinity a literal such as `1e400` reads as (an integer field:
 * "the number 1e400 is outside the range of int32"), keeping its rule, path, type name, line and column; any
 * other error gives `e` as is.
 *
 * @example
 * floatLiteralRangeError(e, "1e400").detail; // "the number 1e400 is beyond the range of a double; ..."
 */
export function floatLiteralRangeError(e: WktJsonError, literal: string): WktJsonError {
  const detail = e.rule === "range" ? literalRangeDetail(e.typeName, e.detail, literal) : undefined;
  if (detail === undefined) return e;
  const told = new WktJsonError("range", e.jsonPath, e.typeName, detail);
  if (e.line !== undefined) told.line = e.line;
  if (e.column !== undefined) told.column = e.column;
  return told;
}

/** Reads a float or double. */
function readFloat(json: unknown, t: ScalarType): number {
  let v: number;
  if (typeof json === "number") {
    v = json;
    if (!Number.isFinite(v)) fail("range", t, `${v} must be written as a string ("NaN", "Infinity", "-Infinity")`);
  } else if (typeof json === "string") {
    if (json === "NaN") return NaN;
    if (json === "Infinity") return Infinity;
    if (json === "-Infinity") return -Infinity;
    if (!isJsonNumber(json)) fail("syntax", t, `${JSON.stringify(json)} is not a number`);
    v = Number(json);
    if (!Number.isFinite(v)) fail("range", t, `${JSON.stringify(json)} is outside the range of ${scalarTypeName(t)}`);
  } else if (typeof json === "bigint") {
    v = Number(json);
    if (!Number.isFinite(v)) fail("range", t, `${json} is outside the range of ${scalarTypeName(t)}`);
  } else {
    failType(t, "a number", json);
  }
  if (t === ScalarType.FLOAT && (v > float32Max || v < -float32Max) && !Number.isFinite(Math.fround(v))) {
    fail("range", t, `${String(json)} is outside the range of float`);
  }
  return v;
}

/**
 * Reads a scalar of type `t` from its JSON value (not null: the caller decides what null means).
 * 64-bit integers are returned as bigint, or as a decimal string when `longAsString` is set.
 *
 * The integer rule: an integer type takes a number that is an integer in its range, or a string whose decimal
 * text is one (`"1e2"`, `"1.0"`; not `"1.00000000000000000001"`). A number is judged as the double it is: a JS
 * value given to `fromJson` has no text, so `1.00000000000000000001` there is already the double 1 and is
 * taken. From a text (`fromJsonString`, `validateJsonString`) the codec judges the literal's decimal text
 * instead, as for a string: a literal that is not an integer is refused even where its double is one (see
 * inexact-integers.ts and {@link roundedFractionDetail}).
 */
export function scalarFromJson(t: ScalarType, json: unknown, longAsString: boolean): unknown {
  switch (t) {
    case ScalarType.STRING:
      if (typeof json !== "string") failType(t, "a string", json);
      if (!isWellFormed(json)) fail("utf16", t, "the string has a lone surrogate, which is not valid UTF-8");
      return json;
    case ScalarType.BOOL:
      if (typeof json !== "boolean") failType(t, "true or false", json);
      return json;
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return readInt32(json, t, int32Min, int32Max);
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return readInt32(json, t, 0, uint32Max);
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64: {
      const v = readInt64(json, t, int64Min, int64Max);
      return longAsString ? v.toString() : v;
    }
    case ScalarType.UINT64:
    case ScalarType.FIXED64: {
      const v = readInt64(json, t, 0n, uint64Max);
      return longAsString ? v.toString() : v;
    }
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return readFloat(json, t);
    case ScalarType.BYTES: {
      if (typeof json !== "string") failType(t, "a base64 string", json);
      const bytes = base64Decode(json);
      if (bytes === undefined) fail("syntax", t, "not standard or URL-safe base64");
      return bytes;
    }
  }
  fail("json-type", t, "unknown scalar type");
}

/**
 * {@link scalarFromJson} of one scalar type, with the common case decided first in a few comparisons; anything
 * else goes to scalarFromJson, which gives the same result or error.
 */
export function scalarReader(t: ScalarType, longAsString: boolean): (json: unknown) => unknown {
  switch (t) {
    case ScalarType.DOUBLE:
      return (json) => (typeof json === "number" && json - json === 0 ? json : scalarFromJson(t, json, longAsString));
    default:
      return (json) => scalarFromJson(t, json, longAsString);
  }
}

/**
 * Reads a map key of type `t` from its JSON object member name, in protobuf-es's local form (the object key:
 * a canonical decimal for integers, "true"/"false" for bool).
 */
export function mapKeyFromJson(t: ScalarType, key: string): string {
  switch (t) {
    case ScalarType.STRING:
      if (!isWellFormed(key)) fail("utf16", t, "the map key has a lone surrogate, which is not valid UTF-8");
      return key;
    case ScalarType.BOOL:
      if (key === "true" || key === "false") return key;
      return fail("syntax", t, `map key ${JSON.stringify(key)} is not "true" or "false"`);
    default: {
      // The common case: a key already in canonical form, in range, is its own local form.
      if (isCanonicalIntegerKey(t, key)) return key;
      const canonical = decimalKey(key);
      if (canonical === undefined) fail("syntax", t, `map key ${JSON.stringify(key)} is not a decimal integer`);
      return String(scalarFromJson(t, canonical, true));
    }
  }
}

/**
 * Tells whether `key` is an integer of type `t` written in canonical decimal form ("1", not "01" or "-0"):
 * exactly the keys for which `mapKeyFromJson(t, key) === key`.
 */
export function isCanonicalIntegerKey(t: ScalarType, key: string): boolean {
  switch (t) {
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return isCanonicalDecimal(key, "2147483647", "2147483648");
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return isCanonicalDecimal(key, "4294967295", "");
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return isCanonicalDecimal(key, "9223372036854775807", "9223372036854775808");
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return isCanonicalDecimal(key, "18446744073709551615", "");
  }
  return false;
}

/**
 * Tells whether `key` is an integer in canonical decimal form ("-?(0|[1-9][0-9]*)", not "-0") of at most
 * `max` (digits), or, with a "-", of magnitude at most `minMagnitude` ("" when negatives are out of range),
 * without making a number or a bigint.
 */
function isCanonicalDecimal(key: string, max: string, minMagnitude: string): boolean {
  const negative = key.charCodeAt(0) === 45;
  const start = negative ? 1 : 0;
  const limit = negative ? minMagnitude : max;
  const n = key.length - start;
  if (n === 0 || n > limit.length) return false;
  const first = key.charCodeAt(start);
  if (first === 48) return n === 1 && !negative;
  // Digits only; when as long as the limit, compared digit by digit.
  let below = n < limit.length;
  for (let i = 0; i < n; i++) {
    const c = key.charCodeAt(start + i);
    if (!isDigit(c)) return false;
    if (!below) {
      const l = limit.charCodeAt(i);
      if (c < l) below = true;
      else if (c > l) return false;
    }
  }
  return true;
}

/**
 * The value of a map key of a 32-bit integer type (`unsigned` for uint32 and fixed32) written in canonical
 * decimal form, or NaN: exactly the keys {@link isCanonicalIntegerKey} accepts for the type. One scan instead
 * of `+key` and `String(n) === key` (a call into V8's runtime each for a key that is an array index), and the
 * number lets the writer read and write the member by index.
 */
export function int32KeyValue(key: string, unsigned: boolean): number {
  const n = key.length;
  let i = 0;
  const negative = key.charCodeAt(0) === 45;
  if (negative) {
    if (unsigned) return NaN;
    i = 1;
  }
  // At most 10 digits: the value stays an exact double below 10^10.
  if (i === n || n - i > 10) return NaN;
  if (key.charCodeAt(i) === 48) return n === 1 ? 0 : NaN; // "0"; not "-0" or "01"
  let v = 0;
  for (; i < n; i++) {
    const d = key.charCodeAt(i) - 48;
    if (!(d >= 0 && d <= 9)) return NaN;
    v = v * 10 + d;
  }
  if (negative) return v <= 2147483648 ? -v : NaN;
  return v <= (unsigned ? 4294967295 : 2147483647) ? v : NaN;
}

/**
 * The canonical form of a decimal integer map key (`-?(0|[1-9][0-9]*)`), or undefined if `s` is not one. A
 * leading `+` and leading zeros are taken, as Go (strconv.ParseInt), C++ (absl::SimpleAtoi) and protobuf-es
 * take them, and dropped: `"+1"`, `"01"` and `"1"` are one key, so giving two of them is a duplicate.
 */
function decimalKey(s: string): string | undefined {
  const c0 = s.charCodeAt(0);
  const negative = c0 === 45;
  let i = negative || c0 === 43 ? 1 : 0;
  if (i === s.length) return undefined;
  for (let j = i; j < s.length; j++) if (!isDigit(s.charCodeAt(j))) return undefined;
  while (i < s.length - 1 && s.charCodeAt(i) === 48) i++;
  const digits = s.slice(i);
  return negative && digits !== "0" ? "-" + digits : digits;
}

/**
 * Writes a scalar of type `t` in its local representation as a JSON value. Throws our error for a value
 * that does not belong to the type (a message assembled by hand can hold anything).
 */
export function scalarToJson(t: ScalarType, value: unknown): string | number | boolean {
  switch (t) {
    case ScalarType.STRING:
      if (typeof value !== "string") failType(t, "a string", value);
      if (!isWellFormed(value)) fail("utf16", t, "the string has a lone surrogate, which is not valid UTF-8");
      return value;
    case ScalarType.BOOL:
      if (typeof value !== "boolean") failType(t, "a boolean", value);
      return value;
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      if (typeof value !== "number") failType(t, "a number", value);
      if (!Number.isInteger(value) || value < int32Min || value > int32Max) {
        fail("range", t, `expected an int32, got ${String(value)}`);
      }
      return value === 0 ? 0 : value; // -0 is 0 for integers
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      if (typeof value !== "number") failType(t, "a number", value);
      if (!Number.isInteger(value) || value < 0 || value > uint32Max) {
        fail("range", t, `expected a uint32, got ${String(value)}`);
      }
      return value === 0 ? 0 : value; // -0 is 0 for integers
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return int64ToJson(t, value, int64Min, int64Max);
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return int64ToJson(t, value, 0n, uint64Max);
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      if (typeof value !== "number") failType(t, "a number", value);
      if (Number.isFinite(value)) {
        // A finite double beyond float32 is not a float: the reader would reject what we wrote.
        if (t === ScalarType.FLOAT && !Number.isFinite(Math.fround(value))) {
          fail("range", t, `${value} is outside the range of float`);
        }
        return value;
      }
      return Number.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity";
    case ScalarType.BYTES:
      if (!(value instanceof Uint8Array)) failType(t, "a Uint8Array", value);
      return base64Encode(value);
  }
  fail("json-type", t, "unknown scalar type");
}

/**
 * {@link scalarToJson} of one scalar type, with the common case (a value of the right type in range) decided
 * first in a few comparisons; anything else goes to scalarToJson, which gives the same result or error.
 */
export function scalarWriter(t: ScalarType): (value: unknown) => string | number | boolean {
  switch (t) {
    case ScalarType.DOUBLE:
      // A finite number is written as it is (-0 included; the text writers print its sign).
      return (value) => (typeof value === "number" && value - value === 0 ? value : scalarToJson(t, value));
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      // In range exactly when truncating to 64 bits keeps the value: one operation V8 compiles inline, where two
      // comparisons with bigint constants are two calls.
      return (value) =>
        typeof value === "bigint" && BigInt.asIntN(64, value) === value ? value.toString() : scalarToJson(t, value);
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return (value) =>
        typeof value === "bigint" && BigInt.asUintN(64, value) === value ? value.toString() : scalarToJson(t, value);
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      // An int32 exactly when truncating to 32 bits keeps it; `| 0` also turns -0 into 0.
      return (value) => (typeof value === "number" && (value | 0) === value ? value | 0 : scalarToJson(t, value));
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return (value) => (typeof value === "number" && value >>> 0 === value ? value >>> 0 : scalarToJson(t, value));
    case ScalarType.FLOAT:
      // Within the largest float: finite and a float (a larger double that rounds to it goes the long way).
      return (value) =>
        typeof value === "number" && Math.abs(value) <= 3.4028234663852886e38 ? value : scalarToJson(t, value);
    case ScalarType.BOOL:
      return (value) => (typeof value === "boolean" ? value : scalarToJson(t, value));
    case ScalarType.STRING:
      return (value) => (typeof value === "string" && isWellFormed(value) ? value : scalarToJson(t, value));
    default:
      return (value) => scalarToJson(t, value);
  }
}

function int64ToJson(t: ScalarType, value: unknown, min: bigint, max: bigint): string {
  if (typeof value === "bigint") {
    if (value < min || value > max) fail("range", t, `${value} is outside ${min} to ${max}`);
    return value.toString();
  }
  // jstype = JS_STRING fields hold strings; a plain number is tolerated like protobuf-es does.
  return readInt64(value, t, min, max).toString();
}

/** The zero value of a scalar in protobuf-es's local representation. */
export function scalarZero(t: ScalarType, longAsString: boolean): unknown {
  switch (t) {
    case ScalarType.STRING:
      return "";
    case ScalarType.BOOL:
      return false;
    case ScalarType.BYTES:
      return new Uint8Array(0);
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return longAsString ? "0" : 0n;
    default:
      return 0;
  }
}

/** Tells whether a local scalar value is the zero value (proto3 implicit presence omits it). -0 is not zero. */
export function scalarIsZero(t: ScalarType, value: unknown): boolean {
  switch (t) {
    case ScalarType.STRING:
      return value === "";
    case ScalarType.BOOL:
      return value === false;
    case ScalarType.BYTES:
      return value instanceof Uint8Array && value.length === 0;
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return value === 0 && 1 / value > 0;
    default:
      // 0, 0n and "0" (jstype = JS_STRING). Not loose equality: `false`, `[]` or " " in an integer field of a
      // message built by hand are wrong-typed values to be reported, not zeros to be omitted.
      return value === 0 || value === 0n || value === "0";
  }
}
