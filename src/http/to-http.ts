/**
 * A request message to its HTTP request (method, path, query, body), the reverse of {@link fromHttpRequest}
 * under the same rule, so that a client and a server built on the library agree: `fromHttpRequest` of the
 * result gives the message back, for every message the rule can carry.
 *
 * The message is written once by the codec's `toJson` (with the caller's write options), and that JSON is
 * divided: the path variables' values expanded into the template (http.proto: a single-segment variable
 * percent-encodes every character except `[-_.~0-9a-zA-Z]`, a multi-segment one keeps `/` too), the body (the
 * body field's value, or with `*` every member but the path's), and the rest as query parameters, one per
 * value (a repeated field repeated, a map entry `?labels[key]=value`, a message's fields `?author.given_name=`,
 * Struct and Value as their JSON text), every character outside `[-_.~0-9a-zA-Z]` percent-encoded.
 *
 * What a query cannot carry is refused (rule `json-type`): a repeated message field, a map of messages, an
 * Any. The one exception to the round trip: a message field in the query whose JSON holds nothing but `{}` (a
 * google.protobuf.Empty, or a message with every field at its default) has no query parameter, so it is left
 * out and reads back unset; grpc-gateway's query parser has no form for it either ("unsupported message
 * type"). A rule whose body carries the field keeps it.
 * Of the rule's bindings, the first whose path variables are all set and fit their patterns is written.
 *
 * @module
 */
import {
  ScalarType,
  type DescField,
  type DescMessage,
  type DescMethod,
  type JsonObject,
  type JsonValue,
  type MessageShape,
} from "@bufbuild/protobuf";
import { toJson } from "../codec/to-json.js";
import { IMPLICIT } from "../codec/to-json-plan.js";
import { WktJsonError } from "../errors.js";
import { pathJoin } from "../path.js";
import { anyTypeName } from "../internal/names.js";
import { bindingText, compiledRuleOf, leafOf, ownMember, type CompiledBinding, type Leaf } from "./compiled-rule.js";
import type { HttpRequestWriteOptions } from "./http-options.js";
import { percentEncode } from "./percent.js";
import { expandTemplate, variableMismatch } from "./path-template.js";

/** An HTTP request as {@link toHttpRequest} writes it. */
export interface HttpRequestParts {
  /** The HTTP method of the binding written (`GET`, ...; a custom rule's kind). */
  method: string;
  /** The path, percent-encoded. */
  path: string;
  /** The query string without its `?`; `""` for none. */
  query: string;
  /** The path and the query: `path` or `path?query`. */
  url: string;
  /** The body as a JSON value; absent when the rule has none (or its body field is unset). */
  body?: JsonValue;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Writes a request message as the HTTP request its `google.api.http` rule (or the rule in the options) maps it
 * to.
 *
 * @throws {WktJsonError} `required` for a path-bound field that is not set (a number, bool or enum of implicit
 *   presence is written at its zero), `syntax` for a value that does not
 *   fit its variable's pattern (`shelves/*`), `json-type` for a field a query cannot carry (a repeated message
 *   field, a map of messages, an Any), and every rule of {@link toJson}. A bad rule is rule `syntax` with type
 *   name `google.api.HttpRule`.
 * @example
 * const req = create(GetBookRequestSchema, { name: "shelves/1/books/2", readMask: { paths: ["title"] } });
 * toHttpRequest(GetBookRequestSchema, req, { rule: { get: "/v1/{name=shelves/*\/books/*}" } }).url;
 * //=> "/v1/shelves/1/books/2?readMask=title"
 */
export function toHttpRequest<Desc extends DescMessage>(
  schema: Desc | (DescMethod & { readonly input: Desc }),
  message: MessageShape<Desc>,
  options?: HttpRequestWriteOptions,
): HttpRequestParts {
  const rule = compiledRuleOf(schema, options?.rule);
  const desc = rule.schema;
  let writeOptions = options;
  if (options !== undefined && "rule" in options) {
    const { rule: _rule, ...rest } = options;
    writeOptions = rest;
  }
  const json = toJson(desc, message, writeOptions) as JsonObject;
  const proto = options?.useProtoFieldName === true;
  const key = (f: DescField) => (proto ? f.name : f.jsonName);

  let firstError: WktJsonError | undefined;
  for (const b of rule.bindings) {
    const written = writeBinding(desc, b, json, key, options?.enumAsInteger === true);
    if (written instanceof WktJsonError) {
      firstError ??= written;
      continue;
    }
    const bound = new Set(b.variables.map((bv) => bv.fields.map((f) => f.name).join(".")));
    const parts: HttpRequestParts = { method: b.method, path: written, query: "", url: written };
    if (b.body === "*") {
      for (const bv of b.variables) deleteAt(json, bv.fields.map(key));
      parts.body = json;
      return parts;
    }
    if (b.body !== undefined) {
      const v = ownMember(json, key(b.body)) as JsonValue | undefined;
      if (v !== undefined) parts.body = v;
    }
    const pairs: [string, string][] = [];
    queryPairs(desc, json, "", "", [], bound, b.body, key, pairs);
    parts.query = pairs.map(([n, v]) => `${percentEncode(n)}=${percentEncode(v)}`).join("&");
    if (parts.query !== "") parts.url += "?" + parts.query;
    return parts;
  }
  throw firstError!;
}

/** The path of a binding for the message's JSON, or the error that keeps the binding from being written. */
function writeBinding(
  desc: DescMessage,
  b: CompiledBinding,
  json: JsonObject,
  key: (f: DescField) => string,
  enumAsInteger: boolean,
): string | WktJsonError {
  const values: string[] = [];
  for (const bv of b.variables) {
    const keys = bv.fields.map(key);
    let v: JsonValue | undefined = json;
    for (const k of keys) v = ownMember(v, k) as JsonValue | undefined;
    const where = pathJoin("$", ...keys);
    if (v === undefined) v = implicitZero(json, keys, bv.fields[bv.fields.length - 1]!, enumAsInteger);
    if (v === undefined || v === null || v === "") {
      return new WktJsonError(
        "required",
        where,
        desc.typeName,
        `path variable ${bv.variable.label} of ${bindingText(b)}: field ${bv.fields.map((f) => f.name).join(".")} is not set; a field bound in the path must be set`,
      );
    }
    const text = scalarText(v);
    const mismatch = variableMismatch(b.template, bv.variable, text);
    if (mismatch !== undefined) {
      return new WktJsonError(
        "syntax",
        where,
        desc.typeName,
        `path variable ${bv.variable.label} of ${bindingText(b)}: ${mismatch}`,
      );
    }
    values.push(text);
  }
  const path = expandTemplate(b.template, values);
  if (path === undefined) {
    return new WktJsonError(
      "syntax",
      "$",
      desc.typeName,
      `${bindingText(b)} has a wildcard outside its variables, which no field fills; the request cannot be written`,
    );
  }
  return path;
}

/**
 * The value of a path-bound field that the JSON writer left out as its zero (a number, a bool or an enum of
 * implicit presence in a message that is there): `/v1/pages/0` carries it, and reads back as the same message.
 * A string's zero, `""`, fills no segment; a field of explicit presence that is unset has no value to write.
 */
function implicitZero(
  json: JsonObject,
  keys: readonly string[],
  field: DescField,
  enumAsInteger: boolean,
): JsonValue | undefined {
  if (field.presence !== IMPLICIT || field.fieldKind === "message") return undefined;
  let parent: JsonValue | undefined = json;
  for (let i = 0; i < keys.length - 1; i++) {
    parent = ownMember(parent, keys[i]!) as JsonValue | undefined;
  }
  if (parent === null || typeof parent !== "object" || Array.isArray(parent)) return undefined;
  if (field.fieldKind === "enum") {
    return enumAsInteger ? 0 : (field.enum.values.find((e) => e.number === 0)?.name ?? 0);
  }
  if (field.fieldKind !== "scalar") return undefined;
  if (field.scalar === ScalarType.STRING || field.scalar === ScalarType.BYTES) return undefined;
  return field.scalar === ScalarType.BOOL ? false : 0;
}

/** A JSON scalar as a URL's text: a number as JSON writes it, but `-0` kept. */
function scalarText(v: JsonValue): string {
  if (typeof v === "string") return v;
  if (typeof v === "number") return v === 0 && 1 / v < 0 ? "-0" : String(v);
  if (typeof v === "boolean") return v ? "true" : "false";
  return JSON.stringify(v);
}

function leafText(leaf: Leaf, v: JsonValue): string {
  if (leaf.kind === "json") return JSON.stringify(v);
  if (leaf.kind === "enum" && v === null) return "NULL_VALUE"; // google.protobuf.NullValue, written as null
  return scalarText(v);
}

function deleteAt(json: JsonObject, keys: readonly string[]): void {
  let o: JsonValue | undefined = json;
  for (let i = 0; i < keys.length - 1; i++) {
    o = ownMember(o, keys[i]!) as JsonValue | undefined;
  }
  if (o !== null && typeof o === "object" && !Array.isArray(o)) delete o[keys[keys.length - 1]!];
}

/** The query parameters of the members of `obj` (a message of type `desc`) that the path and body leave. */
function queryPairs(
  desc: DescMessage,
  obj: JsonObject,
  prefix: string,
  protoPrefix: string,
  keys: readonly string[],
  bound: ReadonlySet<string>,
  bodyField: DescField | undefined,
  key: (f: DescField) => string,
  out: [string, string][],
): void {
  for (const f of desc.fields) {
    const k = key(f);
    if (!hasOwn.call(obj, k)) continue;
    const protoPath = protoPrefix + f.name;
    if (bound.has(protoPath) || f === bodyField) continue;
    const v = obj[k]!;
    const name = prefix + k;
    const leaf = leafOf(f);
    const refuse = (what: string): never => {
      throw new WktJsonError(
        "json-type",
        pathJoin("$", ...keys, k),
        desc.typeName,
        `field ${protoPath} is ${what}, which a query parameter cannot carry (http.proto: a primitive, a repeated primitive, or a message's fields)`,
      );
    };
    if (f.fieldKind === "map") {
      if (leaf === undefined) refuse("a map of messages");
      for (const mk of Object.keys(v as JsonObject))
        out.push([`${name}[${mk}]`, leafText(leaf!, (v as JsonObject)[mk]!)]);
    } else if (f.fieldKind === "list") {
      if (leaf === undefined) refuse("a repeated message field");
      for (const x of v as JsonValue[]) out.push([name, leafText(leaf!, x)]);
    } else if (leaf !== undefined) {
      out.push([name, leafText(leaf, v)]);
    } else if (f.fieldKind === "message") {
      if (f.message.typeName === anyTypeName) refuse("an Any");
      if (v !== null && typeof v === "object" && !Array.isArray(v)) {
        queryPairs(f.message, v, name + ".", protoPath + ".", [...keys, k], bound, undefined, key, out);
      }
    }
  }
}
