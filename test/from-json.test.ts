import {
  create,
  createRegistry,
  fromJson as esFromJson,
  getExtension,
  type DescMessage,
  type JsonValue,
} from "@bufbuild/protobuf";
import {
  DoubleValueSchema,
  FloatValueSchema,
  ListValueSchema,
  StructSchema,
  ValueSchema,
} from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { isWktJsonError } from "../src/errors.js";
import { fromJson, fromJsonString, type JsonReadOptions } from "../src/codec/from-json.js";
import { validateJson, validateJsonString } from "../src/codec/validate.js";
import { toJson } from "../src/codec/to-json.js";
import { mergeFromJsonString } from "../src/codec/merge-from-json.js";
import {
  TestAllTypesEdition2023,
  TestAllTypesProto2,
  TestAllTypesProto2Editions,
  TestAllTypesProto3,
  testRegistry,
} from "./conformance-registry.js";
import { catchWkt } from "./helpers.js";

type Fields = Record<string, unknown>;

/** Decodes `json` (a JS value, as `JSON.parse` gives it) with the test registry. */
function read(desc: DescMessage, json: unknown, options?: Partial<JsonReadOptions>): Fields {
  return fromJson(desc, json as JsonValue, { registry: testRegistry, ...options }) as unknown as Fields;
}

/** Decodes JSON text with the test registry. */
function readText(desc: DescMessage, text: string, options?: Partial<JsonReadOptions>): Fields {
  return fromJsonString(desc, text, { registry: testRegistry, ...options }) as unknown as Fields;
}

const messages: [string, DescMessage][] = [
  ["proto3", TestAllTypesProto3],
  ["proto2", TestAllTypesProto2],
  ["editions", TestAllTypesEdition2023],
];

const int64Min = -(2n ** 63n);
const int64Max = 2n ** 63n - 1n;
const uint64Max = 2n ** 64n - 1n;

// ---------------------------------------------------------------------------------------------------------
// Scalars: every integer type at min-1, min, max, max+1, as a JSON number and as a JSON string

/** [field, JSON value, expected value or the rule of the error]. */
type Row = [string, unknown, unknown];

const boundaryRows: Row[] = [];
for (const [field, min, max] of [
  ["optionalInt32", -2147483648, 2147483647],
  ["optionalSint32", -2147483648, 2147483647],
  ["optionalSfixed32", -2147483648, 2147483647],
  ["optionalUint32", 0, 4294967295],
  ["optionalFixed32", 0, 4294967295],
] as const) {
  boundaryRows.push(
    [field, min - 1, "range"],
    [field, min, min],
    [field, max, max],
    [field, max + 1, "range"],
    [field, String(min - 1), "range"],
    [field, String(min), min],
    [field, String(max), max],
    [field, String(max + 1), "range"],
  );
}
for (const [field, min, max] of [
  ["optionalInt64", int64Min, int64Max],
  ["optionalSint64", int64Min, int64Max],
  ["optionalSfixed64", int64Min, int64Max],
  ["optionalUint64", 0n, uint64Max],
  ["optionalFixed64", 0n, uint64Max],
] as const) {
  boundaryRows.push(
    [field, String(min - 1n), "range"],
    [field, String(min), min],
    [field, String(max), max],
    [field, String(max + 1n), "range"],
  );
}

describe.each(messages)("integer bounds (%s)", (_, desc) => {
  it.each(boundaryRows)("%s: %o gives %o", (field, json, expected) => {
    if (typeof expected === "string") {
      expect(catchWkt(() => read(desc, { [field]: json }))).toMatchObject({ rule: expected, jsonPath: `$.${field}` });
    } else {
      expect(read(desc, { [field]: json })[field]).toBe(expected);
    }
  });
});

describe("64-bit integers as unquoted literals in JSON text keep every digit", () => {
  it.each<Row>([
    ["optionalInt64", "-9223372036854775809", "range"],
    ["optionalInt64", "-9223372036854775808", int64Min],
    ["optionalInt64", "9223372036854775807", int64Max],
    ["optionalInt64", "9223372036854775808", "range"],
    ["optionalUint64", "-1", "range"],
    ["optionalUint64", "0", 0n],
    ["optionalUint64", "18446744073709551615", uint64Max],
    ["optionalUint64", "18446744073709551616", "range"],
    ["optionalFixed64", "9007199254740993", 9007199254740993n], // 2^53 + 1: a double would lose the 1
    ["optionalSint64", "-9007199254740993", -9007199254740993n],
    ["optionalInt32", "12345678901234567890", "range"],
    ["optionalDouble", "12345678901234567890", 12345678901234567000],
  ])("%s: %s gives %o", (field, literal, expected) => {
    const text = `{"${field}": ${literal}}`;
    if (typeof expected === "string") {
      expect(catchWkt(() => readText(TestAllTypesProto3, text))).toMatchObject({
        rule: expected,
        jsonPath: `$.${field}`,
        line: 1,
        column: field.length + 6,
      });
    } else {
      expect(readText(TestAllTypesProto3, text)[field]).toBe(expected);
    }
  });
});

describe("numeric forms", () => {
  it.each<Row>([
    ["optionalInt32", 1e2, 100],
    ["optionalInt32", "1e2", 100],
    ["optionalInt32", "1E2", 100],
    ["optionalInt32", "1.0", 1],
    ["optionalInt32", "-0", 0],
    ["optionalUint32", "4.294967295e9", 4294967295],
    ["optionalInt64", "1e2", 100n],
    ["optionalInt64", 1e18, 10n ** 18n],
    ["optionalUint64", "1.8446744073709551615e19", uint64Max],
    ["optionalSfixed64", "-9.223372036854775808e18", int64Min],
    ["optionalInt32", 1.5, "syntax"],
    ["optionalInt32", "1.5", "syntax"],
    ["optionalInt32", "1e-1", "syntax"],
    ["optionalInt32", "1e10", "range"],
    ["optionalInt64", 1.5, "syntax"],
    ["optionalInt64", "1.5", "syntax"],
    ["optionalInt64", "1e19", "range"],
    ["optionalInt64", 9223372036854775807, "range"], // the JS number is 2^63 after rounding
    ["optionalInt32", " 1", "syntax"],
    ["optionalInt32", "1 ", "syntax"],
    ["optionalInt32", "\t1", "syntax"],
    ["optionalInt64", " 1", "syntax"],
    ["optionalInt64", "1\n", "syntax"],
    ["optionalUint32", "01", "syntax"],
    ["optionalUint64", "01", "syntax"],
    ["optionalInt32", "+1", "syntax"],
    ["optionalInt64", "+1", "syntax"],
    ["optionalDouble", "+1", "syntax"],
    ["optionalDouble", "01", "syntax"],
    ["optionalDouble", " 1", "syntax"],
    ["optionalDouble", "1 ", "syntax"],
    ["optionalInt32", "", "syntax"],
    ["optionalInt64", "", "syntax"],
    ["optionalInt32", "0x10", "syntax"],
    ["optionalInt32", true, "json-type"],
    ["optionalInt64", [], "json-type"],
    ["optionalUint32", {}, "json-type"],
  ])("%s: %o gives %o", (field, json, expected) => {
    if (typeof expected === "string") {
      expect(catchWkt(() => read(TestAllTypesProto3, { [field]: json }))).toMatchObject({
        rule: expected,
        jsonPath: `$.${field}`,
      });
    } else {
      expect(read(TestAllTypesProto3, { [field]: json })[field]).toBe(expected);
    }
  });

  it.each<Row>([
    ["optionalFloat", 3.4028234663852886e38, 3.4028234663852886e38], // max float
    ["optionalFloat", 3.4028235e38, 3.4028235e38], // rounds to max float
    ["optionalFloat", "3.4028235e38", 3.4028235e38],
    ["optionalFloat", -3.4028235e38, -3.4028235e38],
    ["optionalFloat", 3.5e38, "range"],
    ["optionalFloat", "3.5e38", "range"],
    ["optionalFloat", -3.5e38, "range"],
    ["optionalFloat", "-3.5e38", "range"],
    ["optionalDouble", 1.7976931348623157e308, 1.7976931348623157e308],
    ["optionalDouble", "1e309", "range"],
    ["optionalDouble", "-1e309", "range"],
    ["optionalFloat", "NaN", NaN],
    ["optionalFloat", "Infinity", Infinity],
    ["optionalFloat", "-Infinity", -Infinity],
    ["optionalDouble", "NaN", NaN],
    ["optionalDouble", "Infinity", Infinity],
    ["optionalDouble", "-Infinity", -Infinity],
    ["optionalDouble", "1e2", 100],
    ["optionalDouble", "-0", -0],
    ["optionalDouble", "nan", "syntax"],
    ["optionalDouble", "infinity", "syntax"],
    ["optionalDouble", "-inf", "syntax"],
    ["optionalFloat", "", "syntax"],
    ["optionalDouble", true, "json-type"],
  ])("%s: %o gives %o", (field, json, expected) => {
    if (typeof expected === "string") {
      expect(catchWkt(() => read(TestAllTypesProto3, { [field]: json }))).toMatchObject({
        rule: expected,
        jsonPath: `$.${field}`,
      });
    } else {
      expect(read(TestAllTypesProto3, { [field]: json })[field]).toBe(expected);
    }
  });

  it.each<[string, string, string]>([
    ["optionalFloat", "1e39", "range"],
    ["optionalFloat", "-1e39", "range"],
    ["optionalDouble", "1e400", "range"],
    ["optionalInt32", "1.5", "syntax"],
    ["optionalInt32", "-2147483649", "range"],
  ])("text %s: %s is rejected (%s)", (field, literal, rule) => {
    expect(catchWkt(() => readText(TestAllTypesProto3, `{"${field}": ${literal}}`))).toMatchObject({
      rule,
      jsonPath: `$.${field}`,
    });
  });

  // Issue 28: a number beyond the range was told as the Infinity it reads as ("Infinity must be written as a
  // string"), which the client did not write.
  const long = "1" + "0".repeat(400);
  it.each<[string, string, string, string]>([
    ["optionalDouble", "1e400", "double", '"Infinity"'],
    ["optionalDouble", "-1e400", "double", '"-Infinity"'],
    ["optionalDouble", long, "double", '"Infinity"'],
    ["repeatedDouble", "[1, 1e400]", "double", '"Infinity"'],
    ["optionalDoubleWrapper", "1e400", "google.protobuf.DoubleValue", '"Infinity"'],
    ["optionalFloat", "1e400", "float", '"Infinity"'],
    ["optionalFloat", "1e39", "float", '"Infinity"'],
    ["optionalFloat", "-3.5e38", "float", '"-Infinity"'],
    ["optionalFloatWrapper", "1e39", "google.protobuf.FloatValue", '"Infinity"'],
  ])("text %s: %s beyond the range is told as written, rule range", (field, literal, typeName, infinity) => {
    const text = `{\n  "${field}": ${literal}\n}`;
    const e = catchWkt(() => fromJsonString(TestAllTypesProto3, text));
    const n = literal.startsWith("[") ? literal.slice(4, -1) : literal;
    const type = typeName.includes("Float") || typeName === "float" ? "a float" : "a double";
    const shown = n.length <= 40 ? n : `${n.slice(0, 20)}…${n.slice(-10)} (${n.length} characters)`;
    expect(e).toMatchObject({ rule: "range", typeName, line: 2 });
    expect(e.detail).toContain(`the number ${shown} is beyond the range of ${type}; write the string ${infinity}`);
    expect(e.detail.replace(infinity, "")).not.toContain("Infinity");
    // The validator says the same, at the same place.
    const issues = validateJsonString(TestAllTypesProto3, text);
    expect(issues.map((i) => [i.rule, i.jsonPath, i.typeName, i.detail, i.line, i.column])).toEqual([
      ["range", e.jsonPath, typeName, e.detail, e.line, e.column],
    ]);
  });

  it("a DoubleValue or FloatValue at the root, from a text, is told as written; a JS Infinity by its name", () => {
    const d = catchWkt(() => fromJsonString(DoubleValueSchema, "1e400"));
    expect([d.rule, d.detail]).toEqual([
      "range",
      'the number 1e400 is beyond the range of a double; write the string "Infinity" for an infinite value, or a finite number',
    ]);
    expect(validateJsonString(DoubleValueSchema, "1e400").map((i) => i.detail)).toEqual([d.detail]);
    const f = catchWkt(() => fromJsonString(FloatValueSchema, "-1e39"));
    expect([f.rule, f.detail]).toEqual([
      "range",
      'the number -1e39 is beyond the range of a float; write the string "-Infinity" for an infinite value, or a ' +
        "number within ±3.4028235e38",
    ]);
    // A JS value holds an Infinity (JSON.parse gives one for 1e400): named as it is.
    const js = catchWkt(() => fromJson(TestAllTypesProto3, { optionalDouble: Infinity } as never));
    expect([js.rule, js.detail]).toEqual([
      "range",
      'Infinity must be written as a string ("NaN", "Infinity", "-Infinity")',
    ]);
    // A numeric string beyond the range is quoted as it was sent.
    expect(catchWkt(() => fromJsonString(TestAllTypesProto3, '{"optionalDouble": "1e400"}')).detail).toBe(
      '"1e400" is outside the range of double',
    );
  });
});

describe("an integer field given a literal beyond a double, from a text", () => {
  // The same class as the floats above: the detail named the Infinity the literal reads as.
  it.each([
    ["optionalInt32", "1e400", "int32"],
    ["optionalInt64", "-1e400", "int64"],
    ["optionalUint64", "1e400", "uint64"],
    ["repeatedSint32", "[1, 1e400]", "sint32"],
    ["optionalInt32Wrapper", "1e400", "google.protobuf.Int32Value"],
  ])("%s: %s is told as written, rule range, the validator alike", (field, literal, typeName) => {
    const text = `{"${field}": ${literal}}`;
    const e = catchWkt(() => fromJsonString(TestAllTypesProto3, text));
    const n = literal.startsWith("[") ? literal.slice(4, -1) : literal;
    expect(e).toMatchObject({ rule: "range", typeName, line: 1 });
    expect(e.detail).toMatch(new RegExp(`^the number ${n} is outside the range of `));
    expect(e.detail).not.toContain("Infinity");
    expect(validateJsonString(TestAllTypesProto3, text).map((i) => [i.rule, i.detail, i.column])).toEqual([
      ["range", e.detail, e.column],
    ]);
  });
});

describe("strings, bools and bytes", () => {
  it.each<Row>([
    ["optionalString", "", ""],
    ["optionalString", "😀 a\u0000", "😀 a\u0000"],
    ["optionalString", null, ""], // null is the default
    ["optionalBool", true, true],
    ["optionalBool", false, false],
    ["optionalBytes", "", new Uint8Array(0)],
    ["optionalBytes", "AQID", new Uint8Array([1, 2, 3])], // standard
    ["optionalBytes", "+/8=", new Uint8Array([0xfb, 0xff])], // standard, padded
    ["optionalBytes", "+/8", new Uint8Array([0xfb, 0xff])], // standard, unpadded
    ["optionalBytes", "-_8=", new Uint8Array([0xfb, 0xff])], // URL-safe, padded
    ["optionalBytes", "-_8", new Uint8Array([0xfb, 0xff])], // URL-safe, unpadded
    ["optionalBytes", "Zg==", new Uint8Array([0x66])],
    ["optionalBytes", "Zg", new Uint8Array([0x66])],
  ])("%s: %o gives %o", (field, json, expected) => {
    expect(read(TestAllTypesProto3, { [field]: json })[field]).toEqual(expected);
  });

  it.each<[string, unknown, string]>([
    ["optionalString", 1, "json-type"],
    ["optionalString", [], "json-type"],
    ["optionalBool", "true", "json-type"],
    ["optionalBool", 0, "json-type"],
    ["optionalBytes", 1, "json-type"],
    ["optionalBytes", "A", "syntax"], // one character cannot hold a byte
    ["optionalBytes", "Zg=", "syntax"], // padding, when present, completes the group
    ["optionalBytes", "Zg==Zg==", "syntax"],
    ["optionalBytes", "Zm 9v", "syntax"],
    ["optionalBytes", "Zm9v!", "syntax"],
    ["optionalBytes", "Zm9v\n", "syntax"],
  ])("%s rejects %o (%s)", (field, json, rule) => {
    expect(catchWkt(() => read(TestAllTypesProto3, { [field]: json }))).toMatchObject({ rule, jsonPath: `$.${field}` });
  });

  it.each<[unknown, string]>([
    [{ optionalString: "\ud800" }, "$.optionalString"],
    [{ optionalString: "a\udfffb" }, "$.optionalString"],
    [{ repeatedString: ["ok", "\ud83d"] }, "$.repeatedString[1]"],
    [{ mapStringString: { k: "\ud800" } }, "$.mapStringString.k"],
    [{ mapStringString: { "\ud800": "v" } }, '$.mapStringString["\\ud800"]'],
    [{ oneofString: "\udc00" }, "$.oneofString"],
    [{ optionalStringWrapper: "\ud800" }, "$.optionalStringWrapper"],
    [{ repeatedStringWrapper: ["\ud800"] }, "$.repeatedStringWrapper[0]"],
    [{ optionalStruct: { "\ud800": 1 } }, '$.optionalStruct["\\ud800"]'],
    [{ optionalStruct: { a: ["\ud800"] } }, "$.optionalStruct.a[0]"],
    [{ optionalValue: "\ud800" }, "$.optionalValue"],
    [{ repeatedValue: [1, { a: ["\udc00"] }] }, "$.repeatedValue[1].a[0]"],
    [
      { optionalNestedMessage: { corecursive: { optionalString: "\ud800" } } },
      "$.optionalNestedMessage.corecursive.optionalString",
    ],
  ])("a lone surrogate in %o is rule utf16 at %s", (json, path) => {
    expect(catchWkt(() => read(TestAllTypesProto3, json))).toMatchObject({ rule: "utf16", jsonPath: path });
  });

  it("keeps well-formed surrogate pairs", () => {
    expect(read(TestAllTypesProto3, { optionalString: "\ud83d\ude00" }).optionalString).toBe("😀");
  });
});

// ---------------------------------------------------------------------------------------------------------
// Enums

describe("enums", () => {
  it.each<[DescMessage, unknown, unknown]>([
    [TestAllTypesProto3, { optionalNestedEnum: "BAR" }, 1],
    [TestAllTypesProto3, { optionalNestedEnum: "NEG" }, -1],
    [TestAllTypesProto3, { optionalNestedEnum: 2 }, 2],
    [TestAllTypesProto3, { optionalNestedEnum: -1 }, -1],
    [TestAllTypesProto3, { optionalNestedEnum: 77 }, 77], // open enum: any int32
    [TestAllTypesProto3, { optionalNestedEnum: 2147483647 }, 2147483647],
    [TestAllTypesProto3, { optionalNestedEnum: -2147483648 }, -2147483648],
    [TestAllTypesProto3, { optionalNestedEnum: null }, 0],
    [TestAllTypesProto3, { optionalAliasedEnum: "ALIAS_BAZ" }, 2],
    [TestAllTypesProto3, { optionalAliasedEnum: "MOO" }, 2],
    [TestAllTypesProto3, { optionalAliasedEnum: "moo" }, 2],
    [TestAllTypesProto3, { optionalAliasedEnum: "bAz" }, 2],
    [TestAllTypesProto3, { optionalForeignEnum: "FOREIGN_BAZ" }, 2],
    [TestAllTypesProto3, { optionalNullValue: null }, 0],
    [TestAllTypesProto3, { optionalNullValue: "NULL_VALUE" }, 0],
    [TestAllTypesProto2, { optionalNestedEnum: "BAZ" }, 2],
    [TestAllTypesProto2, { optionalNestedEnum: -1 }, -1],
    [TestAllTypesEdition2023, { optionalNestedEnum: 77 }, 77],
    // A closed enum takes any int32 too: toJson writes a number no value declares (protobuf-es's binary reader
    // keeps one in a list or map), and what we write we read (Go's protojson reads any int32 as well).
    [TestAllTypesProto2, { optionalNestedEnum: 77 }, 77],
    [TestAllTypesProto2Editions, { optionalNestedEnum: 77 }, 77],
  ])("%s %o", (desc, json, expected) => {
    const [field] = Object.keys(json as object);
    expect(read(desc, json)[field!]).toBe(expected);
  });

  it.each<[DescMessage, unknown, string, string]>([
    [TestAllTypesProto3, { optionalNestedEnum: "QUX" }, "enum", "$.optionalNestedEnum"],
    [TestAllTypesProto3, { optionalNestedEnum: "bar" }, "enum", "$.optionalNestedEnum"], // names are case-sensitive
    [TestAllTypesProto3, { optionalNestedEnum: "1" }, "enum", "$.optionalNestedEnum"], // a numeric string is not a number
    [TestAllTypesProto3, { optionalNestedEnum: 1.5 }, "enum", "$.optionalNestedEnum"],
    [TestAllTypesProto3, { optionalNestedEnum: 2147483648 }, "enum", "$.optionalNestedEnum"],
    [TestAllTypesProto3, { optionalNestedEnum: true }, "json-type", "$.optionalNestedEnum"],
    [TestAllTypesProto3, { optionalNestedEnum: {} }, "json-type", "$.optionalNestedEnum"],
    [TestAllTypesProto3, { repeatedNestedEnum: ["FOO", "QUX"] }, "enum", "$.repeatedNestedEnum[1]"],
    [TestAllTypesProto3, { mapStringNestedEnum: { "a b": "QUX" } }, "enum", '$.mapStringNestedEnum["a b"]'],
    [TestAllTypesProto3, { oneofEnum: "QUX" }, "enum", "$.oneofEnum"],
    [TestAllTypesProto2, { optionalNestedEnum: 2147483648 }, "enum", "$.optionalNestedEnum"], // closed: int32 only
    [TestAllTypesProto2, { repeatedNestedEnum: [1, 1.5] }, "enum", "$.repeatedNestedEnum[1]"],
    [TestAllTypesProto2, { mapStringNestedEnum: { k: "QUX" } }, "enum", "$.mapStringNestedEnum.k"],
    [TestAllTypesProto2, { optionalForeignEnum: "QUX" }, "enum", "$.optionalForeignEnum"],
  ])("%s rejects %o (%s at %s)", (desc, json, rule, path) => {
    expect(catchWkt(() => read(desc, json))).toMatchObject({ rule, jsonPath: path });
  });

  // BUG: an integer literal beyond 2^53 in an enum field of JSON text is reported as rule "json-type" ("got a
  // bigint"), while 2147483648 gives rule "enum" ("not an int32"): the text parser's bigint for large literals
  // reaches compileEnum, which handles only number and string. Both are JSON numbers outside int32: expected
  // rule "enum" for both.
  it.each(["100000000000000000000", "-9223372036854775809"])("text: the enum number %s is rule enum", (literal) => {
    expect(catchWkt(() => readText(TestAllTypesProto3, `{"optionalNestedEnum": ${literal}}`))).toMatchObject({
      rule: "enum",
      jsonPath: "$.optionalNestedEnum",
    });
  });

  it("text: 2147483648 in an enum field is rule enum", () => {
    expect(catchWkt(() => readText(TestAllTypesProto3, '{"optionalNestedEnum": 2147483648}'))).toMatchObject({
      rule: "enum",
      jsonPath: "$.optionalNestedEnum",
    });
  });

  it("a closed enum's undeclared numbers are kept in a list and a map, as protobuf-es's binary reader keeps them", () => {
    expect(read(TestAllTypesProto2, { repeatedNestedEnum: [1, 3] }).repeatedNestedEnum).toEqual([1, 3]);
    expect(read(TestAllTypesProto2, { mapStringNestedEnum: { k: 5 } }).mapStringNestedEnum).toEqual({ k: 5 });
  });

  describe("unknown names are skipped with ignoreUnknownFields (numbers, any int32, are kept)", () => {
    const ignore = { ignoreUnknownFields: true };
    it("singular: the field stays unset", () => {
      const m = read(TestAllTypesProto3, { optionalNestedEnum: "QUX" }, ignore);
      expect(m.optionalNestedEnum).toBe(0);
      const p2 = read(TestAllTypesProto2, { optionalNestedEnum: "QUX" }, ignore);
      expect(Object.prototype.hasOwnProperty.call(p2, "optionalNestedEnum")).toBe(false);
      expect(read(TestAllTypesProto2, { optionalNestedEnum: 77 }, ignore).optionalNestedEnum).toBe(77);
    });
    it("repeated: the item is dropped", () => {
      expect(
        read(TestAllTypesProto3, { repeatedNestedEnum: ["BAR", "QUX", "BAZ"] }, ignore).repeatedNestedEnum,
      ).toEqual([1, 2]);
      expect(read(TestAllTypesProto2, { repeatedNestedEnum: [1, "QUX", 77] }, ignore).repeatedNestedEnum).toEqual([
        1, 77,
      ]);
    });
    it("map: the entry is dropped", () => {
      expect(
        read(TestAllTypesProto3, { mapStringNestedEnum: { a: "QUX", b: "BAR" } }, ignore).mapStringNestedEnum,
      ).toEqual({ b: 1 });
    });
    it("oneof: no case is selected, and another member may still be set", () => {
      expect(read(TestAllTypesProto3, { oneofEnum: "QUX" }, ignore).oneofField).toEqual({ case: undefined });
      expect(read(TestAllTypesProto3, { oneofEnum: "QUX", oneofUint32: 7 }, ignore).oneofField).toEqual({
        case: "oneofUint32",
        value: 7,
      });
    });
  });
});

// ---------------------------------------------------------------------------------------------------------
// Maps

describe("maps", () => {
  it.each<[string, unknown, unknown]>([
    ["mapInt32Int32", { "-2147483648": 1, "2147483647": 2 }, { "-2147483648": 1, "2147483647": 2 }],
    ["mapInt32Int32", { "-0": 1 }, { "0": 1 }], // keys are canonicalized
    [
      "mapInt64Int64",
      { "-9223372036854775808": "1", "9223372036854775807": 2 },
      { "-9223372036854775808": 1n, "9223372036854775807": 2n },
    ],
    ["mapUint32Uint32", { "4294967295": 1 }, { "4294967295": 1 }],
    ["mapUint64Uint64", { "18446744073709551615": "18446744073709551615" }, { "18446744073709551615": uint64Max }],
    ["mapSint32Sint32", { "-1": -1 }, { "-1": -1 }],
    ["mapSint64Sint64", { "-1": "-1" }, { "-1": -1n }],
    ["mapFixed32Fixed32", { "0": 0 }, { "0": 0 }],
    ["mapFixed64Fixed64", { "1": "1" }, { "1": 1n }],
    ["mapSfixed32Sfixed32", { "-5": 5 }, { "-5": 5 }],
    ["mapSfixed64Sfixed64", { "-5": "5" }, { "-5": 5n }],
    ["mapInt32Float", { "1": "NaN" }, { "1": NaN }],
    ["mapInt32Double", { "1": "-Infinity" }, { "1": -Infinity }],
    ["mapBoolBool", { true: true, false: false }, { true: true, false: false }],
    ["mapStringString", { "": "", "a b": "c" }, { "": "", "a b": "c" }],
    ["mapStringBytes", { k: "-_8" }, { k: new Uint8Array([0xfb, 0xff]) }],
    ["mapStringNestedMessage", { k: { a: 1 } }, { k: expect.objectContaining({ a: 1 }) }],
    ["mapStringForeignEnum", { k: "FOREIGN_BAR" }, { k: 1 }],
    ["mapStringNestedEnum", { k: 2 }, { k: 2 }],
    ["mapInt32Int32", null, {}],
    ["mapInt32Int32", { "01": 1, "+2": 2, "-03": 3 }, { "1": 1, "2": 2, "-3": 3 }], // Go, C++ and protobuf-es take them
    ["mapUint64Uint64", { "01": "1" }, { "1": 1n }],
    ["mapStringString", {}, {}],
  ])("%s: %o", (field, json, expected) => {
    expect(read(TestAllTypesProto3, { [field]: json })[field]).toEqual(expected);
  });

  it.each<[string, unknown, string, string]>([
    ["mapInt32Int32", { "1e2": 1 }, "syntax", '$.mapInt32Int32["1e2"]'],
    ["mapInt32Int32", { "1.0": 1 }, "syntax", '$.mapInt32Int32["1.0"]'],
    ["mapInt32Int32", { " 1": 1 }, "syntax", '$.mapInt32Int32[" 1"]'],
    ["mapInt32Int32", { "": 1 }, "syntax", '$.mapInt32Int32[""]'],
    ["mapInt32Int32", { x: 1 }, "syntax", "$.mapInt32Int32.x"],
    ["mapInt32Int32", { "2147483648": 1 }, "range", '$.mapInt32Int32["2147483648"]'],
    ["mapUint32Uint32", { "-1": 1 }, "range", '$.mapUint32Uint32["-1"]'],
    ["mapInt64Int64", { "9223372036854775808": "1" }, "range", '$.mapInt64Int64["9223372036854775808"]'],
    ["mapBoolBool", { True: true }, "syntax", "$.mapBoolBool.True"],
    ["mapBoolBool", { "1": true }, "syntax", '$.mapBoolBool["1"]'],
    ["mapInt32Int32", { "1": "x" }, "syntax", '$.mapInt32Int32["1"]'],
    ["mapInt32Int32", { "1": null }, "json-type", '$.mapInt32Int32["1"]'],
    ["mapStringNestedMessage", { "a b": { a: "x" } }, "syntax", '$.mapStringNestedMessage["a b"].a'],
    ["mapStringNestedMessage", { k: null }, "json-type", "$.mapStringNestedMessage.k"],
    ["mapStringNestedMessage", { k: [] }, "json-type", "$.mapStringNestedMessage.k"],
    ["mapInt32Int32", [], "json-type", "$.mapInt32Int32"],
    ["mapInt32Int32", "x", "json-type", "$.mapInt32Int32"],
  ])("%s rejects %o (%s at %s)", (field, json, rule, path) => {
    expect(catchWkt(() => read(TestAllTypesProto3, { [field]: json }))).toMatchObject({ rule, jsonPath: path });
  });

  it.each<[string, string, string]>([
    // The same key twice after canonicalization. Integer-like keys are enumerated first by JS, so "-0" comes
    // second whatever the text order.
    ["mapInt32Int32", '{"0": 1, "-0": 2}', '$.mapInt32Int32["-0"]'],
    ["mapInt32Int32", '{"-0": 1, "0": 2}', '$.mapInt32Int32["-0"]'],
    ["mapInt64Int64", '{"0": "1", "-0": "2"}', '$.mapInt64Int64["-0"]'],
    ["mapSint32Sint32", '{"-0": 1, "0": 2}', '$.mapSint32Sint32["-0"]'],
  ])("%s: %s repeats a key after canonicalization", (field, obj, path) => {
    const text = `{"${field}": ${obj}}`;
    expect(catchWkt(() => read(TestAllTypesProto3, JSON.parse(text)))).toMatchObject({
      rule: "duplicate-field",
      jsonPath: path,
    });
    expect(catchWkt(() => readText(TestAllTypesProto3, text))).toMatchObject({
      rule: "duplicate-field",
      jsonPath: path,
    });
  });

  it("rejects a key repeated verbatim in JSON text", () => {
    expect(catchWkt(() => readText(TestAllTypesProto3, '{"mapStringString": {"a": "1", "a": "2"}}'))).toMatchObject({
      rule: "duplicate-field",
      jsonPath: "$.mapStringString.a",
      line: 1,
      column: 32, // the repeated name
    });
  });
});

// ---------------------------------------------------------------------------------------------------------
// Oneofs and null

describe("oneofs", () => {
  it.each<[unknown, unknown]>([
    [{ oneofUint32: 7 }, { case: "oneofUint32", value: 7 }],
    [{ oneofString: "" }, { case: "oneofString", value: "" }], // a default value still selects the case
    [{ oneofBool: false }, { case: "oneofBool", value: false }],
    [{ oneofUint64: "0" }, { case: "oneofUint64", value: 0n }],
    [{ oneofDouble: "NaN" }, { case: "oneofDouble", value: NaN }],
    [{ oneofEnum: "FOO" }, { case: "oneofEnum", value: 0 }],
    [{ oneofNestedMessage: {} }, { case: "oneofNestedMessage", value: expect.objectContaining({ a: 0 }) }],
    [{ oneofBytes: "" }, { case: "oneofBytes", value: new Uint8Array(0) }],
    [{ oneofNullValue: null }, { case: "oneofNullValue", value: 0 }], // null is the value of a NullValue
    [{ oneofUint32: null }, { case: undefined }], // null for a member selects nothing
    [
      { oneofUint32: null, oneofString: "a" },
      { case: "oneofString", value: "a" },
    ],
    [
      { oneofString: "a", oneofUint32: null },
      { case: "oneofString", value: "a" },
    ],
    [
      { oneofNestedMessage: null, oneofNullValue: null },
      { case: "oneofNullValue", value: 0 },
    ],
  ])("%o", (json, expected) => {
    expect(read(TestAllTypesProto3, json).oneofField).toEqual(expected);
  });

  it.each<[unknown, string]>([
    [{ oneofUint32: 1, oneofString: "a" }, "$.oneofString"],
    [{ oneofString: "a", oneofUint32: 1 }, "$.oneofUint32"],
    [{ oneofNullValue: null, oneofBool: true }, "$.oneofBool"],
    [{ oneofEnum: "FOO", oneof_uint32: 0 }, "$.oneof_uint32"],
    [
      { optionalNestedMessage: { corecursive: { oneofBytes: "", oneofDouble: 1 } } },
      "$.optionalNestedMessage.corecursive.oneofDouble",
    ],
  ])("rejects two members of one oneof: %o (at %s)", (json, path) => {
    expect(catchWkt(() => read(TestAllTypesProto3, json))).toMatchObject({ rule: "oneof", jsonPath: path });
  });

  it("proto2 and editions oneofs follow the same rule", () => {
    expect(catchWkt(() => read(TestAllTypesProto2, { oneofUint32: 1, oneofBool: true }))).toMatchObject({
      rule: "oneof",
      jsonPath: "$.oneofBool",
    });
    expect(catchWkt(() => read(TestAllTypesEdition2023, { oneofUint32: 1, oneofBool: true }))).toMatchObject({
      rule: "oneof",
      jsonPath: "$.oneofBool",
    });
  });
});

describe("null means the default value", () => {
  // "null is accepted for all field types and treated as the default value of the corresponding field type";
  // google.protobuf.Value and NullValue are the exceptions, where null is a value.
  it.each<[string, unknown]>([
    ["optionalInt32", 0],
    ["optionalInt64", 0n],
    ["optionalUint64", 0n],
    ["optionalFloat", 0],
    ["optionalDouble", 0],
    ["optionalBool", false],
    ["optionalString", ""],
    ["optionalBytes", new Uint8Array(0)],
    ["optionalNestedEnum", 0],
    ["optionalNestedMessage", undefined],
    ["recursiveMessage", undefined],
    ["optionalBoolWrapper", undefined],
    ["optionalInt64Wrapper", undefined],
    ["optionalBytesWrapper", undefined],
    ["optionalDuration", undefined],
    ["optionalTimestamp", undefined],
    ["optionalFieldMask", undefined],
    ["optionalStruct", undefined],
    ["optionalAny", undefined],
    ["optionalNullValue", 0],
    ["repeatedInt32", []],
    ["repeatedNestedMessage", []],
    ["repeatedValue", []],
    ["mapStringString", {}],
    ["mapStringNestedMessage", {}],
  ])("proto3 %s: null", (field, expected) => {
    expect(read(TestAllTypesProto3, { [field]: null })[field]).toEqual(expected);
  });

  it("google.protobuf.Value: null is the null value", () => {
    expect(read(TestAllTypesProto3, { optionalValue: null }).optionalValue).toMatchObject({
      kind: { case: "nullValue", value: 0 },
    });
  });

  it.each([
    "optionalInt32",
    "optionalString",
    "optionalBytes",
    "optionalNestedEnum",
    "optionalNestedMessage",
    "defaultInt32",
    "data",
  ])("explicit presence %s: null leaves the field unset (proto2 and editions)", (field) => {
    for (const desc of [TestAllTypesProto2, TestAllTypesEdition2023]) {
      if (desc.fields.every((f) => f.localName !== field)) continue;
      const m = read(desc, { [field]: null });
      expect(Object.prototype.hasOwnProperty.call(m, field)).toBe(false);
    }
  });

  it.each(["optionalInt32", "optionalString", "optionalBytes", "optionalNestedEnum", "defaultInt32", "defaultString"])(
    "explicit presence %s: a default value given is set",
    (field) => {
      const zero: Record<string, unknown> = {
        optionalInt32: 0,
        optionalString: "",
        optionalBytes: "",
        optionalNestedEnum: "FOO",
        defaultInt32: 0,
        defaultString: "",
      };
      const m = read(TestAllTypesProto2, { [field]: zero[field] });
      expect(Object.prototype.hasOwnProperty.call(m, field)).toBe(true);
    },
  );
});

describe("lists", () => {
  it.each<[string, unknown[], string]>([
    ["repeatedInt32", [1, null], "$.repeatedInt32[1]"],
    ["repeatedString", [null], "$.repeatedString[0]"],
    ["repeatedNestedEnum", ["FOO", null], "$.repeatedNestedEnum[1]"],
    ["repeatedNestedMessage", [{}, null], "$.repeatedNestedMessage[1]"],
    ["repeatedTimestamp", [null], "$.repeatedTimestamp[0]"],
    ["repeatedStruct", [{}, {}, null], "$.repeatedStruct[2]"],
    ["repeatedAny", [null], "$.repeatedAny[0]"],
    ["repeatedListValue", [null], "$.repeatedListValue[0]"],
    ["repeatedInt32Wrapper", [1, null], "$.repeatedInt32Wrapper[1]"],
  ])("%s rejects a null item", (field, json, path) => {
    expect(catchWkt(() => read(TestAllTypesProto3, { [field]: json }))).toMatchObject({
      rule: "json-type",
      jsonPath: path,
    });
  });

  it("repeated google.protobuf.Value takes null items as null values", () => {
    const m = read(TestAllTypesProto3, { repeatedValue: [1, null, [null]] });
    expect(m.repeatedValue).toMatchObject([
      { kind: { case: "numberValue", value: 1 } },
      { kind: { case: "nullValue", value: 0 } },
      { kind: { case: "listValue", value: { values: [{ kind: { case: "nullValue" } }] } } },
    ]);
  });

  it.each<[string, unknown, string, string]>([
    ["repeatedInt32", 1, "json-type", "$.repeatedInt32"],
    ["repeatedInt32", { 0: 1 }, "json-type", "$.repeatedInt32"],
    ["repeatedInt32", [1, 2, 3, 1.5], "syntax", "$.repeatedInt32[3]"],
    ["repeatedInt64", ["1", "x"], "syntax", "$.repeatedInt64[1]"],
    [
      "repeatedTimestamp",
      ["1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z", "x"],
      "syntax",
      "$.repeatedTimestamp[3]",
    ],
    ["repeatedDuration", ["1s", "1"], "syntax", "$.repeatedDuration[1]"],
    ["repeatedNestedMessage", [{ a: 1 }, { b: 1 }], "unknown-field", "$.repeatedNestedMessage[1].b"],
    ["repeatedStruct", [[]], "json-type", "$.repeatedStruct[0]"],
    ["repeatedListValue", [{}], "json-type", "$.repeatedListValue[0]"],
    ["repeatedFieldmask", ["a", "a_b"], "mask-path", "$.repeatedFieldmask[1]"],
    ["repeatedBytesWrapper", ["AQ", "A"], "syntax", "$.repeatedBytesWrapper[1]"],
  ])("%s: %o is %s at %s", (field, json, rule, path) => {
    expect(catchWkt(() => read(TestAllTypesProto3, { [field]: json }))).toMatchObject({ rule, jsonPath: path });
  });
});

// ---------------------------------------------------------------------------------------------------------
// Field names: unknown, duplicate, both spellings

describe("field names", () => {
  it.each<[string, unknown]>([
    ["optional_int32", 1],
    ["optionalInt32", 1],
    ["field_name2", 2],
    ["fieldName2", 2],
    ["_field_name3", 3],
    ["FieldName3", 3],
    ["field__name4_", 4],
    ["fieldName4", 4],
    ["FIELD_NAME11", 11],
    ["FIELDNAME11", 11],
  ])("accepts %s", (key, value) => {
    const m = read(TestAllTypesProto3, { [key]: value });
    const field = TestAllTypesProto3.fields.find((f) => f.name === key || f.jsonName === key)!;
    expect(m[field.localName]).toBe(value);
  });

  it.each<[unknown, string]>([
    [{ unknownField: 1 }, "$.unknownField"],
    [{ OptionalInt32: 1 }, "$.OptionalInt32"], // names are case-sensitive
    [{ "optional-int32": 1 }, '$["optional-int32"]'],
    [{ "": 1 }, '$[""]'],
    [{ optionalNestedMessage: { a: 1, b: 2 } }, "$.optionalNestedMessage.b"],
    [{ repeatedNestedMessage: [{}, {}, { c: 1 }] }, "$.repeatedNestedMessage[2].c"],
    [{ mapStringNestedMessage: { "a b": { x: 1 } } }, '$.mapStringNestedMessage["a b"].x'],
    [{ recursiveMessage: { recursiveMessage: { nope: null } } }, "$.recursiveMessage.recursiveMessage.nope"],
    [
      { optionalAny: { "@type": "type.googleapis.com/protobuf_test_messages.proto3.ForeignMessage", d: 1 } },
      "$.optionalAny.d",
    ],
    [{ reserved_field: 1 }, "$.reserved_field"],
  ])("rejects an unknown member: %o (at %s)", (json, path) => {
    expect(catchWkt(() => read(TestAllTypesProto3, json))).toMatchObject({ rule: "unknown-field", jsonPath: path });
  });

  it("skips unknown members with ignoreUnknownFields, at every level", () => {
    const json = {
      unknownField: [1, { x: 2 }],
      optionalNestedMessage: { a: 1, b: 2 },
      optionalAny: { "@type": "type.googleapis.com/protobuf_test_messages.proto3.ForeignMessage", c: 3, d: 4 },
    };
    const m = read(TestAllTypesProto3, json, { ignoreUnknownFields: true });
    expect(m.optionalNestedMessage).toMatchObject({ a: 1 });
    expect(m.optionalAny).toMatchObject({ value: new Uint8Array([8, 3]) });
  });

  it.each<[unknown]>([
    [{ optionalInt32: 1, optional_int32: 2 }],
    [{ optional_int32: 1, optionalInt32: 2 }],
    [{ field_name2: 1, fieldName2: 1 }],
    [{ optionalNestedMessage: { corecursive: { repeatedInt32: [], repeated_int32: [] } } }],
  ])("rejects a field given under both its names: %o", (json) => {
    expect(catchWkt(() => read(TestAllTypesProto3, json))).toMatchObject({ rule: "duplicate-field" });
  });

  // BUG: a field given under both names is reported at the member that comes FIRST, not at the one that repeats
  // it. The text parser reports a repeated key at its second occurrence (and its line/column there), and the
  // error's own message names the names in the opposite order ('given twice, as "optional_int32" and
  // "optionalInt32"' for {"optionalInt32": 1, "optional_int32": 2}). Expected: the path of the later member.
  it.each<[string, string]>([
    ['{"optionalInt32": 1, "optional_int32": 2}', "$.optional_int32"],
    ['{"optional_int32": 1, "optionalInt32": 2}', "$.optionalInt32"],
  ])("reports a field given under both names at the repeating member: %s (%s)", (text, path) => {
    expect(catchWkt(() => readText(TestAllTypesProto3, text))).toMatchObject({
      rule: "duplicate-field",
      jsonPath: path,
    });
  });

  it("rejects a repeated key in JSON text, at its second occurrence", () => {
    expect(catchWkt(() => readText(TestAllTypesProto3, '{"optionalInt32": 1,\n"optionalInt32": 2}'))).toMatchObject({
      rule: "duplicate-field",
      jsonPath: "$.optionalInt32",
      line: 2,
      column: 1,
    });
  });
});

// ---------------------------------------------------------------------------------------------------------
// Type errors at every kind of field

describe("JSON types", () => {
  it.each<[unknown, string, string]>([
    [null, "json-type", "$"],
    [[], "json-type", "$"],
    ["x", "json-type", "$"],
    [{ optionalNestedMessage: "x" }, "json-type", "$.optionalNestedMessage"],
    [{ optionalNestedMessage: [] }, "json-type", "$.optionalNestedMessage"],
    [{ optionalNestedMessage: 1 }, "json-type", "$.optionalNestedMessage"],
    [{ optionalTimestamp: 0 }, "json-type", "$.optionalTimestamp"],
    [{ optionalDuration: 1 }, "json-type", "$.optionalDuration"],
    [{ optionalFieldMask: ["a"] }, "json-type", "$.optionalFieldMask"],
    [{ optionalStruct: [] }, "json-type", "$.optionalStruct"],
    [{ optionalStruct: "x" }, "json-type", "$.optionalStruct"],
    [{ optionalAny: [] }, "json-type", "$.optionalAny"],
    [{ optionalInt32Wrapper: "x" }, "syntax", "$.optionalInt32Wrapper"],
    [{ optionalBoolWrapper: "true" }, "json-type", "$.optionalBoolWrapper"],
    [{ optionalStringWrapper: 1 }, "json-type", "$.optionalStringWrapper"],
    [{ repeatedListValue: [{}] }, "json-type", "$.repeatedListValue[0]"],
    [{ optionalStruct: { a: NaN } }, "not-finite", "$.optionalStruct.a"],
    [{ optionalValue: Infinity }, "not-finite", "$.optionalValue"],
    [{ optionalTimestamp: "1970-01-01T00:00:00" }, "syntax", "$.optionalTimestamp"],
    [{ optionalTimestamp: "10000-01-01T00:00:00Z" }, "syntax", "$.optionalTimestamp"],
    [{ optionalDuration: "315576000001s" }, "range", "$.optionalDuration"],
    [{ optionalFieldMask: "a_b" }, "mask-path", "$.optionalFieldMask"],
  ])("%o is %s at %s", (json, rule, path) => {
    expect(catchWkt(() => read(TestAllTypesProto3, json))).toMatchObject({ rule, jsonPath: path });
  });
});

// ---------------------------------------------------------------------------------------------------------
// Depth and size limits

function nestedObject(levels: number): unknown {
  let o: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) o = { recursiveMessage: o };
  return o;
}

function nestedText(levels: number): string {
  return '{"recursiveMessage":'.repeat(levels - 1) + "{}" + "}".repeat(levels - 1);
}

describe("depth", () => {
  const at = (levels: number) => "$" + ".recursiveMessage".repeat(levels);

  it.each<[number | undefined, number]>([
    [undefined, 100],
    [1, 1],
    [5, 5],
    [50, 50],
  ])("maxDepth %s: %i nested messages are fine, one more is rule depth", (maxDepth, limit) => {
    const options = maxDepth === undefined ? {} : { maxDepth };
    expect(read(TestAllTypesProto3, nestedObject(limit), options).$typeName).toBe(TestAllTypesProto3.typeName);
    expect(readText(TestAllTypesProto3, nestedText(limit), options).$typeName).toBe(TestAllTypesProto3.typeName);
    expect(catchWkt(() => read(TestAllTypesProto3, nestedObject(limit + 1), options))).toMatchObject({
      rule: "depth",
      jsonPath: at(limit),
    });
    expect(catchWkt(() => readText(TestAllTypesProto3, nestedText(limit + 1), options))).toMatchObject({
      rule: "depth",
      jsonPath: at(limit),
    });
  });

  it("counts messages through nested messages, lists and maps", () => {
    const json = {
      optionalNestedMessage: {
        corecursive: { repeatedNestedMessage: [{ corecursive: { mapStringNestedMessage: { k: {} } } }] },
      },
    };
    expect(() => read(TestAllTypesProto3, json, { maxDepth: 6 })).not.toThrow();
    expect(catchWkt(() => read(TestAllTypesProto3, json, { maxDepth: 5 }))).toMatchObject({
      rule: "depth",
      jsonPath: "$.optionalNestedMessage.corecursive.repeatedNestedMessage[0].corecursive.mapStringNestedMessage.k",
    });
  });

  it.each<[unknown, number, string]>([
    [{ optionalStruct: {} }, 1, "$.optionalStruct"],
    [{ optionalStruct: { a: {} } }, 2, "$.optionalStruct.a"],
    [{ optionalStruct: { a: [] } }, 2, "$.optionalStruct.a"],
    [{ optionalValue: [] }, 1, "$.optionalValue"],
    [{ repeatedValue: [1, [[]]] }, 2, "$.repeatedValue[1][0]"],
    [{ optionalTimestamp: "1970-01-01T00:00:00Z" }, 1, "$.optionalTimestamp"],
    [
      { optionalAny: { "@type": "type.googleapis.com/google.protobuf.Duration", value: "1s" } },
      2,
      "$.optionalAny.value",
    ],
  ])("Struct, Value and well-known types count too: %o at maxDepth %i", (json, maxDepth, path) => {
    expect(() => read(TestAllTypesProto3, json, { maxDepth: maxDepth + 1 })).not.toThrow();
    expect(catchWkt(() => read(TestAllTypesProto3, json, { maxDepth }))).toMatchObject({
      rule: "depth",
      jsonPath: path,
    });
  });

  it("100,000 levels of JSON text are rule depth, not a stack overflow", () => {
    const e = catchWkt(() => readText(TestAllTypesProto3, nestedText(100_000)));
    expect(e.rule).toBe("depth");
    expect(e.jsonPath).toMatch(/^\$(\.recursiveMessage){100,}$/);
    expect(e.line).toBe(1);
  });

  // Issue 14: very deep text said "more than 202 nested objects and arrays" (the parser's own bound) while the
  // limit the caller knows is maxDepth (100): the detail names maxDepth and its configured value.
  it.each<[number | undefined, string]>([
    [undefined, "maxDepth (100)"],
    [7, "maxDepth (7)"],
    [1_000, "maxDepth (1,000)"],
  ])("very deep text at maxDepth %s is rule depth naming %s", (maxDepth, named) => {
    const options = maxDepth === undefined ? {} : { maxDepth };
    const text = `{"optionalValue": ${"[".repeat(5_000)}${"]".repeat(5_000)}}`;
    const e = catchWkt(() => readText(TestAllTypesProto3, text, options));
    expect(e).toMatchObject({ rule: "depth", line: 1 });
    expect(e.jsonPath).toMatch(/^\$\.optionalValue(\[0\])+$/);
    expect(e.detail).toContain(named);
    const issues = validateJsonString(TestAllTypesProto3, text, { registry: testRegistry, ...options });
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ rule: "depth", jsonPath: e.jsonPath });
    expect(issues[0]!.detail).toContain(named);
  });

  it("100,000 levels of a JS value are rule depth, not a stack overflow", () => {
    expect(catchWkt(() => read(TestAllTypesProto3, nestedObject(100_000)))).toMatchObject({
      rule: "depth",
      jsonPath: at(100),
    });
  });

  it("100,000 levels of arrays in a google.protobuf.Value are rule depth", () => {
    const text = `{"optionalValue": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
    expect(catchWkt(() => readText(TestAllTypesProto3, text)).rule).toBe("depth");
  });

  // BUG: with a maxDepth above what the recursive reader can take, deep input overflows the call stack and a
  // RangeError escapes fromJson/fromJsonString. JsonReadOptions.maxDepth promises "Deeper input is our error
  // (rule depth), never a stack overflow"; STYLE.md: no RangeError or stack overflow reaches a caller. Either
  // decode it or throw WktJsonError (e.g. catch the overflow at the boundary, or cap maxDepth). maxDepth is not
  // validated either: NaN switches the limit off (`++depth > NaN` is never true), where struct.ts rejects it.
  it.each<[string, () => unknown]>([
    ["fromJsonString, maxDepth 1e6", () => readText(TestAllTypesProto3, nestedText(100_000), { maxDepth: 1_000_000 })],
    ["fromJson, maxDepth 1e6", () => read(TestAllTypesProto3, nestedObject(100_000), { maxDepth: 1_000_000 })],
    ["fromJson, maxDepth NaN", () => read(TestAllTypesProto3, nestedObject(100_000), { maxDepth: NaN })],
  ])("%s: deep input never lets a stack overflow escape", (_, run) => {
    try {
      run();
    } catch (e) {
      expect(isWktJsonError(e)).toBe(true);
    }
  });

  it("maxLength limits the text (rule size)", () => {
    expect(readText(TestAllTypesProto3, '{"optionalInt32": 1}', { maxLength: 20 }).optionalInt32).toBe(1);
    expect(catchWkt(() => readText(TestAllTypesProto3, '{"optionalInt32": 1}', { maxLength: 19 }))).toMatchObject({
      rule: "size",
      jsonPath: "$",
    });
  });
});

// ---------------------------------------------------------------------------------------------------------
// Paths, lines and columns

describe("error paths and positions", () => {
  it.each<[string, string, string, number, number]>([
    ['{"optionalInt32": "x"}', "syntax", "$.optionalInt32", 1, 19],
    ['{\n  "optionalInt32": 1,\n  "repeatedTimestamp": ["x"]\n}', "syntax", "$.repeatedTimestamp[0]", 3, 25],
    ['{\r\n  "unknown": 1\r\n}', "unknown-field", "$.unknown", 2, 14],
    [
      '{"repeatedTimestamp": ["1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z",\n "1970-01-01T00:00:00Z", "x"]}',
      "syntax",
      "$.repeatedTimestamp[3]",
      2,
      26,
    ],
    ['{"mapStringNestedMessage": {"a b": {"a": "x"}}}', "syntax", '$.mapStringNestedMessage["a b"].a', 1, 42],
    [
      '{"optionalAny": {"@type": "type.googleapis.com/google.protobuf.Duration", "value": "x"}}',
      "syntax",
      "$.optionalAny.value",
      1,
      84,
    ],
    ['{"optionalAny": {"@type": "x/y.Z"}}', "unknown-type", '$.optionalAny["@type"]', 1, 27],
    ['{"optionalStruct": {"a": [1, "\\ud800"]}}', "utf16", "$.optionalStruct.a[1]", 1, 30],
    ['{"mapInt32Int32": {"1e2": 1}}', "syntax", '$.mapInt32Int32["1e2"]', 1, 27],
    ['{"oneofUint32": 1, "oneofString": "a"}', "oneof", "$.oneofString", 1, 35],
    ['{"optionalInt32": 1,}', "syntax", "$", 1, 21],
    ['{"optionalInt32": [1}', "syntax", "$.optionalInt32", 1, 21],
    ["", "syntax", "$", 1, 1],
    ["{} x", "syntax", "$", 1, 4],
  ])("%s: %s at %s, line %i column %i", (text, rule, path, line, column) => {
    expect(catchWkt(() => readText(TestAllTypesProto3, text))).toMatchObject({ rule, jsonPath: path, line, column });
  });

  it("fromJson errors carry no position", () => {
    const e = catchWkt(() => read(TestAllTypesProto3, { optionalInt32: "x" }));
    expect(e.line).toBeUndefined();
    expect(e.column).toBeUndefined();
  });
});

// ---------------------------------------------------------------------------------------------------------
// __proto__

describe("__proto__ is an ordinary key", () => {
  const cases: [string, string, (m: Fields) => object][] = [
    ["map<string, string>", '{"mapStringString": {"__proto__": "x"}}', (m) => m.mapStringString as object],
    [
      "map<string, message>",
      '{"mapStringNestedMessage": {"__proto__": {"a": 1}}}',
      (m) => m.mapStringNestedMessage as object,
    ],
    ["Struct field", '{"optionalStruct": {"__proto__": {"polluted": "yes"}}}', (m) => m.optionalStruct as object],
    [
      "Struct in a list",
      '{"repeatedStruct": [{"__proto__": {"polluted": "yes"}}]}',
      (m) => (m.repeatedStruct as object[])[0]!,
    ],
    [
      "Struct in a Value",
      '{"optionalValue": {"__proto__": {"polluted": "yes"}}}',
      (m) => (m.optionalValue as { kind: { value: { fields: object } } }).kind.value.fields,
    ],
  ];

  it.each(cases)("%s, from JSON text and from JSON.parse", (_, text, get) => {
    for (const m of [readText(TestAllTypesProto3, text), read(TestAllTypesProto3, JSON.parse(text))]) {
      const container = get(m);
      expect(Object.keys(container)).toEqual(["__proto__"]);
      expect(Object.prototype.hasOwnProperty.call(container, "__proto__")).toBe(true);
      const proto: unknown = Object.getPrototypeOf(container);
      expect(proto === Object.prototype || proto === null).toBe(true);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect((Object.prototype as Record<string, unknown>).a).toBeUndefined();
    }
  });

  it("is not a field of a message", () => {
    expect(catchWkt(() => readText(TestAllTypesProto3, '{"__proto__": {"optionalInt32": 1}}'))).toMatchObject({
      rule: "unknown-field",
      jsonPath: "$.__proto__",
    });
  });
});

// ---------------------------------------------------------------------------------------------------------
// Struct fields from text: the parsed tree is taken in place of a copy

describe("a Struct field from text equals the copy from JSON.parse", () => {
  const outcome = (f: () => Fields): unknown => {
    try {
      const m = f();
      return { ok: m.optionalStruct, list: m.repeatedStruct };
    } catch (e) {
      if (!isWktJsonError(e)) throw e;
      return { rule: e.rule, jsonPath: e.jsonPath };
    }
  };
  it.each<[string, Partial<JsonReadOptions>?]>([
    ['{"optionalStruct": {"a": 12345678901234567890, "b": [-9007199254740993, {"c": 9.223372036854775807e18}]}}'],
    ['{"optionalStruct": {"a": 1e400}}'],
    ['{"optionalStruct": {"a": [1, [2, 1e400]]}}'],
    ['{"optionalStruct": {"a": 123456789012345678901234567890123456789012345678901234567890}}'],
    ['{"optionalStruct": {"\\ud800": 1}}'],
    ['{"optionalStruct": {"a": {"b": ["x", "\\udc00"]}}}'],
    [
      '{"optionalStruct": {"a": -0, "b": null, "c": true, "d": {}, "e": []}, "repeatedStruct": [{"x": 18446744073709551615}, {}]}',
    ],
    ['{"optionalStruct": {"a": {"b": {"c": {}}}}}', { maxDepth: 3 }],
    ['{"optionalStruct": {"a": {"b": {"c": {}}}}}', { maxDepth: 5 }],
    ['{"optionalStruct": {"a": [[[1]]]}}', { maxDepth: 5 }],
    ['{"optionalStruct": {"a": [[[1]]]}}', { maxDepth: 3 }],
    ['{"optionalStruct": {"a": [1, 2, 3], "b": 18446744073709551615}}', { maxValues: 158 }],
    ['{"optionalStruct": {"a": [1, 2, 3], "b": 18446744073709551615}}', { maxValues: 157 }],
    ['{"optionalStruct": {"a": [1, 2, 3], "b": 18446744073709551615}, "optionalInt32": "x"}', { maxValues: 158 }],
  ])("%s %o", (text, options) => {
    const fromText = outcome(() => readText(TestAllTypesProto3, text, options));
    expect(fromText).toEqual(outcome(() => read(TestAllTypesProto3, JSON.parse(text), options)));
  });

  it("reads own members only, even when Object.prototype has an enumerable member", () => {
    const text = '{"optionalInt32": 1, "optionalNestedMessage": {"a": 2}, "optionalStruct": {"k": [1, {"x": 2}]}}';
    const clean = readText(TestAllTypesProto3, text);
    (Object.prototype as Record<string, unknown>).optionalString = "polluted";
    try {
      const m = readText(TestAllTypesProto3, text);
      expect(m).toEqual(clean);
      expect(Object.prototype.hasOwnProperty.call(m, "optionalString") && m.optionalString !== "").toBe(false);
      expect(catchWkt(() => readText(TestAllTypesProto3, '{"optionalInt32": 1, "x": 2}'))).toMatchObject({
        rule: "unknown-field",
        jsonPath: "$.x",
      });
    } finally {
      delete (Object.prototype as Record<string, unknown>).optionalString;
    }
  });

  it("keeps no bigint and gives each call a tree of its own", () => {
    const text = '{"optionalStruct": {"a": [18446744073709551615], "b": {"c": -18446744073709551615}}}';
    const a = readText(TestAllTypesProto3, text).optionalStruct as { a: unknown[]; b: { c: unknown } };
    const b = readText(TestAllTypesProto3, text).optionalStruct;
    expect(a).toEqual({ a: [18446744073709551615], b: { c: -18446744073709551615 } });
    expect(a).not.toBe(b);
    expect(Object.getPrototypeOf(a)).toBe(Object.prototype);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Proto2 and editions specifics

describe("proto2 and editions", () => {
  it("reads groups under their field names", () => {
    const m = read(TestAllTypesProto2, {
      data: { groupInt32: 1, group_uint32: 2 },
      multiwordgroupfield: { groupInt32: 3 },
    });
    expect(m.data).toMatchObject({ groupInt32: 1, groupUint32: 2 });
    expect(m.multiwordgroupfield).toMatchObject({ groupInt32: 3 });
    const e = read(TestAllTypesEdition2023, { groupliketype: { groupInt32: 1 }, delimitedField: { groupUint32: 2 } });
    expect(e.groupliketype).toMatchObject({ groupInt32: 1 });
    expect(e.delimitedField).toMatchObject({ groupUint32: 2 });
  });

  it("leaves absent fields absent, so their declared defaults show", () => {
    const m = read(TestAllTypesProto2, {});
    expect(Object.prototype.hasOwnProperty.call(m, "defaultInt32")).toBe(false);
    expect(m.defaultInt32).toBe(-123456789);
    expect(m.defaultString).toBe("Rosebud");
  });

  it("closed enums of editions' proto2 twin take undeclared numbers, and refuse what is not an int32", () => {
    expect(read(TestAllTypesProto2Editions, { repeatedNestedEnum: [77] }).repeatedNestedEnum).toEqual([77]);
    expect(catchWkt(() => read(TestAllTypesProto2Editions, { optionalNestedEnum: -2147483649 }))).toMatchObject({
      rule: "enum",
      jsonPath: "$.optionalNestedEnum",
    });
  });
});

describe("extensions", () => {
  const key = "[protobuf_test_messages.proto2.extension_int32]";
  const ext = testRegistry.getExtension("protobuf_test_messages.proto2.extension_int32")!;

  it("reads an extension under its [full.name] key through the registry", () => {
    const m = read(TestAllTypesProto2, { [key]: 5, optionalInt32: 1 });
    expect(getExtension(m as never, ext)).toBe(5);
    expect(m.optionalInt32).toBe(1);
  });

  it.each<[DescMessage, unknown, Partial<JsonReadOptions>, string, string]>([
    [TestAllTypesProto2, { [key]: 5 }, { registry: createRegistry() }, "unknown-field", `$[${JSON.stringify(key)}]`], // a registry without it
    [TestAllTypesProto2, { [key]: "x" }, {}, "syntax", `$[${JSON.stringify(key)}]`],
    [TestAllTypesProto2, { "[acme.unknown]": 5 }, {}, "unknown-field", '$["[acme.unknown]"]'],
    [TestAllTypesProto3, { [key]: 5 }, {}, "unknown-field", `$[${JSON.stringify(key)}]`], // extends another message
  ])("%s %o is %s", (desc, json, options, rule, path) => {
    expect(catchWkt(() => read(desc, json, options))).toMatchObject({ rule, jsonPath: path });
  });

  it("skips unknown extensions with ignoreUnknownFields", () => {
    expect(read(TestAllTypesProto2, { "[acme.unknown]": 5 }, { ignoreUnknownFields: true }).$typeName).toBe(
      TestAllTypesProto2.typeName,
    );
  });

  it("gives the line and column of a bad extension value", () => {
    expect(catchWkt(() => readText(TestAllTypesProto2, `{"${key}": "x"}`))).toMatchObject({
      rule: "syntax",
      line: 1,
      column: key.length + 6,
    });
  });
});

describe("messages that set few fields are what protobuf-es makes", () => {
  // The reader starts such messages from a copy of a zero message that already has the members their keys add
  // (src/codec/zero-message.ts) and deletes those left unset; the result must be create()'s, member order
  // included.
  function expectSameAsEs(desc: DescMessage, json: Record<string, unknown>, options?: Partial<JsonReadOptions>): void {
    const ours = read(desc, json, options);
    const theirs = esFromJson(desc, json as JsonValue, { registry: testRegistry, ...options });
    expect(ours).toStrictEqual(theirs);
    expect(Object.keys(ours)).toEqual(Object.keys(theirs));
  }

  it.each<[string, DescMessage, Record<string, unknown>]>([
    ["a nested message", TestAllTypesProto3, { optionalInt32: 1, optionalNestedMessage: { a: 2 } }],
    [
      "two message fields in field order",
      TestAllTypesProto3,
      { optionalNestedMessage: { a: 2 }, optionalTimestamp: "1970-01-01T00:00:01Z" },
    ],
    [
      "two message fields the other way round",
      TestAllTypesProto3,
      { optionalTimestamp: "1970-01-01T00:00:01Z", optionalNestedMessage: { a: 2 } },
    ],
    ["a message field given null, not set", TestAllTypesProto3, { optionalNestedMessage: null, optionalInt32: 1 }],
    [
      "a null between two set ones",
      TestAllTypesProto3,
      { optionalForeignMessage: { c: 1 }, optionalNestedMessage: null, optionalDuration: "1s" },
    ],
    ["a Value given null, set to NULL_VALUE", TestAllTypesProto3, { optionalValue: null }],
    ["a message under its proto name", TestAllTypesProto3, { optional_nested_message: { a: 3 } }],
    [
      "editions: explicit presence scalars",
      TestAllTypesEdition2023,
      { optionalInt32: 0, optionalString: "", optionalNestedMessage: { a: 1 } },
    ],
    ["proto2: defaults on the prototype", TestAllTypesProto2, { optionalInt32: 5, optionalNestedMessage: { a: 1 } }],
  ])("%s", (_, desc, json) => {
    expectSameAsEs(desc, json);
  });

  it("an enum name skipped under ignoreUnknownFields leaves its field unset", () => {
    const json = { optionalNestedEnum: "NO_SUCH_VALUE", optionalNestedMessage: { a: 1 } };
    expectSameAsEs(TestAllTypesEdition2023, json, { ignoreUnknownFields: true });
    expect(Object.keys(read(TestAllTypesEdition2023, json, { ignoreUnknownFields: true }))).not.toContain(
      "optionalNestedEnum",
    );
  });

  it("stays right past the number of member lists kept per type (32)", () => {
    const fields = [
      "optionalNestedMessage",
      "optionalForeignMessage",
      "optionalTimestamp",
      "optionalDuration",
      "optionalFieldMask",
      "optionalStruct",
    ];
    const values: Record<string, unknown> = {
      optionalNestedMessage: { a: 1 },
      optionalForeignMessage: { c: 2 },
      optionalTimestamp: "1970-01-01T00:00:00Z",
      optionalDuration: "2s",
      optionalFieldMask: "a,b",
      optionalStruct: { k: [1] },
    };
    // Every non-empty subset of the six, in two orders: 126 different lists.
    for (let bits = 1; bits < 64; bits++) {
      const subset = fields.filter((_, i) => (bits & (1 << i)) !== 0);
      for (const order of [subset, subset.slice().reverse()]) {
        expectSameAsEs(TestAllTypesProto3, Object.fromEntries(order.map((k) => [k, values[k]])));
      }
    }
  });
});

describe("maxValues: the memory budget", () => {
  // Units of 8 bytes (internal/budget.ts). TestAllTypesProto3: its object of 125 members (129), 65 lists (4 each),
  // 19 maps (7 each) and a oneof holder (4): 526; 652 more when create() makes it (a member added, or more than
  // 16 given). NestedMessage 6. A caller's own maxValues is a fixed cap: nothing is earned.
  const top = 526;
  const upgrade = 652;
  const nested = 6;
  const both = (desc: DescMessage, text: string, maxValues?: number): [unknown, unknown] => {
    const run = (f: () => unknown): unknown => {
      try {
        f();
        return "ok";
      } catch (e) {
        if (!isWktJsonError(e)) throw e;
        return { rule: e.rule, jsonPath: e.jsonPath };
      }
    };
    const options = maxValues === undefined ? undefined : { maxValues };
    return [run(() => read(desc, JSON.parse(text), options)), run(() => readText(desc, text, options))];
  };

  it.each<[string, DescMessage, string, number, string]>([
    ["a message: its object, lists, maps and oneof holder", TestAllTypesProto3, "{}", top, "$"],
    [
      "a nested message: a member added (create() then makes the message), and its message",
      TestAllTypesProto3,
      '{"optionalNestedMessage":{"a":1}}',
      top + upgrade + 3 + nested,
      "$.optionalNestedMessage",
    ],
    ["list elements, a slot (2) each", TestAllTypesProto3, '{"repeatedInt32":[1,2,3]}', top + 6, "$.repeatedInt32"],
    [
      "int64 elements, a slot and a bigint (3)",
      TestAllTypesProto3,
      '{"repeatedInt64":[1,2]}',
      top + 10,
      "$.repeatedInt64",
    ],
    [
      "bytes elements, a slot and a Uint8Array (25)",
      TestAllTypesProto3,
      '{"repeatedBytes":["",""]}',
      top + 54,
      "$.repeatedBytes",
    ],
    [
      "message elements, a slot each and their messages",
      TestAllTypesProto3,
      '{"repeatedNestedMessage":[{},{}]}',
      top + 4 + 2 * nested,
      "$.repeatedNestedMessage[1]",
    ],
    ["map entries, 6 each", TestAllTypesProto3, '{"mapInt32Int32":{"1":1,"2":2}}', top + 12, '$.mapInt32Int32["2"]'],
    ["a singular int64, a bigint", TestAllTypesProto3, '{"optionalInt64":"1"}', top + 3, "$.optionalInt64"],
    ["a Value, 12", TestAllTypesProto3, '{"optionalValue":"x"}', top + upgrade + 3 + 12, "$.optionalValue"],
    [
      "a ListValue in a Value: 9, a slot and a Value per element",
      TestAllTypesProto3,
      '{"optionalValue":[1,2]}',
      top + upgrade + 3 + 12 + 11 + 24,
      "$.optionalValue",
    ],
    [
      "a Struct field (plain JSON): an object 7, a member 6, an array 4 and 3 per element",
      TestAllTypesProto3,
      '{"optionalStruct":{"a":[1,2]}}',
      top + upgrade + 3 + 7 + 6 + 10,
      "$.optionalStruct.a",
    ],
    [
      "a Timestamp: its object and a bigint",
      TestAllTypesProto3,
      '{"repeatedTimestamp":["1970-01-01T00:00:00Z"]}',
      top + 2 + 10,
      "$.repeatedTimestamp[0]",
    ],
    ["a Struct message: 12, and 18 per member", StructSchema, '{"a":{"b":1}}', 12 + 18 + 12 + 18, "$.a.b"],
    ["a ListValue message", ListValueSchema, "[1,[2]]", 11 + 24 + 10 + 12, "$[1]"],
    ["a Value message", ValueSchema, '{"a":1}', 12 + 12 + 18, "$.a"],
  ])("%s: maxValues at the cost decodes, one less is rule size", (_, desc, text, cost, path) => {
    expect(both(desc, text, cost)).toEqual(["ok", "ok"]);
    expect(both(desc, text, cost + 1)).toEqual(["ok", "ok"]);
    expect(both(desc, text, cost - 1)).toEqual([
      { rule: "size", jsonPath: path },
      { rule: "size", jsonPath: path },
    ]);
  });

  it("the error names maxValues and its value; validateJson* end with the same issue", () => {
    const text = '{"repeatedInt32":[1,2,3]}';
    const e = catchWkt(() => readText(TestAllTypesProto3, text, { maxValues: top + 5 }));
    expect(e).toMatchObject({ rule: "size", jsonPath: "$.repeatedInt32", line: 1, column: 18 });
    expect(e.detail).toContain("maxValues (531) units of 8 bytes");
    for (const issues of [
      validateJsonString(TestAllTypesProto3, text, { registry: testRegistry, maxValues: top + 5 }),
      validateJson(TestAllTypesProto3, JSON.parse(text) as JsonValue, { registry: testRegistry, maxValues: top + 5 }),
    ]) {
      expect(issues).toEqual([
        expect.objectContaining({ rule: "size", jsonPath: "$.repeatedInt32", detail: e.detail }),
      ]);
    }
    expect(validateJsonString(TestAllTypesProto3, text, { registry: testRegistry, maxValues: top + 6 })).toEqual([]);
  });

  it("counts Any (its object and bytes, 32) and the message inside it", () => {
    const text = '{"optionalAny":{"@type":"type.googleapis.com/protobuf_test_messages.proto3.TestAllTypesProto3"}}';
    const cost = top + upgrade + 3 + 32 + top;
    expect(both(TestAllTypesProto3, text, cost)).toEqual(["ok", "ok"]);
    expect(both(TestAllTypesProto3, text, cost - 1)).toEqual([
      { rule: "size", jsonPath: "$.optionalAny" },
      { rule: "size", jsonPath: "$.optionalAny" },
    ]);
  });

  it.each([-1, 1.5, NaN, "1" as unknown as number])("rejects maxValues %s (rule range)", (maxValues) => {
    expect(catchWkt(() => read(TestAllTypesProto3, {}, { maxValues }))).toMatchObject({ rule: "range", jsonPath: "$" });
    expect(catchWkt(() => readText(TestAllTypesProto3, "{}", { maxValues }))).toMatchObject({
      rule: "range",
      jsonPath: "$",
    });
  });

  it("maxValues 0 refuses every message; Infinity switches the budget off", () => {
    expect(catchWkt(() => readText(TestAllTypesProto3, "{}", { maxValues: 0 }))).toMatchObject({
      rule: "size",
      jsonPath: "$",
    });
    const text = `{"repeatedNestedMessage":[${Array(20_000).fill('{"corecursive":{}}').join(",")}]}`;
    expect(catchWkt(() => readText(TestAllTypesProto3, text)).rule).toBe("size");
    expect(
      (readText(TestAllTypesProto3, text, { maxValues: Infinity }).repeatedNestedMessage as unknown[]).length,
    ).toBe(20_000);
  });

  it("default: 4,000,000 plus 6 per code unit of JSON text, earned from the value: a text and its value agree", () => {
    // Each element: a slot, NestedMessage with a member added (6 + 3 + 3) and a TestAllTypesProto3 (526): 540
    // units; it earns 2 + 16 code units (its separator and value, the member "corecursive" with quotes, colon and
    // value), 108 units: 432 more than it earns. The list earns its elements' 2 up front (-10 each with their
    // slots), the root 526 - 6 x 26: of 10,000 elements, the 9,276th runs past 4,000,000 + 100,000 - 370 (442
    // each at its checks, 442 x 9,276).
    const list = (n: number): string => `{"repeatedNestedMessage":[${Array(n).fill('{"corecursive":{}}').join(",")}]}`;
    expect(both(TestAllTypesProto3, list(9_000))).toEqual(["ok", "ok"]);
    expect(both(TestAllTypesProto3, list(10_000))).toEqual([
      { rule: "size", jsonPath: "$.repeatedNestedMessage[9275].corecursive" },
      { rule: "size", jsonPath: "$.repeatedNestedMessage[9275].corecursive" },
    ]);
    // Empty NestedMessages (7 units for 3 code units, which earn 12) and int64 lists (5 for 2) of any length.
    expect(both(TestAllTypesProto3, `{"repeatedNestedMessage":[${Array(600_000).fill("{}").join(",")}]}`)).toEqual([
      "ok",
      "ok",
    ]);
    const ints = `{"repeatedInt64":[${Array(1_000_000).fill("1").join(",")}]}`;
    expect((readText(TestAllTypesProto3, ints).repeatedInt64 as unknown[]).length).toBe(1_000_000);
  });
});

describe("maxValues in validateJson*", () => {
  it("a leaf that spends the last of the budget ends the walk with one size issue", () => {
    // 526 + 3 elements of 2 + 3 Timestamps of 10: 562.
    const text = '{"repeatedTimestamp":["1970-01-01T00:00:00Z","1970-01-01T00:00:00Z","1970-01-01T00:00:00Z"]}';
    expect(validateJsonString(TestAllTypesProto3, text, { registry: testRegistry, maxValues: 562 })).toEqual([]);
    const issues = validateJsonString(TestAllTypesProto3, text, { registry: testRegistry, maxValues: 545 });
    expect(issues).toEqual([expect.objectContaining({ rule: "size", jsonPath: "$.repeatedTimestamp[1]" })]);
    expect(catchWkt(() => readText(TestAllTypesProto3, text, { maxValues: 545 }))).toMatchObject({
      rule: "size",
      jsonPath: "$.repeatedTimestamp[1]",
    });
  });
});

describe("the registry option", () => {
  // Checked up front, as toJson checks it: before, an object without getExtension threw a TypeError at the first
  // extension key ("[a.b]") and was accepted when nothing needed it.
  it.each<[string, () => unknown]>([
    ["fromJson", () => fromJson(StructSchema, {}, { registry: {} as never })],
    ["fromJsonString", () => fromJsonString(StructSchema, "{}", { registry: {} as never })],
    ["validateJson", () => validateJson(StructSchema, {}, { registry: {} as never })],
    ["validateJsonString", () => validateJsonString(StructSchema, "{}", { registry: {} as never })],
  ])("%s refuses a registry that is not a Registry", (_, call) => {
    expect(catchWkt(call)).toMatchObject({ rule: "json-type", jsonPath: "$", typeName: "options" });
  });
});

describe("a registry without getExtension", () => {
  // It passed the up-front check (getMessage and getExtensionFor only), then an extension key reached
  // registry.getExtension and a TypeError escaped.
  const partial = { getMessage: () => undefined, getExtensionFor: () => undefined } as never;
  it.each<[string, () => unknown]>([
    ["fromJson", () => fromJson(StructSchema, {}, { registry: partial })],
    ["fromJsonString", () => fromJsonString(StructSchema, "{}", { registry: partial })],
    ["validateJson", () => validateJson(StructSchema, {}, { registry: partial })],
    ["toJson", () => toJson(StructSchema, create(StructSchema), { registry: partial })],
  ])("%s refuses it up front", (_, call) => {
    expect(catchWkt(call)).toMatchObject({ rule: "json-type", jsonPath: "$", typeName: "options" });
  });
});

// Issue 28: "`fromJsonString` and the other text entry points take the base `path` too (`$.Definition` for a
// JSON document inside a form field), like the standalone helpers."
describe("the path option: where the JSON sits in the caller's document", () => {
  const M = TestAllTypesProto3;
  const text = '{\n  "repeatedInt32": [1, "x"]\n}';
  const at = { jsonPath: "$.Definition.repeatedInt32[1]", path: ["Definition", "repeatedInt32", 1] };

  it("fromJsonString and fromJson report under it, line and column kept", () => {
    const e = catchWkt(() => fromJsonString(M, text, { path: "$.Definition" }));
    expect(e).toMatchObject({ rule: "syntax", ...at, line: 2, column: 24 });
    expect(e.message).toBe(`int32 at $.Definition.repeatedInt32[1]: ${e.detail}`);
    expect(catchWkt(() => fromJson(M, JSON.parse(text), { path: "$.Definition" }))).toMatchObject({
      rule: "syntax",
      ...at,
    });
    // Without the option, at the root as before.
    expect(catchWkt(() => fromJsonString(M, text))).toMatchObject({ jsonPath: "$.repeatedInt32[1]", line: 2 });
  });

  it("a base with any key, and text that is not JSON, at the base itself", () => {
    const base = '$.forms[3]["flow definition"]';
    expect(catchWkt(() => fromJsonString(M, '{"optionalInt32": 1.5}', { path: base }))).toMatchObject({
      jsonPath: `${base}.optionalInt32`,
      path: ["forms", 3, "flow definition", "optionalInt32"],
    });
    expect(catchWkt(() => fromJsonString(M, "{", { path: "$.Definition" }))).toMatchObject({
      rule: "syntax",
      jsonPath: "$.Definition",
      path: ["Definition"],
      line: 1,
    });
  });

  it("validateJsonString and validateJson list their issues under it", () => {
    for (const issues of [
      validateJsonString(M, text, { path: "$.Definition" }),
      validateJson(M, JSON.parse(text), { path: "$.Definition" }),
    ]) {
      expect(issues).toEqual([expect.objectContaining({ rule: "syntax", ...at })]);
      expect(issues[0]!.message).toBe(`int32 at $.Definition.repeatedInt32[1]: ${issues[0]!.detail}`);
    }
    expect(validateJsonString(M, text, { path: "$.Definition" })[0]).toMatchObject({ line: 2, column: 24 });
    expect(validateJsonString(M, '{"optionalInt32": 1, "optionalInt32": 2}', { path: "$.Definition" })).toEqual([
      expect.objectContaining({
        rule: "duplicate-field",
        jsonPath: "$.Definition.optionalInt32",
        path: ["Definition", "optionalInt32"],
      }),
    ]);
  });

  it("mergeFromJsonString reads under it, and leaves the target unchanged", () => {
    const target = create(M, { optionalInt32: 1 });
    expect(catchWkt(() => mergeFromJsonString(M, target, text, { path: "$.Definition" }))).toMatchObject(at);
    expect((target as unknown as { repeatedInt32: number[] }).repeatedInt32).toEqual([]);
  });

  it("an option's own error stays at $, and a path that is not a JSON path is refused", () => {
    expect(catchWkt(() => fromJsonString(M, text, { path: "$.Definition", maxDepth: -1 }))).toMatchObject({
      rule: "range",
      jsonPath: "$",
      typeName: "options",
    });
    for (const path of ["Definition", "$Definition", "$.a[", 7]) {
      expect(catchWkt(() => fromJsonString(M, "{}", { path } as never))).toMatchObject({
        rule: "range",
        jsonPath: "$",
        typeName: "options",
      });
      expect(catchWkt(() => validateJsonString(M, "{}", { path } as never))).toMatchObject({ rule: "range" });
    }
  });
});
