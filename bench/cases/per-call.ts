/**
 * Per-call overhead of the whole-message codec on tiny messages: `fromJson`, `toJson`, `fromJsonString` and
 * `toJsonString` with the schema of a Timestamp, a DoubleValue and an Int64Value, on 256 values per call, beside
 * `@bufbuild/protobuf`'s functions of the same names and protobuf-ts's class. The floor is the type's own
 * function (`timestampToJson`, `wrapperFromJson`, ...; for text, with `JSON.parse`/`JSON.stringify` around it):
 * what the codec adds on top of it is option handling, dispatch and the depth/budget bookkeeping, and issue 16
 * asks for at most 1.5x of it.
 */
import {
  create,
  fromJson as esFromJson,
  fromJsonString as esFromJsonString,
  toJson as esToJson,
  toJsonString as esToJsonString,
  type DescMessage,
  type JsonValue,
} from "@bufbuild/protobuf";
import { DoubleValueSchema, Int64ValueSchema, TimestampSchema } from "@bufbuild/protobuf/wkt";
import { fromJson, fromJsonString } from "../../src/codec/from-json.js";
import { timestampFromJson, timestampToJson } from "../../src/wkt/timestamp.js";
import { toJson, toJsonString } from "../../src/codec/to-json.js";
import { wrapperFromJson, wrapperToJson } from "../../src/wkt/wrappers.js";
import { pt, same, tsColumn } from "../check.js";
import { batch, flat, mulberry32, timestamps } from "../fixtures.js";
import { sink, type Case, type Target } from "../harness.js";

const area = "Per call (codec on tiny messages)";
const ownTarget: readonly Target[] = [{ vs: "floor", max: 1.5, label: "≤1.5x own function" }];

interface Tiny {
  readonly label: string;
  readonly schema: DescMessage;
  readonly tsName: "Timestamp" | "DoubleValue" | "Int64Value";
  readonly msgs: unknown[];
  readonly ownFrom: (json: unknown) => unknown;
  readonly ownTo: (msg: never) => JsonValue;
  /** protobuf-ts's message of ours, for its toJson. */
  readonly tsInit: (msg: never) => object;
}

function tinyCases(t: Tiny): Case[] {
  const { schema, msgs, ownFrom, ownTo, label } = t;
  const jsons = flat(msgs.map((m) => esToJson(schema, m as never)));
  const texts = flat(jsons.map((j) => JSON.stringify(j)));
  for (let k = 0; k < msgs.length; k++) {
    same(`${label} fromJson`, fromJson(schema, jsons[k]!), esFromJson(schema, jsons[k]!));
    same(`${label} own from`, ownFrom(jsons[k]!), esFromJson(schema, jsons[k]!));
    same(`${label} toJson`, toJson(schema, msgs[k] as never), jsons[k]);
    same(`${label} own to`, ownTo(msgs[k] as never), jsons[k]);
    same(`${label} fromJsonString`, fromJsonString(schema, texts[k]!), esFromJsonString(schema, texts[k]!));
    same(`${label} toJsonString`, toJsonString(schema, msgs[k] as never), esToJsonString(schema, msgs[k] as never));
  }
  const T = (): ReturnType<typeof pt<typeof t.tsName>> => pt(t.tsName);
  const loop =
    <I>(inputs: readonly I[], fn: (x: I) => unknown) =>
    (): void => {
      let r: unknown;
      for (let i = 0; i < inputs.length; i++) r = fn(inputs[i]!);
      sink.v = r;
    };
  const tsMsgs = (): unknown[] => msgs.map((m) => T().create(t.tsInit(m as never) as never));
  return [
    {
      area,
      name: `fromJson/${label}`,
      ops: jsons.length,
      ours: loop(jsons, (j) => fromJson(schema, j)),
      es: loop(jsons, (j) => esFromJson(schema, j)),
      ...tsColumn(
        () => jsons.forEach((j) => same(`protobuf-ts ${label} fromJson`, T().toJson(T().fromJson(j)), j)),
        () => {
          const P = T();
          return loop(jsons, (j) => P.fromJson(j));
        },
      ),
      floor: { name: "own function", run: loop(jsons, ownFrom) },
      targets: ownTarget,
    },
    {
      area,
      name: `toJson/${label}`,
      ops: msgs.length,
      ours: loop(msgs, (m) => toJson(schema, m as never)),
      es: loop(msgs, (m) => esToJson(schema, m as never)),
      ...tsColumn(
        () => tsMsgs().forEach((m, k) => same(`protobuf-ts ${label} toJson`, T().toJson(m as never), jsons[k])),
        () => {
          const P = T();
          return loop(tsMsgs(), (m) => P.toJson(m as never));
        },
      ),
      floor: { name: "own function", run: loop(msgs, (m) => ownTo(m as never)) },
      targets: ownTarget,
    },
    {
      area,
      name: `fromJsonString/${label}`,
      ops: texts.length,
      ours: loop(texts, (s) => fromJsonString(schema, s)),
      es: loop(texts, (s) => esFromJsonString(schema, s)),
      ...tsColumn(
        () =>
          texts.forEach((s, k) =>
            same(`protobuf-ts ${label} fromJsonString`, T().toJson(T().fromJsonString(s)), jsons[k]),
          ),
        () => {
          const P = T();
          return loop(texts, (s) => P.fromJsonString(s));
        },
      ),
      floor: { name: "own function", run: loop(texts, (s) => ownFrom(JSON.parse(s))) },
      targets: ownTarget,
    },
    {
      area,
      name: `toJsonString/${label}`,
      ops: msgs.length,
      ours: loop(msgs, (m) => toJsonString(schema, m as never)),
      es: loop(msgs, (m) => esToJsonString(schema, m as never)),
      ...tsColumn(
        () =>
          tsMsgs().forEach((m, k) => same(`protobuf-ts ${label} toJsonString`, T().toJsonString(m as never), texts[k])),
        () => {
          const P = T();
          return loop(tsMsgs(), (m) => P.toJsonString(m as never));
        },
      ),
      floor: { name: "own function", run: loop(msgs, (m) => JSON.stringify(ownTo(m as never))) },
      targets: ownTarget,
    },
  ];
}

export function perCallCases(): Case[] {
  const rand = mulberry32(31);
  const int64s = Array.from(
    { length: batch },
    () => 9223372036854775807n - BigInt(Math.floor(rand() * 2 ** 52)) * BigInt(1 + Math.floor(rand() * 2 ** 10)),
  );
  const doubles = Array.from({ length: batch }, () => (rand() - 0.5) * 10 ** Math.floor(rand() * 20 - 5));
  const wrapperTo = (schema: DescMessage) => (m: never) => wrapperToJson(schema, m);
  const wrapperFrom = (schema: DescMessage) => (j: unknown) => wrapperFromJson(schema, j);
  return [
    ...tinyCases({
      label: "timestamp",
      schema: TimestampSchema,
      tsName: "Timestamp",
      msgs: timestamps(32, 3),
      ownFrom: timestampFromJson,
      ownTo: timestampToJson,
      tsInit: (m: { seconds: bigint; nanos: number }) => ({ seconds: m.seconds, nanos: m.nanos }),
    }),
    ...tinyCases({
      label: "doublevalue",
      schema: DoubleValueSchema,
      tsName: "DoubleValue",
      msgs: doubles.map((value) => create(DoubleValueSchema, { value })),
      ownFrom: wrapperFrom(DoubleValueSchema),
      ownTo: wrapperTo(DoubleValueSchema),
      tsInit: (m: { value: number }) => ({ value: m.value }),
    }),
    ...tinyCases({
      label: "int64value",
      schema: Int64ValueSchema,
      tsName: "Int64Value",
      msgs: int64s.map((value) => create(Int64ValueSchema, { value })),
      ownFrom: wrapperFrom(Int64ValueSchema),
      ownTo: wrapperTo(Int64ValueSchema),
      tsInit: (m: { value: bigint }) => ({ value: m.value }),
    }),
  ];
}
