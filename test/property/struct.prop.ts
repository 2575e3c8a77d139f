import { fromJson, toJson, type JsonValue } from "@bufbuild/protobuf";
import { ListValueSchema, StructSchema, ValueSchema, type ListValue, type Value } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isWktJsonError } from "../../src/errors.js";
import { toJsonString } from "../../src/codec/to-json.js";
import { isWellFormed } from "../../src/internal/utf16.js";
import {
  listValueFromArray,
  listValueFromJson,
  listValueToJson,
  structFromJson,
  structFromObject,
  structToJson,
  valueFromJs,
  valueFromJson,
  valueToJson,
} from "../../src/wkt/struct.js";

// fc.jsonValue() generates only finite doubles and, like JSON.parse, may generate -0. A Value keeps -0 and so
// does the JSON value we give back, so the value-level round trip is exact (toEqual tells -0 from 0). Only
// JSON text loses the sign (JSON.stringify(-0) is "0"); that is checked separately below.
// Strings: the default unit never makes lone surrogates; "binary" does, and the agreement property skips
// those inputs, where we reject (utf16) and @bufbuild/protobuf accepts.
// fast-check's JsonValue type allows undefined members; the values it generates have none.
const arbJson = fc.jsonValue({ maxDepth: 6 }) as fc.Arbitrary<JsonValue>;
const arbJsonBinary = fc.jsonValue({ maxDepth: 4, stringUnit: "binary" }) as fc.Arbitrary<JsonValue>;
const arbObject = fc.dictionary(fc.string(), arbJson, { maxKeys: 8 });
const arbArray = fc.array(arbJson, { maxLength: 8 });

function allWellFormed(j: unknown): boolean {
  if (typeof j === "string") return isWellFormed(j);
  if (Array.isArray(j)) return j.every(allWellFormed);
  if (typeof j === "object" && j !== null) {
    return Object.keys(j).every((k) => isWellFormed(k) && allWellFormed((j as Record<string, unknown>)[k]));
  }
  return true;
}

/** Number of nested containers (the depth our limit counts). */
function depthOf(j: unknown): number {
  if (Array.isArray(j)) return 1 + Math.max(0, ...j.map(depthOf));
  if (typeof j === "object" && j !== null) return 1 + Math.max(0, ...Object.values(j).map(depthOf));
  return 0;
}

describe("Struct / Value / ListValue properties", () => {
  it("round-trips every JSON value through Value", () => {
    fc.assert(
      fc.property(arbJson, (j) => {
        expect(valueToJson(valueFromJson(j))).toEqual(j);
      }),
    );
  });

  it("round-trips every JSON object through Struct, keeping member order", () => {
    fc.assert(
      fc.property(arbObject, (o) => {
        const back = structToJson(structFromJson(o));
        expect(back).toEqual(o);
        expect(Object.keys(back)).toEqual(Object.keys(o));
        expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
      }),
    );
  });

  it("round-trips every JSON array through ListValue", () => {
    fc.assert(
      fc.property(arbArray, (a) => {
        expect(listValueToJson(listValueFromJson(a))).toEqual(a);
      }),
    );
  });

  it("gives back the same JSON text, where -0 prints as 0 either way", () => {
    fc.assert(
      fc.property(arbJson, (j) => {
        expect(JSON.stringify(valueToJson(valueFromJson(j)))).toBe(JSON.stringify(j));
      }),
    );
  });

  it("agrees with @bufbuild/protobuf fromJson/toJson on Value, Struct and ListValue", () => {
    fc.assert(
      fc.property(arbJsonBinary, (j) => {
        fc.pre(allWellFormed(j));
        const ours = valueFromJson(j);
        const theirs = fromJson(ValueSchema, j);
        expect(ours).toEqual(theirs);
        expect(valueToJson(theirs)).toEqual(toJson(ValueSchema, theirs));
        expect(toJson(ValueSchema, ours)).toEqual(valueToJson(ours));
        if (Array.isArray(j)) expect(listValueFromJson(j)).toEqual(fromJson(ListValueSchema, j));
        if (typeof j === "object" && j !== null && !Array.isArray(j)) {
          expect(structFromJson(j)).toEqual(fromJson(StructSchema, j));
        }
      }),
    );
  });

  it("rejects exactly the JSON values with a lone surrogate (utf16)", () => {
    fc.assert(
      fc.property(arbJsonBinary, (j) => {
        if (allWellFormed(j)) {
          valueFromJson(j);
        } else {
          expect(() => valueFromJson(j)).toThrow(expect.objectContaining({ rule: "utf16" }));
        }
      }),
    );
  });

  it("accepts a value exactly when its nesting is within maxDepth", () => {
    fc.assert(
      fc.property(arbJson, fc.integer({ min: 1, max: 8 }), (j, maxDepth) => {
        const ok = depthOf(j) <= maxDepth;
        try {
          valueFromJson(j, { maxDepth });
          expect(ok).toBe(true);
        } catch (e) {
          expect(isWktJsonError(e) && e.rule === "depth" && !ok).toBe(true);
        }
      }),
    );
  });

  it("either converts any JS value or throws WktJsonError, nothing else", () => {
    const arbAnything = fc.anything({
      maxDepth: 4,
      withBigInt: true,
      withBoxedValues: true,
      withDate: true,
      withMap: true,
      withSet: true,
      withNullPrototype: true,
      withObjectString: true,
      withSparseArray: true,
      withTypedArray: true,
      stringUnit: "binary",
      values: [
        fc.double(),
        fc.bigInt(),
        fc.constant(undefined),
        fc.constant(() => 1),
        fc.constant(Symbol("s")),
        fc.string({ unit: "binary" }),
      ],
    });
    fc.assert(
      fc.property(arbAnything, (x) => {
        for (const f of [
          () => valueFromJs(x),
          () => valueFromJson(x),
          () => structFromObject(x as object),
          () => structFromJson(x),
          () => listValueFromArray(x as unknown[]),
          () => listValueFromJson(x),
        ]) {
          let out: unknown;
          try {
            out = f();
          } catch (e) {
            expect(isWktJsonError(e)).toBe(true);
            continue;
          }
          // Whatever was accepted encodes again.
          const m = out as Parameters<typeof toJson>[1];
          const json = toJson(
            m.$typeName === "google.protobuf.Value"
              ? ValueSchema
              : m.$typeName === "google.protobuf.Struct"
                ? StructSchema
                : ListValueSchema,
            m as never,
          );
          expect(json).toBeDefined();
        }
      }),
    );
  });

  it("takes a bigint from the JS side only when a double holds it exactly", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }), (big) => {
        const exact = BigInt(Number(big)) === big;
        try {
          expect(valueFromJs(big).kind.value).toBe(Number(big));
          expect(exact).toBe(true);
        } catch (e) {
          expect(isWktJsonError(e) && e.rule === "range" && !exact).toBe(true);
        }
        expect(valueFromJson(big).kind.value).toBe(Number(big)); // JSON side: the nearest double
      }),
    );
  });

  it("never pollutes a prototype, whatever the member names", () => {
    const arbKey = fc.constantFrom("__proto__", "constructor", "prototype", "toString", "hasOwnProperty", "a");
    const arbDangerous: fc.Arbitrary<JsonValue> = fc.letrec<{ v: JsonValue }>((tie) => ({
      v: fc.oneof(
        { depthSize: "small" },
        fc.constant(null),
        fc.integer(),
        fc.array(tie("v"), { maxLength: 3 }),
        fc.array(fc.tuple(arbKey, tie("v")), { maxLength: 4 }).map((entries) => {
          // Build as JSON.parse does: "__proto__" becomes an own property.
          const text = "{" + entries.map(([k, x]) => `${JSON.stringify(k)}:${JSON.stringify(x)}`).join(",") + "}";
          return JSON.parse(text) as JsonValue;
        }),
      ),
    })).v;
    fc.assert(
      fc.property(arbDangerous, (j) => {
        const back = valueToJson(valueFromJson(j));
        expect(JSON.stringify(back)).toBe(JSON.stringify(j));
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(Object.getPrototypeOf({})).toBe(Object.prototype);
      }),
    );
  });
});

/** JSON.stringify, except that -0 is written "-0" (what toJsonString writes, so that the text keeps the value). */
function textOf(j: JsonValue): string {
  if (typeof j === "number") return Object.is(j, -0) ? "-0" : JSON.stringify(j);
  if (typeof j !== "object" || j === null) return JSON.stringify(j);
  if (Array.isArray(j)) return "[" + j.map(textOf).join(",") + "]";
  return (
    "{" +
    Object.keys(j)
      .map((k) => JSON.stringify(k) + ":" + textOf(j[k]!))
      .join(",") +
    "}"
  );
}

/** A hand-built defect to plant in a Value: what it sets and what the encoder must report. */
const arbDefect = fc.constantFrom<(v: Value) => void>(
  (v) => (v.kind = { case: "numberValue", value: NaN }),
  (v) => (v.kind = { case: "numberValue", value: -Infinity }),
  (v) => (v.kind = { case: "stringValue", value: "a\udc00" }),
  (v) => (v.kind = { case: "stringValue", value: 1 as unknown as string }),
  (v) => (v.kind = { case: "boolValue", value: "true" as unknown as boolean }),
  (v) => (v.kind = { case: undefined }),
  (v) => (v.kind = { case: "bogus" } as unknown as Value["kind"]),
  (v) =>
    (v.kind = {
      case: "structValue",
      value: { $typeName: "google.protobuf.Struct", fields: { "\ud800": valueFromJson(1) } },
    }),
  (v) => (v.kind = { case: "listValue", value: null as unknown as ListValue }),
);

/** Every Value in `v` (itself included), depth first. */
function valuesIn(v: Value, out: Value[] = []): Value[] {
  out.push(v);
  if (v.kind.case === "structValue")
    for (const k of Object.keys(v.kind.value.fields)) valuesIn(v.kind.value.fields[k]!, out);
  if (v.kind.case === "listValue") for (const x of v.kind.value.values) valuesIn(x, out);
  return out;
}

function outcome(f: () => unknown): unknown {
  try {
    return { ok: f() };
  } catch (e) {
    if (!isWktJsonError(e)) throw e;
    return { rule: e.rule, jsonPath: e.jsonPath, typeName: e.typeName, detail: e.detail };
  }
}

describe("toJsonString of Struct, Value and ListValue is the JSON value's text", () => {
  it("writes JSON.stringify of the JSON value, keeping the sign of -0", () => {
    fc.assert(
      fc.property(arbJsonBinary, (j) => {
        fc.pre(allWellFormed(j));
        const v = valueFromJson(j);
        expect(toJsonString(ValueSchema, v)).toBe(textOf(valueToJson(v)));
        expect(Object.is(JSON.parse(toJsonString(ValueSchema, v)), -0) || toJsonString(ValueSchema, v) !== "-0").toBe(
          true,
        );
        if (Array.isArray(j)) expect(toJsonString(ListValueSchema, listValueFromJson(j))).toBe(textOf(j));
        if (typeof j === "object" && j !== null && !Array.isArray(j)) {
          const s = structFromJson(j);
          expect(toJsonString(StructSchema, s)).toBe(textOf(structToJson(s)));
          expect(JSON.parse(toJsonString(StructSchema, s))).toEqual(j); // -0 included: toEqual tells it from 0
        }
      }),
    );
  });

  it("fails exactly as the value encoders do (rule, path, type, detail), at any maxDepth from 1", () => {
    fc.assert(
      fc.property(
        arbObject,
        fc.array(fc.tuple(fc.nat(), arbDefect), { maxLength: 2 }),
        fc.integer({ min: 1, max: 8 }),
        (o, defects, maxDepth) => {
          const s = structFromJson(o);
          const root: Value = { $typeName: "google.protobuf.Value", kind: { case: "structValue", value: s } };
          const all = valuesIn(root).slice(1); // the root stays a Struct
          for (const [i, plant] of defects) if (all.length > 0) plant(all[i % all.length]!);
          const expected = outcome(() => structToJson(s, { maxDepth }));
          const text = outcome(() => toJsonString(StructSchema, s, { maxDepth }));
          if ("ok" in (expected as object)) {
            expect(text).toEqual({ ok: textOf((expected as { ok: JsonValue }).ok) });
          } else {
            expect(text).toEqual(expected);
          }
          expect(outcome(() => toJsonString(ValueSchema, root, { maxDepth }))).toEqual(
            "ok" in (expected as object)
              ? outcome(() => textOf(valueToJson(root, { maxDepth })))
              : outcome(() => valueToJson(root, { maxDepth })),
          );
        },
      ),
    );
  });
});
