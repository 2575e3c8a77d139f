/**
 * The JSON number of a `float` (float32) value: the shortest decimal that reads back as the same float32, as
 * the reference writers print it (Go protojson `strconv.AppendFloat(out, n, 'g', -1, 32)`, upb, Java's
 * `Float.toString`, C++ `io::SimpleFtoa`): `0.1`, not the digits of the double the float widens to
 * (`0.10000000149011612`, which protobuf-es and protobuf.js print). Proto3 JSON mapping, float: "JSON value
 * will be a number"; a reader rounds the number to the nearest float32, so both texts read back as one value.
 *
 * @module
 * @internal
 */

/** 10^0 to 10^22: the powers of ten a double holds exactly. */
const pow10: readonly number[] = Array.from({ length: 23 }, (_, k) => Number("1e" + k));

/**
 * The number whose shortest JSON text is the shortest decimal that rounds to the float32 `v` (of those, the
 * nearest to `v`): `0.1` for `Math.fround(0.1)`. A value that is not a float32 (a double held by a float field,
 * as `fromJson` leaves `0.123456789012`), 0, -0, NaN and the infinities are returned as they are.
 *
 * On the hot path of every float field: no strings. The decimals of one scale `s` (N / 10^s) are tried from
 * one significant digit on, each the integer N nearest to v * 10^s and, when that one misses, the one on the
 * other side of v (the nearer may miss where the farther hits: a power of two, whose float32 neighbour below
 * is twice as near as the one above). N and 10^|s| are exact doubles, so N / 10^s (or N * 10^-s) is the double
 * nearest the decimal, which JavaScript prints with the decimal's digits. Outside 1e-13 to 1e22, where 10^s is
 * no exact double, the digits are found by `toPrecision` ({@link float32ShortestSlow}).
 */
export function float32Shortest(v: number): number {
  if (Math.fround(v) !== v || v === 0 || v - v !== 0) return v;
  const e10 = Math.floor(Math.log10(v < 0 ? -v : v));
  // One scale below the first digit (log10 may be one off near a power of ten) to nine digits past it.
  const first = -e10 - 1;
  if (first < -22 || first + 10 > 22) return float32ShortestSlow(v);
  // A binary search over the scale: a decimal of scale s is one of scale s + 1 too.
  let lo = first;
  let hi = first + 10;
  let best = atScale(v, hi);
  if (best !== best) return float32ShortestSlow(v);
  while (lo < hi) {
    const s = (lo + hi) >> 1;
    const d = atScale(v, s);
    if (d === d) {
      hi = s;
      best = d;
    } else {
      lo = s + 1;
    }
  }
  return best;
}

/** The decimal of scale `s` (N / 10^s) nearest `v` that rounds to the float32 `v`, else NaN (see float32Shortest). */
function atScale(v: number, s: number): number {
  const x = s >= 0 ? v * pow10[s]! : v / pow10[-s]!;
  let n = Math.round(x);
  // A tie (x = k + 0.5 exactly) goes to the even digit, as Go's and Java's shortest printers round it.
  if (n - x === 0.5 && n % 2 !== 0) n -= 1;
  let d = s >= 0 ? n / pow10[s]! : n * pow10[-s]!;
  if (Math.fround(d) === v) return d;
  const m = x > n ? n + 1 : n - 1;
  d = s >= 0 ? m / pow10[s]! : m * pow10[-s]!;
  return Math.fround(d) === v ? d : NaN;
}

/**
 * {@link float32Shortest} by the decimal digits JavaScript rounds to: for each precision from 1 to 9 (9
 * significant digits name every float32), the nearest decimal (`toPrecision`) and the one on the other side.
 * Exported for the tests, which pin the fast one to it.
 */
export function float32ShortestSlow(v: number): number {
  if (Math.fround(v) !== v || v === 0 || v - v !== 0) return v;
  for (let p = 1; p < 9; p++) {
    const near = +v.toPrecision(p);
    if (Math.fround(near) === v) return near;
    // "m.mmme±x": the digits as an integer, and the power of ten of its last digit.
    const text = v.toExponential(p - 1);
    const e = text.indexOf("e");
    const digits = Number(text.slice(0, e).replace(".", ""));
    const exp = Number(text.slice(e + 1)) - (p - 1);
    const other = +((near > v === v > 0 ? digits - 1 : digits + 1) + "e" + exp);
    if (Math.fround(other) === v) return other;
  }
  return +v.toPrecision(9);
}
