/**
 * The regular expressions of the JSON Schema documents (`jsonSchema`, json-schema.ts). Each is the
 * decoder's rule as a regular expression (ECMA-262, no lookaround, so that the tools of other languages read them
 * too), or a superset of it where the rule is a range a pattern cannot state simply; and the numeric bounds that
 * go beside them.
 *
 * @module
 * @internal
 */

export const floatText = "^(NaN|-?Infinity|-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?)$";
export const nonFinite = "^(NaN|-?Infinity)$";

/**
 * The decimal integers from 1 to `max` (digits), without leading zeros, as a regular expression: shorter
 * numbers, then for each position a smaller digit after the same prefix, then `max` itself.
 */
export function positiveUpTo(max: string): string {
  const n = max.length;
  const alts: string[] = [];
  if (n >= 2) alts.push(n === 2 ? "[1-9]" : `[1-9][0-9]{0,${n - 2}}`);
  for (let i = 0; i < n; i++) {
    const d = max.charCodeAt(i) - 48;
    const low = i === 0 ? 1 : 0;
    if (d - 1 < low) continue;
    const digit = d - 1 === low ? String(low) : `[${low}-${d - 1}]`;
    const rest = n - i - 1;
    alts.push(max.slice(0, i) + digit + (rest === 0 ? "" : rest === 1 ? "[0-9]" : `[0-9]{${rest}}`));
  }
  alts.push(max);
  return `(${alts.join("|")})`;
}

/** Canonical decimals of a signed range: `0`, up to `max`, down to `-minMagnitude`; no `-0`, no leading zero. */
export function canonicalSigned(max: string, minMagnitude: string): string {
  return `0|${positiveUpTo(max)}|-${positiveUpTo(minMagnitude)}`;
}

/**
 * An integer in a JSON number's text, within a range: the plain decimal forms (`-0` too) are checked against the
 * range; forms with a fraction or an exponent (`1.0`, `1e2`, `10e-1`) only by their syntax, and a fraction of
 * other digits than zeros needs an exponent (`1.5` is not an integer, `1.5e1` is).
 */
function integerText(max: string, minMagnitude: string): string {
  const plain =
    minMagnitude === "" ? `-?0|${positiveUpTo(max)}` : `-?0|${positiveUpTo(max)}|-${positiveUpTo(minMagnitude)}`;
  return `^(${plain}|-?(0|[1-9][0-9]*)(\\.0+|(\\.[0-9]+)?[eE][+-]?[0-9]+))$`;
}

export const int32Text = integerText("2147483647", "2147483648");
export const uint32Text = integerText("4294967295", "");
export const int64Text = integerText("9223372036854775807", "9223372036854775808");
export const uint64Text = integerText("18446744073709551615", "");
export const int64Canonical = `^(${canonicalSigned("9223372036854775807", "9223372036854775808")})$`;
export const uint64Canonical = `^(0|${positiveUpTo("18446744073709551615")})$`;

/** Integer map keys as the decoder reads them: a sign (`+` too) and leading zeros allowed, then the range. */
export function keyInput(max: string, minMagnitude: string): string {
  const neg = minMagnitude === "" ? "-0+" : `-0*(0|${positiveUpTo(minMagnitude)})`;
  return `^(\\+?0*(0|${positiveUpTo(max)})|${neg})$`;
}

/** Standard or URL-safe base64, with or without padding (the input); standard with padding (the output). */
const b64 = "[A-Za-z0-9+/_-]";
export const base64Input = `^(${b64}{4})*(${b64}{2}(==)?|${b64}{3}=?)?$`;
export const base64Output = "^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$";

// RFC 3339 date-time with our strictness: years 0001 to 9999, real days (February 29 in leap years only),
// hours to 23, seconds to 59 (leap seconds are smeared), 1 to 9 fraction digits, `T` and `Z` upper-case.
const year = "(000[1-9]|00[1-9][0-9]|0[1-9][0-9]{2}|[1-9][0-9]{3})";
const leapYear = "([0-9]{2}(0[48]|[2468][048]|[13579][26])|(0[48]|[2468][048]|[13579][26])00)";
const monthDay =
  "((0[13578]|1[02])-(0[1-9]|[12][0-9]|3[01])|(0[469]|11)-(0[1-9]|[12][0-9]|30)|02-(0[1-9]|1[0-9]|2[0-8]))";
const date = `(${year}-${monthDay}|${leapYear}-02-29)`;
const time = "([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]";
const offset = "([01][0-9]|2[0-3]):[0-5][0-9]";
// On input, a time in year 0000 is an instant in 0001 when its offset is negative enough (the decoder checks the
// instant, which a pattern cannot): 0000-12-31 with a "-" offset is let through.
export const timestampInput = `^(${date}T${time}(\\.[0-9]{1,9})?(Z|[+-]${offset})|0000-12-31T${time}(\\.[0-9]{1,9})?-${offset})$`;
export const timestampOutput = `^${date}T${time}(\\.([0-9]{3}){1,3})?Z$`;
/** Decimal seconds up to 315,576,000,000 (any fraction: the last Duration is 315576000000.999999999s), no leading zero. */
const durationSeconds = `-?(0|${positiveUpTo("315576000000")})`;
export const durationInput = `^${durationSeconds}(\\.[0-9]{1,9})?s$`;
export const durationOutput = `^${durationSeconds}(\\.([0-9]{3}){1,3})?s$`;
/** Comma-separated paths of lowerCamel segments; the empty string is the empty mask. */
const maskSegment = "[A-Za-z][A-Za-z0-9]*";
const maskPath = `${maskSegment}(\\.${maskSegment})*`;
export const fieldMaskPattern = `^(${maskPath}(,${maskPath})*)?$`;
/** A type URL ends in `/` and a fully-qualified name. */
export const typeUrlPattern = "/[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)*$";

export const int32Min = -2147483648;
export const int32Max = 2147483647;
export const uint32Max = 4294967295;
/** 2^63 and 2^64: the doubles that int64's and uint64's ends round to. */
export const int64Bound = 9223372036854775808;
export const uint64Bound = 18446744073709551616;
/** The least double that rounds to float32 Infinity: the decoder accepts what rounds to a finite float. */
export const float32Overflow = 3.4028235677973366e38;
