/**
 * Duration: `durationFromJson` / `durationToJson` beside `fromJson` / `toJson` with `DurationSchema`, on 256
 * different values per call. No platform floor: nothing built in reads or writes "1.5s".
 */
import { fromJson, toJson } from "@bufbuild/protobuf";
import { type Duration, DurationSchema } from "@bufbuild/protobuf/wkt";
import { durationFromJson, durationToJson } from "../../src/duration.js";
import { pt, same, tsColumn } from "../check.js";
import { durationFixtures, flat } from "../fixtures.js";
import { sink, type Case } from "../harness.js";

const area = "Duration";

function parseCase(name: string, texts: string[]): Case {
  for (const t of texts) same(`Duration parse ${t}`, durationFromJson(t), fromJson(DurationSchema, t));
  const ts = tsColumn(
    () => {
      for (const t of texts) {
        const m = pt("Duration").fromJson(t);
        const ours = durationFromJson(t);
        same(`protobuf-ts Duration parse ${t}`, [ours.seconds, ours.nanos], [m.seconds, m.nanos]);
      }
    },
    () => {
      const T = pt("Duration");
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
      for (let i = 0; i < texts.length; i++) r = durationFromJson(texts[i]!);
      sink.v = r;
    },
    es: () => {
      let r: unknown;
      for (let i = 0; i < texts.length; i++) r = fromJson(DurationSchema, texts[i]!);
      sink.v = r;
    },
    ...ts,
    targets: [{ vs: "es", max: 1 / 5, label: "≥5x vs es" }],
  };
}

function formatCase(name: string, list: Duration[]): Case {
  for (const d of list) same(`Duration format ${d.seconds}/${d.nanos}`, durationToJson(d), toJson(DurationSchema, d));
  const ts = tsColumn(
    () => {
      const T = pt("Duration");
      for (const d of list) same(`protobuf-ts Duration format`, durationToJson(d), T.toJson(T.create({ seconds: d.seconds, nanos: d.nanos })));
    },
    () => {
      const T = pt("Duration");
      const own = list.map((d) => T.create({ seconds: d.seconds, nanos: d.nanos }));
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
      for (let i = 0; i < list.length; i++) r = durationToJson(list[i]!);
      sink.v = r;
    },
    es: () => {
      let r: unknown;
      for (let i = 0; i < list.length; i++) r = toJson(DurationSchema, list[i]!);
      sink.v = r;
    },
    ...ts,
    targets: [{ vs: "es", max: 1 / 3, label: "≥3x vs es" }],
  };
}

export function durationCases(): Case[] {
  const cases: Case[] = [];
  for (const [name, list] of Object.entries(durationFixtures)) cases.push(parseCase(`parse/${name}`, flat(list.map(durationToJson))));
  for (const [name, list] of Object.entries(durationFixtures)) cases.push(formatCase(`format/${name}`, list));
  return cases;
}
