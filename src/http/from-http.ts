/**
 * An HTTP request to its request message, as google/api/http.proto maps them:
 *
 * "Any fields in the request message which are not bound by the path template automatically become HTTP query
 * parameters if there is no HTTP request body." "Fields referred by the path template. They are passed via the
 * URL path. Fields referred by the HttpRule.body. They are passed via the HTTP request body. All other fields
 * are passed via the URL query parameters, and the parameter name is the field path in the request message. A
 * repeated field can be represented as multiple query parameters under the same name." "If HttpRule.body is
 * "*", there is no URL query parameter, all fields are passed via URL path and HTTP request body." "Note that
 * fields which are mapped to URL query parameters must have a primitive type or a repeated primitive type or a
 * non-repeated message type. ... In the case of a message type, each field of the message is mapped to a
 * separate parameter, such as `...?foo.a=A&foo.b=B&foo.c=C`."
 *
 * The path and the query become one JSON object (each value coerced by its field's kind: `true`/`false` for a
 * bool, an enum's number as a number, a Struct or Value's JSON text parsed; every other value as the JSON
 * string the proto3 JSON mapping accepts for it), which the codec's `fromJson` decodes: every rule and limit of
 * the well-known types is the codec's own. The body, JSON value or text, is merged in by `mergeFromJson` or
 * `mergeFromJsonString`. Errors keep the codec's shape (jsonPath: the field's JSON path) and name, in their
 * detail, the parameter as the client wrote it (`query parameter ?read_mask`, `path variable {name}`).
 *
 * What goes beyond http.proto follows grpc-gateway (runtime/query.go): a parameter names a field by its proto
 * name or its JSON name at each dot; a map field takes `?labels[key]=value`; a bool takes Go's
 * `strconv.ParseBool` forms; a Struct or Value takes its JSON text; a singular field given twice is an error.
 * Unlike grpc-gateway, which skips a parameter that names no field, such a parameter is refused (rule
 * `unknown-field`, as Envoy's transcoder refuses one unless `ignore_unknown_query_parameters`), or skipped with
 * `ignoreUnknownFields`; and a field bound twice (by the path and a parameter, or by the body and a
 * parameter) is an error (rule `duplicate-field`) rather than one value silently winning.
 *
 * @module
 */
import {
  ScalarType,
  type DescField,
  type DescMessage,
  type DescMethod,
  type JsonValue,
  type MessageShape,
} from "@bufbuild/protobuf";
import { fromJson, mayHoldRequired } from "../codec/from-json.js";
import { toJson } from "../codec/to-json.js";
import { mergeFromJson, mergeFromJsonString } from "../codec/merge-from-json.js";
import { depthOption, parseJsonTextForCodec, textParseOptions, type JsonReadOptions } from "../codec/read-context.js";
import { WktJsonError } from "../errors.js";
import { formatBound } from "../limits.js";
import { errorUnder, pathJoin, type PathSegment } from "../path.js";
import { describe } from "../internal/describe.js";
import { isIntegerText } from "../internal/mask-path.js";
import { setOwn } from "../internal/json-value.js";
import { countOption, optionsTypeName } from "../internal/options.js";
import { scalarIsZero } from "../internal/scalar.js";
import { fieldGet, planOf, type Msg } from "../wkt/field-access.js";
import {
  bindingText,
  compiledRuleOf,
  fieldNamed,
  isEnterable,
  ownMember,
  leafOf,
  type BoundVariable,
  type CompiledBinding,
  type Leaf,
} from "./compiled-rule.js";
import { httpMaxLengthDefault, maxParamsOption, type HttpRequestReadOptions } from "./http-options.js";
import { matchTemplate } from "./path-template.js";
import { paramLabel, queryParams, queryTextLength, type HttpQuery } from "./query.js";

/** An HTTP request as {@link fromHttpRequest} reads it. */
export interface HttpRequest {
  /** The HTTP method: `GET`, `POST`, ... (compared in upper case). */
  method: string;
  /** The URL's path, percent-encoded as sent (`/v1/shelves/1/books/2`); may carry the query after a `?`. */
  path: string;
  /** The query, when not in `path`: a query string, a `URLSearchParams` or `Map`, or a record of strings. */
  query?: HttpQuery | undefined;
  /** The body as a JSON value (what `JSON.parse` or a framework's JSON body parser gives). */
  body?: JsonValue | undefined;
  /** The body as JSON text: read as `fromJsonString` reads it (exact 64-bit integers, line and column). */
  bodyText?: string | undefined;
}

/**
 * Decodes an HTTP request into its request message, as the method's `google.api.http` rule (or the rule in
 * the options) binds the path variables, the body and the query parameters.
 *
 * @throws {WktJsonError} with the field's JSON path and, in the detail, the parameter as the client wrote it:
 *   `syntax` for a path and method that match no binding (the detail says 404 or 405), a malformed percent-encoding or a bool that is not
 *   one; `unknown-field` for a parameter that names no field (unless `ignoreUnknownFields`), or a body where
 *   the rule has none; `duplicate-field` for a field given twice (a singular parameter repeated, a parameter
 *   naming a field the path or the body binds, a body whose value of a path-bound field differs); `json-type`
 *   for a parameter naming a message field as a whole (give its fields: `?author.given_name=`), a repeated
 *   message field or a map of messages; `size` beyond `maxLength` or `maxParams`; `depth` for a parameter of
 *   more dotted names than `maxDepth`; and every rule of {@link fromJson} for the values (`syntax` for a bad
 *   Timestamp, `enum`, `range`, ...). A bad rule is rule `syntax` with type name `google.api.HttpRule`.
 * @example
 * const req = fromHttpRequest(
 *   ListBooksRequestSchema,
 *   { method: "GET", path: "/v1/shelves/1/books", query: "page_size=10&read_mask=title,author" },
 *   { rule: { get: "/v1/{parent=shelves/*}/books" } },
 * );
 * req.parent; //=> "shelves/1"
 * req.pageSize; //=> 10
 */
export function fromHttpRequest<Desc extends DescMessage>(
  schema: Desc | (DescMethod & { readonly input: Desc }),
  request: HttpRequest,
  options?: HttpRequestReadOptions,
): MessageShape<Desc> {
  const rule = compiledRuleOf(schema, options?.rule);
  const desc = rule.schema as Desc;
  const typeName = desc.typeName;
  if (request === null || typeof request !== "object") {
    throw new WktJsonError(
      "json-type",
      "$",
      optionsTypeName,
      `expected a request { method, path }, got ${describe(request)}`,
    );
  }
  const maxLength = countOption("maxLength", options?.maxLength, httpMaxLengthDefault);
  const maxParams = maxParamsOption(options?.maxParams);
  const maxDepth = depthOption(options);
  const readOptions = codecOptions(options);

  let method: unknown, body: JsonValue | undefined, bodyText: string | undefined;
  let rawPath: unknown, query: HttpRequest["query"];
  try {
    ({ method, body, bodyText, path: rawPath, query } = request);
  } catch (e) {
    // A getter of the caller's (a proxy) that throws: the request cannot be read.
    throw new WktJsonError(
      "json-type",
      "$",
      optionsTypeName,
      `the request cannot be read (reading it threw ${e instanceof Error ? e.name : describe(e)})`,
    );
  }
  if (typeof method !== "string" || typeof rawPath !== "string") {
    throw new WktJsonError(
      "json-type",
      "$",
      optionsTypeName,
      `expected a request's method and path as strings, got ${describe(method)} and ${describe(rawPath)}`,
    );
  }
  let path = rawPath;
  const tooLong = () =>
    new WktJsonError(
      "size",
      "$",
      typeName,
      `the request's path and query are longer than maxLength (${formatBound(maxLength)} UTF-16 code units)`,
    );
  if (path.length + queryTextLength(query) > maxLength) throw tooLong();
  const q = path.indexOf("?");
  if (q >= 0) {
    if (query !== undefined) {
      throw new WktJsonError(
        "json-type",
        "$",
        optionsTypeName,
        "the request has a query in its path and a query apart",
      );
    }
    query = path.slice(q + 1);
    path = path.slice(0, q);
  }
  const params = queryParams(query, {
    maxParams,
    maxLength,
    lengthLeft: maxLength - path.length,
    typeName,
  });

  const upper = method.toUpperCase();
  let binding: CompiledBinding | undefined;
  let values: (string | undefined)[] | undefined;
  for (const b of rule.bindings) {
    if (b.method !== upper && b.method !== "*") continue;
    values = matchTemplate(b.template, path as string);
    if (values !== undefined) {
      binding = b;
      break;
    }
  }
  if (binding === undefined || values === undefined) throw noBindingError(desc, rule.bindings, upper, path as string);

  if (bodyText !== undefined && body !== undefined) {
    throw new WktJsonError("json-type", "$", optionsTypeName, "the request has a body and a bodyText; give one");
  }
  if (bodyText !== undefined && typeof bodyText !== "string") {
    throw new WktJsonError("json-type", "$", optionsTypeName, `bodyText: expected a string, got ${describe(bodyText)}`);
  }
  // A blank text is no body (a POST without one); a JSON value, null included, is one.
  const hasBody = body !== undefined || (bodyText !== undefined && !blank.test(bodyText));
  if (
    binding.body === undefined &&
    hasBody &&
    !(bodyText !== undefined ? emptyObjectText.test(bodyText) : isEmptyBody(body))
  ) {
    throw new WktJsonError(
      "unknown-field",
      "$",
      typeName,
      `request body: the binding ${bindingText(binding)} has no body (its rule has no "body")`,
    );
  }

  const json = new RequestJson(desc, binding, maxDepth, readOptions.ignoreUnknownFields === true);
  binding.variables.forEach((bv, k) => json.addVariable(bv, values![k]));
  for (const p of params) json.addParam(p.name, p.value);

  const withBody = binding.body !== undefined && hasBody;
  let msg: MessageShape<Desc>;
  try {
    msg = fromJson(desc, json.root as JsonValue, withBody ? { ...readOptions, allowPartial: true } : readOptions);
  } catch (e) {
    throw json.relabel(e);
  }
  if (withBody) {
    mergeBody(desc, msg, binding, json, body, bodyText, readOptions, maxDepth);
    if (readOptions.allowPartial !== true && mayHoldRequired(desc)) checkRequiredAfterBody(desc, msg, readOptions);
  }
  return msg;
}

/**
 * The codec's required check on the whole request: the path and query were read with allowPartial (a required
 * field may come from the body) and the body merged, so the message as a whole is checked now, as \`fromJson\`
 * checks one without a body. The JSON writer refuses a message with a required field unset, at its JSON path.
 */
function checkRequiredAfterBody(desc: DescMessage, msg: unknown, readOptions: Partial<JsonReadOptions>): void {
  try {
    toJson(desc, msg as never, {
      registry: readOptions.registry,
      maxDepth: depthOption(readOptions),
      unresolvedAny: "skip",
    });
  } catch (e) {
    if (!(e instanceof WktJsonError) || e.rule !== "required") return;
    const name = e.detail.replace(/^the required field (\S+) is not set$/, "$1");
    throw new WktJsonError(
      "required",
      e.jsonPath,
      e.typeName,
      `the required field ${name} is missing from the request (its path, query and body together; allowPartial accepts it)`,
    );
  }
}

/** The decoder's options among the caller's (not `path`: errors are reported from the request message's root). */
function codecOptions(options: HttpRequestReadOptions | undefined): Partial<JsonReadOptions> {
  if (options === undefined) return {};
  const { rule: _rule, maxLength: _maxLength, maxParams: _maxParams, ...rest } = options;
  delete (rest as { path?: unknown }).path;
  return rest;
}

const blank = /^[ \t\n\r]*$/;
/** `{}`, as JSON text: the empty body a client may send where the rule has none. */
const emptyObjectText = /^[ \t\n\r]*\{[ \t\n\r]*\}[ \t\n\r]*$/;

function isEmptyBody(body: JsonValue | undefined): boolean {
  if (body === null || body === undefined) return true;
  if (typeof body !== "object" || Array.isArray(body)) return false;
  for (const k in body) if (Object.prototype.hasOwnProperty.call(body, k)) return false;
  return true;
}

/** The longest part of a client's path an error shows. */
const shownPathMax = 200;

function noBindingError(
  desc: DescMessage,
  bindings: readonly CompiledBinding[],
  method: string,
  path: string,
): WktJsonError {
  const shown = path.length > shownPathMax ? JSON.stringify(path.slice(0, shownPathMax)) + "…" : JSON.stringify(path);
  // The path of another method's binding: a server answers 405 with those methods in Allow; none: 404.
  const allowed = bindings.filter((b) => matchTemplate(b.template, path) !== undefined).map((b) => b.method);
  const answer =
    allowed.length > 0
      ? `the path matches for ${[...new Set(allowed)].join(", ")} only (a server answers 405 Method Not Allowed)`
      : "no binding has this path (a server answers 404 Not Found)";
  return new WktJsonError(
    "syntax",
    "$",
    desc.typeName,
    `${method.length > 20 ? method.slice(0, 20) + "…" : method} ${shown} matches no binding of the rule: ${answer}; the bindings are ${bindings.map(bindingText).join(", ")}`,
  );
}

/** Where a value of the request JSON came from: its keys from the root, and the parameter as the client wrote it. */
interface Origin {
  readonly keys: readonly PathSegment[];
  readonly label: string;
}

const parseBoolTrue = new Set(["true", "True", "TRUE", "t", "T", "1"]);
const parseBoolFalse = new Set(["false", "False", "FALSE", "f", "F", "0"]);

/** The JSON object of the path variables and query parameters, with where each value came from. */
class RequestJson {
  readonly root: Record<string, unknown> = {};
  /** The path variables alone, to set again after the body is merged. */
  readonly pathRoot: Record<string, unknown> = {};
  readonly origins: Origin[] = [];
  /** Each field (or map entry) given, by its proto path (`filter.create_time`, `labels[a]`): who gave it. */
  private readonly given = new Map<string, string>();
  private readonly bodyField: DescField | "*" | undefined;

  constructor(
    private readonly desc: DescMessage,
    private readonly binding: CompiledBinding,
    private readonly maxDepth: number,
    private readonly ignoreUnknown: boolean,
  ) {
    this.bodyField = binding.body;
  }

  addVariable(bv: BoundVariable, value: string | undefined): void {
    const label = `path variable ${bv.variable.label}`;
    const keys = bv.fields.map((f) => f.jsonName);
    if (value === undefined) {
      throw new WktJsonError(
        "syntax",
        pathJoin("$", ...keys),
        this.desc.typeName,
        `${label}: malformed percent-encoding (RFC 3986: "%" and two hex digits of UTF-8)`,
      );
    }
    const last = bv.fields[bv.fields.length - 1]!;
    const v = this.coerce(leafOf(last)!, value, label, keys);
    this.setAt(this.root, keys, v);
    this.setAt(this.pathRoot, keys, v);
    this.origins.push({ keys, label });
    this.given.set(bv.fields.map((f) => f.name).join("."), label);
  }

  addParam(name: string, value: string): void {
    const label = paramLabel(name);
    let fieldPath = name;
    let mapKey: string | undefined;
    const open = name.indexOf("[");
    if (open >= 0 && name.charCodeAt(name.length - 1) === 93 /* ] */) {
      fieldPath = name.slice(0, open);
      mapKey = name.slice(open + 1, -1);
    }
    if (this.bodyField === "*") {
      if (this.ignoreUnknown) return;
      throw new WktJsonError(
        "unknown-field",
        "$",
        this.desc.typeName,
        `${label}: the binding ${bindingText(this.binding)} has body "*", which leaves no field to the query (http.proto)`,
      );
    }
    const names = fieldPath.split(".");
    if (names.length > this.maxDepth) {
      throw new WktJsonError(
        "depth",
        "$",
        this.desc.typeName,
        `${label}: more than maxDepth (${formatBound(this.maxDepth)}) dotted names`,
      );
    }
    const keys: PathSegment[] = [];
    const protoNames: string[] = [];
    let desc = this.desc;
    let field: DescField | undefined;
    for (let k = 0; k < names.length; k++) {
      const n = names[k]!;
      field = fieldNamed(desc, n);
      if (field === undefined) {
        if (this.ignoreUnknown) return;
        throw new WktJsonError(
          "unknown-field",
          pathJoin("$", ...keys, n),
          desc.typeName,
          `${label}: ${desc.typeName} has no field ${JSON.stringify(n.length > 100 ? n.slice(0, 100) + "…" : n)}`,
        );
      }
      keys.push(field.jsonName);
      protoNames.push(field.name);
      if (k === 0 && field === this.bodyField) {
        throw new WktJsonError(
          "duplicate-field",
          pathJoin("$", ...keys),
          this.desc.typeName,
          `${label}: field ${field.name} is the request body of ${bindingText(this.binding)}`,
        );
      }
      if (k < names.length - 1) {
        if (!isEnterable(field)) {
          throw new WktJsonError(
            "syntax",
            pathJoin("$", ...keys),
            desc.typeName,
            `${label}: ${field.name} is not a singular message field, so ${JSON.stringify(names[k + 1])} names nothing in it`,
          );
        }
        desc = field.message!;
      }
    }
    const f = field!;
    const path = protoNames.join(".");
    const jsonPath = pathJoin("$", ...keys);
    const bound = this.given.get(path);
    if (bound !== undefined && f.fieldKind !== "list" && f.fieldKind !== "map") {
      throw new WktJsonError(
        "duplicate-field",
        jsonPath,
        this.desc.typeName,
        `${label}: field ${path} is given twice (${bound === label ? "a singular field takes one value" : `also by ${bound}`})`,
      );
    }
    if (mapKey !== undefined && f.fieldKind !== "map") {
      throw new WktJsonError(
        "syntax",
        jsonPath,
        this.desc.typeName,
        `${label}: field ${path} is not a map, so it takes no [key]`,
      );
    }
    const leaf = leafOf(f);
    const whole = (what: string): never => {
      throw new WktJsonError(
        "json-type",
        jsonPath,
        this.desc.typeName,
        `${label}: ${what} (http.proto: a query parameter is a primitive, a repeated primitive, or a field of a message given as ?${path}.field=)`,
      );
    };
    if (f.fieldKind === "map") {
      if (mapKey === undefined) whole(`field ${path} is a map: give its entries as ?${path}[key]=value`);
      if (leaf === undefined) whole(`field ${path} is a map of messages, which a query cannot carry`);
      const entry = `${path}[${mapKey}]`;
      const other = this.given.get(entry);
      if (other !== undefined) {
        throw new WktJsonError(
          "duplicate-field",
          pathJoin(jsonPath, mapKey!),
          this.desc.typeName,
          `${label}: map key ${JSON.stringify(mapKey)} is given twice`,
        );
      }
      this.given.set(entry, label);
      const map = this.objectAt(keys);
      const entryKeys = [...keys, mapKey!];
      setOwn(map, mapKey!, this.coerce(leaf!, value, label, entryKeys));
      this.origins.push({ keys: entryKeys, label });
      return;
    }
    if (leaf === undefined) {
      if (f.fieldKind === "list") whole(`field ${path} is a repeated message field, which a query cannot carry`);
      whole(`field ${path} is a message: give its fields, as ?${path}.${f.message!.fields[0]?.name ?? "field"}=`);
    }
    if (f.fieldKind === "list") {
      const parent = this.objectAt(keys.slice(0, -1));
      let list = ownMember(parent, f.jsonName) as unknown[] | undefined;
      if (list === undefined) setOwn(parent, f.jsonName, (list = []));
      const itemKeys = [...keys, list.length];
      list.push(this.coerce(leaf!, value, label, itemKeys));
      this.origins.push({ keys: itemKeys, label });
      this.given.set(path, label);
      return;
    }
    this.given.set(path, label);
    this.setAt(this.root, keys, this.coerce(leaf!, value, label, keys));
    this.origins.push({ keys, label });
  }

  /** A parameter's text as the JSON value the codec reads for its field. */
  private coerce(leaf: Leaf, text: string, label: string, keys: readonly PathSegment[]): unknown {
    switch (leaf.kind) {
      case "scalar":
        if (leaf.scalar !== ScalarType.BOOL) return text;
        if (parseBoolTrue.has(text)) return true;
        if (parseBoolFalse.has(text)) return false;
        throw new WktJsonError(
          "syntax",
          pathJoin("$", ...keys),
          this.desc.typeName,
          `${label}: expected true or false, got ${JSON.stringify(text.length > 40 ? text.slice(0, 40) + "…" : text)}`,
        );
      case "enum":
        return isIntegerText(text) ? Number(text) : text; // an enum's number (its names are identifiers)
      case "string":
        return text;
      case "json":
        try {
          return parseJsonTextForCodec(text, textParseOptions(this.maxDepth, undefined), this.maxDepth);
        } catch (e) {
          const moved = errorUnder(e, pathJoin("$", ...keys));
          if (!(moved instanceof WktJsonError)) throw moved;
          throw new WktJsonError(moved.rule, moved.jsonPath, moved.typeName, `${label}: ${moved.detail}`);
        }
    }
  }

  private objectAt(keys: readonly PathSegment[]): Record<string, unknown> {
    let o = this.root;
    for (const k of keys) {
      let next = ownMember(o, k) as Record<string, unknown> | undefined;
      if (next === undefined) setOwn(o, k as string, (next = {}));
      o = next;
    }
    return o;
  }

  private setAt(root: Record<string, unknown>, keys: readonly PathSegment[], v: unknown): void {
    let o = root;
    for (let i = 0; i < keys.length - 1; i++) {
      const k = keys[i] as string;
      let next = ownMember(o, k) as Record<string, unknown> | undefined;
      if (next === undefined) setOwn(o, k, (next = {}));
      o = next;
    }
    setOwn(o, keys[keys.length - 1] as string, v);
  }

  /** The codec's error with the parameter that gave the value named in its detail. */
  relabel(e: unknown): unknown {
    if (!(e instanceof WktJsonError)) return e;
    const keys = e.path;
    let best: Origin | undefined;
    for (const o of this.origins) {
      if (o.keys.length > keys.length || (best !== undefined && o.keys.length <= best.keys.length)) continue;
      if (o.keys.every((k, i) => k === keys[i])) best = o;
    }
    if (best === undefined) return e;
    return new WktJsonError(e.rule, e.jsonPath, e.typeName, `${best.label}: ${e.detail}`);
  }
}

/**
 * Merges the body into the message of the path and the query, then sets the path variables again: a body may
 * repeat a path-bound field (AIP-134's resource carries its `name`) with the same value, or leave it at its
 * default, but not give another value.
 */
function mergeBody<Desc extends DescMessage>(
  desc: Desc,
  msg: MessageShape<Desc>,
  binding: CompiledBinding,
  json: RequestJson,
  body: JsonValue | undefined,
  bodyText: string | undefined,
  readOptions: Partial<JsonReadOptions>,
  maxDepth: number,
): void {
  const before = binding.variables.map((bv) => leafValue(msg, bv.fields));
  try {
    if (binding.body === "*") {
      if (bodyText !== undefined) mergeFromJsonString(desc, msg, bodyText, readOptions);
      else mergeFromJson(desc, msg, body!, readOptions);
    } else {
      const f = binding.body as DescField;
      if (bodyText !== undefined) {
        // One JSON value (parsed first, so that the text cannot close the object it is put in), then read as the
        // field's member; its positions on the first line are moved back by the prefix.
        parseJsonTextForCodec(bodyText, textParseOptions(maxDepth, undefined), maxDepth);
        const prefix = `{${JSON.stringify(f.jsonName)}:`;
        try {
          mergeFromJsonString(desc, msg, prefix + bodyText + "\n}", readOptions);
        } catch (e) {
          if (e instanceof WktJsonError && e.line === 1 && e.column !== undefined) e.column -= prefix.length;
          throw e;
        }
      } else {
        const wrapped: Record<string, unknown> = {};
        setOwn(wrapped, f.jsonName, body);
        mergeFromJson(desc, msg, wrapped as JsonValue, readOptions);
      }
    }
  } catch (e) {
    if (!(e instanceof WktJsonError)) throw e;
    const labelled = new WktJsonError(e.rule, e.jsonPath, e.typeName, `request body: ${e.detail}`);
    if (e.line !== undefined) labelled.line = e.line;
    if (e.column !== undefined) labelled.column = e.column;
    throw labelled;
  }
  binding.variables.forEach((bv, k) => {
    const sibling = oneofSibling(msg, bv.fields);
    if (sibling !== undefined) {
      throw new WktJsonError(
        "oneof",
        pathJoin("$", ...bv.fields.map((f) => f.jsonName)),
        desc.typeName,
        `request body: sets ${sibling.name} of oneof ${sibling.oneof!.name}, whose member path variable ${bv.variable.label} sets`,
      );
    }
    const after = leafValue(msg, bv.fields);
    const last = bv.fields[bv.fields.length - 1]!;
    if (leafEquals(after, before[k]) || isZero(last, after)) return;
    throw new WktJsonError(
      "duplicate-field",
      pathJoin("$", ...bv.fields.map((f) => f.jsonName)),
      desc.typeName,
      `request body: gives field ${bv.fields.map((f) => f.name).join(".")} another value than path variable ${bv.variable.label}`,
    );
  });
  if (binding.variables.length > 0) mergeFromJson(desc, msg, json.pathRoot as JsonValue, readOptions);
}

/**
 * The member of a oneof on the way to a path-bound field that the message now holds instead of the path's (a
 * body that sets a sibling: the path's value would be lost, or would silently replace the body's).
 */
function oneofSibling(msg: unknown, fields: readonly DescField[]): DescField | undefined {
  let m = msg as Msg | undefined;
  for (const f of fields) {
    if (m === undefined) return undefined;
    if (f.oneof !== undefined) {
      const held = (m[f.oneof.localName] as { case?: string } | undefined)?.case;
      if (held !== undefined && held !== f.localName) return f.oneof.fields.find((x) => x.localName === held);
    }
    m = fieldGet(planOf(f.parent).byName.get(f.name)!, m) as Msg | undefined;
  }
  return undefined;
}

/** The value of a scalar or enum field at the end of `fields`, or undefined where a message on the way is unset. */
function leafValue(msg: unknown, fields: readonly DescField[]): unknown {
  let m = msg as Msg | undefined;
  for (let i = 0; i < fields.length; i++) {
    if (m === undefined) return undefined;
    const f = fields[i]!;
    const v = fieldGet(planOf(f.parent).byName.get(f.name)!, m);
    if (i === fields.length - 1) return v;
    m = v as Msg | undefined;
  }
  return undefined;
}

function leafEquals(a: unknown, b: unknown): boolean {
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    return a.length === b.length && a.every((x, i) => x === b[i]);
  }
  return a === b;
}

function isZero(f: DescField, v: unknown): boolean {
  if (v === undefined) return true;
  if (f.fieldKind === "enum") return v === 0;
  return scalarIsZero(f.scalar!, v);
}
