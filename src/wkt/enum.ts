/**
 * Enum values on their own, as `@bufbuild/protobuf`'s `enumToJson`, `enumFromJson` and `isEnumJson` do them,
 * with our error.
 *
 * Proto3 JSON mapping: "enum: string. The name of the enum value as specified in proto is used. Parsers accept
 * both enum names and integer values." A value may set a custom JSON name with the option
 * `(pb.enumvalue.json).string` of google/protobuf/json_enumvalue_options.proto, which `@bufbuild/protobuf`
 * reads into `DescEnumValue.jsonName`: writers use it, readers accept it beside the proto name. protoc refuses
 * an enum whose names and custom JSON names clash (a name that would stand for two numbers); a descriptor that
 * holds one anyway is refused here too, wherever a value of it is read or written.
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

/** The field number of `(pb.enumvalue.json)` in google.protobuf.EnumValueOptions. */
const jsonEnumValueOption = 998;

/** Whether a value sets a custom JSON name (its own name included), as protoc's `HasExtension` tells. */
function hasCustomJsonName(v: DescEnumValue): boolean {
  if (enumValueJsonName(v) !== v.name) return true;
  const unknown = (v.proto?.options as { $unknown?: unknown } | undefined)?.$unknown;
  return Array.isArray(unknown) && unknown.some((u) => (u as { no?: unknown } | null)?.no === jsonEnumValueOption);
}

/** A clash of JSON names in an enum: the index of the value that clashes (in `values`) and why. */
export interface EnumJsonNameClash {
  readonly index: number;
  readonly detail: string;
}

const clashes = new WeakMap<DescEnum, EnumJsonNameClash | null>();

/**
 * @internal The first clash of JSON names among the values of an enum, or undefined: checked once per enum
 * (kept by descriptor), by protoc's rules (descriptor.cc, `CheckEnumCustomStringUniqueness`): the proto names
 * and the custom JSON names of all values are one namespace, where a string may name only values of one
 * number (aliases); and under `allow_alias` every alias of a number sets the same custom JSON name, or none.
 * A clash makes JSON ambiguous: GREEN with the custom name "BLUE" is written "BLUE" and read back as BLUE.
 * protoc refuses such an enum; a descriptor built by hand, or by an older compiler, can still hold one, and
 * the codec refuses to read or write its values ({@link enumJsonNameError}).
 */
export function enumJsonNameClash(desc: DescEnum): EnumJsonNameClash | undefined {
  let clash = clashes.get(desc);
  if (clash === undefined) {
    clash = findClash(desc) ?? null;
    clashes.set(desc, clash);
  }
  return clash ?? undefined;
}

function findClash(desc: DescEnum): EnumJsonNameClash | undefined {
  const byString = new Map<string, DescEnumValue>();
  const primary = new Map<number, DescEnumValue>();
  const values = desc.values;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const custom = hasCustomJsonName(v);
    const first = primary.get(v.number);
    if (first === undefined) primary.set(v.number, v);
    else if (hasCustomJsonName(first) !== custom || (custom && enumValueJsonName(first) !== enumValueJsonName(v))) {
      const show = (w: DescEnumValue) => (hasCustomJsonName(w) ? JSON.stringify(enumValueJsonName(w)) : "none");
      return {
        index: i,
        detail:
          `${v.name} is an alias of ${first.name} (number ${v.number}) with another custom JSON name ` +
          `(${show(v)}, ${first.name} has ${show(first)})`,
      };
    }
    const strings = custom ? [v.name, enumValueJsonName(v)] : [v.name];
    for (const s of strings) {
      const other = byString.get(s);
      if (other === undefined) byString.set(s, v);
      else if (other !== v && other.number !== v.number) {
        const whose = other.name === s ? "the name" : "the custom JSON name";
        const mine = s === v.name ? "name" : "custom JSON name";
        return {
          index: i,
          detail:
            `the ${mine} ${JSON.stringify(s)} of ${v.name} (number ${v.number}) is ${whose} of ${other.name} ` +
            `(number ${other.number}): JSON could not tell them apart`,
        };
      }
    }
  }
  return undefined;
}

/**
 * @internal The error of an enum whose values' JSON names clash ({@link enumJsonNameClash}): rule `enum` at
 * `$` (callers put it under the path of the field being read or written).
 */
export function enumJsonNameError(desc: DescEnum, clash: EnumJsonNameClash): WktJsonError {
  return new WktJsonError("enum", "$", desc.typeName, `the enum's JSON names clash: ${clash.detail}`);
}

const byReadName = new WeakMap<DescEnum, ReadonlyMap<string, number>>();

/**
 * @internal The strings that name a value of the enum when reading JSON, with the number each names: every
 * value's JSON name ({@link enumValueJsonName}) and its proto name. Built once per enum, in the order of the
 * values (each value's JSON name, then its proto name): the decoder, `mergeFromJson`, the JSON Schema and
 * {@link enumFromJson} all read names here.
 *
 * @throws {WktJsonError} rule `enum` for an enum whose JSON names clash ({@link enumJsonNameClash}): a name
 *   would stand for two numbers.
 */
export function enumValuesByName(desc: DescEnum): ReadonlyMap<string, number> {
  let m = byReadName.get(desc);
  if (m === undefined) {
    const clash = enumJsonNameClash(desc);
    if (clash !== undefined) throw enumJsonNameError(desc, clash);
    const names = new Map<string, number>();
    for (const v of desc.values) names.set(enumValueJsonName(v), v.number).set(v.name, v.number);
    byReadName.set(desc, (m = names));
  }
  return m;
}

/**
 * @internal The number an enum value written as a JSON number stands for: any int32, in an open enum and in a
 * closed one (proto2, `enum_type = CLOSED`) alike. The writers write a number no value declares as that
 * number (protobuf-es's binary reader keeps one in a repeated or map field of a closed enum), so the readers
 * take it back: what we write we read. protobuf-go does the same ("unmarshalEnum": any int32 number); the C++
 * parser takes any int32 and keeps a closed enum's undeclared number among the unknown fields; protobuf-es
 * refuses it. The conformance suite has no JSON test of an undeclared closed-enum number.
 *
 * @throws {WktJsonError} rule `enum` for a number that is not an int32 (a `bigint` is a literal beyond 2^53).
 */
export function enumNumberFromJson(desc: DescEnum, json: number | bigint): number {
  if (typeof json === "bigint" || !Number.isInteger(json) || json < -2147483648 || json > 2147483647) {
    throw new WktJsonError("enum", "$", desc.typeName, `${String(json)} is not an int32`);
  }
  return json === 0 ? 0 : json; // -0 is 0
}

/** Throws rule `enum` for an enum whose values' JSON names clash ({@link enumJsonNameClash}). */
function checkJsonNames(descEnum: DescEnum): void {
  const clash = enumJsonNameClash(descEnum);
  if (clash !== undefined) throw enumJsonNameError(descEnum, clash);
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
 * @throws {WktJsonError} rule `enum` for a number the enum does not have, or an enum whose values' JSON names
 *   clash (protoc refuses it: a name would stand for two numbers); `json-type` if `descEnum` is not an enum
 *   descriptor or `value` not a number.
 * @example
 * enumToJson(NullValueSchema, NullValue.NULL_VALUE); //=> null
 * enumToJson(FieldDescriptorProto_TypeSchema, FieldDescriptorProto_Type.STRING); //=> "TYPE_STRING"
 */
export function enumToJson<Desc extends DescEnum>(descEnum: Desc, value: EnumShape<Desc>): EnumJsonType<Desc> {
  checkEnum(descEnum);
  if (descEnum.typeName === nullValueTypeName) return null as EnumJsonType<Desc>;
  checkJsonNames(descEnum);
  if (typeof value !== "number") {
    throw new WktJsonError("json-type", "$", descEnum.typeName, `expected an enum number, got ${describe(value)}`);
  }
  const v = descEnum.value[value];
  if (v === undefined)
    throw new WktJsonError("enum", "$", descEnum.typeName, `${String(value)} is not a value of the enum`);
  return enumValueJsonName(v) as EnumJsonType<Desc>;
}

/**
 * Reads an enum value from JSON: its JSON name, its proto name or its number (any int32, as the codec reads it,
 * also one a closed enum does not declare); `null` is the enum's first value (the zero value of an open enum).
 *
 * @throws {WktJsonError} rule `enum` for a name the enum does not have, a number that is not an int32, or an
 *   enum whose values' JSON names clash (protoc refuses
 *   it: a name would stand for two numbers); `json-type` for a value that is none of those, or a `descEnum`
 *   that is not an enum descriptor.
 * @example
 * enumFromJson(FieldDescriptorProto_TypeSchema, "TYPE_STRING"); //=> 9
 * enumFromJson(FieldDescriptorProto_TypeSchema, 9); //=> 9
 */
export function enumFromJson<Desc extends DescEnum>(descEnum: Desc, json: EnumJsonType<Desc>): EnumShape<Desc> {
  checkEnum(descEnum);
  checkJsonNames(descEnum);
  const j: unknown = json;
  if (j === null) return descEnum.values[0]!.number as EnumShape<Desc>;
  if (typeof j === "string") {
    const n = enumValuesByName(descEnum).get(j);
    if (n !== undefined) return n as EnumShape<Desc>;
    throw new WktJsonError("enum", "$", descEnum.typeName, `${JSON.stringify(j)} is not a value of the enum`);
  }
  if (typeof j === "number") return enumNumberFromJson(descEnum, j) as EnumShape<Desc>;
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
