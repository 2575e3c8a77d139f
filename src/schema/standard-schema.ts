/**
 * Request validation for any framework: a message type as a Standard Schema (https://standardschema.dev), the
 * interface that Hono, tRPC, TanStack Form, Elysia and others accept in place of a Zod or Valibot schema.
 *
 * Standard Schema v1: "`validate(value)` validates unknown input values" and returns `{ value }` (the typed
 * output) or `{ issues }`, each issue a `message` and a `path` of keys. Here the value is a proto3 JSON value
 * (what `JSON.parse` gives), the output is the decoded message, and the issues are every problem the
 * collect-all validator finds (`validateJson`), with our messages, rules and JSON paths. A proto2 `required`
 * field left out is an issue (rule `required`) unless the option `allowPartial`, which the input schema follows
 * too. The same object is a Standard JSON Schema (`~standard.jsonSchema.input` and `.output`, from
 * {@link jsonSchema}), for tools that publish request and response shapes.
 *
 * The interfaces are written out here as the spec asks of implementers ("copy/paste ... into their codebase"),
 * so nothing is needed at run time and the published types depend on no other package; they are structurally
 * those of `@standard-schema/spec` 1.1 (`StandardSchemaV1` and `StandardJSONSchemaV1`).
 *
 * @module
 */
import type { DescMessage, JsonValue, MessageJsonType, MessageShape } from "@bufbuild/protobuf";
import { isWktJsonError, issueOfError, WktJsonError, type WktJsonIssue } from "../errors.js";
import { fromJson } from "../codec/from-json.js";
import { describe } from "../internal/describe.js";
import { jsonSchema, type JsonSchemaOptions } from "./json-schema.js";
import { checkSchema } from "../wkt/registry.js";
import { validateJson, validateMaxIssuesDefault, type ValidateJsonOptions } from "../codec/validate.js";
import { createRun, readCreateOptions } from "../mask/create.js";
import type { Opts } from "../mask/patch-options.js";

/**
 * Options of {@link standardSchema}: the decoder's and the validator's (`maxIssues`), and the create mode
 * (`create`, with the field behaviour of {@link createFromJson}: `strict` and the path lists).
 */
export interface StandardSchemaOptions extends Partial<ValidateJsonOptions> {
  /**
   * The body of a create request (AIP-133, with AIP-203 for creation), as {@link createFromJson} reads it:
   * OUTPUT_ONLY members are dropped from the value (`strict`: each an issue), a REQUIRED field missing is an
   * issue (rule `field-behavior`), and `jsonSchema.input` marks REQUIRED fields `required` and OUTPUT_ONLY ones
   * `readOnly`. Default false.
   * The path lists (`required`, `outputOnly`) apply to both: a message type on a path gets an entry of its own
   * for that place in the schema (see {@link JsonSchemaOptions.outputOnly}).
   */
  create?: boolean | undefined;
  /** With `create`: an OUTPUT_ONLY member sent is an issue instead of being dropped. */
  strict?: boolean;
  /** With `create`: paths (proto names) of OUTPUT_ONLY fields, besides the descriptor's. */
  outputOnly?: readonly string[];
  /** With `create`: paths of REQUIRED fields, besides the descriptor's. */
  required?: readonly string[];
  /** With `create`: paths of IMMUTABLE fields, besides the descriptor's (which a create request may set). */
  immutable?: readonly string[];
}

/**
 * One problem of a value, as Standard Schema v1's `Issue` (`message`, `path`): the library's one issue shape,
 * {@link WktJsonIssue}, with its rule, JSON path, type name and detail besides.
 */
export type StandardSchemaIssue = WktJsonIssue;

/** What `validate` returns: the decoded message, or the issues (Standard Schema v1's `Result`). */
export type StandardSchemaResult<Output> =
  { readonly value: Output; readonly issues?: undefined } | { readonly issues: readonly StandardSchemaIssue[] };

/** The options of the JSON Schema converters (Standard JSON Schema v1's `Options`). */
export interface StandardJsonSchemaOptions {
  /** `"draft-2020-12"` or `"draft-07"`; other targets throw, as the spec asks. */
  readonly target: string;
  /** Passed to {@link jsonSchema}: `useProtoFieldName`, `enumAsInteger`, `alwaysEmitImplicit`. */
  readonly libraryOptions?: Record<string, unknown> | undefined;
}

/** The `~standard` member of {@link WktStandardSchema}. */
export interface StandardSchemaProps<Input, Output> {
  /** The version of the Standard Schema spec. */
  readonly version: 1;
  /** The library that made the schema. */
  readonly vendor: "wkt-json";
  /** Decodes a proto3 JSON value into a message, or lists every problem of it. Synchronous. */
  readonly validate: (value: unknown) => StandardSchemaResult<Output>;
  /** The input (the JSON type of the message) and output (the message) types, for inference only. */
  readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  /** JSON Schema of the input (what the decoder accepts) and of the output (its canonical JSON). */
  readonly jsonSchema: {
    readonly input: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
    readonly output: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
  };
}

/**
 * A message type as a Standard Schema v1 (and Standard JSON Schema v1): input the message's proto3 JSON,
 * output the message.
 */
export interface WktStandardSchema<Desc extends DescMessage> {
  /** The Standard Schema properties. */
  readonly "~standard": StandardSchemaProps<MessageJsonType<Desc>, MessageShape<Desc>>;
}

/**
 * Returns a Standard Schema v1 of a message type, for frameworks that validate request bodies with one: its
 * `validate(json)` decodes the proto3 JSON value with {@link fromJson} and returns `{ value: message }`, or
 * `{ issues }` with every problem (`validateJson`): each a {@link WktJsonIssue}, with our `message`, its `path`
 * as keys, `rule`, `jsonPath`, `typeName` and `detail`. The options are checked once, here.
 *
 * With `create: true` the value is a create request's body ({@link createFromJson}): OUTPUT_ONLY members are
 * dropped from the message (with `strict`, each is an issue), and each REQUIRED field missing is an issue, rule
 * `field-behavior`; `jsonSchema.input` states the same, path lists included. These are listed, every one up to
 * `maxIssues`, when the JSON is otherwise valid; for JSON the decoder refuses, the issues are the decoder's (the
 * field-behaviour issues come once those are fixed). In both modes the `path` option (`"$.Definition"`, the
 * body's place in the request) puts every issue under it: `path` `["Definition", "title"]`.
 *
 * The value is what a framework's `JSON.parse` gave: it has already lost the digits of an integer beyond 2^53
 * and the first of two members of the same name. To keep them, read the body as text with `fromJsonString`,
 * `createFromJsonString` or `patchFromJsonString`.
 *
 * @throws {WktJsonError} rule `json-type` if `schema` is not a message descriptor; `range` for an invalid
 *   `maxDepth`, `maxValues` or `maxIssues`, a `create` or `strict` that is not a boolean, or a path list that
 *   names no fields; `json-type` for a `registry` that is not a Registry. `validate` itself never throws for
 *   its value.
 * @example
 * const book = standardSchema(BookSchema);
 * const ok = book["~standard"].validate({ title: "Dune", publishTime: "1965-08-01T00:00:00Z" });
 * ok.issues === undefined && ok.value.title; //=> "Dune"
 * book["~standard"].validate({ title: 1, tags: "x" }).issues?.map((i) => [i.path, i.rule]);
 * //=> [[["title"], "json-type"], [["tags"], "json-type"]]
 * const createBook = standardSchema(BookSchema, { create: true, required: ["title"], outputOnly: ["name"] });
 * createBook["~standard"].validate({ name: "books/1", tags: ["sf"] }).issues?.map((i) => [i.path, i.rule]);
 * //=> [[["title"], "field-behavior"]]
 */
export function standardSchema<Desc extends DescMessage>(
  schema: Desc,
  options?: StandardSchemaOptions,
): WktStandardSchema<Desc> {
  checkSchema(schema);
  if (options !== undefined && (typeof options !== "object" || options === null)) {
    throw new WktJsonError("range", "$", "options", `options must be an object, got ${describe(options)}`);
  }
  // Checks every option once, so that validate never throws for them.
  validateJson(schema, {}, options);
  const opts: StandardSchemaOptions | undefined = options === undefined ? undefined : { ...options };
  const create = opts?.create;
  if (create !== undefined && typeof create !== "boolean") {
    throw new WktJsonError("range", "$", "options", `create must be a boolean, got ${describe(create)}`);
  }
  // The create mode's options as createFromJson reads them (strict, the path lists), checked here.
  const createOpts = create === true ? readCreateOptions(schema, opts) : undefined;
  const convert =
    (io: "input" | "output") =>
    (o: StandardJsonSchemaOptions): Record<string, unknown> => {
      const target = o?.target;
      if (target !== "draft-2020-12" && target !== "draft-07") {
        const got = typeof target === "string" ? JSON.stringify(target) : describe(target);
        throw new WktJsonError("range", "$", "options", `target must be "draft-2020-12" or "draft-07", got ${got}`);
      }
      const js: JsonSchemaOptions = { ...(o.libraryOptions as JsonSchemaOptions | undefined), io, target };
      if (opts?.registry !== undefined) js.registry = opts.registry;
      if (io === "input" && opts?.ignoreUnknownFields === true) js.ignoreUnknownFields = true;
      // The reader's allowPartial: proto2 required fields may be left out, and the input schema says so.
      if (io === "input" && opts?.allowPartial === true) js.allowPartial = true;
      // The input of a create request: REQUIRED fields `required`, OUTPUT_ONLY ones `readOnly` (jsonSchema's
      // `create` option).
      if (io === "input" && createOpts !== undefined) {
        js.create = true;
        // The path lists too, as validate applies them.
        if (opts?.required !== undefined) js.required = opts.required;
        if (opts?.outputOnly !== undefined) js.outputOnly = opts.outputOnly;
      }
      return jsonSchema(schema, js);
    };
  return {
    "~standard": {
      version: 1,
      vendor: "wkt-json",
      validate: (value) =>
        createOpts === undefined ? validate(schema, value, opts) : validateCreate(schema, value, opts, createOpts),
      jsonSchema: { input: convert("input"), output: convert("output") },
    },
  };
}

function validate<Desc extends DescMessage>(
  schema: Desc,
  value: unknown,
  options: StandardSchemaOptions | undefined,
): StandardSchemaResult<MessageShape<Desc>> {
  try {
    return { value: fromJson(schema, value as JsonValue, options) };
  } catch (e) {
    if (!isWktJsonError(e)) throw e;
    const found = validateJson(schema, value as JsonValue, options);
    // validateJson finds an issue exactly when fromJson fails; the error itself is the fallback all the same.
    if (found.length === 0) found.push(issueOfError(e));
    return { issues: found };
  }
}

/**
 * `validate` in the create mode: the decoder's issues for JSON it refuses; else every field-behaviour issue
 * (up to `maxIssues`), or the message without its output-only members.
 */
function validateCreate<Desc extends DescMessage>(
  schema: Desc,
  value: unknown,
  options: StandardSchemaOptions | undefined,
  o: Opts,
): StandardSchemaResult<MessageShape<Desc>> {
  const found: WktJsonError[] = [];
  let message: MessageShape<Desc>;
  try {
    message = createRun(schema, value as JsonValue, o, found);
  } catch (e) {
    if (!isWktJsonError(e)) throw e;
    // The decoder's issues; else the walk's own error (the work meter's `size`), never the unchecked value.
    const decoded = validate(schema, value, options);
    if (decoded.issues !== undefined) return decoded;
    return { issues: [issueOfError(e)] };
  }
  if (found.length === 0) return { value: message };
  const max = options?.maxIssues ?? validateMaxIssuesDefault;
  return {
    issues: found.slice(0, max).map(issueOfError),
  };
}
