/**
 * The `not-finite` rule, in one place. "JSON value will be ... a JSON number" and `google.protobuf.Value`'s
 * number_value is a double; JSON has no NaN or Infinity, so "attempting to serialize NaN or Infinity results in
 * error" (struct.proto), and a number the reader cannot hold as a finite double is refused the same way.
 *
 * The rule is google.protobuf.Value's, wherever the number sits: in a Value, in a Struct or ListValue (made of
 * Values), or in a Struct field read as plain JSON. One type name and one wording for all of them; the detail
 * names what the caller gave: NaN or Infinity from a JS value or a message, the literal itself from a JSON text
 * (`1e400`; the text decoders put it in, see {@link notFiniteLiteralError}), never an "Infinity" nobody wrote.
 *
 * @internal
 * @module
 */
import { WktJsonError } from "../errors.js";
import { valueTypeName } from "./names.js";

/** What every `not-finite` detail ends with: the rule broken. */
const rule = "; only finite numbers are allowed";

/** Longest literal or integer shown whole in a detail; a longer one is cut in the middle. */
const shownMax = 40;

/**
 * The `not-finite` error (type google.protobuf.Value, at `$`) of a number that is NaN or ±Infinity, or of an
 * integer (a `bigint`, as the text parser keeps large integers) beyond the range of a double.
 *
 * @example
 * notFiniteError(NaN).detail; //=> "NaN cannot be written in JSON; only finite numbers are allowed"
 * notFiniteError(10n ** 400n).detail;
 * //=> "the integer 10000000000000000000…0000000000 (401 digits) is beyond the range of a double; only finite numbers are allowed"
 */
export function notFiniteError(got: number | bigint): WktJsonError {
  const detail =
    typeof got === "bigint"
      ? `the integer ${shown(String(got), `${String(got < 0n ? -got : got).length} digits`)} is beyond the range of a double`
      : `${String(got)} cannot be written in JSON`;
  return new WktJsonError("not-finite", "$", valueTypeName, detail + rule);
}

/**
 * The detail of a `not-finite` issue told with the number literal a JSON text wrote (`1e400`, `-1` and 400
 * zeros): a text has no NaN or Infinity, so its only non-finite numbers are literals beyond the range of a
 * double. Undefined when `literal` is not a number literal.
 *
 * @example
 * notFiniteLiteralDetail("1e400"); //=> "1e400 is beyond the range of a double; only finite numbers are allowed"
 */
export function notFiniteLiteralDetail(literal: string): string | undefined {
  if (literal === "" || Number.isNaN(Number(literal))) return undefined;
  return `${shownLiteral(literal)} is beyond the range of a double${rule}`;
}

/**
 * The `not-finite` error `e` told with the literal the text wrote ({@link notFiniteLiteralDetail}), keeping its
 * path, line and column; any other error, or a `literal` that is not a number, gives `e` as is.
 *
 * @example
 * notFiniteLiteralError(e, "1e400").detail; //=> "1e400 is beyond the range of a double; only finite numbers are allowed"
 */
export function notFiniteLiteralError(e: WktJsonError, literal: string): WktJsonError {
  const detail = e.rule === "not-finite" ? notFiniteLiteralDetail(literal) : undefined;
  if (detail === undefined) return e;
  const told = new WktJsonError("not-finite", e.jsonPath, valueTypeName, detail);
  if (e.line !== undefined) told.line = e.line;
  if (e.column !== undefined) told.column = e.column;
  return told;
}

/**
 * A number literal of a JSON text as a detail quotes it: whole up to 40 characters, else its first 20 and last
 * 10 around "…", then its length (`10000000000000000000…0000000000 (401 characters)`).
 *
 * @example
 * shownLiteral("1e400"); //=> "1e400"
 */
export function shownLiteral(literal: string): string {
  return shown(literal, `${literal.length} characters`);
}

/** `s`, or its start and end around "…" and then its `size`, when longer than {@link shownMax}. */
function shown(s: string, size: string): string {
  if (s.length <= shownMax) return s;
  return `${s.slice(0, 20)}…${s.slice(-10)} (${size})`;
}
