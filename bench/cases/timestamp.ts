/**
 * Timestamp: `timestampFromJson` / `timestampToJson` beside `fromJson` / `toJson` with `TimestampSchema`, on
 * 256 different instants per call. Floors: `Date.parse` of the same text (millisecond precision, so less work
 * than a parse to nanoseconds) and `Date.prototype.toISOString` of the same instant.
 */
import { type Timestamp, TimestampSchema } from "@bufbuild/protobuf/wkt";
import { timestampFromJson, timestampToJson } from "../../src/wkt/timestamp.js";
import { flat, timestamps, withOffsets } from "../fixtures.js";
import { sink, type Case } from "../harness.js";
import { formatCase, parseCase, type SecondsNanosType } from "./seconds-nanos.js";

const timestamp: SecondsNanosType<Timestamp> = {
  area: "Timestamp",
  schema: TimestampSchema,
  fromText: timestampFromJson,
  toText: timestampToJson,
};
const parseTargets = [{ vs: "es", max: 1 / 5, label: "≥5x vs es" }] as const;
const formatTargets = [{ vs: "es", max: 1 / 3, label: "≥3x vs es" }] as const;

const epochMs = (m: Timestamp): number => Number(m.seconds) * 1000 + Math.floor(m.nanos / 1e6);

function parse(name: string, texts: string[]): Case {
  for (const t of texts) {
    if (Date.parse(t) !== epochMs(timestampFromJson(t))) throw new Error(`Date.parse disagrees on ${t}`);
  }
  return parseCase(timestamp, name, texts, parseTargets, {
    name: "Date.parse",
    run: () => {
      let r = 0;
      for (let i = 0; i < texts.length; i++) r += Date.parse(texts[i]!);
      sink.v = r;
    },
  });
}

function format(name: string, list: Timestamp[]): Case {
  const dates = list.map((m) => new Date(epochMs(m)));
  return formatCase(timestamp, name, list, formatTargets, {
    name: "toISOString",
    run: () => {
      let r = "";
      for (let i = 0; i < dates.length; i++) r = dates[i]!.toISOString();
      sink.v = r;
    },
  });
}

export function timestampCases(): Case[] {
  const fixtures = {
    frac0: timestamps(1, 0),
    frac3: timestamps(2, 3),
    frac6: timestamps(3, 6),
    frac9: timestamps(4, 9),
  };
  const cases: Case[] = [];
  for (const [name, list] of Object.entries(fixtures))
    cases.push(parse(`parse/${name}`, flat(list.map(timestampToJson))));
  cases.push(parse("parse/offset", flat(withOffsets(fixtures.frac3, 5, timestampToJson))));
  for (const [name, list] of Object.entries(fixtures)) cases.push(format(`format/${name}`, list));
  return cases;
}
