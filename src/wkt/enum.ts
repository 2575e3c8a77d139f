/**
 * Enum values on their own, as `@bufbuild/protobuf`'s `enumToJson`, `enumFromJson` and `isEnumJson` do them,
 * with our error.
 *
 * Proto3 JSON mapping: "enum: string. The name of the enum value as specified in proto is used. Parsers accept
 * both enum names and integer values." A value may set a custom JSON name with the option
 * `(pb.enumvalue.json).string` of google/protobuf/json_enumvalue_options.proto, which `@bufbuild/protobuf`
 * reads into `DescEnumValue.jsonName`: writers use it, readers accept it beside the proto name.
 * `google.protobuf.NullValue` is JSON `null`.
 *
 * @module
 */
import type { DescEnum, DescEnumValue, EnumJsonType, EnumShape } from "@bufbuild/protobuf";
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { nullValueTypeName } from "../internal/names.js";

/**
 * @internal The JSON name of an enum value: its custom JSON name, or its name. (`jsonName` came with
 * @bufbuild/protobuf's support of the option; a descriptor of an older version or built by hand lacks it.)
 */
export function enumValueJsonName(v: DescEnumValue): string {
  const j = (v as { jsonName?: unknown }).jsonName;
  return typeof j === "string" ? j : v.name;
}

const byReadName = new WeakMap<DescEnum, ReadonlyMap<string, number>>();

/**
 * @internal The strings that name a value of the enum when reading JSON, with the number each names: every
 * value's JSON name ({@link enumValueJsonName}) and its proto name. protoc refuses a custom JSON name equal to
 * another value's proto name; should one come anyway, the proto name wins. Built once per enum, in the order
 * of the values (each value's JSON name, then its proto name): the decoder, `mergeFromJson`, the JSON Schema
 * and {@link enumFromJson} all read names here.
 */
export function enumValuesByName(desc: DescEnum): ReadonlyMap<string, number> {
  let m = byReadName.get(desc);
  if (m === undefined) {
    const names = new Map<string, number>();
    for (const v of desc.values) names.set(enumValueJsonName(v), v.number).set(v.name, v.number);
    for (const v of desc.values) names.set(v.name, v.number); // the proto name wins; keeps the order
    byReadName.set(desc, (m = names));
  }
  return m;
}

function checkEnum(descEnum: DescEnum): void {
  if (
    typeof descEnum !== "object" ||
    descEnum === null ||
    descEnum.kind !== "enum" ||
    !Array.isArray(descEnum.values)
  ) {
    throw new WktJsonError("json-type", "$", "enum", `expected an enum descriptor, got ${describe(descEnum)}`);
  }
}

/**
 * The JSON form of an enum value: its JSON name (`null` for `google.protobuf.NullValue`).
 *
 * @throws {WktJsonError} rule `enum` for a number the enum does not have; `json-type` if `descEnum` is not an
 *   enum descriptor or `value` not a number.
 * @example
 * enumToJson(NullValueSchema, NullValue.NULL_VALUE); //=> null
 * enumToJson(FieldDescriptorProto_TypeSchema, FieldDescriptorProto_Type.STRING); //=> "TYPE_STRING"
 */
export function enumToJson<Desc extends DescEnum>(descEnum: Desc, value: EnumShape<Desc>): EnumJsonType<Desc> {
  checkEnum(descEnum);
  if (descEnum.typeName === nullValueTypeName) return null as EnumJsonType<Desc>;
  if (typeof value !== "number") {
    throw new WktJsonError("json-type", "$", descEnum.typeName, `expected an enum number, got ${describe(value)}`);
  }
  const v = descEnum.value[value];
  if (v === undefined)
    throw new WktJsonError("enum", "$", descEnum.typeName, `${String(value)} is not a value of the enum`);
  return enumValueJsonName(v) as EnumJsonType<Desc>;
}

/**
 * Reads an enum value from JSON: its JSON name, its proto name or its number; `null` is the enum's first
 * value (the zero value of an open enum).
 *
 * @throws {WktJsonError} rule `enum` for a name the enum does not have, a number that is not an int32, or a
 *   number a closed (proto2) enum does not declare; `json-type` for a value that is none of those, or a
 *   `descEnum` that is not an enum descriptor.
 * @example
 * enumFromJson(FieldDescriptorProto_TypeSchema, "TYPE_STRING"); //=> 9
 * enumFromJson(FieldDescriptorProto_TypeSchema, 9); //=> 9
 */
export function enumFromJson<Desc extends DescEnum>(descEnum: Desc, json: EnumJsonType<Desc>): EnumShape<Desc> {
  checkEnum(descEnum);
  const j: unknown = json;
  if (j === null) return descEnum.values[0]!.number as EnumShape<Desc>;
  if (typeof j === "string") {
    const n = enumValuesByName(descEnum).get(j);
    if (n !== undefined) return n as EnumShape<Desc>;
    throw new WktJsonError("enum", "$", descEnum.typeName, `${JSON.stringify(j)} is not a value of the enum`);
  }
  if (typeof j === "number") {
    if (!Number.isInteger(j) || j < -2147483648 || j > 2147483647) {
      throw new WktJsonError("enum", "$", descEnum.typeName, `${String(j)} is not an int32`);
    }
    if (!descEnum.open && descEnum.value[j] === undefined) {
      throw new WktJsonError("enum", "$", descEnum.typeName, `${String(j)} is not a value of the closed enum`);
    }
    return (j === 0 ? 0 : j) as EnumShape<Desc>;
  }
  throw new WktJsonError("json-type", "$", descEnum.typeName, `expected an enum name or number, got ${describe(j)}`);
}

/**
 * Tells whether a value is the JSON name of a value of the enum (its custom JSON name where it has one, as
 * `@bufbuild/protobuf`'s `isEnumJson`; `enumFromJson` also accepts the proto name).
 *
 * @throws {WktJsonError} rule `json-type` if `descEnum` is not an enum descriptor.
 * @example
 * isEnumJson(FieldDescriptorProto_TypeSchema, "TYPE_STRING"); //=> true
 * isEnumJson(FieldDescriptorProto_TypeSchema, 9); //=> false
 */
export function isEnumJson<Desc extends DescEnum>(descEnum: Desc, value: unknown): value is EnumJsonType<Desc> {
  checkEnum(descEnum);
  return typeof value === "string" && descEnum.values.some((v) => enumValueJsonName(v) === value);
}
