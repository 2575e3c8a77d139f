/**
 * The one error class of wkt-json. Every failure caused by input (a JSON value, a JSON text, a message that
 * breaks a documented range or sign rule) is a {@link WktJsonError}: callers match on `rule` and `path`, people
 * read `message`.
 *
 * @module
 */

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
 * - `not-finite`: NaN or Infinity where only finite numbers may go (google.protobuf.Value).
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
 * The error every wkt-json function throws for bad input.
 *
 * @example
 * try {
 *   timestampFromJson("2024-02-30T00:00:00Z");
 * } catch (e) {
 *   if (isWktJsonError(e)) console.log(e.rule, e.path); //=> "range" "$"
 * }
 */
export class WktJsonError extends Error {
  override readonly name = "WktJsonError";
  /** 1-based line of the offending value in the input text; set by the string decoders only. */
  line?: number;
  /** 1-based column (in UTF-16 code units) of the offending value in the input text; see {@link line}. */
  column?: number;

  constructor(
    /** The rule the input broke. */
    readonly rule: WktRule,
    /** JSON path of the offending value from the root, such as `$.items[2].createTime`. */
    readonly path: string,
    /** Fully-qualified protobuf name of the type being read or written, such as `google.protobuf.Timestamp`. */
    readonly typeName: string,
    /** What is wrong, for people; the message is `${typeName} at ${path}: ${detail}`. */
    readonly detail: string,
    /** `cause`, as `Error` takes it (spelled out: the `ErrorOptions` type is missing from a `lib` before ES2022). */
    options?: { cause?: unknown },
  ) {
    super(`${typeName} at ${path}: ${detail}`, options);
  }
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
      typeof (value as Partial<WktJsonError>).path === "string")
  );
}

/**
 * Returns the error reported under another type name (a scalar's error as its wrapper's), anything else as is.
 *
 * @internal
 */
export function errorAsType(error: unknown, typeName: string): unknown {
  if (!(error instanceof WktJsonError)) return error;
  return new WktJsonError(error.rule, error.path, typeName, error.detail);
}
