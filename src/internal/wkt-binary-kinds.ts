/**
 * Which descriptors the binary fast paths (wkt-binary.ts) take: a proto3 message with exactly the fields of the
 * well-known type of its name (so a user descriptor of the same name but another shape goes to protobuf-es),
 * checked once per descriptor; and the sentinel the fast paths throw to hand the work to protobuf-es.
 *
 * @module
 * @internal
 */
import { protoInt64, type DescField, type DescMessage } from "@bufbuild/protobuf";
import {
  anyTypeName,
  boolValueTypeName,
  bytesValueTypeName,
  doubleValueTypeName,
  durationTypeName,
  emptyTypeName,
  fieldMaskTypeName,
  floatValueTypeName,
  int32ValueTypeName,
  int64ValueTypeName,
  listValueTypeName,
  nullValueTypeName,
  stringValueTypeName,
  structTypeName,
  timestampTypeName,
  uint32ValueTypeName,
  uint64ValueTypeName,
  valueTypeName,
} from "./names.js";

/** The well-known types the fast paths take, one case each in the encoder and the decoder. */
export const enum Kind {
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
  [timestampTypeName]: [
    Kind.Timestamp,
    [
      [1, "seconds", "scalar", INT64],
      [2, "nanos", "scalar", INT32],
    ],
  ],
  [durationTypeName]: [
    Kind.Duration,
    [
      [1, "seconds", "scalar", INT64],
      [2, "nanos", "scalar", INT32],
    ],
  ],
  [fieldMaskTypeName]: [Kind.FieldMask, [[1, "paths", "list", STRING]]],
  [emptyTypeName]: [Kind.Empty, []],
  [structTypeName]: [Kind.Struct, [[1, "fields", "map", valueTypeName]]],
  [valueTypeName]: [
    Kind.Value,
    [
      [1, "nullValue", "enum", nullValueTypeName, "kind"],
      [2, "numberValue", "scalar", DOUBLE, "kind"],
      [3, "stringValue", "scalar", STRING, "kind"],
      [4, "boolValue", "scalar", BOOL, "kind"],
      [5, "structValue", "message", structTypeName, "kind"],
      [6, "listValue", "message", listValueTypeName, "kind"],
    ],
  ],
  [listValueTypeName]: [Kind.ListValue, [[1, "values", "list", valueTypeName]]],
  [anyTypeName]: [
    Kind.Any,
    [
      [1, "typeUrl", "scalar", STRING],
      [2, "value", "scalar", BYTES],
    ],
  ],
  [doubleValueTypeName]: [Kind.DoubleValue, [[1, "value", "scalar", DOUBLE]]],
  [floatValueTypeName]: [Kind.FloatValue, [[1, "value", "scalar", FLOAT]]],
  [int64ValueTypeName]: [Kind.Int64Value, [[1, "value", "scalar", INT64]]],
  [uint64ValueTypeName]: [Kind.UInt64Value, [[1, "value", "scalar", UINT64]]],
  [int32ValueTypeName]: [Kind.Int32Value, [[1, "value", "scalar", INT32]]],
  [uint32ValueTypeName]: [Kind.UInt32Value, [[1, "value", "scalar", UINT32]]],
  [boolValueTypeName]: [Kind.BoolValue, [[1, "value", "scalar", BOOL]]],
  [stringValueTypeName]: [Kind.StringValue, [[1, "value", "scalar", STRING]]],
  [bytesValueTypeName]: [Kind.BytesValue, [[1, "value", "scalar", BYTES]]],
};

/** The kind of each descriptor seen, or null when protobuf-es handles it. */
const kinds = new WeakMap<DescMessage, Kind | null>();

export function kindOf(desc: DescMessage): Kind | undefined {
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

/** Thrown inside the fast paths to hand the work to protobuf-es. */
const notTaken = new Error("not taken by the fast path");

export function bail(): never {
  throw notTaken;
}

export const typeNames: Record<Kind, string> = {
  [Kind.Timestamp]: timestampTypeName,
  [Kind.Duration]: durationTypeName,
  [Kind.FieldMask]: fieldMaskTypeName,
  [Kind.Empty]: emptyTypeName,
  [Kind.Struct]: structTypeName,
  [Kind.Value]: valueTypeName,
  [Kind.ListValue]: listValueTypeName,
  [Kind.Any]: anyTypeName,
  [Kind.DoubleValue]: doubleValueTypeName,
  [Kind.FloatValue]: floatValueTypeName,
  [Kind.Int64Value]: int64ValueTypeName,
  [Kind.UInt64Value]: uint64ValueTypeName,
  [Kind.Int32Value]: int32ValueTypeName,
  [Kind.UInt32Value]: uint32ValueTypeName,
  [Kind.BoolValue]: boolValueTypeName,
  [Kind.StringValue]: stringValueTypeName,
  [Kind.BytesValue]: bytesValueTypeName,
};
