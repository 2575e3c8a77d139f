// The binary codec of the well-known types in src/internal/wkt-binary.ts against @bufbuild/protobuf's
// toBinary/fromBinary: the same bytes for every message, the same message (or the same failure) for every input.
import { create, fromBinary, toBinary, type DescMessage } from "@bufbuild/protobuf";
import {
  AnySchema,
  BoolValueSchema,
  BytesValueSchema,
  DoubleValueSchema,
  DurationSchema,
  EmptySchema,
  FieldMaskSchema,
  FloatValueSchema,
  Int32ValueSchema,
  Int64ValueSchema,
  ListValueSchema,
  StringValueSchema,
  StructSchema,
  TimestampSchema,
  UInt32ValueSchema,
  UInt64ValueSchema,
  ValueSchema,
} from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { negativeZeroTake } from "../../src/internal/json-value.js";
import {
  wktBinaryToJsonFast,
  wktJsonToBinaryFast,
  wktFromBinary,
  wktFromBinaryFast,
  wktToBinary,
  wktToBinaryFast,
} from "../../src/internal/wkt-binary.js";
import {
  listValueFromJsonInternal,
  structFromJsonInternal,
  valueFromJsonInternal,
} from "../../src/wkt/struct-decode.js";
import { listValueToJsonInternal, structToJsonInternal, valueToJsonInternal } from "../../src/wkt/struct-encode.js";
import { arbMessage } from "../arbitrary.js";

const schemas: DescMessage[] = [
  TimestampSchema,
  DurationSchema,
  FieldMaskSchema,
  EmptySchema,
  StructSchema,
  ValueSchema,
  ListValueSchema,
  AnySchema,
  DoubleValueSchema,
  FloatValueSchema,
  Int64ValueSchema,
  UInt64ValueSchema,
  Int32ValueSchema,
  UInt32ValueSchema,
  BoolValueSchema,
  StringValueSchema,
  BytesValueSchema,
];

const int64 = fc.bigInt(-(2n ** 63n), 2n ** 63n - 1n);
const uint64 = fc.bigInt(0n, 2n ** 64n - 1n);
const int32 = fc.oneof(fc.integer(), fc.constantFrom(0, -1, 1, 2147483647, -2147483648, 127, 128, -128));
const uint32 = fc.oneof(fc.nat({ max: 4294967295 }), fc.constantFrom(0, 1, 127, 128, 16383, 16384, 4294967295));
const doubles = fc.oneof(
  fc.double(),
  fc.constantFrom(NaN, -0, 0, Infinity, -Infinity, Number.MIN_VALUE, -Number.MAX_VALUE),
);
/** Any UTF-16, lone surrogates included (toBinary writes them as U+FFFD). */
const anyString = fc.oneof(
  fc.string({ unit: "binary" }),
  fc.string({ unit: "grapheme" }),
  fc.string(),
  fc.constantFrom("", "\ud800", "a\udc00b", "\ud83d\ude00", "__proto__", "é".repeat(70)),
);

/** Messages with edge values protobuf-es serializes without complaint, beyond the valid ranges of the JSON side. */
function arbEdge(desc: DescMessage): fc.Arbitrary<Record<string, unknown>> {
  const t = desc.typeName;
  const msg = (init: Record<string, unknown>): Record<string, unknown> => ({ $typeName: t, ...init });
  switch (t) {
    case "google.protobuf.Timestamp":
    case "google.protobuf.Duration":
      return fc.record({ seconds: fc.oneof(int64, fc.bigInt(-100000000000n, 100000000000n)), nanos: int32 }).map(msg);
    case "google.protobuf.FieldMask":
      return fc.array(anyString, { maxLength: 5 }).map((paths) => msg({ paths }));
    case "google.protobuf.Empty":
      return fc.constant(msg({}));
    case "google.protobuf.Any":
      return fc.record({ typeUrl: anyString, value: fc.uint8Array({ maxLength: 300 }) }).map(msg);
    case "google.protobuf.DoubleValue":
    case "google.protobuf.FloatValue":
      return (t === "google.protobuf.FloatValue" ? doubles.map(Math.fround) : doubles).map((value) => msg({ value }));
    case "google.protobuf.Int64Value":
      return int64.map((value) => msg({ value }));
    case "google.protobuf.UInt64Value":
      return uint64.map((value) => msg({ value }));
    case "google.protobuf.Int32Value":
      return int32.map((value) => msg({ value }));
    case "google.protobuf.UInt32Value":
      return uint32.map((value) => msg({ value }));
    case "google.protobuf.BoolValue":
      return fc.boolean().map((value) => msg({ value }));
    case "google.protobuf.StringValue":
      return anyString.map((value) => msg({ value }));
    case "google.protobuf.BytesValue":
      return fc.uint8Array({ maxLength: 300 }).map((value) => msg({ value }));
    default:
      return arbValueTree(desc);
  }
}

/** Struct, Value and ListValue messages, with any strings, NaN, -0, empty Values and large lists. */
function arbValueTree(desc: DescMessage): fc.Arbitrary<Record<string, unknown>> {
  const { value } = fc.letrec<{
    value: Record<string, unknown>;
    struct: Record<string, unknown>;
    list: Record<string, unknown>;
  }>((tie) => ({
    value: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      fc.constant({ $typeName: "google.protobuf.Value", kind: { case: "nullValue", value: 0 } }),
      doubles.map((v) => ({ $typeName: "google.protobuf.Value", kind: { case: "numberValue", value: v } })),
      anyString.map((v) => ({ $typeName: "google.protobuf.Value", kind: { case: "stringValue", value: v } })),
      fc.boolean().map((v) => ({ $typeName: "google.protobuf.Value", kind: { case: "boolValue", value: v } })),
      fc.constant({ $typeName: "google.protobuf.Value", kind: { case: undefined } }),
      tie("struct").map((v) => ({ $typeName: "google.protobuf.Value", kind: { case: "structValue", value: v } })),
      tie("list").map((v) => ({ $typeName: "google.protobuf.Value", kind: { case: "listValue", value: v } })),
    ),
    struct: fc.array(fc.tuple(anyString, tie("value")), { maxLength: 6 }).map((entries) => {
      const fields: Record<string, unknown> = {};
      for (const [k, v] of entries)
        Object.defineProperty(fields, k, { value: v, writable: true, enumerable: true, configurable: true });
      return { $typeName: "google.protobuf.Struct", fields };
    }),
    list: fc
      .array(tie("value"), { maxLength: 6 })
      .map((values) => ({ $typeName: "google.protobuf.ListValue", values })),
  }));
  const struct = fc.array(fc.tuple(anyString, value), { maxLength: 8 }).map((entries) => {
    const fields: Record<string, unknown> = {};
    for (const [k, v] of entries)
      Object.defineProperty(fields, k, { value: v, writable: true, enumerable: true, configurable: true });
    return { $typeName: "google.protobuf.Struct", fields };
  });
  if (desc.typeName === "google.protobuf.Struct") return struct;
  if (desc.typeName === "google.protobuf.ListValue")
    return fc.array(value, { maxLength: 8 }).map((values) => ({ $typeName: "google.protobuf.ListValue", values }));
  return value;
}

/** A Struct nested `levels` deep: {"a": {"a": ... {}}}. */
function deepStruct(levels: number): Record<string, unknown> {
  let s: Record<string, unknown> = { $typeName: "google.protobuf.Struct", fields: {} };
  for (let i = 0; i < levels; i++) {
    s = {
      $typeName: "google.protobuf.Struct",
      fields: { a: { $typeName: "google.protobuf.Value", kind: { case: "structValue", value: s } } },
    };
  }
  return s;
}

/** The outcome of a call: its value or the message of what it threw. */
function outcome<T>(fn: () => T): { ok: T } | { threw: string } {
  try {
    return { ok: fn() };
  } catch (e) {
    return { threw: e instanceof Error ? e.message : String(e) };
  }
}

/** Canonical bytes of a message: the fast paths take both directions and agree with protobuf-es. */
function expectFastAndSame(desc: DescMessage, m: unknown): void {
  const bytes = toBinary(desc, m as never);
  expect(wktToBinaryFast(desc, m)).toEqual(bytes);
  expect(wktToBinary(desc, m)).toEqual(bytes);
  const decoded = wktFromBinaryFast(desc, bytes);
  expect(decoded).toBeDefined();
  expect(decoded).toEqual(fromBinary(desc, bytes));
  expect(toBinary(desc, decoded!)).toEqual(bytes);
  expectSameDecoding(desc, bytes);
}

/** Decodes with both, expects the same message (and the same bytes when serialized again: member order). */
function expectSameDecoding(desc: DescMessage, bytes: Uint8Array): void {
  const theirs = outcome(() => fromBinary(desc, bytes));
  const ours = outcome(() => wktFromBinary(desc, bytes));
  expect(ours).toEqual(theirs);
  if ("ok" in ours && "ok" in theirs) {
    expect(toBinary(desc, ours.ok)).toEqual(toBinary(desc, theirs.ok));
  }
}

function expectSameEncoding(desc: DescMessage, message: unknown): void {
  const theirs = outcome(() => toBinary(desc, message as never));
  const ours = outcome(() => wktToBinary(desc, message));
  expect(ours).toEqual(theirs);
}

describe("wkt-binary: the same bytes as toBinary, the same messages as fromBinary", () => {
  for (const desc of schemas) {
    it(`${desc.typeName}: valid messages`, () => {
      fc.assert(
        fc.property(arbMessage(desc, { maxDepth: 4, setChance: 0.5, maxItems: 4 }), (m) => {
          expectFastAndSame(desc, m);
        }),
        { numRuns: 200 },
      );
    });

    it(`${desc.typeName}: edge values (full integer ranges, NaN, -0, lone surrogates, empty Values)`, () => {
      fc.assert(
        fc.property(arbEdge(desc), (m) => {
          expectFastAndSame(desc, m);
        }),
        { numRuns: 300 },
      );
    });

    it(`${desc.typeName}: damaged and foreign bytes give what fromBinary gives`, () => {
      const mutate = fc
        .tuple(
          arbEdge(desc),
          fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom("set", "cut", "insert")), {
            maxLength: 3,
          }),
        )
        .map(([m, edits]) => {
          let b = Array.from(toBinary(desc, m as never));
          for (const [at, byte, op] of edits) {
            const i = b.length === 0 ? 0 : at % b.length;
            if (op === "set" && b.length > 0) b[i] = byte;
            else if (op === "cut") b = b.slice(0, i);
            else b.splice(i, 0, byte);
          }
          return new Uint8Array(b);
        });
      fc.assert(
        fc.property(fc.oneof(mutate, fc.uint8Array({ maxLength: 40 })), (bytes) => {
          expectSameDecoding(desc, bytes);
        }),
        { numRuns: 500 },
      );
    });
  }

  it("Struct nested to protobuf-es's recursion limit and beyond", () => {
    // Struct, Value, Struct, ...: protobuf-es's limit of 100 messages is 49 levels below the root Struct.
    for (const levels of [1, 10, 48, 49]) expectFastAndSame(StructSchema, deepStruct(levels));
    for (const levels of [50, 51, 60, 200]) {
      const m = deepStruct(levels);
      const bytes = toBinary(StructSchema, m as never);
      expect(wktToBinaryFast(StructSchema, m)).toEqual(bytes);
      expect(wktFromBinaryFast(StructSchema, bytes)).toBeUndefined();
      expectSameDecoding(StructSchema, bytes);
    }
  });

  it("a subarray of a larger buffer", () => {
    const m = create(TimestampSchema, { seconds: -5n, nanos: 7 });
    const bytes = toBinary(TimestampSchema, m);
    const big = new Uint8Array(bytes.length + 10).fill(0xff);
    big.set(bytes, 5);
    expect(wktFromBinary(TimestampSchema, big.subarray(5, 5 + bytes.length))).toEqual(m);
  });
});

describe("wkt-binary: what the fast path hands to protobuf-es", () => {
  const v = (kind: unknown): Record<string, unknown> => ({ $typeName: "google.protobuf.Value", kind });
  it.each<[string, DescMessage, number[]]>([
    ["unknown fields (kept in $unknown)", TimestampSchema, [0x08, 0x01, 0x18, 0x05]],
    ["a field with another wire type", TimestampSchema, [0x0a, 0x01, 0x05]],
    ["an overlong tag", TimestampSchema, [0x88, 0x00, 0x01]],
    ["an int64 in 10 bytes", TimestampSchema, [0x08, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]],
    ["seconds given twice (the last wins)", DurationSchema, [0x08, 0x01, 0x08, 0x02]],
    ["a Value with two members of its oneof", ValueSchema, [0x20, 0x01, 0x11, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f]],
    [
      "a Value with struct_value twice (merged)",
      ValueSchema,
      [0x2a, 0x05, 0x0a, 0x03, 0x0a, 0x01, 0x61, 0x2a, 0x05, 0x0a, 0x03, 0x0a, 0x01, 0x62],
    ],
    ["a map entry without value", StructSchema, [0x0a, 0x03, 0x0a, 0x01, 0x61]],
    ["a map entry without key", StructSchema, [0x0a, 0x02, 0x12, 0x00]],
    ["a map entry with its key twice", StructSchema, [0x0a, 0x08, 0x0a, 0x01, 0x61, 0x0a, 0x01, 0x62, 0x12, 0x00]],
    [
      "a key given twice",
      StructSchema,
      [0x0a, 0x05, 0x0a, 0x01, 0x61, 0x12, 0x00, 0x0a, 0x07, 0x0a, 0x01, 0x61, 0x12, 0x02, 0x20, 0x01],
    ],
    [
      "the key __proto__",
      StructSchema,
      [0x0a, 0x0d, 0x0a, 0x09, ...Array.from("__proto__", (c) => c.charCodeAt(0)), 0x12, 0x00],
    ],
    ["invalid UTF-8", StringValueSchema, [0x0a, 0x02, 0xc3, 0x28]],
    ["a UTF-8 byte order mark (kept)", StringValueSchema, [0x0a, 0x03, 0xef, 0xbb, 0xbf]],
    ["a surrogate encoded in UTF-8", StringValueSchema, [0x0a, 0x03, 0xed, 0xa0, 0x80]],
    ["a truncated string", StringValueSchema, [0x0a, 0x05, 0x61]],
    ["a truncated double", DoubleValueSchema, [0x09, 0x00, 0x00]],
    ["a truncated varint", Int64ValueSchema, [0x08, 0x80]],
    [
      "a varint of 11 bytes",
      Int64ValueSchema,
      [0x08, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01],
    ],
    ["a bool as a long varint", BoolValueSchema, [0x08, 0x80, 0x80, 0x01]],
    ["bytes of an Empty", EmptySchema, [0x08, 0x01]],
    ["a nested message running past its end", ListValueSchema, [0x0a, 0x01, 0x1a, 0x01, 0x61]],
    ["a group", StructSchema, [0x0b, 0x0c]],
  ])("%s", (_, desc, bytes) => {
    expectSameDecoding(desc, new Uint8Array(bytes));
  });

  it("a message type of a well-known name but another shape", () => {
    const desc = { ...TimestampSchema, fields: TimestampSchema.fields.slice(0, 1) } as DescMessage;
    expect(wktFromBinaryFast(desc, new Uint8Array([0x08, 0x01]))).toBeUndefined();
    expect(wktToBinaryFast(desc, create(TimestampSchema, { seconds: 1n }))).toBeUndefined();
  });

  it.each<[string, DescMessage, unknown]>([
    ["seconds as a number", TimestampSchema, { $typeName: "google.protobuf.Timestamp", seconds: 5, nanos: 0 }],
    ["seconds as a string", TimestampSchema, { $typeName: "google.protobuf.Timestamp", seconds: "5", nanos: 0 }],
    ["seconds beyond int64", TimestampSchema, { $typeName: "google.protobuf.Timestamp", seconds: 2n ** 63n, nanos: 0 }],
    ["nanos beyond int32", DurationSchema, { $typeName: "google.protobuf.Duration", seconds: 0n, nanos: 2 ** 31 }],
    ["a fraction in nanos", DurationSchema, { $typeName: "google.protobuf.Duration", seconds: 0n, nanos: 0.5 }],
    [
      "unknown fields",
      TimestampSchema,
      {
        $typeName: "google.protobuf.Timestamp",
        seconds: 1n,
        nanos: 0,
        $unknown: [{ no: 9, wireType: 0, data: new Uint8Array([1]) }],
      },
    ],
    ["another message type", TimestampSchema, { $typeName: "google.protobuf.Duration", seconds: 1n, nanos: 0 }],
    ["an Empty of another type", EmptySchema, { $typeName: "x.Y" }],
    ["a Value of an unknown case", ValueSchema, v({ case: "bogus", value: 1 })],
    ["a Value with a string number", ValueSchema, v({ case: "numberValue", value: "1" })],
    ["a Struct holding no Value", StructSchema, { $typeName: "google.protobuf.Struct", fields: { a: 1 } }],
    ["a Struct without fields", StructSchema, { $typeName: "google.protobuf.Struct" }],
    [
      "a list item that is no Value",
      ListValueSchema,
      { $typeName: "google.protobuf.ListValue", values: [{ $typeName: "google.protobuf.Struct", fields: {} }] },
    ],
    ["a path that is no string", FieldMaskSchema, { $typeName: "google.protobuf.FieldMask", paths: [1] }],
    ["a float beyond float32", FloatValueSchema, { $typeName: "google.protobuf.FloatValue", value: 1e300 }],
    ["a uint64 below 0", UInt64ValueSchema, { $typeName: "google.protobuf.UInt64Value", value: -1n }],
    ["a uint32 beyond 2^32", UInt32ValueSchema, { $typeName: "google.protobuf.UInt32Value", value: 2 ** 32 }],
    ["a bool as a number", BoolValueSchema, { $typeName: "google.protobuf.BoolValue", value: 1 }],
    ["bytes as an array", BytesValueSchema, { $typeName: "google.protobuf.BytesValue", value: [1, 2] }],
    ["an Any value as a string", AnySchema, { $typeName: "google.protobuf.Any", typeUrl: "a/b.C", value: "x" }],
    ["not an object", StructSchema, 5],
  ])("encoding %s gives what toBinary gives", (_, desc, message) => {
    expect(wktToBinaryFast(desc, message)).toBeUndefined();
    expectSameEncoding(desc, message);
  });

  it.each<[string, DescMessage, unknown]>([
    ["a Value with a null_value of 7 (an open enum)", ValueSchema, v({ case: "nullValue", value: 7 })],
    ["a Value with a negative null_value (10 bytes)", ValueSchema, v({ case: "nullValue", value: -1 })],
    ["a Value with no case", ValueSchema, v({ case: undefined })],
  ])("encoding %s is taken, with the bytes of toBinary", (_, desc, message) => {
    expect(wktToBinaryFast(desc, message)).toEqual(toBinary(desc, message as never));
  });

  it("a getter that serializes again gets protobuf-es, with the same bytes", () => {
    const inner = create(TimestampSchema, { seconds: 3n });
    const value = { $typeName: "google.protobuf.Value", kind: { case: "numberValue", value: 1 } };
    const fields = {};
    Object.defineProperty(fields, "a", {
      enumerable: true,
      get: () => {
        wktToBinary(TimestampSchema, inner);
        return value;
      },
    });
    expectSameEncoding(StructSchema, { $typeName: "google.protobuf.Struct", fields });
  });
});

describe("wkt-binary: JSON straight from the bytes of a Struct, Value or ListValue", () => {
  const toJsonVia: Record<string, (m: never, depthLeft: number) => unknown> = {
    "google.protobuf.Struct": structToJsonInternal,
    "google.protobuf.Value": valueToJsonInternal,
    "google.protobuf.ListValue": listValueToJsonInternal,
  };
  /** The fast path gives what decoding and then encoding gives, or nothing where that fails. */
  function expectSameJson(desc: DescMessage, bytes: Uint8Array, depthLeft: number, mustTake: boolean): void {
    negativeZeroTake();
    const slow = outcome(() => toJsonVia[desc.typeName]!(fromBinary(desc, bytes) as never, depthLeft));
    const slowNegativeZero = negativeZeroTake();
    const fast = wktBinaryToJsonFast(desc, bytes, depthLeft);
    const fastNegativeZero = negativeZeroTake();
    if ("threw" in slow) {
      expect(fast).toBeUndefined();
      return;
    }
    if (fast === undefined && !mustTake) return;
    expect(fast).toEqual(slow.ok);
    // Member order too.
    expect(JSON.stringify(fast)).toBe(JSON.stringify(slow.ok));
    expect(fastNegativeZero).toBe(slowNegativeZero);
  }

  for (const desc of [StructSchema, ValueSchema, ListValueSchema]) {
    it(`${desc.typeName}: generated messages, at every depth limit`, () => {
      fc.assert(
        fc.property(
          fc.oneof(arbEdge(desc), arbMessage(desc, { maxDepth: 5, setChance: 0.6, maxItems: 4 })),
          fc.integer({ min: 0, max: 8 }),
          (m, depthLeft) => {
            const bytes = toBinary(desc, m as never);
            expectSameJson(desc, bytes, depthLeft, true);
            expectSameJson(desc, bytes, 100, true);
          },
        ),
        { numRuns: 400 },
      );
    });

    it(`${desc.typeName}: damaged bytes`, () => {
      const damaged = fc
        .tuple(arbEdge(desc), fc.nat(), fc.integer({ min: 0, max: 255 }), fc.boolean())
        .map(([m, at, byte, cut]) => {
          const b = Array.from(toBinary(desc, m as never));
          if (b.length === 0) return new Uint8Array([byte]);
          if (cut) return new Uint8Array(b.slice(0, at % b.length));
          b[at % b.length] = byte;
          return new Uint8Array(b);
        });
      fc.assert(
        fc.property(damaged, (bytes) => {
          expectSameJson(desc, bytes, 100, false);
        }),
        { numRuns: 500 },
      );
    });
  }

  it("not for other types", () => {
    expect(wktBinaryToJsonFast(TimestampSchema, new Uint8Array([8, 1]), 100)).toBeUndefined();
  });

  it("nesting at protobuf-es's recursion limit", () => {
    for (const levels of [48, 49, 50])
      expectSameJson(StructSchema, toBinary(StructSchema, deepStruct(levels) as never), 100, levels <= 49);
  });
});

describe("wkt-binary: the bytes of a Struct, Value or ListValue straight from JSON", () => {
  const fromJsonVia: Record<string, (json: unknown, depthLeft: number) => unknown> = {
    "google.protobuf.Struct": structFromJsonInternal,
    "google.protobuf.Value": valueFromJsonInternal,
    "google.protobuf.ListValue": listValueFromJsonInternal,
  };
  /** The fast path gives the bytes of reading the message and serializing it, or nothing where reading fails. */
  function expectSameBytes(desc: DescMessage, json: unknown, depthLeft: number, mustTake: boolean): void {
    const slow = outcome(() => toBinary(desc, fromJsonVia[desc.typeName]!(json, depthLeft) as never));
    const fast = wktJsonToBinaryFast(desc, json, depthLeft);
    if ("threw" in slow) {
      expect(fast).toBeUndefined();
      return;
    }
    if (fast === undefined && !mustTake) return;
    expect(fast).toEqual(slow.ok);
  }
  const json = fc.jsonValue({ maxDepth: 5 });
  /** JSON.parse of text with "__proto__" members: own properties, as the reader keeps them. */
  const withProto = json.map(
    (j) => JSON.parse(JSON.stringify({ __proto__x: j }).replace("__proto__x", "__proto__")) as unknown,
  );
  /** What the reader rejects or reads its own way: lone surrogates, NaN, bigint, undefined, Dates, holes, ... */
  const odd = fc.letrec<{ v: unknown }>((tie) => ({
    v: fc.oneof(
      { depthSize: "small" },
      fc.jsonValue({ maxDepth: 2, stringUnit: "binary" }),
      fc.constantFrom(
        NaN,
        Infinity,
        -Infinity,
        -0,
        2n ** 70n,
        5n,
        undefined,
        () => 1,
        Symbol("s"),
        new Date(0),
        new Uint8Array(1),
        [1, , 2],
        Object.create(null) as unknown,
        Object.create({ a: 1 }) as unknown,
      ),
      fc.array(tie("v"), { maxLength: 4 }),
      fc.dictionary(fc.string({ unit: "binary" }), tie("v"), { maxKeys: 4 }),
      fc.dictionary(fc.string(), tie("v"), { maxKeys: 4, noNullPrototype: false }),
    ),
  })).v;

  for (const desc of [StructSchema, ValueSchema, ListValueSchema]) {
    const wrap = (j: unknown): unknown =>
      desc === StructSchema ? { x: j, y: [j] } : desc === ListValueSchema ? [j, { j }] : j;
    it(`${desc.typeName}: JSON values, at every depth limit`, () => {
      fc.assert(
        fc.property(fc.oneof(json, withProto), fc.integer({ min: 0, max: 8 }), (j, depthLeft) => {
          expectSameBytes(desc, wrap(j), depthLeft, true);
          expectSameBytes(desc, wrap(j), 100, true);
        }),
        { numRuns: 400 },
      );
    });

    it(`${desc.typeName}: values the reader rejects or reads its own way`, () => {
      fc.assert(
        fc.property(odd, fc.integer({ min: 0, max: 100 }), (j, depthLeft) => {
          expectSameBytes(desc, wrap(j), depthLeft, false);
          expectSameBytes(desc, j, depthLeft, false);
        }),
        { numRuns: 500 },
      );
    });
  }

  it("not for other types", () => {
    expect(wktJsonToBinaryFast(TimestampSchema, "1970-01-01T00:00:00Z", 100)).toBeUndefined();
  });

  it("keeps no reference to the input", () => {
    const big = { a: [{ b: "x".repeat(100) }] };
    expect(wktJsonToBinaryFast(StructSchema, big, 100)).toBeDefined();
    // The next call with a smaller input must not see the slots of the last one.
    expect(wktJsonToBinaryFast(StructSchema, {}, 100)).toEqual(new Uint8Array(0));
  });
});
