/**
 * The one error class of wkt-json. Every failure caused by input (a JSON value, a JSON text, a message that
 * breaks a documented range or sign rule) is a {@link WktJsonError}: callers match on `rule` and `jsonPath` (or
 * `path`, its keys), people read `message`. Its members are those of {@link WktJsonIssue}, the shape of every
 * report of the library.
 *
 * @module
 */
import { jsonPathSegments } from "./json-path.js";

/**
 * The rule an input broke. Stable: callers may switch on it.
 *
 * - `json-type`: the JSON value has the wrong type (a number where a string belongs, ...).
 * - `syntax`: a string form is malformed (a Timestamp without `Z`, a Duration without `s`, bad base64, ...).
 * - `range`: a value is outside its documented range.
 * - `sign`: a Duration's seconds and nanos disagree in sign.
 * - `int64`: a value given for a 64-bit integer is not an integer in range, or of a type that is not accepted.
 * - `unknown-field`, `duplicate-field`, `oneof`: object members that do not fit the message.
 * - `enum`: an enum name or number that the enum does not have.
 * - `utf16`: a string with a lone surrogate.
 * - `not-finite`: NaN, Infinity, or a number literal beyond the range of a double (`1e400`), where only finite
 *   numbers may go: a google.protobuf.Value, and so a Struct or ListValue (type name `google.protobuf.Value`).
 * - `value-kind`: a google.protobuf.Value with no variant set.
 * - `depth`, `size`: the nesting or size limit was reached.
 * - `mask-path`: a FieldMask path that is malformed or names no field.
 * - `type-url`, `unknown-type`: an Any's type URL is malformed or names a type the registry lacks.
 * - `api-version`, `mixin`: the rules of google.protobuf.Api.
 * - `fetch`: a type URL could not be fetched.
 * - `binary`: bytes that should hold a serialized message (Any.value) do not.
 * - `required`: a proto2 `required` field (editions: LEGACY_REQUIRED) is unset, at any depth: in a message being
 *   written (`toJson`, `toJsonString`), or in JSON being read (`fromJson`, `fromJsonString`, `validateJson`,
 *   `createFromJson`; the path names the missing field), unless the read option `allowPartial: true`, which
 *   accepts it. A PATCH body and a merge may leave required fields out.
 * - `field-behavior`: an update breaks AIP-203 field behaviour (an IMMUTABLE field changed, a REQUIRED field
 *   cleared, an OUTPUT_ONLY field sent under `strict`).
 */
export type WktRule =
  | "json-type"
  | "syntax"
  | "range"
  | "sign"
  | "int64"
  | "unknown-field"
  | "duplicate-field"
  | "oneof"
  | "enum"
  | "utf16"
  | "not-finite"
  | "value-kind"
  | "depth"
  | "size"
  | "mask-path"
  | "type-url"
  | "unknown-type"
  | "api-version"
  | "mixin"
  | "fetch"
  | "binary"
  | "required"
  | "field-behavior";

/**
 * One problem of an input, the one shape of every report: the issues of `validateJson` and
 * `validateJsonString`, the issues of a Standard Schema's `validate`, and {@link WktJsonError} itself all have
 * these members, with these meanings. `message` and `path` are those of Standard Schema v1's `Issue`.
 *
 * @example
 * const [issue] = validateJsonString(BookSchema, '{"publishTime": "yesterday"}');
 * issue.rule;     //=> "syntax"
 * issue.path;     //=> ["publishTime"]
 * issue.jsonPath; //=> "$.publishTime"
 * issue.message;  //=> "google.protobuf.Timestamp at $.publishTime: ..." (`${typeName} at ${jsonPath}: ${detail}`)
 * issue.line;     //=> 1
 */
export interface WktJsonIssue {
  /** The rule the input broke; stable, for code to switch on. */
  readonly rule: WktRule;
  /** For people: `${typeName} at ${jsonPath}: ${detail}`. */
  readonly message: string;
  /**
   * The keys from the root to the offending value, as Standard Schema gives them: `["items", 2, "createTime"]`;
   * `[]` for the root. Each key whole (a key of the input is the input's own string).
   */
  readonly path: readonly (string | number)[];
  /**
   * The same path as text, as the client wrote the document: `$.items[2].createTime`, `$.labels["team name"]`;
   * `$` for the root. Every key whole, however long or deep.
   */
  readonly jsonPath: string;
  /** Fully-qualified protobuf name of the type being read or written, such as `google.protobuf.Timestamp`. */
  readonly typeName: string;
  /** What is wrong, for people (the message without the type and the path). */
  readonly detail: string;
  /** From a JSON text: 1-based line of the offending value (or character) in the text. */
  readonly line?: number;
  /** From a JSON text: 1-based column, in UTF-16 code units. */
  readonly column?: number;
}

/** The keys of each error's path, read from its `jsonPath` once, when first asked for. */
const pathKeys = new WeakMap<WktJsonError, readonly (string | number)[]>();

/**
 * The error every wkt-json function throws for bad input. It has the members of {@link WktJsonIssue} (the
 * shape of every report), besides those of `Error`.
 *
 * @example
 * try {
 *   timestampFromJson("2024-02-30T00:00:00Z", { path: "$.dueAt" });
 * } catch (e) {
 *   if (isWktJsonError(e)) console.log(e.rule, e.jsonPath, e.path); //=> "range" "$.dueAt" ["dueAt"]
 * }
 */
export class WktJsonError extends Error implements WktJsonIssue {
  override readonly name = "WktJsonError";
  /** 1-based line of the offending value in the input text; set by the string decoders only. */
  line?: number;
  /** 1-based column (in UTF-16 code units) of the offending value in the input text; see {@link line}. */
  column?: number;

  constructor(
    /** The rule the input broke. */
    readonly rule: WktRule,
    /** JSON path of the offending value from the root, such as `$.items[2].createTime`. */
    readonly jsonPath: string,
    /** Fully-qualified protobuf name of the type being read or written, such as `google.protobuf.Timestamp`. */
    readonly typeName: string,
    /** What is wrong, for people; the message is `${typeName} at ${jsonPath}: ${detail}`. */
    readonly detail: string,
    /** `cause`, as `Error` takes it (spelled out: the `ErrorOptions` type is missing from a `lib` before ES2022). */
    options?: { cause?: unknown },
  ) {
    super(`${typeName} at ${jsonPath}: ${detail}`, options);
  }

  /**
   * The keys from the root to the offending value: `["items", 2, "createTime"]`, `[]` for the root; read from
   * {@link jsonPath} when first asked for (an error is raised and moved up level by level without it).
   */
  get path(): readonly (string | number)[] {
    let keys = pathKeys.get(this);
    if (keys === undefined) pathKeys.set(this, (keys = Object.freeze(pathKeysOf(this.jsonPath))));
    return keys;
  }
}

/**
 * The keys of a JSON path. A path no JSON path parser reads (a caller's base path option is checked, so only an
 * error built by hand has one) is, after the keys read from its start, one key: the rest of the text.
 */
function pathKeysOf(jsonPath: string): (string | number)[] {
  const keys = jsonPathSegments(jsonPath);
  if (keys !== undefined) return keys;
  return jsonPath === "" || jsonPath === "$" ? [] : [jsonPath.charCodeAt(0) === 36 ? jsonPath.slice(1) : jsonPath];
}

/**
 * Tells whether a value is a {@link WktJsonError}, also across copies of the library (a realm or a second
 * bundle), where `instanceof` fails.
 *
 * @example
 * isWktJsonError(new WktJsonError("range", "$", "google.protobuf.Duration", "too large")); //=> true
 * isWktJsonError(new Error("x")); //=> false
 */
export function isWktJsonError(value: unknown): value is WktJsonError {
  return (
    value instanceof WktJsonError ||
    (value instanceof Error &&
      value.name === "WktJsonError" &&
      typeof (value as Partial<WktJsonError>).rule === "string" &&
      typeof (value as Partial<WktJsonError>).jsonPath === "string")
  );
}

/**
 * @internal The issue (plain data, {@link WktJsonIssue}) of an error: what a list of issues holds for an error
 * raised where issues are collected.
 */
export function issueOfError(e: WktJsonIssue): WktJsonIssue {
  const issue: { -readonly [K in keyof WktJsonIssue]: WktJsonIssue[K] } = {
    rule: e.rule,
    message: e.message,
    path: e.path,
    jsonPath: e.jsonPath,
    typeName: e.typeName,
    detail: e.detail,
  };
  if (e.line !== undefined) issue.line = e.line;
  if (e.column !== undefined) issue.column = e.column;
  return issue;
}

/**
 * Returns the error reported under another type name (a scalar's error as its wrapper's), anything else as is.
 *
 * @internal
 */
export function errorAsType(error: unknown, typeName: string): unknown {
  if (!(error instanceof WktJsonError)) return error;
  return new WktJsonError(error.rule, error.jsonPath, typeName, error.detail);
}
