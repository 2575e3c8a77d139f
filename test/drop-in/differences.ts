// The deliberate differences between wkt-json's JSON codec and @bufbuild/protobuf's, each backed by a spec
// text (the proto3 JSON mapping, the well-known types' JSON forms, RFC 3339), and every hostile-table input (test/hostile/cases.ts) on which the two libraries disagree, filed under
// one of them. codec.test.ts checks that the disagreements are exactly these, and the table in docs/switching-from-protobuf-es.md
// lists exactly these ids.

/** One deliberate difference: what we do, and the text that backs it. */
export interface Difference {
  id: string;
  /** What wkt-json does where protobuf-es does otherwise. */
  ours: string;
  /** The spec text (or conformance test) that backs it. */
  spec: string;
  /**
   * For a difference no input of the hostile table shows (it is about writing, or about errors): the test in
   * test/drop-in/ that pins it.
   */
  pinnedBy?: string;
}

export const differences: readonly Difference[] = [
  {
    id: "int64-exact",
    ours: "A 64-bit integer in the text keeps every digit, also unquoted or in exponent form (9223372036854775807, 9.223372036854775807e18, 10e-1); protobuf-es reads the text with JSON.parse, rounds to a double, and refuses or changes such values",
    spec: 'Proto3 JSON mapping, int64/fixed64/uint64: "Either numbers or strings are accepted. Exponent notation is also accepted."',
  },
  {
    id: "int64-fraction",
    ours: "A number that is not an integer is refused by an integer or enum field, even where its double is one: 9007199254740993.5, 1.00000000000000000001, 1e-400 (from a text, judged by its decimal value, as a string is)",
    spec: "Proto3 JSON mapping, int32/int64: an integer field takes integer values; conformance Int64FieldNotInteger",
  },
  {
    id: "number-string",
    ours: "A number in a string must be a JSON number's text: no '+', leading zero, hex, white space, '.5' or '1.'",
    spec: 'Proto3 JSON mapping: "Either numbers or strings are accepted" (the string holds the number); conformance Int32FieldLeadingZero, Int32FieldPlusSign; Go\'s protojson refuses these strings',
  },
  {
    id: "map-key-decimal",
    ours: 'An integer map key is a decimal integer: "1.0", "1e0", "0x1" are refused',
    spec: 'Proto3 JSON mapping, map<K,V>: "All keys are converted to strings" (the key\'s decimal text); Go (strconv.ParseInt) refuses these keys',
  },
  {
    id: "map-key-canonical",
    ours: 'An integer map key read as "+09" is written back as "9"',
    spec: "Proto3 JSON mapping: keys are the decimal text of the key; one key, one spelling",
  },
  {
    id: "base64",
    ours: "bytes must be base64: wrong padding, data after padding, white space are refused",
    spec: 'Proto3 JSON mapping, bytes: "standard base64 encoding with paddings. Either standard or URL-safe base64 encoding with/without paddings are accepted."',
  },
  {
    id: "timestamp-date",
    ours: "A Timestamp must name a real date and time: 2024-02-30, 1900-02-29, 24:00:00 are refused",
    spec: "Timestamp JSON form, RFC 3339 §5.7: date-mday 01-28/29/30/31 by month and year, time-hour 00-23",
  },
  {
    id: "duration-syntax",
    ours: 'A Duration is decimal seconds and one \'s\': "1ss", "01s", "1s " are refused',
    spec: 'Duration JSON form: "string: decimal seconds with optional fraction, suffix s"',
  },
  {
    id: "field-mask-syntax",
    ours: "A FieldMask string is comma-separated lower-camel paths: empty paths or segments, spaces and other characters are refused",
    spec: 'FieldMask JSON form: "one string, paths joined by commas, each name in lower-camel form"; Go\'s protojson refuses the same',
  },
  {
    id: "value-finite",
    ours: "A number too large for a double (1e309) is refused in google.protobuf.Value, not read as Infinity",
    spec: 'google.protobuf.Value: "number_value cannot carry NaN or Infinity"',
  },
  {
    id: "utf16",
    ours: "A lone surrogate in a Struct or Value string or key is refused",
    spec: "Proto3 JSON mapping: string is UTF-8 text; a lone surrogate has no UTF-8 form (the string fields refuse it in both libraries)",
  },
  {
    id: "any-members",
    ours: 'An Any of a type with its own JSON form holds "@type" and "value" only: another member is refused',
    spec: 'Any JSON form: "if the embedded type has a custom JSON form, that form is placed in a field value next to @type"',
  },
  {
    id: "any-empty",
    ours: 'An Any of google.protobuf.Empty is read with or without "value": {}; protobuf-es refuses "value"',
    spec: 'Proto3 JSON mapping lists Empty ("object {}") with the well-known types that have their own JSON form, which an Any places in "value"',
  },
  {
    id: "any-type-url",
    ours: "An Any read from JSON keeps its type URL as given (https://example.com/a/b/T); protobuf-es replaces the host with type.googleapis.com",
    spec: "Any type URLs: {type_host}/<type name>, any host; the message read is the message sent",
  },
  {
    id: "oneof-skipped-enum",
    ours: "Under ignoreUnknownFields, an unknown enum name for a oneof member is skipped and does not set the oneof, so another member may set it",
    spec: 'Proto3 JSON mapping: with ignoring, "unrecognized enum string values" are ignored as unknown fields are',
  },
  {
    id: "negative-zero",
    ours: "-0 in a double or float field, or a google.protobuf.Value number, is written -0 in text; protobuf-es's text (JSON.stringify) prints 0",
    spec: "Proto3 JSON mapping, float/double: a JSON number, and -0 is one (RFC 8259); the C++ and Go reference writers print -0",
  },
  {
    id: "depth",
    ours: "maxDepth (recursionLimit) counts messages, Struct, ListValue and Any levels (100 lists nested deep are read); protobuf-es also counts every Value, and lets one more message level through",
    spec: "Proto3 JSON mapping is silent; our limit is stated in docs/hostile-input.md",
  },
  {
    id: "write-range",
    ours: "toJson refuses a value out of its field's range (a uint32 of -1, a uint64 of -1n): rule range; protobuf-es writes -1, which its own fromJson then refuses",
    spec: "Proto3 JSON mapping: uint32/uint64 hold non-negative integers; conformance Uint32FieldTooLarge and friends refuse out-of-range values on read",
    pinnedBy: "api.test.ts",
  },
  {
    id: "any-type-json-name",
    ours: 'An Any of a message with a field whose JSON name is "@type" is refused (rule type-url), on write and on read; protobuf-es writes it and the field is lost',
    spec: 'Any JSON form: the embedded message\'s own JSON plus "@type" holding the type URL; protoc refuses a field JSON name that clashes',
    pinnedBy: "api.test.ts",
  },
  {
    id: "closed-enum-number",
    ours: "A closed enum (proto2, enum_type = CLOSED) takes any int32 number, also one it does not declare, as an open enum does: toJson writes such a number (protobuf-es's binary reader keeps one in a repeated or map field), and fromJson reads it back; protobuf-es refuses it on read",
    spec: "What we write we read; protobuf-go's protojson reads any int32 into an enum field, the C++ parser keeps a closed enum's undeclared number as an unknown field; the conformance suite has no JSON test of it",
    pinnedBy: "api.test.ts",
  },
  {
    id: "required-on-read",
    ours: "fromJson refuses JSON that leaves a proto2 required field (LEGACY_REQUIRED) unset, at any depth: rule required, at the path of the missing field; protobuf-es reads it and then cannot write it (toJson, toBinary). The option allowPartial: true reads it as protobuf-es does",
    spec: "protobuf-go's protojson.Unmarshal checks required fields (proto.CheckInitialized) unless UnmarshalOptions.AllowPartial; toJson refuses such a message, in both libraries",
    pinnedBy: "api.test.ts",
  },
  {
    id: "json-name-clash",
    ours: "A message type in which one JSON key names two fields (json_format = LEGACY_BEST_EFFORT lets protoc accept foo_bar beside fooBar, or a json_name that is another field's name) is refused by every reader and writer: rule duplicate-field, naming both fields; protobuf-es sets both fields from one member, or writes them as one",
    spec: 'Proto3 JSON mapping: "Parsers accept both the lowerCamelCase JSON name (or the one specified by the json_name option) and the original proto field name": a key must name one field; protoc refuses such clashes outside LEGACY_BEST_EFFORT',
    pinnedBy: "api.test.ts",
  },
  {
    id: "errors",
    ours: 'Every error is a WktJsonError with rule, JSON path from the root and, from text, line and column; protobuf-es throws Error("cannot decode ... from JSON: ..."): code that matches message texts must match rule and path instead',
    spec: "Our error model (README, The error model); the spec leaves messages to the implementation",
    pinnedBy: "api.test.ts",
  },
];

/** [message type's simple name, text (or its key), relation, "text" (only from text) or "both" (text and value)]. */
export type Divergence = [string, string, "stricter" | "accepted" | "output", "text" | "both"];

/** Every hostile-table input on which the two libraries disagree, by difference. */
export const divergences: readonly [string, readonly Divergence[]][] = [
  [
    "int64-exact",
    [
      ["TestAllTypesProto3", '{"optionalInt64": 9223372036854775807}', "accepted", "text"],
      ["TestAllTypesProto3", '{"optionalInt64": 9007199254740993}', "output", "text"],
      ["TestAllTypesProto3", '{"optionalInt64": -9007199254740993}', "output", "text"],
      ["TestAllTypesProto3", '{"optionalInt64": 9.223372036854775807e18}', "accepted", "text"],
      ["TestAllTypesProto3", '{"optionalInt64": 9223372036854775807.000}', "accepted", "text"],
      ["TestAllTypesProto3", '{"optionalInt64": 12345678901234567.89e2}', "output", "text"],
      ["TestAllTypesProto3", '{"optionalInt64": "9.223372036854775807e18"}', "accepted", "both"],
      ["TestAllTypesProto3", '{"optionalInt64": "10e-1"}', "accepted", "both"],
      ["TestAllTypesProto3", '{"optionalUint64": 18446744073709551615}', "accepted", "text"],
      ["TestAllTypesProto3", '{"optionalUint64": 1.8446744073709551615e19}', "accepted", "text"],
      ["TestAllTypesProto3", '{"optionalUint64": "1.8446744073709551615e19"}', "accepted", "both"],
      ["TestAllTypesProto3", '{"optionalSfixed64": 9223372036854775807}', "accepted", "text"],
      ["TestAllTypesProto3", '{"repeatedInt64": [1, "2", 9223372036854775807]}', "accepted", "text"],
      [
        "Any",
        '{"@type": "type.googleapis.com/google.protobuf.Int64Value", "value": 9223372036854775807}',
        "accepted",
        "text",
      ],
      [
        "Any",
        '{"@type": "type.googleapis.com/google.protobuf.Int64Value", "value": 9.223372036854775807e18}',
        "accepted",
        "text",
      ],
      ["Int64Value", "9223372036854775807", "accepted", "text"],
      ["Int64Value", "9.223372036854775807e18", "accepted", "text"],
      ["UInt64Value", "18446744073709551615", "accepted", "text"],
      ["TestAllTypesProto3", '{"optionalInt64Wrapper": 9223372036854775807}', "accepted", "text"],
      ["TestAllTypesProto3", '{"repeatedInt64Wrapper": [9.223372036854775807e18, "1"]}', "accepted", "text"],
    ],
  ],
  [
    "int64-fraction",
    [
      ["TestAllTypesProto3", '{"optionalInt64": 9007199254740993.5}', "stricter", "text"],
      ["TestAllTypesProto3", '{"optionalInt64": 18014398509481985.5}', "stricter", "text"],
      ["TestAllTypesProto3", '{"optionalInt64": -9007199254740993.5}', "stricter", "text"],
      [
        "Any",
        '{"@type": "type.googleapis.com/google.protobuf.Int64Value", "value": 9007199254740993.5}',
        "stricter",
        "text",
      ],
      ["Int64Value", "9007199254740993.5", "stricter", "text"],
      ["TestAllTypesProto3", '{"optionalInt64Wrapper": 9007199254740993.5}', "stricter", "text"],
      // Literals whose double is an integer (issue 25): judged by their decimal text.
      ["TestAllTypesProto3", '{"optionalInt32": 1.0000000000000001}', "stricter", "text"],
      ["TestAllTypesProto3", '{"optionalInt32": 2147483647.00000001}', "stricter", "text"],
      ["TestAllTypesProto3", '{"optionalInt32": 1.00000000000000000001}', "stricter", "text"],
      ["TestAllTypesProto3", '{"optionalInt32": 0.99999999999999999999}', "stricter", "text"],
      ["TestAllTypesProto3", '{"optionalInt32": 1e-400}', "stricter", "text"],
      ["TestAllTypesProto3", '{"optionalInt32": -1e-400}', "stricter", "text"],
      ["TestAllTypesProto3", '{"repeatedInt32": [1, 1e-400]}', "stricter", "text"],
      ["TestAllTypesProto3", '{"mapInt32Int32": {"1": 0.99999999999999999999}}', "stricter", "text"],
      ["TestAllTypesProto3", '{"optionalUint64": 4503599627370496.5}', "stricter", "text"],
      ["TestAllTypesProto3", '{"optionalSint64": -1e-400}', "stricter", "text"],
      ["TestAllTypesProto3", '{"oneofUint64": 1e-400}', "stricter", "text"],
      ["TestAllTypesProto3", '{"oneofUint32": 0.99999999999999999999}', "stricter", "text"],
      ["TestAllTypesProto3", '{"optionalNestedEnum": 1.00000000000000000001}', "stricter", "text"],
      ["TestAllTypesProto3", '{"optionalNullValue": 1e-400}', "stricter", "text"],
      ["Any", '{"@type": "type.googleapis.com/google.protobuf.Int32Value", "value": 1e-400}', "stricter", "text"],
      ["Int32Value", "1.00000000000000000001", "stricter", "text"],
      ["UInt64Value", " -1e-400 ", "stricter", "text"],
      ["TestAllTypesProto3", '{"optionalUint32Wrapper": 0.99999999999999999999}', "stricter", "text"],
      ["TestAllTypesProto3", '{"repeatedInt64Wrapper": [1e-400]}', "stricter", "text"],
      // The same as strings: protobuf-es reads a numeric string as a double too.
      ["TestAllTypesProto3", '{"optionalInt32": "1.0000000000000001"}', "stricter", "both"],
      ["TestAllTypesProto3", '{"optionalInt32": "1e-400"}', "stricter", "both"],
      ["TestAllTypesProto3", '{"optionalInt32": "1e-400", "optionalString": "1e-400"}', "stricter", "both"],
    ],
  ],
  [
    "number-string",
    [
      ["TestAllTypesProto3", '{"optionalInt32": "+1"}', "stricter", "both"],
      ["TestAllTypesProto3", '{"optionalInt32": "01"}', "stricter", "both"],
      ["TestAllTypesProto3", '{"optionalInt32": "0x7FFFFFFF"}', "stricter", "both"],
      ["TestAllTypesProto3", '{"optionalInt64": "0x7FFFFFFFFFFFFFFF"}', "stricter", "both"],
      ["TestAllTypesProto3", '{"optionalInt64": "9223372036854775807 "}', "stricter", "both"],
      ["TestAllTypesProto3", '{"optionalDouble": "+1.5"}', "stricter", "both"],
      ["TestAllTypesProto3", '{"optionalDouble": "0x10"}', "stricter", "both"],
      ["TestAllTypesProto3", '{"optionalDouble": ".5"}', "stricter", "both"],
      ["TestAllTypesProto3", '{"optionalDouble": "1."}', "stricter", "both"],
    ],
  ],
  [
    "map-key-decimal",
    [
      ["TestAllTypesProto3", '{"mapInt32Int32": {"1.0": 1}}', "stricter", "both"],
      ["TestAllTypesProto3", '{"mapInt32Int32": {"1e0": 1}}', "stricter", "both"],
      ["TestAllTypesProto3", '{"mapInt32Int32": {"0x1": 1}}', "stricter", "both"],
    ],
  ],
  [
    "map-key-canonical",
    [["TestAllTypesProto3", '{"mapInt64Int64": {"+09223372036854775807": "1"}}', "output", "both"]],
  ],
  [
    "base64",
    [
      ["TestAllTypesProto3", '{"optionalBytes": "AQ="}', "stricter", "both"],
      ["TestAllTypesProto3", '{"optionalBytes": "AQID=="}', "stricter", "both"],
      ["TestAllTypesProto3", '{"optionalBytes": "AQ==AQ=="}', "stricter", "both"],
      ["TestAllTypesProto3", '{"optionalBytes": "AQ I"}', "stricter", "both"],
      ["TestAllTypesProto3", '{"optionalBytes": "AQ\\nID"}', "stricter", "both"],
    ],
  ],
  [
    "timestamp-date",
    [
      ["Timestamp", '"2024-02-30T00:00:00Z"', "stricter", "both"],
      ["Timestamp", '"2023-02-29T00:00:00Z"', "stricter", "both"],
      ["Timestamp", '"1900-02-29T00:00:00Z"', "stricter", "both"],
      ["Timestamp", '"1970-01-01T24:00:00Z"', "stricter", "both"],
    ],
  ],
  [
    "duration-syntax",
    [
      ["Duration", '"1ss"', "stricter", "both"],
      ["Duration", '"01s"', "stricter", "both"],
      ["Duration", '"1s "', "stricter", "both"],
    ],
  ],
  [
    "field-mask-syntax",
    [
      ["FieldMask", '"a,"', "stricter", "both"],
      ["FieldMask", '","', "stricter", "both"],
      ["FieldMask", '"a..b"', "stricter", "both"],
      ["FieldMask", '" a"', "stricter", "both"],
      ["FieldMask", '"1a"', "stricter", "both"],
      ["FieldMask", '"a-b"', "stricter", "both"],
      ["FieldMask", '"a,\\ud800"', "stricter", "both"],
      ["FieldMask", '"a/b"', "stricter", "both"],
    ],
  ],
  [
    "value-finite",
    [
      ["Struct", '{"a": 1e309}', "stricter", "both"],
      ["Struct", '{"a": -1e309}', "stricter", "both"],
      [
        "Struct",
        '{"a": 999999999999999999999999999999999999999999999999999999\u2026 (407 code units)',
        "stricter",
        "both",
      ],
      ["Value", "1e309", "stricter", "both"],
      ["Value", "[1, 1e400]", "stricter", "both"],
      ["ListValue", "[1e309]", "stricter", "both"],
      ["Any", '{"@type": "type.googleapis.com/google.protobuf.Value", "value": 1e309}', "stricter", "both"],
    ],
  ],
  [
    "utf16",
    [
      ["Struct", '{"a": "\\ud800"}', "stricter", "both"],
      ["Struct", '{"\\ud800": 1}', "stricter", "both"],
      ["Struct", '{"a": {"b": [1, {"c": "\\udc00"}]}}', "stricter", "both"],
      ["Value", '"\\ud800"', "stricter", "both"],
      ["ListValue", '[{"\\ud800": 1}]', "stricter", "both"],
    ],
  ],
  [
    "any-members",
    [
      [
        "Any",
        '{"@type": "type.googleapis.com/google.protobuf.Duration", "value": "1s", "extra": 1}',
        "stricter",
        "both",
      ],
    ],
  ],
  ["any-empty", [["Any", '{"@type": "type.googleapis.com/google.protobuf.Empty", "value": {}}', "accepted", "both"]]],
  [
    "any-type-url",
    [["Any", '{"@type": "https://example.com/a/b/google.protobuf.Duration", "value": "1s"}', "output", "both"]],
  ],
  ["oneof-skipped-enum", [["TestAllTypesProto3", '{"oneofEnum": "UNKNOWN", "oneofString": "a"}', "accepted", "both"]]],
  [
    "negative-zero",
    [
      ["TestAllTypesProto3", '{"optionalDouble": -0}', "output", "both"],
      ["TestAllTypesProto3", '{"optionalDouble": "-0"}', "output", "both"],
      ["TestAllTypesProto3", '{"optionalDouble": -1e-400}', "output", "both"],
      ["TestAllTypesProto3", '{"optionalFloat": -0}', "output", "both"],
      ["Struct", '{"a": 1, "b": [true, null, "x", {"c": -0}]}', "output", "both"],
      ["Value", "-0", "output", "both"],
    ],
  ],
  [
    "depth",
    [
      [
        "TestAllTypesProto3",
        '{"recursiveMessage": {"recursiveMessage": {"recursiveMessage": {"recursiveMessage": {"recursiveMessage": {}}}}}}',
        "stricter",
        "both",
      ],
      [
        "TestAllTypesProto3",
        '{"optionalValue": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\u2026 (217 code units)',
        "accepted",
        "both",
      ],
      [
        "TestAllTypesProto3",
        '{"repeatedValue": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\u2026 (219 code units)',
        "accepted",
        "both",
      ],
      [
        "Value",
        "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[\u2026 (200 code units)",
        "accepted",
        "both",
      ],
    ],
  ],
];
