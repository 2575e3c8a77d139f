// The text parser's additions for hostile input: exact numbers (both parse paths agree, and every integer in
// any written form keeps every digit), every repeated key recorded when asked, and all paths located in one
// pass (agreeing with locating each alone).

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isWktJsonError } from "../../src/errors.js";
import {
  jsonTextMaxDepthDefault,
  lineColumns,
  locateJsonPath,
  locateJsonPaths,
  parseJsonText,
  parseJsonTextStrict,
  takeInexactIntegers,
  type InexactIntegers,
  type JsonTextDuplicate,
} from "../../src/codec/json-text.js";
import { jsonNumberToBigInt } from "../../src/internal/scalar.js";
import { pathJoin, type PathSegment } from "../../src/path.js";
import { catchWkt } from "../helpers.js";
import { cpuMs } from "../cost.js";

/** Runs `fn`, giving its value or the WktJsonError it throws; anything else fails. */
function outcome(
  fn: () => unknown,
):
  | { value: unknown }
  | { error: { rule: string; jsonPath: string; line: number | undefined; column: number | undefined } } {
  try {
    return { value: fn() };
  } catch (e) {
    if (!isWktJsonError(e)) throw e;
    return { error: { rule: e.rule, jsonPath: e.jsonPath, line: e.line, column: e.column } };
  }
}

/** A number literal of any form: integer, fraction, exponent, of any size. */
const arbLiteral = fc.oneof(
  fc.bigInt({ min: -(10n ** 45n), max: 10n ** 45n }).map(String),
  fc
    .tuple(
      fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }),
      fc.integer({ min: 0, max: 25 }),
      fc.integer({ min: -40, max: 40 }),
    )
    .map(([d, cut, e]) => {
      const s = String(d < 0n ? -d : d).padStart(cut + 1, "0");
      const at = s.length - cut;
      return (
        (d < 0n ? "-" : "") +
        s.slice(0, at).replace(/^0+(?=\d)/, "") +
        (cut > 0 ? "." + s.slice(at) : "") +
        (e === 0 ? "" : `e${e}`)
      );
    }),
  fc.constantFrom("1e400", "-1e400", "1e-400", "9".repeat(500), "-0", "0.0e0", "9007199254740993.5"),
);

/** The exact integer a literal denotes, if it is one with at most 40 digits. */
function exactInteger(literal: string): bigint | undefined {
  const m = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal)!;
  const frac = m[3] ?? "";
  const e = Number(m[4] ?? "0");
  const digits = BigInt(m[2]! + frac);
  const shift = e - frac.length;
  let v: bigint;
  if (shift >= 0) {
    if (digits !== 0n && String(digits).length + shift > 40) return undefined;
    v = digits * 10n ** BigInt(shift);
  } else {
    const d = 10n ** BigInt(-shift);
    if (digits % d !== 0n) return undefined;
    v = digits / d;
  }
  if (String(v).replace("-", "").length > 40) return undefined;
  return m[1] === "-" ? -v : v;
}

describe("exactNumbers", () => {
  it("gives a bigint exactly for integers beyond 2^53 (up to 40 digits), the double otherwise; both paths agree", () => {
    fc.assert(
      fc.property(
        fc.array(arbLiteral, { minLength: 1, maxLength: 5 }),
        fc.constantFrom("[", '{"a":['),
        (literals, open) => {
          const text = open + literals.join(",") + (open === "[" ? "]" : "]}");
          const fast = outcome(() => parseJsonText(text, { exactNumbers: true }));
          const strict = outcome(() => parseJsonTextStrict(text, jsonTextMaxDepthDefault, true));
          expect(strict).toEqual(fast);
          const values = (fast as { value: unknown }).value as unknown[] | { a: unknown[] };
          const items = Array.isArray(values) ? values : values.a;
          literals.forEach((literal, k) => {
            const big = exactInteger(literal);
            if (big !== undefined && (big > 2n ** 53n - 1n || big < -(2n ** 53n - 1n))) expect(items[k]).toBe(big);
            else expect(items[k]).toBe(Number(literal)); // the double, -0 included
          });
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("leaves the default contract alone: a fraction or exponent form stays a double", () => {
    expect(parseJsonText("[9.223372036854775807e18]")).toEqual([9223372036854775807]);
    expect(parseJsonText("[9.223372036854775807e18]", { exactNumbers: true })).toEqual([9223372036854775807n]);
    expect(parseJsonTextStrict("[9.223372036854775807e18]", 10)).toEqual([9223372036854775807]);
    // A direct strict parse does not inherit the mode of an earlier call.
    parseJsonText("[1e20]", { exactNumbers: true });
    expect(parseJsonTextStrict("[1e20]", 10)).toEqual([1e20]);
  });

  it("keeps an integer literal of more than 40 digits a double, without building a BigInt of it", () => {
    const huge = "7".repeat(2_000_000);
    const used = cpuMs(() => {
      expect(parseJsonText(`[${huge}]`, { exactNumbers: true })).toEqual([Infinity]);
      expect(parseJsonTextStrict(`{"a": ${huge}}`, 10, true)).toEqual({ a: Infinity });
      expect(parseJsonText(`[${"1".repeat(41)}]`, { exactNumbers: true })).toEqual([Number("1".repeat(41))]);
      expect(parseJsonText(`[${"1".repeat(40)}]`, { exactNumbers: true })).toEqual([BigInt("1".repeat(40))]);
    });
    // A BigInt of 2 million digits alone takes seconds. CPU time (see ../cost.ts), which load does not add to.
    expect(used).toBeLessThan(5_000);
  });
});

describe("every repeated key, when asked", () => {
  it.each<[string, JsonTextDuplicate[], unknown]>([
    ['{"a": 1, "a": 2}', [{ segments: ["a"], name: "a", offset: 9 }], { a: 1 }],
    [
      '{"a": 1, "b": {"c": [], "c": {"d": 1, "d": 2}}, "a": [1]}',
      [
        { segments: ["b", "c"], name: "c", offset: 24 },
        { segments: ["b", "c", "d"], name: "d", offset: 38 },
        { segments: ["a"], name: "a", offset: 48 },
      ],
      { a: 1, b: { c: [] } },
    ],
    [
      '[{"x": 1, "x": 2}, {"__proto__": 1, "__proto__": 2}]',
      [
        { segments: [0, "x"], name: "x", offset: 10 },
        { segments: [1, "__proto__"], name: "__proto__", offset: 36 },
      ],
      [{ x: 1 }, JSON.parse('{"__proto__": 1}')],
    ],
  ])("%s (the repeats inside a dropped value too)", (text, duplicates, value) => {
    const found: JsonTextDuplicate[] = [];
    expect(parseJsonTextStrict(text, 10, false, found)).toEqual(value);
    expect(found).toEqual(duplicates);
    expect(catchWkt(() => parseJsonText(text))).toMatchObject({
      rule: "duplicate-field",
      jsonPath: pathJoin("$", ...duplicates[0]!.segments),
    });
  });

  it("still stops at malformed text and too deep nesting", () => {
    expect(catchWkt(() => parseJsonTextStrict('{"a": 1, "a": 2,}', 10, false, []))).toMatchObject({ rule: "syntax" });
    expect(catchWkt(() => parseJsonTextStrict('{"a": 1, "a": [[[1]]]}', 3, false, []))).toMatchObject({
      rule: "depth",
    });
  });
});

/**
 * A literal near an integer, of every shape that can make an inexact integer (see mayHoldInexactInteger): the
 * digits of an integer of 1 to 18 digits, a point, a run of 0s or 9s (of about 15 digits with the integer's, or
 * 0 to 20), then 0 to 3 more digits, and half of them with the point moved by an exponent of -20 to 20 (the
 * value kept); or one of a list (3-digit exponents, tiny values).
 */
const arbNearInteger = fc.oneof(
  fc
    .tuple(
      fc.bigInt({ min: 0n, max: 10n ** 17n }),
      fc.constantFrom("0", "9"),
      // The run that makes about 15 digits with the integer's (what case 2 of the proof is about), or any.
      fc.oneof(
        { arbitrary: fc.integer({ min: -1, max: 3 }).map((d) => ({ near: d })), weight: 3 },
        fc.integer({ min: 0, max: 20 }),
      ),
      fc.stringMatching(/^[0-9]{0,3}$/),
      fc.oneof({ arbitrary: fc.constant(0), weight: 2 }, fc.integer({ min: -20, max: 20 })),
      fc.boolean(),
    )
    .map(([n, run, length, tail, shift, negative]) => {
      const runLength = typeof length === "number" ? length : Math.max(0, 15 - String(n).length + length.near);
      const fraction = run.repeat(runLength) + tail;
      let digits = String(n) + fraction;
      let point = String(n).length;
      let exponent = "";
      if (shift !== 0 && fraction !== "") {
        // The same digits, the point moved by -shift and an exponent of shift: the value is unchanged.
        point -= shift;
        if (point < 1) {
          digits = "0".repeat(1 - point) + digits;
          point = 1;
        }
        while (point > digits.length) digits += "0";
        exponent = `e${shift}`;
      }
      const body =
        digits.slice(0, point).replace(/^0+(?=\d)/, "") + (point < digits.length ? "." + digits.slice(point) : "");
      return (negative ? "-" : "") + body + exponent;
    }),
  fc.constantFrom(
    "1.00000000000000000001",
    "0.99999999999999999999",
    "-0.99999999999999999999",
    "1e-400",
    "-1e-400",
    "0." + "0".repeat(400) + "1",
    "4503599627370496.5",
    "9007199254740990.5",
    "12345678.000000001",
    "1234567890.00000001",
    "123456789012.000001",
    "1.2345678000000001e7",
    "99999999999999.99",
    "5e-324",
    "2e-324",
    "1.0000000000000000000",
    "1.5e1",
  ),
);

/** Whether a literal is an inexact integer: not an integer, while its double is a safe integer. */
function isInexactInteger(literal: string): boolean {
  const d = Number(literal);
  return Number.isInteger(d) && Math.abs(d) <= Number.MAX_SAFE_INTEGER && jsonNumberToBigInt(literal) === null;
}

/** The inexact integers a parse listed, as [path key, double, offset] rows. */
function inexactRows(found: InexactIntegers | undefined): [string | number, number, number][] {
  if (found === undefined) return [];
  return found.keys.map((k, i) => [k, found.values[i]!, found.offsets[i]!]);
}

describe("inexact integers", () => {
  it("both paths list exactly the literals that are not integers while their double is one", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(arbNearInteger, arbLiteral), { minLength: 1, maxLength: 6 }),
        fc.constantFrom("[", '{"a":[', '{"s": "x.00000000 1e999", "a":['),
        (literals, open) => {
          const text = open + literals.join(",") + (open === "[" ? "]" : "]}");
          const fast = parseJsonText(text, { exactNumbers: true });
          const fastFound = inexactRows(takeInexactIntegers());
          const strict = parseJsonTextStrict(text, jsonTextMaxDepthDefault, true);
          const strictFound = inexactRows(takeInexactIntegers());
          expect(strict).toEqual(fast);
          expect(fastFound).toEqual(strictFound);
          const expected: [number, number, number][] = [];
          let offset = open.length;
          literals.forEach((literal, k) => {
            if (isInexactInteger(literal)) expected.push([k, Number(literal), offset]);
            offset += literal.length + 1;
          });
          expect(strictFound).toEqual(expected);
          // The tree keeps the double.
          const items = (Array.isArray(fast) ? fast : (fast as { a: unknown[] }).a) as unknown[];
          for (const [k, v] of expected) expect(items[k as number]).toBe(v);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("lists a whole text, members, elements and __proto__, but not a repeated key's dropped value", () => {
    for (const parse of [
      (t: string) => parseJsonText(t, { exactNumbers: true }),
      (t: string) => parseJsonTextStrict(t, 10, true),
    ]) {
      expect(parse(" 1e-400")).toBe(0);
      expect(takeInexactIntegers()).toEqual({ containers: [undefined], keys: [""], values: [0], offsets: [1] });
      const tree = parse('{"a": [2, 0.99999999999999999999], "__proto__": -1e-400, "b": 1.5}') as Record<
        string,
        unknown
      >;
      const found = takeInexactIntegers()!;
      expect(found.containers).toEqual([tree["a"], tree]);
      expect(found.containers[1]).toBe(tree);
      expect(found.keys).toEqual([1, "__proto__"]);
      expect(found.values).toEqual([1, -0]);
      expect(Object.is(found.values[1], -0)).toBe(true);
      expect(found.offsets).toEqual([10, 48]);
      // Nothing found, nothing kept from the parse before.
      parse("[1e-400]");
      parse("[1.0, 1e2, 100.000, 1.5e1]");
      expect(takeInexactIntegers()).toBeUndefined();
    }
    const duplicates: JsonTextDuplicate[] = [];
    expect(parseJsonTextStrict('{"a": 1, "a": 1e-400, "b": [1e-400]}', 10, true, duplicates)).toEqual({ a: 1, b: [0] });
    expect(takeInexactIntegers()?.keys).toEqual([0]);
  });

  it("a candidate inside a string costs the strict parse, not a listing", () => {
    const text = '{"s": "1.00000000000000000001 and 1e-400", "n": [0, 12345678.5]}';
    expect(parseJsonText(text, { exactNumbers: true })).toEqual(JSON.parse(text));
    expect(takeInexactIntegers()).toBeUndefined();
  });
});

/** Every path in a JSON value. */
function* pathsOf(v: unknown, path: PathSegment[]): Generator<string> {
  yield pathJoin("$", ...path);
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) yield* pathsOf(v[i], [...path, i]);
  else if (typeof v === "object" && v !== null)
    for (const k of Object.keys(v)) yield* pathsOf((v as Record<string, unknown>)[k], [...path, k]);
}

describe("locateJsonPaths", () => {
  it("finds every path where locateJsonPath finds it, in any text, whatever else is asked", () => {
    const arbText = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v, null, 1)),
      fc.json({ maxDepth: 3 }),
      fc.string({ unit: fc.constantFrom(...'{}[]",:ab1 \n\\'), maxLength: 30 }),
    );
    fc.assert(
      fc.property(
        arbText,
        fc.array(
          fc.oneof(
            fc.constantFrom("$", "$.a", "$[0]", "$[1].b", '$["a b"]', "$.x[2]", "bad"),
            fc.string({ maxLength: 6 }),
          ),
          { maxLength: 6 },
        ),
        (text, extra) => {
          let parsed: unknown;
          try {
            parsed = JSON.parse(text);
          } catch {
            parsed = undefined;
          }
          const paths = [...(parsed === undefined ? [] : pathsOf(parsed, [])), ...extra];
          const all = locateJsonPaths(text, paths);
          paths.forEach((p, k) => expect(all[k]).toEqual(locateJsonPath(text, p)));
        },
      ),
      { numRuns: 500 },
    );
  });

  it("lineColumns gives what one lineColumn each gives", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("a", "\n", "\r", "\r\n", " "), maxLength: 40 }),
        fc.array(fc.nat({ max: 45 }), { maxLength: 8 }),
        (text, offsets) => {
          const at = lineColumns(text, offsets);
          for (const offset of offsets) {
            const before = text.slice(0, Math.min(offset, text.length));
            const lines = before.split(/\r\n|\n|\r/);
            // A CR at the very end of `before` may be the first half of a CR LF: it ends no line yet.
            const endsInCr = before.endsWith("\r") && text.charCodeAt(before.length) === 10;
            const line = lines.length - (endsInCr ? 1 : 0);
            expect(at.get(offset)!.line).toBe(line);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
