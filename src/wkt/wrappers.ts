/**
 * The nine wrappers (DoubleValue, FloatValue, Int64Value, UInt64Value, Int32Value, UInt32Value, BoolValue,
 * StringValue, BytesValue). Spec rule 1: "Wrapper types are obsolete. They remain only for wire compatibility
 * and for putting a scalar into an Any." Their JSON form is the bare JSON form of the wrapped scalar
 * (Int64Value and UInt64Value as strings, BytesValue as base64), read with the same rules as a plain scalar
 * field.
 *
 * @module
 */
import type { DescField, DescMessage, MessageShape } from "@bufbuild/protobuf";
import { isWrapperDesc, type WktWrapperDesc } from "@bufbuild/protobuf/wkt";
import { errorAsType, WktJsonError } from "../errors.js";
import { callAtBase } from "../internal/base-path.js";
import {
  boolValueTypeName,
  bytesValueTypeName,
  int64ValueTypeName,
  stringValueTypeName,
  uint64ValueTypeName,
} from "../internal/names.js";
import { notMessageError } from "../internal/message-type.js";
import { scalarReader, scalarWriter } from "../internal/scalar.js";
import { checkSchema, isMessageDesc } from "./registry.js";

/** Options of {@link wrapperFromJson} and {@link wrapperToJson}. */
export interface WrapperJsonOptions {
  /**
   * JSON path of the value in the caller's document, such as `"$.pageSize"`: an error is reported at this path
   * instead of `$`. A string starting with `$`. Default `"$"`.
   */
  path?: string | undefined;
}

/**
 * Tells whether a message descriptor is one of the nine wrappers; anything that is not a message descriptor
 * is not.
 *
 * @example
 * wrapperIsSchema(Int64ValueSchema); //=> true
 * wrapperIsSchema(TimestampSchema);  //=> false
 */
export function wrapperIsSchema(schema: DescMessage): schema is WktWrapperDesc {
  return isMessageDesc(schema) && isWrapperDesc(schema);
}

/**
 * Decodes a wrapper from its JSON form: the bare scalar. JSON `null` gives the wrapper with the zero value.
 *
 * @throws {WktJsonError} rule `json-type`, `syntax`, `range` or `utf16`, as for a scalar field of the wrapped
 *   type, at `$` or at `options.path`; `json-type` when `schema` is not a wrapper descriptor; `range` for a
 *   `path` option that is not a string starting with `$`.
 * @example
 * wrapperFromJson(Int64ValueSchema, "9223372036854775807").value; //=> 9223372036854775807n
 * wrapperFromJson(BytesValueSchema, "AQID").value; //=> Uint8Array [1, 2, 3]
 * wrapperFromJson(Int32ValueSchema, 2 ** 31, { path: "$.pageSize" }); // throws WktJsonError (rule "range", jsonPath "$.pageSize")
 */
export function wrapperFromJson<Desc extends DescMessage>(
  schema: Desc,
  json: unknown,
  options?: WrapperJsonOptions,
): MessageShape<Desc> {
  const info = wrapperInfo(schema);
  // With options, the same call runs inside callAtBase (after the schema check, whose error is not moved).
  if (options !== undefined)
    return callAtBase((j: unknown) => wrapperFromJson(schema, j), json, options, schema.typeName);
  if (json === null) return { $typeName: schema.typeName, value: info.zero() } as unknown as MessageShape<Desc>;
  let value: unknown;
  try {
    value = info.fromJson(json);
  } catch (e) {
    throw errorAsType(e, schema.typeName);
  }
  return { $typeName: schema.typeName, value } as unknown as MessageShape<Desc>;
}

/**
 * Encodes a wrapper as the bare JSON scalar.
 *
 * @throws {WktJsonError} rule `range`, `json-type` or `utf16` for a value that does not fit the wrapped type,
 *   at `$` or at `options.path`; `json-type` when `schema` is not a wrapper descriptor or `message` is not a
 *   message of it; `range` for a `path` option that is not a string starting with `$`.
 * @example
 * wrapperToJson(Int64ValueSchema, create(Int64ValueSchema, { value: 5n })); //=> "5"
 * wrapperToJson(DoubleValueSchema, create(DoubleValueSchema, { value: NaN })); //=> "NaN"
 * wrapperToJson(Int32ValueSchema, create(Int32ValueSchema, { value: 2 ** 31 }), { path: "$.pageSize" }); // throws WktJsonError (rule "range", jsonPath "$.pageSize")
 */
export function wrapperToJson<Desc extends DescMessage>(
  schema: Desc,
  message: MessageShape<Desc>,
  options?: WrapperJsonOptions,
): string | number | boolean {
  const info = wrapperInfo(schema);
  if (options !== undefined) {
    return callAtBase((m: MessageShape<Desc>) => wrapperToJson(schema, m), message, options, schema.typeName);
  }
  // A wrapper built by hand without $typeName ({ value: 5 }) is taken as one.
  if (typeof message !== "object" || message === null) throw notMessageError(message, schema.typeName);
  const actual = (message as { $typeName?: unknown }).$typeName;
  if (actual !== undefined && actual !== schema.typeName) throw notMessageError(message, schema.typeName);
  try {
    return info.toJson((message as { value?: unknown }).value ?? info.zero());
  } catch (e) {
    throw errorAsType(e, schema.typeName);
  }
}

/** What the codec needs to know of a wrapper type, worked out once per descriptor. */
interface WrapperInfo {
  readonly scalar: NonNullable<DescField["scalar"]>;
  readonly longAsString: boolean;
  /** scalarFromJson of the wrapped type (scalarReader). */
  readonly fromJson: (json: unknown) => unknown;
  /** scalarToJson of the wrapped type (scalarWriter). */
  readonly toJson: (value: unknown) => string | number | boolean;
  /** A fresh zero value (a new Uint8Array for BytesValue, so no caller shares one). */
  readonly zero: () => unknown;
}

const infos = new WeakMap<DescMessage, WrapperInfo>();
/**
 * The descriptor seen last and its info: a run of one wrapper type (the usual case) then costs one comparison
 * instead of the type-name checks of isWrapperDesc, which were a third of the time of wrapperToJson.
 */
let lastSchema: DescMessage | undefined;
let lastInfo: WrapperInfo | undefined;

function wrapperInfo(schema: DescMessage): WrapperInfo {
  if (schema === lastSchema && lastInfo !== undefined) return lastInfo;
  let info = infos.get(schema);
  if (info === undefined) {
    checkSchema(schema);
    if (!isWrapperDesc(schema)) {
      throw new WktJsonError("json-type", "$", schema.typeName, "not a wrapper type");
    }
    const field = schema.fields[0];
    const zero = zeroOf(schema.typeName);
    info = {
      scalar: field.scalar,
      longAsString: field.longAsString,
      fromJson: scalarReader(field.scalar, field.longAsString),
      toJson: scalarWriter(field.scalar),
      zero,
    };
    infos.set(schema, info);
  }
  lastSchema = schema;
  lastInfo = info;
  return info;
}

function zeroOf(typeName: string): () => unknown {
  switch (typeName) {
    case int64ValueTypeName:
    case uint64ValueTypeName:
      return () => 0n;
    case boolValueTypeName:
      return () => false;
    case stringValueTypeName:
      return () => "";
    case bytesValueTypeName:
      return () => new Uint8Array(0);
    default:
      return () => 0;
  }
}
