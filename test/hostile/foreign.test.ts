// No foreign exception: every public function of any.ts, registry.ts, wrappers.ts and to-json.ts, called with
// values of the wrong type in every argument, every option and every member of a hand-built message, either
// returns or throws our WktJsonError (rule json-type, type-url or binary at `$` for the arguments themselves),
// never a TypeError, RangeError or an error of @bufbuild/protobuf.

import { create, type DescMessage } from "@bufbuild/protobuf";
import {
  AnySchema,
  DurationSchema,
  Int64ValueSchema,
  StringValueSchema,
  StructSchema,
  TimestampSchema,
  type Any,
} from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { anyValueInAnyArgument, ours } from "../helpers.js";
import { anyPack, anyUnpack } from "../../src/wkt/any.js";
import { anyFromJson, anyToJson } from "../../src/codec/any-codec.js";
import { typeUrlFor, typeUrlParse, typeUrlResolve } from "../../src/wkt/registry.js";
import {
  fieldMaskCheck,
  fieldMaskCovers,
  fieldMaskFromDiff,
  fieldMaskFromFieldNumbers,
  fieldMaskFromJson,
  fieldMaskFromPatch,
  fieldMaskFromPaths,
  fieldMaskIntersect,
  fieldMaskIsValid,
  fieldMaskMerge,
  fieldMaskNormalize,
  fieldMaskProject,
  fieldMaskSubtract,
  fieldMaskToJson,
  fieldMaskUnion,
  jsonMerge,
  jsonOmit,
  jsonProject,
} from "../../src/index.js";
import { toJson, toJsonString } from "../../src/codec/to-json.js";
import { fromJson } from "../../src/codec/from-json.js";
import { validateJson } from "../../src/codec/validate.js";
import { missingTypeUrls, missingTypeUrlsFromJson } from "../../src/codec/missing-type-urls.js";
import { jsonSchema } from "../../src/schema/json-schema.js";
import {
  durationFromTemporal,
  durationToTemporal,
  timestampFromTemporal,
  timestampToTemporal,
} from "../../src/wkt/temporal.js";
import { Temporal } from "temporal-polyfill";
import { wrapperFromJson, wrapperIsSchema, wrapperToJson } from "../../src/wkt/wrappers.js";
import { TestAllTypesProto3, testRegistry } from "../conformance-registry.js";

const G = "type.googleapis.com/";
const durationUrl = G + "google.protobuf.Duration";

/** Values of every JavaScript type, including ones that cannot be turned into a string. */
const hostile: readonly [string, unknown][] = [
  ["null", null],
  ["undefined", undefined],
  ["0", 0],
  ["5", 5],
  ["NaN", NaN],
  ["-Infinity", -Infinity],
  ['""', ""],
  ['"x"', "x"],
  ["true", true],
  ["5n", 5n],
  ["a symbol", Symbol("s")],
  ["{}", {}],
  ["[]", []],
  ["[1]", [1]],
  ["Object.create(null)", Object.create(null)],
  ["a function", () => 1],
  ["a Uint8Array", new Uint8Array([0xff])],
  ["a Date", new Date(0)],
  ["{$typeName: 5}", { $typeName: 5 }],
  ["{$typeName: Object.create(null)}", { $typeName: Object.create(null) }],
  ["an Any without members", { $typeName: "google.protobuf.Any" }],
  ["an Int64Value", { $typeName: "google.protobuf.Int64Value", value: 1n }],
  ["a descriptor lookalike", { kind: "message", typeName: "google.protobuf.Any", fields: 5 }],
];
const hostileValues = hostile.map(([, h]) => h);

const duration = create(DurationSchema, { seconds: 1n });
const packed = anyPack(DurationSchema, duration);
const anyOf = (fields: Record<string, unknown>): Any => ({ $typeName: "google.protobuf.Any", ...fields }) as Any;

/**
 * Each public function, with the one argument (or option, or member) that takes the hostile value `h`.
 * Every other argument is valid.
 */
const calls: readonly [string, (h: unknown) => unknown][] = [
  ["anyPack(h, ...)", (h) => anyPack(h as DescMessage, duration as never)],
  ["anyPack(Duration, h)", (h) => anyPack(DurationSchema, h as never)],
  ["anyPack(Timestamp, h)", (h) => anyPack(TimestampSchema, h as never)],
  ["anyPack(Proto3, h)", (h) => anyPack(TestAllTypesProto3, h as never)],
  [
    "anyPack(Proto3, { optionalInt32: h })",
    (h) => anyPack(TestAllTypesProto3, { ...create(TestAllTypesProto3), optionalInt32: h } as never),
  ],
  [
    "anyPack(Proto3, { optionalNestedMessage: h })",
    (h) => anyPack(TestAllTypesProto3, { ...create(TestAllTypesProto3), optionalNestedMessage: h } as never),
  ],
  ["anyPack(..., h)", (h) => anyPack(DurationSchema, duration, h as never)],
  ["anyPack(..., { typeUrlPrefix: h })", (h) => anyPack(DurationSchema, duration, { typeUrlPrefix: h as string })],
  ["anyUnpack(h)", (h) => anyUnpack(h as Any)],
  ["anyUnpack({ typeUrl: h })", (h) => anyUnpack(anyOf({ typeUrl: h, value: new Uint8Array(0) }))],
  ["anyUnpack({ value: h })", (h) => anyUnpack(anyOf({ typeUrl: durationUrl, value: h }))],
  ["anyUnpack(any, h)", (h) => anyUnpack(packed, h as never)],
  ["anyFromJson(h)", (h) => anyFromJson(h)],
  ['anyFromJson({ "@type": h })', (h) => anyFromJson({ "@type": h, value: "1s" })],
  ["anyFromJson(json, h)", (h) => anyFromJson({ "@type": durationUrl, value: "1s" }, h as never)],
  [
    "anyFromJson(json, { registry: h })",
    (h) => anyFromJson({ "@type": durationUrl, value: "1s" }, { registry: h as never }),
  ],
  [
    "anyFromJson(json, { maxDepth: h })",
    (h) => anyFromJson({ "@type": durationUrl, value: "1s" }, { maxDepth: h as number }),
  ],
  ["anyToJson(h)", (h) => anyToJson(h as Any)],
  ["anyToJson({ typeUrl: h })", (h) => anyToJson(anyOf({ typeUrl: h, value: new Uint8Array(0) }))],
  ["anyToJson({ typeUrl: h }) without value", (h) => anyToJson(anyOf({ typeUrl: h }))],
  ["anyToJson({ value: h })", (h) => anyToJson(anyOf({ typeUrl: durationUrl, value: h }))],
  ["anyToJson({ value: h }) of a Struct", (h) => anyToJson(anyOf({ typeUrl: G + "google.protobuf.Struct", value: h }))],
  ["anyToJson(any, h)", (h) => anyToJson(packed, h as never)],
  ["anyToJson(any, { registry: h })", (h) => anyToJson(packed, { registry: h as never })],
  ["anyToJson(any, { maxDepth: h })", (h) => anyToJson(packed, { maxDepth: h as number })],
  ["typeUrlParse(h)", (h) => typeUrlParse(h as string)],
  ["typeUrlFor(h)", (h) => typeUrlFor(h as string)],
  ["typeUrlFor(Duration, h)", (h) => typeUrlFor(DurationSchema, h as string)],
  ["typeUrlResolve(h)", (h) => typeUrlResolve(h as string)],
  ["typeUrlResolve(url, h)", (h) => typeUrlResolve(durationUrl, h as never)],
  ["wrapperIsSchema(h)", (h) => wrapperIsSchema(h as DescMessage)],
  ["wrapperFromJson(h, ...)", (h) => wrapperFromJson(h as DescMessage, "1")],
  ["wrapperFromJson(Int64Value, h)", (h) => wrapperFromJson(Int64ValueSchema, h)],
  ["wrapperFromJson(Struct, h)", (h) => wrapperFromJson(StructSchema, h)],
  ["wrapperToJson(h, ...)", (h) => wrapperToJson(h as DescMessage, create(Int64ValueSchema) as never)],
  ["wrapperToJson(Int64Value, h)", (h) => wrapperToJson(Int64ValueSchema, h as never)],
  [
    "wrapperToJson(StringValue, { value: h })",
    (h) => wrapperToJson(StringValueSchema, { $typeName: "google.protobuf.StringValue", value: h } as never),
  ],
  ["toJson(h, ...)", (h) => toJson(h as DescMessage, duration as never)],
  ["toJson(Proto3, h)", (h) => toJson(TestAllTypesProto3, h as never)],
  ["toJson(Any, h)", (h) => toJson(AnySchema, h as never)],
  ["toJson(Any, { typeUrl: h })", (h) => toJson(AnySchema, anyOf({ typeUrl: h, value: new Uint8Array(0) }))],
  ["toJson(Any, { value: h })", (h) => toJson(AnySchema, anyOf({ typeUrl: durationUrl, value: h }))],
  [
    "toJson(Proto3, { optionalAny: { typeUrl: h } })",
    (h) => toJson(TestAllTypesProto3, { ...create(TestAllTypesProto3), optionalAny: anyOf({ typeUrl: h }) } as never),
  ],
  ["toJson(..., h)", (h) => toJson(DurationSchema, duration, h as never)],
  ["toJson(..., { registry: h })", (h) => toJson(AnySchema, packed, { registry: h as never })],
  ["toJson(..., { maxDepth: h })", (h) => toJson(DurationSchema, duration, { maxDepth: h as number })],
  ["toJsonString(h, ...)", (h) => toJsonString(h as DescMessage, duration as never)],
  ["toJsonString(Proto3, h)", (h) => toJsonString(TestAllTypesProto3, h as never)],
  [
    "toJsonString(Any, { typeUrl: h })",
    (h) => toJsonString(AnySchema, anyOf({ typeUrl: h, value: new Uint8Array(0) })),
  ],
  ["toJsonString(Any, { value: h })", (h) => toJsonString(AnySchema, anyOf({ typeUrl: durationUrl, value: h }))],
  [
    "toJsonString(Proto3, { optionalAny: { typeUrl: h } })",
    (h) =>
      toJsonString(TestAllTypesProto3, { ...create(TestAllTypesProto3), optionalAny: anyOf({ typeUrl: h }) } as never),
  ],
  ["toJsonString(..., h)", (h) => toJsonString(DurationSchema, duration, h as never)],
  ["toJsonString(..., { registry: h })", (h) => toJsonString(AnySchema, packed, { registry: h as never })],
  ["toJsonString(..., { maxDepth: h })", (h) => toJsonString(DurationSchema, duration, { maxDepth: h as number })],
  [
    "toJsonString(..., { prettySpaces: h })",
    (h) => toJsonString(DurationSchema, duration, { prettySpaces: h as number }),
  ],
];

describe("no foreign exception from any.ts, registry.ts, wrappers.ts, to-json.ts", () => {
  describe.each(calls)("%s", (_, call) => {
    it.each(hostile)("h = %s", (_, h) => {
      ours(() => call(h));
    });
  });

  it("any value in any argument: a result or our error (fast-check)", () => {
    anyValueInAnyArgument(calls, hostileValues, 3000);
  });
});

const t3 = create(TestAllTypesProto3, { optionalInt32: 1 });

/** The FieldMask functions, each with the one argument (or option) that takes the hostile value `h`. */
const maskCalls: readonly [string, (h: unknown) => unknown][] = [
  ["fieldMaskFromPaths(h)", (h) => fieldMaskFromPaths(h as never)],
  ["fieldMaskFromJson(h)", (h) => fieldMaskFromJson(h)],
  ["fieldMaskToJson(h)", (h) => fieldMaskToJson(h as never)],
  ["fieldMaskNormalize(h)", (h) => fieldMaskNormalize(h as never)],
  ["fieldMaskUnion([], h)", (h) => fieldMaskUnion([], h as never)],
  ["fieldMaskIntersect(h, [])", (h) => fieldMaskIntersect(h as never, [])],
  ["fieldMaskIntersect(a, b, h)", (h) => fieldMaskIntersect(["a.*"], ["*.b"], h as never)],
  ["fieldMaskIntersect(a, b, { maxPaths: h })", (h) => fieldMaskIntersect(["a.*"], ["*.b"], { maxPaths: h as number })],
  ["fieldMaskSubtract(h, [])", (h) => fieldMaskSubtract(h as never, [])],
  [
    "fieldMaskSubtract(a, b, h)",
    (h) => fieldMaskSubtract(["optional_nested_message"], ["optional_nested_message.a"], h as never),
  ],
  [
    "fieldMaskSubtract(a, b, schema, { maxPaths: h })",
    (h) =>
      fieldMaskSubtract(["optional_nested_message"], ["optional_nested_message.a"], TestAllTypesProto3, {
        maxPaths: h as number,
      }),
  ],
  ["fieldMaskCovers(h, path)", (h) => fieldMaskCovers(h as never, "a")],
  ["fieldMaskCovers(mask, h)", (h) => fieldMaskCovers(["a"], h as never)],
  ["fieldMaskCheck(h, mask)", (h) => fieldMaskCheck(h as never, ["a"])],
  ["fieldMaskCheck(schema, h)", (h) => fieldMaskCheck(TestAllTypesProto3, h as never)],
  ["fieldMaskIsValid(schema, mask, h)", (h) => fieldMaskIsValid(TestAllTypesProto3, ["optional_int32"], h as never)],
  ["fieldMaskFromFieldNumbers(schema, h)", (h) => fieldMaskFromFieldNumbers(TestAllTypesProto3, h as never)],
  ["fieldMaskFromDiff(schema, h, b)", (h) => fieldMaskFromDiff(TestAllTypesProto3, h as never, t3)],
  ["fieldMaskProject(schema, h, mask)", (h) => fieldMaskProject(TestAllTypesProto3, h as never, ["optional_int32"])],
  ["fieldMaskProject(schema, msg, h)", (h) => fieldMaskProject(TestAllTypesProto3, t3, h as never)],
  ["fieldMaskMerge(schema, t, h, mask)", (h) => fieldMaskMerge(TestAllTypesProto3, t3, h as never, ["optional_int32"])],
  ["jsonProject(h, mask)", (h) => jsonProject(h as never, ["a"])],
  ["jsonProject(obj, h)", (h) => jsonProject({ a: 1 }, h as never)],
  ["jsonProject(obj, mask, { names: h })", (h) => jsonProject({ a: 1 }, ["a"], { names: h as never })],
  ["jsonOmit(obj, h)", (h) => jsonOmit({ a: 1 }, h as never)],
  ["jsonMerge(t, h, mask)", (h) => jsonMerge({ a: 1 }, h as never, ["a"])],
  ["fieldMaskFromPatch(h)", (h) => fieldMaskFromPatch(h as never)],
  ["fieldMaskFromPatch(body, h)", (h) => fieldMaskFromPatch({ a: { b: 1 } }, h as never)],
  ["fieldMaskFromPatch(body, { depth: h })", (h) => fieldMaskFromPatch({ a: { b: 1 } }, { depth: h as number })],
  ["fieldMaskFromPatch(body, { maxPaths: h })", (h) => fieldMaskFromPatch({ a: { b: 1 } }, { maxPaths: h as number })],
  [
    "fieldMaskFromPatch(body, { maxLength: h })",
    (h) => fieldMaskFromPatch({ a: { b: 1 } }, { maxLength: h as number }),
  ],
];

describe("no foreign exception from the FieldMask functions", () => {
  describe.each(maskCalls)("%s", (_, call) => {
    it.each(hostile)("h = %s", (_, h) => {
      ours(() => call(h));
    });
  });

  it("any value in any argument: a result or our error (fast-check)", () => {
    anyValueInAnyArgument(maskCalls, hostileValues, 2000);
  });

  it("fieldMaskFromPaths(null) and (5): rule json-type, at $", () => {
    expect(ours(() => fieldMaskFromPaths(null as never))).toMatchObject({ rule: "json-type", jsonPath: "$" });
    expect(ours(() => fieldMaskFromPaths(5 as never))).toMatchObject({ rule: "json-type", jsonPath: "$" });
  });
});

describe("the rule and path of the cases named in the issue", () => {
  it.each<[string, () => unknown, string]>([
    [
      "toJson of an Any with typeUrl 5",
      () => toJson(AnySchema, anyOf({ typeUrl: 5, value: new Uint8Array(0) })),
      "json-type",
    ],
    [
      "toJsonString of an Any with typeUrl 5",
      () => toJsonString(AnySchema, anyOf({ typeUrl: 5, value: new Uint8Array(0) })),
      "json-type",
    ],
    [
      "anyToJson of an Any with typeUrl 5",
      () => anyToJson(anyOf({ typeUrl: 5, value: new Uint8Array(0) })),
      "json-type",
    ],
    ["typeUrlParse(5)", () => typeUrlParse(5 as never), "json-type"],
    ["typeUrlResolve(5)", () => typeUrlResolve(5 as never), "json-type"],
    ["anyUnpack({})", () => anyUnpack({} as Any), "json-type"],
    ["anyUnpack(null)", () => anyUnpack(null as never), "json-type"],
    ["wrapperToJson(Int64Value, null)", () => wrapperToJson(Int64ValueSchema, null as never), "json-type"],
    [
      "wrapperToJson(Timestamp, ...)",
      () => wrapperToJson(TimestampSchema, create(TimestampSchema) as never),
      "json-type",
    ],
    [
      "anyPack of an int32 field holding a string",
      () => anyPack(TestAllTypesProto3, { ...create(TestAllTypesProto3), optionalInt32: "x" } as never),
      "binary",
    ],
    ["anyPack of a message of another type", () => anyPack(TestAllTypesProto3, duration as never), "json-type"],
    ["anyPack(null, ...)", () => anyPack(null as never, duration as never), "json-type"],
    ["toJson(null, ...)", () => toJson(null as never, duration as never), "json-type"],
    [
      "toJsonString with prettySpaces 'xx'",
      () => toJsonString(DurationSchema, duration, { prettySpaces: "xx" as never }),
      "json-type",
    ],
    [
      "toJson with a registry that is no Registry",
      () => toJson(AnySchema, packed, { registry: {} as never }),
      "json-type",
    ],
  ])("%s: our error, rule %s, at $", (_, fn, rule) => {
    expect(ours(fn)).toMatchObject({ rule, jsonPath: "$" });
  });

  it("still writes and packs what is valid", () => {
    expect(anyToJson(packed)).toEqual({ "@type": durationUrl, value: "1s" });
    expect(toJsonString(AnySchema, packed, { registry: testRegistry, prettySpaces: 0 })).toBe(
      `{"@type":"${durationUrl}","value":"1s"}`,
    );
    expect(wrapperIsSchema(null as never)).toBe(false);
    expect(wrapperToJson(Int64ValueSchema, create(Int64ValueSchema, { value: 5n }))).toBe("5");
  });
});

const gone = anyOf({ typeUrl: "example.com/acme.Gone", value: new Uint8Array([8, 1]) });
const withGone = create(TestAllTypesProto3, { optionalAny: gone, repeatedAny: [gone] });
const goneJson = { optionalAny: { "@type": "example.com/acme.Gone" } };
const temporalNs = { Instant: { fromEpochNanoseconds: (ns: bigint) => ({ ns }) }, Duration: class {} };

/** Issue 29's functions and options, each with the one argument (or option) that takes the hostile value `h`. */
const issue29Calls: readonly [string, (h: unknown) => unknown][] = [
  ["missingTypeUrls(h, msg)", (h) => missingTypeUrls(h as DescMessage, withGone)],
  ["missingTypeUrls(schema, h)", (h) => missingTypeUrls(TestAllTypesProto3, h as never)],
  ["missingTypeUrls(Any, h)", (h) => missingTypeUrls(AnySchema, h as never)],
  ["missingTypeUrls(Any, { typeUrl: h })", (h) => missingTypeUrls(AnySchema, anyOf({ typeUrl: h }))],
  [
    "missingTypeUrls(Any, { value: h })",
    (h) => missingTypeUrls(AnySchema, anyOf({ typeUrl: G + "google.protobuf.Any", value: h })),
  ],
  [
    "missingTypeUrls(Proto3, { repeatedAny: h })",
    (h) => missingTypeUrls(TestAllTypesProto3, { ...create(TestAllTypesProto3), repeatedAny: h } as never),
  ],
  [
    "missingTypeUrls(Proto3, { mapStringNestedMessage: h })",
    (h) => missingTypeUrls(TestAllTypesProto3, { ...create(TestAllTypesProto3), mapStringNestedMessage: h } as never),
  ],
  ["missingTypeUrls(schema, msg, h)", (h) => missingTypeUrls(TestAllTypesProto3, withGone, h as never)],
  [
    "missingTypeUrls(schema, msg, { registry: h })",
    (h) => missingTypeUrls(TestAllTypesProto3, withGone, { registry: h as never }),
  ],
  [
    "missingTypeUrls(schema, msg, { maxDepth: h })",
    (h) => missingTypeUrls(TestAllTypesProto3, withGone, { maxDepth: h as number }),
  ],
  [
    "missingTypeUrls(schema, msg, { recursionLimit: h })",
    (h) => missingTypeUrls(TestAllTypesProto3, withGone, { recursionLimit: h as number }),
  ],
  ["missingTypeUrlsFromJson(h, json)", (h) => missingTypeUrlsFromJson(h as DescMessage, goneJson)],
  ["missingTypeUrlsFromJson(schema, h)", (h) => missingTypeUrlsFromJson(TestAllTypesProto3, h as never)],
  ["missingTypeUrlsFromJson(Any, h)", (h) => missingTypeUrlsFromJson(AnySchema, h as never)],
  ['missingTypeUrlsFromJson(Any, { "@type": h })', (h) => missingTypeUrlsFromJson(AnySchema, { "@type": h } as never)],
  [
    'missingTypeUrlsFromJson(Any, { "@type": Any, value: h })',
    (h) => missingTypeUrlsFromJson(AnySchema, { "@type": G + "google.protobuf.Any", value: h } as never),
  ],
  [
    'missingTypeUrlsFromJson(Any, { "@type": Proto3, "@value": h })',
    (h) =>
      missingTypeUrlsFromJson(AnySchema, {
        "@type": G + "protobuf_test_messages.proto3.TestAllTypesProto3",
        "@value": h,
      } as never),
  ],
  [
    "missingTypeUrlsFromJson(Proto3, { repeatedAny: h })",
    (h) => missingTypeUrlsFromJson(TestAllTypesProto3, { repeatedAny: h } as never),
  ],
  [
    "missingTypeUrlsFromJson(schema, json, h)",
    (h) => missingTypeUrlsFromJson(TestAllTypesProto3, goneJson, h as never),
  ],
  [
    "missingTypeUrlsFromJson(schema, json, { registry: h })",
    (h) => missingTypeUrlsFromJson(TestAllTypesProto3, goneJson, { registry: h as never }),
  ],
  [
    "missingTypeUrlsFromJson(schema, json, { maxDepth: h })",
    (h) => missingTypeUrlsFromJson(TestAllTypesProto3, goneJson, { maxDepth: h as number }),
  ],
  ["timestampFromTemporal(h)", (h) => timestampFromTemporal(h as never)],
  ["timestampFromTemporal(i, h)", (h) => timestampFromTemporal(Temporal.Instant.fromEpochNanoseconds(0n), h as never)],
  [
    "timestampFromTemporal(i, { path: h })",
    (h) => timestampFromTemporal(Temporal.Instant.fromEpochNanoseconds(0n), { path: h as string }),
  ],
  ["timestampToTemporal(h)", (h) => timestampToTemporal(h as never, { temporal: Temporal })],
  ["timestampToTemporal(ts, h)", (h) => timestampToTemporal({ seconds: 0n, nanos: 0 }, h as never)],
  [
    "timestampToTemporal(ts, { temporal: h })",
    (h) => timestampToTemporal({ seconds: 0n, nanos: 0 }, { temporal: h as never }),
  ],
  [
    "timestampToTemporal(ts, { path: h })",
    (h) => timestampToTemporal({ seconds: 0n, nanos: 0 }, { temporal: temporalNs as never, path: h as string }),
  ],
  ["durationFromTemporal(h)", (h) => durationFromTemporal(h as never)],
  ["durationFromTemporal(d, h)", (h) => durationFromTemporal(Temporal.Duration.from("PT1S"), h as never)],
  ["durationToTemporal(h)", (h) => durationToTemporal(h as never, { temporal: Temporal })],
  ["durationToTemporal(d, h)", (h) => durationToTemporal({ seconds: 1n, nanos: 0 }, h as never)],
  [
    "durationToTemporal(d, { temporal: h })",
    (h) => durationToTemporal({ seconds: 1n, nanos: 0 }, { temporal: h as never }),
  ],
  ...(
    ["int64AsNumber", "floatShortest", "alwaysEmitImplicitFor", "emitUnsetMessagesAsNull", "unresolvedAny"] as const
  ).flatMap((name): [string, (h: unknown) => unknown][] => [
    [`toJson(..., { ${name}: h })`, (h) => toJson(TestAllTypesProto3, withGone, { [name]: h })],
    [`toJsonString(..., { ${name}: h })`, (h) => toJsonString(TestAllTypesProto3, withGone, { [name]: h })],
    [`toJson(..., { ${name}: [h] })`, (h) => toJson(TestAllTypesProto3, withGone, { [name]: [h] })],
  ]),
  ["fromJson(..., { unresolvedAny: h })", (h) => fromJson(TestAllTypesProto3, goneJson, { unresolvedAny: h as never })],
  [
    "fromJson(..., { ignoreReservedNames: h })",
    (h) => fromJson(TestAllTypesProto3, { optionalInt32: 1 }, { ignoreReservedNames: h as never }),
  ],
  [
    "validateJson(..., { unresolvedAny: h })",
    (h) => validateJson(TestAllTypesProto3, goneJson, { unresolvedAny: h as never }),
  ],
  [
    "validateJson(..., { ignoreReservedNames: h })",
    (h) => validateJson(TestAllTypesProto3, { optionalInt32: 1 }, { ignoreReservedNames: h as never }),
  ],
  ["jsonSchema(..., h)", (h) => jsonSchema(TestAllTypesProto3, h as never)],
  ...(["skip", "raw"] as const).flatMap((mode): [string, (h: unknown) => unknown][] => [
    [
      `toJson(Proto3, { optionalAny: { typeUrl: gone, value: h } }, ${mode})`,
      (h) =>
        toJson(TestAllTypesProto3, { ...create(TestAllTypesProto3), optionalAny: { ...gone, value: h } } as never, {
          unresolvedAny: mode,
        }),
    ],
    [
      `toJsonString(Proto3, { repeatedAny: [{ typeUrl: gone, value: h }] }, ${mode})`,
      (h) =>
        toJsonString(
          TestAllTypesProto3,
          { ...create(TestAllTypesProto3), repeatedAny: [{ ...gone, value: h }] } as never,
          { unresolvedAny: mode },
        ),
    ],
    [
      `toJson(Any, { typeUrl: Any, value: h }, ${mode})`,
      (h) => toJson(AnySchema, anyOf({ typeUrl: G + "google.protobuf.Any", value: h }), { unresolvedAny: mode }),
    ],
    [
      `fromJson(Proto3, { optionalAny: { "@type": gone, "@value": h } }, ${mode})`,
      (h) =>
        fromJson(TestAllTypesProto3, { optionalAny: { "@type": gone.typeUrl, "@value": h } } as never, {
          unresolvedAny: mode,
        }),
    ],
    [
      `validateJson(Proto3, { optionalAny: { "@type": gone, "@value": h } }, ${mode})`,
      (h) =>
        validateJson(TestAllTypesProto3, { optionalAny: { "@type": gone.typeUrl, "@value": h } } as never, {
          unresolvedAny: mode,
        }),
    ],
  ]),
];

describe("no foreign exception from issue 29's functions and options", () => {
  describe.each(issue29Calls)("%s", (_, call) => {
    it.each(hostile)("h = %s", (_, h) => {
      ours(() => call(h));
    });
  });

  it("any value in any argument: a result or our error (fast-check)", () => {
    anyValueInAnyArgument(issue29Calls, hostileValues, 2000);
  });
});

describe("a Temporal namespace given as the option that throws, or cannot construct", () => {
  const refusing = {
    Instant: {
      fromEpochNanoseconds: () => {
        throw new RangeError("outside this polyfill's range");
      },
    },
    Duration: () => ({}), // an arrow function: `new` throws a TypeError
  };
  it.each<[string, () => unknown]>([
    ["timestampToTemporal", () => timestampToTemporal({ seconds: 0n, nanos: 0 }, { temporal: refusing as never })],
    ["durationToTemporal", () => durationToTemporal({ seconds: 1n, nanos: 0 }, { temporal: refusing as never })],
  ])("%s: rule range, typeName options, at $", (_, fn) => {
    expect(ours(fn)).toMatchObject({ rule: "range", typeName: "options", jsonPath: "$" });
  });
});
