/**
 * `default_value` of a Field in the text form protoc writes, both ways: from a descriptor's default
 * (`defaultValueText`, as C++ `DefaultValueAsString` prints it) and back to the text a FieldDescriptorProto holds
 * (`defaultValueProto`, checked against the field's kind). Holds the printf `%g` and C escaping they share.
 *
 * @module
 * @internal
 */
import { ScalarType, type DescField } from "@bufbuild/protobuf";
import { Field_Cardinality, Field_Kind, type Field } from "@bufbuild/protobuf/wkt";

/**
 * The descriptor's default value as C++ `DefaultValueAsString` prints it: integers in decimal, floats like
 * printf `%g` with the shortest precision that reads back, bytes C-escaped, enums by value name.
 */
export function defaultValueText(field: DescField): string {
  const raw = field.proto.defaultValue;
  if (field.fieldKind !== "scalar") return raw;
  if (field.scalar === ScalarType.STRING) return raw;
  if (field.scalar === ScalarType.BYTES) {
    // Our own reading: protobuf-es 2.17 drops the \" and \' escapes of a bytes default.
    const bytes = cUnescape(raw);
    return bytes === undefined ? raw : cEscape(bytes);
  }
  let value: unknown;
  try {
    value = field.getDefaultValue();
  } catch {
    return raw; // a hand-written descriptor with an unreadable default: keep its text
  }
  switch (field.scalar) {
    case ScalarType.BOOL:
      return value === true ? "true" : "false";
    case ScalarType.FLOAT:
      return formatFloat(Number(value), 6, 9, Math.fround);
    case ScalarType.DOUBLE:
      return formatFloat(Number(value), 15, 17, (x) => x);
    default:
      return String(value);
  }
}

/** C++ `SimpleDtoa`/`SimpleFtoa`: `%.{short}g`, or `%.{long}g` when that does not read back. */
function formatFloat(v: number, short: number, long: number, round: (x: number) => number): string {
  if (v === Infinity) return "inf";
  if (v === -Infinity) return "-inf";
  if (Number.isNaN(v)) return "nan";
  const s = formatG(v, short);
  return round(Number(s)) === v ? s : formatG(v, long);
}

/** printf `%.{precision}g`. */
function formatG(v: number, precision: number): string {
  if (v === 0) return Object.is(v, -0) ? "-0" : "0";
  const exponential = v.toExponential(precision - 1);
  const e = exponential.indexOf("e");
  const exp = Number(exponential.slice(e + 1));
  if (exp < -4 || exp >= precision) {
    const digits = exp < 0 ? -exp : exp;
    return `${stripZeros(exponential.slice(0, e))}e${exp < 0 ? "-" : "+"}${digits < 10 ? "0" : ""}${digits}`;
  }
  return stripZeros(v.toFixed(precision - 1 - exp));
}

function stripZeros(s: string): string {
  if (s.indexOf(".") < 0) return s;
  let end = s.length;
  while (s.charCodeAt(end - 1) === 48) end--;
  if (s.charCodeAt(end - 1) === 46) end--;
  return s.slice(0, end);
}

/** C escapes (`\n`, `\"`, `\377`, `\x41`, ...) to bytes, other characters as UTF-8; undefined when malformed. */
function cUnescape(text: string): Uint8Array | undefined {
  const out: number[] = [];
  const named: Record<string, number> = {
    a: 7,
    b: 8,
    f: 12,
    n: 10,
    r: 13,
    t: 9,
    v: 11,
    "\\": 92,
    "'": 39,
    '"': 34,
    "?": 63,
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 92) {
      if (c < 0x80) out.push(c);
      else {
        const cp = text.codePointAt(i) as number;
        out.push(...new TextEncoder().encode(String.fromCodePoint(cp)));
        if (cp > 0xffff) i++;
      }
      continue;
    }
    const e = text[++i];
    if (e === undefined) return undefined;
    const n = named[e];
    if (n !== undefined) {
      out.push(n);
      continue;
    }
    let value = 0;
    let digits = 0;
    if (e >= "0" && e <= "7") {
      for (; digits < 3 && i < text.length && text[i]! >= "0" && text[i]! <= "7"; digits++, i++)
        value = value * 8 + Number(text[i]);
    } else if (e === "x" || e === "X") {
      i++;
      for (; i < text.length && /[0-9a-fA-F]/.test(text[i] as string); digits++, i++)
        value = value * 16 + parseInt(text[i] as string, 16);
    }
    if (digits === 0 || value > 255) return undefined;
    out.push(value);
    i--;
  }
  return new Uint8Array(out);
}

/**
 * absl::CEscape: named escapes for \n \r \t " ' \, three octal digits for other bytes outside 0x20-0x7e. With
 * `octalQuotes`, quotes are written \042 and \047 instead.
 */
function cEscape(bytes: Uint8Array, octalQuotes = false): string {
  let out = "";
  for (const b of bytes) {
    if (octalQuotes && (b === 34 || b === 39)) {
      out += b === 34 ? "\\042" : "\\047";
      continue;
    }
    switch (b) {
      case 10:
        out += "\\n";
        break;
      case 13:
        out += "\\r";
        break;
      case 9:
        out += "\\t";
        break;
      case 34:
        out += '\\"';
        break;
      case 39:
        out += "\\'";
        break;
      case 92:
        out += "\\\\";
        break;
      default:
        out += b < 0x20 || b > 0x7e ? "\\" + b.toString(8).padStart(3, "0") : String.fromCharCode(b);
    }
  }
  return out;
}

const int32Range: readonly [bigint, bigint] = [-(2n ** 31n), 2n ** 31n - 1n];
const uint32Range: readonly [bigint, bigint] = [0n, 2n ** 32n - 1n];
const int64Range: readonly [bigint, bigint] = [-(2n ** 63n), 2n ** 63n - 1n];
const uint64Range: readonly [bigint, bigint] = [0n, 2n ** 64n - 1n];

/**
 * The default_value text for the FieldDescriptorProto, or undefined when the Type's text is not a value of the
 * field's kind. Stricter than protobuf-es, which reads "-0x10" as -0 and an unknown enum name only when a message
 * is created (and then throws).
 */
export function defaultValueProto(kind: number, f: Field, enumValues: () => ReadonlySet<string>): string | undefined {
  const text = f.defaultValue;
  if (f.cardinality === Field_Cardinality.REPEATED) return undefined;
  let range: readonly [bigint, bigint] | undefined;
  switch (kind) {
    case Field_Kind.TYPE_MESSAGE:
    case Field_Kind.TYPE_GROUP:
      return undefined;
    case Field_Kind.TYPE_ENUM:
      return enumValues().has(text) ? text : undefined;
    case Field_Kind.TYPE_STRING:
      return text;
    case Field_Kind.TYPE_BOOL:
      return text === "true" || text === "false" ? text : undefined;
    case Field_Kind.TYPE_BYTES: {
      const bytes = cUnescape(text);
      // Written back with octal escapes only, which protobuf-es 2.17 reads correctly (it drops \" and \').
      return bytes === undefined ? undefined : cEscape(bytes, true);
    }
    case Field_Kind.TYPE_FLOAT:
    case Field_Kind.TYPE_DOUBLE:
      return text === "inf" || text === "-inf" || text === "nan" || /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)
        ? text
        : undefined;
    case Field_Kind.TYPE_INT32:
    case Field_Kind.TYPE_SINT32:
    case Field_Kind.TYPE_SFIXED32:
      range = int32Range;
      break;
    case Field_Kind.TYPE_UINT32:
    case Field_Kind.TYPE_FIXED32:
      range = uint32Range;
      break;
    case Field_Kind.TYPE_UINT64:
    case Field_Kind.TYPE_FIXED64:
      range = uint64Range;
      break;
    default:
      range = int64Range;
  }
  if (!/^-?\d{1,20}$/.test(text)) return undefined;
  const v = BigInt(text);
  return v >= range[0] && v <= range[1] ? text : undefined;
}
