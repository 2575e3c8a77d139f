/**
 * Struct / Value / ListValue against @bufbuild/protobuf on the same inputs, after checking both give the same
 * output. Run: npx vitest bench --run bench/struct.bench.ts
 */
import { deepStrictEqual } from "node:assert/strict";
import { fromJson, toJson, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { ListValueSchema, StructSchema } from "@bufbuild/protobuf/wkt";
import { bench, describe } from "vitest";
import { listValueFromJson, listValueToJson, structFromJson, structToJson } from "../src/struct.js";

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

const events = ["incomingMessage", "incomingCall", "incomingRequest", "audioComplete", "keypress", "noMatch"];
/** Property names per widget type, in the order the flow editor writes them; each is present with p = 0.8. */
const widgetProps: Record<string, readonly string[]> = {
  trigger: [],
  "say-play": ["voice", "language", "loop", "say"],
  "gather-input-on-call": ["voice", "speech_timeout", "loop", "finish_on_key", "say", "language", "hints",
    "stop_gather", "gather_language", "profanity_filter", "timeout", "number_of_digits", "speech_model"],
  "split-based-on": ["input", "conditions"],
  "send-to-flex": ["workflow", "channel", "attributes", "priority", "timeout"],
  "run-function": ["service_sid", "environment_sid", "function_sid", "url", "parameters"],
  "x-custom-widget": ["matrix", "weights", "options", "note", "retries"], // unknown to any schema
};
const widgetTypes = Object.keys(widgetProps);
const nestedNames = ["key", "value", "friendly_name", "arguments", "type", "enabled"];

/**
 * A flow-builder definition (consumers.md §1) of about `bytes` bytes of JSON text: a few top-level members and
 * an array of states (widgets) whose free-form properties hold integers, floats, strings, booleans, nulls,
 * nested objects and arrays. Member names repeat as in real definitions: a widget type's properties come in
 * the editor's order.
 */
function flowDefinition(seed: number, bytes: number): JsonObject {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const scalar = (): JsonValue => {
    const r = rnd();
    if (r < 0.3) return Math.floor(rnd() * 1e6);
    if (r < 0.45) return Math.round(rnd() * 1e6) / 1000;
    if (r < 0.6) return rnd() < 0.5;
    if (r < 0.65) return null;
    return pick(nestedNames) + " " + Math.floor(rnd() * 1e6).toString(36);
  };
  const value = (depth: number): JsonValue => {
    const r = rnd();
    if (depth < 3 && r < 0.15) {
      const o: JsonObject = {};
      for (const name of nestedNames) if (rnd() < 0.5) o[name] = value(depth + 1);
      return o;
    }
    if (depth < 3 && r < 0.25) return Array.from({ length: Math.floor(rnd() * 5) }, () => value(depth + 1));
    return scalar();
  };
  const states: JsonValue[] = [];
  const doc: JsonObject = {
    description: "generated flow " + seed,
    flags: { allow_concurrent_calls: true },
    initial_state: "Trigger",
    states,
  };
  let size = JSON.stringify(doc).length;
  while (size < bytes) {
    const type = states.length === 0 ? "trigger" : pick(widgetTypes);
    const properties: JsonObject = { offset: { x: Math.floor(rnd() * 2000) - 1000, y: Math.floor(rnd() * 2000) } };
    for (const name of widgetProps[type]!) if (rnd() < 0.8) properties[name] = value(0);
    const transitions = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () =>
      rnd() < 0.6 ? { event: pick(events), next: "widget_" + Math.floor(rnd() * 1000) } : { event: pick(events) },
    );
    const state: JsonObject = { name: "widget_" + states.length, type, transitions, properties };
    states.push(state);
    size += JSON.stringify(state).length + 1;
  }
  return doc;
}

/**
 * A map-like object of about `bytes` bytes with thousands of distinct member names at every level: the worst
 * case for any JS object builder (each new name is a new hidden class), shown for honesty.
 */
function wideObject(seed: number, bytes: number): JsonObject {
  const rnd = mulberry32(seed);
  const key = (): string => pick(nestedNames) + "_" + Math.floor(rnd() * 100);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const value = (depth: number): JsonValue => {
    const r = rnd();
    if (depth < 4 && r < 0.15) {
      const o: JsonObject = {};
      for (let n = 1 + Math.floor(rnd() * 5); n > 0; n--) o[key()] = value(depth + 1);
      return o;
    }
    if (depth < 4 && r < 0.25) return Array.from({ length: Math.floor(rnd() * 5) }, () => value(depth + 1));
    if (r < 0.45) return Math.floor(rnd() * 1e6);
    if (r < 0.55) return rnd() * 1000 - 500;
    if (r < 0.65) return rnd() < 0.5;
    if (r < 0.7) return null;
    return pick(nestedNames) + "-" + Math.floor(rnd() * 1e4).toString(36);
  };
  const out: JsonObject = {};
  let size = 2;
  for (let i = 0; size < bytes; i++) {
    const k = key() + "_" + i;
    out[k] = value(0);
    size += JSON.stringify(k).length + JSON.stringify(out[k]).length + 2;
  }
  return out;
}

/** Longer runs than the default, so that a ratio from one run is steadier on a busy machine. */
const opts = { time: 1500, warmupTime: 300 };

// As a service gets them: parsed from JSON text.
const reparse = (j: JsonObject): JsonObject => JSON.parse(JSON.stringify(j)) as JsonObject;
const struct1k = reparse(flowDefinition(1, 1_000));
const struct100k = reparse(flowDefinition(2, 100_000));
const wide100k = reparse(wideObject(3, 100_000));
const rnd = mulberry32(4);
const numbers1000: JsonValue[] = Array.from({ length: 1000 }, () => Math.round(rnd() * 1e6) / 100);

for (const [label, json] of [
  ["struct-1kb", struct1k],
  ["struct-100kb", struct100k],
  ["struct-wide-100kb", wide100k],
] as const) {
  const ours = structFromJson(json);
  const theirs = fromJson(StructSchema, json);
  deepStrictEqual(ours, theirs);
  deepStrictEqual(structToJson(theirs), toJson(StructSchema, theirs));

  describe(`fromJson/${label}`, () => {
    bench("wkt-json", () => {
      structFromJson(json);
    }, opts);
    bench("@bufbuild/protobuf", () => {
      fromJson(StructSchema, json);
    }, opts);
  });

  describe(`toJson/${label}`, () => {
    bench("wkt-json", () => {
      structToJson(theirs);
    }, opts);
    bench("@bufbuild/protobuf", () => {
      toJson(StructSchema, theirs);
    }, opts);
  });
}

{
  const ours = listValueFromJson(numbers1000);
  const theirs = fromJson(ListValueSchema, numbers1000);
  deepStrictEqual(ours, theirs);
  deepStrictEqual(listValueToJson(theirs), toJson(ListValueSchema, theirs));

  describe("fromJson/list-1000-numbers", () => {
    bench("wkt-json", () => {
      listValueFromJson(numbers1000);
    }, opts);
    bench("@bufbuild/protobuf", () => {
      fromJson(ListValueSchema, numbers1000);
    }, opts);
  });

  describe("toJson/list-1000-numbers", () => {
    bench("wkt-json", () => {
      listValueToJson(theirs);
    }, opts);
    bench("@bufbuild/protobuf", () => {
      toJson(ListValueSchema, theirs);
    }, opts);
  });
}
