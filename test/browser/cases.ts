// The cases the browser test runs twice: in headless Chromium, on the built ESM bundle (dist/index.js, bundled
// for the page with its dependencies), and in Node, on the same dist/index.js. The library comes in as an
// argument so that this file depends on nothing built: the page entry and the Node side each pass their own
// import of dist/index.js.
//
// Every case returns plain JSON (bigint as "<digits>n", bytes as arrays, errors as their public fields), so the
// two runs can be compared exactly, and carries its own expected value, so each run also checks itself.

import { create, type JsonValue } from "@bufbuild/protobuf";
import {
  AnySchema,
  BytesValueSchema,
  DurationSchema,
  FieldMaskSchema,
  Int64ValueSchema,
  SourceContextSchema,
  StructSchema,
  UInt64ValueSchema,
  ValueSchema,
} from "@bufbuild/protobuf/wkt";
import type * as Lib from "../../src/index.js";

/** The library under test: the built bundle's exports, which have the source's types. */
export type WktJson = typeof Lib;

/** What one case gave: its result, and whether that is the expected one. */
export interface CaseResult {
  readonly name: string;
  readonly ok: boolean;
  readonly actual: JsonValue;
  readonly expected: JsonValue;
}

interface Case {
  readonly name: string;
  readonly run: (lib: WktJson) => unknown;
  readonly expected: JsonValue;
}

/** Runs `fn`; its error, if it throws, as the fields callers rely on. */
function attempt(lib: WktJson, fn: () => unknown): unknown {
  try {
    return { value: fn() };
  } catch (e) {
    if (!lib.isWktJsonError(e)) {
      return { thrown: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
    }
    const error: Record<string, unknown> = {
      name: e.name,
      rule: e.rule,
      jsonPath: e.jsonPath,
      typeName: e.typeName,
      isError: e instanceof Error,
      messageStart: e.message.startsWith(`${e.typeName} at ${e.jsonPath}: `),
    };
    if (e.line !== undefined) error["line"] = e.line;
    if (e.column !== undefined) error["column"] = e.column;
    return { error };
  }
}

/** The error part of an attempt, for expectations. */
function failed(rule: string, path: string, typeName: string, at?: { line: number; column: number }): JsonValue {
  return { error: { name: "WktJsonError", rule, jsonPath: path, typeName, isError: true, messageStart: true, ...at } };
}

/** Makes any result plain JSON: bigint -> "<digits>n", Uint8Array -> number[], undefined -> "undefined". */
export function plain(value: unknown): JsonValue {
  if (typeof value === "bigint") return `${value}n`;
  if (value === undefined) return "undefined";
  if (value instanceof Uint8Array) return Array.from(value);
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === "object" && value !== null) {
    const out: { [k: string]: JsonValue } = {};
    for (const key of Object.keys(value)) {
      // defineProperty, so that a "__proto__" key is copied as data, not as this object's prototype
      Object.defineProperty(out, key, {
        value: plain((value as Record<string, unknown>)[key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value as JsonValue;
}

/** JSON-equality that keeps -0 apart from 0 and ignores key order. */
function same(a: JsonValue, b: JsonValue): boolean {
  if (typeof a === "number" && typeof b === "number") return Object.is(a, b);
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => same(v, b[i]!));
  }
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) {
    const ka = Object.keys(a).sort();
    const kb = Object.keys(b).sort();
    return (
      same(ka, kb) && ka.every((k) => same((a as Record<string, JsonValue>)[k]!, (b as Record<string, JsonValue>)[k]!))
    );
  }
  return a === b;
}

const structText = '{"a":[1,-0.5,1e+21,null,true,"x"],"b":{"c":{}},"d":"\\u00e9\\ud83d\\ude00","e":[]}';

export const cases: readonly Case[] = [
  // Timestamp
  {
    name: "timestamp/parse offset to UTC",
    run: (lib) => {
      const ts = lib.timestampFromJson("2015-07-06T15:33:38.5-07:00");
      return { seconds: ts.seconds, nanos: ts.nanos, json: lib.timestampToJson(ts) };
    },
    expected: { seconds: "1436222018n", nanos: 500_000_000, json: "2015-07-06T22:33:38.500Z" },
  },
  {
    name: "timestamp/format 0, 3, 6 and 9 fraction digits",
    run: (lib) =>
      [0n, 21_000_000n, 1_000n, 1n].map((ns) =>
        lib.timestampToJson(lib.timestampFromNanos(1_000_000_000n * 86_400n + ns)),
      ),
    expected: [
      "1970-01-02T00:00:00Z",
      "1970-01-02T00:00:00.021Z",
      "1970-01-02T00:00:00.000001Z",
      "1970-01-02T00:00:00.000000001Z",
    ],
  },
  {
    name: "timestamp/min and max",
    run: (lib) =>
      ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z"].map((t) => lib.timestampFromJson(t).seconds),
    expected: ["-62135596800n", "253402300799n"],
  },
  {
    name: "timestamp/error: February 30th",
    run: (lib) => attempt(lib, () => lib.timestampFromJson("2024-02-30T00:00:00Z")),
    expected: failed("range", "$", "google.protobuf.Timestamp"),
  },
  {
    name: "timestamp/error: 10 fraction digits",
    run: (lib) => attempt(lib, () => lib.timestampFromJson("1970-01-01T00:00:00.0000000001Z")),
    expected: failed("syntax", "$", "google.protobuf.Timestamp"),
  },
  {
    name: "timestamp/error: nested in an Any, with path",
    run: (lib) =>
      attempt(lib, () =>
        lib.fromJson(AnySchema, { "@type": "type.googleapis.com/google.protobuf.Timestamp", value: 5 }),
      ),
    expected: failed("json-type", "$.value", "google.protobuf.Timestamp"),
  },
  // Duration
  {
    name: "duration/parse and format",
    run: (lib) =>
      ["-0.5s", "1.000340012s", "315576000000s", "0.010s"].map((d) => lib.durationToJson(lib.durationFromJson(d))),
    expected: ["-0.500s", "1.000340012s", "315576000000s", "0.010s"],
  },
  {
    name: "duration/error: trailing characters",
    run: (lib) => attempt(lib, () => lib.durationFromJson("1sabc")),
    expected: failed("syntax", "$", "google.protobuf.Duration"),
  },
  {
    name: "duration/error: beyond 10000 years",
    run: (lib) => attempt(lib, () => lib.durationFromJson("315576000001s")),
    expected: failed("range", "$", "google.protobuf.Duration"),
  },
  {
    name: "duration/error: signs disagree, on the way out",
    run: (lib) => attempt(lib, () => lib.toJson(DurationSchema, create(DurationSchema, { seconds: 1n, nanos: -1 }))),
    expected: failed("sign", "$", "google.protobuf.Duration"),
  },
  // Struct
  {
    name: "struct/round trip through the message",
    run: (lib) => {
      const struct = lib.fromJsonString(StructSchema, structText);
      return {
        text: lib.toJsonString(StructSchema, struct),
        kinds: Object.values(struct.fields).map((v) => v.kind.case),
      };
    },
    expected: {
      text: '{"a":[1,-0.5,1e+21,null,true,"x"],"b":{"c":{}},"d":"é😀","e":[]}',
      kinds: ["listValue", "structValue", "stringValue", "listValue"],
    },
  },
  {
    name: "struct/error: NaN in a Value, with path",
    run: (lib) =>
      attempt(lib, () =>
        lib.toJson(
          StructSchema,
          create(StructSchema, {
            fields: {
              n: { kind: { case: "listValue", value: { values: [{ kind: { case: "numberValue", value: NaN } }] } } },
            },
          }),
        ),
      ),
    expected: failed("not-finite", "$.n[0]", "google.protobuf.Value"),
  },
  {
    name: "struct/nesting beyond maxDepth is a depth error, not a stack overflow",
    run: (lib) => attempt(lib, () => lib.fromJsonString(ValueSchema, "[".repeat(5000) + "]".repeat(5000))),
    // The text parser stops at maxDepth * 2 + 2 = 202 levels.
    expected: failed("depth", "$" + "[0]".repeat(202), "JSON", { line: 1, column: 203 }),
  },
  {
    name: "struct/a maxDepth beyond the engine's stack is still a depth error",
    run: (lib) => {
      let deep: JsonValue = [];
      for (let i = 0; i < 200_000; i++) deep = [deep];
      return attempt(lib, () => lib.fromJson(ValueSchema, deep, { maxDepth: 1_000_000 }));
    },
    expected: failed("depth", "$", "google.protobuf.Value"),
  },
  // FieldMask
  {
    name: "fieldmask/JSON form",
    run: (lib) => {
      const mask = lib.fromJson(FieldMaskSchema, "user.displayName,photo");
      return { paths: mask.paths, json: lib.toJson(FieldMaskSchema, mask) };
    },
    expected: { paths: ["user.display_name", "photo"], json: "user.displayName,photo" },
  },
  {
    name: "fieldmask/error: a path that cannot round-trip",
    run: (lib) => attempt(lib, () => lib.toJson(FieldMaskSchema, create(FieldMaskSchema, { paths: ["foo_Bar"] }))),
    expected: failed("mask-path", "$", "google.protobuf.FieldMask"),
  },
  // Wrappers
  {
    name: "wrapper/64-bit as strings, bytes as base64",
    run: (lib) => ({
      int64: lib.fromJson(Int64ValueSchema, "-9223372036854775808").value,
      uint64: lib.toJson(UInt64ValueSchema, create(UInt64ValueSchema, { value: 18446744073709551615n })),
      bytes: lib.fromJson(BytesValueSchema, "-_8=").value,
      bytesOut: lib.toJson(BytesValueSchema, create(BytesValueSchema, { value: new Uint8Array([251, 255]) })),
      wrapper: lib.wrapperToJson(Int64ValueSchema, lib.wrapperFromJson(Int64ValueSchema, 5)),
    }),
    expected: {
      int64: "-9223372036854775808n",
      uint64: "18446744073709551615",
      bytes: [251, 255],
      bytesOut: "+/8=",
      wrapper: "5",
    },
  },
  {
    name: "wrapper/error: uint64 out of range",
    run: (lib) => attempt(lib, () => lib.fromJson(UInt64ValueSchema, "18446744073709551616")),
    expected: failed("range", "$", "google.protobuf.UInt64Value"),
  },
  // Any
  {
    name: "any/pack a well-known type: the value form",
    run: (lib) => {
      const any = lib.anyPack(DurationSchema, lib.durationFromJson("1.5s"));
      const json = lib.toJson(AnySchema, any);
      const back = lib.anyUnpack(lib.fromJson(AnySchema, json));
      return { typeUrl: any.typeUrl, value: any.value, json, back: lib.toJson(DurationSchema, back as never) };
    },
    expected: {
      typeUrl: "type.googleapis.com/google.protobuf.Duration",
      value: [8, 1, 16, 128, 202, 181, 238, 1],
      json: { "@type": "type.googleapis.com/google.protobuf.Duration", value: "1.500s" },
      back: "1.500s",
    },
  },
  {
    name: "any/pack a plain message: its fields inline",
    run: (lib) => {
      const any = lib.anyPack(SourceContextSchema, create(SourceContextSchema, { fileName: "a.proto" }), {
        typeUrlPrefix: "example.com/t",
      });
      const json = lib.toJson(AnySchema, any);
      return { json, same: lib.toJson(AnySchema, lib.fromJson(AnySchema, json)) };
    },
    expected: {
      json: { "@type": "example.com/t/google.protobuf.SourceContext", fileName: "a.proto" },
      same: { "@type": "example.com/t/google.protobuf.SourceContext", fileName: "a.proto" },
    },
  },
  {
    name: "any/error: unknown type",
    run: (lib) => attempt(lib, () => lib.fromJson(AnySchema, { "@type": "type.googleapis.com/acme.Nope", a: 1 })),
    expected: failed("unknown-type", '$["@type"]', "google.protobuf.Any"),
  },
  // fromJsonString
  {
    name: "text/int64 beyond 2^53 keeps every digit",
    run: (lib) => ({
      int64: lib.fromJsonString(Int64ValueSchema, "9007199254740993").value,
      max: lib.fromJsonString(Int64ValueSchema, '"9223372036854775807"').value,
      jsonParse: JSON.parse("9007199254740993") as number,
    }),
    expected: { int64: "9007199254740993n", max: "9223372036854775807n", jsonParse: 9007199254740992 },
  },
  {
    name: "text/error: duplicate key, with line and column",
    run: (lib) => attempt(lib, () => lib.fromJsonString(StructSchema, '{\n  "a": 1,\n  "a": 2\n}')),
    expected: failed("duplicate-field", "$.a", "JSON", { line: 3, column: 3 }),
  },
  {
    name: "text/error: bad nested Timestamp, with line and column",
    run: (lib) =>
      attempt(lib, () =>
        lib.fromJsonString(AnySchema, '{"@type": "type.googleapis.com/google.protobuf.Timestamp",\n "value": "x"}'),
      ),
    expected: failed("syntax", "$.value", "google.protobuf.Timestamp", { line: 2, column: 11 }),
  },
  // __proto__
  {
    name: "proto/__proto__ keys are data, and nothing is polluted",
    run: (lib) => {
      const text = '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}';
      const fromText = lib.fromJsonString(StructSchema, text);
      const fromValue = lib.fromJson(StructSchema, JSON.parse(text) as JsonValue);
      const probe: Record<string, unknown> = {};
      return {
        keys: Object.keys(fromText.fields),
        own: Object.prototype.hasOwnProperty.call(fromText.fields, "__proto__"),
        text: lib.toJsonString(StructSchema, fromText),
        sameFromValue: lib.toJsonString(StructSchema, fromValue),
        polluted:
          probe["polluted"] === undefined && ({} as Record<string, unknown>)["polluted"] === undefined ? "no" : "yes",
        prototypeIntact:
          Object.getPrototypeOf(fromText.fields) === Object.prototype ||
          Object.getPrototypeOf(fromText.fields) === null,
      };
    },
    expected: {
      keys: ["__proto__", "constructor"],
      own: true,
      text: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
      sameFromValue: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
      polluted: "no",
      prototypeIntact: true,
    },
  },
];

/** Runs every case against `lib`. Never throws: a case that throws records what it threw. */
export function runCases(lib: WktJson): CaseResult[] {
  return cases.map(({ name, run, expected }) => {
    let actual: JsonValue;
    try {
      actual = plain(run(lib));
    } catch (e) {
      actual = { uncaught: e instanceof Error ? `${e.name}: ${e.message}` : String(e) };
    }
    return { name, ok: same(actual, expected), actual, expected };
  });
}
