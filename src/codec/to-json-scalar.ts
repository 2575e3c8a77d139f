/**
 * The writers of scalar and enum values for the proto3 JSON writer, as JSON values and as JSON text: "int64,
 * fixed64, uint64: JSON string", "bytes: base64 string", "enum: the name of the enum value as specified in
 * proto", floats as numbers or "NaN", "Infinity", "-Infinity". The text writers print exactly what
 * `JSON.stringify` prints for the value (quoting strings by {@link quote}), except that they keep the sign of -0.
 *
 * @module
 * @internal
 */
import { ScalarType, type DescEnum, type JsonValue } from "@bufbuild/protobuf";
import { WktJsonError } from "../errors.js";
import { durationTypeName, fieldMaskTypeName, nullValueTypeName, timestampTypeName } from "../internal/names.js";
import { describe } from "../internal/describe.js";
import { isPlainString, negativeZeroTake } from "../internal/json-value.js";
import { scalarToJson, scalarWriter } from "../internal/scalar.js";
import { float32Shortest } from "../internal/float32.js";
import { durationToJson } from "../wkt/duration.js";
import { enumJsonNameClash, enumJsonNameError, enumValueJsonName } from "../wkt/enum.js";
import { fieldMaskToJson } from "../wkt/field-mask.js";
import { timestampToJson } from "../wkt/timestamp.js";
import type { ValueTextWriter, ValueWriter, WriteContext } from "./to-json-plan.js";

/**
 * Notes a -0 (of a DoubleValue or FloatValue) in the context, for toJsonString; returns the value. An integer
 * -0 is never written: the 32-bit writers see it as 0.
 */
export function noteZero(json: string | number | boolean, ctx: WriteContext): string | number | boolean {
  if (json === 0 && 1 / json < 0) ctx.negativeZero = true;
  return json;
}

/**
 * The JSON number of a 64-bit integer written as `text` (its decimal digits), for the option `int64AsNumber`:
 * the number where it is that very integer and prints as its digits (every integer up to 2^53 in magnitude,
 * and a larger one such as 10^18), else `text`. So a reader that reads numbers as doubles (JavaScript) and one that reads their
 * digits (Go, Java, C++) get the same integer, and JSON.stringify of the value prints what toJsonString prints.
 * C++'s `unquote_int64_if_possible` unquotes every integer a double holds exactly (2^60 too), printed as its
 * exact digits, which a JavaScript value cannot carry through JSON.stringify (2^60 prints 1152921504606847000).
 */
export function int64JsonNumber(text: string): string | number {
  const n = +text;
  // Beyond 2^53 both must hold: the shortest form of the double is the digits (for the text's readers), and
  // the double is the integer (for the value's): 361664567702834100 prints as its digits but is the double
  // 361664567702834112.
  return Number.isSafeInteger(n) || ("" + n === text && BigInt(n).toString() === text) ? n : text;
}

/**
 * A float value's JSON (scalarWriter's) as the shortest decimal that reads back as the same float32, for the
 * option `floatShortest` (see float32.ts); "NaN" and the infinities as they are.
 */
export function floatShortestJson(json: string | number | boolean): string | number | boolean {
  return typeof json === "number" ? float32Shortest(json) : json;
}

/** Whether a scalar type is a 64-bit integer, written as a string (or, with int64AsNumber, a number). */
export function isInt64Scalar(t: ScalarType): boolean {
  return (
    t === ScalarType.INT64 ||
    t === ScalarType.UINT64 ||
    t === ScalarType.SINT64 ||
    t === ScalarType.FIXED64 ||
    t === ScalarType.SFIXED64
  );
}

/**
 * The JSON of a wrapper's value (a wrapper message, or a wrapper field that holds the bare scalar) with the
 * context's options: scalarToJson's, a float's shortest decimal with `floatShortest`, a 64-bit integer as a number
 * with `int64AsNumber`; a -0 noted (see noteZero).
 */
export function wrappedScalarJson(t: ScalarType, value: unknown, ctx: WriteContext): string | number | boolean {
  const json = noteZero(scalarToJson(t, value), ctx);
  if (t === ScalarType.FLOAT && ctx.floatShortest) return floatShortestJson(json);
  return ctx.int64AsNumber && typeof json === "string" && isInt64Scalar(t) ? int64JsonNumber(json) : json;
}

/** {@link compileScalarText} without the quotes, for the scalar types written as strings; else undefined. */
export function compileScalarRaw(scalar: ScalarType): ((value: unknown) => string) | undefined {
  switch (scalar) {
    case ScalarType.STRING:
      // A string with nothing to escape and no surrogate passes scalarToJson's checks: one scan instead of two.
      return (value) =>
        typeof value === "string" && isPlainString(value) ? value : rawString(scalarToJson(scalar, value) as string);
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
    case ScalarType.BYTES:
      // Decimal digits with an optional "-", or base64: nothing to escape.
      return scalarWriter(scalar) as (value: unknown) => string;
  }
  return undefined;
}

/** The text writer of a scalar type: {@link scalarToJson}'s checks, printed as JSON.stringify would. */
export function compileScalarText(scalar: ScalarType): (value: unknown) => string {
  switch (scalar) {
    case ScalarType.STRING:
      return (value) =>
        typeof value === "string" && isPlainString(value)
          ? '"' + value + '"'
          : quote(scalarToJson(scalar, value) as string);
    case ScalarType.BOOL:
      return (value) =>
        value === true ? "true" : value === false ? "false" : scalarToJson(scalar, value) ? "true" : "false";
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT: {
      const write = scalarWriter(scalar);
      return (value) => {
        const json = write(value);
        if (typeof json === "string") return '"' + json + '"'; // NaN, Infinity, -Infinity
        return json === 0 && 1 / json < 0 ? "-0" : "" + json;
      };
    }
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
    case ScalarType.BYTES: {
      // Decimal digits with an optional "-", or base64: nothing to escape.
      const write = scalarWriter(scalar);
      return (value) => '"' + (write(value) as string) + '"';
    }
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      // The usual value decided in place, as scalarWriter does; "" + -0 is "0", as JSON.stringify prints it.
      return (value) =>
        typeof value === "number" && value >>> 0 === value ? "" + value : "" + (scalarToJson(scalar, value) as number);
    default:
      // A signed 32-bit integer.
      return (value) =>
        typeof value === "number" && (value | 0) === value ? "" + value : "" + (scalarToJson(scalar, value) as number);
  }
}

/**
 * A string in which JSON.stringify escapes nothing (if well-formed). Anchored, with a negated class: V8 runs
 * it as one tight loop, twice as fast as searching for the characters to escape.
 */
const nothingToEscape = /^[^"\\\u0000-\u001f]*$/;

/**
 * `JSON.stringify(s)` of a string without lone surrogates (checked before: JSON.stringify would write them as
 * `\udXXX`): most strings need no escape, and one native search is cheaper than a call of JSON.stringify.
 */
function quote(s: string): string {
  if (s.length > 24) return nothingToEscape.test(s) ? '"' + s + '"' : JSON.stringify(s);
  // Short strings (names, ids, enum-like values): a loop costs less than starting the regular expression.
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 93 && (c < 32 || c === 34 || c === 92)) return '"' + rawString(s) + '"';
  }
  return '"' + s + '"';
}

/** {@link quote} without the quotes: the inside of the JSON string. */
export function rawString(s: string): string {
  if (s.length > 24) return nothingToEscape.test(s) ? s : JSON.stringify(s).slice(1, -1);
  // A short string is escaped here, as JSON.stringify escapes it: a tab or a quote in a name or a short text
  // cost a call of JSON.stringify and a slice (about 80 ns), the loop about a third of that.
  let out = "";
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 93 && (c < 32 || c === 34 || c === 92)) {
      out += s.slice(from, i) + jsonEscapes[c]!;
      from = i + 1;
    }
  }
  return from === 0 ? s : out + s.slice(from);
}

/** JSON.stringify's escape of each character it escapes in a well-formed string, by code (0-31, '"', '\\'). */
const jsonEscapes: readonly string[] = /* @__PURE__ */ Array.from({ length: 93 }, (_, c) =>
  JSON.stringify(String.fromCharCode(c)).slice(1, -1),
);

/** The text writer of an enum, as {@link compileEnum}'s writer printed by JSON.stringify. */
export function compileEnumText(desc: DescEnum): ValueTextWriter {
  const write = compileEnum(desc);
  // Enum value names are identifiers; a custom JSON name or a descriptor set built by hand may hold anything.
  const plainNames = desc.values.every((v) => /^[A-Za-z0-9_]*$/.test(enumValueJsonName(v)));
  return (value, ctx) => {
    const json = write(value, ctx);
    if (typeof json === "string") return plainNames ? '"' + json + '"' : JSON.stringify(json);
    return json === null ? "null" : "" + json;
  };
}

/**
 * "The name of the enum value as specified in proto is used", or the custom JSON name the value sets with the
 * option `(pb.enumvalue.json).string` (google/protobuf/json_enumvalue_options.proto; @bufbuild/protobuf reads
 * it into `jsonName`); a number the enum lacks is written as is.
 */
export function compileEnum(desc: DescEnum): ValueWriter {
  const clash = enumJsonNameClash(desc);
  if (clash !== undefined) {
    // protoc refuses such an enum: no value of it is written (GREEN named "BLUE" would read back as BLUE).
    return () => {
      throw enumJsonNameError(desc, clash);
    };
  }
  const names = new Map<number, string>();
  for (const v of desc.values) if (!names.has(v.number)) names.set(v.number, enumValueJsonName(v));
  const isNullValue = desc.typeName === nullValueTypeName;
  return (value, ctx) => {
    if (typeof value !== "number") {
      throw new WktJsonError("json-type", "$", desc.typeName, `expected an enum number, got ${describe(value)}`);
    }
    if (!Number.isInteger(value) || value < -2147483648 || value > 2147483647) {
      throw new WktJsonError("enum", "$", desc.typeName, `${value} is not an int32`);
    }
    if (isNullValue) return null;
    const n = value === 0 ? 0 : value; // -0 is 0
    if (ctx.enumAsInteger) return n;
    return names.get(n) ?? n;
  };
}

/**
 * Prints a JSON value made by a value writer (Struct, Value, ListValue, Any, Empty, wrappers), keeping the
 * sign of a -0 it holds, and forgets the -0. Text writers print every other -0 themselves, so the flags are
 * clear whenever such a value starts to be written.
 */
export function treeText(json: JsonValue, ctx: WriteContext): string {
  const negativeZero = negativeZeroTake() || ctx.negativeZero;
  ctx.negativeZero = false;
  return negativeZero ? stringifyKeepingNegativeZero(json, 0) : JSON.stringify(json);
}

/**
 * JSON.stringify, except that -0 is written "-0" (used only when the message holds a -0). Strings, numbers
 * and indentation are written exactly as JSON.stringify writes them.
 */
export function stringifyKeepingNegativeZero(json: JsonValue, spaces: number): string {
  const indent = " ".repeat(Math.max(0, Math.min(10, Math.floor(spaces))));
  const write = (v: JsonValue, at: string): string => {
    if (typeof v === "number") return v === 0 && 1 / v < 0 ? "-0" : JSON.stringify(v);
    if (typeof v !== "object" || v === null) return JSON.stringify(v);
    const inner = at + indent;
    const open = indent === "" ? "" : "\n" + inner;
    const close = indent === "" ? "" : "\n" + at;
    const sep = indent === "" ? "," : ",\n" + inner;
    if (Array.isArray(v)) {
      if (v.length === 0) return "[]";
      return "[" + open + v.map((item) => write(item, inner)).join(sep) + close + "]";
    }
    const keys = Object.keys(v);
    if (keys.length === 0) return "{}";
    const colon = indent === "" ? ":" : ": ";
    return "{" + open + keys.map((k) => JSON.stringify(k) + colon + write(v[k]!, inner)).join(sep) + close + "}";
  };
  return write(json, "");
}

/**
 * The text function of a well-known type whose JSON is a string with nothing to escape (Timestamp, Duration,
 * FieldMask), else undefined: the writers put its text between quotes as it is. Timestamp and Duration texts
 * are digits, "-", ":", ".", "T", "Z" and "s"; a FieldMask's are lower-camel paths (fieldMaskToJson rejects
 * every character but a-z, 0-9, "_" and ".") joined by commas.
 */
export function plainStringWkt(typeName: string): ((message: never) => string) | undefined {
  switch (typeName) {
    case timestampTypeName:
      return timestampToJson;
    case durationTypeName:
      return durationToJson;
    case fieldMaskTypeName:
      return fieldMaskToJson;
  }
  return undefined;
}
