import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isWktJsonError, type WktJsonError } from "../../src/errors.js";
import { pathJoin, type PathSegment } from "../../src/path.js";
import {
  jsonTextMaxDepthDefault,
  locateJsonPath,
  parseJsonText,
  parseJsonTextStrict,
} from "../../src/codec/json-text.js";

type JsonValue = fc.JsonValue;

/** Our result with every bigint made a number, for comparison with JSON.parse. */
function withNumbers(v: unknown): unknown {
  if (typeof v === "bigint") return Number(v);
  if (Array.isArray(v)) return v.map(withNumbers);
  if (typeof v === "object" && v !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, e] of Object.entries(v)) Object.defineProperty(out, k, { value: withNumbers(e), enumerable: true });
    return out;
  }
  return v;
}

/** Serializes a JSON value, putting whitespace from `ws` around every token. */
function serialize(v: JsonValue, ws: () => string): string {
  if (v === null || typeof v !== "object") return ws() + JSON.stringify(v) + ws();
  if (Array.isArray(v))
    return ws() + "[" + (v.length > 0 ? v.map((e) => serialize(e, ws)).join(",") : ws()) + "]" + ws();
  const keys = Object.keys(v);
  const members = keys.map((k) => ws() + JSON.stringify(k) + ws() + ":" + serialize(v[k]!, ws));
  return ws() + "{" + (members.length > 0 ? members.join(",") : ws()) + "}" + ws();
}

const arbWhitespace = fc.array(fc.constantFrom("", "", "", " ", "\t", "\n", "\r\n", "\r", "  "), { minLength: 1 });

/** A JSON value as text with random whitespace between the tokens. */
const arbSpacedText = fc.tuple(fc.jsonValue({ stringUnit: "binary" }), arbWhitespace).map(([v, spaces]) => {
  let k = 0;
  return serialize(v, () => spaces[k++ % spaces.length]!);
});

/** Valid JSON with one character deleted, inserted or replaced. */
const arbMutated = fc
  .tuple(
    fc.oneof(fc.json(), arbSpacedText),
    fc.nat(),
    fc.constantFrom("delete", "insert", "replace"),
    fc.constantFrom(..."{}[]\",:-+.0123456789eE \t\n\\utrfalsn\u0000\u001f\uFEFF\uD800x'/"),
  )
  .map(([text, at, op, c]) => {
    const i = text.length === 0 ? 0 : at % (text.length + (op === "insert" ? 1 : 0));
    if (op === "delete") return text.slice(0, i) + text.slice(i + 1);
    if (op === "insert") return text.slice(0, i) + c + text.slice(i);
    return text.slice(0, i) + c + text.slice(i + 1);
  });

/** Strings over the alphabet of JSON, most of them near misses. */
const arbJsonish = fc.string({ unit: fc.constantFrom(...'{}[]",:-+.0123456789eE \n\\utrfalsn'), maxLength: 30 });

/** Runs `fn`, returning its value or the WktJsonError it throws; anything else thrown fails the test. */
function outcome(fn: () => unknown): { value: unknown } | { error: WktJsonError } {
  try {
    return { value: fn() };
  } catch (e) {
    if (isWktJsonError(e)) return { error: e };
    throw new Error(`expected a WktJsonError, got ${String(e)}`, { cause: e });
  }
}

/** The law for any text: ours throws when JSON.parse throws, and else returns the same value or rejects a duplicate key. */
function agreesWithJsonParse(text: string): void {
  let reference: { value: unknown } | undefined;
  try {
    reference = { value: JSON.parse(text) };
  } catch {
    reference = undefined;
  }
  const ours = outcome(() => parseJsonText(text));
  if (reference === undefined) {
    // The first failure in text order counts: a key repeated before the malformed part is reported as such.
    expect("error" in ours && ["syntax", "duplicate-field"].includes(ours.error.rule)).toBe(true);
  } else if ("error" in ours) {
    expect(ours.error.rule).toBe("duplicate-field");
  } else {
    expect(withNumbers(ours.value)).toEqual(reference.value);
  }
  // The strict parser, which the entry point falls back to, gives the same answer.
  const strict = outcome(() => parseJsonTextStrict(text, jsonTextMaxDepthDefault));
  if ("error" in ours && "error" in strict) {
    const { rule, jsonPath: path, line, column } = ours.error;
    expect(strict.error).toMatchObject({ rule, jsonPath: path, line, column });
  } else {
    expect(strict).toEqual(ours);
  }
}

describe("parseJsonText", () => {
  it("parses any JSON value with any whitespace like JSON.parse", () => {
    fc.assert(
      fc.property(arbSpacedText, (text) => {
        const v = parseJsonText(text);
        expect(withNumbers(v)).toEqual(JSON.parse(text));
        expect(withNumbers(parseJsonTextStrict(text, jsonTextMaxDepthDefault))).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  it("keeps every digit of integer literals", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }), (n) => {
        const v = parseJsonText(`[${n}]`) as unknown[];
        const safe = n >= -BigInt(Number.MAX_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER);
        expect(v[0]).toBe(safe ? Number(n) : n);
      }),
    );
  });

  it.each([
    ["fc.string", fc.string()],
    ["binary strings", fc.string({ unit: "binary" })],
    ["binary-ascii strings", fc.string({ unit: "binary-ascii" })],
    ["JSON-alphabet strings", arbJsonish],
    ["mutations of valid JSON", arbMutated],
  ])("agrees with JSON.parse on %s, throwing only WktJsonError", (_, arb) => {
    fc.assert(fc.property(arb, agreesWithJsonParse), { numRuns: 1000 });
  });
});

/** A JSON value with integer literals of any size (bigint leaves), and the value it must parse to. */
type Big = { big: bigint } | { num: number } | { str: string } | { arr: Big[] } | { obj: [string, Big][] };

const arbBig: fc.Arbitrary<Big> = fc.letrec<{ big: Big }>((tie) => ({
  big: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map((big) => ({ big })),
    fc
      .oneof(
        fc.bigInt({ min: 2n ** 53n - 3n, max: 2n ** 53n + 3n }),
        fc.bigInt({ min: -(2n ** 53n) - 3n, max: -(2n ** 53n) + 3n }),
      )
      .map((big) => ({ big })),
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((num) => ({ num })),
    fc.constantFrom("12345678901234567890", "1e400", "x", "-").map((str) => ({ str })),
    fc.array(tie("big"), { maxLength: 4 }).map((arr) => ({ arr })),
    fc
      .uniqueArray(fc.tuple(fc.constantFrom("a", "b", "1", "2x", "__proto__", "0"), tie("big")), {
        maxLength: 4,
        selector: ([k]) => k,
      })
      .map((obj) => ({ obj })),
  ),
})).big;

function bigText(b: Big): string {
  if ("big" in b) return String(b.big);
  if ("num" in b) return JSON.stringify(b.num);
  if ("str" in b) return JSON.stringify(b.str);
  if ("arr" in b) return "[" + b.arr.map(bigText).join(",") + "]";
  return "{" + b.obj.map(([k, v]) => JSON.stringify(k) + ":" + bigText(v)).join(",") + "}";
}

function bigValue(b: Big): unknown {
  if ("big" in b)
    return b.big >= -BigInt(Number.MAX_SAFE_INTEGER) && b.big <= BigInt(Number.MAX_SAFE_INTEGER)
      ? Number(b.big)
      : b.big;
  if ("num" in b) {
    // JSON.stringify writes 2^53 as the integer literal 9007199254740992: beyond the safe range, so a bigint.
    const literal = JSON.stringify(b.num);
    const v = JSON.parse(literal) as number;
    return /^-?\d+$/.test(literal) && !Number.isSafeInteger(v) ? BigInt(literal) : v;
  }
  if ("str" in b) return b.str;
  if ("arr" in b) return b.arr.map(bigValue);
  const out: Record<string, unknown> = {};
  for (const [k, v] of b.obj)
    Object.defineProperty(out, k, { value: bigValue(v), enumerable: true, writable: true, configurable: true });
  return out;
}

describe("integer literals", () => {
  it("are read exactly wherever they sit, by both paths", () => {
    fc.assert(
      fc.property(arbBig, (b) => {
        const text = bigText(b);
        expect(parseJsonText(text)).toEqual(bigValue(b));
        expect(parseJsonTextStrict(text, jsonTextMaxDepthDefault)).toEqual(bigValue(b));
      }),
      { numRuns: 1000 },
    );
  });
});

/** A JSON value whose objects are member lists, so that keys may repeat. */
type Doc = { members: [string, Doc][] } | { items: Doc[] } | { leaf: number | string | null };

const arbDoc: fc.Arbitrary<Doc> = fc.letrec<{ doc: Doc }>((tie) => ({
  doc: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(fc.integer(), fc.constantFrom("x", "a:b", ":", "\\", '"', null)).map((leaf) => ({ leaf })),
    fc
      .array(fc.tuple(fc.constantFrom("a", "b", "c", "__proto__", "a\u0000"), tie("doc")), { maxLength: 4 })
      .map((members) => ({ members })),
    fc.array(tie("doc"), { maxLength: 3 }).map((items) => ({ items })),
  ),
})).doc;

function docText(d: Doc, ws: string): string {
  if ("leaf" in d) return JSON.stringify(d.leaf);
  if ("items" in d) return "[" + d.items.map((e) => docText(e, ws)).join(",") + "]";
  return "{" + d.members.map(([k, v]) => JSON.stringify(k) + ws + ":" + docText(v, ws)).join(",") + "}";
}

/** Path of the first repeated key in text order, or undefined. */
function firstDuplicate(d: Doc, path: PathSegment[]): string | undefined {
  if ("leaf" in d) return undefined;
  if ("items" in d) {
    for (let i = 0; i < d.items.length; i++) {
      const found = firstDuplicate(d.items[i]!, [...path, i]);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const seen = new Set<string>();
  for (const [k, v] of d.members) {
    if (seen.has(k)) return pathJoin("$", ...path, k);
    seen.add(k);
    const found = firstDuplicate(v, [...path, k]);
    if (found !== undefined) return found;
  }
  return undefined;
}

describe("duplicate keys", () => {
  it("are rejected exactly when an object repeats a key, at the first repeat", () => {
    fc.assert(
      fc.property(arbDoc, fc.constantFrom("", " ", "\n"), (doc, ws) => {
        const text = docText(doc, ws);
        const duplicate = firstDuplicate(doc, []);
        const ours = outcome(() => parseJsonText(text));
        if (duplicate === undefined) expect(ours).toEqual({ value: JSON.parse(text) });
        else expect(ours).toMatchObject({ error: { rule: "duplicate-field", jsonPath: duplicate } });
      }),
      { numRuns: 1000 },
    );
  });
});

/** Every path in a JSON value, with the value there. */
function* pathsOf(v: JsonValue, path: PathSegment[]): Generator<[PathSegment[], JsonValue]> {
  yield [path, v];
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) yield* pathsOf(v[i]!, [...path, i]);
  else if (typeof v === "object" && v !== null) for (const k of Object.keys(v)) yield* pathsOf(v[k]!, [...path, k]);
}

describe("locateJsonPath", () => {
  it("finds every value of a compact text where JSON.stringify wrote it", () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: "binary", maxDepth: 4 }), (v) => {
        const text = JSON.stringify(v);
        for (const [path, sub] of pathsOf(v, [])) {
          const at = locateJsonPath(text, pathJoin("$", ...path));
          expect(at).toBeDefined();
          expect(text.startsWith(JSON.stringify(sub), at!.offset)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("never throws, whatever the text and path", () => {
    fc.assert(
      fc.property(
        fc.oneof(arbMutated, arbJsonish),
        fc.oneof(fc.constantFrom("$", "$.a", "$[0]", '$["a"][1].b'), fc.string()),
        (text, path) => {
          const at = locateJsonPath(text, path);
          if (at !== undefined) expect(at.offset).toBeLessThan(text.length);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
