/**
 * Which keys of a message's JSON object name a field, per the proto3 JSON mapping: "Parsers accept both the
 * lowerCamelCase JSON name (or the one specified by the json_name option) and the original proto field name".
 * The decoder and validator (codec/field-keys.ts), the merge and patch walkers (wkt/field-access.ts) and the
 * JSON Schema all take a field's keys from here.
 *
 * @module
 * @internal
 */
import type { DescField } from "@bufbuild/protobuf";

/** @internal The keys that name `field`: its JSON name, then its proto name where that differs. */
export function keysOfField(field: DescField): [jsonName: string] | [jsonName: string, protoName: string] {
  return field.jsonName === field.name ? [field.jsonName] : [field.jsonName, field.name];
}
