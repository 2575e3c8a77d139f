/**
 * Which keys of a message's JSON object name a field: "Parsers accept both the lowerCamelCase JSON name (or the
 * one specified by the json_name option) and the original proto field name", and `[full.name]` names an
 * extension the registry knows (a field's own keys are internal/field-keys.ts's `keysOfField`). A field given under both of its names is given twice. The decoder
 * (from-json.ts) and the collect-all validator (validate.ts) both decide membership here.
 *
 * @module
 * @internal
 */
import type { DescExtension, DescField, DescMessage, Registry } from "@bufbuild/protobuf";
import { WktJsonError } from "../errors.js";
import { checkFieldKeys, keysOfField } from "../internal/field-keys.js";

/** @internal A key that names a field of a message. */
export interface FieldKey {
  /** The key: the field's JSON name, or its proto name where that differs. */
  readonly key: string;
  readonly field: DescField;
  /** The index of the field in its message's `fields`. */
  readonly index: number;
  /** The field's other accepted key, when its JSON and proto names differ. */
  readonly otherName: string | undefined;
  /** Whether this key is the proto name of a field whose JSON name differs. */
  readonly isProtoName: boolean;
}

/**
 * @internal The keys that name the fields of `desc` ({@link keysOfField}), each field's JSON name first.
 *
 * @throws {WktJsonError} rule `duplicate-field` for a type in which one key names two fields (checkFieldKeys).
 */
export function fieldKeys(desc: DescMessage): FieldKey[] {
  checkFieldKeys(desc);
  const keys: FieldKey[] = [];
  desc.fields.forEach((field, index) => {
    const [jsonName, protoName] = keysOfField(field);
    keys.push({ key: jsonName, field, index, otherName: protoName, isProtoName: false });
    if (protoName !== undefined) keys.push({ key: protoName, field, index, otherName: jsonName, isProtoName: true });
  });
  return keys;
}

/**
 * @internal The extension of the message type `typeName` that a key naming no field stands for (`[full.name]`,
 * known to `registry`), or undefined.
 */
export function extensionOfKey(
  key: string,
  registry: Registry | undefined,
  typeName: string,
): DescExtension | undefined {
  if (key.charCodeAt(0) !== 91 /* [ */ || registry === undefined || !key.endsWith("]")) return undefined;
  const ext = registry.getExtension(key.slice(1, -1));
  return ext !== undefined && ext.extendee.typeName === typeName ? ext : undefined;
}

/**
 * @internal Whether the field of the i-th key of `obj` (`keys[i]`; when `keys` is undefined, the i-th key of
 * `Object.keys(obj)`), whose other name is `other`, was given before under that name: JSON keys of one object
 * are unique, so a field is given twice only under its two names, and the error is reported at the later of
 * the two, as the text parser reports a repeated key.
 */
export function givenBefore(obj: object, keys: readonly string[] | undefined, other: string, i: number): boolean {
  return Object.prototype.hasOwnProperty.call(obj, other) && (keys ?? Object.keys(obj)).indexOf(other) < i;
}

/** @internal The error of a key of a `typeName` object that names no field (rule `unknown-field`). */
export function unknownFieldError(typeName: string, key: string): WktJsonError {
  return new WktJsonError("unknown-field", "$", typeName, `${JSON.stringify(key)} is not a field`);
}

/** @internal The error of a field given under both its names, `key` the later (rule `duplicate-field`). */
export function givenTwiceError(member: Pick<FieldKey, "field" | "otherName">, key: string): WktJsonError {
  const field = member.field;
  const names = `${JSON.stringify(member.otherName)} and ${JSON.stringify(key)}`;
  const detail = `field ${field.name} is given twice, as ${names}`;
  return new WktJsonError("duplicate-field", "$", field.parent.typeName, detail);
}
