import type { JsonValue } from "@bufbuild/protobuf";
import { AnySchema, StructSchema, TimestampSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { fromJson, fromJsonString } from "../src/codec/from-json.js";
import {
  validateJson,
  validateJsonString,
  validateMaxIssuesDefault,
  type WktJsonIssue,
} from "../src/codec/validate.js";
import { jsonPathSegments } from "../src/codec/json-text.js";
import { TestAllTypesProto3, testRegistry } from "./conformance-registry.js";
import { catchWkt } from "./helpers.js";

const registry = testRegistry;
const M = TestAllTypesProto3;

/** Rule and path of each issue, in order. */
const brief = (issues: WktJsonIssue[]): [string, string][] => issues.map((i) => [i.rule, i.jsonPath]);

describe("validateJson keeps going past the first problem", () => {
  it.each<[string, unknown, [string, string][]]>([
    ["a valid message", { optionalInt32: 1, repeatedString: ["a"], optionalTimestamp: "1970-01-01T00:00:00Z" }, []],
    [
      "every bad member of a message",
      { optionalInt32: "x", optionalBool: 1, bogus: 1, optionalString: "\ud800" },
      [
        ["syntax", "$.optionalInt32"],
        ["json-type", "$.optionalBool"],
        ["unknown-field", "$.bogus"],
        ["utf16", "$.optionalString"],
      ],
    ],
    [
      "every bad list item",
      { repeatedTimestamp: ["x", "1970-01-01T00:00:00Z", "2024-02-30T00:00:00Z", null] },
      [
        ["syntax", "$.repeatedTimestamp[0]"],
        ["range", "$.repeatedTimestamp[2]"],
        ["json-type", "$.repeatedTimestamp[3]"],
      ],
    ],
    [
      "every bad map entry, key or value",
      { mapInt32Int32: { "1e2": 1, "2": "x", "-0": 1, "0": 2, "3": null } },
      [
        ["syntax", '$.mapInt32Int32["2"]'],
        ["json-type", '$.mapInt32Int32["3"]'],
        ["syntax", '$.mapInt32Int32["1e2"]'],
        ["duplicate-field", '$.mapInt32Int32["-0"]'],
      ],
    ],
    [
      "nested messages, at every level",
      {
        optionalNestedMessage: {
          a: "x",
          corecursive: { optionalInt64: 1.5, recursiveMessage: { optionalUint32: -1 } },
        },
      },
      [
        ["syntax", "$.optionalNestedMessage.a"],
        ["syntax", "$.optionalNestedMessage.corecursive.optionalInt64"],
        ["range", "$.optionalNestedMessage.corecursive.recursiveMessage.optionalUint32"],
      ],
    ],
    [
      "Any contents",
      {
        optionalAny: { "@type": `type.googleapis.com/${M.typeName}`, optionalInt32: "x", optional_int32: 1, nope: 1 },
        repeatedAny: [{ "@type": "type.googleapis.com/google.protobuf.Duration", value: "1", extra: 1 }],
      },
      [
        ["syntax", "$.optionalAny.optionalInt32"],
        ["duplicate-field", "$.optionalAny.optional_int32"],
        ["unknown-field", "$.optionalAny.nope"],
        ["unknown-field", "$.repeatedAny[0].extra"],
        ["syntax", "$.repeatedAny[0].value"],
      ],
    ],
    [
      "Struct and Value contents",
      {
        optionalStruct: { a: ["\ud800", 1], "\udc00": 1, b: { c: "\udfff" } },
        optionalValue: [1, "\ud800", { x: "\ud800" }],
      },
      [
        ["utf16", "$.optionalStruct.a[0]"],
        ["utf16", '$.optionalStruct["\\udc00"]'],
        ["utf16", "$.optionalStruct.b.c"],
        ["utf16", "$.optionalValue[1]"],
        ["utf16", "$.optionalValue[2].x"],
      ],
    ],
    [
      "a oneof set twice, and a bad member of it",
      { oneofUint32: "x", oneofString: "a", oneofBool: true },
      [
        ["syntax", "$.oneofUint32"],
        ["oneof", "$.oneofString"],
        ["oneof", "$.oneofBool"],
      ],
    ],
    [
      "a field under both names",
      { optionalInt32: 1, optional_int32: 2, repeatedInt32: [], repeated_int32: ["x"] },
      [
        ["duplicate-field", "$.optional_int32"],
        ["duplicate-field", "$.repeated_int32"],
      ],
    ],
    [
      "a wrong container, once, nothing below it",
      { repeatedInt32: { a: "x" }, mapStringString: ["x"], optionalNestedMessage: [1, 2] },
      [
        ["json-type", "$.repeatedInt32"],
        ["json-type", "$.mapStringString"],
        ["json-type", "$.optionalNestedMessage"],
      ],
    ],
    // The Any JSON form's decisions (wkt/any.ts), taken by both walkers.
    ["an Any that is no object", { optionalAny: [] }, [["json-type", "$.optionalAny"]]],
    ["an Any without @type", { optionalAny: { value: "1s" } }, [["type-url", "$.optionalAny"]]],
    ["an Any whose @type is no string", { optionalAny: { "@type": 1 } }, [["json-type", '$.optionalAny["@type"]']]],
    [
      "every member beside value, then the missing value",
      { optionalAny: { "@type": "type.googleapis.com/google.protobuf.Duration", a: 1, b: 2 } },
      [
        ["unknown-field", "$.optionalAny.a"],
        ["unknown-field", "$.optionalAny.b"],
        ["json-type", "$.optionalAny"],
      ],
    ],
    [
      "Empty's legacy form with a value that is no object",
      { optionalAny: { "@type": "type.googleapis.com/google.protobuf.Empty", value: 1 } },
      [["json-type", "$.optionalAny.value"]],
    ],
    [
      "a message's own members beside @type",
      { optionalAny: { "@type": "type.googleapis.com/google.protobuf.SourceContext", fileName: 1, x: 1 } },
      [
        ["json-type", "$.optionalAny.fileName"],
        ["unknown-field", "$.optionalAny.x"],
      ],
    ],
  ])("%s", (_, json, expected) => {
    const issues = validateJson(M, json as JsonValue, { registry });
    expect(brief(issues)).toEqual(expected);
    if (expected.length === 0) {
      expect(() => fromJson(M, json as JsonValue, { registry })).not.toThrow();
    } else {
      // The first issue is the error fromJson stops at.
      const e = catchWkt(() => fromJson(M, json as JsonValue, { registry }));
      // Its path also as keys (issue 26: "An issue's path must name the client's keys exactly").
      const segments = jsonPathSegments(e.jsonPath);
      expect(issues[0]).toEqual({
        rule: e.rule,
        message: e.message,
        path: segments,
        jsonPath: e.jsonPath,
        typeName: e.typeName,
        detail: e.detail,
      });
    }
  });

  it("respects ignoreUnknownFields as the decoder does", () => {
    expect(
      validateJson(
        M,
        { bogus: 1, optionalNestedEnum: "NOPE", mapStringNestedEnum: { a: "NOPE" } },
        { ignoreUnknownFields: true },
      ),
    ).toEqual([]);
    expect(brief(validateJson(M, { bogus: 1, optionalNestedEnum: "NOPE" }))).toEqual([
      ["unknown-field", "$.bogus"],
      ["enum", "$.optionalNestedEnum"],
    ]);
  });

  it("counts depth as the decoder does, and stops below the first level too deep", () => {
    let json: JsonValue = { optionalInt32: "x" };
    for (let k = 0; k < 10; k++) json = { recursiveMessage: json, optionalBool: 1 };
    // Members in order: recursiveMessage first, so the deepest issue comes first.
    expect(brief(validateJson(M, json, { maxDepth: 5 }))).toEqual([
      ["depth", "$" + ".recursiveMessage".repeat(5)],
      ...[4, 3, 2, 1, 0].map((k): [string, string] => [
        "json-type",
        "$" + ".recursiveMessage".repeat(k) + ".optionalBool",
      ]),
    ]);
  });

  it("stops at maxIssues", () => {
    const json = { repeatedInt32: Array.from({ length: 5000 }, () => "x") };
    expect(validateJson(M, json)).toHaveLength(validateMaxIssuesDefault);
    expect(validateJson(M, json, { maxIssues: 3 })).toHaveLength(3);
    expect(validateJson(M, json, { maxIssues: Infinity })).toHaveLength(5000);
  });

  it.each([0, -1, 1.5, NaN])("rejects maxIssues %s (rule range)", (maxIssues) => {
    expect(catchWkt(() => validateJson(M, {}, { maxIssues })).rule).toBe("range");
  });

  it("works for the well-known types at the root", () => {
    expect(brief(validateJson(TimestampSchema, "x"))).toEqual([["syntax", "$"]]);
    expect(brief(validateJson(StructSchema, { a: "\ud800", b: [1, "\udc00"] }))).toEqual([
      ["utf16", "$.a"],
      ["utf16", "$.b[1]"],
    ]);
    expect(brief(validateJson(AnySchema, { "@type": "x" }))).toEqual([["type-url", '$["@type"]']]);
  });
});

describe("validateJsonString", () => {
  it("gives every issue a line and column, sorted by position", () => {
    const text = [
      "{",
      '  "repeatedInt32": [1, "x",',
      "    2.5],",
      '  "optionalInt32": "y",',
      '  "optionalInt32": 3,',
      '  "bogus": {"a": 1, "a": 2}',
      "}",
    ].join("\n");
    expect(validateJsonString(M, text)).toEqual([
      expect.objectContaining({ rule: "syntax", jsonPath: "$.repeatedInt32[1]", line: 2, column: 24 }),
      expect.objectContaining({ rule: "syntax", jsonPath: "$.repeatedInt32[2]", line: 3, column: 5 }),
      expect.objectContaining({ rule: "syntax", jsonPath: "$.optionalInt32", line: 4, column: 20 }),
      expect.objectContaining({ rule: "duplicate-field", jsonPath: "$.optionalInt32", line: 5, column: 3 }),
      expect.objectContaining({ rule: "unknown-field", jsonPath: "$.bogus", line: 6, column: 12 }),
      expect.objectContaining({ rule: "duplicate-field", jsonPath: "$.bogus.a", line: 6, column: 21 }),
    ]);
  });

  it("reports malformed text once, where the parser stopped, after the repeated keys before it", () => {
    expect(brief(validateJsonString(M, '{"a": 1, "a": 2, "b": [1,]}'))).toEqual([
      ["duplicate-field", "$.a"],
      ["syntax", "$.b[1]"],
    ]);
    expect(validateJsonString(M, "{")).toEqual([
      expect.objectContaining({ rule: "syntax", jsonPath: "$", line: 1, column: 2 }),
    ]);
  });

  it("agrees with fromJsonString on exact numbers", () => {
    expect(validateJsonString(M, '{"optionalInt64": 9.223372036854775807e18}')).toEqual([]);
    expect(brief(validateJsonString(M, '{"optionalInt64": 9007199254740993.5}'))).toEqual([
      ["syntax", "$.optionalInt64"],
    ]);
    expect(() => fromJsonString(M, '{"optionalInt64": 9.223372036854775807e18}')).not.toThrow();
  });

  it("honours maxLength (rule size) and checks it", () => {
    expect(brief(validateJsonString(M, "{}   ", { maxLength: 4 }))).toEqual([["size", "$"]]);
    expect(validateJsonString(M, "{}", { maxLength: 2 })).toEqual([]);
    expect(catchWkt(() => validateJsonString(M, "{}", { maxLength: -1 })).rule).toBe("range");
  });
});

describe("maxLength of fromJsonString", () => {
  it.each<[number, boolean]>([
    [9, false],
    [10, true],
    [11, true],
  ])("a text of 10 code units with maxLength %i: accepted %s", (maxLength, accepted) => {
    const text = '{"a":  1 }';
    const run = () => fromJsonString(M, text, { maxLength, ignoreUnknownFields: true });
    if (accepted) expect(run).not.toThrow();
    else expect(catchWkt(run)).toMatchObject({ rule: "size", jsonPath: "$", line: 1 });
  });

  it.each([-1, 1.5, NaN, "10" as unknown as number])("rejects maxLength %s as an option (rule range)", (maxLength) => {
    expect(catchWkt(() => fromJsonString(M, "{}", { maxLength })).rule).toBe("range");
  });
});

describe("issue paths name the client's keys exactly", () => {
  // Issue 26: "An issue's path must name the client's keys exactly: a 150-character map key appears cut to 100
  // characters plus "…", which names no property of the input. (Bound the memory by sharing the key, not by
  // cutting it.)"
  const key = "team name ".repeat(15);

  it("a 150-character map key, whole, from a value and from a text (with its position)", () => {
    const json = { mapStringNestedMessage: { [key]: { a: "x" }, ok: { a: 1 } } };
    const path = `$.mapStringNestedMessage[${JSON.stringify(key)}].a`;
    for (const issues of [validateJson(M, json), validateJsonString(M, JSON.stringify(json))]) {
      expect(brief(issues)).toEqual([["syntax", path]]);
      expect(issues[0]!.path).toEqual(["mapStringNestedMessage", key, "a"]);
    }
    const text = JSON.stringify(json);
    expect(validateJsonString(M, text)[0]).toMatchObject({ line: 1, column: text.indexOf('"x"') + 1 });
  });

  it("the key in each path is the input's own string: every path names a property of the input", () => {
    const json = { mapStringNestedMessage: { [key]: { corecursive: { repeatedInt32: ["x", "y", 1, "z"] } } } };
    const issues = validateJson(M, json);
    expect(issues.map((i) => i.path.at(-1))).toEqual([0, 1, 3]);
    for (const issue of issues) {
      let v: unknown = json;
      for (const s of issue.path) v = (v as Record<string | number, unknown>)[s];
      expect(typeof v).toBe("string");
    }
  });

  it("repeated keys in a text are reported with whole paths too", () => {
    const issues = validateJsonString(M, `{"mapStringNestedMessage": {"${key}": {"a": 1, "a": 2}}}`);
    expect(issues).toEqual([
      expect.objectContaining({
        rule: "duplicate-field",
        jsonPath: `$.mapStringNestedMessage[${JSON.stringify(key)}].a`,
        path: ["mapStringNestedMessage", key, "a"],
      }),
    ]);
  });
});
