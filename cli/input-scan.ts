/**
 * Scans of the `wkt-json` command's input, run before it is decoded: cheap passes over the bytes that bound
 * what the decoder will be asked to build (values, nesting), keeping nothing. They check nothing else:
 * malformed input is left to the decoder, which reports it with its path.
 *
 * @module
 */
import { ScalarType, type DescField, type DescMessage, type Registry } from "@bufbuild/protobuf";
import { anyTypeName } from "../src/internal/names.js";
import { typeUrlResolve } from "../src/wkt/registry.js";

/** What {@link scanJson} found. */
export interface Scan {
  /** Whether the input holds more than the allowed number of values. */
  readonly tooManyValues: boolean;
  /** The index just past the `[` or `{` where nesting first goes beyond the limit, or -1. */
  readonly deepEnd: number;
}

/**
 * One pass over the bytes of a JSON input before anything is decoded (the decoder's first step is
 * `JSON.parse`, which builds the whole tree): counts the values (objects, arrays, strings and member names,
 * numbers, literals) up to `maxValues`, and finds where nesting first goes beyond `depthLimit`, whichever
 * comes first. It keeps nothing and checks nothing else: malformed text is the decoder's to report. Bytes of
 * multi-byte UTF-8 characters are all 0x80 or above, so they never look like `"` or `\`.
 */
export function scanJson(bytes: Uint8Array, maxValues: number, depthLimit: number): Scan {
  let values = 0;
  let depth = 0;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const c = bytes[i]!;
    if (c === 0x22) {
      // a string: up to the next quote not escaped
      for (i++; i < n; i++) {
        const d = bytes[i]!;
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > depthLimit) return { tooManyValues: false, deepEnd: i + 1 };
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
      continue;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e) {
      // a number or a literal: to its end
      while (i + 1 < n && isLiteralByte(bytes[i + 1]!)) i++;
    } else {
      continue; // white space, ",", ":", or a byte the decoder will reject
    }
    if (++values > maxValues) return { tooManyValues: true, deepEnd: -1 };
  }
  return { tooManyValues: false, deepEnd: -1 };
}

/** Letters, digits, `+`, `-`, `.`: the bytes of a number or of `true`, `false`, `null`. */
function isLiteralByte(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    c === 0x2b ||
    c === 0x2d ||
    c === 0x2e
  );
}

/** A message being walked by {@link scanBinary}. */
interface Frame {
  /** Its type; undefined for a message of unknown type (a group the schema lacks), whose fields are only counted. */
  readonly desc: DescMessage | undefined;
  /** For a map entry: the message type of its value (field 2), or undefined. */
  readonly mapValue: DescMessage | undefined;
  readonly isMapEntry: boolean;
  /** Where it ends; for a group, where its parent ends. */
  readonly end: number;
  /** The field number of a group (it ends at its END_GROUP tag), else -1. */
  readonly group: number;
  /** Whether to skip the rest (an Any, once its value has been walked). */
  readonly skip: boolean;
}

const fieldMaps = new WeakMap<DescMessage, Map<number, DescField>>();

function fieldByNumber(desc: DescMessage, no: number): DescField | undefined {
  let map = fieldMaps.get(desc);
  if (map === undefined) {
    map = new Map(desc.fields.map((f) => [f.number, f]));
    fieldMaps.set(desc, map);
  }
  return map.get(no);
}

/**
 * One pass over binary input before it is decoded, as {@link scanJson} for JSON: tells whether it holds more
 * than `maxValues` values (each message, map entry, field occurrence and element of a packed field),
 * descending into message fields, map entries, groups and the value of an Any whose type the registry has
 * (the JSON writer decodes it). 3 bytes of the wire format can be a message that takes 150 bytes of memory,
 * so 64 MiB of them took 3.4 GB and 36 s. Keeps its own stack; stops quietly at anything malformed, which
 * fromBinary reports.
 */
export function scanBinary(bytes: Uint8Array, schema: DescMessage, registry: Registry, maxValues: number): boolean {
  let p = 0;
  let values = 1;
  const readVarint = (): number => {
    let v = 0;
    for (let shift = 0; p < bytes.length && shift < 70; shift += 7) {
      const b = bytes[p++]!;
      if (shift < 49) v += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return v;
    }
    return -1;
  };
  const frame = (desc: DescMessage | undefined, end: number, group = -1): Frame => ({
    desc,
    mapValue: undefined,
    isMapEntry: false,
    end,
    group,
    skip: false,
  });
  const stack: Frame[] = [];
  /** Enters a message of type `desc` whose bytes run from `p` to `end`; an Any is entered at its value. */
  const enter = (desc: DescMessage | undefined, end: number): void => {
    if (desc?.typeName !== anyTypeName) {
      stack.push(frame(desc, end));
      return;
    }
    let url = "";
    let valueStart = -1;
    let valueEnd = -1;
    while (p < end) {
      const tag = readVarint();
      if (tag < 0 || (tag & 7) !== 2) break; // Any has only two length-delimited fields: leave the rest to fromBinary
      const len = readVarint();
      if (len < 0 || p + len > end) break;
      if (tag >>> 3 === 1) url = new TextDecoder().decode(bytes.subarray(p, p + len));
      else if (tag >>> 3 === 2) [valueStart, valueEnd] = [p, p + len];
      p += len;
    }
    stack.push({ ...frame(undefined, end), skip: true });
    if (valueStart < 0 || url === "") return;
    let inner: DescMessage;
    try {
      inner = typeUrlResolve(url, registry);
    } catch {
      return; // the writer reports it
    }
    p = valueStart;
    stack.push(frame(inner, valueEnd));
  };
  enter(schema, bytes.length);
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    if (f.skip || p >= f.end) {
      if (f.group >= 0) return false; // a group without its END_GROUP
      p = f.end;
      stack.pop();
      continue;
    }
    const tag = readVarint();
    if (tag < 0) return false;
    if (++values > maxValues) return true;
    const no = Math.floor(tag / 8);
    const field = f.desc === undefined || f.isMapEntry ? undefined : fieldByNumber(f.desc, no);
    switch (tag & 7) {
      case 0:
        if (readVarint() < 0) return false;
        break;
      case 1:
        p += 8;
        break;
      case 5:
        p += 4;
        break;
      case 2: {
        const len = readVarint();
        if (len < 0 || p + len > f.end) return false;
        const end = p + len;
        if (f.isMapEntry) {
          if (no === 2 && f.mapValue !== undefined) enter(f.mapValue, end);
          else p = end;
        } else if (field?.fieldKind === "map") {
          stack.push({
            ...frame(undefined, end),
            isMapEntry: true,
            mapValue: field.mapKind === "message" ? field.message : undefined,
          });
        } else if (field?.fieldKind === "message" || (field?.fieldKind === "list" && field.listKind === "message")) {
          enter(field.message, end);
        } else if (
          field?.fieldKind === "list" &&
          field.scalar !== ScalarType.STRING &&
          field.scalar !== ScalarType.BYTES
        ) {
          // packed: one value per element
          const s = field.scalar;
          if (s === ScalarType.DOUBLE || s === ScalarType.FIXED64 || s === ScalarType.SFIXED64) values += len / 8;
          else if (s === ScalarType.FLOAT || s === ScalarType.FIXED32 || s === ScalarType.SFIXED32) values += len / 4;
          else for (let i = p; i < end; i++) if (bytes[i]! < 0x80) values++;
          if (values > maxValues) return true;
          p = end;
        } else {
          p = end;
        }
        break;
      }
      case 3: {
        const message =
          field?.fieldKind === "message" || (field?.fieldKind === "list" && field.listKind === "message")
            ? field.message
            : undefined;
        stack.push(frame(message, f.end, no));
        break;
      }
      case 4:
        if (f.group !== no) return false;
        stack.pop();
        break;
      default:
        return false;
    }
  }
  return false;
}
