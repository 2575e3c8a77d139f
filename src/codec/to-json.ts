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
 * This module holds the entry points and the writers of whole messages (the value writer and the text writer,
 * each compiled once per type). The rest is by job: the options and the write context (to-json-options.ts, and
 * the field paths of the options beyond protobuf-es's, to-json-emit.ts), the field plans and the loop over them
 * (to-json-plan.ts, to-json-fields.ts), lists and maps (to-json-collections.ts), scalars, enums and quoting
 * (to-json-scalar.ts; float32 digits, internal/float32.ts), and wide messages written into a copy of the last
 * one's shape (to-json-wide.ts).
 *
 * @module
 */
import {
  ScalarType,
  type DescMessage,
  type JsonObject,
  type JsonValue,
  type MessageJsonType,
  type MessageShape,
} from "@bufbuild/protobuf";
import { isWrapperDesc } from "@bufbuild/protobuf/wkt";
import { anyToJsonInternal } from "./any-json.js";
import { withoutUnresolvedAny } from "./any-fallback.js";
import { errorAsType } from "../errors.js";
import { stackOverflowAsDepth } from "./depth-errors.js";
import {
  anyTypeName,
  durationTypeName,
  emptyTypeName,
  fieldMaskTypeName,
  listValueTypeName,
  structTypeName,
  timestampTypeName,
  valueTypeName,
  wktPackagePrefix,
} from "../internal/names.js";
import { isPlainString, negativeZeroTake } from "../internal/json-value.js";
import { checkMessage, isMessageOf } from "../internal/message-type.js";
import { scalarWriter, scalarZero } from "../internal/scalar.js";
import { errorAtPath } from "../path.js";
import { checkSchema } from "../wkt/registry.js";
import { listValueToJsonInternal, structToJsonInternal, valueToJsonInternal } from "../wkt/struct-encode.js";
import { listOrValueTextInternal } from "../wkt/struct-to-text.js";
import {
  extensionsText,
  plansFor,
  textPlansFor,
  writeExtensions,
  type MessageTextWriters,
  type MessageWriters,
} from "./to-json-fields.js";
import {
  makeContext,
  prettySpacesOption,
  type JsonWriteOptions,
  type JsonWriteStringOptions,
} from "./to-json-options.js";
import {
  enter,
  fieldPlans,
  keyAfter,
  keyAfterQuote,
  keyFirst,
  keyOf,
  keyProto,
  keysPrintInOrder,
  nextField,
  writeField,
  writeFieldsEmitting,
  type FieldPlan,
  type MessageTextWriter,
  type MessageWriter,
  type WriteContext,
} from "./to-json-plan.js";
import {
  compileScalarText,
  plainStringWkt,
  stringifyKeepingNegativeZero,
  treeText,
  wrappedScalarJson,
} from "./to-json-scalar.js";
import { compileWide, wideMembers } from "./to-json-wide.js";

export type { JsonWriteOptions, JsonWriteStringOptions } from "./to-json-options.js";

/**
 * Encodes a message as its proto3 JSON value, ready for `JSON.stringify`.
 *
 * @throws {WktJsonError} with the JSON path and rule: `range`/`sign` for an invalid Timestamp or Duration,
 *   `not-finite` or `value-kind` for a bad google.protobuf.Value, `mask-path` for a FieldMask path that cannot
 *   round-trip, `json-type` for a value of the wrong type, `utf16` for a lone surrogate, `unknown-type` for an
 *   Any the registry cannot resolve, `depth` beyond `maxDepth`; `json-type` at `$` when `schema` is not a
 *   message descriptor, `message` is not a message of it, or `registry` is not a Registry; `range` for a
 *   `maxDepth` that is not a whole number from 1 up; `json-type` at `$` for an option of ours of the wrong type,
 *   `unknown-field` at `$` for a path of `alwaysEmitImplicitFor` or `emitUnsetMessagesAsNull` that names no
 *   field the option can write.
 * @example
 * toJson(DurationSchema, create(DurationSchema, { seconds: 1n, nanos: 500_000_000 })); //=> "1.500s"
 * toJson(TestSchema, msg, { useProtoFieldName: true }); //=> { optional_int64: "5" }
 * toJson(TestSchema, msg, { int64AsNumber: true }); //=> { optionalInt64: 5 }
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

/** {@link toJson} past its one-comparison leaf path: checks the schema, finds a leaf's writer, or writes. */
function toJsonSlow(schema: DescMessage, message: unknown, options: Partial<JsonWriteOptions> | undefined): JsonValue {
  checkSchema(schema);
  if (options === undefined) {
    const leaf = leafWriterOf(schema);
    if (leaf !== undefined) {
      leafDesc = schema;
      leafWrite = leaf;
      return leaf(message);
    }
  }
  return write(schema, message, makeContext(options, schema));
}

/**
 * @internal The writers of a leaf well-known type (Timestamp, Duration, FieldMask, a wrapper) that need no
 * context: without options nothing they could meet depends on one (one level of nesting is within every
 * `maxDepth`; the -0 of a DoubleValue is printed by the text writer itself). As {@link compileWkt}'s and
 * {@link compileText}'s writers, same checks and errors. The value writer and the text writer are compiled
 * and kept apart, so that a bundle of toJson alone does without the text writers.
 */
type LeafWrite = (message: unknown) => JsonValue;
type LeafText = (message: unknown) => string;

/** What the one-entry caches hold before their first use: no value a caller can pass (not even undefined). */
const noDesc: unknown = Symbol("no descriptor");

/** Leaf writers by descriptor; null for every other type. */
const leafWrites = new WeakMap<DescMessage, LeafWrite | null>();
const leafTexts = new WeakMap<DescMessage, LeafText | null>();

/**
 * The leaf type written last without options, and its writers: a run of one type (the usual case, such as a
 * list of Timestamps written one by one) then costs one comparison instead of a WeakMap lookup.
 */
let leafDesc: unknown = noDesc;
let leafWrite: LeafWrite | undefined;
let leafTextDesc: unknown = noDesc;
let leafText: LeafText | undefined;

/** The leaf value writer of a type (compiled once, kept by descriptor), or undefined for any other type. */
function leafWriterOf(desc: DescMessage): LeafWrite | undefined {
  let write = leafWrites.get(desc);
  if (write === undefined) {
    write = compileLeafWrite(desc) ?? null;
    leafWrites.set(desc, write);
  }
  return write ?? undefined;
}

/** The leaf text writer of a type (compiled once, kept by descriptor), or undefined for any other type. */
function leafTextOf(desc: DescMessage): LeafText | undefined {
  let text = leafTexts.get(desc);
  if (text === undefined) {
    text = compileLeafText(desc) ?? null;
    leafTexts.set(desc, text);
  }
  return text ?? undefined;
}

/** The value writer of a leaf type whose JSON is a string with nothing to escape (see plainStringWkt). */
function plainLeafWrite(typeName: string, toText: (m: never) => string): (message: unknown) => string {
  return (message) => {
    checkMessage(message, typeName);
    return toText(message as never);
  };
}

/** Compiles the value writer of a leaf well-known type (see {@link LeafWrite}); undefined for any other type. */
function compileLeafWrite(desc: DescMessage): LeafWrite | undefined {
  const typeName = desc.typeName;
  if (!typeName.startsWith(wktPackagePrefix)) return undefined;
  const toText = plainStringWkt(typeName);
  if (toText !== undefined) return plainLeafWrite(typeName, toText);
  if (!isWrapperDesc(desc)) return undefined;
  const scalar = desc.fields[0]!;
  const type = scalar.scalar;
  const zero = scalarZero(type, scalar.longAsString);
  const toJsonValue = scalarWriter(type);
  const write = (message: unknown): JsonValue => {
    checkMessage(message, typeName);
    try {
      return toJsonValue(message.value ?? zero);
    } catch (e) {
      throw errorAsType(e, typeName);
    }
  };
  // The usual value of the two wrappers whose writing is cheapest (the call itself is most of the cost),
  // decided in place; anything else (no message, another type, no value, a value to check) takes `write`.
  if (type === ScalarType.DOUBLE) {
    return (message) => {
      if (isMessageOf(message, typeName)) {
        const v = message.value;
        if (typeof v === "number" && v - v === 0) return v;
      }
      return write(message);
    };
  }
  if (type === ScalarType.INT64) {
    return (message) => {
      if (isMessageOf(message, typeName)) {
        const v = message.value;
        if (typeof v === "bigint" && BigInt.asIntN(64, v) === v) return v.toString();
      }
      return write(message);
    };
  }
  return write;
}

/** Compiles the text writer of a leaf well-known type (see {@link LeafText}); undefined for any other type. */
function compileLeafText(desc: DescMessage): LeafText | undefined {
  const typeName = desc.typeName;
  if (!typeName.startsWith(wktPackagePrefix)) return undefined;
  const toText = plainStringWkt(typeName);
  if (toText !== undefined) {
    // Nothing to escape (see plainStringWkt).
    const write = plainLeafWrite(typeName, toText);
    return (message) => '"' + write(message) + '"';
  }
  if (!isWrapperDesc(desc)) return undefined;
  const scalar = desc.fields[0]!;
  const zero = scalarZero(scalar.scalar, scalar.longAsString);
  const scalarText = compileScalarText(scalar.scalar);
  return (message) => {
    checkMessage(message, typeName);
    try {
      return scalarText(message.value ?? zero);
    } catch (e) {
      throw errorAsType(e, typeName);
    }
  };
}

/**
 * The type {@link toJson} returns, as `@bufbuild/protobuf` types it: the message's JSON type (for generated
 * code with `json_types`, and the well-known types: `TimestampJson`, ...) when no option changes the shape of
 * the output, else any JSON value.
 */
export type ToJson<Desc extends DescMessage, Opts extends Partial<JsonWriteOptions> | undefined> = Opts extends
  | undefined
  | {
      alwaysEmitImplicit?: false;
      enumAsInteger?: false;
      useProtoFieldName?: false;
      int64AsNumber?: false | undefined;
      emitUnsetMessagesAsNull?: false | undefined;
    }
  ? MessageJsonType<Desc>
  : JsonValue;

/** Writes a message with its type's writer; a stack overflow becomes our `depth` error. */
function write(schema: DescMessage, message: unknown, ctx: WriteContext): JsonValue {
  try {
    if (ctx.unresolvedAny === "skip") message = withoutUnresolvedAny(schema, message, ctx);
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
    // A leaf well-known type: its text writer without a context (see LeafText).
    if (schema === leafTextDesc) return leafText!(message);
    const leaf = leafTextOf(checkSchema(schema));
    if (leaf !== undefined) {
      leafTextDesc = schema;
      leafText = leaf;
      return leaf(message);
    }
  }
  checkSchema(schema);
  const ctx = makeContext(options, schema);
  // Free-form JSON (Struct, Value, ListValue, Struct fields) notes a -0 number as it is written.
  negativeZeroTake();
  const spaces = prettySpacesOption(options?.prettySpaces);
  // The options beyond protobuf-es's are written by the value writers only, whose value JSON.stringify prints
  // as is: a 64-bit integer is a number only where it prints as its digits (see int64JsonNumber).
  if (!(spaces >= 1) && !ctx.int64AsNumber && !ctx.floatShortest && ctx.emit === undefined) {
    // One line: printed as the value is walked, without building it (JSON.stringify of the value would be
    // the same text, -0 aside; see compileText).
    let text: string;
    try {
      if (ctx.unresolvedAny === "skip") message = withoutUnresolvedAny(schema, message, ctx);
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

/** Where toJsonString leaves the number its text reads as (NaN, mostly): see there. */
let joined = 0;

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

/**
 * Compiles the value writer of a message type: a well-known type's own (compileWkt), a wide message's
 * (compileWide), or the writer of its fields one by one from their plans.
 */
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
    if (ctx.emit !== undefined) writeFieldsEmitting(plans, message, ctx, out);
    else
      for (let i = 0; (i = nextField(plans, i, message, ctx)) < plans.length; i++)
        writeField(ctx.foundPlan!, ctx.foundValue, ctx, out);
    if (ctx.registry !== undefined && message.$unknown !== undefined)
      writeExtensions(desc, message, ctx, out, messageWriters);
    ctx.depth--;
    return out;
  };
  plans = plansFor(desc, messageWriters);
  const wide =
    plans.length > wideMembers && keysPrintInOrder(fieldPlans(plans)) && fieldPlans(plans).every((p) => p.byName === 0);
  const chosen = wide ? compileWide(desc, plans, messageWriters, writer) : writer;
  writers.set(desc, chosen);
  return chosen;
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

/**
 * The writers of this module, the recursive step of the plans of fields that hold messages: the value writers'
 * (without the text writers, so that a bundle of toJson alone does without them) and the text writers'.
 */
const messageWriters: MessageWriters = { writerFor };
const messageTextWriters: MessageTextWriters = { writerFor, textWriterFor };

/** As {@link lastDesc} for text writers: a run of one type costs one comparison instead of a WeakMap lookup. */
let lastTextDesc: unknown = noDesc;
let lastTextWriter: MessageTextWriter | undefined;

/**
 * Compiles the text writer of a message type: a well-known type's (see compileWktText), else its fields' (see
 * compileFieldsText), else (names JSON.stringify would print in another order) its value writer's result printed.
 */
function compileText(desc: DescMessage): MessageTextWriter {
  const write = writerFor(desc);
  if (hasCustomJson(desc)) return compileWktText(desc, write);
  const plans = textPlansFor(desc, messageTextWriters);
  if (!keysPrintInOrder(fieldPlans(plans))) return (message, ctx) => treeText(write(message, ctx), ctx);
  return compileFieldsText(desc, plans);
}

/** The text writer of a well-known type with its own JSON form (`write` is its value writer). */
function compileWktText(desc: DescMessage, write: MessageWriter): MessageTextWriter {
  const typeName = desc.typeName;
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
  // Nothing to escape (see plainStringWkt).
  if (plainStringWkt(typeName) !== undefined) return (message, ctx) => '"' + (write(message, ctx) as string) + '"';
  switch (typeName) {
    case structTypeName:
    case valueTypeName:
    case listValueTypeName:
      // Written without the lone-surrogate check of every member name and string (a tenth of the time):
      // JSON.stringify writes each lone surrogate as a `\udXXX` escape, so one search of the text finds them
      // all. Only a text that holds `\ud` (an escape, or a string with a backslash before "ud") is written
      // again with the checks, which throw the error with its path.
      // A ListValue or Value is printed as it is walked when it can be (see listOrValueTextInternal).
      return (message, ctx) => {
        if (typeName !== structTypeName) {
          checkMessage(message, typeName);
          const text = listOrValueTextInternal(typeName === listValueTypeName, message, ctx.maxDepth - ctx.depth);
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

/**
 * The text writer of a message written field by field from its plans, printed as it is walked: the text
 * JSON.stringify prints for its value writer's result, but -0.
 */
function compileFieldsText(desc: DescMessage, plans: readonly FieldPlan[]): MessageTextWriter {
  const typeName = desc.typeName;
  return (message, ctx) => {
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
      const extensions = extensionsText(desc, message, ctx, messageTextWriters);
      if (extensions !== "") {
        out += next === keyFirst ? "{" + extensions.slice(1) : next === keyAfterQuote ? '"' + extensions : extensions;
        next = keyAfter;
      }
    }
    ctx.depth--;
    // The closing quote of a raw field and the brace in one piece.
    return next === keyAfter ? out + "}" : next === keyAfterQuote ? out + '"}' : "{}";
  };
}

/** The well-known types that {@link compileWkt} writes in their own JSON form. */
const customJsonTypes = new Set([
  timestampTypeName,
  durationTypeName,
  fieldMaskTypeName,
  emptyTypeName,
  structTypeName,
  valueTypeName,
  listValueTypeName,
  anyTypeName,
]);

/** Whether a type is a well-known type with its own JSON form (not an object of its fields). */
function hasCustomJson(desc: DescMessage): boolean {
  return customJsonTypes.has(desc.typeName) || (desc.typeName.startsWith(wktPackagePrefix) && isWrapperDesc(desc));
}

/**
 * The JSON value of a Struct, Value or ListValue message (by `typeName`); `checked` false skips the lone-surrogate
 * checks (see structToJsonInternal).
 */
function structFamilyToJson(typeName: string, message: unknown, ctx: WriteContext, checked: boolean): JsonValue {
  checkMessage(message, typeName);
  const depthLeft = ctx.maxDepth - ctx.depth;
  if (typeName === structTypeName) return structToJsonInternal(message as never, depthLeft, checked);
  if (typeName === valueTypeName) return valueToJsonInternal(message as never, depthLeft, checked);
  return listValueToJsonInternal(message as never, depthLeft, checked);
}

/** The value writer of a well-known type with its own JSON form, else undefined. */
function compileWkt(desc: DescMessage): MessageWriter | undefined {
  const typeName = desc.typeName;
  if (!typeName.startsWith(wktPackagePrefix)) return undefined;
  const leaf = (write: (m: never) => JsonValue): MessageWriter => {
    return (message, ctx) => {
      checkMessage(message, typeName);
      enter(ctx, typeName);
      const json = write(message as never);
      ctx.depth--;
      return json;
    };
  };
  const toText = plainStringWkt(typeName);
  if (toText !== undefined) return leaf(toText);
  switch (typeName) {
    case emptyTypeName:
      return leaf(() => ({}));
    case structTypeName:
    case valueTypeName:
    case listValueTypeName:
      return (message, ctx) => structFamilyToJson(typeName, message, ctx, true);
    case anyTypeName:
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
        json = wrappedScalarJson(scalar.scalar, message.value ?? zero, ctx);
      } catch (e) {
        throw errorAsType(e, typeName);
      }
      ctx.depth--;
      return json;
    };
  }
  return undefined;
}
