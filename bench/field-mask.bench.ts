/**
 * FieldMask JSON form against @bufbuild/protobuf on the same inputs, after checking both give the same output.
 * Run: npx vitest bench --run bench/field-mask.bench.ts
 */
import { deepStrictEqual, strictEqual } from "node:assert/strict";
import { create, fromJson, toJson } from "@bufbuild/protobuf";
import { FieldMaskSchema } from "@bufbuild/protobuf/wkt";
import { bench, describe } from "vitest";
import { fieldMaskFromJson, fieldMaskToJson } from "../src/field-mask.js";

/** mulberry32: a tiny seeded PRNG, so the fixtures are the same on every run. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const words = ["user", "display", "name", "photo", "config", "url", "content", "type", "secret", "insecure", "ssl",
  "events", "active", "created", "at", "updated", "repository", "owner", "id", "v2"];

/** `n` proto paths of 1 to 3 segments, each segment 1 to 3 words joined by "_" (like `config.content_type`). */
function protoPaths(seed: number, n: number): string[] {
  const rnd = mulberry32(seed);
  const pick = (): string => words[Math.floor(rnd() * (words.length - 1))]!; // "v2" only after a word
  const segment = (): string => {
    const parts = [pick()];
    for (let k = Math.floor(rnd() * 3); k > 0; k--) parts.push(rnd() < 0.2 ? pick() + "2" : pick());
    return parts.join("_");
  };
  return Array.from({ length: n }, () => Array.from({ length: 1 + Math.floor(rnd() * 3) }, segment).join("."));
}

const opts = { time: 1500, warmupTime: 300 };

for (const [label, paths] of [
  ["4-paths", protoPaths(1, 4)],
  ["100-paths", protoPaths(2, 100)],
] as const) {
  const mask = create(FieldMaskSchema, { paths });
  const json = toJson(FieldMaskSchema, mask) as string;
  strictEqual(fieldMaskToJson(mask), json);
  deepStrictEqual(fieldMaskFromJson(json), fromJson(FieldMaskSchema, json));

  describe(`fromJson/${label}`, () => {
    bench("wkt-json", () => {
      fieldMaskFromJson(json);
    }, opts);
    bench("@bufbuild/protobuf", () => {
      fromJson(FieldMaskSchema, json);
    }, opts);
  });

  describe(`toJson/${label}`, () => {
    bench("wkt-json", () => {
      fieldMaskToJson(mask);
    }, opts);
    bench("@bufbuild/protobuf", () => {
      toJson(FieldMaskSchema, mask);
    }, opts);
  });
}
