/**
 * JSON text to JavaScript values, for the string decoders. RFC 8259 §2: "A JSON text is a sequence of tokens.
 * The set of tokens includes six structural characters, strings, numbers, and three literal names. [...]
 * Insignificant whitespace is allowed before or after any of the six structural characters", where whitespace
 * is space, horizontal tab, line feed and carriage return only. §4: "The names within an object SHOULD be
 * unique"; proto3 JSON makes that a MUST (a repeated member is an error), so duplicates are rejected here.
 * §6: numbers are `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`; no leading zeros, no `+`, no
 * NaN or Infinity. §7: strings hold any code point except `"`, `\` and U+0000 to U+001F, which must be
 * escaped; escapes are `\" \\ \/ \b \f \n \r \t \uXXXX`.
 *
 * The result is what `JSON.parse` returns, with one difference: an integer literal (no fraction, no
 * exponent) outside the safe-integer range becomes a `bigint` with its exact value, so that a 64-bit field
 * keeps every digit. Every failure is a {@link WktJsonError} with the JSON path of the value being read and
 * the line and column of the offending character.
 *
 * Design (measured, see bench/cases/json-text.ts): `JSON.parse` is native, and a parser written in JavaScript
 * runs at a half to a third of its speed, so the common case is a hybrid. `JSON.parse` builds the tree and
 * checks the grammar; one walk over the tree ({@link checkTree}) checks nesting depth, counts the keys that
 * survived and the numbers beyond 2^53; one `indexOf` pass over the colons of the text ({@link textKeptEveryMember})
 * proves that no member was dropped, i.e. that no key was repeated. Numbers beyond 2^53 that were integer
 * literals are then replaced, in text order, by their exact `bigint` ({@link treePatched}). Anything else (a
 * duplicate, too deep, a text `JSON.parse` rejects, a tree whose walk is not in text order) goes to the strict
 * parser ({@link parseJsonTextStrict}), an iterative char-code scanner that is the authority on every rule and
 * builds every error. Both paths accept exactly the same texts and return the same values; the tests check
 * them against each other. The success path builds no path string and computes no line or column.
 *
 * Inexact integers (`exactNumbers` mode): a literal such as `1.00000000000000000001`, `0.99999999999999999999`
 * or `1e-400` is not an integer, but its double is (1, 1, 0), and an integer field must not take it, as it does
 * not take the same text as a string. The tree keeps the double (a double field or a Struct wants it); the
 * strict parser lists where such literals are ({@link InexactIntegers}, taken with {@link takeInexactIntegers})
 * for the codec to judge them (inexact-integers.ts). The hybrid leaves such texts to the strict parser; it
 * finds them without looking at every number ({@link mayHoldInexactInteger}, which states why that is enough).
 *
 * @internal
 * @module
 */
import { WktJsonError } from "../errors.js";
import { pathSegment } from "../path.js";
import { decodeStringLax, jsonPathSegments, skipStringLax } from "../json-path.js";
import { prototypeIsClean } from "../internal/objects.js";
import { jsonNumberToBigInt } from "../internal/scalar.js";

/** Options of {@link parseJsonText}. */
export interface JsonTextParseOptions {
  /**
   * Most nested objects and arrays (together) the text may hold: `[[1]]` has depth 2. The parser itself
   * never recurses, so this is a guard for the recursive decoders that walk the result. Default
   * {@link jsonTextMaxDepthDefault}.
   */
  maxDepth?: number;
  /** Most UTF-16 code units the text may have. Default unlimited. */
  maxLength?: number;
  /**
   * Exact numbers for the protobuf codec (default false, which keeps the contract above). A number literal
   * with a fraction or exponent that denotes an integer beyond the safe range, with at most
   * {@link exactDigitsMax} digits, also becomes an exact `bigint` (`9.223372036854775807e18` is int64 max, which
   * a double would round up to 2^63). An integer literal of more digits stays the rounded number that
   * `JSON.parse` gives: it is beyond every protobuf integer type anyway, and a `bigint` of a megabyte of digits
   * costs a second to build. So in this mode a number beyond the safe range is either an exact integer
   * (`bigint`) or a literal that no integer field may take: a fraction (`9007199254740993.5`, which a double
   * rounds to an integer), or at least 10^40.
   */
  exactNumbers?: boolean;
}

/**
 * Most significant digits of an integer made exact by {@link JsonTextParseOptions.exactNumbers}: every protobuf
 * integer type fits in 20, and {@link jsonNumberToBigInt} gives up beyond 40.
 */
const exactDigitsMax = 40;

/** Whether the current parse runs with {@link JsonTextParseOptions.exactNumbers}; set on entry, never re-entered. */
let exactMode = false;

/**
 * The number literals of a JSON text that are not integers while their double is one (`1.00000000000000000001`,
 * `1e-400`, `-0.99999999999999999999`), as the strict parser lists them in {@link JsonTextParseOptions.exactNumbers}
 * mode: literal k is the value at `keys[k]` of `containers[k]` (undefined: the whole text), holds the double
 * `values[k]` and starts at `offsets[k]` of the text (ascending).
 */
export interface InexactIntegers {
  readonly containers: readonly (Record<string, unknown> | unknown[] | undefined)[];
  readonly keys: readonly (string | number)[];
  readonly values: readonly number[];
  readonly offsets: readonly number[];
}

/** The {@link InexactIntegers} of the last parse, undefined when it had none (the common case allocates nothing). */
let inexactFound:
  | {
      containers: (Record<string, unknown> | unknown[] | undefined)[];
      keys: (string | number)[];
      values: number[];
      offsets: number[];
    }
  | undefined;

/**
 * Returns the {@link InexactIntegers} of the last {@link parseJsonText} or {@link parseJsonTextStrict} in
 * `exactNumbers` mode (undefined: none), and forgets them. Call it right after the parse.
 *
 * @example
 * parseJsonText('{"a": [1e-400]}', { exactNumbers: true }); //=> { a: [0] }
 * takeInexactIntegers()?.offsets; //=> [7]
 */
export function takeInexactIntegers(): InexactIntegers | undefined {
  const found = inexactFound;
  inexactFound = undefined;
  return found;
}

/**
 * Default nesting limit of {@link parseJsonText}: generous (the codec counts message depth, with its own
 * lower limit) and far below what the recursive decoders that walk the result can take.
 */
export const jsonTextMaxDepthDefault = 512;

/** Type name that errors of this module carry. */
const typeName = "JSON";

/**
 * Parses a JSON text (RFC 8259, exactly what `JSON.parse` accepts) to plain objects, arrays, strings,
 * numbers, booleans and null; an integer literal outside the safe-integer range becomes an exact `bigint`.
 * A `__proto__` key becomes an own data property, as with `JSON.parse`. Lone surrogates in strings are kept.
 *
 * @throws {WktJsonError} rule `syntax` for malformed text, `duplicate-field` for a key repeated in one
 *   object, `depth` for nesting beyond `maxDepth`, `size` for a text longer than `maxLength`; `path` is the
 *   JSON path of the value being read, `line` and `column` (1-based, UTF-16 code units) locate the character.
 * @example
 * parseJsonText('{"id": 9007199254740993, "n": [1, -0.5]}'); //=> { id: 9007199254740993n, n: [1, -0.5] }
 * parseJsonText('{"a": 1, "a": 2}'); // throws WktJsonError (rule "duplicate-field", jsonPath "$.a")
 */
export function parseJsonText(text: string, options?: JsonTextParseOptions): unknown {
  if (typeof text !== "string") {
    throw new WktJsonError("json-type", "$", typeName, "expected the JSON text as a string");
  }
  const maxDepth = options?.maxDepth ?? jsonTextMaxDepthDefault;
  const maxLength = options?.maxLength;
  exactMode = options?.exactNumbers === true;
  inexactFound = undefined;
  if (maxLength !== undefined && text.length > maxLength) {
    throw located(
      new WktJsonError(
        "size",
        "$",
        typeName,
        `the text has ${text.length} UTF-16 code units, more than the limit of ${maxLength}`,
      ),
      text,
      maxLength,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Malformed: the strict parser names the rule, path and position.
    return parseJsonTextStrict(text, maxDepth, exactMode);
  }
  if (typeof value === "object") {
    if (value === null) return value;
    // With no key kept, the text has no member either: a repeated key leaves the first one's object a key.
    if (!treeDepthOk(value, maxDepth) || !textKeptEveryMember(text, treeKeys)) {
      return parseJsonTextStrict(text, maxDepth, exactMode);
    }
    // Inexact integers are listed by the strict parser.
    if (exactMode && treeIntegral !== 0 && mayHoldInexactInteger(text, treeIntegral)) {
      return parseJsonTextStrict(text, maxDepth, exactMode);
    }
    if (treeUnsafe > 0) {
      // Put the exact integers in, in text order; the strict parser when that cannot be done.
      if (!treePatched(value, text)) return parseJsonTextStrict(text, maxDepth, exactMode);
    }
    return value;
  }
  if (typeof value === "number") {
    if (!(value <= safeMax && value >= -safeMax)) return parseJsonTextStrict(text, maxDepth, exactMode);
    if (exactMode && Math.floor(value) === value && mayHoldInexactInteger(text, integralOf(value))) {
      return parseJsonTextStrict(text, maxDepth, exactMode);
    }
  }
  return value;
}

// ---------------------------------------------------------------------------------------------------------
// Checking what JSON.parse built

/** Largest magnitude of a safe integer; beyond it an integer literal may have lost digits. */
const safeMax = 9007199254740991;

/** Keys counted by {@link checkTree}. */
let treeKeys = 0;
/** Numbers beyond the safe range seen by {@link checkTree}. */
let treeUnsafe = 0;
/**
 * The safe integral numbers seen by {@link checkTree}, as bits ({@link integralOf}) for
 * {@link mayHoldInexactInteger}: only an integral double can come from an inexact integer literal.
 */
let treeIntegral = 0;

/** The {@link treeIntegral} bits of one safe integral number: 1, and 2 from 10^7, and 4 from 10^14 (magnitude). */
function integralOf(v: number): number {
  const a = v < 0 ? -v : v;
  return a >= 1e14 ? 7 : a >= 1e7 ? 3 : 1;
}

/**
 * Tells whether the tree `JSON.parse` built nests no deeper than `maxDepth` (see {@link checkTree}), counting
 * its keys into {@link treeKeys} and its numbers beyond the safe range into {@link treeUnsafe}.
 */
function treeDepthOk(value: object, maxDepth: number): boolean {
  treeKeys = 0;
  treeUnsafe = 0;
  treeIntegral = 0;
  if (!prototypeIsClean()) return false;
  try {
    return checkTree(value, 1, maxDepth);
  } catch {
    // Only a stack overflow can land here, with a huge maxDepth: the strict parser needs no call stack.
    return false;
  }
}

/**
 * Walks a value built by `JSON.parse` (at `depth`) and tells whether it nests no deeper than `maxDepth`;
 * counts object keys into {@link treeKeys} and numbers beyond the safe range into {@link treeUnsafe}.
 * Recursion is bounded by `maxDepth` and by the depth of the tree.
 */
function checkTree(v: object, depth: number, maxDepth: number): boolean {
  if (depth > maxDepth) return false;
  if (Array.isArray(v)) {
    let k = typeof v[0] === "number" ? checkNumbers(v) : 0;
    for (; k < v.length; k++) {
      const e: unknown = v[k];
      if (typeof e === "object") {
        if (e !== null && !checkTree(e, depth + 1, maxDepth)) return false;
      } else if (typeof e === "number") {
        if (!(e <= safeMax && e >= -safeMax)) treeUnsafe++;
        else if (Math.floor(e) === e) treeIntegral |= integralOf(e);
      }
    }
    return true;
  }
  // for-in is the fastest walk over own keys; Object.prototype was checked to have no enumerable property.
  for (const key in v) {
    treeKeys++;
    const e: unknown = (v as Record<string, unknown>)[key];
    if (typeof e === "object") {
      if (e !== null && !checkTree(e, depth + 1, maxDepth)) return false;
    } else if (typeof e === "number") {
      if (!(e <= safeMax && e >= -safeMax)) treeUnsafe++;
      else if (Math.floor(e) === e) treeIntegral |= integralOf(e);
    }
  }
  return true;
}

/**
 * Checks the leading numbers of an array and returns the index of its first other element. A loop of its
 * own, so that its element loads see only number arrays and stay unboxed.
 */
function checkNumbers(v: unknown[]): number {
  // The integral bits are gathered in a local: one store per array, not per element.
  let integral = 0;
  let k = 0;
  for (; k < v.length; k++) {
    const e = v[k];
    if (typeof e !== "number") break;
    if (!(e <= safeMax && e >= -safeMax)) treeUnsafe++;
    else if (Math.floor(e) === e) integral |= integralOf(e);
  }
  treeIntegral |= integral;
  return k;
}

/**
 * Tells whether a valid JSON text may hold an inexact integer literal (see {@link InexactIntegers}), given the
 * {@link treeIntegral} bits of its tree (nonzero); false only if it holds none. It looks at no number but those
 * that native searches land on (`indexOf`, and regular expressions that start at a point), and checks each hit
 * with {@link inexactLiteralAround}; a hit inside a string only costs the strict parse.
 *
 * Why these searches find every such literal x, whose double n is an integer with |n| <= 2^53 (beyond that the
 * codec refuses a non-integer literal anyway), with N mantissa digits (before and after the point):
 * 1. N >= 16, or the exponent has 3 digits or more. Otherwise x = D * 10^s with an integer D < 10^N and
 *    s >= -(15 + 99), so x is a normal double (|x| >= 10^-114), rounded with an error below 2^-53 * |x| <
 *    2^-53 * 10^(N+s) < 10^s (as 2^-53 < 1.2 * 10^-16); as x is not an integer, its distance to the nearest
 *    integer is at least 10^s (x * 10^-s is an integer, not a multiple of 10^-s), so its double lies strictly
 *    between two integers.
 * 2. Without an exponent, with A digits before the point: |x| < 10^A, so |x - n| <= 2^-53 * 10^A < 10^(A-15),
 *    so the first 15 - A digits after the point are all 0 (n rounds x toward zero) or all 9 (away from it).
 *    So the point is followed by eight 0s or eight 9s, or A >= 8 (then |n| >= 10^7: bit 2) and the point
 *    follows 8 digits and precedes a 0 or a 9, or A >= 15 (then |n| >= 10^14: bit 4) and the point follows 15
 *    digits: {@link pointPatterns}.
 * 3. With an exponent: by 1., 16 mantissa digits or 3 exponent digits are next to its `e` or `E`.
 * And with no integral number in the tree, there is no such literal.
 */
function mayHoldInexactInteger(text: string, integral: number): boolean {
  if (text.indexOf(".") >= 0 && pointFound(text, pointPatterns[integral >> 1]!)) return true;
  return exponentFound(text, "e") || exponentFound(text, "E");
}

/**
 * The points of case 2 of {@link mayHoldInexactInteger}, by {@link treeIntegral} bits 2 and 4: a point followed
 * by eight 0s or 9s; or after 8 digits and before a 0 or 9; or after 15 digits. Each starts at the point, which
 * the regular expression engine finds fast (a lookbehind first would be tried at every digit).
 */
const pointPatterns: readonly RegExp[] = [
  /\.(?:0{8}|9{8})/g,
  /\.(?:0{8}|9{8}|[09](?<=\d{8}\.[09]))/g,
  /\.(?:0{8}|9{8}|[09](?<=\d{8}\.[09]))/g, // bit 4 without bit 2 does not occur
  /\.(?:0{8}|9{8}|[09](?<=\d{8}\.[09])|(?<=\d{15}\.))/g,
];

/** Whether a match of `pattern` (global, starting at a point) lies in an inexact integer literal. */
function pointFound(text: string, pattern: RegExp): boolean {
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
    if (inexactLiteralAround(text, m.index)) return true;
    pattern.lastIndex = tokenEnd; // after the point
  }
  return false;
}

/** Whether an `e` (or `E`) after a digit, with 16 mantissa digits or 3 exponent digits, is in such a literal. */
function exponentFound(text: string, e: "e" | "E"): boolean {
  for (let i = text.indexOf(e); i >= 0; i = text.indexOf(e, i + 1)) {
    if (!isDigitCode(text.charCodeAt(i - 1))) continue;
    let j = i + 1;
    const sign = text.charCodeAt(j);
    if (sign === 43 || sign === 45) j++;
    const long =
      isDigitCode(text.charCodeAt(j)) && isDigitCode(text.charCodeAt(j + 1)) && isDigitCode(text.charCodeAt(j + 2));
    let digits = long ? 16 : 0;
    let point = false;
    for (let k = i - 1; digits < 16; k--) {
      const c = text.charCodeAt(k);
      if (isDigitCode(c)) digits++;
      else if (c === 46 && !point) point = true;
      else break;
    }
    if (digits >= 16) {
      if (inexactLiteralAround(text, i)) return true;
      i = tokenEnd - 1;
    }
  }
  return false;
}

/** The offset after the run of number characters that {@link inexactLiteralAround} looked at last. */
let tokenEnd = 0;

/**
 * Tells whether the run of number characters (`0-9 . e E + -`) around offset `i` is an inexact integer literal:
 * a JSON number that is not an integer, whose double is a safe integer. Sets {@link tokenEnd}.
 */
function inexactLiteralAround(text: string, i: number): boolean {
  let start = i;
  while (start > 0 && isNumberCode(text.charCodeAt(start - 1))) start--;
  let end = i;
  while (end < text.length && isNumberCode(text.charCodeAt(end))) end++;
  tokenEnd = end;
  const literal = text.slice(start, end);
  return inexactLiteral(literal, Number(literal));
}

/** Tells whether `literal`, whose double is `d`, is a JSON number that is not an integer while `d` is a safe one. */
function inexactLiteral(literal: string, d: number): boolean {
  return Math.floor(d) === d && d <= safeMax && d >= -safeMax && jsonNumberToBigInt(literal) === null;
}

function isDigitCode(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** A character of a number literal: a digit, `.`, `e`, `E`, `+` or `-`. */
function isNumberCode(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45;
}

/**
 * Lists the number literals of a valid JSON text whose value is beyond the safe range, in text order: the
 * literal itself for an integer literal (it becomes a `bigint`), `""` for others (`1e300` stays a number).
 * Only numbers with 16 or more integer digits or with an exponent can be beyond the safe range.
 */
function unsafeLiterals(text: string): string[] {
  const n = text.length;
  const out: string[] = [];
  let i = 0;
  while (i < n) {
    let c = text.charCodeAt(i);
    if (c === 34) {
      i = closingQuote(text, i) + 1;
      if (i === 0) return out;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      const start = i;
      if (c === 45) c = text.charCodeAt(++i);
      const digits = i;
      while (c >= 48 && c <= 57) c = text.charCodeAt(++i);
      const intDigits = i - digits;
      let integer = true;
      let exponent = false;
      if (c === 46) {
        integer = false;
        do c = text.charCodeAt(++i);
        while (c >= 48 && c <= 57);
      }
      if (c === 101 || c === 69) {
        integer = false;
        exponent = true;
        c = text.charCodeAt(++i);
        if (c === 43 || c === 45) c = text.charCodeAt(++i);
        while (c >= 48 && c <= 57) c = text.charCodeAt(++i);
      }
      // 17 or more integer digits are at least 10^16, beyond the safe range; 16 digits may still be safe.
      if (intDigits > 16 && (integer || !exactMode)) {
        // An integer literal of 17 digits or more is beyond the safe range: exact, up to exactDigitsMax digits
        // in exactNumbers mode (no Number() of it needed).
        out.push(!integer ? "" : exactMode && intDigits > exactDigitsMax ? "" : text.slice(start, i));
      } else if (intDigits >= 16 || exponent) {
        const literal = text.slice(start, i);
        const v = Number(literal);
        if (!(v <= safeMax && v >= -safeMax))
          out.push(exactMode ? exactInteger(literal, integer) : integer ? literal : "");
      }
    } else {
      i++;
    }
  }
  return out;
}

/**
 * The decimal digits of the exact integer a number literal beyond the safe range denotes, or `""` to keep the
 * rounded number: the {@link JsonTextParseOptions.exactNumbers} rule.
 */
function exactInteger(literal: string, integer: boolean): string {
  if (integer) return literal.length - (literal.charCodeAt(0) === 45 ? 1 : 0) <= exactDigitsMax ? literal : "";
  const b = jsonNumberToBigInt(literal); // null: not an integer; Infinity: more than 40 digits
  return typeof b === "bigint" ? String(b) : "";
}

/**
 * Puts the exact `bigint` of every integer literal beyond the safe range into the tree `JSON.parse` built
 * (whose {@link treeUnsafe} is set), and tells whether that worked.
 */
function treePatched(value: object, text: string): boolean {
  const literals = unsafeLiterals(text);
  if (literals.length !== treeUnsafe) return false;
  patchAt = 0;
  try {
    return patchTree(value, literals) && patchAt === literals.length;
  } catch {
    return false; // a stack overflow, as in treeDepthOk
  }
}

/** Index into the list of {@link unsafeLiterals} while {@link patchTree} walks. */
let patchAt = 0;

/**
 * Replaces, in text order, the numbers beyond the safe range that came from integer literals with their exact
 * `bigint`s. Tells whether it could: the walk must follow text order, and `for...in` puts integer-like keys
 * first, so an object with a key that starts with a digit makes it give up (and the strict parser runs).
 */
function patchTree(v: object, literals: readonly string[]): boolean {
  if (Array.isArray(v)) {
    for (let k = 0; k < v.length; k++) {
      const e: unknown = v[k];
      if (typeof e === "object") {
        if (e !== null && !patchTree(e, literals)) return false;
      } else if (typeof e === "number" && !(e <= safeMax && e >= -safeMax)) {
        const literal = literals[patchAt++];
        if (literal === undefined) return false;
        if (literal !== "") v[k] = BigInt(literal);
      }
    }
    return true;
  }
  for (const key in v) {
    const first = key.charCodeAt(0);
    if (first >= 48 && first <= 57) return false;
    const e: unknown = (v as Record<string, unknown>)[key];
    if (typeof e === "object") {
      if (e !== null && !patchTree(e, literals)) return false;
    } else if (typeof e === "number" && !(e <= safeMax && e >= -safeMax)) {
      const literal = literals[patchAt++];
      if (literal === undefined) return false;
      if (literal === "") continue;
      if (key === "__proto__") {
        Object.defineProperty(v, key, { value: BigInt(literal), writable: true, enumerable: true, configurable: true });
      } else {
        (v as Record<string, unknown>)[key] = BigInt(literal);
      }
    }
  }
  return true;
}

/** Returns the offset of the quote that closes the string opening at `open` in a valid text, or -1. */
function closingQuote(text: string, open: number): number {
  let end = text.indexOf('"', open + 1);
  while (end > 0 && text.charCodeAt(end - 1) === 92) {
    // An odd run of backslashes escapes the quote. The run stops at the opening quote at the latest.
    let k = end - 2;
    while (text.charCodeAt(k) === 92) k--;
    if ((end - k) % 2 === 1) break;
    end = text.indexOf('"', end + 1);
  }
  return end;
}

/**
 * Counts the colons of a valid JSON text that directly follow an unescaped quote, a cheap stand-in for
 * {@link countMembers}: one `indexOf` per colon instead of two per string. A structural colon follows its
 * key's closing quote, after optional whitespace; when whitespace or an escaped quote makes that ambiguous,
 * returns -1. Otherwise the count is the members plus the strings that start with a colon (`":)"`), so it
 * equals the number of keys `JSON.parse` kept only if no key was repeated.
 */
function colonCount(text: string): number {
  let count = 0;
  let c = text.indexOf(":");
  while (c >= 0) {
    let b = c - 1;
    let q = text.charCodeAt(b);
    if (q === 34) {
      if (text.charCodeAt(b - 1) === 92) return -1;
      count++;
    } else if (q === 32 || q === 10 || q === 13 || q === 9) {
      // Whitespace runs before distinct colons do not overlap: linear overall.
      do q = text.charCodeAt(--b);
      while (q === 32 || q === 10 || q === 13 || q === 9);
      if (q === 34) return -1;
    }
    c = text.indexOf(":", c + 1);
  }
  return count;
}

/**
 * Counts the members of a valid JSON text: the strings followed by `:`. Strings are found with `indexOf`
 * (outside strings a valid text has no quote), so the cost is per string, not per character.
 */
function countMembers(text: string): number {
  let members = 0;
  let i = text.indexOf('"');
  while (i >= 0) {
    let end = closingQuote(text, i);
    if (end < 0) return -1;
    let d = text.charCodeAt(++end);
    while (d === 32 || d === 10 || d === 13 || d === 9) d = text.charCodeAt(++end);
    if (d === 58) members++;
    i = text.indexOf('"', end);
  }
  return members;
}

/**
 * Tells whether a valid JSON text whose parse kept `keys` object members repeats no key: the duplicate check
 * of {@link parseJsonText} ({@link colonCount}, then {@link countMembers} when that is ambiguous), for callers
 * that walk `JSON.parse`'s tree themselves and count its keys.
 *
 * @example
 * textKeptEveryMember('{"a": 1, "b": {"c": 2}}', 3); //=> true
 * textKeptEveryMember('{"a": 1, "a": 2}', 1); //=> false
 */
export function textKeptEveryMember(text: string, keys: number): boolean {
  if (keys === 0) return true;
  // Every colon of the text: the members plus the colons inside strings, so never fewer than the members.
  // Equal to the keys kept, it proves no key was repeated, without colonCount's look at what precedes each
  // colon (struct-100kb: 0.07x JSON.parse's time instead of 0.14x, on Node 20). One colon more than the keys
  // ends the count: a text with colons in its strings (times, URLs) then takes the exact counts.
  // The loop is here rather than in a small function of its own: Node 24's Maglev inlines small functions
  // into a caller that can stay in Maglev, where each `indexOf` goes through the generic builtin, while this
  // function, too large for Maglev to inline, reaches Turbofan by its loop.
  let colons = 0;
  for (let c = text.indexOf(":"); c >= 0; c = text.indexOf(":", c + 1)) {
    if (++colons > keys) break;
  }
  return colons === keys || colonCount(text) === keys || countMembers(text) === keys;
}

// ---------------------------------------------------------------------------------------------------------
// Strict parser

/** Where a helper stopped: the offset after what it read, or, when it returns a failure, the offset of it. */
let at = 0;
/** What a helper found wrong, when it returns a failure. */
let failure = "";

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * Parses a JSON text like {@link parseJsonText}, without the `JSON.parse` fast path: one iterative pass over
 * char codes that checks every rule and builds every error. Nesting uses an explicit stack, so no input can
 * overflow the call stack. `exactNumbers` is {@link JsonTextParseOptions.exactNumbers}.
 *
 * With a `duplicates` list, a repeated key is not an error: it is recorded there (path and offset of the
 * repeated name) and its value is parsed and dropped, the first member's value kept. The collect-all
 * validator uses this to report every repeated key, not only the first.
 *
 * @throws {WktJsonError} as {@link parseJsonText}.
 * @example
 * parseJsonTextStrict("[1, 2]", 512); //=> [1, 2]
 */
export function parseJsonTextStrict(
  text: string,
  maxDepth: number,
  exactNumbers = false,
  duplicates?: JsonTextDuplicate[],
): unknown {
  exactMode = exactNumbers;
  inexactFound = undefined;
  const collect = duplicates !== undefined;
  const n = text.length;
  // The open containers, outermost first, and for objects the key of the member being read.
  const stack: (Record<string, unknown> | unknown[])[] = [];
  const stackKeys: string[] = [];
  // With `duplicates`: whether the member being read repeats a key (its value is dropped), per open container.
  const stackDrop: boolean[] = [];
  let drop = false;
  let cur: Record<string, unknown> | unknown[] | undefined;
  let curIsArray = false;
  let key = "";
  let depth = 0;
  let value: unknown;
  let i = skipWhitespace(text, 0);

  for (;;) {
    // Read one value at i; a container that opens continues the loop with its first member.
    let c = text.charCodeAt(i);
    if (c === 34) {
      let j = i + 1;
      let escaped = false;
      for (;;) {
        const d = text.charCodeAt(j);
        if (d === 34) break;
        if (d === 92 || !(d >= 32)) {
          j = skipStringSlow(text, j);
          if (j < 0) throw strictError(text, "syntax", failure, at, stack, stackKeys, cur, key, true);
          escaped = true;
          break;
        }
        j++;
      }
      value = escaped ? decodeString(text, i, j) : text.slice(i + 1, j);
      i = j + 1;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      value = readNumber(text, i);
      if (value === undefined) throw strictError(text, "syntax", failure, at, stack, stackKeys, cur, key, true);
      if (numberInexact) {
        numberInexact = false;
        // Where the value goes; a repeated key's value (`drop`) goes nowhere.
        if (!drop)
          recordInexact(cur, cur === undefined ? "" : curIsArray ? (cur as unknown[]).length : key, value as number, i);
      }
      i = at;
    } else if (c === 123 || c === 91) {
      if (depth >= maxDepth) {
        throw strictError(
          text,
          "depth",
          `more than ${maxDepth} nested objects and arrays`,
          i,
          stack,
          stackKeys,
          cur,
          key,
          true,
        );
      }
      i = skipWhitespace(text, i + 1);
      const close = c + 2; // '{' + 2 = '}', '[' + 2 = ']'
      if (text.charCodeAt(i) === close) {
        value = c === 123 ? {} : [];
        i++;
      } else {
        if (cur !== undefined) {
          stack.push(cur);
          stackKeys.push(key);
          stackDrop.push(drop);
          drop = false;
        }
        depth++;
        if (c === 91) {
          cur = [];
          curIsArray = true;
          continue;
        }
        cur = {};
        curIsArray = false;
        key = "";
        i = readMemberName(text, i, cur, false);
        if (i < 0) throw memberError(text, i, stack, stackKeys, cur);
        key = lastName;
        continue;
      }
    } else if (c === 116 || c === 102 || c === 110) {
      const word = c === 116 ? "true" : c === 102 ? "false" : "null";
      for (let k = 1; k < word.length; k++) {
        if (text.charCodeAt(i + k) !== word.charCodeAt(k)) {
          throw strictError(
            text,
            "syntax",
            `expected ${word}, got ${describeAt(text, i + k)}`,
            i + k,
            stack,
            stackKeys,
            cur,
            key,
            true,
          );
        }
      }
      value = c === 116 ? true : c === 102 ? false : null;
      i += word.length;
    } else {
      throw strictError(
        text,
        "syntax",
        `expected a value, got ${describeAt(text, i)}`,
        i,
        stack,
        stackKeys,
        cur,
        key,
        true,
      );
    }

    // A value is complete: store it, then continue with the next member or close containers.
    for (;;) {
      if (cur === undefined) {
        i = skipWhitespace(text, i);
        if (i < n)
          throw strictError(
            text,
            "syntax",
            `expected the end of the text after the value, got ${describeAt(text, i)}`,
            i,
            stack,
            stackKeys,
            cur,
            key,
            false,
          );
        return value;
      }
      if (curIsArray) {
        (cur as unknown[]).push(value);
      } else if (drop) {
        // A repeated key under `duplicates`: the first member's value stays.
      } else if (key === "__proto__") {
        Object.defineProperty(cur, key, { value, writable: true, enumerable: true, configurable: true });
      } else {
        (cur as Record<string, unknown>)[key] = value;
      }
      i = skipWhitespace(text, i);
      c = text.charCodeAt(i);
      if (c === 44) {
        i = skipWhitespace(text, i + 1);
        if (curIsArray) break;
        const nameAt = i;
        i = readMemberName(text, i, cur as Record<string, unknown>, collect);
        if (i < 0) throw memberError(text, i, stack, stackKeys, cur);
        key = lastName;
        drop = lastRepeated;
        if (drop) duplicates!.push({ segments: duplicatePath(stack, stackKeys, key), name: key, offset: nameAt });
        break;
      }
      if (c !== (curIsArray ? 93 : 125)) {
        const expected = curIsArray ? "',' or ']' after an array element" : "',' or '}' after a member";
        throw strictError(
          text,
          "syntax",
          `expected ${expected}, got ${describeAt(text, i)}`,
          i,
          stack,
          stackKeys,
          cur,
          key,
          false,
        );
      }
      i++;
      value = cur;
      depth--;
      cur = stack.pop();
      if (cur !== undefined) {
        key = stackKeys.pop()!;
        drop = stackDrop.pop()!;
        curIsArray = Array.isArray(cur);
      }
    }
  }
}

/**
 * The path of a repeated member as segments (the parsed keys, shared): a text can repeat keys many times under
 * one long key, and each repeat gets a path of its own, formatted only if an issue's path is read.
 */
function duplicatePath(
  stack: readonly (Record<string, unknown> | unknown[])[],
  stackKeys: readonly string[],
  key: string,
): (string | number)[] {
  const segments: (string | number)[] = [];
  for (let d = 0; d < stack.length; d++) {
    const c = stack[d]!;
    segments.push(Array.isArray(c) ? c.length : stackKeys[d]!);
  }
  segments.push(key);
  return segments;
}

/** A key repeated in an object, as {@link parseJsonTextStrict} records it when asked to. */
export interface JsonTextDuplicate {
  /** JSON path of the repeated member as keys from the root, such as `["a", "b"]`. */
  segments: (string | number)[];
  /** The repeated key. */
  name: string;
  /** Offset of the repeated member's name in the text. */
  offset: number;
}

/** The name that {@link readMemberName} read. */
let lastName = "";
/** Whether that name repeats a key of the object (only when repeats are allowed). */
let lastRepeated = false;
/** Whether the failure of {@link readMemberName} is a repeated name (else malformed text). */
let failedDuplicate = false;

/**
 * Reads `"name" :` at `i` (whitespace skipped before), checks that the name is new in `obj` (or, with
 * `allowRepeat`, says in {@link lastRepeated} that it is not), and returns the offset of the member's value
 * (whitespace skipped). On failure, returns -1 if the name itself is missing or malformed (reported at the
 * object), -2 if it was read into {@link lastName} (reported at the member), with {@link failure},
 * {@link failedDuplicate} and {@link at} set.
 */
function readMemberName(text: string, i: number, obj: Record<string, unknown>, allowRepeat: boolean): number {
  failedDuplicate = false;
  lastRepeated = false;
  if (text.charCodeAt(i) !== 34)
    return failAt(`expected a member name in double quotes, got ${describeAt(text, i)}`, i);
  let j = i + 1;
  let escaped = false;
  for (;;) {
    const d = text.charCodeAt(j);
    if (d === 34) break;
    if (d === 92 || !(d >= 32)) {
      j = skipStringSlow(text, j);
      if (j < 0) return -1;
      escaped = true;
      break;
    }
    j++;
  }
  const name = escaped ? decodeString(text, i, j) : text.slice(i + 1, j);
  lastName = name;
  if (hasOwn.call(obj, name)) {
    if (allowRepeat) {
      lastRepeated = true;
    } else {
      failAt(`the member ${JSON.stringify(name)} is repeated`, i);
      failedDuplicate = true;
      return -2;
    }
  }
  i = skipWhitespace(text, j + 1);
  if (text.charCodeAt(i) !== 58) {
    failAt(`expected ':' after the member name, got ${describeAt(text, i)}`, i);
    return -2;
  }
  return skipWhitespace(text, i + 1);
}

/** Builds the error for a failed {@link readMemberName} that returned `code`. */
function memberError(
  text: string,
  code: number,
  stack: readonly (Record<string, unknown> | unknown[])[],
  stackKeys: readonly string[],
  cur: Record<string, unknown> | unknown[],
): WktJsonError {
  const rule = failedDuplicate ? "duplicate-field" : "syntax";
  return strictError(text, rule, failure, at, stack, stackKeys, cur, lastName, code === -2);
}

/** Builds an error of the strict parser at `offset`, with the path from its stack (see {@link pathOf}). */
function strictError(
  text: string,
  rule: "syntax" | "depth" | "duplicate-field",
  detail: string,
  offset: number,
  stack: readonly (Record<string, unknown> | unknown[])[],
  stackKeys: readonly string[],
  cur: Record<string, unknown> | unknown[] | undefined,
  key: string,
  inMember: boolean,
): WktJsonError {
  return located(new WktJsonError(rule, pathOf(stack, stackKeys, cur, key, inMember), typeName, detail), text, offset);
}

/**
 * Skips the rest of a string from `j`, the first backslash or control character in it, checking every
 * escape. Returns the offset of the closing quote, or -1 with {@link failure} and {@link at} set.
 */
function skipStringSlow(text: string, j: number): number {
  const n = text.length;
  for (;;) {
    const d = text.charCodeAt(j);
    if (d === 34) return j;
    if (d === 92) {
      const e = text.charCodeAt(j + 1);
      if (e === 117) {
        for (let k = j + 2; k < j + 6; k++) {
          const h = text.charCodeAt(k);
          if (!((h >= 48 && h <= 57) || (h >= 65 && h <= 70) || (h >= 97 && h <= 102))) {
            return failAt(`expected 4 hex digits after \\u, got ${describeAt(text, k)}`, k);
          }
        }
        j += 6;
        continue;
      }
      if (e === 34 || e === 92 || e === 47 || e === 98 || e === 102 || e === 110 || e === 114 || e === 116) {
        j += 2;
        continue;
      }
      if (j + 1 >= n) return failAt("unterminated string", j + 1);
      return failAt(`invalid escape \\${text[j + 1]!}`, j);
    }
    if (j >= n) return failAt("unterminated string", j);
    if (d < 32)
      return failAt(`unescaped control character U+${d.toString(16).padStart(4, "0").toUpperCase()} in a string`, j);
    j++;
  }
}

/** Decodes the checked string literal from the quote at `open` to the quote at `close`. */
function decodeString(text: string, open: number, close: number): string {
  return JSON.parse(text.slice(open, close + 1)) as string;
}

/**
 * Reads the number at `i` (a `-` or a digit). Returns it, a `bigint` for an integer literal beyond the safe
 * range, or undefined with {@link failure} and {@link at} set; on success {@link at} is the offset after it.
 */
function readNumber(text: string, i: number): number | bigint | undefined {
  const start = i;
  let c = text.charCodeAt(i);
  const negative = c === 45;
  if (negative) c = text.charCodeAt(++i);
  const digits = i;
  let v = 0;
  if (c === 48) {
    c = text.charCodeAt(++i);
    if (c >= 48 && c <= 57) {
      failAt("a number must not have a leading zero", i);
      return undefined;
    }
  } else if (c >= 49 && c <= 57) {
    do {
      v = v * 10 + (c - 48);
      c = text.charCodeAt(++i);
    } while (c >= 48 && c <= 57);
  } else {
    failAt(`expected a digit, got ${describeAt(text, i)}`, i);
    return undefined;
  }
  if (c !== 46 && c !== 101 && c !== 69) {
    at = i;
    // Up to 15 digits the accumulated value is exact.
    if (i - digits <= 15) return negative ? -v : v;
    const literal = text.slice(start, i);
    const rounded = Number(literal);
    if (Number.isSafeInteger(rounded)) return rounded;
    return exactMode && i - digits > exactDigitsMax ? rounded : BigInt(literal);
  }
  // Mantissa digits (the point counts one too many, harmlessly) and exponent digits, for the inexact check.
  let mantissa = i - digits;
  let exponent = 0;
  if (c === 46) {
    c = text.charCodeAt(++i);
    if (!(c >= 48 && c <= 57)) {
      failAt(`expected a digit after the decimal point, got ${describeAt(text, i)}`, i);
      return undefined;
    }
    do c = text.charCodeAt(++i);
    while (c >= 48 && c <= 57);
    mantissa = i - digits;
  }
  if (c === 101 || c === 69) {
    c = text.charCodeAt(++i);
    if (c === 43 || c === 45) c = text.charCodeAt(++i);
    if (!(c >= 48 && c <= 57)) {
      failAt(`expected a digit in the exponent, got ${describeAt(text, i)}`, i);
      return undefined;
    }
    const exponentStart = i;
    do c = text.charCodeAt(++i);
    while (c >= 48 && c <= 57);
    exponent = i - exponentStart;
  }
  at = i;
  const literal = text.slice(start, i);
  const d = Number(literal);
  if (exactMode) {
    if (!(d <= safeMax && d >= -safeMax)) {
      const exact = exactInteger(literal, false);
      if (exact !== "") return BigInt(exact);
    } else if ((mantissa >= 16 || exponent >= 3) && inexactLiteral(literal, d)) {
      // Only such literals can be inexact (see mayHoldInexactInteger).
      numberInexact = true;
    }
  }
  return d;
}

/** Whether the number {@link readNumber} read last is an inexact integer literal (see {@link InexactIntegers}). */
let numberInexact = false;

/** Adds a literal to {@link inexactFound}. */
function recordInexact(
  container: Record<string, unknown> | unknown[] | undefined,
  key: string | number,
  value: number,
  offset: number,
): void {
  inexactFound ??= { containers: [], keys: [], values: [], offsets: [] };
  inexactFound.containers.push(container);
  inexactFound.keys.push(key);
  inexactFound.values.push(value);
  inexactFound.offsets.push(offset);
}

/** Returns the offset of the first character at or after `i` that is not JSON whitespace. */
function skipWhitespace(text: string, i: number): number {
  let c = text.charCodeAt(i);
  while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++i);
  return i;
}

/** Records a failure for the caller and returns -1. */
function failAt(detail: string, offset: number): -1 {
  failure = detail;
  at = offset;
  return -1;
}

/** Names the character at `i` for an error message. */
function describeAt(text: string, i: number): string {
  if (i >= text.length) return "the end of the text";
  const c = text.charCodeAt(i);
  if (c < 32 || c === 0xfeff) return `U+${c.toString(16).padStart(4, "0").toUpperCase()}`;
  return JSON.stringify(String.fromCodePoint(text.codePointAt(i)!));
}

/**
 * JSON path of the value being read: every open container with the member it is reading. With
 * `inMember` false the innermost container itself is meant (a failure between its members).
 */
function pathOf(
  stack: readonly (Record<string, unknown> | unknown[])[],
  stackKeys: readonly string[],
  cur: Record<string, unknown> | unknown[] | undefined,
  key: string,
  inMember: boolean,
): string {
  let path = "$";
  for (let d = 0; d < stack.length; d++) {
    const c = stack[d]!;
    path += pathSegment(Array.isArray(c) ? c.length : stackKeys[d]!);
  }
  if (cur !== undefined && inMember) path += pathSegment(Array.isArray(cur) ? cur.length : key);
  return path;
}

/** Sets `line` and `column` of `error` to those of `offset` in `text`, and returns it. */
function located(error: WktJsonError, text: string, offset: number): WktJsonError {
  const p = lineColumn(text, offset);
  error.line = p.line;
  error.column = p.column;
  return error;
}

/**
 * 1-based line and column (in UTF-16 code units) of `offset`. Lines end at LF, CR LF or a lone CR.
 */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

// ---------------------------------------------------------------------------------------------------------
// Locating a path

/** Where a value starts in a JSON text: 1-based line and column (UTF-16 code units), and 0-based offset. */
export interface JsonTextLocation {
  line: number;
  column: number;
  offset: number;
}

/**
 * Finds where the value at `path` (as built by `pathJoin`: `$.a[2]["x y"]`) starts in a JSON text, so that an
 * error raised after parsing can carry a line and column. For a member, that is the start of its value. With
 * a repeated key, the first member counts.
 *
 * Works on any text and never throws: returns undefined when the path is malformed, the text is, or the path
 * names no value in it.
 *
 * @example
 * locateJsonPath('{\n  "a": [1, {"b": true}]\n}', "$.a[1].b"); //=> { line: 2, column: 18, offset: 19 }
 * locateJsonPath('{"a": 1}', "$.b"); //=> undefined
 */
export function locateJsonPath(text: string, path: string): JsonTextLocation | undefined {
  if (typeof text !== "string" || typeof path !== "string") return undefined;
  const segments = jsonPathSegments(path);
  if (segments === undefined) return undefined;
  let i = skipWhitespace(text, 0);
  for (const segment of segments) {
    if (typeof segment === "number") {
      if (text.charCodeAt(i) !== 91) return undefined;
      i = skipWhitespace(text, i + 1);
      if (text.charCodeAt(i) === 93) return undefined;
      for (let k = 0; k < segment; k++) {
        i = skipValue(text, i);
        if (i < 0) return undefined;
        i = skipWhitespace(text, i);
        if (text.charCodeAt(i) !== 44) return undefined;
        i = skipWhitespace(text, i + 1);
      }
    } else {
      if (text.charCodeAt(i) !== 123) return undefined;
      i = skipWhitespace(text, i + 1);
      for (;;) {
        if (text.charCodeAt(i) !== 34) return undefined;
        const close = skipStringLax(text, i);
        if (close < 0) return undefined;
        const name = decodeStringLax(text, i, close);
        i = skipWhitespace(text, close + 1);
        if (text.charCodeAt(i) !== 58) return undefined;
        i = skipWhitespace(text, i + 1);
        if (name === segment) break;
        i = skipValue(text, i);
        if (i < 0) return undefined;
        i = skipWhitespace(text, i);
        if (text.charCodeAt(i) !== 44) return undefined;
        i = skipWhitespace(text, i + 1);
      }
    }
  }
  if (i >= text.length) return undefined;
  const { line, column } = lineColumn(text, i);
  return { line, column, offset: i };
}

/** A step of the paths {@link locateJsonPaths} looks for, with the indexes of the paths that end here. */
interface PathNode {
  ends: number[];
  children: Map<string | number, PathNode> | undefined;
  /** The array indexes among the children, ascending: an array is walked without a lookup per element. */
  indexes?: number[];
}

/**
 * Finds where each of `paths` starts in a JSON text, as {@link locateJsonPath} does for one, in one pass over
 * the text whatever the number of paths: the paths are merged into a tree, and the walk descends only into
 * the values on some path, skipping the others once. A path is a string or its segments (`["a", 1]`), which
 * need no path string built. Never throws.
 *
 * @example
 * locateJsonPaths('{"a": [1, 2], "b": 3}', ["$.b", "$.a[1]", "$.c"]);
 * //=> [{ line: 1, column: 20, offset: 19 }, { line: 1, column: 11, offset: 10 }, undefined]
 */
export function locateJsonPaths(
  text: string,
  paths: readonly (string | readonly (string | number)[])[],
): (JsonTextLocation | undefined)[] {
  const offsets = new Array<number>(paths.length).fill(-1);
  if (typeof text === "string") {
    const root: PathNode = { ends: [], children: undefined };
    for (let p = 0; p < paths.length; p++) {
      const path = paths[p];
      const segments = typeof path === "string" ? jsonPathSegments(path) : Array.isArray(path) ? path : undefined;
      if (segments === undefined) continue;
      let node = root;
      for (const segment of segments) {
        node.children ??= new Map();
        let child = node.children.get(segment);
        if (child === undefined) node.children.set(segment, (child = { ends: [], children: undefined }));
        node = child;
      }
      node.ends.push(p);
    }
    try {
      visitPaths(text, root, skipWhitespace(text, 0), offsets);
    } catch {
      // Only a stack overflow, on paths thousands of levels deep: those left unfound have no position.
    }
  }
  const found: number[] = [];
  for (let p = 0; p < offsets.length; p++) if (offsets[p]! >= 0 && offsets[p]! < text.length) found.push(offsets[p]!);
  const positions = lineColumns(text, found);
  return offsets.map((offset) => {
    const at = offset >= 0 ? positions.get(offset) : undefined;
    return at === undefined ? undefined : { line: at.line, column: at.column, offset };
  });
}

/**
 * Records the offset `i` for the paths ending at `node`, walks into the value at `i` along `node`'s children,
 * and returns the offset just after the value (-1 if the text ends first).
 */
function visitPaths(text: string, node: PathNode, i: number, offsets: number[]): number {
  if (i >= text.length) return -1;
  for (const p of node.ends) offsets[p] = i;
  const children = node.children;
  const c = text.charCodeAt(i);
  if (children === undefined || (c !== 91 && c !== 123)) return skipValue(text, i);
  const close = c + 2;
  const seen = new Set<string>(); // with a repeated key, the first member counts
  const indexes =
    c === 91 ? (node.indexes ??= [...children.keys()].filter((k) => typeof k === "number").sort((a, b) => a - b)) : [];
  let next = 0; // the next of `indexes` to reach
  i = skipWhitespace(text, i + 1);
  if (text.charCodeAt(i) === close) return i + 1;
  for (let k = 0; ; k++) {
    let child: PathNode | undefined;
    if (c === 91) {
      if (indexes[next] === k) {
        child = children.get(k);
        next++;
      }
    } else {
      if (text.charCodeAt(i) !== 34) return -1;
      const end = skipStringLax(text, i);
      if (end < 0) return -1;
      const name = decodeStringLax(text, i, end);
      i = skipWhitespace(text, end + 1);
      if (text.charCodeAt(i) !== 58) return -1;
      i = skipWhitespace(text, i + 1);
      if (name !== undefined && !seen.has(name)) {
        seen.add(name);
        child = children.get(name);
      }
    }
    i = child === undefined ? skipValue(text, i) : visitPaths(text, child, i, offsets);
    if (i < 0) return -1;
    i = skipWhitespace(text, i);
    const d = text.charCodeAt(i);
    if (d === close) return i + 1;
    if (d !== 44) return -1;
    i = skipWhitespace(text, i + 1);
  }
}

/**
 * Line and column (1-based, UTF-16 code units) of each of `offsets` in `text`, in one pass: sorted, then
 * swept. For errors raised in a batch, where one {@link lineColumn} each would be quadratic.
 *
 * @example
 * lineColumns("a\nbc", [3]).get(3); //=> { line: 2, column: 2 }
 */
export function lineColumns(text: string, offsets: readonly number[]): Map<number, { line: number; column: number }> {
  const sorted = [...new Set(offsets)].sort((a, b) => a - b);
  const out = new Map<number, { line: number; column: number }>();
  let line = 1;
  let lineStart = 0;
  let i = 0;
  for (const offset of sorted) {
    const end = Math.min(offset, text.length);
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
        line++;
        lineStart = i + 1;
      }
    }
    out.set(offset, { line, column: offset - lineStart + 1 });
  }
  return out;
}

/**
 * Returns the offset just after the value starting at `i`, or -1 if the text ends first. Lax: it finds the
 * extent of a value without checking it, by counting brackets outside strings (no recursion).
 */
function skipValue(text: string, i: number): number {
  const n = text.length;
  let depth = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = skipStringLax(text, i);
      if (i < 0) return -1;
      i++;
    } else if (c === 123 || c === 91) {
      depth++;
      i++;
    } else if (c === 125 || c === 93) {
      if (depth === 0) return i; // closes the enclosing container: the value was empty
      depth--;
      i++;
    } else if (depth === 0 && (c === 44 || c === 32 || c === 10 || c === 13 || c === 9 || c === 58)) {
      return i;
    } else {
      i++;
    }
    if (depth === 0 && (c === 34 || c === 125 || c === 93)) return i;
  }
  return depth === 0 ? i : -1;
}

/**
 * The number literal that starts at `offset` of a JSON text (where {@link locateJsonPath} found a value), or ""
 * if none does: its sign, digits, fraction and exponent, as written.
 *
 * @example
 * numberLiteralAt('{"a": -1e400}', 6); //=> "-1e400"
 */
export function numberLiteralAt(text: string, offset: number): string {
  let end = offset;
  for (
    let c = text.charCodeAt(end);
    (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 101 || c === 69;
  ) {
    c = text.charCodeAt(++end);
  }
  return text.slice(offset, end);
}

export { jsonPathSegments } from "../json-path.js";
