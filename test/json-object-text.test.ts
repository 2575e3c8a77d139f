// toJsonString prints a Struct field (a plain JSON object in protobuf-es's representation) straight from the
// object with jsonObjectText, without copying it first. It must print exactly what JSON.stringify prints for
// copyJsonObject's copy (-0 kept as "-0"), and throw exactly the error copyJsonObject throws.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isWktJsonError } from "../src/errors.js";
import { copyJsonObject, jsonObjectText } from "../src/internal/json-value.js";
import { isWellFormed } from "../src/internal/utf16.js";
import { stringifyKeepingSign } from "./text-agrees.js";

function outcome(run: () => string): unknown {
  try {
    return { text: run() };
  } catch (e) {
    if (isWktJsonError(e)) return { rule: e.rule, jsonPath: e.jsonPath, typeName: e.typeName, detail: e.detail };
    return { notOurs: String(e) };
  }
}

function expectAgrees(json: unknown, depthLeft = 100): void {
  const viaCopy = outcome(() => stringifyKeepingSign(copyJsonObject(json, depthLeft, "google.protobuf.Struct")));
  expect(outcome(() => jsonObjectText(json, depthLeft, "google.protobuf.Struct"))).toEqual(viaCopy);
}

class Point {
  x = 1;
}

const junk: unknown[] = [
  undefined,
  null,
  "",
  "x",
  "\ud800",
  "a\udfffb",
  "\ud83d\ude00",
  'q"uote',
  "back\\slash",
  "\u0000\u001f",
  "x".repeat(30) + '"',
  "y".repeat(30) + "\ud800",
  "z".repeat(30),
  0,
  -0,
  1.5,
  -1e21,
  5e-324,
  NaN,
  Infinity,
  -Infinity,
  1n,
  2n ** 2000n,
  true,
  false,
  [],
  [1, -0],
  [undefined],
  {},
  { a: -0 },
  new Point(),
  new Date(0),
  Symbol("s"),
  () => 1,
  Object.create(null),
];

const arbJunk = fc.constantFrom(...junk);
const arbKey = fc.oneof(
  fc.string(),
  fc.constantFrom("__proto__", "0", "1", "-1", "10", "\ud800", "a\udc00", '"', "\\"),
);
const arbValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    arbJunk,
    fc.string(),
    fc.double(),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.array(fc.tuple(arbKey, tie("value")), { maxLength: 4 }).map((entries) => {
      const o: Record<string, unknown> = {};
      for (const [k, v] of entries)
        Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
      return o;
    }),
  ),
})).value;

describe("jsonObjectText", () => {
  it("prints what JSON.stringify prints for the checked copy, or throws the same error", () => {
    fc.assert(
      fc.property(arbValue, fc.integer({ min: 0, max: 5 }), (json, depth) => {
        expectAgrees(json, depth);
        expectAgrees({ a: json, b: [json] }, depth);
      }),
      { numRuns: 2000 },
    );
  });

  it.each<[string, unknown]>([
    ["junk members", Object.fromEntries(junk.map((v, i) => [`k${i}`, v]))],
    ["a class instance at the root", new Point()],
    ["an object without a prototype", Object.assign(Object.create(null) as object, { b: 1, a: [null] })],
    ["integer-like keys", { b: 1, 2: "x", 1: "y", a: { 10: 1, 9: 2 } }],
    ["__proto__ as an own member", JSON.parse('{"__proto__": {"x": -0}, "y": "\\u0000"}') as unknown],
    ["a lone surrogate key after a good one", { ok: 1, "\udc00": 2 }],
    ["an error deep down", { a: [1, { b: [2, NaN] }] }],
  ])("%s", (_, json) => {
    for (const depth of [0, 1, 2, 3, 100]) expectAgrees(json, depth);
  });

  it("walks by Object.keys when Object.prototype has an enumerable property", () => {
    const json = { a: 1, b: { c: "x" } };
    (Object.prototype as Record<string, unknown>).polluted = 1;
    try {
      expect(jsonObjectText(json, 100, "google.protobuf.Struct")).toBe('{"a":1,"b":{"c":"x"}}');
      expectAgrees(json);
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
  });
});

describe("strings", () => {
  it("as a member name, a member and an element: JSON.stringify's text when well-formed, else the copy's utf16 error", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: "binary" }),
          fc.string(),
          fc.constantFrom(...junk.filter((v) => typeof v === "string")),
        ),
        (s) => {
          const json = { [s]: s, list: [s, 1, s] };
          expectAgrees(json);
          if (isWellFormed(s)) expect(jsonObjectText(json, 100, "google.protobuf.Struct")).toBe(JSON.stringify(json));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
