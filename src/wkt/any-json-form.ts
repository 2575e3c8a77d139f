/**
 * The JSON form of google.protobuf.Any, as decisions. Spec: "The embedded message's own JSON plus a field
 * `@type` holding the type URL; if the embedded type has a custom JSON form, that form is placed in a field
 * `value` next to `@type`."
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
 * Both walkers over the form take these decisions: the decoder (codec/any-json.ts), which stops at the first
 * problem, and the collect-all validator (codec/validate.ts), which reports each. Each decision returns a small
 * code; {@link anyJsonError} alone builds the error of a problem, with its path below the Any.
 *
 * @module
 * @internal
 */
import type { DescMessage } from "@bufbuild/protobuf";
import { hasCustomJsonRepresentation } from "@bufbuild/protobuf/wkt";
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { anyTypeName, emptyTypeName } from "../internal/names.js";
import { pathSegment } from "../path.js";

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
