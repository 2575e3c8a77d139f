// No way in through a key: `__proto__`, `constructor` and `prototype` (and every other name Object.prototype
// has) are plain data as Struct keys, map keys, FieldMask path segments and JSON object members. After
// decoding hostile input, `({}).polluted` is still undefined, Object.prototype is unchanged, and the decoded
// objects have exactly the keys given, as own data properties.

import type { DescMessage, JsonValue } from "@bufbuild/protobuf";
import { AnySchema, StructSchema, ValueSchema } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { isWktJsonError } from "../../src/errors.js";
import { fieldMaskFromJson, fieldMaskToJson } from "../../src/wkt/field-mask.js";
import { fromJson, fromJsonString } from "../../src/codec/from-json.js";
import { structFromJson, valueFromJson } from "../../src/wkt/struct.js";
import { toJson, toJsonString } from "../../src/codec/to-json.js";
import { validateJson, validateJsonString } from "../../src/codec/validate.js";
import { TestAllTypesProto3, testRegistry } from "../conformance-registry.js";
import { catchWkt } from "../helpers.js";

const registry = testRegistry;
const M = TestAllTypesProto3;

/** Names that reach into a prototype when used carelessly, and a few ordinary ones. */
const hostileKeys = [
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "__defineGetter__",
  "__lookupSetter__",
  "isPrototypeOf",
  "polluted",
  "a",
] as const;

const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();

function expectClean(): void {
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNames);
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  expect(typeof {}.toString).toBe("function");
  expect(Object.prototype.hasOwnProperty.call({}, "polluted")).toBe(false);
}

afterEach(expectClean);

/** A JSON value whose objects use the hostile names as keys (and as values), written as text. */
type Doc = { obj: [string, Doc][] } | { arr: Doc[] } | { leaf: JsonValue };
const arbDoc: fc.Arbitrary<Doc> = fc.letrec<{ doc: Doc }>((tie) => ({
  doc: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.oneof(fc.constantFrom<JsonValue>(null, true, 1, "x", ...hostileKeys), fc.string()).map((leaf) => ({ leaf })),
    fc
      .uniqueArray(fc.tuple(fc.constantFrom(...hostileKeys), tie("doc")), { maxLength: 5, selector: ([k]) => k })
      .map((obj) => ({ obj })),
    fc.array(tie("doc"), { maxLength: 3 }).map((arr) => ({ arr })),
  ),
})).doc;

function text(d: Doc): string {
  if ("leaf" in d) return JSON.stringify(d.leaf);
  if ("arr" in d) return "[" + d.arr.map(text).join(",") + "]";
  return "{" + d.obj.map(([k, v]) => JSON.stringify(k) + ":" + text(v)).join(",") + "}";
}

/** Checks that `actual` (decoded, or written back) holds `d`: the same own keys in order, each an own data property. */
function expectHolds(actual: unknown, d: Doc): void {
  if ("leaf" in d) {
    expect(actual).toEqual(d.leaf);
    return;
  }
  if ("arr" in d) {
    expect(Array.isArray(actual)).toBe(true);
    const a = actual as unknown[];
    expect(a).toHaveLength(d.arr.length);
    d.arr.forEach((item, i) => expectHolds(a[i], item));
    return;
  }
  expect(typeof actual === "object" && actual !== null && !Array.isArray(actual)).toBe(true);
  const obj = actual as Record<string, unknown>;
  const proto: unknown = Object.getPrototypeOf(obj);
  expect(proto === Object.prototype || proto === null).toBe(true);
  expect(Object.keys(obj)).toEqual(d.obj.map(([k]) => k));
  for (const [k, v] of d.obj) {
    const desc = Object.getOwnPropertyDescriptor(obj, k);
    expect(desc?.enumerable).toBe(true);
    expect("value" in desc!).toBe(true); // a data property, not an accessor
    expectHolds(desc!.value, v);
  }
}

/** The object of a document, or a wrapper object around it. */
const arbObjectDoc: fc.Arbitrary<{ obj: [string, Doc][] }> = arbDoc.map((d) =>
  "obj" in d ? d : { obj: [["__proto__", d]] },
);

const runs = 200;

describe("JSON object members with hostile names are plain data", () => {
  it("Struct: decoded from text and from JSON.parse, written back, with the keys given", () => {
    fc.assert(
      fc.property(arbObjectDoc, (d) => {
        const t = text(d);
        for (const s of [
          fromJsonString(StructSchema, t),
          fromJson(StructSchema, JSON.parse(t) as JsonValue),
          structFromJson(JSON.parse(t)),
        ]) {
          expectHolds(toJson(StructSchema, s), d);
          expectHolds(JSON.parse(toJsonString(StructSchema, s)), d);
          expect(Object.keys(s.fields)).toEqual(d.obj.map(([k]) => k));
        }
        expectClean();
      }),
      { numRuns: runs },
    );
  });

  it("Value, and Struct and Value fields of a message", () => {
    fc.assert(
      fc.property(arbDoc, arbObjectDoc, (v, s) => {
        const t = `{"optionalValue": ${text(v)}, "optionalStruct": ${text(s)}, "repeatedStruct": [${text(s)}], "mapStringNestedMessage": {"__proto__": {"a": 1}}}`;
        for (const m of [fromJsonString(M, t, { registry }), fromJson(M, JSON.parse(t) as JsonValue, { registry })]) {
          const json = toJson(M, m, { registry }) as Record<string, unknown>;
          expectHolds(json.optionalValue, v);
          expectHolds(json.optionalStruct, s);
          expectHolds((json.repeatedStruct as unknown[])[0], s);
          expectHolds(json.mapStringNestedMessage, { obj: [["__proto__", { obj: [["a", { leaf: 1 }]] }]] });
        }
        expectHolds(toJson(ValueSchema, valueFromJson(JSON.parse(text(v)))), v);
        expectClean();
      }),
      { numRuns: runs },
    );
  });

  it("map<string, _> keys, whatever the value type", () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.constantFrom(...hostileKeys), { minLength: 1 }), (keys) => {
        const members = (value: string) => "{" + keys.map((k) => `${JSON.stringify(k)}: ${value}`).join(",") + "}";
        const t = `{"mapStringString": ${members('"v"')}, "mapStringBytes": ${members('"AQ=="')}, "mapStringNestedMessage": ${members('{"a": 1}')}, "mapStringNestedEnum": ${members('"BAR"')}}`;
        for (const m of [fromJsonString(M, t, { registry }), fromJson(M, JSON.parse(t) as JsonValue, { registry })]) {
          const record = m as unknown as Record<string, Record<string, unknown>>;
          for (const field of ["mapStringString", "mapStringBytes", "mapStringNestedMessage", "mapStringNestedEnum"]) {
            expect(Object.keys(record[field]!)).toEqual(keys);
            for (const k of keys) expect(Object.prototype.hasOwnProperty.call(record[field], k)).toBe(true);
          }
          const json = JSON.parse(toJsonString(M, m, { registry })) as Record<string, Record<string, unknown>>;
          expect(Object.keys(json.mapStringString!)).toEqual(keys);
          expect(Object.keys(json.mapStringNestedMessage!)).toEqual(keys);
        }
        expectClean();
      }),
      { numRuns: runs },
    );
  });

  it("message members: never a field, skipped or rejected, and the message keeps its prototype", () => {
    fc.assert(
      fc.property(arbObjectDoc, (d) => {
        const t = text(d);
        const skipped = fromJsonString(M, t, { registry, ignoreUnknownFields: true });
        expect(Object.getPrototypeOf(skipped)).toBe(Object.getPrototypeOf(fromJsonString(M, "{}")));
        expect(toJson(M, skipped, { registry })).toEqual({});
        for (const run of [
          () => fromJsonString(M, t, { registry }),
          () => fromJson(M, JSON.parse(t) as JsonValue, { registry }),
        ]) {
          try {
            run();
            expect(d.obj).toHaveLength(0);
          } catch (e) {
            expect(isWktJsonError(e) && e.rule === "unknown-field").toBe(true);
          }
        }
        expect(validateJsonString(M, t, { registry }).every((i) => i.rule === "unknown-field")).toBe(true);
        expect(validateJson(M, JSON.parse(t) as JsonValue, { registry, ignoreUnknownFields: true })).toEqual([]);
        expectClean();
      }),
      { numRuns: runs },
    );
  });

  it("Any: members of the embedded message and of a Struct under value", () => {
    fc.assert(
      fc.property(arbObjectDoc, (d) => {
        const inStruct = `{"@type": "type.googleapis.com/google.protobuf.Struct", "value": ${text(d)}}`;
        expectHolds((toJson(AnySchema, fromJsonString(AnySchema, inStruct)) as Record<string, unknown>).value, d);
        const members = text(d).slice(1, -1);
        const inMessage = `{"@type": "type.googleapis.com/${M.typeName}"${members === "" ? "" : ", " + members}}`;
        const m = fromJsonString(AnySchema, inMessage, { registry, ignoreUnknownFields: true });
        expect(toJson(AnySchema, m, { registry })).toEqual({ "@type": `type.googleapis.com/${M.typeName}` });
        expectClean();
      }),
      { numRuns: runs },
    );
  });
});

describe("FieldMask path segments are plain data", () => {
  it.each([
    "constructor.prototype",
    "constructor.prototype.polluted",
    "toString.valueOf",
    "prototype",
    "hasOwnProperty.isPrototypeOf",
  ])("%s", (mask) => {
    const fm = fieldMaskFromJson(mask);
    expect(fieldMaskToJson(fm)).toBe(mask);
    expect(Array.isArray(fm.paths)).toBe(true);
    const m = fromJsonString(M, `{"optionalFieldMask": ${JSON.stringify(mask)}}`);
    expect(toJson(M, m)).toEqual({ optionalFieldMask: mask });
  });

  it("__proto__ has no lower-camel form (it holds '_' and '__'): rule mask-path both ways", () => {
    expect(catchWkt(() => fieldMaskFromJson("__proto__")).rule).toBe("mask-path");
    expect(catchWkt(() => fieldMaskToJson(["__proto__"])).rule).toBe("mask-path");
    expect(catchWkt(() => fromJsonString(M, '{"optionalFieldMask": "a.__proto__"}')).rule).toBe("mask-path");
  });
});

describe("every schema, every hostile key, as JSON.parse gives it", () => {
  const schemas: DescMessage[] = [M, StructSchema, ValueSchema, AnySchema];
  it.each(hostileKeys.flatMap((k) => schemas.map((s) => [k, s.typeName, s] as const)))("%s in %s", (key, _, schema) => {
    const json = JSON.parse(`{${JSON.stringify(key)}: {${JSON.stringify(key)}: {"polluted": true}}}`) as JsonValue;
    for (const run of [
      () => fromJson(schema, json, { registry }),
      () => fromJsonString(schema, JSON.stringify(json), { registry }),
    ]) {
      try {
        const m = run();
        expect(JSON.parse(toJsonString(schema, m, { registry }))).toEqual(json);
      } catch (e) {
        expect(isWktJsonError(e)).toBe(true);
      }
    }
  });
});
