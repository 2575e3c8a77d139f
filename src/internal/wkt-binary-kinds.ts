/**
 * Which descriptors the binary fast paths (wkt-binary.ts) take: a proto3 message with exactly the fields of the
 * built-in descriptor of the well-known type of its name (so a user descriptor of the same name but another
 * shape goes to protobuf-es), checked once per descriptor; and the sentinel the fast paths throw to hand the
 * work to protobuf-es.
 *
 * @module
 * @internal
 */
import { protoInt64, type DescField, type DescMessage } from "@bufbuild/protobuf";
import {
  AnySchema,
  BoolValueSchema,
  BytesValueSchema,
  DoubleValueSchema,
  DurationSchema,
  EmptySchema,
  FieldMaskSchema,
  FloatValueSchema,
  Int32ValueSchema,
  Int64ValueSchema,
  ListValueSchema,
  StringValueSchema,
  StructSchema,
  TimestampSchema,
  UInt32ValueSchema,
  UInt64ValueSchema,
  ValueSchema,
} from "@bufbuild/protobuf/wkt";

/** The well-known types the fast paths take, by name: their built-in descriptors, all proto3. */
const builtins = /* @__PURE__ */ new Map<string, DescMessage>(
  [
    TimestampSchema,
    DurationSchema,
    FieldMaskSchema,
    EmptySchema,
    StructSchema,
    ValueSchema,
    ListValueSchema,
    AnySchema,
    DoubleValueSchema,
    FloatValueSchema,
    Int64ValueSchema,
    UInt64ValueSchema,
    Int32ValueSchema,
    UInt32ValueSchema,
    BoolValueSchema,
    StringValueSchema,
    BytesValueSchema,
  ].map((d): [string, DescMessage] => [d.typeName, d]),
);

/** google.protobuf.FieldDescriptorProto.Type.TYPE_STRING, as protobuf-es's ScalarType.STRING. */
const STRING = 9;
/** FeatureSet.FieldPresence.IMPLICIT. */
const IMPLICIT = 2;

/** The built-in descriptor `desc` was found to match, or null when protobuf-es handles it. */
const kinds = new WeakMap<DescMessage, DescMessage | null>();

/**
 * The built-in descriptor of the well-known type `desc` has the exact shape of (the fast paths read its fields
 * and name from it), or undefined when protobuf-es handles `desc`.
 */
export function kindOf(desc: DescMessage): DescMessage | undefined {
  let known = kinds.get(desc);
  if (known === undefined) kinds.set(desc, (known = check(desc, new Set()) ?? null));
  return known ?? undefined;
}

/** The built-in of `desc` if `desc` has exactly its shape (and so do the types it uses). */
function check(desc: DescMessage, seen: Set<DescMessage>): DescMessage | undefined {
  const b = builtins.get(desc.typeName);
  if (b === undefined || !protoInt64.supported || desc.file.edition !== b.file.edition) return undefined;
  if (seen.has(desc)) return b;
  seen.add(desc);
  if (desc.fields.length !== b.fields.length || desc.oneofs.length !== b.oneofs.length) return undefined;
  for (let i = 0; i < b.fields.length; i++) {
    if (!fieldMatches(desc.fields[i]!, b.fields[i]!, seen)) return undefined;
  }
  return b;
}

/** The members of a field that decide its binary form, whichever its kind. */
interface FieldForm {
  readonly scalar?: number;
  readonly longAsString?: boolean;
  readonly utf8Validation?: boolean;
  readonly packed?: boolean;
  readonly listKind?: string;
  readonly mapKey?: number;
  readonly mapKind?: string;
  readonly delimitedEncoding?: boolean;
  readonly message?: DescMessage;
  readonly enum?: { readonly typeName: string; readonly open: boolean };
}

/** Whether field `f` is the built-in field `b`, in everything that decides its binary form. */
function fieldMatches(f: DescField, b: DescField, seen: Set<DescMessage>): boolean {
  if (
    f.number !== b.number ||
    f.localName !== b.localName ||
    f.fieldKind !== b.fieldKind ||
    f.oneof?.localName !== b.oneof?.localName ||
    (b.oneof === undefined && f.presence !== IMPLICIT)
  )
    return false;
  const x = f as unknown as FieldForm;
  const y = b as unknown as FieldForm;
  // A scalar (or scalar list) as the built-in's: no int64 as string, UTF-8 checked in strings.
  const scalarOk = () => x.scalar === y.scalar && !x.longAsString && (x.scalar !== STRING || x.utf8Validation === true);
  // A message type (or its list or map) that is the built-in's, length-prefixed.
  const messageOk = () =>
    x.message!.typeName === y.message!.typeName && !x.delimitedEncoding && check(x.message!, seen) !== undefined;
  switch (f.fieldKind) {
    case "scalar":
      return scalarOk();
    case "enum":
      return x.enum!.typeName === y.enum!.typeName && x.enum!.open;
    case "message":
      return messageOk();
    case "list":
      return x.listKind === y.listKind && (x.listKind === "scalar" ? scalarOk() && !x.packed : messageOk());
    case "map":
      return x.mapKey === y.mapKey && x.utf8Validation === true && x.mapKind === y.mapKind && messageOk();
  }
}

/** Thrown inside the fast paths to hand the work to protobuf-es. */
const notTaken = new Error("not taken by the fast path");

export function bail(): never {
  throw notTaken;
}
