import { create, fromJson, toJson, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import {
  ListValueSchema,
  StructSchema,
  ValueSchema,
  type ListValue,
  type Struct,
  type Value,
} from "@bufbuild/protobuf/wkt";
import { runInNewContext } from "node:vm";
import { describe, expect, it, vi } from "vitest";
import { defaultMaxDepth } from "../src/limits.js";
import {
  listValueFromArray,
  listValueFromJson,
  listValueToArray,
  listValueToJson,
  structFromJson,
  structFromObject,
  structToJson,
  structToObject,
  valueFromJs,
  valueFromJson,
  valueToJs,
  valueToJson,
} from "../src/wkt/struct.js";
import { listValueFromJsonInternal, structFromJsonInternal, valueFromJsonInternal } from "../src/wkt/struct-decode.js";
import { listValueToJsonInternal, structToJsonInternal, valueToJsonInternal } from "../src/wkt/struct-encode.js";
import { catchWkt } from "./helpers.js";
import { fromJson as ourFromJson, fromJsonString } from "../src/codec/from-json.js";
import { validateJsonString } from "../src/codec/validate.js";
import { TestAllTypesProto3 } from "./conformance-registry.js";

const STRUCT = "google.protobuf.Struct";
const VALUE = "google.protobuf.Value";
const LIST = "google.protobuf.ListValue";

/** n nested objects: nestObject(1) = {}, nestObject(2) = {"a": {}}. */
function nestObject(n: number): Record<string, unknown> {
  let o: Record<string, unknown> = {};
  for (let i = 1; i < n; i++) o = { a: o };
  return o;
}

/** n nested arrays: nestArray(1) = [], nestArray(2) = [[]]. */
function nestArray(n: number): unknown[] {
  let a: unknown[] = [];
  for (let i = 1; i < n; i++) a = [a];
  return a;
}

function v(kind: Value["kind"]): Value {
  return create(ValueSchema, { kind });
}

function structOf(fields: Record<string, Value>): Struct {
  return create(StructSchema, { fields });
}

class Point {
  constructor(
    readonly x: number,
    readonly y: number,
  ) {}
}

/** A flow-builder definition as the service returns it (consumers.md §1), with an unknown widget type. */
const flowDefinitionText = JSON.stringify({
  description: "IVR for creating a Flex voice task",
  flags: { allow_concurrent_calls: true },
  initial_state: "Trigger",
  states: [
    {
      name: "Trigger",
      type: "trigger",
      transitions: [
        { event: "incomingMessage" },
        { event: "incomingCall", next: "say_play_1" },
        { event: "incomingRequest" },
      ],
      properties: { offset: { x: 0, y: 0 } },
    },
    {
      name: "say_play_1",
      type: "say-play",
      transitions: [{ event: "audioComplete" }],
      properties: { offset: { x: 173, y: 212.5 }, loop: 1, say: "Hello — grüße, 你好 👋" },
    },
    {
      name: "split_1",
      type: "split-based-on",
      transitions: [{ event: "noMatch" }, { event: "match", next: null, conditions: [] }],
      properties: {
        offset: { x: -0.1, y: 1e-7 },
        input: "{{trigger.message.Body}}",
        weights: [0.1, 0.2, 0.30000000000000004, 1.5e300, -2.5e-300],
        matrix: [[1, [2, [3, [null, [true, false]]]]], [], [[]]],
        big: 9007199254740991,
        bigger: 12345678901234567000,
        negative: -42,
        empty: {},
        "key with spaces": "ok",
        __proto__: { polluted: true },
        constructor: { prototype: { polluted: true } },
        prototype: null,
        timeout: null,
      },
    },
  ],
});

describe("structFromJson / structToJson", () => {
  it("round-trips a flow-builder definition with nothing lost or reordered", () => {
    const json = JSON.parse(flowDefinitionText) as JsonValue;
    const s = structFromJson(json);
    const back = structToJson(s);
    expect(JSON.stringify(back)).toBe(flowDefinitionText);
    expect(back).toEqual(json);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("lets a client connect a new widget in a few lines (consumers.md §1)", () => {
    const s = structFromJson(JSON.parse(flowDefinitionText));
    const states = s.fields.states!.kind.value as ListValue;
    states.values.push(valueFromJson({ name: "say_play_2", type: "say-play", transitions: [] }));
    const trigger = (states.values[0]!.kind.value as Struct).fields.transitions!.kind.value as ListValue;
    (trigger.values[1]!.kind.value as Struct).fields.next = valueFromJson("say_play_2");
    const json = structToJson(s) as { states: { name: string; transitions: { next?: string }[] }[] };
    expect(json.states.map((st) => st.name)).toEqual(["Trigger", "say_play_1", "split_1", "say_play_2"]);
    expect(json.states[0]!.transitions[1]!.next).toBe("say_play_2");
  });

  it("matches @bufbuild/protobuf fromJson exactly, down to the prototype of fields", () => {
    const inputs: JsonValue[] = [
      {},
      JSON.parse(flowDefinitionText) as JsonValue,
      {
        nullValue: null,
        intValue: 1234,
        boolValue: true,
        doubleValue: 1234.5678,
        stringValue: "Hello world!",
        listValue: [1234, "5678"],
        objectValue: { value: 0 },
      },
    ];
    for (const json of inputs) {
      const ours = structFromJson(json);
      const theirs = fromJson(StructSchema, json);
      // toStrictEqual compares `constructor` properties, which are member names here: toEqual plus prototypes.
      expect(ours).toEqual(theirs);
      expect(Object.getPrototypeOf(ours.fields)).toBe(Object.getPrototypeOf(create(StructSchema).fields));
      expect(structToJson(theirs)).toEqual(toJson(StructSchema, theirs));
      expect(JSON.stringify(structToJson(theirs))).toBe(JSON.stringify(toJson(StructSchema, theirs)));
    }
  });

  it("keeps member order, with the integer-like keys JS objects always put first", () => {
    const text = '{"b":1,"a":2,"2":3,"c":4,"1":5}';
    const s = structFromJson(JSON.parse(text));
    expect(Object.keys(s.fields)).toEqual(["1", "2", "b", "a", "c"]);
    expect(Object.keys(structToJson(s))).toEqual(Object.keys(JSON.parse(text) as object));
  });

  it.each([
    ["an array", []],
    ["null", null],
    ["a number", 1],
    ["a string", "x"],
    ["a boolean", true],
    ["undefined", undefined],
    ["a bigint", 1n],
    ["a Date", new Date(0)],
    ["a Map", new Map()],
    ["a class instance", new Point(1, 2)],
    ["a function", () => 1],
  ])("rejects %s at the root (json-type)", (_, json) => {
    expect(catchWkt(() => structFromJson(json))).toMatchObject({ rule: "json-type", jsonPath: "$", typeName: STRUCT });
  });

  it.each([
    [{ a: undefined }, "json-type", "$.a", VALUE],
    [{ a: () => 1 }, "json-type", "$.a", VALUE],
    [{ a: Symbol("s") }, "json-type", "$.a", VALUE],
    [{ a: new Date(0) }, "json-type", "$.a", VALUE],
    [{ a: new Map([["k", 1]]) }, "json-type", "$.a", VALUE],
    [{ a: new Set([1]) }, "json-type", "$.a", VALUE],
    [{ a: new Point(1, 2) }, "json-type", "$.a", VALUE],
    [{ a: new Uint8Array(2) }, "json-type", "$.a", VALUE],
    [{ a: Object(1) as object }, "json-type", "$.a", VALUE], // a boxed number is not JSON
    [{ states: [{}, {}, { name: new Date(0) }] }, "json-type", "$.states[2].name", VALUE],
    // eslint-disable-next-line no-sparse-arrays
    [{ a: [1, , 3] }, "json-type", "$.a[1]", VALUE], // a hole reads as undefined
    [{ "team name": NaN }, "not-finite", '$["team name"]', VALUE],
    [{ a: { b: [Infinity] } }, "not-finite", "$.a.b[0]", VALUE],
    [{ a: -Infinity }, "not-finite", "$.a", VALUE],
    [{ a: 2n ** 1100n }, "not-finite", "$.a", VALUE], // a bigint from the parser too large for a double
    [{ a: "\ud800" }, "utf16", "$.a", VALUE],
    [{ a: ["ok", "x\udc00y"] }, "utf16", "$.a[1]", VALUE],
    [{ "\udc00": 1 }, "utf16", '$["\\udc00"]', STRUCT], // a member name with a lone surrogate
    [{ a: { "b\ud800": null } }, "utf16", '$.a["b\\ud800"]', STRUCT],
  ])("rejects %o (%s at %s)", (json, rule, path, typeName) => {
    expect(catchWkt(() => structFromJson(json))).toMatchObject({ rule, jsonPath: path, typeName });
  });

  it("accepts a surrogate pair, -0, and every JSON scalar", () => {
    const s = structFromJson({ emoji: "👋", zero: -0, t: true, f: false, n: null, x: 0.1 });
    expect(s.fields.emoji!.kind).toEqual({ case: "stringValue", value: "👋" });
    expect(Object.is(s.fields.zero!.kind.value, -0)).toBe(true);
    expect(Object.is(structToJson(s).zero, -0)).toBe(true);
    expect(s.fields.n!.kind).toEqual({ case: "nullValue", value: 0 });
  });

  it("accepts plain objects with a null prototype", () => {
    const o = Object.create(null) as Record<string, unknown>;
    o.a = 1;
    expect(structToJson(structFromJson(o))).toEqual({ a: 1 });
  });

  it("accepts the plain objects and arrays of another realm", () => {
    const json = runInNewContext('({ a: [1, { b: null }], c: "x" })') as unknown;
    expect(structToJson(structFromJson(json))).toEqual({ a: [1, { b: null }], c: "x" });
    expect(catchWkt(() => structFromJson(runInNewContext("({ d: new Date(0) })")))).toMatchObject({
      rule: "json-type",
      jsonPath: "$.d",
    });
  });

  it("reads the objects of another realm whose Object.prototype has an enumerable member", () => {
    const json = runInNewContext('Object.prototype.polluted = 1; ({ a: { b: [{ c: 2 }] }, d: "x" })') as unknown;
    const s = structFromJson(json);
    expect(Object.keys(s.fields)).toEqual(["a", "d"]);
    expect(structToJson(s)).toEqual({ a: { b: [{ c: 2 }] }, d: "x" });
    expect(s).toEqual(fromJson(StructSchema, { a: { b: [{ c: 2 }] }, d: "x" }));
  });

  it("reads a root of 1,500 members (a dictionary in V8) in order, with the names stored by name, both ways", () => {
    const names: string[] = [];
    for (let i = 0; i < 1500; i++)
      names.push(i === 700 ? "__proto__" : i === 900 ? "next" : `k${(i * 7919) % 1500}_${i}`);
    names.push("7", "constructor");
    const text = "{" + names.map((n, i) => `${JSON.stringify(n)}:${i % 3 === 0 ? `{"x":${i}}` : i}`).join(",") + "}";
    const json = JSON.parse(text) as JsonObject;
    const s = structFromJson(json);
    expect(s).toEqual(fromJson(StructSchema, json));
    expect(Object.getOwnPropertyNames(s.fields)).toEqual(Object.keys(json));
    expect(Object.getPrototypeOf(s.fields)).toBe(Object.prototype);
    const out = structToJson(s);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe(JSON.stringify(json));
    expect(out).toEqual(toJson(StructSchema, s));
    const bad = JSON.parse(text) as Record<string, JsonValue>;
    bad["\ud800"] = 1;
    expect(catchWkt(() => structFromJson(bad))).toMatchObject({ rule: "utf16", jsonPath: '$["\\ud800"]' });
    const badStruct = structFromJson(json);
    badStruct.fields["\udc00x"] = v({ case: "nullValue", value: 0 as never });
    expect(catchWkt(() => structToJson(badStruct))).toMatchObject({ rule: "utf16", jsonPath: '$["\\udc00x"]' });
  });

  it("reads own members only, even when Object.prototype has an enumerable member", () => {
    const proto = Object.prototype as Record<string, unknown>;
    proto.polluted = "yes";
    try {
      const s = structFromJson({ a: { b: 1 } });
      expect(Object.keys(s.fields)).toEqual(["a"]);
      expect(Object.keys((s.fields.a!.kind.value as Struct).fields)).toEqual(["b"]);
      expect(Object.keys(structToJson(s))).toEqual(["a"]);
      expect(Object.keys(valueToJson(valueFromJs({ x: [{ y: 2 }] })) as object)).toEqual(["x"]);
    } finally {
      delete proto.polluted;
    }
  });

  it("encodes the own members of fields only, whatever its prototype", () => {
    const one = v({ case: "numberValue", value: 1 });
    const inherited = Object.create({ inherited: one }) as Record<string, Value>;
    inherited.own = one;
    const bare = Object.create(null) as Record<string, Value>;
    bare.z = one;
    bare["2"] = one;
    bare.__proto__ = one;
    const foreign = runInNewContext("({})") as Record<string, Value>;
    foreign.x = one;
    const s = structOf({ a: v({ case: "structValue", value: { $typeName: STRUCT, fields: inherited } as Struct }) });
    s.fields.b = v({ case: "structValue", value: { $typeName: STRUCT, fields: bare } as Struct });
    s.fields.c = v({
      case: "listValue",
      value: {
        $typeName: LIST,
        values: [v({ case: "structValue", value: { $typeName: STRUCT, fields: foreign } as Struct })],
      } as ListValue,
    });
    const check = (out: JsonObject): void => {
      expect(Object.keys(out.a as object)).toEqual(["own"]);
      expect(Object.keys(out.b as object)).toEqual(["2", "z", "__proto__"]);
      expect(Object.getPrototypeOf(out.b)).toBe(Object.prototype);
      expect((out.c as JsonObject[])[0]).toEqual({ x: 1 });
    };
    check(structToJson(s));
    const proto = Object.prototype as Record<string, unknown>;
    proto.polluted = "yes";
    try {
      check(structToJson(s));
    } finally {
      delete proto.polluted;
    }
  });

  it("checks UTF-16 when encoding on a platform without String.prototype.isWellFormed", async () => {
    const proto = String.prototype as { isWellFormed?: unknown };
    const native = proto.isWellFormed;
    delete proto.isWellFormed;
    try {
      vi.resetModules();
      const m = (await import("../src/wkt/struct.js")) as typeof import("../src/wkt/struct.js");
      const good = structOf({ "👋": v({ case: "stringValue", value: "a👋" }) });
      expect(m.structToJson(good)).toEqual({ "👋": "a👋" });
      expect(
        catchWkt(() => m.structToJson(structOf({ a: v({ case: "stringValue", value: "x\udc00" }) }))),
      ).toMatchObject({ rule: "utf16", jsonPath: "$.a", typeName: VALUE });
      expect(catchWkt(() => m.structToJson(structOf({ "\ud800": v({ case: "nullValue", value: 0 }) })))).toMatchObject({
        rule: "utf16",
        jsonPath: '$["\\ud800"]',
        typeName: STRUCT,
      });
    } finally {
      proto.isWellFormed = native;
      vi.resetModules();
    }
  });

  it("reads a bigint from the JSON-text parser as the nearest double", () => {
    const s = structFromJson({ big: 12345678901234567890n, exact: 2n ** 60n });
    expect(s.fields.big!.kind).toEqual({ case: "numberValue", value: 12345678901234567000 });
    expect(s.fields.exact!.kind).toEqual({ case: "numberValue", value: 2 ** 60 });
  });

  it.each([
    [structOf({ a: create(ValueSchema) }), "value-kind", "$.a", VALUE], // rule 9: no variant
    [structOf({ a: v({ case: "numberValue", value: NaN }) }), "not-finite", "$.a", VALUE], // rule 9
    [structOf({ a: v({ case: "numberValue", value: Infinity }) }), "not-finite", "$.a", VALUE],
    [structOf({ a: v({ case: "numberValue", value: -Infinity }) }), "not-finite", "$.a", VALUE],
    [structOf({ "a b": v({ case: "stringValue", value: "\ud800" }) }), "utf16", '$["a b"]', VALUE],
    [structOf({ "\ud800": v({ case: "nullValue", value: 0 }) }), "utf16", '$["\\ud800"]', STRUCT],
    [structOf({ a: v({ case: "numberValue", value: "1" as unknown as number }) }), "json-type", "$.a", VALUE],
    [structOf({ a: v({ case: "stringValue", value: 1 as unknown as string }) }), "json-type", "$.a", VALUE],
    [structOf({ a: v({ case: "boolValue", value: 0 as unknown as boolean }) }), "json-type", "$.a", VALUE],
    [structOf({ a: { $typeName: VALUE, kind: { case: "x" } } as unknown as Value }), "value-kind", "$.a", VALUE],
    [structOf({ a: undefined as unknown as Value }), "json-type", "$.a", VALUE],
    [{ $typeName: STRUCT } as unknown as Struct, "json-type", "$", STRUCT],
    [
      structOf({
        states: v({
          case: "listValue",
          value: create(ListValueSchema, {
            values: [
              v({ case: "nullValue", value: 0 }),
              v({ case: "structValue", value: structOf({ name: create(ValueSchema) }) }),
            ],
          }),
        }),
      }),
      "value-kind",
      "$.states[1].name",
      VALUE,
    ],
  ])("refuses to encode %# (%s at %s)", (s, rule, path, typeName) => {
    expect(catchWkt(() => structToJson(s))).toMatchObject({ rule, jsonPath: path, typeName });
  });
});

describe("__proto__, constructor and prototype are ordinary member names", () => {
  const text =
    '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}},"prototype":{"x":[{"__proto__":3}]}}';

  it("decodes them as own keys of fields and never touches a prototype", () => {
    const s = structFromJson(JSON.parse(text));
    expect(Object.getOwnPropertyNames(s.fields)).toEqual(["__proto__", "constructor", "prototype"]);
    expect(Object.getPrototypeOf(s.fields)).toBe(Object.prototype);
    expect(s.fields["__proto__"]!.kind.case).toBe("structValue");
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(s).toEqual(fromJson(StructSchema, JSON.parse(text) as JsonValue)); // see above on toStrictEqual
  });

  it("encodes them as own properties of a plain object", () => {
    const out = structToJson(structFromJson(JSON.parse(text)));
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.getOwnPropertyNames(out)).toEqual(["__proto__", "constructor", "prototype"]);
    expect(Object.getOwnPropertyDescriptor(out, "__proto__")?.value).toEqual({ polluted: 1 });
    const nested = (out.prototype as { x: JsonValue[] }).x[0] as Record<string, JsonValue>;
    expect(Object.getPrototypeOf(nested)).toBe(Object.prototype);
    expect(Object.getOwnPropertyNames(nested)).toEqual(["__proto__"]);
    expect(JSON.stringify(out)).toBe(text);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("encodes a Struct made by @bufbuild/protobuf the same way", () => {
    const out = structToJson(fromJson(StructSchema, JSON.parse(text) as JsonValue));
    expect(JSON.stringify(out)).toBe(text);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });

  it("treats them alike on the plain-JS side", () => {
    const obj = { ["__proto__"]: { polluted: 1 }, constructor: 2, prototype: 3 };
    expect(Object.getOwnPropertyNames(obj)).toContain("__proto__");
    const back = structToObject(structFromObject(obj));
    expect(Object.getOwnPropertyNames(back)).toEqual(["__proto__", "constructor", "prototype"]);
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(valueToJs(valueFromJs([obj]))).toEqual([back]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("names that V8 stores by name (its protector names) and names that look like them", () => {
  // next, then, length, resolve, valueOf, constructor and __proto__ take another store than other names; the
  // rest share their length and first character, or not quite.
  const names = ["next", "then", "length", "resolve", "valueOf", "constructor", "__proto__"];
  names.push("nexT", "nope", "type", "lengthy", "value", "valueOF", "", "_", "constructors");
  const json: Record<string, JsonValue> = {};
  for (const [i, name] of names.entries()) {
    const value = [i, { [name]: name }];
    Object.defineProperty(json, name, { value, enumerable: true, writable: true, configurable: true });
  }
  const text = JSON.stringify(json);

  it("are own data members in the order given, both ways, at every level", () => {
    const s = structFromJson(JSON.parse(text));
    expect(Object.getOwnPropertyNames(s.fields)).toEqual(names);
    expect(s).toEqual(fromJson(StructSchema, JSON.parse(text) as JsonValue));
    for (const [i, name] of names.entries()) {
      const value = fromJson(ValueSchema, [i, { [name]: name }]);
      expect(Object.getOwnPropertyDescriptor(s.fields, name)?.value).toEqual(value);
    }
    const out = structToJson(s);
    expect(Object.getOwnPropertyNames(out)).toEqual(names);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe(text);
    expect(JSON.stringify(structToObject(structFromObject(JSON.parse(text) as object)))).toBe(text);
  });

  it("keep the object's prototype and Object.prototype as they were", () => {
    const out = structToJson(structFromJson(JSON.parse(text)));
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(typeof ({} as { valueOf: unknown }).valueOf).toBe("function");
    expect(({} as { constructor: unknown }).constructor).toBe(Object);
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, "next")).toBe(false);
  });
});

describe("depth limit", () => {
  const max = defaultMaxDepth;

  it.each([
    [max - 1, true],
    [max, true],
    [max + 1, false],
  ])("objects nested %i deep: accepted %s", (n, ok) => {
    const json = nestObject(n);
    if (ok) {
      expect(structToJson(structFromJson(json))).toEqual(json);
      return;
    }
    const path = "$" + ".a".repeat(max);
    expect(catchWkt(() => structFromJson(json))).toMatchObject({ rule: "depth", jsonPath: path, typeName: STRUCT });
    // The same nesting built as messages is refused when encoding.
    const s = structFromJson(json, { maxDepth: max + 1 });
    expect(catchWkt(() => structToJson(s))).toMatchObject({ rule: "depth", jsonPath: path, typeName: STRUCT });
    expect(structToJson(s, { maxDepth: max + 1 })).toEqual(json);
  });

  it.each([
    [max - 1, true],
    [max, true],
    [max + 1, false],
  ])("arrays nested %i deep: accepted %s", (n, ok) => {
    const json = nestArray(n);
    if (ok) {
      expect(listValueToJson(listValueFromJson(json))).toEqual(json);
      expect(valueToJson(valueFromJson(json))).toEqual(json);
      return;
    }
    const path = "$" + "[0]".repeat(max);
    expect(catchWkt(() => listValueFromJson(json))).toMatchObject({ rule: "depth", jsonPath: path, typeName: LIST });
    expect(catchWkt(() => valueFromJson(json))).toMatchObject({ rule: "depth", jsonPath: path, typeName: LIST });
    const l = listValueFromJson(json, { maxDepth: max + 1 });
    expect(catchWkt(() => listValueToJson(l))).toMatchObject({ rule: "depth", jsonPath: path, typeName: LIST });
  });

  it("counts objects and arrays alike, and scalars not at all", () => {
    const json = { a: [{ b: [1] }] }; // four containers
    expect(structToJson(structFromJson(json, { maxDepth: 4 }))).toEqual(json);
    expect(catchWkt(() => structFromJson(json, { maxDepth: 3 }))).toMatchObject({
      rule: "depth",
      jsonPath: "$.a[0].b",
      typeName: LIST,
    });
    expect(valueToJson(valueFromJson("x", { maxDepth: 1 }))).toBe("x");
    expect(catchWkt(() => structFromJsonInternal({}, 0))).toMatchObject({ rule: "depth", jsonPath: "$" });
  });

  it.each([
    ["arrays", "[".repeat(100_000) + "]".repeat(100_000), "[0]"],
    ["objects", '{"a":'.repeat(100_000) + "{}" + "}".repeat(100_000), ".a"],
  ])("stops at the limit for 100,000 levels of %s", (_, text, step) => {
    const json = JSON.parse(text) as unknown;
    expect(catchWkt(() => valueFromJson(json))).toMatchObject({ rule: "depth", jsonPath: "$" + step.repeat(max) });
    expect(catchWkt(() => valueFromJs(json))).toMatchObject({ rule: "depth", jsonPath: "$" + step.repeat(max) });
  });

  it("turns a stack overflow under a maxDepth beyond the stack into a depth error", () => {
    const json = nestArray(1_000_000);
    expect(catchWkt(() => listValueFromJson(json, { maxDepth: 10_000_000 }))).toMatchObject({
      rule: "depth",
      typeName: LIST,
    });
  });

  it.each([[-1], [0], [NaN], [1.5], [Infinity], ["3" as unknown as number]])(
    "rejects maxDepth %s (range)",
    (maxDepth) => {
      expect(catchWkt(() => structFromJson({}, { maxDepth }))).toMatchObject({
        rule: "range",
        jsonPath: "$",
        typeName: "options",
      });
    },
  );
});

describe("internal entry points for the whole-message codec", () => {
  it("take the levels left and report paths relative to the value given", () => {
    expect(structFromJsonInternal({ a: {} }, 2)).toStrictEqual(fromJson(StructSchema, { a: {} }));
    expect(catchWkt(() => structFromJsonInternal({ a: {} }, 1))).toMatchObject({ rule: "depth", jsonPath: "$.a" });
    expect(catchWkt(() => structFromJsonInternal({}, 0))).toMatchObject({ rule: "depth", jsonPath: "$" });
    expect(catchWkt(() => structFromJsonInternal([], 5))).toMatchObject({ rule: "json-type", jsonPath: "$" });
    expect(valueFromJsonInternal(null, 0)).toStrictEqual(fromJson(ValueSchema, null));
    expect(catchWkt(() => valueFromJsonInternal([], 0))).toMatchObject({ rule: "depth", jsonPath: "$" });
    expect(listValueFromJsonInternal([[1]], 2)).toStrictEqual(fromJson(ListValueSchema, [[1]]));
    expect(catchWkt(() => listValueFromJsonInternal([[1]], 1))).toMatchObject({ rule: "depth", jsonPath: "$[0]" });
    expect(catchWkt(() => listValueFromJsonInternal({}, 5))).toMatchObject({ rule: "json-type", jsonPath: "$" });

    const s = structFromJson({ a: [1] });
    expect(structToJsonInternal(s, 2)).toEqual({ a: [1] });
    expect(catchWkt(() => structToJsonInternal(s, 1))).toMatchObject({ rule: "depth", jsonPath: "$.a" });
    expect(valueToJsonInternal(valueFromJson(1), 0)).toBe(1);
    expect(catchWkt(() => valueToJsonInternal(valueFromJson([]), 0))).toMatchObject({ rule: "depth", jsonPath: "$" });
    expect(listValueToJsonInternal(listValueFromJson([[]]), 2)).toEqual([[]]);
    expect(catchWkt(() => listValueToJsonInternal(listValueFromJson([[]]), 1))).toMatchObject({
      rule: "depth",
      jsonPath: "$[0]",
    });
  });
});

describe("the encoders' first try (no paths) and the walk that reports errors agree", () => {
  const str = (value: string): Value => v({ case: "stringValue", value });
  const num = (value: number): Value => v({ case: "numberValue", value });

  it("checks a member name that matches a checked one in length and position", () => {
    // "ab" is remembered as well-formed; "\ud800b" has its length and position and must still be checked.
    expect(structToJson(structOf({ ab: num(1) }))).toEqual({ ab: 1 });
    expect(catchWkt(() => structToJson(structOf({ "\ud800b": num(1) })))).toMatchObject({
      rule: "utf16",
      jsonPath: '$["\\ud800b"]',
    });
    expect(catchWkt(() => structToJson(structOf({ ab: num(1), "\udc00b": num(2) })))).toMatchObject({ rule: "utf16" });
    expect(structToJson(structOf({ ab: num(1) }))).toEqual({ ab: 1 });
  });

  it("reports the first error in member order, whatever comes after it", () => {
    const s = structOf({ a: str("ok"), b: str("\udc00"), c: num(NaN), d: v({ case: undefined }) });
    expect(catchWkt(() => structToJson(s))).toMatchObject({ rule: "utf16", jsonPath: "$.b" });
    const t = structOf({ a: num(Infinity), b: str("\udc00") });
    expect(catchWkt(() => structToJson(t))).toMatchObject({ rule: "not-finite", jsonPath: "$.a" });
    const l = create(ListValueSchema, {
      values: [num(1), v({ case: "listValue", value: create(ListValueSchema, { values: [str("\ud800")] }) }), num(NaN)],
    });
    expect(catchWkt(() => listValueToJson(l))).toMatchObject({ rule: "utf16", jsonPath: "$[1][0]" });
    expect(catchWkt(() => valueToJson(str("x\ud800")))).toMatchObject({ rule: "utf16", jsonPath: "$" });
  });

  it("reports a Value, Struct or ListValue that is not an object as the walk does", () => {
    const s = structOf({ a: null as unknown as Value });
    expect(catchWkt(() => structToJson(s))).toMatchObject({ rule: "json-type", jsonPath: "$.a" });
    const t = structOf({
      a: v({ case: "structValue", value: { $typeName: STRUCT, fields: "ab" } as unknown as Struct }),
    });
    expect(catchWkt(() => structToJson(t))).toMatchObject({ rule: "json-type", jsonPath: "$.a" });
    const u = structOf({
      a: v({ case: "structValue", value: { $typeName: STRUCT, fields: "" } as unknown as Struct }),
    });
    expect(catchWkt(() => structToJson(u))).toMatchObject({ rule: "json-type", jsonPath: "$.a" });
    const w = structOf({ a: { $typeName: VALUE, kind: "stringValue" } as unknown as Value });
    expect(catchWkt(() => structToJson(w))).toMatchObject({ rule: "json-type", jsonPath: "$.a" });
  });

  it("reads only own members of fields, whatever its prototype", () => {
    const fields = Object.create({ inherited: num(1) }) as Record<string, Value>;
    fields["own"] = num(2);
    expect(structToJson({ $typeName: STRUCT, fields })).toStrictEqual({ own: 2 });
    const bare = Object.create(null) as Record<string, Value>;
    bare["x"] = str("y");
    expect(structToJson({ $typeName: STRUCT, fields: bare })).toStrictEqual({ x: "y" });
  });

  it("does not trust a replaced Object.prototype.hasOwnProperty", () => {
    const fields = Object.create({ inherited: num(1) }) as Record<string, Value>;
    fields["own"] = num(2);
    const original = Object.prototype.hasOwnProperty;
    Object.prototype.hasOwnProperty = () => true;
    try {
      expect(structToJson({ $typeName: STRUCT, fields })).toStrictEqual({ own: 2 });
    } finally {
      Object.prototype.hasOwnProperty = original;
    }
  });
});

describe("valueFromJson / valueToJson", () => {
  it.each([
    [null, { case: "nullValue", value: 0 }],
    [true, { case: "boolValue", value: true }],
    [false, { case: "boolValue", value: false }],
    [0, { case: "numberValue", value: 0 }],
    [0.1, { case: "numberValue", value: 0.1 }],
    [-1.5e300, { case: "numberValue", value: -1.5e300 }],
    [Number.MAX_VALUE, { case: "numberValue", value: Number.MAX_VALUE }],
    [5e-324, { case: "numberValue", value: 5e-324 }],
    ["", { case: "stringValue", value: "" }],
    ["🙂", { case: "stringValue", value: "🙂" }],
  ] as const)("decodes %o like @bufbuild/protobuf", (json, kind) => {
    const value = valueFromJson(json);
    expect(value.kind).toEqual(kind);
    expect(value).toStrictEqual(fromJson(ValueSchema, json));
    expect(value).toStrictEqual(create(ValueSchema, { kind: kind as Value["kind"] }));
    expect(valueToJson(value)).toBe(json);
    expect(toJson(ValueSchema, value)).toBe(json);
  });

  it("builds nested Values exactly like @bufbuild/protobuf", () => {
    const json = [1, "a", null, true, { b: [{}, []] }, []];
    expect(valueFromJson(json)).toStrictEqual(fromJson(ValueSchema, json));
    expect(listValueFromJson(json)).toStrictEqual(fromJson(ListValueSchema, json));
  });

  it.each([
    [undefined, "json-type"],
    [NaN, "not-finite"],
    [Infinity, "not-finite"],
    [-Infinity, "not-finite"],
    [Symbol.iterator, "json-type"],
    [() => null, "json-type"],
    [new Date(0), "json-type"],
    [new Map(), "json-type"],
    [new Point(0, 0), "json-type"],
    [new String("boxed"), "json-type"],
    ["\ud83d", "utf16"], // a high surrogate alone
    ["\ude00\ud83d", "utf16"], // a pair in the wrong order
  ])("rejects %s (%s)", (json, rule) => {
    expect(catchWkt(() => valueFromJson(json))).toMatchObject({ rule, jsonPath: "$", typeName: VALUE });
  });

  it.each([
    [create(ValueSchema), "value-kind"],
    [v({ case: "numberValue", value: NaN }), "not-finite"],
    [v({ case: "numberValue", value: Infinity }), "not-finite"],
    [v({ case: "stringValue", value: "\udfff" }), "utf16"],
    [null as unknown as Value, "json-type"],
    [{} as unknown as Value, "json-type"],
  ])("refuses to encode %o (%s)", (value, rule) => {
    expect(catchWkt(() => valueToJson(value))).toMatchObject({ rule, jsonPath: "$", typeName: VALUE });
  });

  it("writes a NullValue as null whatever number it holds", () => {
    expect(valueToJson(v({ case: "nullValue", value: 0 }))).toBe(null);
  });
});

describe("listValueFromJson / listValueToJson", () => {
  it("round-trips an array of 1,000 numbers", () => {
    const json = Array.from({ length: 1000 }, (_, i) => i * 0.25 - 100);
    const l = listValueFromJson(json);
    expect(l.values).toHaveLength(1000);
    expect(listValueToJson(l)).toEqual(json);
  });

  it.each([
    [{}, "json-type", "$", LIST],
    [null, "json-type", "$", LIST],
    ["[]", "json-type", "$", LIST],
    [[1, undefined], "json-type", "$[1]", VALUE],
    [[[NaN]], "not-finite", "$[0][0]", VALUE],
    [[{ "x\ud800": 1 }], "utf16", '$[0]["x\\ud800"]', STRUCT],
  ])("rejects %o (%s at %s)", (json, rule, path, typeName) => {
    expect(catchWkt(() => listValueFromJson(json))).toMatchObject({ rule, jsonPath: path, typeName });
  });

  it.each([
    [create(ListValueSchema, { values: [create(ValueSchema)] }), "value-kind", "$[0]", VALUE],
    [
      create(ListValueSchema, {
        values: [v({ case: "numberValue", value: 1 }), v({ case: "numberValue", value: NaN })],
      }),
      "not-finite",
      "$[1]",
      VALUE,
    ],
    [{ $typeName: LIST, values: [undefined] } as unknown as ListValue, "json-type", "$[0]", VALUE],
    [{ $typeName: LIST } as unknown as ListValue, "json-type", "$", LIST],
  ])("refuses to encode %# (%s at %s)", (l, rule, path, typeName) => {
    expect(catchWkt(() => listValueToJson(l))).toMatchObject({ rule, jsonPath: path, typeName });
  });
});

describe("plain-JS helpers", () => {
  it("convert objects, arrays and values both ways", () => {
    const obj = { name: "x", tags: ["a", "b"], n: 1, ok: true, none: null };
    expect(structToObject(structFromObject(obj))).toEqual(obj);
    expect(listValueToArray(listValueFromArray(obj.tags))).toEqual(obj.tags);
    expect(valueToJs(valueFromJs(obj))).toEqual(obj);
    expect(structFromObject(obj)).toStrictEqual(structFromJson(obj));
  });

  it.each([
    [3n, 3],
    [-0n, 0],
    [2n ** 53n, 2 ** 53],
    [-(2n ** 60n), -(2 ** 60)],
    [2n ** 1023n, 2 ** 1023],
  ])("accepts the bigint %s, which a double holds exactly", (big, n) => {
    expect(valueFromJs(big).kind).toEqual({ case: "numberValue", value: n });
  });

  it.each([[2n ** 53n + 1n], [12345678901234567890n], [2n ** 1024n], [-(2n ** 2000n)]])(
    "rejects the bigint %s, which a double cannot hold exactly (range)",
    (big) => {
      expect(catchWkt(() => valueFromJs(big))).toMatchObject({ rule: "range", jsonPath: "$", typeName: VALUE });
      expect(catchWkt(() => structFromObject({ a: [big] }))).toMatchObject({ rule: "range", jsonPath: "$.a[0]" });
    },
  );

  it.each([
    [[], "json-type", "$", STRUCT],
    [null as unknown as object, "json-type", "$", STRUCT],
    [new Point(1, 2), "json-type", "$", STRUCT],
    [{ when: new Date(0) }, "json-type", "$.when", VALUE],
    [{ f: undefined }, "json-type", "$.f", VALUE],
    [{ n: NaN }, "not-finite", "$.n", VALUE],
  ])("structFromObject rejects %o (%s at %s)", (obj, rule, path, typeName) => {
    expect(catchWkt(() => structFromObject(obj))).toMatchObject({ rule, jsonPath: path, typeName });
  });

  it("listValueFromArray rejects a non-array", () => {
    expect(catchWkt(() => listValueFromArray({ length: 0 } as unknown as unknown[]))).toMatchObject({
      rule: "json-type",
      jsonPath: "$",
      typeName: LIST,
    });
  });
});

describe("the path option", () => {
  const badValue = (kind: unknown) => ({ $typeName: VALUE, kind }) as unknown as Value;
  const nan = badValue({ case: "numberValue", value: NaN });

  it.each([
    [
      "structFromJson",
      () => structFromJson({ tags: ["a", "b", NaN] }, { path: "$.meta" }),
      "not-finite",
      "$.meta.tags[2]",
      VALUE,
    ],
    ["structFromJson (root)", () => structFromJson([], { path: "$.meta" }), "json-type", "$.meta", STRUCT],
    [
      "structFromJson (key)",
      () => structFromJson({ "team name": undefined }, { path: "$.meta" }),
      "json-type",
      '$.meta["team name"]',
      VALUE,
    ],
    [
      "structFromJson (depth)",
      () => structFromJson({ a: { b: {} } }, { path: "$.meta", maxDepth: 2 }),
      "depth",
      "$.meta.a.b",
      STRUCT,
    ],
    [
      "valueFromJson",
      () => valueFromJson({ when: undefined }, { path: "$.extra" }),
      "json-type",
      "$.extra.when",
      VALUE,
    ],
    ["valueFromJson (root)", () => valueFromJson(Infinity, { path: "$.extra" }), "not-finite", "$.extra", VALUE],
    [
      "listValueFromJson",
      () => listValueFromJson([1, [2, Infinity]], { path: "$.scores" }),
      "not-finite",
      "$.scores[1][1]",
      VALUE,
    ],
    [
      "structFromObject",
      () => structFromObject({ at: new Date(0) }, { path: "$.meta" }),
      "json-type",
      "$.meta.at",
      VALUE,
    ],
    ["valueFromJs", () => valueFromJs([1n, 2n ** 53n + 1n], { path: "$.ids" }), "range", "$.ids[1]", VALUE],
    [
      "listValueFromArray",
      () => listValueFromArray(["a", undefined], { path: "$.tags" }),
      "json-type",
      "$.tags[1]",
      VALUE,
    ],
    [
      "structToJson",
      () => structToJson({ $typeName: STRUCT, fields: { n: nan } }, { path: "$.meta" }),
      "not-finite",
      "$.meta.n",
      VALUE,
    ],
    [
      "structToObject",
      () => structToObject({ $typeName: STRUCT, fields: { n: nan } }, { path: "$.meta" }),
      "not-finite",
      "$.meta.n",
      VALUE,
    ],
    [
      "valueToJson",
      () => valueToJson(badValue({ case: undefined }), { path: "$.extra" }),
      "value-kind",
      "$.extra",
      VALUE,
    ],
    ["valueToJs", () => valueToJs(badValue({ case: undefined }), { path: "$.extra" }), "value-kind", "$.extra", VALUE],
    [
      "listValueToJson",
      () => listValueToJson({ $typeName: LIST, values: [nan] }, { path: "$.scores" }),
      "not-finite",
      "$.scores[0]",
      VALUE,
    ],
    [
      "listValueToArray",
      () => listValueToArray({ $typeName: LIST, values: [nan] }, { path: "$.scores" }),
      "not-finite",
      "$.scores[0]",
      VALUE,
    ],
  ])("%s reports errors below the given path", (_name, fn, rule, path, typeName) => {
    expect(catchWkt(fn)).toMatchObject({ rule, jsonPath: path, typeName });
  });

  it("moves a stack overflow's depth error to the given path", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(catchWkt(() => valueFromJson(deep, { maxDepth: 10_000_000, path: "$.x" }))).toMatchObject({
      rule: "depth",
      jsonPath: "$.x",
    });
  });

  it("changes nothing for valid values, and is $ by default", () => {
    const json = { meta: { tags: ["a", 1, null, true] } };
    expect(structFromJson(json, { path: "$.body" })).toEqual(structFromJson(json));
    expect(structToJson(structFromJson(json), { path: "$.body" })).toEqual(json);
    expect(valueToJson(valueFromJson([1], { path: "$.a" }), { path: "$.a" })).toEqual([1]);
    expect(listValueToJson(listValueFromJson([1], { path: "$.a" }), { path: "$.a" })).toEqual([1]);
    expect(catchWkt(() => structFromJson({ a: NaN }, {}))).toMatchObject({ jsonPath: "$.a" });
    expect(catchWkt(() => structFromJson({ a: NaN }, { path: undefined, maxDepth: 5 }))).toMatchObject({
      jsonPath: "$.a",
    });
  });

  it.each([[""], ["meta"], ["[0]"], [5], [null], [false], [{}]])(
    "rejects the path %s (range) in every function",
    (path) => {
      const options = { path } as unknown as { path: string };
      const calls: [() => unknown, string][] = [
        [() => structFromJson({}, options), STRUCT],
        [() => structToJson(structFromJson({}), options), STRUCT],
        [() => valueFromJson(1, options), VALUE],
        [() => valueToJson(valueFromJson(1), options), VALUE],
        [() => listValueFromJson([], options), LIST],
        [() => listValueToJson(listValueFromJson([]), options), LIST],
        [() => structFromObject({}, options), STRUCT],
        [() => structToObject(structFromJson({}), options), STRUCT],
        [() => valueFromJs(1, options), VALUE],
        [() => valueToJs(valueFromJson(1), options), VALUE],
        [() => listValueFromArray([], options), LIST],
        [() => listValueToArray(listValueFromJson([]), options), LIST],
      ];
      for (const [call, typeName] of calls)
        expect(catchWkt(call)).toMatchObject({ rule: "range", jsonPath: "$", typeName });
    },
  );
});

// Issue 28: "The same non-finite number has two wordings and two type names (`1e400` in a Struct field of a
// message vs in a Struct at the root); both say "Infinity", which the client did not write."
describe("not-finite: one wording and one type name, naming what the caller gave", () => {
  const inField = (text: string) => catchWkt(() => fromJsonString(TestAllTypesProto3, `{"optionalStruct": ${text}}`));
  const atRoot = (text: string) => catchWkt(() => fromJsonString(StructSchema, text));

  it.each(["1e400", "-1e400", "1" + "0".repeat(400)])("%s in a Struct field and in a Struct at the root", (n) => {
    const field = inField(`{"a": ${n}}`);
    const root = atRoot(`{"a": ${n}}`);
    expect(field).toMatchObject({ rule: "not-finite", jsonPath: "$.optionalStruct.a", typeName: VALUE });
    expect(root).toMatchObject({ rule: "not-finite", jsonPath: "$.a", typeName: VALUE });
    expect(field.detail).toBe(root.detail);
    expect(field.detail).not.toContain("Infinity");
    // The literal as written, cut short when long.
    if (n.length <= 40) expect(field.detail).toContain(n);
    else expect(field.detail).toContain(`${n.slice(0, 20)}…${n.slice(-10)} (${n.length} characters)`);
    // The validator says the same, at the same place.
    const issues = validateJsonString(TestAllTypesProto3, `{"optionalStruct": {"a": ${n}}, "optionalValue": ${n}}`);
    expect(issues.map((i) => [i.rule, i.jsonPath, i.typeName, i.detail])).toEqual([
      ["not-finite", "$.optionalStruct.a", VALUE, root.detail],
      ["not-finite", "$.optionalValue", VALUE, root.detail],
    ]);
  });

  it("a JS value names the NaN or Infinity it holds, the same in a field, at the root and in a Value", () => {
    for (const x of [NaN, Infinity, -Infinity]) {
      const field = catchWkt(() => ourFromJson(TestAllTypesProto3, { optionalStruct: { a: x } } as never));
      const root = catchWkt(() => structFromJson({ a: x }));
      const value = catchWkt(() => valueFromJson(x));
      for (const e of [field, root, value]) expect(e).toMatchObject({ rule: "not-finite", typeName: VALUE });
      expect(field.detail).toBe(root.detail);
      expect(value.detail).toBe(root.detail);
      expect(root.detail).toBe(`${String(x)} cannot be written in JSON; only finite numbers are allowed`);
    }
  });
});
