/**
 * Extensions in proto3 JSON: a `"[full.name]"` key names an extension field the registry knows. The reader and
 * the writer see an extension as a field of its extendee, so that their field readers and writers serve
 * extensions too.
 *
 * @module
 * @internal
 */
import type { DescExtension, DescField } from "@bufbuild/protobuf";

/**
 * @internal An extension seen as a field of its extendee stored under `value`, named `[full.name]` in JSON,
 * so that the field readers and writers serve extensions too.
 */
export function extensionAsField(ext: DescExtension): DescField {
  const key = `[${ext.typeName}]`;
  return {
    ...ext,
    kind: "field",
    parent: ext.extendee,
    localName: "value",
    name: key,
    jsonName: key,
  } as unknown as DescField;
}
