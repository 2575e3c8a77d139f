/**
 * The scan of binary input before it is decoded, shared by the `wkt-json` command (`--from binary`,
 * `--from binary-delimited`) and {@link sizeDelimitedDecodeStream} (each record): `fromBinary` has no budget of
 * its own, and 3 bytes of the wire format can be a message that takes hundreds of bytes of memory.
 *
 * @internal
 * @module
 */
import { ScalarType, type DescExtension, type DescField, type DescMessage, type Registry } from "@bufbuild/protobuf";
import { charge, workError, workMeter, type WorkMeter } from "../internal/meter.js";
import { anyTypeName } from "../internal/names.js";
import { typeUrlResolve } from "../wkt/registry.js";

/**
 * What {@link scanBinary} charges on top of one value per tag (or packed element), in the units of its
 * `maxValues`: the library's reader charges the memory `fromBinary` allocates (internal/budget.ts), so that a
 * record's cost is bounded by its size as a JSON text's is; the command counts values and gives none.
 */
export interface ScanWeights {
  /**
   * One occurrence of `field` in a message of a known type: a tag of it, or an element of it packed;
   * `undefined` for a field the type lacks (kept as an unknown field).
   */
  field(field: DescField | DescExtension | undefined): number;
  /** A new message of `desc` (the record's own, a field's, a map value's). */
  message(desc: DescMessage): number;
}

/** A message being walked by {@link scanBinary}. */
interface Frame {
  /** Its type; undefined for a message of unknown type (a group the schema lacks), whose fields are only counted. */
  readonly desc: DescMessage | undefined;
  /** For a map entry: the message type of its value (field 2), or undefined. */
  mapValue: DescMessage | undefined;
  isMapEntry: boolean;
  /** Where it ends; for a group, where its parent ends. */
  readonly end: number;
  /** Where the walk goes on once it is done: `end`, or for the value of an Any, where that Any ends. */
  readonly after: number;
  /** The field number of a group (it ends at its END_GROUP tag), else -1. */
  readonly group: number;
  /** For an Any: where the last type URL and value seen start and end (-1: none yet), as fromBinary keeps them. */
  urlStart: number;
  urlEnd: number;
  valueStart: number;
  valueEnd: number;
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

/** The field of `desc` numbered `no`, or the extension of that number the registry has (the JSON writer reads it). */
function fieldOrExtension(desc: DescMessage, no: number, registry: Registry): DescField | DescExtension | undefined {
  return fieldByNumber(desc, no) ?? registry.getExtensionFor(desc, no);
}

/**
 * One pass over binary input before it is decoded, as {@link scanJson} for JSON: tells whether it holds more
 * than `maxValues` values (each message, map entry, field occurrence and element of a packed field). It counts
 * everything the decoder and the JSON writer will decode: message fields, map entries, groups, the extensions
 * the registry has (the writer reads them from the unknown fields), and the value of every Any whose type the
 * registry has, at any depth (an Any in an Any's value included), whatever the order of its fields and
 * whatever else it holds: the last type URL and value, as fromBinary keeps them. 3 bytes of the wire format
 * can be a message that takes 150 bytes of memory, so 64 MiB of them took 3.4 GB and 36 s; an Any the scan
 * skipped aborted the command in a 1 GB heap from 6 MB. Linear: each byte is walked once (the bytes of an
 * Any's value once, when its Any ends), with its own stack. Each step (a tag, a packed element) is charged to
 * `meter` (rule `size` once spent; the allowance is far above one step per byte). Stops quietly at anything
 * malformed, which fromBinary reports.
 */
export function scanBinary(
  bytes: Uint8Array,
  schema: DescMessage,
  registry: Registry,
  maxValues: number,
  meter: WorkMeter = workMeter(schema.typeName, bytes.length),
  weights?: ScanWeights,
): boolean {
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
  const stack: Frame[] = [];
  /** Starts walking a message of type `desc` from `p` to `end` (a group: to its END_GROUP tag, `group`). */
  const open = (desc: DescMessage | undefined, end: number, group = -1, after = end): Frame => {
    const f: Frame = {
      desc,
      mapValue: undefined,
      isMapEntry: false,
      end,
      after,
      group,
      urlStart: -1,
      urlEnd: -1,
      valueStart: -1,
      valueEnd: -1,
    };
    stack.push(f);
    if (weights !== undefined && desc !== undefined) values += weights.message(desc);
    return f;
  };
  /** Ends the walk of `f` (popped), `p` past it; for an Any, walks its value next, as the JSON writer decodes it. */
  const close = (f: Frame): void => {
    if (f.desc?.typeName !== anyTypeName || f.valueStart < 0 || f.urlStart < 0) return;
    charge(meter, f.urlEnd - f.urlStart);
    let inner: DescMessage;
    try {
      inner = typeUrlResolve(new TextDecoder().decode(bytes.subarray(f.urlStart, f.urlEnd)), registry);
    } catch {
      return; // the writer reports it
    }
    open(inner, f.valueEnd, -1, p);
    p = f.valueStart;
  };
  open(schema, bytes.length);
  while (stack.length > 0) {
    const f = stack[stack.length - 1]!;
    if (p >= f.end) {
      if (f.group >= 0) return false; // a group without its END_GROUP
      stack.pop();
      p = f.after;
      close(f);
      continue;
    }
    if (--meter.left < 0) throw workError(meter);
    const tag = readVarint();
    if (tag < 0) return false;
    if (++values > maxValues) return true;
    const no = Math.floor(tag / 8);
    const field = f.desc === undefined || f.isMapEntry ? undefined : fieldOrExtension(f.desc, no, registry);
    const extra = weights === undefined || f.desc === undefined || f.isMapEntry ? 0 : weights.field(field);
    if ((values += extra) > maxValues) return true;
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
          if (no === 2 && f.mapValue !== undefined) open(f.mapValue, end);
          else p = end;
        } else if (f.desc?.typeName === anyTypeName && (no === 1 || no === 2)) {
          // Any's type_url and value: the last of each counts, as fromBinary keeps it.
          if (no === 1) [f.urlStart, f.urlEnd] = [p, end];
          else [f.valueStart, f.valueEnd] = [p, end];
          p = end;
        } else if (field?.fieldKind === "map") {
          const entry = open(undefined, end);
          entry.isMapEntry = true;
          entry.mapValue = field.mapKind === "message" ? field.message : undefined;
        } else if (field?.fieldKind === "message" || (field?.fieldKind === "list" && field.listKind === "message")) {
          open(field.message, end);
        } else if (
          field?.fieldKind === "list" &&
          field.scalar !== ScalarType.STRING &&
          field.scalar !== ScalarType.BYTES
        ) {
          // packed: one value per element
          const s = field.scalar;
          let n = 0;
          if (s === ScalarType.DOUBLE || s === ScalarType.FIXED64 || s === ScalarType.SFIXED64) n = len / 8;
          else if (s === ScalarType.FLOAT || s === ScalarType.FIXED32 || s === ScalarType.SFIXED32) n = len / 4;
          else {
            charge(meter, len);
            for (let i = p; i < end; i++) if (bytes[i]! < 0x80) n++;
          }
          values += n * (1 + extra);
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
        open(message, f.end, no);
        break;
      }
      case 4:
        if (f.group !== no) return false;
        stack.pop();
        close(f);
        break;
      default:
        return false;
    }
  }
  return values > maxValues;
}
