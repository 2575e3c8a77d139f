/**
 * google.protobuf.Any. JSON form (spec): "The embedded message's own JSON plus a field `@type` holding the
 * type URL; if the embedded type has a custom JSON form, that form is placed in a field `value` next to
 * `@type`." Any.value holds the embedded message serialized as `@bufbuild/protobuf`'s `toBinary` serializes it:
 * the well-known types by our own codec (src/internal/wkt-binary.ts, byte for byte the same, and for
 * Struct, Value and ListValue straight between JSON and bytes), other messages by `toBinary`/`fromBinary`.
 *
 * Empty is written `{"@type": ".../google.protobuf.Empty"}` and read in that form and in the legacy
 * `{"@type": ..., "value": {}}` form. An Any with neither type URL nor value is `{}`.
 *
 * A message type with a field whose JSON name (or proto name) is `@type` cannot go into an Any's JSON form:
 * its member would replace the type URL on the way out (protobuf-es writes it last, over the URL) and could not
 * be told from the URL on the way in. protoc rejects such a json_name, but a descriptor built by hand need not
 * come from protoc; both directions throw rule `type-url` for it, whether the field is set or not, so that
 * nothing is written that reads back as another type.
 *
 * @module
 */
import { type DescMessage, type MessageShape, type Registry } from "@bufbuild/protobuf";
import { hasCustomJsonRepresentation, type Any } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { anyTypeName, emptyTypeName } from "../internal/names.js";
import { wktFromBinary, wktToBinary } from "../internal/wkt-binary.js";
import { pathSegment } from "../path.js";
import { checkSchema, typeUrlFor, typeUrlPrefixDefault, typeUrlResolve } from "./registry.js";

/** Options of {@link anyPack}. */
export interface AnyPackOptions {
  /** The part of the type URL before the type name. Default `type.googleapis.com`. */
  typeUrlPrefix?: string;
}

/**
 * Packs a message into an Any: the type URL `<prefix>/<type name>` and the message's binary serialization.
 *
 * @throws {WktJsonError} rule `json-type` when `schema` is not a message descriptor, `message` is not a
 *   message of it or `typeUrlPrefix` is not a string; `binary` when the message holds a value its field cannot
 *   hold, so that it has no binary serialization.
 * @example
 * const any = anyPack(DurationSchema, durationFromJson("1.5s"), { typeUrlPrefix: "example.com/types" });
 * any.typeUrl; //=> "example.com/types/google.protobuf.Duration"
 */
export function anyPack<Desc extends DescMessage>(
  schema: Desc,
  message: MessageShape<Desc>,
  options?: AnyPackOptions,
): Any {
  const typeName = checkSchema(schema).typeName;
  if (typeof message !== "object" || message === null) {
    throw new WktJsonError("json-type", "$", typeName, `expected a message, got ${describe(message)}`);
  }
  const actual = (message as { $typeName?: unknown }).$typeName;
  if (actual !== typeName) {
    const got = typeof actual === "string" ? actual : describe(actual);
    throw new WktJsonError("json-type", "$", typeName, `expected a message ${typeName}, got ${got}`);
  }
  const typeUrl = typeUrlFor(typeName, options?.typeUrlPrefix ?? typeUrlPrefixDefault);
  let value: Uint8Array;
  try {
    value = wktToBinary(schema, message);
  } catch (e) {
    if (e instanceof WktJsonError) throw e;
    // @bufbuild/protobuf's toBinary throws its own errors for values a field cannot hold.
    const why = e instanceof Error ? `: ${e.message}` : "";
    throw new WktJsonError("binary", "$", typeName, `cannot serialize the message${why}`, { cause: e });
  }
  return { $typeName: anyTypeName, typeUrl, value } as Any;
}

/**
 * Unpacks the message an Any holds, resolving its type URL through `registry` and the well-known types.
 *
 * @throws {WktJsonError} rule `type-url`, `unknown-type`, or `binary` when Any.value is not a serialized
 *   message of the named type; `json-type` when `any` is not an object, its `typeUrl` not a string or its
 *   `value` not a Uint8Array, or `registry` is not a Registry.
 * @example
 * const msg = anyUnpack(anyPack(TimestampSchema, ts));
 * msg.$typeName; //=> "google.protobuf.Timestamp"
 */
export function anyUnpack(any: Any, registry?: Registry): MessageShape<DescMessage> {
  if (typeof any !== "object" || any === null) {
    throw new WktJsonError("json-type", "$", anyTypeName, `expected an Any, got ${describe(any)}`);
  }
  const desc = typeUrlResolve(any.typeUrl, registry);
  return anyValueDecode(desc, any.value);
}

/** @internal Decodes Any.value as a message of `desc`; rule `json-type` or `binary` when it is none. */
export function anyValueDecode(desc: DescMessage, value: unknown): MessageShape<DescMessage> {
  if (!(value instanceof Uint8Array)) {
    throw new WktJsonError("json-type", "$", anyTypeName, `Any.value must be a Uint8Array, got ${describe(value)}`);
  }
  try {
    return wktFromBinary(desc, value);
  } catch (e) {
    throw new WktJsonError("binary", "$", anyTypeName, `Any.value is not a serialized ${desc.typeName}`, { cause: e });
  }
}

const atTypeFields = new WeakMap<DescMessage, string | null>();

/**
 * @internal The name of the field of `desc` whose JSON name or proto name is `@type` (which no Any's JSON form
 * can hold, see the module comment), or `null`; worked out once per descriptor.
 */
export function anyAtTypeField(desc: DescMessage): string | null {
  let name = atTypeFields.get(desc);
  if (name === undefined) {
    name = null;
    for (const f of desc.fields) {
      if (f.jsonName === "@type" || f.name === "@type") {
        name = f.name;
        break;
      }
    }
    atTypeFields.set(desc, name);
  }
  return name;
}

/** @internal Throws rule `type-url` if `desc` has a field named `@type` in JSON (see {@link anyAtTypeField}). */
export function checkNoAtTypeField(desc: DescMessage, direction: string): void {
  const field = anyAtTypeField(desc);
  if (field !== null) {
    throw new WktJsonError(
      "type-url",
      "$",
      anyTypeName,
      `cannot ${direction} an Any of ${desc.typeName}: its field ${JSON.stringify(field)} has the JSON name "@type", ` +
        "which is the Any's type URL",
    );
  }
}

/*
 * The Any's JSON form, as decisions both walkers take (the decoder, any-json.ts, which stops at the first
 * problem, and the collect-all validator, validate.ts, which reports each): each returns a small code, and
 * {@link anyJsonError} alone builds the error of a problem, with its path below the Any.
 */

/** @internal A problem of an Any's JSON form: the value is not a JSON object. */
export const anyNotObject = 1;
/** @internal The object is `{}`: the empty Any, no problem. */
export const anyEmpty = 2;
/** @internal The object has members but no `"@type"`. */
export const anyNoType = 3;
/** @internal `"@type"` is not a string. */
export const anyTypeNotString = 4;
/** @internal A member beside `"@type"` and `"value"` in the form of a type with a custom JSON form. */
export const anyExtraMember = 5;
/** @internal No `"value"` in the form of a type with a custom JSON form. */
export const anyNoValue = 6;
/** @internal The `"value"` of Empty's legacy form is not an object. */
export const anyEmptyNotObject = 7;
/** @internal A problem of an Any's JSON form (see {@link anyJsonError}), or {@link anyEmpty}. */
export type AnyJsonProblem = 1 | 2 | 3 | 4 | 5 | 6 | 7;

/**
 * @internal The keys of an Any's JSON object that names its type in a string `"@type"`, or the code of what it
 * is instead: {@link anyEmpty} for `{}`, else a problem.
 */
export function anyJsonHead(json: unknown): string[] | AnyJsonProblem {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return anyNotObject;
  const keys = Object.keys(json);
  if (keys.length === 0) return anyEmpty;
  if (!Object.prototype.hasOwnProperty.call(json, "@type")) return anyNoType;
  if (typeof (json as Record<string, unknown>)["@type"] !== "string") return anyTypeNotString;
  return keys;
}

/** @internal The embedded message is under `"value"`: its type has a custom JSON form. */
export const anyFormValue = 1;
/** @internal The legacy form of an Empty: `{"@type": ".../google.protobuf.Empty", "value": {}}`. */
export const anyFormLegacyEmpty = 2;
/** @internal The embedded message's own members stand beside `"@type"`. */
export const anyFormMembers = 3;

/** @internal Which form an Any's JSON object `obj` of `keyCount` members takes for its embedded type `desc`. */
export function anyJsonForm(desc: DescMessage, obj: object, keyCount: number): 1 | 2 | 3 {
  if (hasCustomJsonRepresentation(desc)) return anyFormValue;
  if (desc.typeName === emptyTypeName && keyCount === 2 && Object.prototype.hasOwnProperty.call(obj, "value")) {
    return anyFormLegacyEmpty;
  }
  return anyFormMembers;
}

/** @internal Whether `key` may stand in the {@link anyFormValue} form: `"@type"` and `"value"` only. */
export function anyValueFormKey(key: string): boolean {
  return key === "@type" || key === "value";
}

/**
 * @internal The error of a problem of an Any's JSON form, at its path below the Any. `subject` is what the
 * problem is about: the Any's JSON for a problem of {@link anyJsonHead}, the key for {@link anyExtraMember}, the
 * legacy `"value"` for {@link anyEmptyNotObject}; `desc` is the embedded type.
 */
export function anyJsonError(problem: AnyJsonProblem, subject: unknown, desc?: DescMessage): WktJsonError {
  const inner = desc?.typeName ?? anyTypeName;
  switch (problem) {
    case anyNoType:
      return new WktJsonError(
        "type-url",
        "$",
        anyTypeName,
        `"@type" is missing; an Any with members must name its type`,
      );
    case anyTypeNotString:
      return new WktJsonError(
        "json-type",
        at("@type"),
        anyTypeName,
        `"@type" must be a string, got ${describe((subject as Record<string, unknown>)["@type"])}`,
      );
    case anyExtraMember: {
      const key = String(subject);
      const detail = `${JSON.stringify(key)} is not allowed: ${inner} goes under "value"`;
      return new WktJsonError("unknown-field", at(key), inner, detail);
    }
    case anyNoValue:
      return new WktJsonError("json-type", "$", anyTypeName, `"value" is missing; ${inner} is written under "value"`);
    case anyEmptyNotObject:
      return new WktJsonError("json-type", at("value"), inner, `expected {}, got ${describe(subject)}`);
    default:
      return new WktJsonError("json-type", "$", anyTypeName, `expected an object, got ${describe(subject)}`);
  }
}

/** The path of a member of the Any's object. */
function at(key: string): string {
  return "$" + pathSegment(key);
}
