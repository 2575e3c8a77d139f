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
  type MessageShape,
  type Registry,
} from "@bufbuild/protobuf";
import { isWrapperDesc } from "@bufbuild/protobuf/wkt";
import { anyToJsonInternal } from "./any.js";
import { durationToJson } from "./duration.js";
import { errorAsType, WktJsonError } from "./errors.js";
import { checkMaxDepth, extensionAsField, stackOverflowAsDepth } from "./from-json.js";
import { fieldMaskToJson } from "./field-mask.js";
import { describe } from "./int64.js";
import { copyJsonObject, negativeZeroTake, setOwn } from "./internal/json-value.js";
import { mapKeyFromJson, scalarIsZero, scalarToJson, scalarZero } from "./internal/scalar.js";
import { isWellFormed } from "./internal/utf16.js";
import { errorAtPath } from "./path.js";
import { listValueToJsonInternal, structToJsonInternal, valueToJsonInternal } from "./struct.js";
import { timestampToJson } from "./timestamp.js";

/** Options of {@link toJson}; the names of `@bufbuild/protobuf`'s, plus a nesting limit. */
export interface JsonWriteOptions {
  /** Also emit fields with implicit presence that hold their default value (and empty lists and maps). */
  alwaysEmitImplicit: boolean;
  /** Write enum values as numbers instead of names. */
  enumAsInteger: boolean;
  /** Use the proto field names (`optional_int32`) instead of the lowerCamelCase JSON names. */
  useProtoFieldName: boolean;
  /** Resolves the message types of `google.protobuf.Any`. Well-known types need none. */
  registry?: Registry;
  /** Nesting limit (messages, Any, Struct, ListValue each count one level); default 100. */
  maxDepth: number;
}

/** Options of {@link toJsonString}. */
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
}

/** @internal A compiled writer: encodes a message of one type as a JSON value. */
export type MessageWriter = (message: unknown, ctx: WriteContext) => JsonValue;

/**
 * Encodes a message as its proto3 JSON value, ready for `JSON.stringify`.
 *
 * @throws {WktJsonError} with the JSON path and rule: `range`/`sign` for an invalid Timestamp or Duration,
 *   `not-finite` or `value-kind` for a bad google.protobuf.Value, `mask-path` for a FieldMask path that cannot
 *   round-trip, `json-type` for a value of the wrong type, `utf16` for a lone surrogate, `unknown-type` for an
 *   Any the registry cannot resolve, `depth` beyond `maxDepth`.
 * @example
 * toJson(DurationSchema, create(DurationSchema, { seconds: 1n, nanos: 500_000_000 })); //=> "1.500s"
 * toJson(TestSchema, msg, { useProtoFieldName: true }); //=> { optional_int64: "5" }
 */
export function toJson<Desc extends DescMessage>(
  schema: Desc,
  message: MessageShape<Desc>,
  options?: Partial<JsonWriteOptions>,
): JsonValue {
  return write(schema, message, makeContext(options));
}

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
 * @throws {WktJsonError} as {@link toJson}.
 * @example
 * toJsonString(TimestampSchema, timestampFromMs(0)); //=> "\"1970-01-01T00:00:00Z\""
 */
export function toJsonString<Desc extends DescMessage>(
  schema: Desc,
  message: MessageShape<Desc>,
  options?: Partial<JsonWriteStringOptions>,
): string {
  const ctx = makeContext(options);
  // Free-form JSON (Struct, Value, ListValue, Struct fields) notes a -0 number as it is written.
  negativeZeroTake();
  const json = write(schema, message, ctx);
  if (negativeZeroTake()) ctx.negativeZero = true;
  const spaces = options?.prettySpaces ?? 0;
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
  return {
    alwaysEmitImplicit: options?.alwaysEmitImplicit === true,
    enumAsInteger: options?.enumAsInteger === true,
    useProtoFieldName: options?.useProtoFieldName === true,
    registry: options?.registry,
    maxDepth: checkMaxDepth(options?.maxDepth),
    depth: 0,
    negativeZero: false,
  };
}

const writers = new WeakMap<DescMessage, MessageWriter>();

/** @internal Returns the compiled writer of a message type, compiling it on first use. */
export function writerFor(desc: DescMessage): MessageWriter {
  let writer = writers.get(desc);
  if (writer === undefined) writer = compileMessage(desc);
  return writer;
}

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
    throw new WktJsonError("json-type", "$", typeName, `expected a message ${typeName}, got ${String(actual)}`);
  }
}

/** Writes one field into `out` when it is to be written. */
type FieldWriter = (message: Record<string, unknown>, ctx: WriteContext, out: JsonObject) => void;

/** Encodes one value of a field (the field itself, a list item or a map value). */
type ValueWriter = (value: unknown, ctx: WriteContext) => JsonValue;

/** Field presence as protobuf-es numbers it (google.protobuf.FeatureSet.FieldPresence). */
const IMPLICIT = 2;

function compileMessage(desc: DescMessage): MessageWriter {
  const wkt = compileWkt(desc);
  if (wkt !== undefined) {
    writers.set(desc, wkt);
    return wkt;
  }
  const typeName = desc.typeName;
  const fields: FieldWriter[] = [];
  const writer: MessageWriter = (message, ctx) => {
    checkMessage(message, typeName);
    enter(ctx, typeName);
    const out: JsonObject = {};
    for (let i = 0; i < fields.length; i++) fields[i]!(message, ctx, out);
    if (ctx.registry !== undefined && message.$unknown !== undefined) writeExtensions(desc, message, ctx, out);
    ctx.depth--;
    return out;
  };
  writers.set(desc, writer);
  const sorted = desc.fields.concat().sort((a, b) => a.number - b.number);
  for (const field of sorted) fields.push(compileField(field));
  return writer;
}

/**
 * Extensions the registry knows are written under "[fully.qualified.extension]"; protobuf-es keeps them with
 * the unknown fields of the message.
 */
function writeExtensions(desc: DescMessage, message: Record<string, unknown>, ctx: WriteContext, out: JsonObject): void {
  const unknown = message.$unknown as readonly { no: number }[];
  const seen = new Set<number>();
  for (const { no } of unknown) {
    if (seen.has(no)) continue;
    seen.add(no);
    const ext = ctx.registry!.getExtensionFor(desc, no);
    if (ext === undefined) continue;
    let write = extensionWriters.get(ext);
    if (write === undefined) {
      write = compileField(extensionAsField(ext));
      extensionWriters.set(ext, write);
    }
    write({ value: getExtension(message as never, ext) }, ctx, out);
  }
}

const extensionWriters = new WeakMap<DescExtension, FieldWriter>();

function compileField(field: DescField): FieldWriter {
  const local = field.localName;
  const jsonName = field.jsonName;
  const protoName = field.name;
  const parentName = field.parent.typeName;
  // Writes one member; the value writer and the value are passed separately so that no closure is made per
  // write.
  const put = (ctx: WriteContext, out: JsonObject, write: ValueWriter, value: unknown): void => {
    const key = ctx.useProtoFieldName ? protoName : jsonName;
    let json: JsonValue;
    try {
      json = write(value, ctx);
    } catch (e) {
      throw errorAtPath(e, key);
    }
    if (key === "__proto__") setOwn(out, key, json);
    else out[key] = json;
  };
  switch (field.fieldKind) {
    case "list": {
      const writeItem = compileValue(field, field.listKind === "message" ? field.message : undefined, true);
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
      return (message, ctx, out) => {
        const items = message[local];
        if (!Array.isArray(items)) {
          put(ctx, out, notA, ["an array", parentName, items]);
          return;
        }
        if (items.length === 0 && !ctx.alwaysEmitImplicit) return;
        put(ctx, out, writeList, items);
      };
    }
    case "map": {
      const writeValue = compileValue(field, field.mapKind === "message" ? field.message : undefined, true);
      const keyType = field.mapKey;
      const keyTypeName = ScalarType[keyType]!.toLowerCase();
      const keyIsCanonical = compileMapKeyCheck(keyType);
      const writeMap: ValueWriter = (value, ctx) => {
        const record = value as Record<string, unknown>;
        const keys = Object.keys(record);
        const obj: JsonObject = {};
        let key = "";
        try {
          for (let i = 0; i < keys.length; i++) {
            key = keys[i]!;
            // The key must be what a reader accepts, in its canonical form ("1", not "01"; "true", not "yes").
            if (!keyIsCanonical(key)) {
              throw new WktJsonError("syntax", "$", parentName, `map key ${JSON.stringify(key)} is not a ${keyTypeName} in canonical form`);
            }
            setOwn(obj, key, writeValue(record[key], ctx));
          }
        } catch (e) {
          throw errorAtPath(e, key);
        }
        return obj;
      };
      return (message, ctx, out) => {
        const record = message[local];
        if (typeof record !== "object" || record === null || Array.isArray(record)) {
          put(ctx, out, notA, ["an object", parentName, record]);
          return;
        }
        for (const _ in record) {
          put(ctx, out, writeMap, record);
          return;
        }
        if (ctx.alwaysEmitImplicit) put(ctx, out, writeMap, record);
      };
    }
    default: {
      const writeValue = compileValue(field, field.fieldKind === "message" ? field.message : undefined, false);
      if (field.oneof !== undefined) {
        const oneofLocal = field.oneof.localName;
        return (message, ctx, out) => {
          const oneof = message[oneofLocal] as { case?: unknown; value?: unknown } | undefined;
          if (oneof?.case === local) put(ctx, out, writeValue, oneof.value);
        };
      }
      if (field.presence !== IMPLICIT) {
        return (message, ctx, out) => {
          const v = message[local];
          if (v !== undefined && Object.prototype.hasOwnProperty.call(message, local)) put(ctx, out, writeValue, v);
        };
      }
      if (field.fieldKind === "enum") {
        const zero = field.enum.values[0]?.number ?? 0;
        return (message, ctx, out) => {
          const v = message[local] ?? zero;
          if (v !== zero || ctx.alwaysEmitImplicit) put(ctx, out, writeValue, v);
        };
      }
      const scalar = field.scalar!;
      const zero = scalarZero(scalar, field.fieldKind === "scalar" && field.longAsString);
      return (message, ctx, out) => {
        const v = message[local] ?? zero;
        if (ctx.alwaysEmitImplicit || !scalarIsZero(scalar, v)) put(ctx, out, writeValue, v);
      };
    }
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

/** A value writer that reports a container of the wrong type: [what was expected, type name, the value]. */
const notA: ValueWriter = (value) => {
  const [expected, typeName, actual] = value as [string, string, unknown];
  throw new WktJsonError("json-type", "$", typeName, `expected ${expected}, got ${describe(actual)}`);
};

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
      return (value) => {
        try {
          return scalarToJson(scalar.scalar, value);
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
  if (scalar === ScalarType.DOUBLE || scalar === ScalarType.FLOAT) {
    return (value, ctx) => {
      if (value === 0 && 1 / value < 0) ctx.negativeZero = true;
      return scalarToJson(scalar, value);
    };
  }
  return (value) => scalarToJson(scalar, value);
}

/** "The name of the enum value as specified in proto is used"; a number the enum lacks is written as is. */
function compileEnum(desc: DescEnum): ValueWriter {
  const names = new Map<number, string>();
  for (const v of desc.values) if (!names.has(v.number)) names.set(v.number, v.name);
  const isNullValue = desc.typeName === "google.protobuf.NullValue";
  return (value, ctx) => {
    if (typeof value !== "number") {
      throw new WktJsonError("json-type", "$", desc.typeName, `expected an enum number, got ${describe(value)}`);
    }
    if (!Number.isInteger(value) || value < -2147483648 || value > 2147483647) {
      throw new WktJsonError("enum", "$", desc.typeName, `${value} is not an int32`);
    }
    if (isNullValue) return null;
    if (ctx.enumAsInteger) return value;
    return names.get(value) ?? value;
  };
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
      return (message, ctx) => {
        checkMessage(message, typeName);
        return structToJsonInternal(message as never, ctx.maxDepth - ctx.depth);
      };
    case "google.protobuf.Value":
      return (message, ctx) => {
        checkMessage(message, typeName);
        return valueToJsonInternal(message as never, ctx.maxDepth - ctx.depth);
      };
    case "google.protobuf.ListValue":
      return (message, ctx) => {
        checkMessage(message, typeName);
        return listValueToJsonInternal(message as never, ctx.maxDepth - ctx.depth);
      };
    case "google.protobuf.Any":
      return (message, ctx) => {
        checkMessage(message, typeName);
        enter(ctx, typeName);
        const json = anyToJsonInternal(message as never, ctx);
        ctx.depth--;
        return json;
      };
  }
  if (isWrapperDesc(desc)) {
    const scalar = desc.fields[0]!;
    const zero = scalarZero(scalar.scalar, scalar.longAsString);
    return leaf((m: { value?: unknown }) => {
      try {
        return scalarToJson(scalar.scalar, m.value ?? zero);
      } catch (e) {
        throw errorAsType(e, typeName);
      }
    });
  }
  return undefined;
}

