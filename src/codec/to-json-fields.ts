/**
 * Compiles the plans of a message's fields (to-json-plan.ts) with the writers of their values: scalars and enums
 * (to-json-scalar.ts), lists and maps (to-json-collections.ts), messages by the writer of their type. The writer
 * of a message type is the caller's, passed in as {@link MessageWriters}: the recursive step (message -> field ->
 * message) is a parameter, not an import back. Also the extensions the registry knows, written as fields.
 *
 * @module
 * @internal
 */
import {
  getExtension,
  ScalarType,
  type DescEnum,
  type DescExtension,
  type DescField,
  type DescMessage,
  type JsonObject,
} from "@bufbuild/protobuf";
import { errorAsType, WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { nullValueTypeName } from "../internal/names.js";
import { byNameStore, copyJsonObject, jsonObjectText } from "../internal/json-value.js";
import { scalarWriter, scalarZero } from "../internal/scalar.js";
import { errorAtPath } from "../path.js";
import { checkFieldKeys } from "../internal/field-keys.js";
import { enumJsonNameClash, enumValueJsonName } from "../wkt/enum.js";
import { extensionAsField } from "./extension-field.js";
import { structIsPlainJson, wrapperIsUnboxed } from "../internal/field-form.js";
import { listTextWriter, listWriter, mapTextWriter, mapWriter } from "./to-json-collections.js";
import {
  byNameJson,
  byNameProto,
  EXPLICIT,
  FieldPlan,
  groupOneofs,
  IMPLICIT,
  IMPLICIT_ENUM,
  implicitPresence,
  isRequiredField,
  keyAfter,
  keyOf,
  keyProto,
  LIST,
  MAP,
  nextField,
  ONEOF,
  writeField,
  type MessageTextWriter,
  type MessageWriter,
  type ValueTextWriter,
  type ValueWriter,
  type WriteContext,
} from "./to-json-plan.js";
import {
  compileEnum,
  compileEnumText,
  compileScalarRaw,
  compileScalarText,
  floatShortestJson,
  int64JsonNumber,
  isInt64Scalar,
  plainStringWkt,
  wrappedScalarJson,
} from "./to-json-scalar.js";

/**
 * The writers of message types, compiled on first use: the recursive step of a field that holds a message
 * (to-json.ts gives its own).
 */
export interface MessageWriters {
  readonly writerFor: (desc: DescMessage) => MessageWriter;
}

/** {@link MessageWriters} with the text writers of message types, for the plans of the text writers. */
export interface MessageTextWriters extends MessageWriters {
  readonly textWriterFor: (desc: DescMessage) => MessageTextWriter;
}

const plansOf = new WeakMap<DescMessage, readonly FieldPlan[]>();
const textPlansOf = new WeakMap<DescMessage, readonly FieldPlan[]>();

/**
 * The plans of a message's fields for the value writer, in field number order (the order of the output), the
 * members of a oneof that follow one another as one {@link ONEOF_GROUP} plan. Their text parts (`keys`,
 * `writeText`, `raw`, `members`, `plainString`) are left empty: the text writer has plans of its own
 * ({@link textPlansFor}), so that a bundle that writes no text (toJson alone) does without their compilers.
 */
export function plansFor(desc: DescMessage, writers: MessageWriters): readonly FieldPlan[] {
  let plans = plansOf.get(desc);
  if (plans === undefined) {
    plans = compilePlans(desc, writers, undefined);
    plansOf.set(desc, plans);
  }
  return plans;
}

/** {@link plansFor} with the text parts, for the text writer (the value writers are the same). */
export function textPlansFor(desc: DescMessage, writers: MessageTextWriters): readonly FieldPlan[] {
  let plans = textPlansOf.get(desc);
  if (plans === undefined) {
    plans = compilePlans(desc, writers, compilePlanText);
    textPlansOf.set(desc, plans);
  }
  return plans;
}

function compilePlans<W extends MessageWriters>(
  desc: DescMessage,
  writers: W,
  text: PlanTextCompiler<W> | undefined,
): readonly FieldPlan[] {
  checkFieldKeys(desc); // one member per field: a type whose JSON names clash is refused
  return groupOneofs(
    desc.fields
      .concat()
      .sort((a, b) => a.number - b.number)
      .map((field) => compilePlan(field, writers, text)),
  );
}

/**
 * Extensions the registry knows are written under "[fully.qualified.extension]"; protobuf-es keeps them with
 * the unknown fields of the message.
 */
export function writeExtensions(
  desc: DescMessage,
  message: Record<string, unknown>,
  ctx: WriteContext,
  out: JsonObject,
  writers: MessageWriters,
): void {
  forEachExtension(desc, message, ctx, writers, undefined, (plan, holder) => {
    if (nextField([plan], 0, holder, ctx) === 0) writeField(plan, ctx.foundValue, ctx, out);
  });
}

/** The text of the extensions of a message, each preceded by a comma, as {@link writeExtensions} writes them. */
export function extensionsText(
  desc: DescMessage,
  message: Record<string, unknown>,
  ctx: WriteContext,
  writers: MessageTextWriters,
): string {
  let out = "";
  forEachExtension(desc, message, ctx, writers, compilePlanText, (plan, holder) => {
    if (nextField([plan], 0, holder, ctx) !== 0) return;
    let text: string;
    try {
      text = plan.writeText(ctx.foundValue, ctx);
    } catch (e) {
      throw errorAtPath(e, keyOf(plan, ctx));
    }
    if (text !== "" || plan.raw)
      out += plan.keys[keyAfter + (ctx.useProtoFieldName ? keyProto : 0)]! + text + (plan.raw ? '"' : "");
  });
  return out;
}

/**
 * Calls `write` once for each extension of the message the registry knows (by field number, first occurrence
 * in the unknown fields), with its plan and `{ value }`; errors in reading the value get the extension's key
 * in their path (`write` adds it to its own, as {@link nextField} and {@link writeField} do).
 *
 * The unknown fields are bytes from whoever made the message (fromBinary keeps whatever it cannot place), and
 * protobuf-es's reader throws its own Error or RangeError on bytes that do not decode as the extension's type
 * (a varint where a group goes): rule `binary` at the extension's key. A hand-made `$unknown` that is not a
 * list of `{ no, ... }` is rule `json-type`.
 */
function forEachExtension<W extends MessageWriters>(
  desc: DescMessage,
  message: Record<string, unknown>,
  ctx: WriteContext,
  writers: W,
  text: PlanTextCompiler<W> | undefined,
  write: (plan: FieldPlan, holder: { value: unknown }) => void,
): void {
  const unknown = message.$unknown;
  if (!Array.isArray(unknown)) throw unknownFieldsError(desc, unknown);
  const seen = new Set<number>();
  for (const u of unknown as unknown[]) {
    const no = typeof u === "object" && u !== null ? (u as { no?: unknown }).no : undefined;
    if (typeof no !== "number") throw unknownFieldsError(desc, u);
    if (seen.has(no)) continue;
    seen.add(no);
    const ext = ctx.registry!.getExtensionFor(desc, no);
    if (ext === undefined) continue;
    const plan = extensionPlan(ext, writers, text);
    let value: unknown;
    try {
      value = getExtension(message as never, ext);
    } catch (e) {
      throw errorAtPath(extensionBytesError(e, desc, ext), keyOf(plan, ctx));
    }
    write(plan, { value });
  }
}

/**
 * The error of an extension whose bytes protobuf-es could not read: ours as it is, an engine stack overflow as
 * it is (the entry point makes it rule `depth`), anything else rule `binary`.
 */
function extensionBytesError(e: unknown, desc: DescMessage, ext: DescExtension): unknown {
  if (e instanceof WktJsonError || (e instanceof RangeError && /call stack/i.test(e.message))) return e;
  const why = e instanceof Error ? `: ${e.message}` : "";
  return new WktJsonError(
    "binary",
    "$",
    desc.typeName,
    `the unknown fields hold bytes of the extension ${ext.typeName} that do not decode as its type${why}`,
    { cause: e },
  );
}

/** The error of a `$unknown` member that is not a list of unknown fields (`{ no, wireType, data }`). */
function unknownFieldsError(desc: DescMessage, got: unknown): WktJsonError {
  return new WktJsonError(
    "json-type",
    "$",
    desc.typeName,
    `expected $unknown to hold unknown fields ({ no, wireType, data }), got ${describe(got)}`,
  );
}

const extensionPlans = new WeakMap<DescExtension, FieldPlan>();
const extensionTextPlans = new WeakMap<DescExtension, FieldPlan>();

/**
 * The plan of an extension, compiled once (as the field protobuf-es reads it as) and kept by extension: with its
 * text parts when `text` is given (see {@link plansFor}).
 */
function extensionPlan<W extends MessageWriters>(
  ext: DescExtension,
  writers: W,
  text: PlanTextCompiler<W> | undefined,
): FieldPlan {
  const plans = text === undefined ? extensionPlans : extensionTextPlans;
  let plan = plans.get(ext);
  if (plan === undefined) {
    plan = compilePlan(extensionAsField(ext), writers, text);
    plans.set(ext, plan);
  }
  return plan;
}

/** The parts of a plan that only the text writer reads (see {@link plansFor}). */
interface PlanText {
  readonly keys: readonly string[];
  readonly writeText: ValueTextWriter;
  readonly raw: boolean;
  readonly members: readonly ReadonlyMap<number, string>[] | undefined;
  readonly plainString: boolean;
}

/** Compiles the text parts of a field's plan; passed by the callers that want them. */
type PlanTextCompiler<W extends MessageWriters> = (field: DescField, writers: W) => PlanText;

/** The writer of a value plan's text: never called (the text writer reads its own plans). */
const noTextWriter: ValueTextWriter = () => {
  throw new Error("wkt-json: a value writer's plan has no text writer");
};

/** The text parts of a value writer's plan: empty, of the same types as the text writer's. */
const noText: PlanText = { keys: [], writeText: noTextWriter, raw: false, members: undefined, plainString: false };

/**
 * The plan of a field from its value writer and its text parts: how its presence is tested (`presence`, with
 * the oneof's property and the zero value where they apply) and the facts the writers read from the plan.
 */
function newPlan(
  field: DescField,
  presence: number,
  oneofLocal: string,
  zero: unknown,
  write: ValueWriter,
  text: PlanText,
): FieldPlan {
  return new FieldPlan({
    presence,
    field,
    local: field.localName,
    oneofLocal,
    zero,
    parentName: field.parent.typeName,
    jsonName: field.jsonName,
    protoName: field.name,
    keys: text.keys,
    write,
    writeText: text.writeText,
    raw: text.raw,
    required: isRequiredField(field),
    members: text.members,
    plainString: text.plainString,
    oneofMembers: [],
    byName: (byNameStore(field.jsonName) ? byNameJson : 0) | (byNameStore(field.name) ? byNameProto : 0),
  });
}

/**
 * Compiles the plan of a field: its value writer (a list's and a map's from that of an item, see
 * to-json-collections.ts), how its presence is tested, and its text parts if `text` is given. `writers` gives
 * the writers of the message types it holds (compiled on first use).
 */
function compilePlan<W extends MessageWriters>(
  field: DescField,
  writers: W,
  text: PlanTextCompiler<W> | undefined,
): FieldPlan {
  const t = text === undefined ? noText : text(field, writers);
  switch (field.fieldKind) {
    case "list": {
      const message = field.listKind === "message" ? field.message : undefined;
      return newPlan(field, LIST, "", undefined, listWriter(field, compileValue(field, message, true, writers)), t);
    }
    case "map": {
      const message = field.mapKind === "message" ? field.message : undefined;
      const write = mapWriter(field, compileValue(field, message, true, writers));
      const mapPlan = newPlan(field, MAP, "", undefined, write, t);
      mapPlan.intKeys = field.mapKey !== ScalarType.STRING && field.mapKey !== ScalarType.BOOL;
      return mapPlan;
    }
    default: {
      const message = field.fieldKind === "message" ? field.message : undefined;
      const write = compileValue(field, message, false, writers);
      if (field.oneof !== undefined) return newPlan(field, ONEOF, field.oneof.localName, undefined, write, t);
      if (field.presence !== IMPLICIT) return newPlan(field, EXPLICIT, "", undefined, write, t);
      if (field.fieldKind === "enum")
        return newPlan(field, IMPLICIT_ENUM, "", field.enum.values[0]?.number ?? 0, write, t);
      const scalar = field.scalar!;
      const zero = scalarZero(scalar, field.fieldKind === "scalar" && field.longAsString);
      return newPlan(field, implicitPresence(scalar), "", zero, write, t);
    }
  }
}

/**
 * Compiles the text parts of a field's plan: its text writer (a list's and a map's from that of an item), the
 * keys it is printed after, and the facts the text writer reads from the plan.
 */
function compilePlanText(field: DescField, writers: MessageTextWriters): PlanText {
  let writeText: ValueTextWriter;
  let raw = false;
  switch (field.fieldKind) {
    case "list": {
      const message = field.listKind === "message" ? field.message : undefined;
      writeText = listTextWriter(field, compileValueText(field, message, true, writers));
      break;
    }
    case "map": {
      const message = field.mapKind === "message" ? field.message : undefined;
      writeText = mapTextWriter(field, compileValueText(field, message, true, writers));
      break;
    }
    default: {
      const message = field.fieldKind === "message" ? field.message : undefined;
      const rawText = compileRawText(field, message, writers);
      raw = rawText !== undefined;
      writeText = rawText ?? compileValueText(field, message, false, writers);
    }
  }
  const keys: string[] = [];
  for (const name of [field.jsonName, field.name]) {
    const key = JSON.stringify(name) + (raw ? ':"' : ":");
    keys.push("{" + key, "," + key, '",' + key);
  }
  return {
    keys,
    writeText,
    raw,
    members:
      field.fieldKind === "enum" &&
      field.enum.typeName !== nullValueTypeName &&
      enumJsonNameClash(field.enum) === undefined // else its writer throws, at the field's path
        ? enumMembers(field.enum, keys)
        : undefined,
    plainString: raw && field.fieldKind === "scalar" && field.scalar === ScalarType.STRING,
  };
}

/** See {@link FieldPlan.members}: what compileEnumText's writer prints after each key, joined to it. */
function enumMembers(desc: DescEnum, keys: readonly string[]): ReadonlyMap<number, string>[] {
  return keys.map((key) => {
    const members = new Map<number, string>();
    for (const v of desc.values)
      if (!members.has(v.number)) members.set(v.number, key + JSON.stringify(enumValueJsonName(v)));
    return members;
  });
}

/**
 * Compiles the writer of one value of a field, in protobuf-es's local representation: singular wrapper
 * fields outside a oneof hold the bare scalar, Struct fields (outside Value) a plain JSON object.
 */
function compileValue(
  field: DescField,
  message: DescMessage | undefined,
  inCollection: boolean,
  writers: MessageWriters,
): ValueWriter {
  if (message !== undefined) {
    if (structIsPlainJson(field, message)) {
      return (value, ctx) => copyJsonObject(value, ctx.maxDepth - ctx.depth, message.typeName);
    }
    if (wrapperIsUnboxed(field, message, inCollection)) {
      const scalar = message.fields[0]!;
      return (value, ctx) => {
        try {
          return wrappedScalarJson(scalar.scalar, value, ctx);
        } catch (e) {
          throw errorAsType(e, message.typeName);
        }
      };
    }
    let write: MessageWriter | undefined;
    return (value, ctx) => (write ??= writers.writerFor(message))(value, ctx);
  }
  if (field.enum !== undefined) return compileEnum(field.enum);
  const scalar = field.scalar!;
  // scalarWriter decides the usual value in place; scalarToJson, a call further, has every type's checks.
  const write = scalarWriter(scalar);
  if (scalar === ScalarType.DOUBLE) {
    return (value, ctx) => {
      if (value === 0 && 1 / value < 0) ctx.negativeZero = true;
      return write(value);
    };
  }
  if (scalar === ScalarType.FLOAT) {
    return (value, ctx) => {
      if (value === 0 && 1 / value < 0) ctx.negativeZero = true;
      return ctx.floatShortest ? floatShortestJson(write(value)) : write(value);
    };
  }
  if (isInt64Scalar(scalar)) {
    // A string, or with int64AsNumber a number where it prints as the same digits. scalarWriter's test of the
    // usual value (a bigint in range) is made in place, so that the usual value costs one call, as before the
    // option (a list's item writer is called from one site for every list type: a call V8 does not inline).
    const unsigned = scalar === ScalarType.UINT64 || scalar === ScalarType.FIXED64;
    return (value, ctx) => {
      const json =
        typeof value === "bigint" && (unsigned ? BigInt.asUintN(64, value) : BigInt.asIntN(64, value)) === value
          ? value.toString()
          : (write(value) as string);
      return ctx.int64AsNumber ? int64JsonNumber(json) : json;
    };
  }
  return write;
}

/**
 * Compiles the text writer of one value of a field: the text `JSON.stringify` prints for what
 * {@link compileValue}'s writer returns, with the same checks and errors, except that a -0 is printed "-0".
 */
function compileValueText(
  field: DescField,
  message: DescMessage | undefined,
  inCollection: boolean,
  writers: MessageTextWriters,
): ValueTextWriter {
  if (message !== undefined) {
    if (structIsPlainJson(field, message)) {
      return (value, ctx) => jsonObjectText(value, ctx.maxDepth - ctx.depth, message.typeName);
    }
    if (wrapperIsUnboxed(field, message, inCollection)) {
      const scalarText = compileScalarText(message.fields[0]!.scalar!);
      return (value) => {
        try {
          return scalarText(value);
        } catch (e) {
          throw errorAsType(e, message.typeName);
        }
      };
    }
    let write: MessageTextWriter | undefined;
    return (value, ctx) => (write ??= writers.textWriterFor(message))(value, ctx);
  }
  if (field.enum !== undefined) return compileEnumText(field.enum);
  return compileScalarText(field.scalar!);
}

/**
 * The writer of the inside of the JSON string a singular field's value always is (see {@link FieldPlan.raw}),
 * with the checks and errors of {@link compileValueText}'s writer; undefined for a field whose value is not
 * always a string.
 */
function compileRawText(
  field: DescField,
  message: DescMessage | undefined,
  writers: MessageTextWriters,
): ValueTextWriter | undefined {
  if (message !== undefined) {
    if (plainStringWkt(message.typeName) !== undefined) {
      // Nothing to escape (see plainStringWkt); the value writer's checks, depth and errors.
      let write: MessageWriter | undefined;
      return (value, ctx) => (write ??= writers.writerFor(message))(value, ctx) as string;
    }
    if (!wrapperIsUnboxed(field, message, false)) return undefined;
    // A wrapper outside a oneof holds the bare scalar (see compileValue).
    const raw = compileScalarRaw(message.fields[0]!.scalar!);
    if (raw === undefined) return undefined;
    return (value) => {
      try {
        return raw(value);
      } catch (e) {
        throw errorAsType(e, message.typeName);
      }
    };
  }
  if (field.fieldKind !== "scalar") return undefined;
  return compileScalarRaw(field.scalar);
}
