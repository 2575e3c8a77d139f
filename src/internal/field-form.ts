/**
 * How a field's value is held in protobuf-es's local representation and what JSON `null` means for it: the
 * rules every walker over fields and JSON needs alike (the decoder, the validator, the merge, the JSON Schema).
 * "null is accepted for all field types and treated as the default value of the corresponding field type",
 * except where null is a value: google.protobuf.Value (`null_value`) and the NullValue enum. A singular
 * wrapper field outside a oneof holds its scalar (unboxed), and a Struct field outside a Value holds a plain
 * JSON object, as protobuf-es keeps them.
 *
 * @module
 * @internal
 */
import type { DescExtension, DescField, DescMessage } from "@bufbuild/protobuf";
import { isWrapperDesc, type WktWrapperDesc } from "@bufbuild/protobuf/wkt";
import { nullValueTypeName, structTypeName, valueTypeName } from "./names.js";

/**
 * @internal Whether JSON null is a value of the field (google.protobuf.Value, NullValue; for a list or a map,
 * of its elements) rather than "default".
 */
export function nullIsValue(field: DescField | DescExtension): boolean {
  if (field.fieldKind === "map") {
    return field.mapKind === "message"
      ? field.message.typeName === valueTypeName
      : field.mapKind === "enum" && field.enum.typeName === nullValueTypeName;
  }
  if (field.message !== undefined) return field.message.typeName === valueTypeName;
  if (field.enum !== undefined) return field.enum.typeName === nullValueTypeName;
  return false;
}

/**
 * @internal Whether a value of `field` whose message type is `message` (the field itself, or with
 * `inCollection` a list item or map value) is a wrapper held as its scalar: only a singular field outside a
 * oneof is.
 */
export function wrapperIsUnboxed(
  field: DescField,
  message: DescMessage,
  inCollection: boolean,
): message is WktWrapperDesc {
  return !inCollection && field.oneof === undefined && isWrapperDesc(message);
}

/**
 * @internal Whether a value of `field` whose message type is `message` is a Struct held as a plain JSON object:
 * every Struct but Value's `struct_value`.
 */
export function structIsPlainJson(field: DescField, message: DescMessage): boolean {
  return message.typeName === structTypeName && field.parent.typeName !== valueTypeName;
}
