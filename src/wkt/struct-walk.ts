/**
 * What the Struct walkers (struct-decode.ts, struct-encode.ts, struct-to-text.ts) and the public functions of
 * struct.ts share: the errors they throw, and the test that lets their first tries run.
 *
 * The errors are built here, out of line, so that the walkers stay small enough for V8 to inline into one
 * another.
 *
 * @internal
 * @module
 */
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { valueTypeName } from "../internal/names.js";

const hasOwnPropertyAtLoad = Object.prototype.hasOwnProperty;

/**
 * Whether `Object.prototype.hasOwnProperty` is the builtin it was when this module loaded: the first tries of
 * the walkers read members with `for...in` filtered by it, so it must tell own members from inherited ones.
 */
export function hasOwnPropertyIsBuiltin(): boolean {
  return Object.prototype.hasOwnProperty === hasOwnPropertyAtLoad;
}

/**
 * Member names known to be well-formed, by their length and position in their object: a name is compared
 * (by reference, for the internalized strings `for...in` gives) before it is checked. A string never changes,
 * so a name found here needs no check. Only names of up to 64 characters are kept, so at most 256 short
 * strings stay alive. Shared by the first tries of the decoder and the encoder. In the bench's 1 KB Struct
 * three names in four are found.
 */
export const checkedNames: string[] = new Array<string>(256).fill("");

/**
 * Only a `maxDepth` far above the default can exhaust the call stack; the caller gets the `depth` rule, not a
 * RangeError. The path is lost with the unwound stack, so it is `$`.
 */
export function stackOverflowToDepth(e: unknown, typeName: string): unknown {
  if (e instanceof RangeError) {
    return new WktJsonError("depth", "$", typeName, "nesting exhausted the call stack; lower maxDepth", {
      cause: e,
    });
  }
  return e;
}

/** The `utf16` error of a member name or string (`what`) with a lone surrogate. */
export function utf16Error(typeName: string, what: string): WktJsonError {
  return new WktJsonError("utf16", "$", typeName, `${what} has a lone surrogate, which UTF-8 cannot carry`);
}

/** The `json-type` error of a value that is not the JSON `expected`. */
export function jsonTypeError(typeName: string, got: unknown, expected: string): WktJsonError {
  return new WktJsonError("json-type", "$", typeName, `expected ${expected}, got ${describe(got)}`);
}

/** The `json-type` error of an encoder's argument that is not a `typeName` message. */
export function notAMessageError(typeName: string, got: unknown): WktJsonError {
  return new WktJsonError("json-type", "$", typeName, `expected a ${typeName} message, got ${describe(got)}`);
}

/** The `value-kind` error of a Value with no variant or an unknown one. */
export function valueKindError(variant: unknown): WktJsonError {
  if (variant === undefined) {
    return new WktJsonError("value-kind", "$", valueTypeName, "no variant is set; a Value must hold exactly one");
  }
  return new WktJsonError("value-kind", "$", valueTypeName, `unknown variant ${JSON.stringify(String(variant))}`);
}

/** The `json-type` error of a Value variant holding the wrong JS type. */
export function variantTypeError(variant: string, got: unknown): WktJsonError {
  return new WktJsonError("json-type", "$", valueTypeName, `variant ${variant} holds ${describe(got)}`);
}
