// Properties of the whole-message codec over random messages of the conformance test types: agreement with
// @bufbuild/protobuf's writer, round trips through JSON values and JSON text, idempotence, and robustness
// against arbitrary text. Each property states one law.

import {
  ScalarType,
  toBinary,
  toJson as esToJson,
  type DescField,
  type DescMessage,
  type JsonObject,
  type JsonValue,
  type MessageShape,
} from "@bufbuild/protobuf";
import { isWrapperDesc } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isWktJsonError } from "../../src/errors.js";
import { fromJson, fromJsonString } from "../../src/codec/from-json.js";
import { toJson, toJsonString } from "../../src/codec/to-json.js";
import { arbMessage, type ArbMessageOptions } from "../arbitrary.js";
import {
  ForeignMessage,
  TestAllTypesEdition2023,
  TestAllTypesProto2,
  TestAllTypesProto3,
  testRegistry,
} from "../conformance-registry.js";

const registry = testRegistry;
type Msg = MessageShape<DescMessage>;

const messages: [string, DescMessage][] = [
  ["proto3", TestAllTypesProto3],
  ["proto2", TestAllTypesProto2],
  ["editions", TestAllTypesEdition2023],
];

/** Message types an Any may hold in these properties: each custom JSON form, and plain messages. */
function anyTypes(root: DescMessage): DescMessage[] {
  const wkt = (name: string) => registry.getMessage(`google.protobuf.${name}`)!;
  return [
    wkt("Timestamp"),
    wkt("Duration"),
    wkt("FieldMask"),
    wkt("Struct"),
    wkt("Value"),
    wkt("ListValue"),
    wkt("Empty"),
    wkt("Any"),
    wkt("Int64Value"),
    wkt("BytesValue"),
    ForeignMessage,
    root,
  ];
}

function arb(desc: DescMessage, options?: ArbMessageOptions): fc.Arbitrary<Msg> {
  return arbMessage(desc, { anyTypes: anyTypes(desc), ...options }) as unknown as fc.Arbitrary<Msg>;
}

/**
 * Two messages are the same: structurally equal in protobuf-es's representation (presence included, NaN equal
 * to NaN, -0 apart from 0), and equal on the wire.
 */
function expectSame(desc: DescMessage, actual: Msg, expected: Msg): void {
  expect(actual).toEqual(expected);
  expect(toBinary(desc, actual)).toEqual(toBinary(desc, expected));
}

// Sizes: a TestAllTypesProto3 of depth 3 is about 1.8 kB of JSON; these counts keep the file near 10 s.
const runs = { agree: 40, roundTrip: 40, text: 30, variant: 30, options: 25, fuzz: 150 };
/** Per-test timeout: generous, for slow machines; the runs above take a second or two each. */
const timeout = 30_000;

describe.each(messages)("%s", (_, desc) => {
  it(
    "our toJson deep-equals @bufbuild/protobuf's toJson",
    () => {
      // They agree on every valid message; where the JSON differs in key order ("@type" first in ours, last in
      // protobuf-es's Any), deep equality does not look at order.
      fc.assert(
        fc.property(arb(desc), (m) => {
          expect(toJson(desc, m, { registry })).toEqual(esToJson(desc, m, { registry }));
        }),
        { numRuns: runs.agree },
      );
    },
    timeout,
  );

  it(
    "agrees with @bufbuild/protobuf under every write option",
    () => {
      const options = fc.record({
        alwaysEmitImplicit: fc.boolean(),
        enumAsInteger: fc.boolean(),
        useProtoFieldName: fc.boolean(),
      });
      fc.assert(
        fc.property(arb(desc, { maxDepth: 2 }), options, (m, o) => {
          expect(toJson(desc, m, { registry, ...o })).toEqual(esToJson(desc, m, { registry, ...o }));
        }),
        { numRuns: runs.options },
      );
    },
    timeout,
  );

  it(
    "fromJson(toJson(m)) is m",
    () => {
      fc.assert(
        fc.property(arb(desc), (m) => {
          expectSame(desc, fromJson(desc, toJson(desc, m, { registry }), { registry }), m);
        }),
        { numRuns: runs.roundTrip },
      );
    },
    timeout,
  );

  it(
    "fromJson reads back the output of every write option",
    () => {
      const options = fc.record({
        alwaysEmitImplicit: fc.boolean(),
        enumAsInteger: fc.boolean(),
        useProtoFieldName: fc.boolean(),
      });
      fc.assert(
        fc.property(arb(desc, { maxDepth: 2 }), options, (m, o) => {
          const json = toJson(desc, m, { registry, ...o });
          const back = fromJson(desc, json, { registry });
          // alwaysEmitImplicit makes implicit defaults explicit on the page; reading them sets nothing new.
          expectSame(desc, back, m);
        }),
        { numRuns: runs.options },
      );
    },
    timeout,
  );

  it(
    "fromJsonString(toJsonString(m)) is m",
    () => {
      // JSON.stringify writes -0 as 0, so -0 cannot survive text (see to-json.test.ts); it is left out here.
      fc.assert(
        fc.property(arb(desc, { negativeZero: false }), fc.constantFrom(0, 2), (m, prettySpaces) => {
          const text = toJsonString(desc, m, { registry, prettySpaces });
          expectSame(desc, fromJsonString(desc, text, { registry }), m);
        }),
        { numRuns: runs.text },
      );
    },
    timeout,
  );

  it(
    "reads every accepted alternative form as the canonical one",
    () => {
      fc.assert(
        fc.property(arb(desc, { negativeZero: false }), fc.infiniteStream(fc.nat({ max: 99 })), (m, stream) => {
          const canonical = toJson(desc, m, { registry });
          const it = stream[Symbol.iterator]();
          const variant = variantOf(desc, canonical, () => it.next().value as number);
          expectSame(desc, fromJson(desc, variant, { registry }), m);
          expectSame(desc, fromJsonString(desc, JSON.stringify(variant), { registry }), m);
        }),
        { numRuns: runs.variant },
      );
    },
    timeout,
  );

  it(
    "decode then encode is idempotent",
    () => {
      fc.assert(
        fc.property(arb(desc, { negativeZero: false }), fc.infiniteStream(fc.nat({ max: 99 })), (m, stream) => {
          const it = stream[Symbol.iterator]();
          const variant = variantOf(desc, toJson(desc, m, { registry }), () => it.next().value as number);
          const once = toJson(desc, fromJson(desc, variant, { registry }), { registry });
          const twice = toJson(desc, fromJson(desc, once, { registry }), { registry });
          expect(twice).toEqual(once);
        }),
        { numRuns: runs.variant },
      );
    },
    timeout,
  );
});

// ---------------------------------------------------------------------------------------------------------
// Arbitrary text

/** Pieces of JSON that make a valid text invalid, or valid in a surprising way. */
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
  "null",
  "true",
  "-",
  "0",
  "01",
  "1e999",
  "-0",
  "1.",
  ".5",
  "NaN",
  '"NaN"',
  "9223372036854775808",
  "18446744073709551616",
  '"@type"',
  '"__proto__"',
  '"optional_int32"',
  '"optionalInt32"',
  '"oneofUint32":1',
  '"oneofString":"x"',
  '"recursiveMessage":{',
  "\u0000",
  " ",
  "\n",
  "\ud83d",
];

/** Edits a text: deletes, inserts or replaces a piece at a random place. */
const arbEdit = fc.tuple(
  fc.constantFrom("delete", "insert", "replace"),
  fc.double({ min: 0, max: 1, noNaN: true }),
  fc.nat({ max: 8 }),
  fc.constantFrom(...snippets),
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

/** Replaces one value of a JSON tree (chosen by `pick`) by `replacement`, or renames a member. */
function mutateTree(json: JsonValue, pick: number, replacement: JsonValue, rename: boolean): JsonValue {
  let count = 0;
  const walk = (v: JsonValue): JsonValue => {
    if (count++ === pick) return replacement;
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") {
      const out: JsonObject = {};
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

describe("any text", () => {
  const desc = TestAllTypesProto3;
  const expectDecodesOrOurError = (text: string) => {
    try {
      const m = fromJsonString(desc, text, { registry });
      // What was accepted is a message we can write and read back.
      const json = toJson(desc, m, { registry });
      expect(toJson(desc, fromJson(desc, json, { registry }), { registry })).toEqual(json);
    } catch (e) {
      if (!isWktJsonError(e)) throw e;
    }
  };

  it(
    "fromJsonString of any JSON text gives a message or our error",
    () => {
      fc.assert(fc.property(fc.json({ maxDepth: 3 }), expectDecodesOrOurError), { numRuns: runs.fuzz });
    },
    timeout,
  );

  it(
    "fromJsonString of any string gives a message or our error",
    () => {
      fc.assert(
        fc.property(
          fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.string({ unit: fc.constantFrom(...snippets) })),
          expectDecodesOrOurError,
        ),
        {
          numRuns: runs.fuzz,
        },
      );
    },
    timeout,
  );

  it(
    "fromJsonString of edited valid JSON gives a message or our error",
    () => {
      fc.assert(
        fc.property(arb(desc, { maxDepth: 2 }), fc.array(arbEdit, { minLength: 1, maxLength: 3 }), (m, edits) => {
          expectDecodesOrOurError(applyEdits(toJsonString(desc, m, { registry }), edits));
        }),
        { numRuns: runs.fuzz },
      );
    },
    timeout,
  );

  it(
    "fromJson of valid JSON with one value replaced gives a message or our error",
    () => {
      fc.assert(
        fc.property(
          arb(desc, { maxDepth: 2 }),
          fc.nat({ max: 60 }),
          fc.jsonValue({ maxDepth: 2 }),
          fc.boolean(),
          (m, pick, replacement, rename) => {
            const json = mutateTree(toJson(desc, m, { registry }), pick, replacement as JsonValue, rename);
            expectDecodesOrOurError(JSON.stringify(json));
            try {
              fromJson(desc, json, { registry });
            } catch (e) {
              if (!isWktJsonError(e)) throw e;
            }
          },
        ),
        { numRuns: runs.fuzz },
      );
    },
    timeout,
  );
});

// ---------------------------------------------------------------------------------------------------------
// Alternative forms the reader accepts

/**
 * Rewrites canonical JSON of `desc` into another form the spec lets parsers accept: proto field names for
 * JSON names, 32-bit integers and floats as strings, safe 64-bit integers as numbers, enum numbers for names,
 * URL-safe unpadded base64, a shuffled member order. `next()` gives numbers 0..99 that drive the choices.
 */
function variantOf(desc: DescMessage, json: JsonValue, next: () => number): JsonValue {
  if (json === null || typeof json !== "object" || Array.isArray(json) || desc.typeName.startsWith("google.protobuf."))
    return json;
  const entries: [string, JsonValue][] = [];
  for (const key of Object.keys(json)) {
    const field = desc.fields.find((f) => f.jsonName === key);
    if (field === undefined) {
      entries.push([key, json[key]!]);
      continue;
    }
    const name = field.name !== field.jsonName && next() < 30 ? field.name : key;
    entries.push([name, fieldVariant(field, json[key]!, next)]);
  }
  // Member order carries no meaning.
  for (let i = entries.length - 1; i > 0; i--) {
    const j = next() % (i + 1);
    [entries[i], entries[j]] = [entries[j]!, entries[i]!];
  }
  const out: JsonObject = {};
  for (const [k, v] of entries)
    Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}

function fieldVariant(field: DescField, json: JsonValue, next: () => number): JsonValue {
  const one = (v: JsonValue): JsonValue => {
    if (field.message !== undefined) {
      if (isWrapperDesc(field.message)) return scalarVariant(field.message.fields[0]!.scalar!, v, next);
      return variantOf(field.message, v, next);
    }
    if (field.enum !== undefined) {
      if (typeof v === "string" && next() < 30) return field.enum.values.find((e) => e.name === v)!.number;
      return v;
    }
    return scalarVariant(field.scalar!, v, next);
  };
  switch (field.fieldKind) {
    case "list":
      return (json as JsonValue[]).map(one);
    case "map": {
      const out: JsonObject = {};
      for (const k of Object.keys(json as JsonObject)) {
        Object.defineProperty(out, k, {
          value: one((json as JsonObject)[k]!),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    default:
      return one(json);
  }
}

function scalarVariant(t: ScalarType, v: JsonValue, next: () => number): JsonValue {
  switch (t) {
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
    case ScalarType.UINT32:
    case ScalarType.FIXED32:
      return next() < 30 ? String(v) : v;
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
    case ScalarType.UINT64:
    case ScalarType.FIXED64: {
      const n = Number(v);
      const r = next();
      if (r < 30 && Number.isSafeInteger(n)) return n;
      if (r < 40 && v !== "0" && v !== "-0") return `${v as string}e0`;
      return v;
    }
    case ScalarType.FLOAT:
    case ScalarType.DOUBLE:
      return typeof v === "number" && next() < 30 ? String(v) : v;
    case ScalarType.BYTES:
      return next() < 50 ? (v as string).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "") : v;
    default:
      return v;
  }
}
