/**
 * Whole messages through the codec (`fromJson`, `toJson`, `fromJsonString`, `toJsonString`, the same names as
 * `@bufbuild/protobuf`'s): the conformance suite's `TestAllTypesProto3` with every field set (every scalar,
 * list, map and well-known-type field, one member per oneof), a bytes field of 64 KB, and Any holding a
 * Timestamp and a ~1 KB Struct. Floors for text: `JSON.parse` / `JSON.stringify` of the same document.
 */
import {
  createRegistry,
  fromJson as esFromJson,
  fromJsonString as esFromJsonString,
  toJson as esToJson,
  toJsonString as esToJsonString,
  type DescMessage,
  type JsonObject,
  type JsonValue,
  type Registry,
} from "@bufbuild/protobuf";
import { AnySchema, DurationSchema, StructSchema, TimestampSchema } from "@bufbuild/protobuf/wkt";
import { fromJson, fromJsonString } from "../../src/codec/from-json.js";
import { toJson, toJsonString } from "../../src/codec/to-json.js";
import { TestAllTypesProto3, testRegistry } from "../../test/conformance-registry.js";
import { pt, same, tsColumn } from "../check.js";
import { base64Reference, flat, flowDefinition, messageWithEveryField, randomBytes } from "../fixtures.js";
import { sink, type Case, type Target } from "../harness.js";

export interface Fixture {
  /** Table heading; each area runs in a process of its own (see bench/main.ts). */
  readonly area: string;
  readonly label: string;
  readonly schema: DescMessage;
  readonly tsName: "TestAllTypesProto3" | "Any" | "UpdateFlowRequest";
  readonly json: JsonObject;
  readonly registry: Registry;
  readonly strings: boolean;
  readonly targets: readonly Target[];
}

function tsTypes(): unknown[] {
  return [pt("Timestamp"), pt("Duration"), pt("Struct"), pt("Value"), pt("ListValue"), pt("FieldMask")];
}

export function messageCases(f: Fixture): Case[] {
  const { area, label, schema, tsName, json, registry } = f;
  const opts = { registry };
  const msg = esFromJson(schema, json, opts);
  same(`${label} fromJson`, fromJson(schema, json, opts), msg);
  const out = esToJson(schema, msg, opts);
  same(`${label} toJson`, toJson(schema, msg, opts), out);
  const text = esToJsonString(schema, msg, opts);
  same(`${label} fromJsonString`, fromJsonString(schema, text, opts), esFromJsonString(schema, text, opts));
  same(`${label} toJsonString`, JSON.parse(toJsonString(schema, msg, opts)), JSON.parse(text));
  const tsOpts = (): { typeRegistry: never } => ({ typeRegistry: tsTypes() as never });
  const cases: Case[] = [
    {
      area,
      name: `fromJson/${label}`,
      ops: 1,
      ours: () => {
        sink.v = fromJson(schema, json, opts);
      },
      es: () => {
        sink.v = esFromJson(schema, json, opts);
      },
      ...tsColumn(
        () =>
          same(`protobuf-ts ${label} fromJson`, out, pt(tsName).toJson(pt(tsName).fromJson(json, tsOpts()), tsOpts())),
        () => {
          const T = pt(tsName);
          const o = tsOpts();
          return () => {
            sink.v = T.fromJson(json, o);
          };
        },
      ),
      targets: f.targets,
    },
    {
      area,
      name: `toJson/${label}`,
      ops: 1,
      ours: () => {
        sink.v = toJson(schema, msg, opts);
      },
      es: () => {
        sink.v = esToJson(schema, msg, opts);
      },
      ...tsColumn(
        () =>
          same(`protobuf-ts ${label} toJson`, out, pt(tsName).toJson(pt(tsName).fromJson(json, tsOpts()), tsOpts())),
        () => {
          const T = pt(tsName);
          const o = tsOpts();
          const m: unknown = T.fromJson(json, o);
          return () => {
            sink.v = T.toJson(m, o);
          };
        },
      ),
      targets: f.targets,
    },
  ];
  if (!f.strings) return cases;
  const parsed = JSON.parse(text) as JsonValue;
  cases.push(
    {
      area,
      name: `fromJsonString/${label}`,
      ops: 1,
      ours: () => {
        sink.v = fromJsonString(schema, text, opts);
      },
      es: () => {
        sink.v = esFromJsonString(schema, text, opts);
      },
      ...tsColumn(
        () =>
          same(
            `protobuf-ts ${label} fromJsonString`,
            out,
            pt(tsName).toJson(pt(tsName).fromJsonString(text, tsOpts()), tsOpts()),
          ),
        () => {
          const T = pt(tsName);
          const o = tsOpts();
          return () => {
            sink.v = T.fromJsonString(text, o);
          };
        },
      ),
      floor: {
        name: "JSON.parse",
        run: () => {
          sink.v = JSON.parse(text);
        },
      },
      targets: f.targets,
    },
    {
      area,
      name: `toJsonString/${label}`,
      ops: 1,
      ours: () => {
        sink.v = toJsonString(schema, msg, opts);
      },
      es: () => {
        sink.v = esToJsonString(schema, msg, opts);
      },
      ...tsColumn(
        () =>
          same(
            `protobuf-ts ${label} toJsonString`,
            out,
            JSON.parse(pt(tsName).toJsonString(pt(tsName).fromJson(json, tsOpts()), tsOpts())),
          ),
        () => {
          const T = pt(tsName);
          const o = tsOpts();
          const m: unknown = T.fromJson(json, o);
          return () => {
            sink.v = T.toJsonString(m, o);
          };
        },
      ),
      floor: {
        name: "JSON.stringify",
        run: () => {
          sink.v = JSON.stringify(parsed);
        },
      },
      targets: f.targets,
    },
  );
  return cases;
}

const wholeTargets = [{ vs: "es", max: 1 / 1.5, label: "≥1.5x vs es" }] as const;

/** Six fields of the sparse fixtures: scalars of three kinds, a list and a map. */
const sparseFields = [
  "optionalInt32",
  "optionalInt64",
  "optionalString",
  "optionalNestedEnum",
  "repeatedInt32",
  "mapStringString",
];

/** The members of `json` named in `keys`, in that order. */
function pick(json: JsonObject, keys: readonly string[]): JsonObject {
  const out: JsonObject = {};
  for (const k of keys) {
    if (!(k in json)) throw new Error(`fixture has no ${k}`);
    out[k] = json[k]!;
  }
  return out;
}

export function wholeMessageCases(): Case[] {
  const area = "Whole messages";
  return [
    ...messageCases({
      area,
      label: "test-all-types-proto3",
      schema: TestAllTypesProto3,
      tsName: "TestAllTypesProto3",
      json: messageWithEveryField(TestAllTypesProto3, 21),
      registry: testRegistry,
      strings: true,
      targets: wholeTargets,
    }),
    // Messages as services send them: a few of the 125 fields set. The reader copies a zero message when a
    // message sets few fields and adds no member (src/codec/zero-message.ts), and creates it otherwise.
    ...messageCases({
      area,
      label: "test-all-types-proto3-sparse",
      schema: TestAllTypesProto3,
      tsName: "TestAllTypesProto3",
      json: pick(messageWithEveryField(TestAllTypesProto3, 21), sparseFields),
      registry: testRegistry,
      strings: true,
      targets: wholeTargets,
    }),
    ...messageCases({
      area,
      label: "test-all-types-proto3-sparse-nested",
      schema: TestAllTypesProto3,
      tsName: "TestAllTypesProto3",
      json: pick(messageWithEveryField(TestAllTypesProto3, 21), [...sparseFields, "optionalNestedMessage"]),
      registry: testRegistry,
      strings: true,
      targets: wholeTargets,
    }),
    ...messageCases({
      area,
      label: "bytes-field-64kb",
      schema: TestAllTypesProto3,
      tsName: "TestAllTypesProto3",
      json: flat({ optionalBytes: base64Reference(randomBytes(22, 65536)) }),
      registry: testRegistry,
      strings: false,
      targets: [{ vs: "es", max: 1 / 3, label: "≥3x vs es" }],
    }),
  ];
}

/** Any holding a Timestamp and a ~1 KB Struct: an area of its own, so no TestAllTypesProto3 is met before. */
export function anyCases(): Case[] {
  const area = "Any";
  const anyRegistry = createRegistry(TimestampSchema, DurationSchema, StructSchema);
  return [
    ...messageCases({
      area,
      label: "any-timestamp",
      schema: AnySchema,
      tsName: "Any",
      json: { "@type": "type.googleapis.com/google.protobuf.Timestamp", value: "2024-02-29T12:34:56.789Z" },
      registry: anyRegistry,
      strings: false,
      targets: wholeTargets,
    }),
    ...messageCases({
      area,
      label: "any-struct-1kb",
      schema: AnySchema,
      tsName: "Any",
      json: { "@type": "type.googleapis.com/google.protobuf.Struct", value: flowDefinition(23, 1_000) },
      registry: anyRegistry,
      strings: false,
      targets: wholeTargets,
    }),
  ];
}
