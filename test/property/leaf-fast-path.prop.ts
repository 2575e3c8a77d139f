/**
 * The codec's path for leaf well-known types called without options (Timestamp, Duration, FieldMask and the
 * nine wrappers: no context, no writer or reader lookup; src/codec/to-json.ts `Leaf`, src/codec/from-json.ts `LeafReader`)
 * gives exactly what the general path gives, which an empty options object selects: the same messages, texts
 * and JSON values, and the same errors (rule, path, type name, detail, line, column) for anything.
 */
import { create, type DescMessage } from "@bufbuild/protobuf";
import {
  BoolValueSchema,
  BytesValueSchema,
  DoubleValueSchema,
  DurationSchema,
  EmptySchema,
  FieldMaskSchema,
  FloatValueSchema,
  Int32ValueSchema,
  Int64ValueSchema,
  StringValueSchema,
  TimestampSchema,
  UInt32ValueSchema,
  UInt64ValueSchema,
} from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isWktJsonError } from "../../src/errors.js";
import { fromJson, fromJsonString } from "../../src/codec/from-json.js";
import { toJson, toJsonString } from "../../src/codec/to-json.js";

const schemas: readonly DescMessage[] = [
  TimestampSchema,
  DurationSchema,
  FieldMaskSchema,
  DoubleValueSchema,
  FloatValueSchema,
  Int64ValueSchema,
  UInt64ValueSchema,
  Int32ValueSchema,
  UInt32ValueSchema,
  BoolValueSchema,
  StringValueSchema,
  BytesValueSchema,
  EmptySchema,
];

/** What a call gives: its value, or its error's observable parts. */
function outcome(f: () => unknown): unknown {
  try {
    return { value: f() };
  } catch (e) {
    if (!isWktJsonError(e)) return { foreign: String(e) };
    return {
      rule: e.rule,
      jsonPath: e.jsonPath,
      typeName: e.typeName,
      detail: e.detail,
      line: e.line,
      column: e.column,
      message: e.message,
    };
  }
}

/** Calls alternating between types, so that the cached last type changes as well as repeats. */
function agree(schema: DescMessage, run: (opts: object | undefined) => unknown): void {
  const fast = outcome(() => run(undefined));
  const general = outcome(() => run({}));
  expect(fast).toStrictEqual(general);
  // Again, the type now being the cached one.
  expect(outcome(() => run(undefined))).toStrictEqual(general);
  void schema;
}

const jsonLeaf = fc.oneof(
  fc.string(),
  fc.constantFrom(
    "2024-02-29T12:34:56.789Z",
    "1970-01-01T00:00:00+05:30",
    "2024-02-30T00:00:00Z",
    "1.5s",
    "-315576000000.999999999s",
    "foo.barBaz,qux",
    "Foo_bar",
    "NaN",
    "-Infinity",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "-1",
    "AQID",
    "AQ-_",
    "\ud800",
    "",
  ),
  fc.double(),
  fc.integer(),
  fc.constantFrom(2 ** 53, -(2 ** 53), 2 ** 63, 1e40, -0, 3.4028235e38, 1e39),
  fc.boolean(),
  fc.constant(null),
  fc.bigInt({ min: -(2n ** 65n), max: 2n ** 65n }),
  fc.constantFrom({}, [], { a: 1 }, { paths: ["a"] }),
);

const textLeaf = fc.oneof(
  jsonLeaf.filter((v) => typeof v !== "bigint").map((v) => JSON.stringify(v)),
  fc.constantFrom(
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "9007199254740993",
    "9007199254740990.6",
    "9007199254740993.5",
    "1e19",
    "9.223372036854775807e18",
    "1e400",
    "-0",
    "0.0",
    '  "1.5s"  ',
    '\n"2024-02-29T12:34:56Z"',
    '"\\ud800"',
    '"\\u0041QID"',
    "{}",
    '{"a":1,"a":2}',
    "[1]",
    "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
    "nul",
    "",
    '"a" "b"',
  ),
);

/** Messages of the schema as a caller may build them, right or wrong. */
const valueLike = fc.oneof(
  fc.double(),
  fc.integer(),
  fc.bigInt({ min: -(2n ** 65n), max: 2n ** 65n }),
  fc.string(),
  fc.boolean(),
  fc.uint8Array({ maxLength: 8 }),
  fc.constantFrom(undefined, null, "\udc00", -0, NaN, Infinity, 1e39, "12", "0", 0n),
);
const messageLike = (schema: DescMessage): fc.Arbitrary<unknown> =>
  fc.oneof(
    valueLike.map((value) => ({ $typeName: schema.typeName, value })),
    fc
      .record({
        seconds: fc.oneof(fc.bigInt({ min: -(2n ** 40n), max: 2n ** 40n }), fc.integer()),
        nanos: fc.oneof(fc.integer({ min: -2e9, max: 2e9 }), fc.double()),
      })
      .map((m) => ({
        $typeName: schema.typeName,
        ...m,
      })),
    fc
      .array(fc.oneof(fc.string(), fc.constantFrom("foo_bar", "fooBar", "a.b_c")), { maxLength: 3 })
      .map((paths) => ({ $typeName: schema.typeName, paths })),
    fc.constantFrom(null, undefined, 5, "x", {}, { $typeName: "google.protobuf.Other" }),
    fc.constant(create(schema)),
  );

describe("leaf well-known types without options", () => {
  for (const schema of schemas) {
    const name = schema.typeName.slice("google.protobuf.".length);
    it(`${name}: fromJson and fromJsonString as with options`, () => {
      fc.assert(
        fc.property(jsonLeaf, textLeaf, (json, text) => {
          agree(schema, (o) => fromJson(schema, json as never, o));
          agree(schema, (o) => fromJsonString(schema, text, o));
          // Another type in between: the cache moves.
          fromJson(TimestampSchema, "1970-01-01T00:00:00Z");
          agree(schema, (o) => fromJsonString(schema, text, o));
        }),
        { numRuns: 300 },
      );
    });
    it(`${name}: toJson and toJsonString as with options`, () => {
      fc.assert(
        fc.property(messageLike(schema), (message) => {
          agree(schema, (o) => toJson(schema, message as never, o));
          agree(schema, (o) => toJsonString(schema, message as never, o));
          toJson(DurationSchema, create(DurationSchema));
          toJsonString(DurationSchema, create(DurationSchema));
          agree(schema, (o) => toJsonString(schema, message as never, o));
        }),
        { numRuns: 300 },
      );
    });
  }
  it("a value that is no descriptor fails as with options", () => {
    for (const bad of [undefined, null, {}, "google.protobuf.Timestamp", { kind: "message" }]) {
      agree(TimestampSchema, (o) => toJson(bad as never, {} as never, o));
      agree(TimestampSchema, (o) => toJsonString(bad as never, {} as never, o));
      agree(TimestampSchema, (o) => fromJson(bad as never, "1970-01-01T00:00:00Z", o));
      agree(TimestampSchema, (o) => fromJsonString(bad as never, '"1970-01-01T00:00:00Z"', o));
    }
  });
});
