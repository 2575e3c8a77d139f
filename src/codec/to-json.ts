/**
 * The proto3 JSON encoder for whole messages: "Proto3 supports a canonical encoding in JSON ... If a field
 * has the default value (implicit presence) it is omitted by default; fields with explicit presence are
 * emitted when set. Field names are the lowerCamelCase JSON names unless asked otherwise."
 *
 * Same names, signatures and option names as `@bufbuild/protobuf`'s `toJson`/`toJsonString`. One writer is
 * compiled per message descriptor and cached in a `WeakMap`; well-known types with a custom JSON form are
 * dispatched to their modules. A message assembled by hand can hold anything, so every value is checked on
 * the way out: nothing but our error escapes, and the output is always valid JSON.
 *
 * @module
 */
import {
  getExtension,
  ScalarType,
  type DescEnum,
  type DescExtension,
  type DescField,
  type DescMessage,
  type JsonObject,
  type JsonValue,
  type MessageJsonType,
  type MessageShape,
  type Registry,
} from "@bufbuild/protobuf";
import { isWrapperDesc } from "@bufbuild/protobuf/wkt";
import { anyToJsonInternal } from "./any-json.js";
import { durationToJson } from "../wkt/duration.js";
import { enumValueJsonName } from "../wkt/enum.js";
import { errorAsType, WktJsonError } from "../errors.js";
import { stackOverflowAsDepth } from "./depth-errors.js";
import { extensionAsField } from "./extension-field.js";
import { checkMaxDepth } from "./read-context.js";
import { fieldMaskToJson } from "../wkt/field-mask.js";
import { describe } from "../internal/int64.js";
import {
  byNameStore,
  copyJsonObject,
  isPlainString,
  jsonObjectText,
  negativeZeroTake,
  setOwnByName,
} from "../internal/json-value.js";
import {
  int32KeyValue,
  isCanonicalIntegerKey,
  mapKeyFromJson,
  scalarToJson,
  scalarWriter,
  scalarZero,
} from "../internal/scalar.js";
import { isWellFormed } from "../internal/utf16.js";
import { defaultMaxDepth } from "../limits.js";
import { errorAtPath } from "../path.js";
import { checkRegistry, checkSchema } from "../wkt/registry.js";
import {
  listOrValueTextInternal,
  listValueToJsonInternal,
  structToJsonInternal,
  valueToJsonInternal,
} from "../wkt/struct.js";
import { timestampToJson } from "../wkt/timestamp.js";

/**
 * Options of {@link toJson}: `@bufbuild/protobuf`'s `JsonWriteOptions` member for member (the functions take a
 * `Partial` of it, so an options object written for protobuf-es is accepted as it is), plus an optional
 * nesting limit.
 */
export interface JsonWriteOptions {
  /** Also emit fields with implicit presence that hold their default value (and empty lists and maps). */
  alwaysEmitImplicit: boolean;
  /** Write enum values as numbers instead of names. */
  enumAsInteger: boolean;
  /** Use the proto field names (`optional_int32`) instead of the lowerCamelCase JSON names. */
  useProtoFieldName: boolean;
  /** Resolves the message types of `google.protobuf.Any`. Well-known types need none. */
  registry?: Registry | undefined;
  /** Nesting limit (messages, Any, Struct, ListValue each count one level); default 100. */
  maxDepth?: number | undefined;
}

/** Options of {@link toJsonString}: `@bufbuild/protobuf`'s `JsonWriteStringOptions`, plus `maxDepth`. */
export interface JsonWriteStringOptions extends JsonWriteOptions {
  /** Indentation of the text, as `JSON.stringify`'s third argument. Default 0 (one line). */
  prettySpaces: number;
}

/** @internal Everything a writer needs, created once per call. */
export interface WriteContext {
  readonly alwaysEmitImplicit: boolean;
  readonly enumAsInteger: boolean;
  readonly useProtoFieldName: boolean;
  readonly registry: Registry | undefined;
  readonly maxDepth: number;
  depth: number;
  /** Set when a float or double field held -0, which JSON.stringify would print as 0. */
  negativeZero: boolean;
  /**
   * The field {@link nextField} found last, and its value (the plan is a member's for a oneof group): read by
   * the caller at once, before anything it calls can find another field. Kept here rather than in module
   * variables: a context is young, so storing into it skips the write barrier's remembered set.
   */
  foundPlan: FieldPlan | undefined;
  foundValue: unknown;
}

/** @internal A compiled writer: encodes a message of one type as a JSON value. */
export type MessageWriter = (message: unknown, ctx: WriteContext) => JsonValue;

/**
 * Encodes a message as its proto3 JSON value, ready for `JSON.stringify`.
 *
 * @throws {WktJsonError} with the JSON path and rule: `range`/`sign` for an invalid Timestamp or Duration,
 *   `not-finite` or `value-kind` for a bad google.protobuf.Value, `mask-path` for a FieldMask path that cannot
 *   round-trip, `json-type` for a value of the wrong type, `utf16` for a lone surrogate, `unknown-type` for an
 *   Any the registry cannot resolve, `depth` beyond `maxDepth`; `json-type` at `$` when `schema` is not a
 *   message descriptor, `message` is not a message of it, or `registry` is not a Registry; `range` for a
 *   `maxDepth` that is not a whole number from 1 up.
 * @example
 * toJson(DurationSchema, create(DurationSchema, { seconds: 1n, nanos: 500_000_000 })); //=> "1.500s"
 * toJson(TestSchema, msg, { useProtoFieldName: true }); //=> { optional_int64: "5" }
 */
export function toJson<Desc extends DescMessage, Opts extends Partial<JsonWriteOptions> | undefined = undefined>(
  schema: Desc,
  message: MessageShape<Desc>,
  options?: Opts,
): ToJson<Desc, Opts> {
  // A leaf well-known type (Timestamp, Duration, FieldMask, a wrapper) without options is its own function
  // behind the message check: no context, no writer lookup (see leafWriterOf).
  if (options === undefined && schema === leafDesc) return leafWrite!(message) as ToJson<Desc, Opts>;
  return toJsonSlow(schema, message, options) as ToJson<Desc, Opts>;
}

function toJsonSlow(schema: DescMessage, message: unknown, options: Partial<JsonWriteOptions> | undefined): JsonValue {
  checkSchema(schema);
  if (options === undefined) {
    const leaf = leafOf(schema);
    if (leaf !== undefined) {
      leafDesc = schema;
      leafWrite = leaf.write;
      return leaf.write(message);
    }
  }
  return write(schema, message, makeContext(options));
}

/**
 * @internal The writers of a leaf well-known type (Timestamp, Duration, FieldMask, a wrapper) that need no
 * context: without options nothing they could meet depends on one (one level of nesting is within every
 * `maxDepth`; the -0 of a DoubleValue is printed by the text writer itself). As {@link compileWkt}'s and
 * {@link compileText}'s writers, same checks and errors.
 */
interface Leaf {
  readonly write: (message: unknown) => JsonValue;
  readonly text: (message: unknown) => string;
}

/** What the one-entry caches hold before their first use: no value a caller can pass (not even undefined). */
const noDesc: unknown = Symbol("no descriptor");

/** Leaves by descriptor; null for every other type. */
const leaves = new WeakMap<DescMessage, Leaf | null>();
/**
 * The leaf type written last without options, and its writers: a run of one type (the usual case, such as a
 * list of Timestamps written one by one) then costs one comparison instead of a WeakMap lookup.
 */
let leafDesc: unknown = noDesc;
let leafWrite: Leaf["write"] | undefined;
let leafTextDesc: unknown = noDesc;
let leafText: Leaf["text"] | undefined;

function leafOf(desc: DescMessage): Leaf | undefined {
  let leaf = leaves.get(desc);
  if (leaf === undefined) {
    leaf = compileLeaf(desc) ?? null;
    leaves.set(desc, leaf);
  }
  return leaf ?? undefined;
}

function compileLeaf(desc: DescMessage): Leaf | undefined {
  const typeName = desc.typeName;
  if (!typeName.startsWith("google.protobuf.")) return undefined;
  const leaf = (toText: (m: never) => string, quote: (s: string) => string): Leaf => {
    const write = (message: unknown): string => {
      checkMessage(message, typeName);
      return toText(message as never);
    };
    return { write, text: (message) => quote(write(message)) };
  };
  // Timestamp and Duration texts are digits, "-", ":", ".", "T", "Z" and "s", FieldMask texts lower-camel paths
  // and commas (see compileText): nothing to escape.
  const plain = (s: string): string => '"' + s + '"';
  switch (typeName) {
    case "google.protobuf.Timestamp":
      return leaf(timestampToJson, plain);
    case "google.protobuf.Duration":
      return leaf(durationToJson, plain);
    case "google.protobuf.FieldMask":
      return leaf(fieldMaskToJson, plain);
  }
  if (!isWrapperDesc(desc)) return undefined;
  const scalar = desc.fields[0]!;
  const type = scalar.scalar;
  const zero = scalarZero(type, scalar.longAsString);
  const scalarText = compileScalarText(type);
  const toJsonValue = scalarWriter(type);
  const write = (message: unknown): JsonValue => {
    checkMessage(message, typeName);
    try {
      return toJsonValue(message.value ?? zero);
    } catch (e) {
      throw errorAsType(e, typeName);
    }
  };
  const text = (message: unknown): string => {
    checkMessage(message, typeName);
    try {
      return scalarText(message.value ?? zero);
    } catch (e) {
      throw errorAsType(e, typeName);
    }
  };
  // The usual value of the two wrappers whose writing is cheapest (the call itself is most of the cost),
  // decided in place; anything else (no message, another type, no value, a value to check) takes `write`.
  const isMessage = (message: unknown): message is { value?: unknown } =>
    typeof message === "object" && message !== null && (message as { $typeName?: unknown }).$typeName === typeName;
  if (type === ScalarType.DOUBLE) {
    return {
      write: (message) => {
        if (isMessage(message)) {
          const v = message.value;
          if (typeof v === "number" && v - v === 0) return v;
        }
        return write(message);
      },
      text,
    };
  }
  if (type === ScalarType.INT64) {
    return {
      write: (message) => {
        if (isMessage(message)) {
          const v = message.value;
          if (typeof v === "bigint" && BigInt.asIntN(64, v) === v) return v.toString();
        }
        return write(message);
      },
      text,
    };
  }
  return {
    write,
    text,
  };
}

/**
 * The type {@link toJson} returns, as `@bufbuild/protobuf` types it: the message's JSON type (for generated
 * code with `json_types`, and the well-known types: `TimestampJson`, ...) when no option changes the shape of
 * the output, else any JSON value.
 */
export type ToJson<Desc extends DescMessage, Opts extends Partial<JsonWriteOptions> | undefined> = Opts extends
  undefined | { alwaysEmitImplicit?: false; enumAsInteger?: false; useProtoFieldName?: false }
  ? MessageJsonType<Desc>
  : JsonValue;

function write(schema: DescMessage, message: unknown, ctx: WriteContext): JsonValue {
  try {
    return writerFor(schema)(message, ctx);
  } catch (e) {
    throw stackOverflowAsDepth(e, schema.typeName, ctx.maxDepth);
  }
}

/**
 * Encodes a message as proto3 JSON text.
 *
 * @throws {WktJsonError} as {@link toJson}, and `json-type` for a `prettySpaces` that is not a number.
 * @example
 * toJsonString(TimestampSchema, timestampFromMs(0)); //=> "\"1970-01-01T00:00:00Z\""
 */
export function toJsonString<Desc extends DescMessage>(
  schema: Desc,
  message: MessageShape<Desc>,
  options?: Partial<JsonWriteStringOptions>,
): string {
  if (options === undefined) {
    // A leaf well-known type: its text writer without a context (see Leaf).
    if (schema === leafTextDesc) return leafText!(message);
    const leaf = leafOf(checkSchema(schema));
    if (leaf !== undefined) {
      leafTextDesc = schema;
      leafText = leaf.text;
      return leaf.text(message);
    }
  }
  checkSchema(schema);
  const ctx = makeContext(options);
  // Free-form JSON (Struct, Value, ListValue, Struct fields) notes a -0 number as it is written.
  negativeZeroTake();
  const spaces = options?.prettySpaces ?? 0;
  if (typeof spaces !== "number") {
    // JSON.stringify would indent by a string's text, which need not be white space: no JSON then.
    throw new WktJsonError("json-type", "$", "options", `prettySpaces must be a number, got ${describe(spaces)}`);
  }
  if (!(spaces >= 1)) {
    // One line: printed as the value is walked, without building it (JSON.stringify of the value would be
    // the same text, -0 aside; see compileText).
    let text: string;
    try {
      text = textWriterFor(schema)(message, ctx);
    } catch (e) {
      throw stackOverflowAsDepth(e, schema.typeName, ctx.maxDepth);
    }
    // The text is made of many pieces joined as it is written; an engine may keep it as a tree of them until
    // it is read (V8 does). Reading it as a number joins it into one string here (V8 flattens a string before
    // parsing it; the text of a message is NaN at its first character, "{"), so that the caller gets what
    // JSON.stringify returns and the cost of joining is paid, and measured, where it is caused. The number is
    // kept in `joined` so that no compiler can leave the read out. Not charCodeAt(0) nor indexOf: V8's
    // optimizing compilers read through the tree and leave it unjoined (charCodeAt on Node 24, indexOf on
    // Node 20), which would leave the join out of the bench. A regular expression match (/^/.test) joins it
    // too, at about 100 ns more per call on Node 20 (a runtime call more).
    joined = Number(text);
    return text;
  }
  const json = write(schema, message, ctx);
  if (negativeZeroTake()) ctx.negativeZero = true;
  // JSON.stringify writes -0 as "0", which reads back as 0: the default of a float field, and another number in
  // a google.protobuf.Value. A message holding -0 keeps its sign in the text.
  try {
    return ctx.negativeZero ? stringifyKeepingNegativeZero(json, spaces) : JSON.stringify(json, null, spaces);
  } catch (e) {
    throw stackOverflowAsDepth(e, schema.typeName, ctx.maxDepth);
  }
}

/**
 * JSON.stringify, except that -0 is written "-0" (used only when the message holds a -0). Strings, numbers
 * and indentation are written exactly as JSON.stringify writes them.
 */
/** Where toJsonString leaves the number its text reads as (NaN, mostly): see there. */
let joined = 0;

function stringifyKeepingNegativeZero(json: JsonValue, spaces: number): string {
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

function makeContext(options: Partial<JsonWriteOptions> | undefined): WriteContext {
  if (options === undefined) {
    return {
      alwaysEmitImplicit: false,
      enumAsInteger: false,
      useProtoFieldName: false,
      registry: undefined,
      maxDepth: defaultMaxDepth,
      depth: 0,
      negativeZero: false,
      foundPlan: undefined,
      foundValue: undefined,
    };
  }
  return {
    alwaysEmitImplicit: options?.alwaysEmitImplicit === true,
    enumAsInteger: options?.enumAsInteger === true,
    useProtoFieldName: options?.useProtoFieldName === true,
    registry: checkRegistry(options?.registry),
    maxDepth: maxDepthOption(options?.maxDepth),
    depth: 0,
    negativeZero: false,
    foundPlan: undefined,
    foundValue: undefined,
  };
}

/**
 * @internal The `maxDepth` option checked: {@link checkMaxDepth}, also for values that are no number (which
 * its message could not print: `String` of an object without a prototype throws).
 */
export function maxDepthOption(maxDepth: unknown): number {
  if (maxDepth !== undefined && typeof maxDepth !== "number") {
    throw new WktJsonError(
      "range",
      "$",
      "options",
      `maxDepth must be a whole number from 1 up, got ${describe(maxDepth)}`,
    );
  }
  return checkMaxDepth(maxDepth);
}

const writers = new WeakMap<DescMessage, MessageWriter>();

/** @internal Returns the compiled writer of a message type, compiling it on first use. */
export function writerFor(desc: DescMessage): MessageWriter {
  if (desc === lastDesc) return lastWriter!;
  let writer = writers.get(desc);
  if (writer === undefined) writer = compileMessage(desc);
  lastDesc = desc;
  lastWriter = writer;
  return writer;
}

/** The type whose writer was asked for last, and that writer (one comparison for a run of one type). */
let lastDesc: unknown = noDesc;
let lastWriter: MessageWriter | undefined;

function enter(ctx: WriteContext, typeName: string): void {
  if (++ctx.depth > ctx.maxDepth) {
    throw new WktJsonError("depth", "$", typeName, `nesting is deeper than maxDepth (${ctx.maxDepth})`);
  }
}

function checkMessage(message: unknown, typeName: string): asserts message is Record<string, unknown> {
  if (typeof message !== "object" || message === null) {
    throw new WktJsonError("json-type", "$", typeName, `expected a message, got ${describe(message)}`);
  }
  const actual = (message as { $typeName?: unknown }).$typeName;
  if (actual !== typeName) {
    const got = typeof actual === "string" ? actual : describe(actual);
    throw new WktJsonError("json-type", "$", typeName, `expected a message ${typeName}, got ${got}`);
  }
}

/** Encodes one value of a field (the field itself, a list item or a map value). */
type ValueWriter = (value: unknown, ctx: WriteContext) => JsonValue;

/** Encodes one value of a field as JSON text, exactly as `JSON.stringify` would print {@link ValueWriter}'s result. */
type ValueTextWriter = (value: unknown, ctx: WriteContext) => string;

/** @internal A compiled text writer: encodes a message of one type as JSON text on one line. */
type MessageTextWriter = (message: unknown, ctx: WriteContext) => string;

/** Field presence as protobuf-es numbers it (google.protobuf.FeatureSet.FieldPresence). */
const IMPLICIT = 2;

// How a field is tested for presence (see nextField, which takes every value from IMPLICIT_ENUM up as implicit).
const LIST = 0;
const MAP = 1;
/** A member of a oneof: never in a message's plans, which hold it in a {@link ONEOF_GROUP}. */
const ONEOF = 2;
/**
 * All members of a oneof whose fields follow one another in field number order (so in the output), as one
 * plan in place of theirs: the oneof is read once instead of once per member (see {@link groupOneofs}).
 */
const ONEOF_GROUP = 3;
const EXPLICIT = 4;
const IMPLICIT_ENUM = 5;
const IMPLICIT_STRING = 6;
const IMPLICIT_BOOL = 7;
const IMPLICIT_BYTES = 8;
const IMPLICIT_FLOAT = 9;
/** 32-bit integers (zero 0). */
const IMPLICIT_INT32 = 10;
/** 64-bit integers (zero 0n, or "0" with jstype = JS_STRING). */
const IMPLICIT_INT64 = 11;

/**
 * The compiled plan of one field, shared by the value writer and the text writer: how presence is tested (one
 * switch in {@link nextField}, no closure per field), its names, and the writers of its value.
 */
class FieldPlan {
  constructor(
    readonly presence: number,
    /** The property of the message (of the oneof, for a member). */
    readonly local: string,
    /** The property holding the oneof, for a member of one; else "". */
    readonly oneofLocal: string,
    /** The zero value, for implicit presence. */
    readonly zero: unknown,
    readonly parentName: string,
    readonly jsonName: string,
    readonly protoName: string,
    /**
     * What the text writer puts before the value, `"jsonName":` in six forms: by index {@link keyFirst}
     * (`{"jsonName":`, opening the object), {@link keyAfter} (with a comma before) or {@link keyAfterQuote}
     * (`","jsonName":`, closing the string value of the field before, see `raw`), plus {@link keyProto} for the
     * proto name. For a `raw` field each ends with the opening quote of its value.
     */
    readonly keys: readonly string[],
    readonly write: ValueWriter,
    readonly writeText: ValueTextWriter,
    /**
     * The text writer writes the inside of a JSON string (the value is always one: a string, a 64-bit integer,
     * bytes, a Timestamp, ...), whose quotes are part of the keys: the opening one ends this field's key, the
     * closing one starts the next key (or the closing brace). Two pieces of text fewer for V8 to join.
     */
    readonly raw: boolean,
    /** A proto2 `required` field (editions: LEGACY_REQUIRED): unset, it cannot be written. */
    readonly required: boolean,
    /**
     * For a singular enum field (not NullValue): by index into {@link keys}, each named value's whole member
     * (`,"status":"PUBLISHED"`) by number. The text writer appends it as one piece, without joining the key,
     * the quotes and the name for each message.
     */
    readonly members: readonly ReadonlyMap<number, string>[] | undefined,
    /** A singular string field (raw): the text writer prints a plain string itself, without calling `writeText`. */
    readonly plainString: boolean,
    /** For {@link ONEOF_GROUP}: the plans of the members (each {@link ONEOF}); else empty. */
    readonly oneofMembers: readonly FieldPlan[],
    /**
     * Which of the field's names the value writer stores by name ({@link byNameStore}): {@link byNameJson} for
     * the JSON name, {@link byNameProto} for the proto name; 0 for most fields. Told once here, not per store.
     */
    readonly byName: number,
  ) {}

  /**
   * For a map field: whether it had members when last written, which {@link mapFound} takes as a guess of
   * how to tell it is empty. Only a hint: either way the same fields are written.
   */
  mapHadKeys = false;

  /**
   * For a map field with integer keys (which can be array indexes): whether {@link mapFound} may list its keys
   * for its writer. Set once, after the plan is made.
   */
  intKeys = false;
}

/** Bits of {@link FieldPlan.byName}. */
const byNameJson = 1;
const byNameProto = 2;

/** Indexes into {@link FieldPlan.keys}. */
const keyFirst = 0;
const keyAfter = 1;
const keyAfterQuote = 2;
const keyProto = 3;

/** google.protobuf.FeatureSet.FieldPresence.LEGACY_REQUIRED, proto2's `required`. */
const LEGACY_REQUIRED = 3;

/**
 * A required field left unset: its message cannot be written, as protobuf-es refuses it ("required field not
 * set"), since a reader of the JSON would lack it. The caller adds the field to the path.
 */
function requiredUnset(plan: FieldPlan): WktJsonError {
  return new WktJsonError("required", "$", plan.parentName, `the required field ${plan.protoName} is not set`);
}

/** What {@link implicitValue} returns for a field that is not written. */
const absent: unknown = Symbol("absent");

/**
 * Returns the index of the first plan from `from` on whose field is to be written, leaving the field's plan
 * and value in `ctx.foundPlan` and `ctx.foundValue`; `plans.length` when there is none. Throws, with the
 * field's name in the path, for a list or map that is not an array or object, and for an unset required field.
 *
 * One call walks the run of unset fields before a set one, as one loop with the presence tests written out:
 * a call per field cost a third more on a message that sets few of its fields. Small enough for V8 to inline
 * into each writer's one call site (under 460 bytes of bytecode, hence the one generic zero test and no case
 * for a lone oneof member), which a message that sets most of its fields needs: a call per set field cost the
 * 2 KB service payload 5-8%. Reading a property is most of the rest: protobuf-es keeps a message of more than a
 * few dozen fields as a hash table (V8's dictionary mode).
 */
function nextField(
  plans: readonly FieldPlan[],
  from: number,
  message: Record<string, unknown>,
  ctx: WriteContext,
): number {
  const emitImplicit = ctx.alwaysEmitImplicit;
  let i = from;
  let plan: FieldPlan | undefined;
  try {
    for (; i < plans.length; i++) {
      plan = plans[i]!;
      let v: unknown;
      switch (plan.presence) {
        case LIST:
          v = message[plan.local];
          if (!Array.isArray(v)) throw notA("an array", plan, v);
          if (v.length === 0 && !emitImplicit) continue;
          break;
        case MAP:
          v = message[plan.local];
          // An empty map, the usual case, is told here without a key list (see mapFound).
          if (!plan.mapHadKeys && !emitImplicit && isEmptyRecord(v)) continue;
          if (!mapFound(plan, v, emitImplicit)) continue;
          break;
        case ONEOF_GROUP: {
          const oneof = message[plan.oneofLocal] as { case?: unknown; value?: unknown } | undefined;
          const c = oneof?.case;
          if (c === undefined) continue;
          const member = oneofMember(plan, c);
          if (member === undefined) continue;
          plan = member;
          v = oneof!.value;
          break;
        }
        case EXPLICIT:
          // Asked first whether the property is own: an unset field is then one lookup in the message instead of
          // a failed load that goes on to search its prototypes (a third of the time of such a field).
          if (!hasOwn.call(message, plan.local) || (v = message[plan.local]) === undefined) {
            if (plan.required) throw requiredUnset(plan);
            continue;
          }
          break;
        default:
          v = message[plan.local];
          // The zero value protobuf-es leaves in an unset field is the plan's own (0, "", false, 0n), but for
          // a float (-0 is written) and bytes (an array of its own); anything else goes to implicitValue.
          if (v === plan.zero && !emitImplicit && plan.presence !== IMPLICIT_FLOAT) continue;
          v = implicitValue(plan, v, emitImplicit);
          if (v === absent) continue;
      }
      ctx.foundPlan = plan;
      ctx.foundValue = v;
      return i;
    }
  } catch (e) {
    throw errorAtPath(e, keyOf(plan!, ctx));
  }
  return i;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * The keys of the map {@link mapFound} found last (else undefined): taken, and cleared, by the map's writer,
 * which is called next, instead of listing them again. Undefined at every other time, since nothing comes
 * between mapFound's finding a map and the call of its writer.
 */
let foundKeys: string[] | undefined;

/**
 * The map whose keys {@link foundKeys} holds. A writer takes them only for that very map: should something throw
 * between mapFound and the writer, keys left behind are never read for another map.
 */
let foundRecord: object | undefined;

/**
 * Whether the value of a map field is to be written, for a value that nextField did not tell an empty map;
 * throws for a value that is not an object. nextField tells an empty map, the usual case, by for...in without a
 * key list (V8 answers it without a call), unless the map had members when last written
 * ({@link FieldPlan.mapHadKeys}): for...in of a map that has members with integer keys (array indexes, which V8
 * keeps as elements) goes through V8's runtime, which lists every key (185 ns for two keys, against 85 for
 * Object.keys). Here the keys of a map with integer keys are listed once, for its writer too
 * ({@link foundKeys}). Out of nextField, which must stay small enough for V8 to inline (see there).
 */
function mapFound(plan: FieldPlan, v: unknown, emitImplicit: boolean): boolean {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw notA("an object", plan, v);
  // Other keys are names: for...in told the map has members (or alwaysEmitImplicit), its writer lists them.
  if (!plan.intKeys) return true;
  const keys = Object.keys(v);
  plan.mapHadKeys = keys.length !== 0;
  if (keys.length === 0 && !emitImplicit && !hasEnumerable(v)) return false;
  foundKeys = keys;
  foundRecord = v;
  return true;
}

/** Whether `v` is an object (not an array) without an enumerable property, own or inherited. */
function isEmptyRecord(v: unknown): boolean {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return false;
  for (const _ in v) return false;
  return true;
}

/** {@link foundKeys} if they are the keys of `record` (then cleared), else the keys of `record`. */
function takeKeys(record: object): string[] {
  const keys = foundKeys;
  if (keys === undefined || foundRecord !== record) return Object.keys(record);
  foundKeys = undefined;
  foundRecord = undefined;
  return keys;
}

/** The member of a oneof group whose property name is `c` (the oneof's case), if any. */
function oneofMember(group: FieldPlan, c: unknown): FieldPlan | undefined {
  const members = group.oneofMembers;
  for (let k = 0; k < members.length; k++) if (members[k]!.local === c) return members[k];
  return undefined;
}

/**
 * The value of an implicit-presence field when it is to be written (an unset property is the zero value), else
 * {@link absent}.
 */
function implicitValue(plan: FieldPlan, value: unknown, emitImplicit: boolean): unknown {
  const v = value ?? plan.zero;
  return emitImplicit || !isImplicitZero(plan.presence, v, plan.zero) ? v : absent;
}

/** Whether the value of an implicit-presence field is its zero value, which is not written. */
function isImplicitZero(presence: number, v: unknown, zero: unknown): boolean {
  switch (presence) {
    case IMPLICIT_BYTES:
      return v instanceof Uint8Array && v.length === 0;
    case IMPLICIT_FLOAT:
      return v === 0 && 1 / v > 0;
    case IMPLICIT_INT32:
    case IMPLICIT_INT64:
      // 0, 0n and "0" (jstype = JS_STRING), each compared as its own type. Not loose equality: `false`, `[]` or
      // " " in an integer field of a message built by hand are wrong-typed values to be reported, not zeros.
      return typeof v === "number" ? v === 0 : typeof v === "bigint" ? v === 0n : v === "0";
    case IMPLICIT_STRING:
      // As v === "", told without the generic comparison the writers' mixed feedback gives that.
      return typeof v === "string" && v.length === 0;
    case IMPLICIT_BOOL:
      return v === false;
    default:
      // IMPLICIT_ENUM: the first value (a number). One comparison per kind, so that each sees one type of
      // value; a number comparison, not the generic one.
      return typeof v === "number" && v === zero;
  }
}

/** Whether an object has an enumerable property, own or inherited (`for...in`). */
function hasEnumerable(record: object): boolean {
  for (const _ in record) return true;
  return false;
}

function compileMessage(desc: DescMessage): MessageWriter {
  const wkt = compileWkt(desc);
  if (wkt !== undefined) {
    writers.set(desc, wkt);
    return wkt;
  }
  const typeName = desc.typeName;
  let plans: readonly FieldPlan[] = [];
  const writer: MessageWriter = (message, ctx) => {
    checkMessage(message, typeName);
    enter(ctx, typeName);
    const out: JsonObject = {};
    // One call site of nextField per writer (see there).
    for (let i = 0; (i = nextField(plans, i, message, ctx)) < plans.length; i++)
      writeField(ctx.foundPlan!, ctx.foundValue, ctx, out);
    if (ctx.registry !== undefined && message.$unknown !== undefined) writeExtensions(desc, message, ctx, out);
    ctx.depth--;
    return out;
  };
  plans = plansFor(desc);
  const wide =
    plans.length > wideMembers && keysPrintInOrder(fieldPlans(plans)) && fieldPlans(plans).every((p) => p.byName === 0);
  const chosen = wide ? compileWide(desc, plans) : writer;
  writers.set(desc, chosen);
  return chosen;
}

/**
 * Past how many members an output object is written into a copy of the last one's shape (see
 * {@link compileWide}). Added one by one, each member moves the object to the next layout of V8's transition
 * tree, and past its in-object slots (about 4) its property store is grown and copied again and again; a copy
 * of an object of the same members is one allocation, and a store into a member it has costs about 2/3 of a
 * store that adds one (a keyed store either way). Below this, a copy costs more than it saves.
 */
const wideMembers = 16;

/** The nesting depths (from 1, the message written) at which a wide message's writer keeps a shape. */
const shapeDepths = 4;

/** The members a wide message's writer wrote last, as keys in order and as an object with those keys. */
interface WideShape {
  readonly proto: boolean;
  readonly keys: readonly string[];
  readonly template: JsonObject;
}

/**
 * The writer of a message type with more fields than {@link wideMembers}. When the last message written at the
 * same depth had more members than that, the next one is compared with its shape ({@link WideShape}) as its
 * fields are found: once its first {@link wideMembers} members are those of the shape, in that order, the
 * rest of it is written into a copy of the shape's object, with the members written so far, and each further
 * member overwrites its own in place as long as the fields come in the shape's order. At the first field
 * that does not, and when fields of the shape are left over, the members written so far are copied into a new
 * object and writing goes on as for any message: the output is the same either way, and a message is never
 * written twice. A message with fewer members never comes to the copy and costs one comparison per member.
 */
function compileWide(desc: DescMessage, plans: readonly FieldPlan[]): MessageWriter {
  const typeName = desc.typeName;
  // By nesting depth (up to shapeDepths): a message of the type at the same depth as one before is taken as
  // likely to set the same fields (a recursive field nests a message of the type that sets others).
  const shapes: (WideShape | undefined)[] = new Array<WideShape | undefined>(shapeDepths).fill(undefined);
  // Shapes made after a miss cost one each, messages written from a shape to its end earn one back (up to
  // shapeCredit): a type whose wide messages set different fields each time stops making shapes.
  let credit = shapeCredit;
  return (message, ctx) => {
    checkMessage(message, typeName);
    enter(ctx, typeName);
    const proto = ctx.useProtoFieldName;
    const depth = ctx.depth;
    const s = depth < shapeDepths ? shapes[depth] : undefined;
    let keys = s !== undefined && s.proto === proto ? s.keys : undefined;
    let out: JsonObject = {};
    let stored = 0;
    // One call site of nextField per writer (see there).
    for (let i = 0; (i = nextField(plans, i, message, ctx)) < plans.length; i++) {
      const plan = ctx.foundPlan!;
      const json = fieldJson(plan, ctx.foundValue, ctx);
      if (json === undefined) continue; // an empty map, not written
      const key = proto ? plan.protoName : plan.jsonName;
      if (keys !== undefined) {
        if (keys[stored] === key) {
          if (stored === wideMembers) out = withMembers(s!.template, out, keys, stored);
          out[key] = json;
          stored++;
          continue;
        }
        // Past wideMembers, `out` is the copy, with members of the shape not written yet.
        if (stored > wideMembers) out = membersOf(out, keys, stored);
        keys = undefined;
      }
      out[key] = json;
      stored++;
    }
    if (keys !== undefined && stored !== keys.length) {
      if (stored > wideMembers) out = membersOf(out, keys, stored);
      keys = undefined;
    }
    if (keys !== undefined) {
      if (credit < shapeCredit) credit++;
    } else if (stored > wideMembers && depth < shapeDepths && (s === undefined || credit-- > 0)) {
      shapes[depth] = wideShape(out, proto);
    }
    if (ctx.registry !== undefined && message.$unknown !== undefined) writeExtensions(desc, message, ctx, out);
    ctx.depth--;
    return out;
  };
}

/** See {@link compileWide}. */
const shapeCredit = 8;

/** A copy of `template` with the first `n` members of `from` (whose keys are the first of `keys`) written in. */
function withMembers(template: JsonObject, from: JsonObject, keys: readonly string[], n: number): JsonObject {
  const out = { ...template };
  for (let k = 0; k < n; k++) out[keys[k]!] = from[keys[k]!]!;
  return out;
}

/** The first `n` members of `from`, whose keys are `keys`, in a new object. */
function membersOf(from: JsonObject, keys: readonly string[], n: number): JsonObject {
  const out: JsonObject = {};
  for (let k = 0; k < n; k++) out[keys[k]!] = from[keys[k]!]!;
  return out;
}

/** The shape of `out` (no integer-like keys, no __proto__: see compileMessage). */
function wideShape(out: JsonObject, proto: boolean): WideShape {
  const keys = Object.keys(out);
  // A copy of `out` itself, so that each member keeps the representation V8 gave it there. One made another
  // way (JSON.parse of the keys with null values) made the full TestAllTypesProto3 36-56% slower: its copies
  // took new layouts at the first writes, copy after copy. Values are replaced by placeholders of the same
  // kind, so that the shape holds on to no part of the caller's output (numbers and booleans hold nothing).
  const template: JsonObject = { ...out };
  for (const k of keys) {
    const v = template[k];
    if (typeof v === "string") template[k] = "";
    else if (typeof v === "object") template[k] = null;
  }
  return { proto, keys, template };
}

/** The JSON value of a field that is to be written (undefined for an empty map); errors get the field's name in their path. */
function fieldJson(plan: FieldPlan, v: unknown, ctx: WriteContext): JsonValue | undefined {
  try {
    return plan.write(v, ctx);
  } catch (e) {
    throw errorAtPath(e, keyOf(plan, ctx));
  }
}

function keyOf(plan: FieldPlan, ctx: WriteContext): string {
  return ctx.useProtoFieldName ? plan.protoName : plan.jsonName;
}

/** Writes the value of a field that is to be written into `out`; errors get the field's name in their path. */
function writeField(plan: FieldPlan, v: unknown, ctx: WriteContext, out: JsonObject): void {
  let json: JsonValue | undefined;
  try {
    json = plan.write(v, ctx);
  } catch (e) {
    throw errorAtPath(e, keyOf(plan, ctx));
  }
  if (json === undefined) return; // an empty map, not written
  const proto = ctx.useProtoFieldName;
  const key = proto ? plan.protoName : plan.jsonName;
  // __proto__, and the names V8's generic keyed store sends to its runtime (see byNameStore).
  if (plan.byName !== 0 && (plan.byName & (proto ? byNameProto : byNameJson)) !== 0) setOwnByName(out, key, json);
  else out[key] = json;
}

const plansOf = new WeakMap<DescMessage, readonly FieldPlan[]>();

/**
 * The plans of a message's fields, in field number order (the order of the output), the members of a oneof
 * that follow one another as one {@link ONEOF_GROUP} plan.
 */
function plansFor(desc: DescMessage): readonly FieldPlan[] {
  let plans = plansOf.get(desc);
  if (plans === undefined) {
    plans = groupOneofs(
      desc.fields
        .concat()
        .sort((a, b) => a.number - b.number)
        .map(compilePlan),
    );
    plansOf.set(desc, plans);
  }
  return plans;
}

/**
 * Replaces each run of plans that holds every member of one oneof (and nothing else) by a {@link ONEOF_GROUP}
 * plan: the first member's plan (its key is the path of an error in reading the oneof) with the members'. A
 * oneof whose members other fields come between gets a group of one per member, each written at its place.
 */
function groupOneofs(plans: readonly FieldPlan[]): FieldPlan[] {
  const out: FieldPlan[] = [];
  for (let i = 0; i < plans.length;) {
    const first = plans[i]!;
    let end = i + 1;
    if (first.presence === ONEOF) {
      while (end < plans.length && plans[end]!.presence === ONEOF && plans[end]!.oneofLocal === first.oneofLocal) end++;
      const size = plans.filter((p) => p.presence === ONEOF && p.oneofLocal === first.oneofLocal).length;
      if (end - i === size) {
        out.push(withPresence(first, ONEOF_GROUP, plans.slice(i, end)));
        i = end;
        continue;
      }
      // A member written at its own place: a group of one (its oneof read once for it, as for each member).
      out.push(withPresence(first, ONEOF_GROUP, [first]));
      i++;
      continue;
    }
    out.push(first);
    i++;
  }
  return out;
}

function withPresence(p: FieldPlan, presence: number, oneofMembers: readonly FieldPlan[]): FieldPlan {
  return new FieldPlan(
    presence,
    p.local,
    p.oneofLocal,
    p.zero,
    p.parentName,
    p.jsonName,
    p.protoName,
    p.keys,
    p.write,
    p.writeText,
    p.raw,
    p.required,
    p.members,
    p.plainString,
    oneofMembers,
    p.byName,
  );
}

/** The plans of every field, the members of each {@link ONEOF_GROUP} in its place. */
function fieldPlans(plans: readonly FieldPlan[]): readonly FieldPlan[] {
  return plans.flatMap((p) => (p.presence === ONEOF_GROUP ? p.oneofMembers : [p]));
}

/**
 * Extensions the registry knows are written under "[fully.qualified.extension]"; protobuf-es keeps them with
 * the unknown fields of the message.
 */
function writeExtensions(
  desc: DescMessage,
  message: Record<string, unknown>,
  ctx: WriteContext,
  out: JsonObject,
): void {
  forEachExtension(desc, message, ctx, (plan, holder) => {
    if (nextField([plan], 0, holder, ctx) === 0) writeField(plan, ctx.foundValue, ctx, out);
  });
}

/** The text of the extensions of a message, each preceded by a comma, as {@link writeExtensions} writes them. */
function extensionsText(desc: DescMessage, message: Record<string, unknown>, ctx: WriteContext): string {
  let out = "";
  forEachExtension(desc, message, ctx, (plan, holder) => {
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
 */
function forEachExtension(
  desc: DescMessage,
  message: Record<string, unknown>,
  ctx: WriteContext,
  write: (plan: FieldPlan, holder: { value: unknown }) => void,
): void {
  const unknown = message.$unknown as readonly { no: number }[];
  const seen = new Set<number>();
  for (const { no } of unknown) {
    if (seen.has(no)) continue;
    seen.add(no);
    const ext = ctx.registry!.getExtensionFor(desc, no);
    if (ext === undefined) continue;
    const plan = extensionPlan(ext);
    let value: unknown;
    try {
      value = getExtension(message as never, ext);
    } catch (e) {
      throw errorAtPath(e, keyOf(plan, ctx));
    }
    write(plan, { value });
  }
}

const extensionPlans = new WeakMap<DescExtension, FieldPlan>();

function extensionPlan(ext: DescExtension): FieldPlan {
  let plan = extensionPlans.get(ext);
  if (plan === undefined) {
    plan = compilePlan(extensionAsField(ext));
    extensionPlans.set(ext, plan);
  }
  return plan;
}

function compilePlan(field: DescField): FieldPlan {
  const local = field.localName;
  const parentName = field.parent.typeName;
  const plan = (
    presence: number,
    oneofLocal: string,
    zero: unknown,
    write: ValueWriter,
    writeText: ValueTextWriter,
    raw = false,
  ): FieldPlan => {
    const keys: string[] = [];
    for (const name of [field.jsonName, field.name]) {
      const key = JSON.stringify(name) + (raw ? ':"' : ":");
      keys.push("{" + key, "," + key, '",' + key);
    }
    return new FieldPlan(
      presence,
      local,
      oneofLocal,
      zero,
      parentName,
      field.jsonName,
      field.name,
      keys,
      write,
      writeText,
      raw,
      field.presence === LEGACY_REQUIRED &&
        field.oneof === undefined &&
        field.fieldKind !== "list" &&
        field.fieldKind !== "map",
      field.fieldKind === "enum" && field.enum.typeName !== "google.protobuf.NullValue"
        ? enumMembers(field.enum, keys)
        : undefined,
      raw && field.fieldKind === "scalar" && field.scalar === ScalarType.STRING,
      [],
      (byNameStore(field.jsonName) ? byNameJson : 0) | (byNameStore(field.name) ? byNameProto : 0),
    );
  };
  switch (field.fieldKind) {
    case "list": {
      const message = field.listKind === "message" ? field.message : undefined;
      const writeItem = compileValue(field, message, true);
      const itemText = compileValueText(field, message, true);
      const writeList: ValueWriter = (items, ctx) => {
        const list = items as unknown[];
        const arr: JsonValue[] = new Array(list.length);
        let i = 0;
        try {
          for (; i < list.length; i++) arr[i] = writeItem(list[i], ctx);
        } catch (e) {
          throw errorAtPath(e, i);
        }
        return arr;
      };
      // Items always printed as JSON strings (strings, 64-bit integers, bytes) are written without their quotes,
      // which go into the separators (`","`) and the closing `"]`: pieces fewer to join (see FieldPlan.raw).
      const itemRaw = message === undefined && field.listKind === "scalar" ? compileScalarRaw(field.scalar) : undefined;
      const listText: ValueTextWriter = (items, ctx) => {
        const list = items as unknown[];
        if (list.length === 0) return "[]";
        let i = 0;
        if (itemRaw !== undefined) {
          let text = "";
          try {
            for (; i < list.length; i++) text += (i === 0 ? '["' : '","') + itemRaw(list[i]);
          } catch (e) {
            throw errorAtPath(e, i);
          }
          return text + '"]';
        }
        let out = "[";
        try {
          out += itemText(list[0], ctx);
          for (i = 1; i < list.length; i++) out += "," + itemText(list[i], ctx);
        } catch (e) {
          throw errorAtPath(e, i);
        }
        return out + "]";
      };
      return plan(LIST, "", undefined, writeList, listText);
    }
    case "map": {
      const message = field.mapKind === "message" ? field.message : undefined;
      const writeValue = compileValue(field, message, true);
      const valueText = compileValueText(field, message, true);
      const keyType = field.mapKey;
      const keyTypeName = ScalarType[keyType]!.toLowerCase();
      const keyIsCanonical = compileMapKeyCheck(keyType);
      // A key of a 32-bit type is checked by int32KeyValue, which gives its value (NaN when not canonical).
      const unsignedKeys = keyType === ScalarType.UINT32 || keyType === ScalarType.FIXED32;
      const int32Keys =
        unsignedKeys ||
        keyType === ScalarType.INT32 ||
        keyType === ScalarType.SINT32 ||
        keyType === ScalarType.SFIXED32;
      // Canonical keys of other types are digits, "-", "true" or "false": nothing to escape, and none of the
      // names byNameStore tells.
      const stringKeys = keyType === ScalarType.STRING;
      const badKey = (key: string): WktJsonError =>
        new WktJsonError(
          "syntax",
          "$",
          parentName,
          `map key ${JSON.stringify(key)} is not a ${keyTypeName} in canonical form`,
        );
      // Both writers return nothing (undefined, "") for a map with no enumerable property, own or inherited
      // (for...in), unless alwaysEmitImplicit.
      const writeMap = ((value, ctx) => {
        const record = value as Record<string | number, unknown>;
        const keys = takeKeys(record);
        if (keys.length === 0 && !ctx.alwaysEmitImplicit && !hasEnumerable(record)) return undefined;
        const obj: Record<string | number, JsonValue> = {};
        let key = "";
        try {
          // The key must be what a reader accepts, in its canonical form ("1", not "01"; "true", not "yes").
          if (int32Keys) {
            for (let i = 0; i < keys.length; i++) {
              key = keys[i]!;
              const n = int32KeyValue(key, unsignedKeys);
              if (n !== n) throw badKey(key);
              // A key from 0 to 2^32 - 2 is an array index, which V8 keeps as an element: read and written by
              // number, V8 takes it without converting the string (a call into its runtime for each access).
              if (n >= 0 && n < 4294967295) obj[n] = writeValue(record[n], ctx);
              else obj[key] = writeValue(record[key], ctx);
            }
          } else if (stringKeys) {
            for (let i = 0; i < keys.length; i++) {
              key = keys[i]!;
              if (!isWellFormed(key)) throw badKey(key);
              const json = writeValue(record[key], ctx);
              if (byNameStore(key)) setOwnByName(obj, key, json);
              else obj[key] = json;
            }
          } else {
            for (let i = 0; i < keys.length; i++) {
              key = keys[i]!;
              if (!keyIsCanonical(key)) throw badKey(key);
              obj[key] = writeValue(record[key], ctx);
            }
          }
        } catch (e) {
          throw errorAtPath(e, key);
        }
        return obj as JsonObject;
      }) as ValueWriter;
      // Object.keys lists integer-like keys first, ascending, then the others in insertion order: the order in
      // which JSON.stringify prints the object writeMap builds from them.
      // Values always printed as JSON strings (strings, 64-bit integers, bytes) are written without their quotes,
      // which go into what follows them, as for raw fields (see FieldPlan.raw): pieces fewer to join.
      const valueRaw = message === undefined && field.mapKind === "scalar" ? compileScalarRaw(field.scalar) : undefined;
      const mapText: ValueTextWriter = (value, ctx) => {
        const record = value as Record<string | number, unknown>;
        const keys = takeKeys(record);
        if (keys.length === 0) return ctx.alwaysEmitImplicit || hasEnumerable(record) ? "{}" : "";
        // The first member opens the object (V8 joins "" and a string without making a node).
        let out = "";
        let key = "";
        try {
          for (let i = 0; i < keys.length; i++) {
            key = keys[i]!;
            let v: unknown;
            if (int32Keys) {
              // As in writeMap: an array index read by number.
              const n = int32KeyValue(key, unsignedKeys);
              if (n !== n) throw badKey(key);
              v = n >= 0 && n < 4294967295 ? record[n] : record[key];
            } else {
              if (!keyIsCanonical(key)) throw badKey(key);
              v = record[key];
            }
            const k = stringKeys ? rawString(key) : key;
            if (valueRaw !== undefined) out += (i === 0 ? '{"' : '","') + k + '":"' + valueRaw(v);
            else out += (i === 0 ? '{"' : ',"') + k + '":' + valueText(v, ctx);
          }
        } catch (e) {
          throw errorAtPath(e, key);
        }
        return out + (valueRaw !== undefined ? '"}' : "}");
      };
      const mapPlan = plan(MAP, "", undefined, writeMap, mapText);
      mapPlan.intKeys = !stringKeys && keyType !== ScalarType.BOOL;
      return mapPlan;
    }
    default: {
      const message = field.fieldKind === "message" ? field.message : undefined;
      const write = compileValue(field, message, false);
      const rawText = compileRawText(field, message);
      const raw = rawText !== undefined;
      const text = rawText ?? compileValueText(field, message, false);
      if (field.oneof !== undefined) return plan(ONEOF, field.oneof.localName, undefined, write, text, raw);
      if (field.presence !== IMPLICIT) return plan(EXPLICIT, "", undefined, write, text, raw);
      if (field.fieldKind === "enum")
        return plan(IMPLICIT_ENUM, "", field.enum.values[0]?.number ?? 0, write, text, raw);
      const scalar = field.scalar!;
      const zero = scalarZero(scalar, field.fieldKind === "scalar" && field.longAsString);
      return plan(implicitPresence(scalar), "", zero, write, text, raw);
    }
  }
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

/** How an implicit-presence scalar is tested for its zero value (as `scalarIsZero` tells it). */
function implicitPresence(scalar: ScalarType): number {
  switch (scalar) {
    case ScalarType.STRING:
      return IMPLICIT_STRING;
    case ScalarType.BOOL:
      return IMPLICIT_BOOL;
    case ScalarType.BYTES:
      return IMPLICIT_BYTES;
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return IMPLICIT_FLOAT;
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return IMPLICIT_INT64;
    default:
      return IMPLICIT_INT32;
  }
}

/**
 * Tells whether a map key (protobuf-es keeps them as object keys) is what a reader accepts, in canonical form:
 * "1", not "01" or "1e0"; "true", not "yes"; a string without lone surrogates.
 */
function compileMapKeyCheck(keyType: ScalarType): (key: string) => boolean {
  switch (keyType) {
    case ScalarType.STRING:
      return isWellFormed;
    case ScalarType.BOOL:
      return (key) => key === "true" || key === "false";
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return (key) => {
        const n = +key;
        return Number.isInteger(n) && n >= -2147483648 && n <= 2147483647 && String(n) === key;
      };
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return (key) => {
        const n = +key;
        return Number.isInteger(n) && n >= 0 && n <= 4294967295 && String(n) === key;
      };
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return (key) => isCanonicalIntegerKey(keyType, key);
    default: {
      return (key) => {
        try {
          return mapKeyFromJson(keyType, key) === key;
        } catch {
          return false;
        }
      };
    }
  }
}

/** The error for a list or map field holding something else. */
function notA(expected: string, plan: FieldPlan, actual: unknown): WktJsonError {
  return new WktJsonError("json-type", "$", plan.parentName, `expected ${expected}, got ${describe(actual)}`);
}

/**
 * Compiles the writer of one value of a field, in protobuf-es's local representation: singular wrapper
 * fields outside a oneof hold the bare scalar, Struct fields (outside Value) a plain JSON object.
 */
function compileValue(field: DescField, message: DescMessage | undefined, inCollection: boolean): ValueWriter {
  if (message !== undefined) {
    if (message.typeName === "google.protobuf.Struct" && field.parent.typeName !== "google.protobuf.Value") {
      return (value, ctx) => copyJsonObject(value, ctx.maxDepth - ctx.depth, message.typeName);
    }
    if (!inCollection && field.oneof === undefined && isWrapperDesc(message)) {
      const scalar = message.fields[0]!;
      return (value, ctx) => {
        try {
          return noteZero(scalarToJson(scalar.scalar, value), ctx);
        } catch (e) {
          throw errorAsType(e, message.typeName);
        }
      };
    }
    let write: MessageWriter | undefined;
    return (value, ctx) => (write ??= writerFor(message))(value, ctx);
  }
  if (field.enum !== undefined) return compileEnum(field.enum);
  const scalar = field.scalar!;
  // scalarWriter decides the usual value in place; scalarToJson, a call further, has every type's checks.
  const write = scalarWriter(scalar);
  if (scalar === ScalarType.DOUBLE || scalar === ScalarType.FLOAT) {
    return (value, ctx) => {
      if (value === 0 && 1 / value < 0) ctx.negativeZero = true;
      return write(value);
    };
  }
  return write;
}

/**
 * Notes a -0 (of a DoubleValue or FloatValue) in the context, for toJsonString; returns the value. An integer
 * -0 is never written: the 32-bit writers see it as 0.
 */
function noteZero(json: string | number | boolean, ctx: WriteContext): string | number | boolean {
  if (json === 0 && 1 / json < 0) ctx.negativeZero = true;
  return json;
}

/**
 * Compiles the text writer of one value of a field: the text `JSON.stringify` prints for what
 * {@link compileValue}'s writer returns, with the same checks and errors, except that a -0 is printed "-0".
 */
function compileValueText(field: DescField, message: DescMessage | undefined, inCollection: boolean): ValueTextWriter {
  if (message !== undefined) {
    if (message.typeName === "google.protobuf.Struct" && field.parent.typeName !== "google.protobuf.Value") {
      return (value, ctx) => jsonObjectText(value, ctx.maxDepth - ctx.depth, message.typeName);
    }
    if (!inCollection && field.oneof === undefined && isWrapperDesc(message)) {
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
    return (value, ctx) => (write ??= textWriterFor(message))(value, ctx);
  }
  if (field.enum !== undefined) return compileEnumText(field.enum);
  return compileScalarText(field.scalar!);
}

/**
 * The writer of the inside of the JSON string a singular field's value always is (see {@link FieldPlan.raw}),
 * with the checks and errors of {@link compileValueText}'s writer; undefined for a field whose value is not
 * always a string.
 */
function compileRawText(field: DescField, message: DescMessage | undefined): ValueTextWriter | undefined {
  if (message !== undefined) {
    switch (message.typeName) {
      case "google.protobuf.Timestamp":
      case "google.protobuf.Duration":
      case "google.protobuf.FieldMask": {
        // Nothing to escape (see compileText); the value writer's checks, depth and errors.
        let write: MessageWriter | undefined;
        return (value, ctx) => (write ??= writerFor(message))(value, ctx) as string;
      }
    }
    if (field.oneof !== undefined || !isWrapperDesc(message)) return undefined;
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

/** {@link compileScalarText} without the quotes, for the scalar types written as strings; else undefined. */
function compileScalarRaw(scalar: ScalarType): ((value: unknown) => string) | undefined {
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
function compileScalarText(scalar: ScalarType): (value: unknown) => string {
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
function rawString(s: string): string {
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
const jsonEscapes: readonly string[] = Array.from({ length: 93 }, (_, c) =>
  JSON.stringify(String.fromCharCode(c)).slice(1, -1),
);

/** The text writer of an enum, as {@link compileEnum}'s writer printed by JSON.stringify. */
function compileEnumText(desc: DescEnum): ValueTextWriter {
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
 * Prints a JSON value made by a value writer (Struct, Value, ListValue, Any, Empty, wrappers), keeping the
 * sign of a -0 it holds, and forgets the -0. Text writers print every other -0 themselves, so the flags are
 * clear whenever such a value starts to be written.
 */
function treeText(json: JsonValue, ctx: WriteContext): string {
  const negativeZero = negativeZeroTake() || ctx.negativeZero;
  ctx.negativeZero = false;
  return negativeZero ? stringifyKeepingNegativeZero(json, 0) : JSON.stringify(json);
}

const textWriters = new WeakMap<DescMessage, MessageTextWriter>();

/** Returns the compiled text writer of a message type, compiling it on first use. */
function textWriterFor(desc: DescMessage): MessageTextWriter {
  if (desc === lastTextDesc) return lastTextWriter!;
  let writer = textWriters.get(desc);
  if (writer === undefined) {
    writer = compileText(desc);
    textWriters.set(desc, writer);
  }
  lastTextDesc = desc;
  lastTextWriter = writer;
  return writer;
}

/** As {@link lastDesc} for text writers: a run of one type costs one comparison instead of a WeakMap lookup. */
let lastTextDesc: unknown = noDesc;
let lastTextWriter: MessageTextWriter | undefined;

function compileText(desc: DescMessage): MessageTextWriter {
  const typeName = desc.typeName;
  const write = writerFor(desc);
  if (hasCustomJson(desc)) {
    if (isWrapperDesc(desc)) {
      // As compileWkt's writer of wrappers.
      const scalar = desc.fields[0]!;
      const zero = scalarZero(scalar.scalar, scalar.longAsString);
      const scalarText = compileScalarText(scalar.scalar);
      return (message, ctx) => {
        checkMessage(message, typeName);
        enter(ctx, typeName);
        let text: string;
        try {
          text = scalarText(message.value ?? zero);
        } catch (e) {
          throw errorAsType(e, typeName);
        }
        ctx.depth--;
        return text;
      };
    }
    // A well-known type with its own JSON form: its value writer's result, printed.
    switch (typeName) {
      case "google.protobuf.Timestamp":
      case "google.protobuf.Duration":
      case "google.protobuf.FieldMask":
        // Nothing to escape: Timestamp and Duration texts are digits, "-", ":", ".", "T", "Z" and "s"; a
        // FieldMask's are lower-camel paths (fieldMaskToJson rejects every character but a-z, 0-9, "_" and
        // ".") joined by commas.
        return (message, ctx) => '"' + (write(message, ctx) as string) + '"';
      case "google.protobuf.Struct":
      case "google.protobuf.Value":
      case "google.protobuf.ListValue":
        // Written without the lone-surrogate check of every member name and string (a tenth of the time):
        // JSON.stringify writes each lone surrogate as a `\udXXX` escape, so one search of the text finds them
        // all. Only a text that holds `\ud` (an escape, or a string with a backslash before "ud") is written
        // again with the checks, which throw the error with its path.
        // A ListValue or Value is printed as it is walked when it can be (see listOrValueTextInternal).
        return (message, ctx) => {
          if (typeName !== "google.protobuf.Struct") {
            checkMessage(message, typeName);
            const text = listOrValueTextInternal(
              typeName === "google.protobuf.ListValue",
              message,
              ctx.maxDepth - ctx.depth,
            );
            if (text !== undefined) return text;
          }
          let json: JsonValue;
          try {
            json = structFamilyToJson(typeName, message, ctx, false);
          } catch (e) {
            // The checked writer meets this error too, or a lone surrogate before it: the first one is reported.
            structFamilyToJson(typeName, message, ctx, true);
            throw e;
          }
          const text = treeText(json, ctx);
          if (text.includes("\\ud")) {
            structFamilyToJson(typeName, message, ctx, true);
            negativeZeroTake(); // the -0 it notes again belongs to the text already written
          }
          return text;
        };
      default:
        return (message, ctx) => treeText(write(message, ctx), ctx);
    }
  }
  const plans = plansFor(desc);
  if (!keysPrintInOrder(fieldPlans(plans))) return (message, ctx) => treeText(write(message, ctx), ctx);
  const writer: MessageTextWriter = (message, ctx) => {
    checkMessage(message, typeName);
    enter(ctx, typeName);
    const base = ctx.useProtoFieldName ? keyProto : 0;
    // The first key opens the object: V8 joins "" and a string without making a node (see toJsonString).
    let out = "";
    // The key to write next: keyFirst, keyAfter, or keyAfterQuote after a raw field (its closing quote).
    let next = keyFirst;
    for (let i = 0; (i = nextField(plans, i, message, ctx)) < plans.length; i++) {
      const plan = ctx.foundPlan!;
      const v = ctx.foundValue;
      if (plan.plainString && typeof v === "string" && isPlainString(v)) {
        // What writeText returns for it (compileScalarRaw), without the call.
        out += plan.keys[base + next]! + v;
        next = keyAfterQuote;
        continue;
      }
      const members = plan.members;
      if (members !== undefined && typeof v === "number" && !ctx.enumAsInteger) {
        // A named value (so an int32; a -0 finds 0): the member as one piece. Anything else is written below.
        const member = members[base + next]!.get(v);
        if (member !== undefined) {
          out += member;
          next = keyAfter;
          continue;
        }
      }
      let text: string;
      try {
        text = plan.writeText(v, ctx);
      } catch (e) {
        throw errorAtPath(e, keyOf(plan, ctx));
      }
      if (plan.raw) {
        out += plan.keys[base + next]! + text;
        next = keyAfterQuote;
      } else if (text !== "") {
        // An empty map ("") is not written. One join of the two: V8 copies the pair into a flat string when
        // it is short (under 13 characters), a piece fewer to join at the end.
        out += plan.keys[base + next]! + text;
        next = keyAfter;
      }
    }
    if (ctx.registry !== undefined && message.$unknown !== undefined) {
      const extensions = extensionsText(desc, message, ctx);
      if (extensions !== "") {
        out += next === keyFirst ? "{" + extensions.slice(1) : next === keyAfterQuote ? '"' + extensions : extensions;
        next = keyAfter;
      }
    }
    ctx.depth--;
    // The closing quote of a raw field and the brace in one piece.
    return next === keyAfter ? out + "}" : next === keyAfterQuote ? out + '"}' : "{}";
  };
  return writer;
}

/**
 * Whether the members a message's value writer makes print in the order the text writer writes them: fields
 * in number order, then extensions. JSON.stringify prints integer-like keys first and a repeated key once; a
 * json_name can be anything, so a message with such a name (or one like an extension's "[...]") is printed
 * from its value instead.
 */
function keysPrintInOrder(plans: readonly FieldPlan[]): boolean {
  for (const names of [plans.map((p) => p.jsonName), plans.map((p) => p.protoName)]) {
    if (new Set(names).size !== names.length) return false;
    for (const name of names) {
      if (/^(0|[1-9][0-9]*)$/.test(name) && Number(name) < 4294967295) return false;
      if (name.startsWith("[")) return false;
    }
  }
  return true;
}

/**
 * "The name of the enum value as specified in proto is used", or the custom JSON name the value sets with the
 * option `(pb.enumvalue.json).string` (google/protobuf/json_enumvalue_options.proto; @bufbuild/protobuf reads
 * it into `jsonName`); a number the enum lacks is written as is.
 */
function compileEnum(desc: DescEnum): ValueWriter {
  const names = new Map<number, string>();
  for (const v of desc.values) if (!names.has(v.number)) names.set(v.number, enumValueJsonName(v));
  const isNullValue = desc.typeName === "google.protobuf.NullValue";
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

/** The well-known types that {@link compileWkt} writes in their own JSON form. */
const customJsonTypes = new Set([
  "google.protobuf.Timestamp",
  "google.protobuf.Duration",
  "google.protobuf.FieldMask",
  "google.protobuf.Empty",
  "google.protobuf.Struct",
  "google.protobuf.Value",
  "google.protobuf.ListValue",
  "google.protobuf.Any",
]);

function hasCustomJson(desc: DescMessage): boolean {
  return customJsonTypes.has(desc.typeName) || (desc.typeName.startsWith("google.protobuf.") && isWrapperDesc(desc));
}

/**
 * The JSON value of a Struct, Value or ListValue message (by `typeName`); `checked` false skips the lone-surrogate
 * checks (see structToJsonInternal).
 */
function structFamilyToJson(typeName: string, message: unknown, ctx: WriteContext, checked: boolean): JsonValue {
  checkMessage(message, typeName);
  const depthLeft = ctx.maxDepth - ctx.depth;
  if (typeName === "google.protobuf.Struct") return structToJsonInternal(message as never, depthLeft, checked);
  if (typeName === "google.protobuf.Value") return valueToJsonInternal(message as never, depthLeft, checked);
  return listValueToJsonInternal(message as never, depthLeft, checked);
}

function compileWkt(desc: DescMessage): MessageWriter | undefined {
  const typeName = desc.typeName;
  if (!typeName.startsWith("google.protobuf.")) return undefined;
  const leaf = (write: (m: never) => JsonValue): MessageWriter => {
    return (message, ctx) => {
      checkMessage(message, typeName);
      enter(ctx, typeName);
      const json = write(message as never);
      ctx.depth--;
      return json;
    };
  };
  switch (typeName) {
    case "google.protobuf.Timestamp":
      return leaf(timestampToJson);
    case "google.protobuf.Duration":
      return leaf(durationToJson);
    case "google.protobuf.FieldMask":
      return leaf(fieldMaskToJson);
    case "google.protobuf.Empty":
      return leaf(() => ({}));
    case "google.protobuf.Struct":
    case "google.protobuf.Value":
    case "google.protobuf.ListValue":
      return (message, ctx) => structFamilyToJson(typeName, message, ctx, true);
    case "google.protobuf.Any":
      return (message, ctx) => {
        checkMessage(message, typeName);
        enter(ctx, typeName);
        const json = anyToJsonInternal(message as never, ctx, writerFor);
        ctx.depth--;
        return json;
      };
  }
  if (isWrapperDesc(desc)) {
    const scalar = desc.fields[0]!;
    const zero = scalarZero(scalar.scalar, scalar.longAsString);
    return (message, ctx) => {
      checkMessage(message, typeName);
      enter(ctx, typeName);
      let json: JsonValue;
      try {
        json = noteZero(scalarToJson(scalar.scalar, message.value ?? zero), ctx);
      } catch (e) {
        throw errorAsType(e, typeName);
      }
      ctx.depth--;
      return json;
    };
  }
  return undefined;
}
