/**
 * The fast path of `fromJsonString` for Struct, Value and ListValue (src/codec/struct-text.ts) pinned to the
 * long way it replaces: `parseJsonText` with the codec's options, then the compiled reader, then the error's
 * line and column from the text, as `fromJsonString` did before the fast path. On every generated text both
 * give the same message (toEqual tells -0 from 0; `__proto__` must be an own member), or throw the same
 * WktJsonError (rule, path, type, message, line, column).
 *
 * The texts are built to reach every reason to leave the fast path: repeated keys (also spelled with escapes),
 * nesting around `maxDepth`, lone surrogates raw and escaped (and escaped pairs, and `\\ud800` that is no
 * escape), integer and exponent literals beyond 2^53 and beyond a double, `__proto__` and digit keys, malformed
 * text, the wrong JSON type at the root, and `maxLength`.
 */
import type { DescMessage } from "@bufbuild/protobuf";
import { ListValueSchema, StructSchema, ValueSchema } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isWktJsonError, WktJsonError } from "../../src/errors.js";
import { fromJsonString, readerFor } from "../../src/codec/from-json.js";
import { stackOverflowAsDepth } from "../../src/codec/depth-errors.js";
import {
  makeContext,
  parseJsonTextForCodec,
  textParseOptions,
  type JsonReadOptions,
} from "../../src/codec/read-context.js";
import { locateJsonPath, numberLiteralAt } from "../../src/codec/json-text.js";
import { notFiniteLiteralError } from "../../src/internal/not-finite.js";
import { structFamilyFromText } from "../../src/codec/struct-text.js";

/** `fromJsonString` as it was before the fast path: the long way, which the fast path falls back to. */
function longWay(schema: DescMessage, json: string, options?: Partial<JsonReadOptions>): unknown {
  const ctx = makeContext(options, true);
  const value = parseJsonTextForCodec(json, textParseOptions(ctx.maxDepth, options?.maxLength), ctx.maxDepth);
  try {
    return readerFor(schema)(value, ctx);
  } catch (caught) {
    const e = stackOverflowAsDepth(caught, schema.typeName, ctx.maxDepth);
    if (e instanceof WktJsonError && e.line === undefined) {
      const at = locateJsonPath(json, e.jsonPath);
      if (at !== undefined) {
        e.line = at.line;
        e.column = at.column;
        // As fromJsonString tells it (issue 28): the literal as written, not the Infinity it reads as.
        if (e.rule === "not-finite") throw notFiniteLiteralError(e, numberLiteralAt(json, at.offset));
      }
    }
    throw e;
  }
}

type Outcome =
  | { value: unknown }
  | {
      error: {
        rule: string;
        jsonPath: string;
        typeName: string;
        message: string;
        line: number | undefined;
        column: number | undefined;
      };
    };

function outcome(fn: () => unknown): Outcome {
  try {
    return { value: fn() };
  } catch (e) {
    if (!isWktJsonError(e)) throw new Error(`expected a WktJsonError, got ${String(e)}`, { cause: e });
    const { rule, jsonPath: path, typeName, message, line, column } = e;
    return { error: { rule, jsonPath: path, typeName, message, line, column } };
  }
}

/** Every object under a message that has `__proto__` as a key has it as an own property, prototype untouched. */
function protoKeysOwn(v: unknown): boolean {
  if (typeof v !== "object" || v === null) return true;
  if (Object.getPrototypeOf(v) !== Object.prototype && !Array.isArray(v)) return false;
  return Object.keys(v).every((k) => protoKeysOwn((v as Record<string, unknown>)[k]));
}

const schemas = [StructSchema, ValueSchema, ListValueSchema] as const;

let fastTaken = 0;
let fastDeclined = 0;

function agree(schema: DescMessage, text: string, options?: Partial<JsonReadOptions>): void {
  const ours = outcome(() => fromJsonString(schema, text, options));
  const theirs = outcome(() => longWay(schema, text, options));
  expect(ours).toEqual(theirs);
  if ("value" in ours) expect(protoKeysOwn(ours.value)).toBe(true);
  if (options?.maxLength !== undefined && text.length > options.maxLength) return; // fromJsonString checks it first
  const fast = structFamilyFromText(schema.typeName, text, options?.maxDepth ?? 100);
  if (fast === undefined) fastDeclined++;
  else {
    fastTaken++;
    // The fast path vouches only for texts the long way decodes, to the same message.
    expect(theirs).toEqual({ value: fast });
  }
}

// -------------------------------------------------------------------------------------------------------
// Texts

const keys = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      "a",
      "b",
      "__proto__",
      "constructor",
      "toString",
      "next",
      "then",
      "resolve",
      "length",
      "valueOf",
      "0",
      "1",
      "10",
      "2x",
      "",
      "a:b",
      'q"',
      "é",
      "😀",
    ),
    weight: 4,
  },
  { arbitrary: fc.string({ maxLength: 4 }), weight: 2 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 3 }), weight: 1 },
);

const numbers = fc.oneof(
  fc.constantFrom(
    "0",
    "-0",
    "1",
    "-1.5",
    "1e2",
    "1E-2",
    "0.1",
    "9007199254740991",
    "9007199254740992",
    "9007199254740993",
    "-9007199254740993",
    "18446744073709551615",
    "9223372036854775807",
    "9.223372036854775807e18",
    "123456789012345678901234567890123456789012",
    "1e308",
    "1e309",
    "-1e400",
    "4.9e-324",
    "1e-400",
    "1" + "0".repeat(400),
    "17976931348623157e292",
    "2.5e-5",
    "12345678901234567.5",
  ),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
);

const strings = fc.oneof(
  { arbitrary: fc.string({ maxLength: 6 }).map((s) => JSON.stringify(s)), weight: 4 },
  { arbitrary: fc.string({ unit: "binary", maxLength: 4 }).map((s) => JSON.stringify(s)), weight: 2 },
  // Raw lone surrogates (JSON.stringify would escape them) and escapes of every kind.
  {
    arbitrary: fc.constantFrom(
      '"\uD800"',
      '"x\uDFFFy"',
      '"\uD83D\uDE00"',
      '"\\ud800"',
      '"\\uDBFF\\uDC00"',
      '"\\uD83D\\ude00"',
      '"\\\\ud800"',
      '"\\u00e9"',
      '"\\ud83d"',
      '"\\uDC00x"',
      '"\\"\\\\\\/\\b\\f\\n\\r\\t"',
    ),
    weight: 2,
  },
);

const ws = fc.constantFrom("", "", "", " ", "\n", "\t", "\r\n ");

/** A JSON text (and sometimes one a character off), given as tokens joined with random whitespace. */
const arbText: fc.Arbitrary<string> = fc
  .letrec<{ v: string[] }>((tie) => ({
    v: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      numbers.map((n) => [n]),
      strings.map((s) => [s]),
      fc.constantFrom("true", "false", "null").map((w) => [w]),
      fc
        .array(tie("v"), { maxLength: 4 })
        .map((items) => ["[", ...items.flatMap((it, i) => (i === 0 ? it : [",", ...it])), "]"]),
      // Keys are not made unique: repeated keys are one of the things to find.
      fc
        .array(
          fc.tuple(
            fc.oneof(
              keys.map((k) => JSON.stringify(k)),
              fc.constantFrom('"\\u0061"', '"\\u005f_proto__"', '"a\\"b"'),
            ),
            tie("v"),
          ),
          { maxLength: 4 },
        )
        .map((members) => ["{", ...members.flatMap(([k, v], i) => [...(i === 0 ? [] : [","]), k, ":", ...v]), "}"]),
      // Deep: n arrays or objects around a value.
      fc
        .tuple(fc.integer({ min: 1, max: 12 }), fc.boolean(), tie("v"))
        .map(([n, obj, v]) => [
          ...Array.from({ length: n }, () => (obj ? '{"d":' : "[")),
          ...v,
          ...Array.from({ length: n }, () => (obj ? "}" : "]")),
        ]),
    ),
  }))
  .v.chain((tokens) =>
    fc
      .array(ws, { minLength: tokens.length + 1, maxLength: tokens.length + 1 })
      .map((spaces) => spaces[0] + tokens.map((t, i) => t + spaces[i + 1]).join("")),
  );

/** Now and then one character deleted, inserted or replaced. */
const arbMaybeBroken = fc.oneof(
  { arbitrary: arbText, weight: 6 },
  {
    arbitrary: fc
      .tuple(arbText, fc.nat(), fc.constantFrom("delete", "insert"), fc.constantFrom(...'{}[]",:-.0e \\u\uD800x'))
      .map(([text, at, op, c]) => {
        const i = at % (text.length + 1);
        return op === "delete" ? text.slice(0, i) + text.slice(i + 1) : text.slice(0, i) + c + text.slice(i);
      }),
    weight: 1,
  },
);

const arbOptions: fc.Arbitrary<Partial<JsonReadOptions> | undefined> = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 3 },
  { arbitrary: fc.integer({ min: 1, max: 8 }).map((maxDepth) => ({ maxDepth })), weight: 2 },
  { arbitrary: fc.integer({ min: 0, max: 40 }).map((maxLength) => ({ maxLength })), weight: 1 },
);

// -------------------------------------------------------------------------------------------------------

describe("fromJsonString fast path for Struct, Value and ListValue", () => {
  it("gives what the long way gives: the same message or the same error", () => {
    fastTaken = 0;
    fastDeclined = 0;
    fc.assert(
      fc.property(fc.constantFrom(...schemas), arbMaybeBroken, arbOptions, (schema, text, options) =>
        agree(schema, text, options),
      ),
      { numRuns: 3000 },
    );
    // Both ways were exercised.
    expect(fastTaken).toBeGreaterThan(300);
    expect(fastDeclined).toBeGreaterThan(300);
  });

  it.each([
    ["repeated key", '{"a": 1, "b": {"c": 2, "c": 3}}'],
    ["repeated key spelled with an escape", '{"a": 1, "\\u0061": 2}'],
    ["repeated __proto__", '{"__proto__": 1, "__proto__": {}}'],
    ["__proto__ member", '{"__proto__": {"polluted": true}, "x": [{"__proto__": null}]}'],
    [
      "keys V8 stores by name (its protectors)",
      '{"next": 1, "then": {"resolve": [2]}, "constructor": "c", "length": null, "valueOf": true, "nexts": 3}',
    ],
    ["a key V8 stores by name, repeated", '{"next": 1, "a": 2, "next": {"then": 3}}'],
    ["a colon inside a key", '{"a:": 1, "b": ":"}'],
    ["a colon after whitespace", '{"a" : 1, "a" : 2}'],
    ["repeated key, colons in strings", '{"a": "12:30", "b": {"u": "http://x"}, "a": ":"}'],
    ["colons in strings, no repeat", '{"a": "12:30", "b": {"u": "http://x"}}'],
    ["numbers, then other values", '[1.5, 2, "x", 3.25, null, {"a": [0.5, true]}, [2.5]]'],
    ["numbers, then one beyond a double", "[0.5, 2, 1e400]"],
    ["lone high surrogate, raw", '{"a": ["x\uD800"]}'],
    ["lone low surrogate as a key, raw", '{"\uDC00": 1}'],
    ["lone surrogate, escaped", '{"a": {"b": "\\uD800"}}'],
    ["lone surrogate, escaped, lower case", '["ok", "\\udfff"]'],
    ["surrogate pair, escaped", '{"\\uD83D\\uDE00": "\\ud83d\\ude00"}'],
    ["surrogate pair, raw", '{"😀": "😀"}'],
    ["escaped backslash before ud800", '{"a": "\\\\ud800"}'],
    ["integer beyond 2^53", '{"n": 9007199254740993, "m": -18446744073709551615}'],
    ["exponent integer beyond 2^53", '{"n": 9.223372036854775807e18}'],
    ["beyond a double", '{"n": [1, 1e400]}'],
    ["integer of 400 digits", `[${"9".repeat(400)}]`],
    ["digit keys with big numbers", '{"b": 12345678901234567890, "1": 98765432109876543210}'],
    ["deep arrays", "[".repeat(101) + "]".repeat(101)],
    ["deep objects", '{"a":'.repeat(100) + "{}" + "}".repeat(100)],
    ["too deep for the text parser", "[".repeat(100_000)],
    ["malformed", '{"a": [1, 2,]}'],
    ["wrong root type", "[1]"],
    ["empty text", ""],
  ])("%s", (_, text) => {
    for (const schema of schemas) {
      agree(schema, text);
      agree(schema, text, { maxDepth: 2 });
      agree(schema, text, { maxLength: 10 });
    }
  });

  it("reads a root of many members (a dictionary in V8) as the long way does", () => {
    const members = Array.from(
      { length: 1500 },
      (_, i) => `"k${i}": ${i % 3 === 0 ? i : i % 3 === 1 ? `"s${i}"` : `{"a": [${i}, "x"]}`}`,
    );
    const text = `{${members.join(", ")}, "next": {"then": 1}, "constructor": [2]}`;
    for (const schema of schemas) agree(schema, text);
    expect(structFamilyFromText(StructSchema.typeName, text, 100)).toBeDefined();
    const repeated = `{${members.join(", ")}, "k7": 1}`;
    for (const schema of schemas) agree(schema, repeated);
    expect(structFamilyFromText(StructSchema.typeName, repeated, 100)).toBeUndefined();
  });

  it("gives up past maxValues, charged as the Struct reader charges it", () => {
    // Root Struct 12 + 18 per member (entry and Value), {"b":1} 12 + 18, [1,2] 9 + 2 + 12 per element: 113.
    const text = '{"a": {"b": 1}, "c": [1, 2]}';
    expect(structFamilyFromText(StructSchema.typeName, text, 100, 113)).toBeDefined();
    expect(structFamilyFromText(StructSchema.typeName, text, 100, 112)).toBeUndefined();
    expect(structFamilyFromText(ValueSchema.typeName, text, 100, 125)).toBeDefined();
    expect(structFamilyFromText(ValueSchema.typeName, text, 100, 124)).toBeUndefined();
  });

  it("takes the long way when Object.prototype has an enumerable member", () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto["polluted"] = 1;
    try {
      expect(structFamilyFromText(StructSchema.typeName, '{"a": 1}', 100)).toBeUndefined();
      agree(StructSchema, '{"a": {"b": [1]}}');
    } finally {
      delete proto["polluted"];
    }
  });

  it("survives a maxDepth far beyond the call stack", () => {
    const text = "[".repeat(200_000) + "]".repeat(200_000);
    for (const schema of [ValueSchema, ListValueSchema]) {
      const ours = outcome(() => fromJsonString(schema, text, { maxDepth: 1e9 }));
      expect(ours).toEqual(outcome(() => longWay(schema, text, { maxDepth: 1e9 })));
    }
  });
});
