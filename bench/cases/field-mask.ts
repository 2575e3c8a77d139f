/**
 * FieldMask JSON form: `fieldMaskFromJson` / `fieldMaskToJson` beside `fromJson` / `toJson` with
 * `FieldMaskSchema`: 64 different masks of 4 paths per call, and 4 masks of 100 paths. No platform floor.
 */
import { create, fromJson, toJson } from "@bufbuild/protobuf";
import { type FieldMask, FieldMaskSchema } from "@bufbuild/protobuf/wkt";
import { fieldMaskFromJson, fieldMaskToJson } from "../../src/wkt/field-mask.js";
import { pt, same, tsColumn } from "../check.js";
import { flat, protoPaths } from "../fixtures.js";
import { sink, type Case } from "../harness.js";

const area = "FieldMask";
const targets = [{ vs: "es", max: 1 / 5, label: "≥5x vs es" }] as const;

export function fieldMaskCases(): Case[] {
  const cases: Case[] = [];
  for (const [label, count, paths] of [
    ["4-paths", 64, 4],
    ["100-paths", 4, 100],
  ] as const) {
    const masks: FieldMask[] = Array.from({ length: count }, (_, k) =>
      create(FieldMaskSchema, { paths: protoPaths(100 * paths + k, paths) }),
    );
    const texts = flat(masks.map((m) => toJson(FieldMaskSchema, m) as string));
    for (let k = 0; k < count; k++) {
      same(`FieldMask format ${texts[k]}`, fieldMaskToJson(masks[k]!), texts[k]);
      same(`FieldMask parse ${texts[k]}`, fieldMaskFromJson(texts[k]), fromJson(FieldMaskSchema, texts[k]!));
    }
    cases.push({
      area,
      name: `fromJson/${label}`,
      ops: count,
      ours: () => {
        let r: unknown;
        for (let i = 0; i < texts.length; i++) r = fieldMaskFromJson(texts[i]);
        sink.v = r;
      },
      es: () => {
        let r: unknown;
        for (let i = 0; i < texts.length; i++) r = fromJson(FieldMaskSchema, texts[i]!);
        sink.v = r;
      },
      ...tsColumn(
        () => {
          for (const t of texts)
            same(`protobuf-ts FieldMask parse ${t}`, fieldMaskFromJson(t).paths, pt("FieldMask").fromJson(t).paths);
        },
        () => {
          const T = pt("FieldMask");
          return () => {
            let r: unknown;
            for (let i = 0; i < texts.length; i++) r = T.fromJson(texts[i]!);
            sink.v = r;
          };
        },
      ),
      targets,
    });
    cases.push({
      area,
      name: `toJson/${label}`,
      ops: count,
      ours: () => {
        let r = "";
        for (let i = 0; i < masks.length; i++) r = fieldMaskToJson(masks[i]!);
        sink.v = r;
      },
      es: () => {
        let r: unknown;
        for (let i = 0; i < masks.length; i++) r = toJson(FieldMaskSchema, masks[i]!);
        sink.v = r;
      },
      ...tsColumn(
        () => {
          const T = pt("FieldMask");
          for (const m of masks)
            same(`protobuf-ts FieldMask format`, fieldMaskToJson(m), T.toJson(T.create({ paths: m.paths })));
        },
        () => {
          const T = pt("FieldMask");
          const own = masks.map((m) => T.create({ paths: m.paths }));
          return () => {
            let r: unknown;
            for (let i = 0; i < own.length; i++) r = T.toJson(own[i]);
            sink.v = r;
          };
        },
      ),
      targets,
    });
  }
  return cases;
}
