// Hostile and boundary inputs for every well-known type and a general message, each with its expected
// outcome: the canonical JSON it decodes to, or the rule and path of the error. Read by table.test.ts.
//
// Where the spec (/work/shared/spec/wkt.md and the proto3 JSON mapping) decides, a row says nothing or names
// the official conformance test that pins it (`conformance: Name`; the C++ and Go references pass those).
// Where it is silent, the row follows the protobuf reference implementation and says which:
//   C++     src/google/protobuf/json/internal/parser.cc and lexer.cc (json_util)
//   Go      google.golang.org/protobuf/encoding/protojson (decode.go, well_known_types.go) and
//           internal/encoding/json
// and where the two disagree, which one we follow and why. The closing note of the issue lists those rows.

import type { DescMessage, JsonValue } from "@bufbuild/protobuf";
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
import type { WktRule } from "../../src/errors.js";
import type { JsonReadOptions } from "../../src/codec/from-json.js";
import { TestAllTypesProto3 } from "../conformance-registry.js";

/** What decoding the text gives: canonical JSON (`toJson` of the message), or an error's rule and path. */
export type Outcome = { json: JsonValue } | { rule: WktRule; jsonPath: string };

export interface Case {
  /** Group, for the test name. */
  group: string;
  schema: DescMessage;
  /** The JSON text, exactly as it reaches `fromJsonString`. */
  text: string;
  expect: Outcome;
  options?: Partial<JsonReadOptions>;
}

const cases: Case[] = [];
let group = "";

function ok(schema: DescMessage, text: string, json: JsonValue, options?: Partial<JsonReadOptions>): void {
  cases.push(
    options === undefined
      ? { group, schema, text, expect: { json } }
      : { group, schema, text, expect: { json }, options },
  );
}

function no(schema: DescMessage, text: string, rule: WktRule, path: string, options?: Partial<JsonReadOptions>): void {
  const expect = { rule, jsonPath: path };
  cases.push(options === undefined ? { group, schema, text, expect } : { group, schema, text, expect, options });
}

const M = TestAllTypesProto3;
/** `{"field": literal}`. */
const f = (field: string, literal: string): string => `{"${field}": ${literal}}`;
/** `{field: value}`, for expected JSON (own properties, also for `__proto__`). */
function o(...entries: [string, JsonValue][]): JsonValue {
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of entries)
    Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  return out;
}
const url = (name: string): string => `type.googleapis.com/${name}`;
const anyOf = (name: string, rest: string): string => `{"@type": "${url(name)}"${rest === "" ? "" : ", " + rest}}`;
const wkt = (name: string): string => url(`google.protobuf.${name}`);
const T3 = "protobuf_test_messages.proto3.TestAllTypesProto3";

// ---------------------------------------------------------------------------------------------------------
group = "int32";
ok(M, f("optionalInt32", "1"), { optionalInt32: 1 });
ok(M, f("optionalInt32", '"1"'), { optionalInt32: 1 }); // conformance: Int32FieldStringValue
ok(M, f("optionalInt32", "1.0"), { optionalInt32: 1 }); // conformance: Int32FieldFloatTrailingZero
ok(M, f("optionalInt32", "100000.000"), { optionalInt32: 100000 });
ok(M, f("optionalInt32", "1e5"), { optionalInt32: 100000 }); // conformance: Int32FieldExponentialFormat
ok(M, f("optionalInt32", '"1e5"'), { optionalInt32: 100000 }); // conformance: Int32FieldQuotedExponentialValue
ok(M, f("optionalInt32", "1E2"), { optionalInt32: 100 });
ok(M, f("optionalInt32", "100e-2"), { optionalInt32: 1 }); // Go and C++: an integer in exponent form
ok(M, f("optionalInt32", '"\\u0031"'), { optionalInt32: 1 }); // conformance: Int32FieldStringValueEscaped
ok(M, f("optionalInt32", "2147483647"), { optionalInt32: 2147483647 }); // conformance: Int32FieldMaxValue
ok(M, f("optionalInt32", "-2147483648"), { optionalInt32: -2147483648 }); // conformance: Int32FieldMinValue
ok(M, f("optionalInt32", "2.147483647e9"), { optionalInt32: 2147483647 }); // conformance: Int32FieldMaxFloatValue
ok(M, f("optionalInt32", "-2.147483648e9"), { optionalInt32: -2147483648 }); // conformance: Int32FieldMinFloatValue
no(M, f("optionalInt32", "2147483648"), "range", "$.optionalInt32"); // conformance: Int32FieldTooLarge
no(M, f("optionalInt32", "-2147483649"), "range", "$.optionalInt32"); // conformance: Int32FieldTooSmall
no(M, f("optionalInt32", "2147483648.0"), "range", "$.optionalInt32");
no(M, f("optionalInt32", "1.5"), "syntax", "$.optionalInt32"); // conformance: Int32FieldNotInteger
no(M, f("optionalInt32", '"1.5"'), "syntax", "$.optionalInt32");
ok(M, f("optionalInt32", "0.5e1"), { optionalInt32: 5 });
ok(M, f("optionalInt32", "-0"), {}); // -0 is 0 for integers (Go: normalizeToIntString; C++: SimpleAtoi)
ok(M, f("optionalInt32", '"-0"'), {});
ok(M, f("optionalInt32", "-0.0"), {});
ok(M, f("optionalInt32", "0e999"), {});
// Spec silent. C++ reads a non-integer literal as a double and checks the double's fraction, so 1 + 1e-16
// is 1; Go reads the literal's digits and rejects it. We follow Go (issue 25): from a text, a literal is judged
// by its decimal value, as the same text as a string is ("1.0000000000000001" is refused either way); the
// double is kept for double fields. A JS value given to fromJson has no text: there it is the double 1.
no(M, f("optionalInt32", "1.0000000000000001"), "syntax", "$.optionalInt32"); // C++: accepts; Go: rejects
no(M, f("optionalInt32", '"1.0000000000000001"'), "syntax", "$.optionalInt32");
no(M, f("optionalInt32", "2147483647.00000001"), "syntax", "$.optionalInt32"); // C++: accepts; Go: rejects
no(M, f("optionalInt32", "1.00000000000000000001"), "syntax", "$.optionalInt32"); // C++: accepts; Go: rejects
no(M, f("optionalInt32", "0.99999999999999999999"), "syntax", "$.optionalInt32"); // C++: accepts; Go: rejects
no(M, f("optionalInt32", "1e-400"), "syntax", "$.optionalInt32"); // C++: accepts (0); Go: rejects
no(M, f("optionalInt32", "-1e-400"), "syntax", "$.optionalInt32"); // C++: accepts (0); Go: rejects
no(M, f("optionalInt32", '"1e-400"'), "syntax", "$.optionalInt32");
ok(M, f("optionalInt32", "1.0000000000000000000000"), { optionalInt32: 1 });
ok(M, f("optionalInt32", "1.5e1"), { optionalInt32: 15 });
ok(M, f("optionalInt32", "0e-400"), {});
no(M, f("repeatedInt32", "[1, 1e-400]"), "syntax", "$.repeatedInt32[1]");
no(M, f("mapInt32Int32", '{"1": 0.99999999999999999999}'), "syntax", '$.mapInt32Int32["1"]');
no(M, f("optionalInt32", '"1e-400", "optionalString": "1e-400"'), "syntax", "$.optionalInt32");
ok(M, f("optionalString", '"1.00000000000000000001 1e-400", "optionalInt32": 1'), {
  optionalInt32: 1,
  optionalString: "1.00000000000000000001 1e-400",
}); // the look-alikes in a string cost the strict parse only
no(M, f("optionalInt32", "01"), "syntax", "$.optionalInt32"); // conformance: Int32FieldLeadingZero
no(M, f("optionalInt32", "-01"), "syntax", "$.optionalInt32"); // conformance: Int32FieldNegativeWithLeadingZero
no(M, f("optionalInt32", "+1"), "syntax", "$.optionalInt32"); // conformance: Int32FieldPlusSign
no(M, f("optionalInt32", '"+1"'), "syntax", "$.optionalInt32"); // Go: rejects (JSON number grammar); C++: accepts (absl::SimpleAtoi)
no(M, f("optionalInt32", '"01"'), "syntax", "$.optionalInt32"); // Go: rejects; C++: accepts (absl::SimpleAtoi)
no(M, f("optionalInt32", '" 1"'), "syntax", "$.optionalInt32"); // conformance: Int32FieldLeadingSpace
no(M, f("optionalInt32", '"1 "'), "syntax", "$.optionalInt32"); // conformance: Int32FieldTrailingSpace
no(M, f("optionalInt32", '""'), "syntax", "$.optionalInt32"); // conformance: Int32FieldEmptyString
no(M, f("optionalInt32", '"abc"'), "syntax", "$.optionalInt32"); // conformance: Int32FieldStringValueNonNumeric
no(M, f("optionalInt32", '"12abc"'), "syntax", "$.optionalInt32"); // conformance: Int32FieldStringValuePartiallyNumeric
no(M, f("optionalInt32", '"0x7FFFFFFF"'), "syntax", "$.optionalInt32"); // conformance: Int32FieldMaxValueHex
no(M, f("optionalInt32", '"017777777777"'), "syntax", "$.optionalInt32"); // conformance: Int32FieldMaxValueOctal
no(M, f("optionalInt32", "0x10"), "syntax", "$"); // hex is not JSON: the text is malformed after the 0
no(M, f("optionalInt32", "1e309"), "range", "$.optionalInt32"); // C++: "invalid number" (not finite); Go: rejects
no(M, f("optionalInt32", '"NaN"'), "syntax", "$.optionalInt32");
no(M, f("optionalInt32", '"Infinity"'), "syntax", "$.optionalInt32");
no(M, f("optionalInt32", "true"), "json-type", "$.optionalInt32");
no(M, f("optionalInt32", "[1]"), "json-type", "$.optionalInt32");
no(M, f("optionalInt32", "{}"), "json-type", "$.optionalInt32");
ok(M, f("optionalInt32", "null"), {}); // spec: null is the default value

group = "uint32 and the other 32-bit types";
ok(M, f("optionalUint32", "4294967295"), { optionalUint32: 4294967295 }); // conformance: Uint32FieldMaxValue
no(M, f("optionalUint32", "4294967296"), "range", "$.optionalUint32"); // conformance: Uint32FieldTooLarge
no(M, f("optionalUint32", "-1"), "range", "$.optionalUint32");
ok(M, f("optionalUint32", '"-0"'), {}); // Go: "-0" normalizes to 0; C++: the double -0 has no fraction
no(M, f("optionalUint32", "1e10"), "range", "$.optionalUint32");
ok(M, f("optionalUint32", "4.294967295e9"), { optionalUint32: 4294967295 }); // conformance: Uint32FieldMaxFloatValue
no(M, f("optionalFixed32", "-1"), "range", "$.optionalFixed32");
ok(M, f("optionalFixed32", '"4294967295"'), { optionalFixed32: 4294967295 });
no(M, f("optionalSint32", "2147483648"), "range", "$.optionalSint32");
ok(M, f("optionalSfixed32", "-2147483648"), { optionalSfixed32: -2147483648 });

group = "int64: every accepted form keeps every digit";
ok(M, f("optionalInt64", '"9223372036854775807"'), { optionalInt64: "9223372036854775807" }); // conformance: Int64FieldMaxValue
ok(M, f("optionalInt64", "9223372036854775807"), { optionalInt64: "9223372036854775807" }); // conformance: Int64FieldMaxValueNotQuoted
ok(M, f("optionalInt64", "-9223372036854775808"), { optionalInt64: "-9223372036854775808" }); // conformance: Int64FieldMinValueNotQuoted
ok(M, f("optionalInt64", '"-9223372036854775808"'), { optionalInt64: "-9223372036854775808" }); // conformance: Int64FieldMinValue
ok(M, f("optionalInt64", "9007199254740993"), { optionalInt64: "9007199254740993" }); // 2^53 + 1: a double would say ...992
ok(M, f("optionalInt64", '"9007199254740993"'), { optionalInt64: "9007199254740993" });
ok(M, f("optionalInt64", "-9007199254740993"), { optionalInt64: "-9007199254740993" });
// Exponent and fraction forms beyond 2^53, unquoted: spec "exponent notation is also accepted". Go reads the
// literal's digits (normalizeToIntString) and accepts; C++ parses a double and rejects every non-integer
// literal beyond 2^53 ("JSON number out of range for int"). We follow Go: exact, never a float round trip.
ok(M, f("optionalInt64", "9.223372036854775807e18"), { optionalInt64: "9223372036854775807" }); // Go: accepts; C++: rejects
ok(M, f("optionalInt64", "9223372036854775807.000"), { optionalInt64: "9223372036854775807" }); // Go: accepts; C++: rejects
ok(M, f("optionalInt64", "-9.223372036854775808e18"), { optionalInt64: "-9223372036854775808" }); // Go: accepts; C++: rejects
ok(M, f("optionalInt64", "1e18"), { optionalInt64: "1000000000000000000" }); // Go: accepts; C++: rejects
ok(M, f("optionalInt64", "12345678901234567.89e2"), { optionalInt64: "1234567890123456789" }); // Go: accepts; C++: rejects
ok(M, f("optionalInt64", '"9.223372036854775807e18"'), { optionalInt64: "9223372036854775807" }); // Go: accepts; C++: rejects
ok(M, f("optionalInt64", '"10e-1"'), { optionalInt64: "1" });
no(M, f("optionalInt64", "9.223372036854775808e18"), "range", "$.optionalInt64");
no(M, f("optionalInt64", "9223372036854775808"), "range", "$.optionalInt64"); // conformance: Int64FieldTooLarge
no(M, f("optionalInt64", '"9223372036854775808"'), "range", "$.optionalInt64");
no(M, f("optionalInt64", '"-9223372036854775809"'), "range", "$.optionalInt64"); // conformance: Int64FieldTooSmall
// A fraction beyond what a double holds: the double is the integer 9007199254740994, the literal is not an
// integer. Go and C++ both reject (Go: fraction digits; C++: beyond 2^53); a float round trip would accept.
no(M, f("optionalInt64", "9007199254740993.5"), "syntax", "$.optionalInt64"); // Go: rejects; C++: rejects
no(M, f("optionalInt64", "18014398509481985.5"), "syntax", "$.optionalInt64"); // Go: rejects; C++: rejects
no(M, f("optionalInt64", "-9007199254740993.5"), "syntax", "$.optionalInt64"); // Go: rejects; C++: rejects
no(M, f("optionalInt64", "1.5"), "syntax", "$.optionalInt64");
no(M, f("optionalInt64", '"1.5"'), "syntax", "$.optionalInt64"); // conformance: Int64FieldNotInteger
no(M, f("optionalInt64", '"1e-1"'), "syntax", "$.optionalInt64");
no(M, f("optionalInt64", "12345678901234567890123"), "range", "$.optionalInt64");
no(M, f("optionalInt64", "1" + "0".repeat(400)), "range", "$.optionalInt64"); // 401 digits: no BigInt of it is built
no(M, f("optionalInt64", '"1' + "0".repeat(400) + '"'), "range", "$.optionalInt64");
no(M, f("optionalInt64", "1e400"), "range", "$.optionalInt64");
no(M, f("optionalInt64", "-1e400"), "range", "$.optionalInt64");
no(M, f("optionalInt64", '"0x7FFFFFFFFFFFFFFF"'), "syntax", "$.optionalInt64"); // conformance: Int64FieldMaxValueHex
no(M, f("optionalInt64", '"0777777777777777777777"'), "syntax", "$.optionalInt64"); // conformance: Int64FieldMaxValueOctal
no(M, f("optionalInt64", '"9223372036854775807 "'), "syntax", "$.optionalInt64");
no(M, f("optionalInt64", '""'), "syntax", "$.optionalInt64"); // conformance: Int64FieldEmptyString
no(M, f("optionalInt64", "true"), "json-type", "$.optionalInt64");
ok(M, f("optionalInt64", "-0"), {});
ok(M, f("optionalInt64", "0.0e5"), {});

group = "uint64 and the other 64-bit types";
ok(M, f("optionalUint64", '"18446744073709551615"'), { optionalUint64: "18446744073709551615" }); // conformance: Uint64FieldMaxValue
ok(M, f("optionalUint64", "18446744073709551615"), { optionalUint64: "18446744073709551615" }); // conformance: Uint64FieldMaxValueNotQuoted
ok(M, f("optionalUint64", "1.8446744073709551615e19"), { optionalUint64: "18446744073709551615" }); // Go: accepts; C++: rejects
ok(M, f("optionalUint64", '"1.8446744073709551615e19"'), { optionalUint64: "18446744073709551615" });
no(M, f("optionalUint64", "18446744073709551616"), "range", "$.optionalUint64"); // conformance: Uint64FieldTooLarge
no(M, f("optionalUint64", "-1"), "range", "$.optionalUint64");
ok(M, f("optionalUint64", '"-0"'), {});
no(M, f("optionalUint64", "18446744073709551615.5"), "syntax", "$.optionalUint64"); // Go: rejects; C++: rejects
no(M, f("optionalUint64", "4503599627370496.5"), "syntax", "$.optionalUint64"); // 2^52 + 0.5, the double 2^52. Go: rejects; C++: accepts
no(M, f("optionalSint64", "-1e-400"), "syntax", "$.optionalSint64"); // Go: rejects; C++: accepts
no(M, f("oneofUint64", "1e-400"), "syntax", "$.oneofUint64");
no(M, f("oneofUint32", "0.99999999999999999999"), "syntax", "$.oneofUint32");
ok(M, f("optionalSint64", '"-9223372036854775808"'), { optionalSint64: "-9223372036854775808" });
ok(M, f("optionalSfixed64", "9223372036854775807"), { optionalSfixed64: "9223372036854775807" });
ok(M, f("optionalFixed64", '"18446744073709551615"'), { optionalFixed64: "18446744073709551615" });
no(M, f("optionalFixed64", '"-1"'), "range", "$.optionalFixed64");

group = "double";
ok(M, f("optionalDouble", "1.5"), { optionalDouble: 1.5 });
ok(M, f("optionalDouble", "-0"), { optionalDouble: -0 }); // -0 is not the default: kept (Go and C++ keep the sign)
ok(M, f("optionalDouble", '"-0"'), { optionalDouble: -0 });
ok(M, f("optionalDouble", "-1e-400"), { optionalDouble: -0 });
ok(M, f("optionalDouble", "1e-400"), {}); // conformance: DoubleFieldLargeNegativeExponentParsesAsZero
ok(M, f("optionalDouble", "1.00000000000000000001"), { optionalDouble: 1 }); // the double, as JSON.parse reads it
ok(M, f("optionalDouble", "0.99999999999999999999"), { optionalDouble: 1 });
ok(M, f("optionalDouble", '"NaN"'), { optionalDouble: "NaN" }); // conformance: DoubleFieldNan
ok(M, f("optionalDouble", '"Infinity"'), { optionalDouble: "Infinity" }); // conformance: DoubleFieldInfinity
ok(M, f("optionalDouble", '"-Infinity"'), { optionalDouble: "-Infinity" }); // conformance: DoubleFieldNegativeInfinity
ok(M, f("optionalDouble", "1.7976931348623157e308"), { optionalDouble: 1.7976931348623157e308 }); // conformance: DoubleFieldMaxPositiveValue
ok(M, f("optionalDouble", "5e-324"), { optionalDouble: 5e-324 }); // conformance: DoubleFieldMinPositiveValue
ok(M, f("optionalDouble", '"1.5"'), { optionalDouble: 1.5 }); // conformance: DoubleFieldQuotedValue
ok(M, f("optionalDouble", '"1e5"'), { optionalDouble: 100000 }); // conformance: DoubleFieldQuotedExponentialValue
ok(M, f("optionalDouble", "9007199254740993"), { optionalDouble: 9007199254740992 }); // the nearest double
ok(M, f("optionalDouble", "123456789012345678901234567890"), { optionalDouble: 1.2345678901234568e29 });
ok(M, f("optionalDouble", "1" + "0".repeat(300)), { optionalDouble: 1e300 });
no(M, f("optionalDouble", "1" + "0".repeat(400)), "range", "$.optionalDouble");
no(M, f("optionalDouble", "1e309"), "range", "$.optionalDouble"); // C++: "invalid number" (lexer); Go: ParseFloat range error
no(M, f("optionalDouble", "-1e309"), "range", "$.optionalDouble"); // C++ and Go: reject
// Quoted overflow: Go rejects (ParseFloat range error); C++ reads quoted numbers with absl::SimpleAtod, which
// gives infinity. We follow Go: infinity is written "Infinity", and "1e309" is not that.
no(M, f("optionalDouble", '"1e309"'), "range", "$.optionalDouble"); // Go: rejects; C++: accepts (infinity)
no(M, f("optionalDouble", "NaN"), "syntax", "$.optionalDouble"); // conformance: DoubleFieldNanNotQuoted
no(M, f("optionalDouble", "Infinity"), "syntax", "$.optionalDouble"); // conformance: DoubleFieldInfinityNotQuoted
no(M, f("optionalDouble", "-Infinity"), "syntax", "$.optionalDouble"); // conformance: DoubleFieldNegativeInfinityNotQuoted
no(M, f("optionalDouble", '"nan"'), "syntax", "$.optionalDouble"); // Go: rejects; C++: accepts (absl::SimpleAtod)
no(M, f("optionalDouble", '"inf"'), "syntax", "$.optionalDouble"); // Go: rejects; C++: accepts (absl::SimpleAtod)
no(M, f("optionalDouble", '" 1.5"'), "syntax", "$.optionalDouble"); // Go: rejects (TrimSpace check); C++: accepts (SimpleAtod strips it)
no(M, f("optionalDouble", '"+1.5"'), "syntax", "$.optionalDouble"); // Go: rejects; C++: accepts (SimpleAtod takes '+')
no(M, f("optionalDouble", '""'), "syntax", "$.optionalDouble"); // conformance: DoubleFieldEmptyString
no(M, f("optionalDouble", '"abc"'), "syntax", "$.optionalDouble"); // conformance: DoubleFieldStringValueNonNumeric
no(M, f("optionalDouble", '"1.5abc"'), "syntax", "$.optionalDouble"); // conformance: DoubleFieldStringValuePartiallyNumeric
no(M, f("optionalDouble", '"0x10"'), "syntax", "$.optionalDouble");
no(M, f("optionalDouble", '".5"'), "syntax", "$.optionalDouble"); // Go: rejects (JSON grammar); C++: accepts
no(M, f("optionalDouble", '"1."'), "syntax", "$.optionalDouble"); // Go: rejects; C++: accepts
no(M, f("optionalDouble", "true"), "json-type", "$.optionalDouble");

group = "float";
ok(M, f("optionalFloat", "3.4028235e38"), { optionalFloat: 3.4028235e38 }); // conformance: FloatFieldMaxPositiveValue
ok(M, f("optionalFloat", "-3.4028235e38"), { optionalFloat: -3.4028235e38 }); // conformance: FloatFieldMaxNegativeValue
no(M, f("optionalFloat", "3.5e38"), "range", "$.optionalFloat"); // conformance: FloatFieldTooLarge
no(M, f("optionalFloat", "-3.5e38"), "range", "$.optionalFloat"); // conformance: FloatFieldTooSmall
no(M, f("optionalFloat", '"1e39"'), "range", "$.optionalFloat");
ok(M, f("optionalFloat", '"-Infinity"'), { optionalFloat: "-Infinity" }); // conformance: FloatFieldNegativeInfinity
ok(M, f("optionalFloat", "-0"), { optionalFloat: -0 }); // conformance: FloatFieldNegativeZero
no(M, f("optionalFloat", '"0x1p3"'), "syntax", "$.optionalFloat"); // conformance: FloatFieldNoHex

group = "bool";
ok(M, f("optionalBool", "true"), { optionalBool: true }); // conformance: BoolFieldTrue
ok(M, f("optionalBool", "false"), {}); // conformance: BoolFieldFalse
no(M, f("optionalBool", '"true"'), "json-type", "$.optionalBool"); // conformance: BoolFieldDoubleQuotedTrue
no(M, f("optionalBool", "1"), "json-type", "$.optionalBool"); // conformance: BoolFieldIntegerOne
no(M, f("optionalBool", "0"), "json-type", "$.optionalBool"); // conformance: BoolFieldIntegerZero
no(M, f("optionalBool", "TRUE"), "syntax", "$.optionalBool"); // conformance: BoolFieldAllCapitalTrue
no(M, f("optionalBool", "True"), "syntax", "$.optionalBool"); // conformance: BoolFieldCamelCaseTrue
no(M, f("optionalBool", "tru"), "syntax", "$.optionalBool");

group = "string: ill-formed UTF-16 is our error, never altered";
no(M, f("optionalString", '"\\ud800"'), "utf16", "$.optionalString"); // conformance: StringFieldUnpairedHighSurrogate
no(M, f("optionalString", '"\\udc00"'), "utf16", "$.optionalString"); // conformance: StringFieldUnpairedLowSurrogate
no(M, f("optionalString", '"\\udc00\\ud800"'), "utf16", "$.optionalString"); // conformance: StringFieldSurrogateInWrongOrder
no(M, f("optionalString", '"a\\ud800b"'), "utf16", "$.optionalString");
no(M, f("optionalString", '"\\ud800\\u0041"'), "utf16", "$.optionalString");
no(M, f("optionalString", '"\ud800"'), "utf16", "$.optionalString"); // unescaped, in the text itself: no UTF-8 form
no(M, f("optionalString", '"\udfff\ud800"'), "utf16", "$.optionalString");
ok(M, f("optionalString", '"\\ud83d\\ude00"'), { optionalString: "\u{1F600}" }); // conformance: StringFieldSurrogatePair
ok(M, f("optionalString", '"\ud83d\ude00"'), { optionalString: "\u{1F600}" });
ok(M, f("optionalString", '"a\\u0000b"'), { optionalString: "a\u0000b" }); // conformance: StringFieldEmbeddedNull
ok(M, f("optionalString", '"\\uFFFE\\uFFFF\\u2028"'), { optionalString: "\uFFFE\uFFFF\u2028" }); // noncharacters are valid UTF-8
ok(M, f("optionalString", '"\\/\\b\\f\\n\\r\\t\\"\\\\"'), { optionalString: '/\b\f\n\r\t"\\' }); // RFC 8259 §7: every short escape
no(M, f("optionalString", '"a\u0001b"'), "syntax", "$.optionalString"); // RFC 8259 §7: control characters must be escaped
no(M, f("optionalString", '"a\nb"'), "syntax", "$.optionalString");
no(M, f("optionalString", '"\\x41"'), "syntax", "$.optionalString"); // conformance: StringFieldInvalidEscape
no(M, f("optionalString", '"\\U0001F600"'), "syntax", "$.optionalString"); // conformance: StringFieldUppercaseEscapeLetter
no(M, f("optionalString", '"\\u00"'), "syntax", "$.optionalString"); // conformance: StringFieldUnterminatedEscape
no(M, f("optionalString", '"\\u00G0"'), "syntax", "$.optionalString");
no(M, f("optionalString", "'abc'"), "syntax", "$.optionalString"); // conformance: StringFieldSingleQuoteValue
no(M, '{"optionalString": "abc\\"}', "syntax", "$.optionalString"); // the escape takes the closing quote
no(M, f("optionalString", "123"), "json-type", "$.optionalString"); // conformance: StringFieldNotAString
no(M, f("repeatedString", '["a", "\\ud800"]'), "utf16", "$.repeatedString[1]");

group = "bytes";
ok(M, f("optionalBytes", '"AQID"'), { optionalBytes: "AQID" }); // conformance: BytesField
ok(M, f("optionalBytes", '"AQI"'), { optionalBytes: "AQI=" }); // spec: with or without padding
ok(M, f("optionalBytes", '"AQ=="'), { optionalBytes: "AQ==" });
ok(M, f("optionalBytes", '"AQ"'), { optionalBytes: "AQ==" });
ok(M, f("optionalBytes", '"-_-_"'), { optionalBytes: "+/+/" }); // conformance: BytesFieldBase64Url
ok(M, f("optionalBytes", '""'), {});
ok(M, f("optionalBytes", '"+_"'), { optionalBytes: "+w==" }); // C++: accepts (one table for both alphabets); Go: rejects (mixed alphabets)
ok(M, f("optionalBytes", '"AB=="'), { optionalBytes: "AA==" }); // non-zero pad bits: Go (non-strict) and C++ both accept
no(M, f("optionalBytes", '"A"'), "syntax", "$.optionalBytes");
no(M, f("optionalBytes", '"AQ="'), "syntax", "$.optionalBytes"); // C++ and Go: reject
no(M, f("optionalBytes", '"AQID=="'), "syntax", "$.optionalBytes");
no(M, f("optionalBytes", '"AQ==AQ=="'), "syntax", "$.optionalBytes");
no(M, f("optionalBytes", '"AQ I"'), "syntax", "$.optionalBytes");
no(M, f("optionalBytes", '"AQ\\nID"'), "syntax", "$.optionalBytes"); // C++: rejects; Go: accepts (encoding/base64 skips \r and \n)
no(M, f("optionalBytes", '"\\ud800"'), "syntax", "$.optionalBytes");
no(M, f("optionalBytes", '"AQ!D"'), "syntax", "$.optionalBytes");
no(M, f("optionalBytes", "1"), "json-type", "$.optionalBytes");

group = "enum";
ok(M, f("optionalNestedEnum", '"BAR"'), { optionalNestedEnum: "BAR" }); // conformance: EnumField
ok(M, f("optionalNestedEnum", "1"), { optionalNestedEnum: "BAR" }); // conformance: EnumFieldNumericValueNonZero
ok(M, f("optionalNestedEnum", "-1"), { optionalNestedEnum: "NEG" });
ok(M, f("optionalNestedEnum", "1e0"), { optionalNestedEnum: "BAR" });
ok(M, f("optionalNestedEnum", "123"), { optionalNestedEnum: 123 }); // conformance: EnumFieldUnknownValue (open enum)
ok(M, f("optionalAliasedEnum", '"moo"'), { optionalAliasedEnum: "ALIAS_BAZ" }); // conformance: EnumFieldWithAliasLowerCase
ok(M, f("optionalAliasedEnum", '"bAz"'), { optionalAliasedEnum: "ALIAS_BAZ" }); // conformance: EnumFieldWithAliasDifferentCase
no(M, f("optionalNestedEnum", '"bar"'), "enum", "$.optionalNestedEnum");
no(M, f("optionalNestedEnum", '"UNKNOWN"'), "enum", "$.optionalNestedEnum");
ok(M, f("optionalNestedEnum", '"UNKNOWN"'), {}, { ignoreUnknownFields: true }); // spec: unknown enum names are skipped
no(M, f("optionalNestedEnum", '"1"'), "enum", "$.optionalNestedEnum"); // Go: rejects (names only); C++: accepts (SimpleAtoi fallback)
no(M, f("optionalNestedEnum", "2147483648"), "enum", "$.optionalNestedEnum");
no(M, f("optionalNestedEnum", "1.5"), "enum", "$.optionalNestedEnum");
no(M, f("optionalNestedEnum", "1.00000000000000000001"), "enum", "$.optionalNestedEnum"); // as 1.5; Go: rejects
no(M, f("optionalNullValue", "1e-400"), "enum", "$.optionalNullValue");
no(M, f("optionalNestedEnum", "9223372036854775807"), "enum", "$.optionalNestedEnum");
no(M, f("optionalNestedEnum", "true"), "json-type", "$.optionalNestedEnum");
no(M, f("optionalNestedEnum", '"\\ud800"'), "enum", "$.optionalNestedEnum");
ok(M, f("optionalNullValue", "null"), {}); // NULL_VALUE is 0, the default of an implicit-presence field
ok(M, f("optionalNullValue", '"NULL_VALUE"'), {});

group = "duplicate keys";
no(M, '{"optionalInt32": 1, "optionalInt32": 2}', "duplicate-field", "$.optionalInt32"); // conformance: FieldNameDuplicate
no(M, '{"optionalInt32": 1, "optional_int32": 2}', "duplicate-field", "$.optional_int32"); // conformance: FieldNameDuplicateDifferentCasing1
no(M, '{"optional_int32": 1, "optionalInt32": 2}', "duplicate-field", "$.optionalInt32"); // conformance: FieldNameDuplicateDifferentCasing2
// A field given twice where the second is null: Go rejects (seenNums before the null check); C++ accepts
// (HasParsed && !Peek(kNull)). We follow Go: the key is repeated whatever its value.
no(M, '{"optionalInt32": 1, "optional_int32": null}', "duplicate-field", "$.optional_int32"); // Go: rejects; C++: accepts
no(M, '{"optionalInt32": null, "optionalInt32": null}', "duplicate-field", "$.optionalInt32");
no(M, '{"repeatedInt32": [1], "repeated_int32": [2]}', "duplicate-field", "$.repeated_int32");
no(M, '{"optionalNestedMessage": {"a": 1, "a": 2}}', "duplicate-field", "$.optionalNestedMessage.a");
no(M, '{"mapStringString": {"a": "1", "a": "2"}}', "duplicate-field", "$.mapStringString.a"); // Go: duplicate map key; C++: repeated map key
// Map keys equal as numbers: Go rejects ("-0" and "0" both parse to 0); C++ compares the key text and accepts.
no(M, '{"mapInt32Int32": {"0": 1, "-0": 2}}', "duplicate-field", '$.mapInt32Int32["-0"]'); // Go: rejects; C++: accepts
no(M, '{"optionalStruct": {"a": 1, "a": 2}}', "duplicate-field", "$.optionalStruct.a");
no(M, '{"optionalValue": [{"x": {"y": 1, "y": 1}}]}', "duplicate-field", "$.optionalValue[0].x.y");
no(
  M,
  `{"optionalAny": {"@type": "${wkt("Duration")}", "@type": "${wkt("Duration")}", "value": "1s"}}`,
  "duplicate-field",
  '$.optionalAny["@type"]',
); // C++: "repeated @type in Any"; Go: duplicate "@type"
// Repeated unknown members under ignoreUnknownFields: Go and C++ skip unknown members before any duplicate
// check and accept; we reject, because the text itself repeats a key (RFC 8259 §4 SHOULD, made a MUST here).
no(M, '{"x": 1, "x": 2}', "duplicate-field", "$.x", { ignoreUnknownFields: true }); // Go: accepts; C++: accepts
no(M, '{"__proto__": 1, "__proto__": 2}', "duplicate-field", "$.__proto__", { ignoreUnknownFields: true });

group = "oneof";
no(M, '{"oneofUint32": 1, "oneofString": "a"}', "oneof", "$.oneofString"); // conformance: OneofFieldDuplicate
ok(M, '{"oneofUint32": null, "oneofString": "a"}', { oneofString: "a" }); // conformance: OneofFieldNullFirst
ok(M, '{"oneofString": "a", "oneofUint32": null}', { oneofString: "a" }); // conformance: OneofFieldNullSecond
ok(M, '{"oneofUint32": 0}', { oneofUint32: 0 }); // conformance: OneofZeroUint32
ok(M, '{"oneofNullValue": null}', { oneofNullValue: null });
no(M, '{"oneofNullValue": null, "oneofUint32": 1}', "oneof", "$.oneofUint32");
ok(M, '{"oneofEnum": "UNKNOWN", "oneofString": "a"}', { oneofString: "a" }, { ignoreUnknownFields: true });
no(M, '{"oneofNestedMessage": {}, "oneofBytes": ""}', "oneof", "$.oneofBytes");

group = "member names";
no(M, f("unknown", "1"), "unknown-field", "$.unknown");
ok(M, f("unknown", '{"deep": [1, {"x": null}]}'), {}, { ignoreUnknownFields: true });
no(M, f("OptionalInt32", "1"), "unknown-field", "$.OptionalInt32");
no(M, f("optionalint32", "1"), "unknown-field", "$.optionalint32");
ok(M, f("optional\\u0049nt32", "1"), { optionalInt32: 1 }); // conformance: FieldNameEscaped
ok(M, f("optional_int32", "1"), { optionalInt32: 1 }); // spec: the proto name is accepted too
ok(M, f("FieldName13", "1"), { FieldName13: 1 }); // conformance: FieldName13
no(M, f("__proto__", '{"optionalInt32": 1}'), "unknown-field", "$.__proto__");
no(M, f("constructor", "1"), "unknown-field", "$.constructor");
no(M, f("hasOwnProperty", "1"), "unknown-field", "$.hasOwnProperty");
no(M, f("$typeName", '"x"'), "unknown-field", "$.$typeName"); // protobuf-es's own property is no field
no(M, f("$unknown", "[]"), "unknown-field", "$.$unknown");
no(M, f("[protobuf_test_messages.proto3.nope]", "1"), "unknown-field", '$["[protobuf_test_messages.proto3.nope]"]');
no(M, f("\\ud800", "1"), "unknown-field", '$["\\ud800"]');
no(M, f("", "1"), "unknown-field", '$[""]');

group = "JSON text";
no(M, "", "syntax", "$");
no(M, " \n\t", "syntax", "$");
no(M, "{", "syntax", "$");
no(M, "}", "syntax", "$");
no(M, "{}}", "syntax", "$");
no(M, "{} {}", "syntax", "$");
no(M, '{"optionalInt32": 1,}', "syntax", "$"); // trailing comma
no(M, "{,}", "syntax", "$");
no(M, '{"optionalInt32" 1}', "syntax", "$.optionalInt32");
no(M, "{optionalInt32: 1}", "syntax", "$"); // conformance: FieldNameNotQuoted
no(M, "{'optionalInt32': 1}", "syntax", "$"); // conformance: StringFieldSingleQuoteKey
no(M, '{"optionalInt32": 1; "optionalInt64": 2}', "syntax", "$"); // conformance: FieldSeparatorSemiTopLevelSingle-like
no(M, '{"optionalInt32": 1 /* c */}', "syntax", "$"); // conformance: JsonWithComments
no(M, '// c\n{"optionalInt32": 1}', "syntax", "$");
no(M, "\uFEFF{}", "syntax", "$"); // RFC 8259 §8.1: no BOM; Go and C++ reject it too (not whitespace)
no(M, "{}\u0000", "syntax", "$");
no(M, "\u00A0{}", "syntax", "$"); // NBSP is not JSON whitespace
no(M, "\u000B{}", "syntax", "$");
ok(M, " \t\r\n{ } \r\n", {});
no(M, '{"optionalString": "abc', "syntax", "$.optionalString");
no(M, '{"optionalInt32": -}', "syntax", "$.optionalInt32");
no(M, '{"optionalInt32": 1.}', "syntax", "$.optionalInt32");
no(M, '{"optionalInt32": .5}', "syntax", "$.optionalInt32");
no(M, '{"optionalInt32": 1.e5}', "syntax", "$.optionalInt32");
no(M, '{"optionalInt32": 1e}', "syntax", "$.optionalInt32");
no(M, '{"optionalInt32": 1e+}', "syntax", "$.optionalInt32");
no(M, '{"optionalInt32": --1}', "syntax", "$.optionalInt32");
no(M, '{"repeatedInt32": [1 2]}', "syntax", "$.repeatedInt32");
no(M, '{"repeatedInt32": [1,]}', "syntax", "$.repeatedInt32[1]");
no(M, '{"repeatedInt32": [,1]}', "syntax", "$.repeatedInt32[0]");
no(M, "[]", "json-type", "$"); // a message is an object
no(M, "null", "json-type", "$"); // Go and C++: a message must be an object
no(M, '"x"', "json-type", "$");
no(M, "1", "json-type", "$");

group = "null";
ok(M, f("optionalNestedMessage", "null"), {});
ok(M, f("repeatedInt32", "null"), {});
ok(M, f("mapStringString", "null"), {});
ok(M, f("optionalTimestamp", "null"), {}); // conformance: TimestampNull
ok(M, f("optionalDuration", "null"), {}); // conformance: DurationNull
ok(M, f("optionalAny", "null"), {});
ok(M, f("optionalStruct", "null"), {});
ok(M, f("optionalInt32Wrapper", "null"), {});
ok(M, f("optionalValue", "null"), { optionalValue: null }); // conformance: ValueAcceptNull (null is a Value)
ok(M, f("repeatedValue", "[null, 1]"), { repeatedValue: [null, 1] });
no(M, f("repeatedInt32", "[1, null]"), "json-type", "$.repeatedInt32[1]"); // C++: "null cannot occur inside of repeated fields"; Go: rejects
no(M, f("repeatedNestedMessage", "[null]"), "json-type", "$.repeatedNestedMessage[0]");
no(M, f("repeatedInt32Wrapper", "[1, null]"), "json-type", "$.repeatedInt32Wrapper[1]"); // C++ and Go: reject
no(M, f("mapStringString", '{"a": null}'), "json-type", "$.mapStringString.a"); // conformance: MapFieldValueIsNull
no(M, f("mapStringNestedMessage", '{"a": null}'), "json-type", "$.mapStringNestedMessage.a");
no(M, f("mapStringNestedEnum", '{"a": null}'), "json-type", "$.mapStringNestedEnum.a");

group = "lists and maps";
ok(M, f("repeatedInt32", "[]"), {});
ok(M, f("repeatedInt64", '[1, "2", 9223372036854775807]'), { repeatedInt64: ["1", "2", "9223372036854775807"] });
no(M, f("repeatedInt32", "1"), "json-type", "$.repeatedInt32");
no(M, f("repeatedInt32", "{}"), "json-type", "$.repeatedInt32");
no(M, f("repeatedInt32", "[1, [2]]"), "json-type", "$.repeatedInt32[1]");
no(M, f("repeatedInt32", '[1, "x", 3]'), "syntax", "$.repeatedInt32[1]");
no(M, f("mapStringString", "[]"), "json-type", "$.mapStringString");
no(M, f("mapStringString", '"x"'), "json-type", "$.mapStringString");
ok(M, f("mapInt32Int32", '{"1": 2, "-2147483648": "3"}'), { mapInt32Int32: { "1": 2, "-2147483648": 3 } }); // conformance: Int32MapField
ok(M, f("mapInt64Int64", '{"-9223372036854775808": "1"}'), { mapInt64Int64: { "-9223372036854775808": "1" } });
ok(M, f("mapUint64Uint64", '{"18446744073709551615": 1}'), { mapUint64Uint64: { "18446744073709551615": "1" } });
ok(M, f("mapBoolBool", '{"true": true, "false": false}'), { mapBoolBool: { true: true, false: false } }); // conformance: BoolMapField
ok(M, f("mapInt32Int32", '{"-0": 1}'), { mapInt32Int32: { "0": 1 } }); // Go and C++: "-0" is the key 0
// Integer map keys: Go (strconv.ParseInt), C++ (absl::SimpleAtoi) and protobuf-es all accept a leading zero
// or a '+', and the spec does not forbid them; we accept them too and write the canonical form. Two spellings
// of one key in one object ("01" and "1") are a duplicate.
ok(M, f("mapInt32Int32", '{"01": 1}'), { mapInt32Int32: { "1": 1 } }); // Go: accepts; C++: accepts
ok(M, f("mapInt32Int32", '{"+1": 1}'), { mapInt32Int32: { "1": 1 } }); // Go: accepts; C++: accepts
ok(M, f("mapInt32Int32", '{"-007": 1, "+0": 2}'), { mapInt32Int32: { "-7": 1, "0": 2 } });
ok(M, f("mapInt64Int64", '{"+09223372036854775807": "1"}'), { mapInt64Int64: { "9223372036854775807": "1" } });
ok(M, f("mapUint64Uint64", '{"00": "1"}'), { mapUint64Uint64: { "0": "1" } });
no(M, f("mapInt32Int32", '{"01": 1, "1": 2}'), "duplicate-field", '$.mapInt32Int32["01"]'); // "1" is read first: JavaScript lists integer keys first
no(M, f("mapInt32Int32", '{"+-1": 1}'), "syntax", '$.mapInt32Int32["+-1"]');
no(M, f("mapInt32Int32", '{"+": 1}'), "syntax", '$.mapInt32Int32["+"]');
no(M, f("mapUint32Uint32", '{"+4294967296": 1}'), "range", '$.mapUint32Uint32["+4294967296"]');
no(M, f("mapInt32Int32", '{" 1": 1}'), "syntax", '$.mapInt32Int32[" 1"]'); // Go: rejects; C++: accepts (SimpleAtoi skips spaces)
no(M, f("mapInt32Int32", '{"1.0": 1}'), "syntax", '$.mapInt32Int32["1.0"]'); // Go and C++: reject
no(M, f("mapInt32Int32", '{"1e0": 1}'), "syntax", '$.mapInt32Int32["1e0"]'); // Go and C++: reject
no(M, f("mapInt32Int32", '{"0x1": 1}'), "syntax", '$.mapInt32Int32["0x1"]');
no(M, f("mapInt32Int32", '{"": 1}'), "syntax", '$.mapInt32Int32[""]');
no(M, f("mapInt32Int32", '{"2147483648": 1}'), "range", '$.mapInt32Int32["2147483648"]');
no(M, f("mapUint32Uint32", '{"-1": 1}'), "range", '$.mapUint32Uint32["-1"]');
no(M, f("mapInt64Int64", '{"9223372036854775808": "1"}'), "range", '$.mapInt64Int64["9223372036854775808"]');
no(M, f("mapBoolBool", '{"True": true}'), "syntax", "$.mapBoolBool.True"); // Go and C++: "true" or "false" only
no(M, f("mapBoolBool", '{"1": true}'), "syntax", '$.mapBoolBool["1"]');
no(M, f("mapStringString", '{"\\ud800": "x"}'), "utf16", '$.mapStringString["\\ud800"]');
no(M, f("mapStringString", '{"a": "\\ud800"}'), "utf16", "$.mapStringString.a");
no(M, f("mapStringString", '{"a": 1}'), "json-type", "$.mapStringString.a");
ok(M, f("mapStringNestedEnum", '{"a": "BAR", "b": 2}'), { mapStringNestedEnum: { a: "BAR", b: "BAZ" } });
no(M, f("mapStringNestedEnum", '{"a": "NOPE"}'), "enum", "$.mapStringNestedEnum.a");
ok(
  M,
  f("mapStringNestedEnum", '{"a": "NOPE", "b": "BAR"}'),
  { mapStringNestedEnum: { b: "BAR" } },
  { ignoreUnknownFields: true },
);
no(M, f("mapStringNestedMessage", '{"a": {"a": "x"}}'), "syntax", "$.mapStringNestedMessage.a.a");
ok(M, f("mapInt32Int32", '{"1": "2"}'), { mapInt32Int32: { "1": 2 } });

group = "message nesting";
ok(M, f("optionalNestedMessage", '{"a": 1, "corecursive": {"optionalInt32": 2}}'), {
  optionalNestedMessage: { a: 1, corecursive: { optionalInt32: 2 } },
});
no(M, f("optionalNestedMessage", "[]"), "json-type", "$.optionalNestedMessage");
no(M, f("optionalNestedMessage", '"x"'), "json-type", "$.optionalNestedMessage");
no(
  M,
  f("optionalNestedMessage", '{"corecursive": {"optionalNestedMessage": {"b": 1}}}'),
  "unknown-field",
  "$.optionalNestedMessage.corecursive.optionalNestedMessage.b",
);
no(M, f("repeatedNestedMessage", '[{}, {"a": "x"}]'), "syntax", "$.repeatedNestedMessage[1].a");

group = "depth (maxDepth 100 by default: messages, Struct/Value/ListValue levels and Any each count one)";
/** `levels` nested recursiveMessage members. */
const nested = (levels: number): string => '{"recursiveMessage": '.repeat(levels) + "{}" + "}".repeat(levels);
const nestedJson = (levels: number): JsonValue => {
  let v: JsonValue = {};
  for (let k = 0; k < levels; k++) v = { recursiveMessage: v };
  return v;
};
// 100 messages (the root and 99 below it): C++ allows 100 nested objects too (recursion_depth 100). Go
// allows 10,000 (protowire.DefaultRecursionLimit).
ok(M, nested(99), nestedJson(99)); // C++: accepts
no(M, nested(100), "depth", "$" + ".recursiveMessage".repeat(100)); // C++: rejects (101 nested objects); Go: accepts
ok(M, nested(4), nestedJson(4), { maxDepth: 5 });
no(M, nested(5), "depth", "$" + ".recursiveMessage".repeat(5), { maxDepth: 5 });
ok(M, f("optionalValue", "[".repeat(99) + "]".repeat(99)), {
  optionalValue: JSON.parse("[".repeat(99) + "]".repeat(99)) as JsonValue,
}); // C++: accepts (100 levels)
no(M, f("optionalValue", "[".repeat(100) + "]".repeat(100)), "depth", "$.optionalValue" + "[0]".repeat(99)); // C++: rejects
ok(M, f("optionalStruct", '{"a": '.repeat(98) + "{}" + "}".repeat(98)), {
  optionalStruct: JSON.parse('{"a": '.repeat(98) + "{}" + "}".repeat(98)) as JsonValue,
});
no(M, f("optionalStruct", '{"a": '.repeat(99) + "{}" + "}".repeat(99)), "depth", "$.optionalStruct" + ".a".repeat(99));
// A repeated field's own array counts no level here (C++ counts every '[' and '{', so it stops one level sooner).
ok(M, f("repeatedValue", "[" + "[".repeat(99) + "]".repeat(99) + "]"), {
  repeatedValue: [JSON.parse("[".repeat(99) + "]".repeat(99)) as JsonValue],
}); // C++: rejects
no(
  M,
  f("repeatedValue", "[" + "[".repeat(100) + "]".repeat(100) + "]"),
  "depth",
  "$.repeatedValue[0]" + "[0]".repeat(99),
);

group = "Timestamp";
const TS = TimestampSchema;
ok(TS, '"1970-01-01T00:00:00Z"', "1970-01-01T00:00:00Z"); // conformance: TimestampEpochValue-like
ok(TS, '"0001-01-01T00:00:00Z"', "0001-01-01T00:00:00Z"); // conformance: TimestampMinValue
ok(TS, '"9999-12-31T23:59:59.999999999Z"', "9999-12-31T23:59:59.999999999Z"); // conformance: TimestampMaxValue
ok(TS, '"1970-01-01T00:00:00.000000001Z"', "1970-01-01T00:00:00.000000001Z"); // conformance: TimestampNanoAfterEpochlValue-like
ok(TS, '"1969-12-31T23:59:59.999999999Z"', "1969-12-31T23:59:59.999999999Z");
ok(TS, '"1970-01-01T00:00:00.000Z"', "1970-01-01T00:00:00Z"); // conformance: TimestampHasZeroFractionalDigit-like
ok(TS, '"1970-01-01T00:00:00.1Z"', "1970-01-01T00:00:00.100Z");
ok(TS, '"1970-01-01T00:00:00+01:00"', "1969-12-31T23:00:00Z"); // conformance: TimestampWithPositiveOffset
ok(TS, '"1970-01-01T00:00:00-08:00"', "1970-01-01T08:00:00Z"); // conformance: TimestampWithNegativeOffset
ok(TS, '"1970-01-01T00:00:00+23:59"', "1969-12-31T00:01:00Z");
ok(TS, '"0000-12-31T23:59:00-00:01"', "0001-01-01T00:00:00Z"); // the range applies after the offset
ok(TS, '"2024-02-29T12:00:00Z"', "2024-02-29T12:00:00Z");
ok(TS, '"2000-02-29T00:00:00Z"', "2000-02-29T00:00:00Z");
no(TS, '"0000-12-31T23:59:59Z"', "range", "$"); // spec: from 0001-01-01
no(TS, '"0001-01-01T00:00:00+00:01"', "range", "$");
no(TS, '"9999-12-31T23:59:59-00:01"', "range", "$");
no(TS, '"10000-01-01T00:00:00Z"', "syntax", "$"); // conformance: TimestampJsonInputTooLarge
no(TS, '"1970-01-01t00:00:00Z"', "syntax", "$"); // conformance: TimestampJsonInputLowercaseT
no(TS, '"1970-01-01T00:00:00z"', "syntax", "$"); // conformance: TimestampJsonInputLowercaseZ
no(TS, '"1970-01-01 00:00:00Z"', "syntax", "$"); // conformance: TimestampJsonInputMissingT
no(TS, '"1970-01-01T00:00:00"', "syntax", "$"); // conformance: TimestampJsonInputMissingZ
no(TS, '"1970-01-01T00:00:00+0100"', "syntax", "$"); // conformance: TimestampWithMissingColonInOffset
no(TS, '"1970-01-01T00:00:00.1234567891Z"', "syntax", "$"); // spec: up to 9 fraction digits
no(TS, '"1970-01-01T00:00:00.Z"', "syntax", "$");
no(TS, '"1970-1-01T00:00:00Z"', "syntax", "$");
no(TS, '" 1970-01-01T00:00:00Z"', "syntax", "$");
no(TS, '"1970-01-01T00:00:00Z "', "syntax", "$");
no(TS, '"+1970-01-01T00:00:00Z"', "syntax", "$");
no(TS, '"\uFF11970-01-01T00:00:00Z"', "syntax", "$"); // a fullwidth digit is no digit
no(TS, '"1970-01-01T00:00:00+01:00Z"', "syntax", "$");
no(TS, '"1970-01-01T00:00:00.5+1:00"', "syntax", "$");
// Dates and times that do not exist. RFC 3339 §5.7 bounds every part; Go's time.Parse rejects each. The C++
// parser reads the digits without bounds and lets the calendar roll over (Feb 30 is Mar 1), so it accepts.
no(TS, '"2024-02-30T00:00:00Z"', "range", "$"); // Go: rejects; C++: accepts (rolls over)
no(TS, '"2023-02-29T00:00:00Z"', "range", "$"); // Go: rejects; C++: accepts
no(TS, '"1900-02-29T00:00:00Z"', "range", "$"); // Go: rejects; C++: accepts
no(TS, '"1970-13-01T00:00:00Z"', "range", "$"); // Go: rejects; C++: accepts
no(TS, '"1970-00-01T00:00:00Z"', "range", "$"); // Go and C++: reject
no(TS, '"1970-01-00T00:00:00Z"', "range", "$"); // Go and C++: reject
no(TS, '"1970-01-01T24:00:00Z"', "range", "$"); // Go: rejects; C++: accepts
no(TS, '"1970-01-01T23:60:00Z"', "range", "$"); // Go: rejects; C++: accepts
no(TS, '"1970-01-01T23:59:60Z"', "range", "$"); // spec: leap seconds are smeared; Go: rejects; C++: accepts
no(TS, '"1970-01-01T00:00:00+24:00"', "range", "$"); // Go: rejects; C++: accepts
no(TS, '"1970-01-01T00:00:00+00:60"', "range", "$"); // Go: rejects; C++: accepts
no(TS, "1", "json-type", "$");
// A bare null as the whole text: C++ accepts (an empty Timestamp); Go rejects (not a string). We follow Go:
// null means "the default" for a field, and the whole text has no field.
no(TS, "null", "json-type", "$"); // Go: rejects; C++: accepts
no(TS, '{"seconds": 1}', "json-type", "$"); // Go: rejects; C++: only in legacy mode
no(TS, '"\\ud800"', "syntax", "$");
no(M, f("optionalTimestamp", '"x"'), "syntax", "$.optionalTimestamp");
no(M, f("repeatedTimestamp", '["1970-01-01T00:00:00Z", 1]'), "json-type", "$.repeatedTimestamp[1]");
ok(M, f("repeatedTimestamp", '["1970-01-01T00:00:00+01:00"]'), { repeatedTimestamp: ["1969-12-31T23:00:00Z"] }); // conformance: TimestampRepeatedValue-like

group = "Duration";
const DU = DurationSchema;
ok(DU, '"1s"', "1s");
ok(DU, '"1.5s"', "1.500s");
ok(DU, '"-0.5s"', "-0.500s"); // conformance: DurationNegativeNanos-like
ok(DU, '"0s"', "0s");
ok(DU, '"-0s"', "0s");
ok(DU, '"0.000000001s"', "0.000000001s");
ok(DU, '"1.000340012s"', "1.000340012s"); // conformance: DurationHas9FractionalDigits-like
ok(DU, '"1.0s"', "1s");
ok(DU, '"315576000000s"', "315576000000s"); // conformance: DurationMaxValue
ok(DU, '"-315576000000s"', "-315576000000s"); // conformance: DurationMinValue
ok(DU, '"315576000000.999999999s"', "315576000000.999999999s"); // spec: nanos up to 999,999,999
no(DU, '"315576000001s"', "range", "$"); // conformance: DurationJsonInputTooLarge
no(DU, '"-315576000001s"', "range", "$"); // conformance: DurationJsonInputTooSmall
no(DU, '"9223372036854775808s"', "range", "$");
no(DU, '"1"', "syntax", "$"); // conformance: DurationMissingS
no(DU, '"1S"', "syntax", "$");
no(DU, '"1ss"', "syntax", "$");
no(DU, '"1.0000000001s"', "syntax", "$"); // spec: nanosecond resolution
// Spec form -?digits[.digits]s. Go's parseDuration also takes "+1s", "1.s" and ".5s"; C++ rejects all three
// ("duration must start with an integer", "duration had bad nanoseconds"). We follow C++ and the spec's form.
no(DU, '"+1s"', "syntax", "$"); // Go: accepts; C++: rejects
no(DU, '"1.s"', "syntax", "$"); // Go: accepts; C++: rejects
no(DU, '".5s"', "syntax", "$"); // Go: accepts; C++: rejects
no(DU, '"-.5s"', "syntax", "$"); // Go: accepts; C++: rejects
// Leading zeros: C++ accepts (absl::SimpleAtoi); Go rejects ("0" must be followed by "." or "s").
no(DU, '"01s"', "syntax", "$"); // Go: rejects; C++: accepts
no(DU, '"1e3s"', "syntax", "$"); // Go and C++: reject
no(DU, '" 1s"', "syntax", "$");
no(DU, '"1s "', "syntax", "$");
no(DU, '"--1s"', "syntax", "$");
no(DU, '"1.5ms"', "syntax", "$");
no(DU, '"PT1S"', "syntax", "$");
no(DU, '"0x10s"', "syntax", "$");
no(DU, '"1,5s"', "syntax", "$");
no(DU, "1", "json-type", "$");
no(DU, "null", "json-type", "$"); // as Timestamp: Go rejects, C++ accepts
no(M, f("optionalDuration", '"x"'), "syntax", "$.optionalDuration");
ok(M, f("repeatedDuration", '["1.5s", "-1s"]'), { repeatedDuration: ["1.500s", "-1s"] }); // conformance: DurationRepeatedValue-like

group = "FieldMask";
const FM = FieldMaskSchema;
ok(FM, '"a,b.cD"', "a,b.cD");
ok(FM, '""', "");
ok(FM, '"fooBar"', "fooBar");
ok(FM, '"Foo"', "Foo"); // "_foo" round-trips; Go and C++ accept
ok(FM, '"constructor.prototype.polluted"', "constructor.prototype.polluted"); // path segments are plain data
ok(FM, '"a.b.c.d.e.f"', "a.b.c.d.e.f");
no(FM, '"foo_bar"', "mask-path", "$"); // conformance: FieldMaskInvalidCharacter
no(FM, '"__proto__.x"', "mask-path", "$");
no(FM, '"a,"', "mask-path", "$");
no(FM, '","', "mask-path", "$");
no(FM, '"a..b"', "mask-path", "$");
// Surrounding space: Go trims it (strings.TrimSpace) and accepts; C++ rejects ("unexpected character in
// FieldMask"). We follow C++: the form has no place for it.
no(FM, '" a"', "mask-path", "$"); // Go: accepts; C++: rejects
// A segment starting with a digit: Go rejects (not a valid full name); C++ accepts (digits anywhere).
no(FM, '"1a"', "mask-path", "$"); // Go: rejects; C++: accepts
no(FM, '"a-b"', "mask-path", "$");
no(FM, '"a,\\ud800"', "mask-path", "$");
no(FM, '"a/b"', "mask-path", "$");
no(FM, "1", "json-type", "$");
no(FM, '["a"]', "json-type", "$");
no(FM, '{"paths": ["a"]}', "json-type", "$"); // Go: rejects; C++: only in legacy mode
no(M, f("optionalFieldMask", '"a_b"'), "mask-path", "$.optionalFieldMask");
ok(M, f("repeatedFieldmask", '["a", "", "b.c"]'), { repeatedFieldmask: ["a", "", "b.c"] });

group = "Struct";
const ST = StructSchema;
ok(ST, "{}", {});
ok(ST, '{"a": 1, "b": [true, null, "x", {"c": -0}]}', { a: 1, b: [true, null, "x", { c: -0 }] });
ok(ST, '{"__proto__": {"polluted": true}}', o(["__proto__", { polluted: true }]));
ok(ST, '{"constructor": {"prototype": {"polluted": true}}}', { constructor: { prototype: { polluted: true } } });
ok(ST, '{"a": 123456789012345678901234567890}', { a: 1.2345678901234568e29 });
ok(ST, '{"a": 9007199254740993}', { a: 9007199254740992 }); // a Value number is a double (Go and C++ agree)
no(ST, '{"a": 1e309}', "not-finite", "$.a"); // C++: "invalid number"; Go: rejects
no(ST, '{"a": -1e309}', "not-finite", "$.a");
no(ST, '{"a": ' + "9".repeat(400) + "}", "not-finite", "$.a");
no(ST, '{"a": "\\ud800"}', "utf16", "$.a"); // C++: "invalid low surrogate" in every string; Go: invalid escape
no(ST, '{"\\ud800": 1}', "utf16", '$["\\ud800"]');
no(ST, '{"a": {"b": [1, {"c": "\\udc00"}]}}', "utf16", "$.a.b[1].c");
no(ST, '{"a": NaN}', "syntax", "$.a");
no(ST, '{"a": 1, "a": 2}', "duplicate-field", "$.a");
no(ST, "[]", "json-type", "$");
no(ST, "1", "json-type", "$");
no(ST, "null", "json-type", "$"); // Go: rejects; C++: accepts (an empty Struct)
ok(
  ST,
  '{"a": '.repeat(99) + "{}" + "}".repeat(99),
  JSON.parse('{"a": '.repeat(99) + "{}" + "}".repeat(99)) as JsonValue,
); // C++: accepts (100 levels)
no(ST, '{"a": '.repeat(100) + "{}" + "}".repeat(100), "depth", "$" + ".a".repeat(100)); // C++: rejects

group = "Value";
const VA = ValueSchema;
ok(VA, "null", null); // conformance: ValueAcceptNull
ok(VA, "1.5", 1.5); // conformance: ValueAcceptFloat
ok(VA, '"x"', "x"); // conformance: ValueAcceptString
ok(VA, "true", true); // conformance: ValueAcceptBool
ok(VA, '[1, [2, {"a": null}]]', [1, [2, { a: null }]]); // conformance: ValueAcceptList
ok(VA, "-0", -0);
ok(VA, '"NaN"', "NaN"); // a string Value, not a number (Go's comment on unmarshalKnownValue)
ok(VA, '"Infinity"', "Infinity");
no(VA, "1e309", "not-finite", "$"); // conformance: ValueRejectInfNumberValue (from the other side)
no(VA, "NaN", "syntax", "$");
no(VA, '"\\ud800"', "utf16", "$");
no(VA, "[1, 1e400]", "not-finite", "$[1]");
no(VA, "", "syntax", "$");
ok(VA, "[".repeat(100) + "]".repeat(100), JSON.parse("[".repeat(100) + "]".repeat(100)) as JsonValue);
no(VA, "[".repeat(101) + "]".repeat(101), "depth", "$" + "[0]".repeat(100));

group = "ListValue";
const LV = ListValueSchema;
ok(LV, "[]", []);
ok(LV, '[1, "a", null, {}]', [1, "a", null, {}]);
no(LV, "{}", "json-type", "$");
no(LV, "null", "json-type", "$"); // Go: rejects; C++: accepts (an empty ListValue)
no(LV, "[1e309]", "not-finite", "$[0]");
no(LV, '[{"\\ud800": 1}]', "utf16", '$[0]["\\ud800"]');

group = "Any";
const AN = AnySchema;
ok(AN, "{}", {});
ok(AN, anyOf("google.protobuf.Duration", '"value": "1s"'), { "@type": wkt("Duration"), value: "1s" }); // conformance: AnyWithDuration
ok(AN, `{"value": "1.5s", "@type": "${wkt("Duration")}"}`, { "@type": wkt("Duration"), value: "1.500s" }); // conformance: AnyUnorderedTypeTag
ok(AN, anyOf("google.protobuf.Timestamp", '"value": "1970-01-01T00:00:00+01:00"'), {
  "@type": wkt("Timestamp"),
  value: "1969-12-31T23:00:00Z",
}); // conformance: AnyWithTimestamp
ok(AN, anyOf("google.protobuf.FieldMask", '"value": "a,bC"'), { "@type": wkt("FieldMask"), value: "a,bC" }); // conformance: AnyWithFieldMask
ok(AN, anyOf("google.protobuf.Struct", '"value": {"a": [1]}'), { "@type": wkt("Struct"), value: { a: [1] } }); // conformance: AnyWithStruct
ok(AN, anyOf("google.protobuf.Int32Value", '"value": 12345'), { "@type": wkt("Int32Value"), value: 12345 }); // conformance: AnyWithInt32ValueWrapper
ok(AN, anyOf("google.protobuf.Int64Value", '"value": 9223372036854775807'), {
  "@type": wkt("Int64Value"),
  value: "9223372036854775807",
});
ok(AN, anyOf("google.protobuf.Int64Value", '"value": 9.223372036854775807e18'), {
  "@type": wkt("Int64Value"),
  value: "9223372036854775807",
}); // Go: accepts; C++: rejects
no(AN, anyOf("google.protobuf.Int64Value", '"value": 9007199254740993.5'), "syntax", "$.value");
no(AN, anyOf("google.protobuf.Int32Value", '"value": 1e-400'), "syntax", "$.value");
ok(AN, anyOf("google.protobuf.DoubleValue", '"value": 1e-400'), { "@type": wkt("DoubleValue"), value: 0 });
ok(AN, anyOf("google.protobuf.Value", '"value": 1.00000000000000000001'), { "@type": wkt("Value"), value: 1 });
ok(AN, anyOf("google.protobuf.Empty", ""), { "@type": wkt("Empty") }); // Go: tolerates Empty without "value"
ok(AN, anyOf("google.protobuf.Empty", '"value": {}'), { "@type": wkt("Empty") });
no(AN, anyOf("google.protobuf.Empty", '"value": {"a": 1}'), "unknown-field", "$.value.a");
ok(AN, anyOf(T3, '"optionalInt32": 1'), { "@type": url(T3), optionalInt32: 1 }); // conformance: AnyNested-like
ok(AN, anyOf("google.protobuf.Any", `"value": ${anyOf("google.protobuf.Duration", '"value": "1s"')}`), {
  "@type": wkt("Any"),
  value: { "@type": wkt("Duration"), value: "1s" },
}); // conformance: AnyNested
ok(AN, `{"@type": "https://example.com/a/b/google.protobuf.Duration", "value": "1s"}`, {
  "@type": "https://example.com/a/b/google.protobuf.Duration",
  value: "1s",
});
no(AN, anyOf("google.protobuf.Duration", '"value": "x"'), "syntax", "$.value");
no(AN, anyOf("google.protobuf.Duration", '"value": "1s", "extra": 1'), "unknown-field", "$.extra"); // C++: "fields in a well-known-typed Any must be @type or value"; Go: unknown field
no(AN, anyOf("google.protobuf.Duration", ""), "json-type", "$"); // Go: missing "value" field
no(AN, '{"optionalInt32": 1}', "type-url", "$"); // conformance: AnyWithNoType-like; Go: missing "@type"
no(AN, '{"@type": 1}', "json-type", '$["@type"]'); // Go: @type field value is not a string
no(AN, '{"@type": ""}', "type-url", '$["@type"]'); // Go: @type field contains empty value
no(AN, '{"@type": "x"}', "type-url", '$["@type"]');
no(AN, '{"@type": "type.googleapis.com/"}', "type-url", '$["@type"]');
no(AN, '{"@type": "type.googleapis.com/unknown.Type"}', "unknown-type", '$["@type"]'); // conformance: AnyWktRepresentationWithBadType-like
no(AN, anyOf(T3, '"optionalInt32": "x"'), "syntax", "$.optionalInt32");
no(AN, anyOf(T3, '"optionalInt32": 1, "optional_int32": 2'), "duplicate-field", "$.optional_int32");
no(AN, anyOf(T3, '"__proto__": {"optionalInt32": 1}'), "unknown-field", "$.__proto__");
no(AN, anyOf("google.protobuf.Value", '"value": 1e309'), "not-finite", "$.value");
no(AN, anyOf("google.protobuf.FieldMask", '"value": "a_b"'), "mask-path", "$.value");
no(AN, '"x"', "json-type", "$");
no(AN, "[]", "json-type", "$");
no(AN, "null", "json-type", "$");
ok(M, f("optionalAny", anyOf("google.protobuf.Struct", '"value": {"__proto__": {"polluted": true}}')), {
  optionalAny: { "@type": wkt("Struct"), value: o(["__proto__", { polluted: true }]) },
});
no(
  M,
  f("optionalAny", anyOf(T3, '"optionalAny": ' + anyOf("google.protobuf.Duration", '"value": 1'))),
  "json-type",
  "$.optionalAny.optionalAny.value",
);

group = "Empty";
ok(EmptySchema, "{}", {});
no(EmptySchema, '{"a": 1}', "unknown-field", "$.a");
ok(EmptySchema, '{"a": 1}', {}, { ignoreUnknownFields: true });
no(EmptySchema, "[]", "json-type", "$");

group = "wrappers";
ok(Int64ValueSchema, '"9223372036854775807"', "9223372036854775807");
ok(Int64ValueSchema, "9223372036854775807", "9223372036854775807");
ok(Int64ValueSchema, "9.223372036854775807e18", "9223372036854775807"); // Go: accepts; C++: rejects
no(Int64ValueSchema, "9007199254740993.5", "syntax", "$");
no(Int64ValueSchema, '"x"', "syntax", "$");
// A bare null wrapper: C++ reads it as the default (the field is left unset); Go rejects (null is no int64).
// We follow C++, as wrapperFromJson documents: a wrapper's JSON is its scalar's, and null is the default.
ok(Int64ValueSchema, "null", "0"); // C++: accepts; Go: rejects
no(UInt64ValueSchema, "-1", "range", "$");
ok(UInt64ValueSchema, "18446744073709551615", "18446744073709551615");
no(Int32ValueSchema, "2147483648", "range", "$");
no(Int32ValueSchema, "1.5", "syntax", "$");
no(Int32ValueSchema, "1.00000000000000000001", "syntax", "$");
no(UInt64ValueSchema, " -1e-400 ", "syntax", "$");
ok(Int32ValueSchema, "100.000", 100);
no(M, f("optionalUint32Wrapper", "0.99999999999999999999"), "syntax", "$.optionalUint32Wrapper");
no(M, f("repeatedInt64Wrapper", "[1e-400]"), "syntax", "$.repeatedInt64Wrapper[0]");
ok(M, f("optionalFloatWrapper", "1e-400"), { optionalFloatWrapper: 0 });
ok(UInt32ValueSchema, "4294967295", 4294967295);
no(BoolValueSchema, '"true"', "json-type", "$");
ok(BoolValueSchema, "true", true);
no(StringValueSchema, '"\\ud800"', "utf16", "$");
no(StringValueSchema, "1", "json-type", "$");
ok(BytesValueSchema, '"AQID"', "AQID");
no(BytesValueSchema, '"!"', "syntax", "$");
ok(DoubleValueSchema, '"NaN"', "NaN");
no(DoubleValueSchema, "1e309", "range", "$");
no(FloatValueSchema, "3.5e38", "range", "$");
no(DoubleValueSchema, '{"value": 1}', "json-type", "$"); // Go: rejects; C++: only in legacy mode
ok(M, f("optionalInt64Wrapper", "9223372036854775807"), { optionalInt64Wrapper: "9223372036854775807" });
no(M, f("optionalInt64Wrapper", "9007199254740993.5"), "syntax", "$.optionalInt64Wrapper");
ok(M, f("repeatedInt64Wrapper", '[9.223372036854775807e18, "1"]'), {
  repeatedInt64Wrapper: ["9223372036854775807", "1"],
});

group = "no way in through a key";
ok(M, f("mapStringString", '{"__proto__": "x", "constructor": "y", "prototype": "z"}'), {
  mapStringString: o(["__proto__", "x"], ["constructor", "y"], ["prototype", "z"]),
});
ok(M, f("mapStringNestedMessage", '{"__proto__": {"a": 1}}'), { mapStringNestedMessage: o(["__proto__", { a: 1 }]) });
ok(M, f("optionalStruct", '{"__proto__": {"polluted": true}}'), {
  optionalStruct: o(["__proto__", { polluted: true }]),
});
ok(M, f("optionalValue", '{"constructor": {"prototype": {"polluted": true}}}'), {
  optionalValue: { constructor: { prototype: { polluted: true } } },
});
ok(M, f("repeatedStruct", '[{"__proto__": {"toString": 1}}]'), { repeatedStruct: [o(["__proto__", { toString: 1 }])] });
ok(M, f("optionalFieldMask", '"constructor.prototype"'), { optionalFieldMask: "constructor.prototype" });
ok(M, f("__proto__", '{"polluted": true}'), {}, { ignoreUnknownFields: true });
ok(M, '{"constructor": {"prototype": {"polluted": true}}, "prototype": 1}', {}, { ignoreUnknownFields: true });

export const hostileCases: readonly Case[] = cases;
