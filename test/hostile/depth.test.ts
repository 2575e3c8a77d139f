// Nesting beyond maxDepth is our `depth` error at any input size, through every entry point, never a stack
// overflow: 100,000 levels of `[` and of `{"a":`, as text and as JS values, in messages, Struct, Value,
// ListValue, Any, maps and lists; and the same for the writers.

import { create, type DescMessage, type JsonValue } from "@bufbuild/protobuf";
import { AnySchema, ListValueSchema, StructSchema, ValueSchema, type Value } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { anyFromJson } from "../../src/codec/any-codec.js";
import { isWktJsonError } from "../../src/errors.js";
import { fromJson, fromJsonString } from "../../src/codec/from-json.js";
import { listValueFromJson, structFromJson, valueFromJson, valueToJson } from "../../src/wkt/struct.js";
import { toJson, toJsonString } from "../../src/codec/to-json.js";
import { validateJson, validateJsonString } from "../../src/codec/validate.js";
import { TestAllTypesProto3, testRegistry } from "../conformance-registry.js";
import { catchWkt } from "../helpers.js";

const registry = testRegistry;
const M = TestAllTypesProto3;
const deep = 100_000;
const anyUrl = "type.googleapis.com/google.protobuf.Any";

/** `open` repeated `n` times, then `inner`, then `close` repeated `n` times. */
const wrap = (open: string, inner: string, close: string, n: number): string =>
  open.repeat(n) + inner + close.repeat(n);

/** A JS value nested `n` levels, built without recursion: `leaf` inside `n` calls of `step`. */
function nest(n: number, leaf: unknown, step: (inner: unknown) => unknown): JsonValue {
  let v = leaf;
  for (let k = 0; k < n; k++) v = step(v);
  return v as JsonValue;
}

/** Texts nested 100,000 levels, closed and unclosed, by schema. */
const texts: [string, DescMessage, string][] = [
  ["Value: [ x 100,000", ValueSchema, wrap("[", "", "]", deep)],
  ["Value: [ x 100,000, never closed", ValueSchema, "[".repeat(deep)],
  ['Value: {"a": x 100,000', ValueSchema, wrap('{"a":', "1", "}", deep)],
  ['Struct: {"a": x 100,000', StructSchema, wrap('{"a":', "{}", "}", deep)],
  ['Struct: {"a": x 100,000, never closed', StructSchema, '{"a":'.repeat(deep)],
  ["ListValue: [ x 100,000", ListValueSchema, wrap("[", "", "]", deep)],
  ["Any: Any in Any x 100,000", AnySchema, wrap(`{"@type":"${anyUrl}","value":`, "{}", "}", deep)],
  ["message: recursiveMessage x 100,000", M, wrap('{"recursiveMessage":', "{}", "}", deep)],
  ["message: optionalValue [ x 100,000", M, `{"optionalValue":${wrap("[", "", "]", deep)}}`],
  ['message: optionalStruct {"a": x 100,000', M, `{"optionalStruct":${wrap('{"a":', "{}", "}", deep)}}`],
  ["message: repeatedStruct of nested arrays", M, `{"repeatedStruct":[{"a":${wrap("[", "", "]", deep)}}]}`],
  [
    "message: map and list x 100,000",
    M,
    wrap(
      '{"mapStringNestedMessage":{"k":{"corecursive":{"repeatedNestedMessage":[{"corecursive":',
      "{}",
      "}]}}}}",
      deep / 4,
    ),
  ],
  ["message: Any chain x 100,000", M, `{"optionalAny":${wrap(`{"@type":"${anyUrl}","value":`, "{}", "}", deep)}}`],
  ["message: unknown member [ x 100,000 (ignored)", M, `{"x":${wrap("[", "", "]", deep)}}`],
  ["message: [ x 100,000 where an int belongs", M, `{"optionalInt32":${wrap("[", "", "]", deep)}}`],
];

describe("100,000 levels of text", () => {
  it.each(texts)("%s: fromJsonString is rule depth with a position", (_, schema, text) => {
    const e = catchWkt(() => fromJsonString(schema, text, { registry, ignoreUnknownFields: true }));
    expect(e.rule).toBe("depth");
    expect(e.line).toBe(1);
    expect(e.column).toBeGreaterThan(1);
  });

  it.each(texts)("%s: validateJsonString reports one depth issue", (_, schema, text) => {
    const issues = validateJsonString(schema, text, { registry, ignoreUnknownFields: true });
    expect(issues.map((i) => i.rule)).toEqual(["depth"]);
    expect(issues[0]!.line).toBe(1);
  });

  it.each(texts)("%s: with maxDepth 1e6, our error still (no RangeError)", (_, schema, text) => {
    try {
      fromJsonString(schema, text, { registry, maxDepth: 1_000_000, ignoreUnknownFields: true });
    } catch (e) {
      expect(isWktJsonError(e)).toBe(true);
    }
    for (const i of validateJsonString(schema, text, { registry, maxDepth: 1_000_000, ignoreUnknownFields: true })) {
      expect(typeof i.rule).toBe("string");
    }
  });
});

/** JS values nested 100,000 levels, by schema. */
const values: [string, DescMessage, JsonValue][] = [
  ["Value: arrays", ValueSchema, nest(deep, [], (v) => [v])],
  ["Value: objects", ValueSchema, nest(deep, {}, (v) => ({ a: v }))],
  ["Struct: objects", StructSchema, nest(deep, {}, (v) => ({ a: v }))],
  ["ListValue: arrays", ListValueSchema, nest(deep, [], (v) => [v])],
  ["Any: Any in Any", AnySchema, nest(deep, {}, (v) => ({ "@type": anyUrl, value: v }))],
  ["message: recursiveMessage", M, nest(deep, {}, (v) => ({ recursiveMessage: v }))],
  ["message: optionalStruct", M, { optionalStruct: nest(deep, {}, (v) => ({ a: v })) }],
  ["message: repeatedValue", M, { repeatedValue: [nest(deep, [], (v) => [v])] }],
  ["message: repeatedNestedMessage", M, nest(deep, {}, (v) => ({ repeatedNestedMessage: [{ corecursive: v }] }))],
];

describe("100,000 levels of JS values", () => {
  it.each(values)("%s: fromJson and validateJson give rule depth", (_, schema, json) => {
    expect(catchWkt(() => fromJson(schema, json, { registry })).rule).toBe("depth");
    expect(validateJson(schema, json, { registry }).map((i) => i.rule)).toEqual(["depth"]);
  });

  it("structFromJson, valueFromJson, listValueFromJson and anyFromJson give rule depth", () => {
    expect(catchWkt(() => structFromJson(nest(deep, {}, (v) => ({ a: v })))).rule).toBe("depth");
    expect(catchWkt(() => valueFromJson(nest(deep, [], (v) => [v]))).rule).toBe("depth");
    expect(catchWkt(() => listValueFromJson(nest(deep, [], (v) => [v]) as unknown[])).rule).toBe("depth");
    expect(catchWkt(() => anyFromJson(nest(deep, {}, (v) => ({ "@type": anyUrl, value: v })))).rule).toBe("depth");
  });

  it.each(values)("%s: with maxDepth 1e6, our error still (no RangeError)", (_, schema, json) => {
    for (const run of [
      () => fromJson(schema, json, { registry, maxDepth: 1_000_000 }),
      () => validateJson(schema, json, { registry, maxDepth: 1_000_000 }),
    ]) {
      try {
        run();
      } catch (e) {
        expect(isWktJsonError(e)).toBe(true);
      }
    }
  });
});

describe("writers", () => {
  /** A google.protobuf.Value nested `n` lists deep, built by hand. */
  function deepValue(n: number): Value {
    let v = create(ValueSchema, { kind: { case: "nullValue", value: 0 } });
    for (let k = 0; k < n; k++) {
      v = create(ValueSchema, { kind: { case: "listValue", value: create(ListValueSchema, { values: [v] }) } });
    }
    return v;
  }

  it("toJson, toJsonString and valueToJson of 100,000 levels are rule depth", () => {
    const v = deepValue(deep);
    expect(catchWkt(() => toJson(ValueSchema, v)).rule).toBe("depth");
    expect(catchWkt(() => toJsonString(ValueSchema, v)).rule).toBe("depth");
    expect(catchWkt(() => valueToJson(v)).rule).toBe("depth");
    const m = create(M, { optionalValue: v });
    expect(catchWkt(() => toJsonString(M, m)).rule).toBe("depth");
  });

  it("with maxDepth 1e6, our error or a result (no RangeError)", () => {
    const v = deepValue(deep);
    for (const run of [
      () => toJson(ValueSchema, v, { maxDepth: 1_000_000 }),
      () => toJsonString(ValueSchema, v, { maxDepth: 1_000_000 }),
      () => valueToJson(v, { maxDepth: 1_000_000 }),
    ]) {
      try {
        run();
      } catch (e) {
        expect(isWktJsonError(e)).toBe(true);
      }
    }
  });

  it("what decodes at the limit encodes at the limit", () => {
    const text = wrap("[", "", "]", 100);
    const v = fromJsonString(ValueSchema, text);
    expect(toJsonString(ValueSchema, v)).toBe(text);
    expect(catchWkt(() => toJsonString(ValueSchema, v, { maxDepth: 99 })).rule).toBe("depth");
  });
});

describe("maxDepth boundaries (min-1, min, max, max+1)", () => {
  /** Any messages nested `n` deep in text: the innermost `{}` is an (empty) Any too. */
  const anyChain = (n: number): string => wrap(`{"@type":"${anyUrl}","value":`, "{}", "}", n - 1);

  it.each<[string, DescMessage, (n: number) => string]>([
    ["messages", M, (n) => wrap('{"recursiveMessage":', "{}", "}", n - 1)],
    ["Any", AnySchema, anyChain],
    ["Struct", StructSchema, (n) => wrap('{"a":', "{}", "}", n - 1)],
    ["Value", ValueSchema, (n) => wrap("[", "", "]", n)],
    ["ListValue", ListValueSchema, (n) => wrap("[", "", "]", n)],
    ["message then Value", M, (n) => `{"optionalValue":${wrap("[", "", "]", n - 1)}}`],
    [
      "message then Any then Struct",
      M,
      (n) =>
        `{"optionalAny":{"@type":"type.googleapis.com/google.protobuf.Struct","value":${wrap('{"a":', "{}", "}", n - 3)}}}`,
    ],
  ])("%s: n levels at maxDepth n pass, n + 1 do not", (_, schema, levels) => {
    for (const maxDepth of [3, 10, 100]) {
      expect(() => fromJsonString(schema, levels(maxDepth), { registry, maxDepth })).not.toThrow();
      expect(catchWkt(() => fromJsonString(schema, levels(maxDepth + 1), { registry, maxDepth })).rule).toBe("depth");
      expect(validateJsonString(schema, levels(maxDepth), { registry, maxDepth })).toEqual([]);
      expect(validateJsonString(schema, levels(maxDepth + 1), { registry, maxDepth }).map((i) => i.rule)).toEqual([
        "depth",
      ]);
    }
  });

  it.each([0, -1, 1.5, NaN, "3" as unknown as number])(
    "maxDepth %s is rejected as an option (rule range)",
    (maxDepth) => {
      expect(catchWkt(() => fromJsonString(M, "{}", { maxDepth })).rule).toBe("range");
    },
  );
});
