/**
 * Timestamp: `timestampFromJson` / `timestampToJson` beside `fromJson` / `toJson` with `TimestampSchema`, on
 * 256 different instants per call. Floors: `Date.parse` of the same text (millisecond precision, so less work
 * than a parse to nanoseconds) and `Date.prototype.toISOString` of the same instant.
 */
import { fromJson, toJson } from "@bufbuild/protobuf";
import { type Timestamp, TimestampSchema } from "@bufbuild/protobuf/wkt";
import { timestampFromJson, timestampToJson } from "../../src/timestamp.js";
import { pt, same, tsColumn } from "../check.js";
import { flat, timestamps, withOffsets } from "../fixtures.js";
import { sink, type Case } from "../harness.js";

const area = "Timestamp";
const parseTargets = [{ vs: "es", max: 1 / 5, label: "≥5x vs es" }] as const;
const formatTargets = [{ vs: "es", max: 1 / 3, label: "≥3x vs es" }] as const;

function parseCase(name: string, texts: string[]): Case {
  for (const t of texts) {
    const ours = timestampFromJson(t);
    same(`Timestamp parse ${t}`, ours, fromJson(TimestampSchema, t));
    if (Date.parse(t) !== Number(ours.seconds) * 1000 + Math.floor(ours.nanos / 1e6)) throw new Error(`Date.parse disagrees on ${t}`);
  }
  const ts = tsColumn(
    () => {
      for (const t of texts) {
        const m = pt("Timestamp").fromJson(t);
        const ours = timestampFromJson(t);
        same(`protobuf-ts Timestamp parse ${t}`, [ours.seconds, ours.nanos], [m.seconds, m.nanos]);
      }
    },
    () => {
      const T = pt("Timestamp");
      return () => {
        let r: unknown;
        for (let i = 0; i < texts.length; i++) r = T.fromJson(texts[i]!);
        sink.v = r;
      };
    },
  );
  return {
    area,
    name,
    ops: texts.length,
    ours: () => {
      let r: unknown;
      for (let i = 0; i < texts.length; i++) r = timestampFromJson(texts[i]!);
      sink.v = r;
    },
    es: () => {
      let r: unknown;
      for (let i = 0; i < texts.length; i++) r = fromJson(TimestampSchema, texts[i]!);
      sink.v = r;
    },
    ...ts,
    floor: {
      name: "Date.parse",
      run: () => {
        let r = 0;
        for (let i = 0; i < texts.length; i++) r += Date.parse(texts[i]!);
        sink.v = r;
      },
    },
    targets: parseTargets,
  };
}

function formatCase(name: string, list: Timestamp[]): Case {
  for (const m of list) same(`Timestamp format ${m.seconds}/${m.nanos}`, timestampToJson(m), toJson(TimestampSchema, m));
  const dates = list.map((m) => new Date(Number(m.seconds) * 1000 + Math.floor(m.nanos / 1e6)));
  const ts = tsColumn(
    () => {
      for (const m of list) {
        same(`protobuf-ts Timestamp format`, timestampToJson(m), pt("Timestamp").toJson(pt("Timestamp").create({ seconds: m.seconds, nanos: m.nanos })));
      }
    },
    () => {
      const T = pt("Timestamp");
      const own = list.map((m) => T.create({ seconds: m.seconds, nanos: m.nanos }));
      return () => {
        let r: unknown;
        for (let i = 0; i < own.length; i++) r = T.toJson(own[i]);
        sink.v = r;
      };
    },
  );
  return {
    area,
    name,
    ops: list.length,
    ours: () => {
      let r = "";
      for (let i = 0; i < list.length; i++) r = timestampToJson(list[i]!);
      sink.v = r;
    },
    es: () => {
      let r: unknown;
      for (let i = 0; i < list.length; i++) r = toJson(TimestampSchema, list[i]!);
      sink.v = r;
    },
    ...ts,
    floor: {
      name: "toISOString",
      run: () => {
        let r = "";
        for (let i = 0; i < dates.length; i++) r = dates[i]!.toISOString();
        sink.v = r;
      },
    },
    targets: formatTargets,
  };
}

export function timestampCases(): Case[] {
  const fixtures = { frac0: timestamps(1, 0), frac3: timestamps(2, 3), frac6: timestamps(3, 6), frac9: timestamps(4, 9) };
  const cases: Case[] = [];
  for (const [name, list] of Object.entries(fixtures)) cases.push(parseCase(`parse/${name}`, flat(list.map(timestampToJson))));
  cases.push(parseCase("parse/offset", flat(withOffsets(fixtures.frac3, 5, timestampToJson))));
  for (const [name, list] of Object.entries(fixtures)) cases.push(formatCase(`format/${name}`, list));
  return cases;
}
