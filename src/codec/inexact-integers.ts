/**
 * Integer fields and the decimal text of a number. "int32, fixed32, uint32: JSON value will be a decimal number.
 * Either numbers or strings are accepted." A number literal such as `1.00000000000000000001`,
 * `0.99999999999999999999` or `1e-400` is not an integer, but its double is (1, 1, 0): read as a double, an
 * integer field would take it, though it refuses the same text as a string. This module judges such literals
 * by their decimal text, for the text decoders (`fromJsonString`, `validateJsonString`, and what reads through
 * them), while double and float fields and Struct values keep the double.
 *
 * The text parser lists where such literals are ({@link InexactIntegers}: container, key, double, offset), and
 * only in a text that has one (json-text.ts finds them without looking at every number). The tree keeps the
 * doubles, so no new kind of value reaches the readers. A text with such literals is read once more first, with
 * the literals replaced by {@link marker}, a number that is not an integer: every integer reader (each integer
 * type, enum numbers, wrappers, map values, list elements, oneofs, Any values, extensions) refuses it with its
 * own rule and path, as it refuses `1.5`, and every other reader takes it as it takes the double (a number for a
 * double field or a Struct, refused alike by a string field). The error the marker caused gets the detail of
 * the literal; without an error, the tree is restored and read as usual. That first read costs a second decode
 * of the text, but only of a text holding such a literal; the common case pays nothing in the readers.
 *
 * A JS value given to `fromJson` has no text: its numbers are judged as the doubles they are.
 *
 * @internal
 * @module
 */
import { WktJsonError } from "../errors.js";
import { roundedFractionDetail } from "../internal/scalar.js";
import { locateJsonPath, type InexactIntegers } from "./json-text.js";

/**
 * What an inexact integer literal reads as in the judging read: finite, within float's range, and not an
 * integer, so that only the readers that want an integer refuse it.
 */
const marker = 0.5;
/** How the integer readers begin the detail of their error for the marker (`0.5 is not an integer`). */
const markerDetail = `${marker} `;

/**
 * Puts {@link marker} in place of each inexact integer literal in the tree of `root` and returns the value to
 * read (the marker itself when the whole text is such a literal). {@link inexactRestored} undoes it.
 *
 * @throws never
 * @example
 * const root = parseJsonText('{"a": 1e-400}', { exactNumbers: true });
 * inexactMarked(root, takeInexactIntegers()!); //=> { a: 0.5 }
 */
export function inexactMarked(root: unknown, inexact: InexactIntegers): unknown {
  let marked = root;
  for (let k = 0; k < inexact.containers.length; k++) {
    const container = inexact.containers[k];
    if (container === undefined) marked = marker;
    else setValue(container, inexact.keys[k]!, marker);
  }
  return marked;
}

/**
 * Puts back the doubles that {@link inexactMarked} replaced.
 *
 * @throws never
 * @example
 * inexactRestored(inexact); // root is { a: 0 } again
 */
export function inexactRestored(inexact: InexactIntegers): void {
  for (let k = 0; k < inexact.containers.length; k++) {
    const container = inexact.containers[k];
    if (container !== undefined) setValue(container, inexact.keys[k]!, inexact.values[k]!);
  }
}

function setValue(container: Record<string, unknown> | unknown[], key: string | number, value: number): void {
  if (key === "__proto__") {
    Object.defineProperty(container, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    (container as Record<string | number, unknown>)[key] = value;
  }
}

/**
 * The detail of an error that the judging read met at `offset` of the text, when {@link marker} caused it (a
 * reader refused the literal there as not an integer); otherwise undefined, and the error stands as it is.
 *
 * @throws never
 * @example
 * inexactDetail("0.5 is not an integer", 6, inexact); // for '{"a": 1e-400}'
 * //=> "the number is not an integer: its fraction is beyond what a double holds (a double reads it as 0)"
 */
export function inexactDetail(detail: string, offset: number, inexact: InexactIntegers): string | undefined {
  if (!detail.startsWith(markerDetail)) return undefined;
  const offsets = inexact.offsets;
  let lo = 0;
  let hi = offsets.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const o = offsets[mid]!;
    if (o === offset) return roundedFractionDetail(inexact.values[mid]!);
    if (o < offset) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/**
 * The judging read of a text that holds inexact integer literals: runs `read` on its tree with {@link marker} in
 * place of each, then restores the tree. Throws what `read` throws, an error the marker caused with the
 * literal's detail (rule `syntax` from an integer field, `enum` from an enum field) and its line and column;
 * returns when `read` accepts, and the caller then reads the restored tree.
 *
 * @throws {WktJsonError} what `read` throws.
 * @example
 * judgeInexact(text, root, inexact, (v) => readerFor(schema)(v, { ...ctx }));
 */
export function judgeInexact(
  text: string,
  root: unknown,
  inexact: InexactIntegers,
  read: (root: unknown) => unknown,
): void {
  try {
    read(inexactMarked(root, inexact));
  } catch (e) {
    throw inexactError(e, text, inexact);
  } finally {
    inexactRestored(inexact);
  }
}

/** `e`, or when {@link marker} caused it, the same error with the literal's detail, line and column. */
function inexactError(e: unknown, text: string, inexact: InexactIntegers): unknown {
  if (!(e instanceof WktJsonError) || !e.detail.startsWith(markerDetail)) return e;
  const at = locateJsonPath(text, e.jsonPath);
  const detail = at === undefined ? undefined : inexactDetail(e.detail, at.offset, inexact);
  if (detail === undefined) return e;
  const error = new WktJsonError(e.rule, e.jsonPath, e.typeName, detail);
  error.line = at!.line;
  error.column = at!.column;
  return error;
}
