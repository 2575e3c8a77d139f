// Integer fields judge a number literal of a text by its decimal value, as they judge a string: a literal that
// is not an integer is refused though its double is one (1.00000000000000000001, 1e-400), in every place an
// integer is read (field, list element, map value, wrapper, oneof, Any, the text's root, enums), by
// fromJsonString and validateJsonString alike; double and float fields, Value and Struct keep the double; a JS
// value given to fromJson is judged as the double it is.

import { toJson, type DescMessage, type JsonValue } from "@bufbuild/protobuf";
import {
  Int32ValueSchema,
  Int64ValueSchema,
  UInt32ValueSchema,
  UInt64ValueSchema,
  type Value,
} from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { isWktJsonError } from "../src/errors.js";
import { fromJson, fromJsonString } from "../src/codec/from-json.js";
import { validateJsonString } from "../src/codec/validate.js";
import { TestAllTypesProto3, testRegistry } from "./conformance-registry.js";
import { catchWkt } from "./helpers.js";

const M = TestAllTypesProto3;

/** Literals near an integer, and their decimal value: an integer (accepted where in range) or not. */
const literals = [
  "1.00000000000000000001", // not an integer; the double 1
  "1e-400", // the double 0
  "0.99999999999999999999", // the double 1
  "-1e-400", // the double -0
  "-0.99999999999999999999",
  "4503599627370496.5", // 2^52 + 0.5: the double 2^52
  "2147483647.00000000000000000001", // the double int32 max
  "2147483647.99999999999999999", // the double 2^31, out of int32's range, but first not an integer
  "4294967295.0000000000000000000001",
  "123456789012345678901234567890e-29", // 1.2345...: not an integer, nor its double
  "1.0",
  "1e2",
  "100.000",
  "1.5e1", // 15
  "1.0000000000000000000000",
  "0.0e5",
  "-0.0",
  "2147483647.0000000000000000000", // int32 max, exactly
  "4294967295e0",
  "9.223372036854775807e18", // int64 max, exactly (its double is 2^63)
  "-9223372036854775808.000", // int64 min
  "1.8446744073709551615e19", // uint64 max
  "18446744073709551615.5", // beyond 2^53 and not an integer
  "1e400",
];

const integerTypes = [
  "Int32",
  "Int64",
  "Uint32",
  "Uint64",
  "Sint32",
  "Sint64",
  "Fixed32",
  "Fixed64",
  "Sfixed32",
  "Sfixed64",
] as const;

/** How a value of an integer type is placed in a text, with the path of its error. */
type Place = [name: string, schema: DescMessage, text: (v: string) => string, path: string];

function places(type: (typeof integerTypes)[number]): Place[] {
  const out: Place[] = [
    ["field", M, (v) => `{"optional${type}": ${v}}`, `$.optional${type}`],
    ["list element", M, (v) => `{"repeated${type}": [7, ${v}]}`, `$.repeated${type}[1]`],
    ["packed element", M, (v) => `{"packed${type}": [${v}]}`, `$.packed${type}[0]`],
    ["map value", M, (v) => `{"map${type}${type}": {"1": ${v}}}`, `$.map${type}${type}["1"]`],
  ];
  const wrapper = { Int32: "Int32", Int64: "Int64", Uint32: "UInt32", Uint64: "UInt64" }[type as string];
  if (wrapper !== undefined) {
    const schema = {
      Int32: Int32ValueSchema,
      Int64: Int64ValueSchema,
      UInt32: UInt32ValueSchema,
      UInt64: UInt64ValueSchema,
    }[wrapper]!;
    const field = wrapper.replace("UInt", "Uint");
    out.push(
      ["wrapper field", M, (v) => `{"optional${field}Wrapper": ${v}}`, `$.optional${field}Wrapper`],
      ["wrapper element", M, (v) => `{"repeated${field}Wrapper": [${v}]}`, `$.repeated${field}Wrapper[0]`],
      ["wrapper at the root", schema, (v) => ` ${v}`, "$"],
      [
        "wrapper in an Any",
        M,
        (v) => `{"optionalAny": {"@type": "type.googleapis.com/google.protobuf.${wrapper}Value", "value": ${v}}}`,
        "$.optionalAny.value",
      ],
    );
  }
  if (type === "Uint32" || type === "Uint64") {
    out.push(["oneof", M, (v) => `{"oneofString": null, "oneof${type}": ${v}}`, `$.oneof${type}`]);
  }
  return out;
}

type Outcome = { json: JsonValue } | { rule: string; jsonPath: string };

/** What fromJsonString gives: the message's JSON, or the error's rule and path (with its position checked). */
function decode(schema: DescMessage, text: string): Outcome {
  try {
    return {
      json: toJson(schema, fromJsonString(schema, text, { registry: testRegistry }), { registry: testRegistry }),
    };
  } catch (e) {
    if (!isWktJsonError(e)) throw e;
    expect(e.line).toBeGreaterThanOrEqual(1);
    return { rule: e.rule, jsonPath: e.jsonPath };
  }
}

/** validateJsonString agrees with fromJsonString: no issue exactly when it accepts, else its error listed. */
function validatorAgrees(schema: DescMessage, text: string, outcome: Outcome): void {
  const issues = validateJsonString(schema, text, { registry: testRegistry });
  if ("json" in outcome) {
    expect(issues).toEqual([]);
  } else {
    const e = catchWkt(() => fromJsonString(schema, text, { registry: testRegistry }));
    expect(issues).toContainEqual(
      expect.objectContaining({ rule: e.rule, jsonPath: e.jsonPath, line: e.line, column: e.column, detail: e.detail }),
    );
  }
}

describe.each(integerTypes)("%s", (type) => {
  it.each(places(type))("%s: a literal gets what the same text as a string gets", (_, schema, text, path) => {
    for (const literal of literals) {
      const number = decode(schema, text(literal));
      const string = decode(schema, text(JSON.stringify(literal)));
      expect({ literal, outcome: number }).toEqual({ literal, outcome: string });
      if (!("json" in number)) expect(number.jsonPath).toBe(path);
      validatorAgrees(schema, text(literal), number);
    }
  });
});

describe("the literals that are not integers", () => {
  it.each([
    ["1.00000000000000000001", 1],
    ["1e-400", 0],
    ["0.99999999999999999999", 1],
    ["-1e-400", 0],
    ["4503599627370496.5", 4503599627370496],
  ])("%s: rule syntax, with the double in the detail, at the literal's position", (literal, double) => {
    const text = `{\n  "optionalInt64": ${literal}\n}`;
    const e = catchWkt(() => fromJsonString(M, text));
    expect(e).toMatchObject({ rule: "syntax", jsonPath: "$.optionalInt64", typeName: "int64", line: 2, column: 20 });
    expect(e.detail).toContain(`a double reads it as ${double}`);
    expect(validateJsonString(M, text)).toEqual([
      {
        rule: "syntax",
        jsonPath: "$.optionalInt64",
        message: e.message,
        path: ["optionalInt64"],
        typeName: "int64",
        detail: e.detail,
        line: 2,
        column: 20,
      },
    ]);
  });

  it("are refused as enum numbers (rule enum), where 1.0 and 1e0 are 1", () => {
    for (const [place, text, path] of [
      ["field", (v: string) => `{"optionalNestedEnum": ${v}}`, "$.optionalNestedEnum"],
      ["element", (v: string) => `{"repeatedNestedEnum": [${v}]}`, "$.repeatedNestedEnum[0]"],
      ["map value", (v: string) => `{"mapStringNestedEnum": {"a": ${v}}}`, "$.mapStringNestedEnum.a"],
      ["null value", (v: string) => `{"optionalNullValue": ${v}}`, "$.optionalNullValue"],
    ] as const) {
      for (const literal of ["1.00000000000000000001", "1e-400", "-0.99999999999999999999"]) {
        const e = catchWkt(() => fromJsonString(M, text(literal)));
        expect({ place, literal, rule: e.rule, jsonPath: e.jsonPath }).toEqual({
          place,
          literal,
          rule: "enum",
          jsonPath: path,
        });
        validatorAgrees(M, text(literal), { rule: e.rule, jsonPath: e.jsonPath });
      }
      for (const literal of ["1e-0", "0.0", "1.0"]) {
        if (place === "null value" && literal !== "0.0") continue;
        expect(() => fromJsonString(M, text(literal))).not.toThrow();
        expect(validateJsonString(M, text(literal))).toEqual([]);
      }
    }
    // ignoreUnknownFields skips unknown enum names, not numbers that are not integers.
    expect(
      catchWkt(() => fromJsonString(M, '{"optionalNestedEnum": 1e-400}', { ignoreUnknownFields: true })).rule,
    ).toBe("enum");
  });

  it("report each place in the validator, and the first in the decoder, in text order", () => {
    const text =
      '{"optionalInt32": 1e-400, "optionalDouble": 1e-400, "repeatedUint32": [1, 0.99999999999999999999], "x": 1}';
    expect(catchWkt(() => fromJsonString(M, text))).toMatchObject({ rule: "syntax", jsonPath: "$.optionalInt32" });
    expect(validateJsonString(M, text).map((i) => [i.rule, i.jsonPath])).toEqual([
      ["syntax", "$.optionalInt32"],
      ["syntax", "$.repeatedUint32[1]"],
      ["unknown-field", "$.x"],
    ]);
    // An earlier error stays the first.
    expect(catchWkt(() => fromJsonString(M, '{"x": 1, "optionalInt32": 1e-400}'))).toMatchObject({
      rule: "unknown-field",
      jsonPath: "$.x",
    });
  });
});

describe("the double is kept", () => {
  it.each(literals)("%s in double and float fields, wrappers, Value and Struct, as fromJson reads it", (literal) => {
    const text = `{"optionalDouble": ${literal}, "optionalFloat": ${literal}, "repeatedDouble": [${literal}],
      "mapInt32Double": {"1": ${literal}}, "optionalDoubleWrapper": ${literal}, "repeatedFloatWrapper": [${literal}],
      "optionalValue": ${literal}, "optionalStruct": {"a": [${literal}]}, "repeatedValue": [${literal}]}`;
    const d = Number(literal);
    if (!Number.isFinite(d)) {
      expect(catchWkt(() => fromJsonString(M, text)).rule).toBe("range");
      return;
    }
    const m = fromJsonString(M, text) as unknown as Record<string, unknown>;
    // The same message as from the JS value (a bigint from the text becomes its double in these fields).
    const fromValue = fromJson(M, JSON.parse(text) as JsonValue);
    expect(m).toEqual(fromValue);
    expect(Object.is(m.optionalDouble, d)).toBe(true);
    expect(Object.is((m.optionalValue as Value).kind.value, d)).toBe(true);
    expect(validateJsonString(M, text)).toEqual([]);
  });
});

describe("a JS value has no text", () => {
  it("fromJson judges the double: 1.00000000000000000001 is the double 1, an integer", () => {
    const json = JSON.parse('{"optionalInt32": 1.00000000000000000001, "optionalUint64": 1e-400}') as JsonValue;
    const m = fromJson(M, json) as unknown as Record<string, unknown>;
    expect([m.optionalInt32, m.optionalUint64]).toEqual([1, 0n]);
  });
});
