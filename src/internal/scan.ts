/**
 * Char-code helpers shared by the string parsers. Parsers scan character codes instead of using regular
 * expressions: every rejection is an explicit branch, nothing backtracks, and nothing is allocated until a
 * parse fails.
 *
 * @internal
 * @module
 */

/** Returns the value of the `n` decimal digits at `at`, or -1 if any of them is not a digit (or is missing). */
export function readDigits(s: string, at: number, n: number): number {
  let v = 0;
  for (let i = at; i < at + n; i++) {
    const d = s.charCodeAt(i) - 48;
    if (!(d >= 0 && d <= 9)) return -1; // NaN past the end fails too
    v = v * 10 + d;
  }
  return v;
}

/** Tells whether the char code is an ASCII digit. */
export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Powers of ten by which a fraction of k digits (index k) is scaled to nanoseconds. */
export const fractionScale: readonly number[] = [
  1_000_000_000, 100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1,
];

/** "000" to "999", and the same with a leading dot; built on first use. */
let triples: readonly string[] | undefined;
let dotTriples: readonly string[] | undefined;

/**
 * The strings "000" to "999", indexed by value. Formatting a fraction from them takes one table load per three
 * digits instead of a number-to-string conversion, a slice and a concatenation.
 */
export function digitTriples(): readonly string[] {
  return (triples ??= Array.from({ length: 1000 }, (_, i) => (i < 10 ? "00" : i < 100 ? "0" : "") + String(i)));
}

/** The strings ".000" to ".999", indexed by value. */
export function dotDigitTriples(): readonly string[] {
  return (dotTriples ??= digitTriples().map((t) => "." + t));
}

/**
 * Formats nanoseconds (0 to 999,999,999) as the shortest exact fraction of 0, 3, 6 or 9 digits, with its
 * leading dot: `""`, `".500"`, `".000001"`, `".000000001"`.
 */
export function formatNanos(nanos: number): string {
  if (nanos === 0) return "";
  const d = dotTriples ?? dotDigitTriples();
  const t = triples!; // built with dotTriples
  const ms = Math.floor(nanos / 1_000_000);
  const rest = nanos - ms * 1_000_000;
  if (rest === 0) return d[ms]!;
  const us = Math.floor(rest / 1000);
  const ns = rest - us * 1000;
  if (ns === 0) return d[ms]! + t[us]!;
  return d[ms]! + t[us]! + t[ns]!;
}

/** Left-pads a non-negative integer with zeros to `width` digits. */
export function pad(n: number, width: number): string {
  const s = String(n);
  return s.length >= width ? s : "000000000".slice(0, width - s.length) + s;
}

/** Longest part of an input string quoted in an error message; longer inputs are cut with an ellipsis. */
const quoteMax = 64;

/**
 * Quotes a piece of input for an error message: JSON-escaped, cut to {@link quoteMax} characters. Called only
 * when a parse fails, so the happy path allocates nothing.
 */
export function quoteInput(s: string): string {
  return s.length > quoteMax ? JSON.stringify(s.slice(0, quoteMax)).slice(0, -1) + '..."' : JSON.stringify(s);
}
