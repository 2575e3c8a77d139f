/**
 * Duration: `durationFromJson` / `durationToJson` beside `fromJson` / `toJson` with `DurationSchema`, on 256
 * different values per call. No platform floor: nothing built in reads or writes "1.5s".
 */
import { DurationSchema } from "@bufbuild/protobuf/wkt";
import { durationFromJson, durationToJson } from "../../src/wkt/duration.js";
import { durationFixtures, flat } from "../fixtures.js";
import type { Case } from "../harness.js";
import { formatCase, parseCase, type SecondsNanosType } from "./seconds-nanos.js";

const duration: SecondsNanosType<ReturnType<typeof durationFromJson>> = {
  area: "Duration",
  schema: DurationSchema,
  fromText: durationFromJson,
  toText: durationToJson,
};
const parseTargets = [{ vs: "es", max: 1 / 5, label: "≥5x vs es" }] as const;
// Format ≥ 3x protobuf-es was dropped as a target by issue 16; the bar is "not slower than either library".
const formatTargets = [] as const;

export function durationCases(): Case[] {
  const cases: Case[] = [];
  for (const [name, list] of Object.entries(durationFixtures)) {
    cases.push(parseCase(duration, `parse/${name}`, flat(list.map(durationToJson)), parseTargets));
  }
  for (const [name, list] of Object.entries(durationFixtures))
    cases.push(formatCase(duration, `format/${name}`, list, formatTargets));
  return cases;
}
