/**
 * The proto3 JSON decoder for whole messages. "Proto3 supports a canonical encoding in JSON ... Parsers
 * accept both the lowerCamelCase JSON name and the original proto field name ... null is accepted for all
 * field types and treated as the default value of the corresponding field type."
 *
 * Same names and signatures as `@bufbuild/protobuf`'s `fromJson`/`fromJsonString`, so switching is a change
 * of import; stricter (duplicate keys, lone surrogates, exact 64-bit integers from text), with errors that
 * carry the JSON path from the root, the rule broken and, for text, the line and column.
 *
 * One reader is compiled per message descriptor and cached in a `WeakMap`. Well-known types with a custom
 * JSON form are dispatched to their modules.
 *
 * @module
 */
import {
  create,
  ScalarType,
  setExtension,
  type DescExtension,
  type DescEnum,
  type DescField,
  type DescMessage,
  type JsonValue,
  type MessageShape,
} from "@bufbuild/protobuf";
import { isWrapperDesc } from "@bufbuild/protobuf/wkt";
import { anyFromJsonInternal } from "./any-json.js";
import { durationParse } from "../wkt/duration.js";
import { errorAsType, WktJsonError } from "../errors.js";
import { fieldMaskParse } from "../wkt/field-mask.js";
import { enumJsonNameClash, enumJsonNameError, enumNumberFromJson, enumValuesByName } from "../wkt/enum.js";
import { describe } from "../internal/describe.js";
import {
  bigintCost,
  boxedNumberCost,
  bytesCost,
  earned,
  extensionCost,
  jsonArrayCost,
  jsonObjectCost,
  keyedCost,
  oneofCaseCost,
  slotCost,
  valuesError,
} from "../internal/budget.js";
import {
  anyTypeName,
  durationTypeName,
  emptyTypeName,
  fieldMaskTypeName,
  listValueTypeName,
  nullValueTypeName,
  structTypeName,
  timestampTypeName,
  valueTypeName,
  wktPackagePrefix,
} from "../internal/names.js";
import { copyJsonObject, jsonCopyCharge, setOwn } from "../internal/json-value.js";
import { prototypeIsClean } from "../internal/objects.js";
import {
  jsonPathSegments,
  locateJsonPath,
  locateJsonPaths,
  numberLiteralAt,
  parseJsonText,
  takeInexactIntegers,
  type JsonTextLocation,
  type JsonTextParseOptions,
} from "./json-text.js";
import type { InexactIntegers } from "./json-text.js";
import { judgeInexact } from "./inexact-integers.js";
import {
  mapKeyFromJson,
  roundedFractionDetail,
  floatLiteralRangeError,
  scalarFromJson,
  scalarReader,
  scalarTypeName,
  scalarZero,
} from "../internal/scalar.js";
import { defaultMaxDepth } from "../limits.js";
import { isWellFormed } from "../internal/utf16.js";
import { maxDepthError } from "../internal/depth-error.js";
import { stackOverflowAsDepth, textDepthBound } from "./depth-errors.js";
import { extensionAsField } from "./extension-field.js";
import { nullIsValue, structIsPlainJson, wrapperIsUnboxed } from "../internal/field-form.js";
import {
  extensionOfKey,
  fieldKeys,
  givenBefore,
  givenTwiceError,
  unknownFieldError,
  type FieldKey,
} from "./field-keys.js";
import {
  makeContext,
  parseJsonTextForCodec,
  skipped,
  textParseOptions,
  type JsonReadOptions,
  type MessageReader,
  type ReadContext,
  type ValueReader,
} from "./read-context.js";
import { errorAtPath } from "../path.js";
import { basePathOf, errorAtBase } from "../internal/base-path.js";
import { optionsTypeName } from "../internal/options.js";
import { notFiniteLiteralError } from "../internal/not-finite.js";
import { checkFieldKeys } from "../internal/field-keys.js";
import { isRequiredField } from "./to-json-plan.js";
import { reservedKeys } from "./reserved-names.js";
import { structFamilyFromText } from "./struct-text.js";
import { zeroMessageAt, zeroMessageCost, zeroShapeRoot, zeroShapeStep, type ZeroShape } from "./zero-message.js";
import { listValueFromJsonInternal, structFromJsonInternal, valueFromJsonInternal } from "../wkt/struct-decode.js";
import { timestampParse } from "../wkt/timestamp.js";

export type { JsonReadOptions } from "./read-context.js";

/**
 * Decodes a message from its proto3 JSON value (what `JSON.parse` returns).
 *
 * @throws {WktJsonError} with the JSON path from the root and the rule broken: `json-type`, `syntax`,
 *   `range`, `unknown-field`, `duplicate-field` (also for a message type in which one JSON key names two
 *   fields, at the path of its value), `oneof`, `enum`, `utf16`, `depth`, `type-url`, `unknown-type`, and those
 *   of the well-known types; `required` at the path of a proto2 required field the JSON leaves out (unless
 *   `allowPartial`); `size` beyond `maxValues`. Paths are from the root, or from the `path` option when given
 *   (rule `range` for a `path` that is not a JSON path).
 * @example
 * const ts = fromJson(TimestampSchema, "2024-04-12T00:00:00Z");
 * ts.seconds; //=> 1712880000n
 * fromJson(TestSchema, { repeatedTimestamp: ["x"] }); // throws WktJsonError (rule "syntax", jsonPath "$.repeatedTimestamp[0]")
 */
export function fromJson<Desc extends DescMessage>(
  schema: Desc,
  json: JsonValue,
  options?: Partial<JsonReadOptions>,
): MessageShape<Desc> {
  if (options === undefined) {
    // A leaf well-known type (Timestamp, Duration, FieldMask, a wrapper) without options is its own function:
    // no context, no reader lookup (see LeafReader).
    const leaf = schema === leafDesc ? leafRead : leafReaderOf(schema);
    if (leaf !== undefined) return leaf(json, false) as MessageShape<Desc>;
  }
  const ctx = makeContext(options, false);
  const base = options === undefined ? "$" : basePathOf(options, optionsTypeName);
  try {
    return rootMessage(schema, readerFor(schema)(json, ctx)) as MessageShape<Desc>;
  } catch (e) {
    throw errorAtBase(stackOverflowAsDepth(e, schema.typeName, ctx.maxDepth), base);
  }
}

/**
 * Decodes a message from proto3 JSON text. Unlike `JSON.parse`, keeps every digit of an unquoted 64-bit
 * integer and rejects duplicate object keys; errors also carry `line` and `column` of the offending value.
 *
 * @throws {WktJsonError} as {@link fromJson}, plus `syntax` for text that is not JSON, `duplicate-field` for a
 *   repeated key, `size` beyond `maxLength` or `maxValues`.
 * @example
 * fromJsonString(Int64ValueSchema, "9223372036854775807").value; //=> 9223372036854775807n
 * fromJsonString(TimestampSchema, '"2024-02-30T00:00:00Z"'); // throws WktJsonError (rule "range", line 1, column 1)
 * // A JSON document sent in the form field "Definition": errors are reported under it.
 * fromJsonString(FlowSchema, '{"states": 1}', { path: "$.Definition" });
 * // throws WktJsonError (jsonPath "$.Definition.states", path ["Definition", "states"], line 1, column 12)
 */
export function fromJsonString<Desc extends DescMessage>(
  schema: Desc,
  json: string,
  options?: Partial<JsonReadOptions>,
): MessageShape<Desc> {
  if (options === undefined && typeof json === "string") {
    const leaf = schema === leafDesc ? leafRead : leafReaderOf(schema);
    if (leaf !== undefined) {
      // The text parser gives a leaf's JSON (a string or a number, as JSON.parse does) in a few steps; its
      // errors, and the leaf's with their line and column, are the long way's below.
      let m: unknown;
      try {
        const v = parseJsonText(json, leafParseOptions);
        // An inexact integer literal (1e-400) is judged the long way.
        m = takeInexactIntegers() === undefined ? leaf(v, true) : undefined;
      } catch {
        m = undefined;
      }
      if (m !== undefined) return m as MessageShape<Desc>;
    }
  }
  const ctx = makeContext(options, true);
  const parseOptions = textParseOptions(ctx.maxDepth, options?.maxLength);
  const base = options === undefined ? "$" : basePathOf(options, optionsTypeName);
  const maxLength = parseOptions.maxLength;
  if (
    structFamily.has(schema.typeName) &&
    typeof json === "string" &&
    (maxLength === undefined || json.length <= maxLength)
  ) {
    // One walk over JSON.parse's tree; any text it cannot vouch for takes the long way below, which decides.
    const m = structFamilyFromText(schema.typeName, json, ctx.maxDepth, ctx.maxValues, ctx.perCodeUnit);
    if (m !== undefined) return m as unknown as MessageShape<Desc>;
  }
  try {
    const value = parseJsonTextForCodec(json, parseOptions, ctx.maxDepth);
    return readParsed(schema, json, value, takeInexactIntegers(), ctx) as MessageShape<Desc>;
  } catch (e) {
    throw errorAtBase(e, base);
  }
}

/**
 * {@link fromJsonString}'s read of the value its parser gave for `text` (or of a copy of it with members taken
 * out, which holds no inexact literal the value did not: `inexact` is then undefined), errors with their line
 * and column in `text`.
 */
function readParsed(
  schema: DescMessage,
  text: string,
  value: unknown,
  inexact: InexactIntegers | undefined,
  ctx: ReadContext,
): Record<string, unknown> {
  ctx.forIn = prototypeIsClean();
  try {
    // Literals like 1e-400 are refused by integer readers by their text: see inexact-integers.ts.
    if (inexact !== undefined) judgeInexact(text, value, inexact, (v) => readerFor(schema)(v, { ...ctx }));
    return rootMessage(schema, readerFor(schema)(value, ctx));
  } catch (caught) {
    const e = stackOverflowAsDepth(caught, schema.typeName, ctx.maxDepth);
    if (e instanceof WktJsonError && e.line === undefined) {
      const at = locateJsonPath(text, e.jsonPath) ?? locateMissing(text, e);
      if (at !== undefined) {
        e.line = at.line;
        e.column = at.column;
        // A number beyond a double's range is told as the text wrote it (1e400), not as the Infinity it reads as:
        // in a Value (not-finite), and in a double or float (range).
        if (e.rule === "not-finite") throw notFiniteLiteralError(e, numberLiteralAt(text, at.offset));
        if (e.rule === "range") throw floatLiteralRangeError(e, numberLiteralAt(text, at.offset));
      }
    }
    throw e;
  }
}

/**
 * @internal The message a reader gave for the root of a call: an Any left out under `unresolvedAny: "skip"` (the
 * reader's {@link skipped}) is the empty Any there, as nothing holds it.
 *
 * @example
 * rootMessage(AnySchema, skipped as never); //=> create(AnySchema)
 */
export function rootMessage(schema: DescMessage, m: Record<string, unknown>): Record<string, unknown> {
  return (m as unknown) === skipped ? (create(schema) as Record<string, unknown>) : m;
}

/**
 * @internal A JSON text parsed once as {@link fromJsonString} parses it, for the text entry points of mask/
 * (PATCH and create bodies), which walk the value and may decode it twice (again without the members they
 * drop): `value` is the parsed text (integers beyond 2^53 exact, duplicate keys refused), and `decode` reads it,
 * or such a copy of it, as fromJsonString reads the text, errors with their line and column.
 */
export interface TextValue {
  readonly value: JsonValue;
  readonly decode: (schema: DescMessage, value: JsonValue, options: Partial<JsonReadOptions> | undefined) => unknown;
}

/**
 * @internal Parses `text` as {@link fromJsonString} does, its options checked first (`maxLength`, `maxDepth` and
 * the others); see {@link TextValue}.
 *
 * @throws {WktJsonError} as fromJsonString for text that is not JSON, a repeated key, `maxLength`, and options.
 * @example
 * const body = parseTextValue('{"title": "Dune", "title": "x"}', undefined); // throws WktJsonError (rule "duplicate-field")
 * const ok = parseTextValue("9007199254740993", undefined);
 * (ok.decode(Int64ValueSchema, ok.value, undefined) as Int64Value).value; //=> 9007199254740993n
 */
export function parseTextValue(text: string, options: Partial<JsonReadOptions> | undefined): TextValue {
  const ctx = makeContext(options, true);
  const value = parseJsonTextForCodec(text, textParseOptions(ctx.maxDepth, options?.maxLength), ctx.maxDepth);
  const inexact = takeInexactIntegers();
  return {
    value: value as JsonValue,
    decode: (schema, v, o) => readParsed(schema, text, v, v === value ? inexact : undefined, makeContext(o, true)),
  };
}

/**
 * Where a required field the text leaves out is missing: the object that lacks it (the error's path names the
 * member, which the text does not have).
 */
function locateMissing(text: string, e: WktJsonError): JsonTextLocation | undefined {
  if (e.rule !== "required") return undefined;
  const segments = jsonPathSegments(e.jsonPath);
  return segments === undefined ? undefined : locateJsonPaths(text, [segments.slice(0, -1)])[0];
}

/**
 * @internal What decoding `json` costs of the budget (see JsonReadOptions.maxValues), for measurements and
 * tests: `charged`, the units of 8 bytes the result was charged, and `earned`, the code units of JSON text
 * that the value earned credit for (never more than its shortest text). With the default budget a call may
 * charge `defaultMaxValues + defaultMaxValuesPerCodeUnit * earned` (each prefix of the walk within it).
 *
 * @example
 * budgetOf(ListValueSchema, [1, 2]); //=> { charged: 35, earned: 4 }
 */
export function budgetOf(
  schema: DescMessage,
  json: unknown,
  options?: Partial<JsonReadOptions>,
): { charged: number; earned: number } {
  const run = (perCodeUnit: number): number => {
    const ctx = { ...makeContext({ ...options, maxValues: Infinity }, false), perCodeUnit };
    readerFor(schema)(json, ctx);
    return ctx.values;
  };
  const charged = run(0);
  return { charged, earned: charged - run(1) };
}

/** Struct, Value and ListValue: {@link fromJsonString} decodes them by `structFamilyFromText` first. */
const structFamily = new Set([structTypeName, valueTypeName, listValueTypeName]);

const readers = new WeakMap<DescMessage, MessageReader>();

/** @internal Returns the compiled reader of a message type, compiling it on first use. */
export function readerFor(desc: DescMessage): MessageReader {
  let reader = readers.get(desc);
  if (reader === undefined) reader = compileMessage(desc);
  return reader;
}

/** Enters one level of message nesting, and spends the message's `cost` (see zeroMessageCost) of the budget. */
function enter(ctx: ReadContext, typeName: string, cost: number): void {
  if (++ctx.depth > ctx.maxDepth) {
    throw maxDepthError(typeName, ctx.maxDepth);
  }
  if ((ctx.values += cost) > ctx.maxValues) throw valuesError(typeName, ctx);
}

function compileMessage(desc: DescMessage): MessageReader {
  const wkt = compileWkt(desc);
  if (wkt !== undefined) {
    readers.set(desc, wkt);
    return wkt;
  }
  // A type in which one JSON key names two fields is refused before its reader is registered, so that every
  // read of it (at any depth, in any call) meets the error at the path of its value.
  checkFieldKeys(desc);
  const typeName = desc.typeName;
  const entries = new Map<string, FieldEntry>();
  // What a message costs (set below, once the reader is registered): made, and made by create() instead.
  let cost = 0;
  let upgrade = 0;
  const reader: MessageReader = (json, ctx) => {
    if (typeof json !== "object" || json === null || Array.isArray(json)) {
      throw new WktJsonError("json-type", "$", typeName, `expected an object, got ${describe(json)}`);
    }
    enter(ctx, typeName, cost);
    const obj = json as Record<string, unknown>;
    if (ctx.forIn === true) return readForIn(obj, ctx);
    const keys = Object.keys(obj);
    // A copy of the zero message is made in half the time of create() for a message of many members, and
    // wins for a message that sets few of them; create()'s dictionary fills as fast when many are set.
    // (TestAllTypesProto3 of 2-16 fields: 0.46-0.59 of the time; more: the same.) V8 turns a copy into a
    // dictionary, copying every member, when a member is added, so the members the keys add (message fields,
    // explicit presence) are in the copy from the start, and those left unset are deleted below.
    const shape = keys.length > 16 || root === undefined ? undefined : membersAdded(keys, root);
    const message =
      (shape === undefined ? undefined : zeroMessageAt(shape)) ?? (create(desc) as Record<string, unknown>);
    let key = "";
    // Keys so far that named a field by its proto name where the JSON name differs.
    let aliases = 0;
    // What the message costs more if made by create(), charged at the first member that may make it so.
    let up = upgrade;
    try {
      for (let i = 0; i < keys.length; i++) {
        key = keys[i]!;
        const entry = entries.get(key);
        if (entry === undefined) {
          unknownMember(message, obj, key, ctx);
          continue;
        }
        // A JSON name can only follow its proto name if some proto name came before.
        if (entry.otherName !== undefined && (entry.isProtoName ? ++aliases > 0 : aliases > 0)) {
          checkGivenOnce(entry, obj, keys, i, key);
        }
        const v = obj[key];
        if (entry.adds || i >= 16) {
          ctx.values += up;
          up = 0;
        }
        if ((ctx.values += memberCharge(entry, key, v, ctx)) > ctx.maxValues) throw valuesError(typeName, ctx);
        entry.read(message, v, ctx);
      }
    } catch (e) {
      throw errorAtPath(e, key);
    }
    if (shape !== undefined) deleteUnset(message, shape);
    if (required !== undefined && !ctx.allowPartial) checkRequired(message, required);
    ctx.depth--;
    return message;
  };
  /** The reader's body for a JSON object whose members `for...in` lists (see {@link ReadContext.forIn}). */
  const readForIn = (obj: Record<string, unknown>, ctx: ReadContext): Record<string, unknown> => {
    const shape = root === undefined ? undefined : membersAddedIn(obj, root);
    const message =
      (shape === undefined ? undefined : zeroMessageAt(shape)) ?? (create(desc) as Record<string, unknown>);
    let key = "";
    let aliases = 0;
    let up = upgrade;
    let i = 0; // index of `key` among the keys
    try {
      for (const k in obj) {
        key = k;
        const entry = entries.get(k);
        if (entry === undefined) {
          unknownMember(message, obj, k, ctx);
          i++;
          continue;
        }
        if (entry.otherName !== undefined && (entry.isProtoName ? ++aliases > 0 : aliases > 0)) {
          checkGivenOnce(entry, obj, undefined, i, k);
        }
        const v = obj[k];
        if (entry.adds || i >= 16) {
          ctx.values += up;
          up = 0;
        }
        if ((ctx.values += memberCharge(entry, k, v, ctx)) > ctx.maxValues) throw valuesError(typeName, ctx);
        entry.read(message, v, ctx);
        i++;
      }
    } catch (e) {
      throw errorAtPath(e, key);
    }
    if (shape !== undefined) deleteUnset(message, shape);
    if (required !== undefined && !ctx.allowPartial) checkRequired(message, required);
    ctx.depth--;
    return message;
  };
  /**
   * A key that names no field: an extension of this type the registry knows (`[full.name]`), else skipped
   * under ignoreUnknownFields (or, a reserved name of the type, under ignoreReservedNames), else rule
   * `unknown-field`.
   */
  const unknownMember = (
    message: Record<string, unknown>,
    obj: Record<string, unknown>,
    key: string,
    ctx: ReadContext,
  ): void => {
    const ext = extensionOfKey(key, ctx.registry, typeName);
    if (ext !== undefined) readExtension(message, ext, obj[key], ctx);
    else if (!ctx.ignoreUnknownFields && !(ctx.ignoreReservedNames && reserved?.has(key) === true)) {
      throw unknownFieldError(typeName, key);
    }
  };
  /** {@link membersAdded} of the keys `for...in` lists, and undefined beyond 16 keys. */
  const membersAddedIn = (obj: Record<string, unknown>, shape: ZeroShape): ZeroShape | undefined => {
    let count = 0;
    let at: ZeroShape | undefined = shape;
    for (const k in obj) {
      if (++count > 16) return undefined;
      const entry = entries.get(k);
      if (entry === undefined) return undefined;
      if (entry.adds && (at = zeroShapeStep(at, entry.index, entry.field.localName)) === undefined) return undefined;
    }
    return at;
  };
  /**
   * The list of the members that the fields of `keys` add to a zero message, in order (see ZeroShape), walked
   * from `shape`; undefined when a key names no field (an extension, or an unknown field) or the list is past
   * what zero messages are copied for: left to create().
   */
  const membersAdded = (keys: readonly string[], shape: ZeroShape): ZeroShape | undefined => {
    let at: ZeroShape | undefined = shape;
    for (let i = 0; i < keys.length; i++) {
      const entry = entries.get(keys[i]!);
      if (entry === undefined) return undefined;
      if (entry.adds && (at = zeroShapeStep(at, entry.index, entry.field.localName)) === undefined) return undefined;
    }
    return at;
  };
  /** The empty list of added members (zeroShapeRoot); undefined: no zero message is copied, create(). */
  let root: ZeroShape | undefined;
  /** The required fields, checked after the members are read; undefined (one test) for most types. */
  const required = requiredFieldsOf(desc);
  /** The keys of the type's reserved names, skipped under ignoreReservedNames; undefined for most types. */
  const reserved = reservedKeys(desc);
  // Register before compiling fields, so that recursive types resolve to this reader.
  readers.set(desc, reader);
  root = zeroShapeRoot(desc);
  ({ enter: cost, upgrade } = zeroMessageCost(desc));
  const zero = create(desc);
  const reads = desc.fields.map((field) => compileField(field));
  for (const { key, field, index, otherName, isProtoName } of fieldKeys(desc)) {
    const adds = field.oneof === undefined && !Object.prototype.hasOwnProperty.call(zero, field.localName);
    entries.set(key, { field, index, read: reads[index]!, otherName, isProtoName, adds, cost: fieldCost(field, adds) });
  }
  return reader;
}

/**
 * @internal What setting a field costs of the budget, its value's own message or list apart: a member the zero
 * message lacks, a oneof's holder, and a bigint, a Uint8Array or a boxed double (see internal/budget.ts).
 */
export function fieldCost(field: DescField, adds: boolean): number {
  if (field.fieldKind === "list" || field.fieldKind === "map") return 0;
  let c = adds ? 3 : 0;
  if (field.oneof !== undefined) c += oneofCaseCost;
  const scalar =
    field.fieldKind === "scalar"
      ? field
      : field.fieldKind === "message" && wrapperIsUnboxed(field, field.message, false)
        ? field.message.fields[0]!
        : undefined;
  if (scalar !== undefined && scalar.fieldKind === "scalar") c += scalarCost(scalar.scalar, scalar.longAsString);
  return c;
}

/**
 * @internal What the reader of `desc` charges on entering a message of it: the message (zeroMessageCost) and,
 * for a well-known type read from a string or number, the bigint or Uint8Array of its fields.
 */
export function messageEnterCost(desc: DescMessage): number {
  let cost = zeroMessageCost(desc).enter;
  if (desc.typeName.startsWith(wktPackagePrefix)) {
    for (const f of desc.fields) if (f.fieldKind === "scalar") cost += scalarCost(f.scalar, f.longAsString);
  }
  return cost;
}

/** @internal What an element of a repeated field costs of the budget: its slot, and a bigint or a Uint8Array. */
export function listItemCost(field: DescField & { fieldKind: "list" }): number {
  if (field.listKind !== "scalar") return slotCost; // a message's own reader charges it; an enum is a number
  const t = field.scalar;
  // A list of doubles holds them unboxed.
  return slotCost + (t === ScalarType.DOUBLE || t === ScalarType.FLOAT ? 0 : scalarCost(t, field.longAsString));
}

/** @internal What an entry of a map costs of the budget: its member, and a bigint, a Uint8Array or a boxed double. */
export function mapEntryCost(field: DescField & { fieldKind: "map" }): number {
  return keyedCost + (field.mapKind === "scalar" ? scalarCost(field.scalar, false) : 0);
}

/** What a scalar value costs in a message's member: a bigint, a Uint8Array, a boxed double; else nothing. */
function scalarCost(t: ScalarType, longAsString: boolean): number {
  switch (t) {
    case ScalarType.INT64:
    case ScalarType.UINT64:
    case ScalarType.SINT64:
    case ScalarType.FIXED64:
    case ScalarType.SFIXED64:
      return longAsString ? 0 : bigintCost;
    case ScalarType.BYTES:
      return bytesCost;
    case ScalarType.DOUBLE:
    case ScalarType.FLOAT:
      return boxedNumberCost;
  }
  return 0;
}

/**
 * @internal What a message's member `key` with value `v` costs of the budget, less what its text earns (its key,
 * quotes, colon and separator, and a string value's length; see internal/budget.ts's `earned`).
 */
export function memberCharge(entry: { readonly cost: number }, key: string, v: unknown, ctx: ReadContext): number {
  const text = key.length + earned.member + (typeof v === "string" ? v.length + earned.string : 0);
  return entry.cost - ctx.perCodeUnit * text;
}

/**
 * Throws rule `duplicate-field` if the field of `entry` (the key `keys[i]`, or the i-th key `for...in` lists
 * when `keys` is undefined) was given before under its other name ({@link givenBefore}).
 */
function checkGivenOnce(
  entry: FieldEntry,
  obj: Record<string, unknown>,
  keys: readonly string[] | undefined,
  i: number,
  key: string,
): void {
  if (givenBefore(obj, keys, entry.otherName!, i)) throw givenTwiceError(entry, key);
}

const requiredFields = new WeakMap<DescMessage, readonly DescField[] | null>();

/**
 * @internal The fields of a message type that are proto2 `required` (editions: LEGACY_REQUIRED; see
 * isRequiredField), or undefined when it has none: found once per type, so that a type without them pays one
 * test per message read.
 */
export function requiredFieldsOf(desc: DescMessage): readonly DescField[] | undefined {
  let fields = requiredFields.get(desc);
  if (fields === undefined) {
    const found = desc.fields.filter(isRequiredField);
    fields = found.length > 0 ? found : null;
    requiredFields.set(desc, fields);
  }
  return fields ?? undefined;
}

const requiredBelow = new WeakMap<DescMessage, boolean>();

/**
 * @internal Whether a message of this type can hold a proto2 required (editions LEGACY_REQUIRED) field, in
 * itself or in a message below it (not inside an Any, whose contents are checked when it is read): found once
 * per type, so that a PATCH or an HTTP request of a type without them costs one lookup.
 */
export function mayHoldRequired(desc: DescMessage): boolean {
  let has = requiredBelow.get(desc);
  if (has === undefined) {
    has = false;
    const seen = new Set<DescMessage>([desc]);
    const queue = [desc];
    for (let i = 0; i < queue.length && !has; i++) {
      if (requiredFieldsOf(queue[i]!) !== undefined) has = true;
      for (const f of queue[i]!.fields) {
        const m = f.message;
        if (m !== undefined && !seen.has(m)) {
          seen.add(m);
          queue.push(m);
        }
      }
    }
    requiredBelow.set(desc, has);
  }
  return has;
}

/**
 * Throws rule `required` at the first of `required` that the message read leaves unset (at its JSON name: the
 * member the client left out). protobuf-go refuses such JSON unless `AllowPartial` (proto.CheckInitialized);
 * `toJson` and `toBinary` refuse to write the message, so the reader refuses it as well. With explicit
 * presence, a field is set when its member is (a proto2 default lives on the prototype).
 */
function checkRequired(message: Record<string, unknown>, required: readonly DescField[]): void {
  for (let i = 0; i < required.length; i++) {
    const f = required[i]!;
    if (!Object.prototype.hasOwnProperty.call(message, f.localName) || message[f.localName] === undefined) {
      throw errorAtPath(requiredMissingError(f), f.jsonName);
    }
  }
}

/** @internal The error of a required field the JSON leaves out: rule `required` at `$` (the caller adds the field). */
export function requiredMissingError(field: DescField): WktJsonError {
  return new WktJsonError(
    "required",
    "$",
    field.parent.typeName,
    `the required field ${field.name} is missing (allowPartial accepts it)`,
  );
}

/**
 * Deletes the members a zero message copy added (see ZeroShape) that reading left unset: a field is not set by
 * null (except a Value), nor by an enum name skipped under ignoreUnknownFields.
 */
function deleteUnset(message: Record<string, unknown>, shape: ZeroShape): void {
  const added = shape.added;
  for (let i = 0; i < added.length; i++) if (message[added[i]!] === undefined) delete message[added[i]!];
}

/**
 * Extensions: "[fully.qualified.extension]" keys name an extension field the registry knows. The value is
 * read like an ordinary field into protobuf-es's extension container, then set on the message.
 */
function readExtension(message: Record<string, unknown>, ext: DescExtension, json: unknown, ctx: ReadContext): void {
  if ((ctx.values += extensionCost) > ctx.maxValues) throw valuesError(ext.extendee.typeName, ctx);
  const local: Record<string, unknown> = ext.fieldKind === "list" ? { value: [] } : {};
  let read = extensionReaders.get(ext);
  if (read === undefined) {
    read = compileField(extensionAsField(ext));
    extensionReaders.set(ext, read);
  }
  read(local, json, ctx);
  if (local["value"] !== undefined) setExtension(message as never, ext, local["value"] as never);
}

const extensionReaders = new WeakMap<DescExtension, FieldReader>();

/** A key that names a field (see {@link fieldKeys}; `index` is what zeroShapeStep takes), with its reader. */
interface FieldEntry extends Omit<FieldKey, "key"> {
  readonly read: FieldReader;
  /** Whether reading the field adds a member the zero message lacks (a message field, explicit presence). */
  readonly adds: boolean;
  /** What setting it costs of the budget ({@link fieldCost}). */
  readonly cost: number;
}

type FieldReader = (message: Record<string, unknown>, json: unknown, ctx: ReadContext) => void;

function compileField(field: DescField): FieldReader {
  const local = field.localName;
  switch (field.fieldKind) {
    case "list": {
      const readItem = compileValue(field, field.listKind === "message" ? field.message : undefined, true);
      const nullable = nullIsValue(field);
      const itemCost = listItemCost(field);
      return (message, json, ctx) => {
        if (json === null) return;
        if (!Array.isArray(json)) {
          throw new WktJsonError("json-type", "$", field.parent.typeName, `expected an array, got ${describe(json)}`);
        }
        const n = json.length;
        if ((ctx.values += n * (itemCost - earned.element * ctx.perCodeUnit)) > ctx.maxValues) {
          throw valuesError(field.parent.typeName, ctx);
        }
        const items = message[local] as unknown[];
        let i = 0;
        try {
          for (; i < n; i++) {
            const item: unknown = json[i];
            if (typeof item === "string") ctx.values -= ctx.perCodeUnit * (item.length + earned.string);
            if (item === null && !nullable) {
              throw new WktJsonError("json-type", "$", field.parent.typeName, "a list item cannot be null");
            }
            const v = readItem(item, ctx);
            if (v !== skipped) items.push(v);
          }
        } catch (e) {
          throw errorAtPath(e, i);
        }
      };
    }
    case "map": {
      const readValue = compileValue(field, field.mapKind === "message" ? field.message : undefined, true);
      const keyType = field.mapKey;
      const nullable = nullIsValue(field);
      const entry = { cost: mapEntryCost(field) };
      return (message, json, ctx) => {
        if (json === null) return;
        if (typeof json !== "object" || Array.isArray(json)) {
          throw new WktJsonError("json-type", "$", field.parent.typeName, `expected an object, got ${describe(json)}`);
        }
        const record = message[local] as Record<string, unknown>;
        const obj = json as Record<string, unknown>;
        const keys = Object.keys(obj);
        let key = "";
        // Whether a key so far was not in canonical form ("-0", "01"). Keys of one object are unique, so two
        // keys can name one entry only if one of them is not canonical.
        let aliased = false;
        try {
          for (let i = 0; i < keys.length; i++) {
            key = keys[i]!;
            const item = obj[key];
            if ((ctx.values += memberCharge(entry, key, item, ctx)) > ctx.maxValues) {
              throw valuesError(field.parent.typeName, ctx);
            }
            const k = mapKeyFromJson(keyType, key);
            if (k !== key) aliased = true;
            if (aliased && Object.prototype.hasOwnProperty.call(record, k)) {
              throw new WktJsonError(
                "duplicate-field",
                "$",
                field.parent.typeName,
                `map key ${JSON.stringify(k)} is given twice`,
              );
            }
            if (item === null && !nullable) {
              throw new WktJsonError("json-type", "$", field.parent.typeName, "a map value cannot be null");
            }
            const v = readValue(item, ctx);
            if (v !== skipped) setOwn(record, k, v);
          }
        } catch (e) {
          throw errorAtPath(e, key);
        }
      };
    }
    default: {
      const readValue = compileValue(field, field.fieldKind === "message" ? field.message : undefined, false);
      const nullable = nullIsValue(field);
      if (field.oneof !== undefined) {
        const oneofLocal = field.oneof.localName;
        const oneofName = field.oneof.name;
        return (message, json, ctx) => {
          // "null is accepted ... and treated as the default value": a null member of a oneof selects nothing.
          if (json === null && !nullable) return;
          const current = message[oneofLocal] as { case: string | undefined };
          if (current.case !== undefined) {
            throw new WktJsonError(
              "oneof",
              "$",
              field.parent.typeName,
              `oneof ${oneofName} is already set by another field`,
            );
          }
          const v = readValue(json, ctx);
          if (v !== skipped) message[oneofLocal] = { case: local, value: v };
        };
      }
      return (message, json, ctx) => {
        if (json === null && !nullable) return; // the field keeps its default (a fresh message has it)
        const v = readValue(json, ctx);
        if (v !== skipped && v !== undefined) message[local] = v;
      };
    }
  }
}

/**
 * @internal Compiles the reader of one value of a field (the field itself, a list item or a map value), in
 * protobuf-es's local representation: singular wrapper fields outside a oneof are unboxed to the scalar, and
 * Struct fields (outside Value) are plain JSON objects. The collect-all validator (validate.ts) reads leaves
 * with these readers, so that it applies the codec's own rules.
 */
export function compileValue(field: DescField, message: DescMessage | undefined, inCollection: boolean): ValueReader {
  if (message !== undefined) {
    if (structIsPlainJson(field, message)) {
      return (json, ctx) => {
        const depthLeft = ctx.maxDepth - ctx.depth;
        if (ctx.exactNumbers === true && adoptedJsonObject(json, depthLeft, ctx)) return json;
        return copyJsonObject(json, depthLeft, message.typeName, ctx);
      };
    }
    if (wrapperIsUnboxed(field, message, inCollection)) {
      const scalar = message.fields[0]!;
      return (json, ctx) => {
        try {
          return readScalar(scalar.scalar!, json, scalar.longAsString, ctx);
        } catch (e) {
          throw errorAsType(e, message.typeName);
        }
      };
    }
    let read: MessageReader | undefined;
    return (json, ctx) => (read ??= readerFor(message))(json, ctx);
  }
  if (field.enum !== undefined) return compileEnum(field.enum);
  const scalar = field.scalar!;
  const longAsString =
    (field.fieldKind === "scalar" || field.fieldKind === "list") &&
    "longAsString" in field &&
    field.longAsString === true;
  if (isIntegerType(scalar)) return (json, ctx) => readScalar(scalar, json, longAsString, ctx);
  return (json) => scalarFromJson(scalar, json, longAsString);
}

/**
 * A Struct field's JSON from the text parser, taken as it is instead of copied: that tree was built for this
 * call (by `JSON.parse` or the strict parser) and nothing else holds it. Tells whether {@link copyJsonObject}
 * would copy it without an error; if so, the tree is its copy (integers beyond 2^53 turned into the numbers the
 * copy holds, in place) and the budget is charged as the copy charges it. If not, the budget is left as it was
 * and the caller copies, which throws the copy's error. One walk without allocations costs about half of the
 * copy (the 600-byte Struct of bench/cases/flow.ts: 2.7 of 18.4 µs copied).
 */
function adoptedJsonObject(json: unknown, depthLeft: number, ctx: ReadContext): boolean {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return false;
  const values = ctx.values;
  let ok: boolean;
  try {
    ok = adoptedObject(json as Record<string, unknown>, depthLeft, ctx);
  } catch {
    ok = false; // a stack overflow: the copy meets it again and reports it
  }
  if (!ok) ctx.values = values;
  return ok;
}

/** {@link adoptedJsonObject} for an object inside, as copyJsonObject's `copyObject` checks it. */
function adoptedObject(json: Record<string, unknown>, depthLeft: number, ctx: ReadContext): boolean {
  if (depthLeft <= 0 || (ctx.values += jsonCopyCharge.object()) > ctx.maxValues) return false;
  const keys = Object.keys(json);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const v = json[key];
    if ((ctx.values += jsonCopyCharge.member(key, v, ctx)) > ctx.maxValues || !isWellFormed(key)) return false;
    if (typeof v === "bigint") {
      const n = Number(v);
      if (!Number.isFinite(n)) return false;
      setOwn(json, key, n);
    } else if (!adoptedValue(v, depthLeft - 1, ctx)) {
      return false;
    }
  }
  return true;
}

/** {@link adoptedJsonObject} for any value but a bigint, as copyJsonObject's `copyValue` checks it. */
function adoptedValue(json: unknown, depthLeft: number, ctx: ReadContext): boolean {
  switch (typeof json) {
    case "string":
      return isWellFormed(json);
    case "number":
      return Number.isFinite(json);
    case "boolean":
      return true;
    case "object": {
      if (json === null) return true;
      if (Array.isArray(json)) {
        if (depthLeft <= 0 || (ctx.values += jsonCopyCharge.array(json.length, ctx)) > ctx.maxValues) return false;
        for (let i = 0; i < json.length; i++) {
          const e: unknown = json[i];
          if (typeof e === "string") ctx.values += jsonCopyCharge.stringElement(e, ctx);
          if (typeof e === "bigint") {
            const n = Number(e);
            if (!Number.isFinite(n)) return false;
            json[i] = n;
          } else if (!adoptedValue(e, depthLeft - 1, ctx)) {
            return false;
          }
        }
        return true;
      }
      const proto: unknown = Object.getPrototypeOf(json);
      if (proto !== Object.prototype && proto !== null) return false;
      return adoptedObject(json as Record<string, unknown>, depthLeft, ctx);
    }
  }
  return false;
}

/** Tells whether a scalar type is one of the ten integer types. */
function isIntegerType(t: ScalarType): boolean {
  return (
    t !== ScalarType.DOUBLE &&
    t !== ScalarType.FLOAT &&
    t !== ScalarType.BOOL &&
    t !== ScalarType.STRING &&
    t !== ScalarType.BYTES
  );
}

/** Largest magnitude of a safe integer. */
const safeMax = 9007199254740991;

/**
 * Reads a scalar; for JSON from the text parser, first refuses a number beyond 2^53 in an integer field. In
 * that mode every integer beyond 2^53 that the text wrote, in any form, is an exact `bigint`, so such a number
 * is a literal with a fraction that the double rounded away (`9007199254740993.5` is the double
 * 9007199254740994) or one beyond every integer type: reading it would alter the value silently. protobuf-go
 * rejects both (it reads the literal's digits); the C++ parser rejects every non-integer literal beyond 2^53.
 */
function readScalar(t: ScalarType, json: unknown, longAsString: boolean, ctx: ReadContext): unknown {
  return ctx.exactNumbers === true ? readScalarExact(t, json, longAsString) : scalarFromJson(t, json, longAsString);
}

/** {@link readScalar} for JSON from the text parser's `exactNumbers` mode. */
function readScalarExact(t: ScalarType, json: unknown, longAsString: boolean): unknown {
  if (typeof json === "number" && !(json <= safeMax && json >= -safeMax) && isIntegerType(t)) {
    if (json < 1e40 && json > -1e40) {
      throw new WktJsonError("syntax", "$", scalarTypeName(t), roundedFractionDetail(json));
    }
    throw new WktJsonError("range", "$", scalarTypeName(t), `${json} is outside the range of ${scalarTypeName(t)}`);
  }
  return scalarFromJson(t, json, longAsString);
}

/**
 * Enums: "The name of the enum value as specified in proto is used. Parsers accept both enum names and
 * integer values." Custom JSON names of values are accepted too. An unknown name is an error, or skipped under
 * `ignoreUnknownFields`. Every enum, open or closed (proto2, `enum_type = CLOSED`), takes any int32 number
 * ({@link enumNumberFromJson}).
 */
function compileEnum(desc: DescEnum): ValueReader {
  const clash = enumJsonNameClash(desc); // protoc refuses the enum: its values are refused, at their path
  if (clash !== undefined)
    return () => {
      throw enumJsonNameError(desc, clash);
    };
  const byName = enumValuesByName(desc); // a value's custom JSON name and its proto name
  const isNullValue = desc.typeName === nullValueTypeName;
  return (json, ctx) => {
    if (json === null && isNullValue) return 0;
    if (typeof json === "string") {
      const n = byName.get(json);
      if (n !== undefined) return n;
      if (ctx.ignoreUnknownFields) return skipped;
      throw new WktJsonError("enum", "$", desc.typeName, `${JSON.stringify(json)} is not a value of the enum`);
    }
    if (typeof json === "number" || typeof json === "bigint") return enumNumberFromJson(desc, json);
    throw new WktJsonError("json-type", "$", desc.typeName, `expected an enum name or number, got ${describe(json)}`);
  };
}

/**
 * @internal The reader of a leaf well-known type (Timestamp, Duration, FieldMask, a wrapper), which needs no
 * context: one level of nesting and a cost of at most 3 values are within every default limit, so without
 * options only `exactNumbers` (JSON from the text parser) matters.
 */
type LeafReader = (json: unknown, exactNumbers: boolean) => Record<string, unknown>;

/** Leaf readers by descriptor (null for every other type), set by compileWkt. */
const leafReaders = new WeakMap<DescMessage, LeafReader | null>();
/** The leaf type read last without options, and its reader: one comparison for a run of one type. */
let leafDesc: unknown = Symbol("no descriptor"); // no value a caller can pass, not even undefined
let leafRead: LeafReader | undefined;

/** The leaf reader of a type, or undefined; compiles the type's reader first (with readerFor's errors). */
function leafReaderOf(desc: DescMessage): LeafReader | undefined {
  let leaf = leafReaders.get(desc);
  if (leaf === undefined) {
    readerFor(desc);
    leaf = leafReaders.get(desc) ?? null;
    leafReaders.set(desc, leaf);
  }
  if (leaf === null) return undefined;
  leafDesc = desc;
  leafRead = leaf;
  return leaf;
}

/** What fromJsonString's leaf path parses with: the long way's options without limits given (maxDepth 100). */
const leafParseOptions: JsonTextParseOptions = {
  maxDepth: /* @__PURE__ */ textDepthBound(defaultMaxDepth),
  exactNumbers: true,
};

/** Readers of the well-known types with a custom JSON form; each counts one level of nesting. */
function compileWkt(desc: DescMessage): MessageReader | undefined {
  const typeName = desc.typeName;
  if (!typeName.startsWith(wktPackagePrefix)) return undefined;
  const cost = messageEnterCost(desc);
  const leafOf = (read: LeafReader): MessageReader => {
    leafReaders.set(desc, read);
    return (json, ctx) => {
      enter(ctx, typeName, cost);
      const m = read(json, ctx.exactNumbers === true);
      ctx.depth--;
      return m;
    };
  };
  switch (typeName) {
    case timestampTypeName:
      return leafOf(timestampParse);
    case durationTypeName:
      return leafOf(durationParse);
    case fieldMaskTypeName:
      return leafOf(fieldMaskParse);
    case structTypeName:
      return (json, ctx) =>
        structFromJsonInternal(json, ctx.maxDepth - ctx.depth, ctx) as unknown as Record<string, unknown>;
    case valueTypeName:
      return (json, ctx) =>
        valueFromJsonInternal(json, ctx.maxDepth - ctx.depth, ctx) as unknown as Record<string, unknown>;
    case listValueTypeName:
      return (json, ctx) =>
        listValueFromJsonInternal(json, ctx.maxDepth - ctx.depth, ctx) as unknown as Record<string, unknown>;
    case anyTypeName:
      return (json, ctx) => {
        enter(ctx, typeName, cost);
        const m = anyFromJsonInternal(json, ctx, readerFor) as unknown as Record<string, unknown>;
        ctx.depth--;
        return m;
      };
    case emptyTypeName:
      return (json, ctx) => {
        if (typeof json !== "object" || json === null || Array.isArray(json)) {
          throw new WktJsonError("json-type", "$", typeName, `expected {}, got ${describe(json)}`);
        }
        enter(ctx, typeName, cost);
        const keys = Object.keys(json);
        if (keys.length > 0 && !ctx.ignoreUnknownFields) {
          const e = new WktJsonError(
            "unknown-field",
            "$",
            typeName,
            `${JSON.stringify(keys[0])} is not a field: Empty has none`,
          );
          throw errorAtPath(e, keys[0]!);
        }
        ctx.depth--;
        return { $typeName: typeName };
      };
  }
  if (isWrapperDesc(desc)) {
    const scalar = desc.fields[0]!;
    const type = scalar.scalar;
    const longAsString = scalar.longAsString;
    const zero = scalarZero(type, longAsString);
    const read = scalarReader(type, longAsString);
    const integer = isIntegerType(type);
    return leafOf((json, exactNumbers) => {
      let value: unknown = zero;
      try {
        // A null wrapper is the wrapper with the default value (as wrapperFromJson and protobuf-es read it).
        if (json !== null) value = exactNumbers && integer ? readScalarExact(type, json, longAsString) : read(json);
      } catch (e) {
        throw errorAsType(e, typeName);
      }
      return { $typeName: typeName, value };
    });
  }
  return undefined;
}
