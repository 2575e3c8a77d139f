// fast-check over hostile text for the conformance test message types and the well-known types: arbitrary
// JSON text (valid, invalid, deeply nested, with huge numbers, lone surrogates and hostile keys) either decodes
// or throws our error with a position; what decodes encodes and decodes again to the same message, as valid
// JSON text; the collect-all validator agrees with the decoder; every integer keeps every digit.

import { toBinary, type DescMessage, type JsonValue, type MessageShape } from "@bufbuild/protobuf";
import {
  AnySchema,
  DurationSchema,
  FieldMaskSchema,
  Int64ValueSchema,
  ListValueSchema,
  StructSchema,
  TimestampSchema,
  ValueSchema,
} from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isWktJsonError, type WktJsonError } from "../../src/errors.js";
import { fromJson, fromJsonString } from "../../src/codec/from-json.js";
import { toJson, toJsonString } from "../../src/codec/to-json.js";
import { isWellFormed } from "../../src/internal/utf16.js";
import { validateJson, validateJsonString } from "../../src/codec/validate.js";
import { jsonPathSegments } from "../../src/codec/json-text.js";
import { arbMessage } from "../arbitrary.js";
import {
  TestAllTypesEdition2023,
  TestAllTypesProto2,
  TestAllTypesProto3,
  TestAllTypesProto3Editions,
  testRegistry,
} from "../conformance-registry.js";

const registry = testRegistry;
type Msg = MessageShape<DescMessage>;

/** Runs per property; the file takes about 15 s on a 2-core machine. */
const runs = { text: 1000, agree: 1000, tree: 500, numbers: 2000, strings: 1000 };
const timeout = 60_000;

const messageTypes: DescMessage[] = [TestAllTypesProto3, TestAllTypesProto2, TestAllTypesEdition2023];
const wktTypes: DescMessage[] = [
  AnySchema,
  StructSchema,
  ValueSchema,
  ListValueSchema,
  TimestampSchema,
  DurationSchema,
  FieldMaskSchema,
  Int64ValueSchema,
];
const arbSchema = fc.constantFrom(...messageTypes, ...messageTypes, ...wktTypes);

// ---------------------------------------------------------------------------------------------------------
// Hostile text

/** Pieces that make text invalid, deep, huge or hostile. */
const snippets = [
  "{",
  "}",
  "[",
  "]",
  ",",
  ":",
  '"',
  "\\",
  "\\u",
  "\\ud800",
  "\\udc00",
  "\ud800",
  "\udfff",
  "null",
  "true",
  "-",
  "-0",
  "01",
  "1e309",
  "1e-400",
  "1.0",
  "9007199254740993",
  "9007199254740993.5",
  "9.223372036854775807e18",
  "18446744073709551616",
  "1" + "0".repeat(60),
  '"NaN"',
  "NaN",
  '"__proto__"',
  '"constructor"',
  '"prototype"',
  '"@type"',
  '"value"',
  '"optional_int32"',
  '"optionalInt32"',
  '"oneofUint32":1',
  '"oneofString":"x"',
  '"recursiveMessage":{',
  '"optionalValue":[',
  '"optionalStruct":{"__proto__":',
  '"mapInt32Int32":{"-0":1,"0":2}',
  '"optionalAny":{"@type":"type.googleapis.com/google.protobuf.Any","value":',
  "[".repeat(120),
  '{"a":'.repeat(120),
  "\u0000",
  " ",
  "\n",
  "\uFEFF",
];

/** Deletes, inserts or replaces pieces of a text at random places. */
const arbEdits = fc.array(
  fc.tuple(
    fc.constantFrom("delete", "insert", "replace"),
    fc.double({ min: 0, max: 1, noNaN: true }),
    fc.nat({ max: 8 }),
    fc.constantFrom(...snippets),
  ),
  { minLength: 1, maxLength: 4 },
);

function applyEdits(text: string, edits: [string, number, number, string][]): string {
  let t = text;
  for (const [kind, where, len, piece] of edits) {
    const at = Math.floor(where * t.length);
    if (kind === "delete") t = t.slice(0, at) + t.slice(at + len);
    else if (kind === "insert") t = t.slice(0, at) + piece + t.slice(at);
    else t = t.slice(0, at) + piece + t.slice(at + piece.length);
  }
  return t;
}

/** Valid canonical JSON of a random message of a message type or a well-known type, often edited. */
const arbEditedMessage = fc
  .constantFrom(...messageTypes, ...wktTypes)
  .chain((schema) =>
    fc.tuple(
      fc.constant(schema),
      arbMessage(schema, { maxDepth: 2, negativeZero: false }),
      fc.oneof(fc.constant<[string, number, number, string][]>([]), arbEdits),
      fc.constantFrom(0, 2),
    ),
  )
  .map(([schema, m, edits, prettySpaces]) => ({
    schema,
    text: applyEdits(toJsonString(schema, m as never, { registry, prettySpaces }), edits),
  }));

/** Nesting of random brackets and members, up to a few hundred levels, closed or not. */
const arbDeep = fc
  .tuple(
    fc.array(
      fc.constantFrom(
        "[",
        '{"a":',
        '{"recursiveMessage":',
        '{"optionalValue":',
        '{"repeatedValue":[',
        '{"optionalStruct":',
      ),
      { minLength: 1, maxLength: 6 },
    ),
    fc.integer({ min: 1, max: 400 }),
    fc.constantFrom("1", "{}", "[]", '"x"', "null", "1e999"),
    fc.boolean(),
  )
  .map(([opens, n, leaf, closed]) => {
    let text = "";
    let close = "";
    for (let k = 0; k < n; k++) {
      const open = opens[k % opens.length]!;
      text += open;
      close = (open === "[" ? "]" : open.endsWith("[") ? "]}" : "}") + close;
    }
    return text + leaf + (closed ? close : close.slice(0, close.length >> 1));
  });

/** Numbers of every form and size in every numeric field. */
const arbNumberLiteral = fc.oneof(
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map(String),
  fc
    .tuple(
      fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }),
      fc.integer({ min: 0, max: 30 }),
      fc.integer({ min: -30, max: 30 }),
    )
    .map(([d, cut, e]) => {
      const s = String(d < 0n ? -d : d).padStart(cut + 1, "0");
      const at = s.length - cut;
      const digits = s.slice(0, at).replace(/^0+(?=\d)/, "") + (cut > 0 ? "." + s.slice(at) : "");
      return (d < 0n ? "-" : "") + digits + (e === 0 ? "" : `e${e}`);
    }),
  fc.constantFrom(
    "1e309",
    "-1e309",
    "1e-400",
    "-0",
    "0.0",
    "4.9e-324",
    "1" + "9".repeat(400),
    "1" + "0".repeat(330) + ".5",
  ),
);
const numericFields = [
  "optionalInt32",
  "optionalInt64",
  "optionalUint32",
  "optionalUint64",
  "optionalSint64",
  "optionalFixed64",
  "optionalSfixed32",
  "optionalFloat",
  "optionalDouble",
  "optionalNestedEnum",
  "optionalValue",
  "optionalInt64Wrapper",
];
const arbNumbers = fc
  .array(fc.tuple(fc.constantFrom(...numericFields), arbNumberLiteral, fc.boolean()), { minLength: 1, maxLength: 4 })
  .map((members) => {
    const seen = new Set<string>();
    const parts: string[] = [];
    for (const [field, literal, quoted] of members) {
      if (seen.has(field)) continue;
      seen.add(field);
      parts.push(`"${field}": ${quoted ? JSON.stringify(literal) : literal}`);
    }
    return `{${parts.join(", ")}}`;
  });

/** Any text for a schema: random JSON, JSON-alphabet noise, (edited) messages, deep nesting, numbers. */
const arbCase: fc.Arbitrary<{ schema: DescMessage; text: string }> = fc.oneof(
  fc.record({ schema: arbSchema, text: fc.json({ maxDepth: 4 }) }),
  fc.record({
    schema: arbSchema,
    text: fc.string({ unit: fc.constantFrom(...'{}[]",:-+.0123456789eE \n\\utrfalsn'), maxLength: 40 }),
  }),
  fc.record({ schema: arbSchema, text: fc.string({ unit: "binary", maxLength: 30 }) }),
  { arbitrary: arbEditedMessage, weight: 3 },
  fc.record({ schema: arbSchema, text: arbDeep }),
  {
    arbitrary: fc.record({ schema: fc.constantFrom(TestAllTypesProto3, TestAllTypesProto3Editions), text: arbNumbers }),
    weight: 2,
  },
);

/** Decodes, or gives our error; anything else thrown fails the property. */
function decode(
  schema: DescMessage,
  text: string,
  options?: { ignoreUnknownFields?: boolean },
): { message: Msg } | { error: WktJsonError } {
  try {
    return { message: fromJsonString(schema, text, { registry, ...options }) };
  } catch (e) {
    if (isWktJsonError(e)) return { error: e };
    throw new Error(`expected a WktJsonError, got ${String(e)}`, { cause: e });
  }
}

/** The law for any text and schema. */
function decodesOrOurError(schema: DescMessage, text: string, ignoreUnknownFields: boolean): void {
  const r = decode(schema, text, { ignoreUnknownFields });
  if ("error" in r) {
    expect(r.error.line).toBeGreaterThanOrEqual(1);
    expect(r.error.column).toBeGreaterThanOrEqual(1);
    expect(r.error.jsonPath.startsWith("$")).toBe(true);
    return;
  }
  // Encoding what was decoded gives valid JSON text (well-formed UTF-16) that decodes to the same message.
  const out = toJsonString(schema, r.message, { registry });
  expect(isWellFormed(out)).toBe(true);
  expect(() => JSON.parse(out) as unknown).not.toThrow();
  const again = fromJsonString(schema, out, { registry });
  expect(toBinary(schema, again)).toEqual(toBinary(schema, r.message));
  expect(toJsonString(schema, again, { registry })).toBe(out);
}

describe("any text", () => {
  it(
    "decodes, or throws our error with a position; what decodes re-encodes idempotently as valid JSON",
    () => {
      fc.assert(
        fc.property(arbCase, fc.boolean(), ({ schema, text }, ignore) => decodesOrOurError(schema, text, ignore)),
        { numRuns: runs.text },
      );
    },
    timeout,
  );

  it(
    "validateJsonString has no issues exactly when fromJsonString accepts, and lists fromJsonString's error",
    () => {
      fc.assert(
        fc.property(arbCase, fc.boolean(), ({ schema, text }, ignoreUnknownFields) => {
          const r = decode(schema, text, { ignoreUnknownFields });
          const issues = validateJsonString(schema, text, { registry, ignoreUnknownFields });
          if ("message" in r) {
            expect(issues).toEqual([]);
          } else {
            const { rule, jsonPath: path, line, column } = r.error;
            expect(issues).toContainEqual(expect.objectContaining({ rule, jsonPath: path, line, column }));
            for (const i of issues) expect(i.line === undefined || i.line >= 1).toBe(true);
          }
        }),
        { numRuns: runs.agree },
      );
    },
    timeout,
  );
});

// ---------------------------------------------------------------------------------------------------------
// JSON values (as JSON.parse gives them): the collect-all validator meets the decoder's error first

/** Replaces one value of a JSON tree (chosen by `pick`) by `replacement`, or renames a member. */
function mutateTree(json: JsonValue, pick: number, replacement: JsonValue, rename: boolean): JsonValue {
  let count = 0;
  const walk = (v: JsonValue): JsonValue => {
    if (count++ === pick) return replacement;
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      const out: Record<string, JsonValue> = {};
      for (const k of Object.keys(v)) {
        const key = rename && count === pick ? k + "_" : k;
        Object.defineProperty(out, key, { value: walk(v[k]!), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    return v;
  };
  return walk(json);
}

const arbReplacement: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<JsonValue>,
  fc.constantFrom<JsonValue>(null, "\ud800", -0, 1.5, 1e300, "9223372036854775808", "x", [null], { "@type": "x" }, {
    __proto__: 1,
  } as unknown as JsonValue),
);

const arbTree = fc
  .constantFrom(...messageTypes)
  .chain((desc) =>
    fc.tuple(
      fc.constant(desc),
      arbMessage(desc, { maxDepth: 3 }),
      fc.array(fc.tuple(fc.nat({ max: 80 }), arbReplacement, fc.boolean()), { minLength: 1, maxLength: 3 }),
    ),
  )
  .map(([desc, m, mutations]) => {
    let json = toJson(desc, m as never, { registry });
    for (const [pick, replacement, rename] of mutations) json = mutateTree(json, pick, replacement, rename);
    return { desc, json };
  });

describe("any JSON value", () => {
  it(
    "validateJson is empty exactly when fromJson accepts; its first issue is fromJson's error",
    () => {
      fc.assert(
        fc.property(arbTree, fc.boolean(), ({ desc, json }, ignoreUnknownFields) => {
          const options = { registry, ignoreUnknownFields };
          let error: WktJsonError | undefined;
          try {
            fromJson(desc, json, options);
          } catch (e) {
            if (!isWktJsonError(e)) throw e;
            error = e;
          }
          const issues = validateJson(desc, json, options);
          if (error === undefined) {
            expect(issues).toEqual([]);
          } else {
            expect(issues[0]).toEqual({
              rule: error.rule,
              message: error.message,
              path: jsonPathSegments(error.jsonPath), // the same path as keys (issue 26)
              jsonPath: error.jsonPath,
              typeName: error.typeName,
              detail: error.detail,
            });
          }
        }),
        { numRuns: runs.tree },
      );
    },
    timeout,
  );
});

// ---------------------------------------------------------------------------------------------------------
// Numbers: the exact value of every literal decides, never a double

/** The exact value of a JSON number literal as a fraction n / 10^k, or undefined if it is not one. */
function exact(literal: string): { n: bigint; k: number } | undefined {
  const m = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  if (m === null) return undefined;
  const frac = m[3] ?? "";
  const e = Number(m[4] ?? "0");
  let n = BigInt(m[2]! + frac);
  let k = frac.length - e;
  if (k < 0) {
    n *= 10n ** BigInt(-k);
    k = 0;
  }
  return { n: m[1] === "-" ? -n : n, k };
}

const intRanges: [string, bigint, bigint][] = [
  ["optionalInt32", -(2n ** 31n), 2n ** 31n - 1n],
  ["optionalUint32", 0n, 2n ** 32n - 1n],
  ["optionalInt64", -(2n ** 63n), 2n ** 63n - 1n],
  ["optionalUint64", 0n, 2n ** 64n - 1n],
];

describe("integer fields", () => {
  it(
    "accept a literal beyond 2^53 exactly when its exact value is an integer in range, keeping every digit",
    () => {
      fc.assert(
        fc.property(
          fc.constantFrom(...intRanges),
          arbNumberLiteral,
          fc.boolean(),
          ([field, min, max], literal, quoted) => {
            const value = exact(literal);
            if (value === undefined) return;
            const r = decode(TestAllTypesProto3, `{"${field}": ${quoted ? JSON.stringify(literal) : literal}}`);
            const big = value.n % 10n ** BigInt(value.k) === 0n ? value.n / 10n ** BigInt(value.k) : undefined;
            const beyondDouble =
              big !== undefined ? big > 2n ** 53n || big < -(2n ** 53n) : Math.abs(Number(literal)) >= 2 ** 53;
            if (!quoted && !beyondDouble) return; // below 2^53 an unquoted literal is a double (see cases.ts)
            if (big !== undefined && big >= min && big <= max) {
              expect("message" in r).toBe(true);
              const got = (r as { message: Record<string, unknown> }).message[field];
              expect(BigInt(got as bigint | number)).toBe(big);
            } else {
              expect("error" in r && ["syntax", "range"].includes(r.error.rule)).toBe(true);
            }
          },
        ),
        { numRuns: runs.numbers },
      );
    },
    timeout,
  );
});

// ---------------------------------------------------------------------------------------------------------
// Strings: ill-formed UTF-16 is our error wherever a protobuf string goes, and nothing is altered

describe("strings", () => {
  it(
    "are accepted exactly when well-formed, unchanged, as a string field, a map key, a Struct key and value",
    () => {
      fc.assert(
        fc.property(fc.string({ unit: "binary", maxLength: 12 }), fc.boolean(), (s, escaped) => {
          // Escaped: every code unit as \uXXXX, so that lone surrogates survive any text handling on the way.
          const lit = escaped
            ? '"' +
              [...Array(s.length).keys()].map((i) => "\\u" + s.charCodeAt(i).toString(16).padStart(4, "0")).join("") +
              '"'
            : JSON.stringify(s);
          for (const text of [
            `{"optionalString": ${lit}}`,
            `{"mapStringString": {${lit}: "v"}}`,
            `{"optionalStruct": {${lit}: ${lit}}}`,
            `{"repeatedValue": [${lit}]}`,
          ]) {
            const r = decode(TestAllTypesProto3, text);
            if (isWellFormed(s)) {
              expect("message" in r).toBe(true);
              const out = toJsonString(TestAllTypesProto3, (r as { message: Msg }).message);
              expect(isWellFormed(out)).toBe(true);
              if (text.startsWith('{"optionalString"') && s !== "")
                expect(JSON.parse(out)).toEqual({ optionalString: s });
            } else {
              expect("error" in r && r.error.rule === "utf16").toBe(true);
            }
          }
        }),
        { numRuns: runs.strings },
      );
    },
    timeout,
  );
});
