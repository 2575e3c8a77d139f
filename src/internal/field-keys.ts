/**
 * Which keys of a message's JSON object name a field, per the proto3 JSON mapping: "Parsers accept both the
 * lowerCamelCase JSON name (or the one specified by the json_name option) and the original proto field name".
 * The decoder and validator (codec/field-keys.ts), the merge and patch walkers (wkt/field-access.ts) and the
 * JSON Schema all take a field's keys from here; the writer, the readers and the walkers refuse, through
 * {@link checkFieldKeys}, a message type in which one key would name two fields.
 *
 * @module
 * @internal
 */
import type { DescField, DescMessage } from "@bufbuild/protobuf";
import { WktJsonError } from "../errors.js";

/** @internal The keys that name `field`: its JSON name, then its proto name where that differs. */
export function keysOfField(field: DescField): [jsonName: string] | [jsonName: string, protoName: string] {
  return field.jsonName === field.name ? [field.jsonName] : [field.jsonName, field.name];
}

/** @internal A field's names as the clash check reads them (a DescField, or a google.protobuf.Field). */
export interface NamedField {
  readonly name: string;
  readonly jsonName: string;
}

/**
 * @internal How a field's names clash with an earlier field's: its JSON name is the other's JSON name
 * (`json`) or proto name (`json-proto`), or its proto name is the other's proto name (`proto`) or JSON name
 * (`proto-json`).
 */
export type JsonNameClashKind = "json" | "json-proto" | "proto" | "proto-json";

/** @internal A clash of names: the later field (`index`), the earlier one (`other`), and how. */
export interface JsonNameClash {
  readonly index: number;
  readonly other: number;
  readonly kind: JsonNameClashKind;
}

/**
 * @internal The first clash of names among a message's fields, each field checked against those before it (so
 * that the later field of two is the one reported), or undefined. A reader accepts a field's JSON name and its
 * proto name, so all of them are one namespace: a key two fields share would set both, and a writer would
 * write both under one member, the second value replacing the first. protoc refuses two fields of one JSON
 * name, except under `features.json_format = LEGACY_BEST_EFFORT` (proto2's default), where it lets `foo_bar`
 * beside `fooBar`, or a `json_name` that is another field's name, through. Also registryFromTypes's check.
 */
export function jsonNameClash(fields: readonly NamedField[]): JsonNameClash | undefined {
  const byJson = new Map<string, number>();
  const byProto = new Map<string, number>();
  for (let i = 0; i < fields.length; i++) {
    const { name, jsonName } = fields[i]!;
    const clash = (other: number | undefined, kind: JsonNameClashKind) =>
      other === undefined ? undefined : { index: i, other, kind };
    const found =
      clash(byJson.get(jsonName), "json") ??
      clash(byProto.get(jsonName), "json-proto") ??
      clash(byProto.get(name), "proto") ??
      clash(byJson.get(name), "proto-json");
    if (found !== undefined) return found;
    byJson.set(jsonName, i);
    byProto.set(name, i);
  }
  return undefined;
}

const checked = new WeakMap<DescMessage, WktJsonError | null>();

/**
 * @internal Throws rule `duplicate-field` (at `$`; the caller adds the path of the value being read or written)
 * for a message type in which one JSON key names two fields ({@link jsonNameClash}), naming both fields and
 * their JSON names. Checked once per type (kept by descriptor), where a reader, a writer or a walker first
 * builds its table of the type's fields: none of them may merge two fields into one member, or drop one.
 */
export function checkFieldKeys(desc: DescMessage): void {
  let e = checked.get(desc);
  if (e === undefined) {
    const clash = jsonNameClash(desc.fields);
    e = clash === undefined ? (propertyClash(desc) ?? null) : fieldKeysError(desc, clash);
    checked.set(desc, e);
  }
  if (e !== null) throw new WktJsonError(e.rule, e.jsonPath, e.typeName, e.detail);
}

/**
 * Two fields that protobuf-es holds in one property of the message (`localName`, lowerCamelCase of the proto
 * name: `foo_bar` and `fooBar`, whatever their JSON names), or two members of one oneof under one case name, or
 * a field whose property is a oneof's: one's value would overwrite the other's, in any codec.
 */
function propertyClash(desc: DescMessage): WktJsonError | undefined {
  const seen = new Map<string, string>(); // a property, or "oneof.case", and what holds it
  const claim = (key: string, what: string): WktJsonError | undefined => {
    const other = seen.get(key);
    if (other === undefined) {
      seen.set(key, what);
      return undefined;
    }
    return new WktJsonError(
      "duplicate-field",
      "$",
      desc.typeName,
      `${what} and ${other} are one property (${JSON.stringify(key)}) of protobuf-es's message: one's value ` +
        `would replace the other's (features.json_format = LEGACY_BEST_EFFORT lets protoc accept such names; the ` +
        `JSON codec refuses them)`,
    );
  };
  for (const o of desc.oneofs) {
    const e = claim(o.localName, `oneof ${o.name}`);
    if (e !== undefined) return e;
  }
  for (const f of desc.fields) {
    const key = f.oneof === undefined ? f.localName : `${f.oneof.localName}.${f.localName}`;
    const e = claim(key, `field ${f.name}`);
    if (e !== undefined) return e;
  }
  return undefined;
}

function fieldKeysError(desc: DescMessage, clash: JsonNameClash): WktJsonError {
  const f = desc.fields[clash.index]!;
  const o = desc.fields[clash.other]!;
  const names = (x: DescField) => `${x.name} (JSON name ${JSON.stringify(x.jsonName)})`;
  const shared = clash.kind === "json" || clash.kind === "json-proto" ? f.jsonName : f.name;
  const what = {
    json: "the JSON name of both",
    "json-proto": "the JSON name of the first, the proto name of the second",
    proto: "the proto name of both",
    "proto-json": "the proto name of the first, the JSON name of the second",
  }[clash.kind];
  return new WktJsonError(
    "duplicate-field",
    "$",
    desc.typeName,
    `fields ${names(f)} and ${names(o)} share the key ${JSON.stringify(shared)} (${what}): a JSON object could not tell them ` +
      `apart (features.json_format = LEGACY_BEST_EFFORT lets protoc accept such names; the JSON codec refuses them)`,
  );
}
