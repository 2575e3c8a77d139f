// The browser-free smoke set: the built ESM bundle (dist/index.js, as `npm run build` writes it) loaded by a
// runtime other than the Node that runs vitest. Plain JavaScript with no test framework and no Node built-ins,
// so that every runtime runs it as is:
//
//   node test/packaging/smoke.mjs
//   bun run test/packaging/smoke.mjs
//   deno run --allow-read test/packaging/smoke.mjs
//
// Bare imports (@bufbuild/protobuf, long) resolve through node_modules, which Bun and Deno 2 read when a
// package.json is present. scripts/runtimes.mjs runs it under each pinned Bun and Deno (.ci/run calls it).
// Prints one line per check and "smoke: N checks passed on <runtime>"; throws (non-zero exit) on the first
// failure.

import { create } from "@bufbuild/protobuf";
import { DurationSchema, TimestampSchema } from "@bufbuild/protobuf/wkt";
import Long from "long";
import * as w from "../../dist/index.js";

let checks = 0;

function equal(actual, expected, what) {
  const a = JSON.stringify(actual, (_k, v) => (typeof v === "bigint" ? `${v}n` : v));
  const e = JSON.stringify(expected, (_k, v) => (typeof v === "bigint" ? `${v}n` : v));
  if (a !== e) throw new Error(`smoke: ${what}: got ${a}, want ${e}`);
}

function check(name, fn) {
  fn();
  checks++;
  console.log(`ok   ${name}`);
}

/** Returns the error `fn` throws; fails the check when it throws nothing. */
function thrown(fn, what) {
  try {
    fn();
  } catch (e) {
    return e;
  }
  throw new Error(`smoke: ${what}: nothing was thrown`);
}

check("Timestamp: JSON round trip, offsets normalised to UTC", () => {
  const ts = w.timestampFromJson("2015-07-06T15:33:38.5-07:00");
  equal([ts.seconds, ts.nanos], [1436222018n, 500000000], "timestamp fields");
  equal(w.timestampToJson(ts), "2015-07-06T22:33:38.500Z", "timestampToJson");
  equal(w.timestampToJson(w.timestampFromDate(new Date(0))), "1970-01-01T00:00:00Z", "timestampFromDate");
});

check("Duration: JSON round trip and arithmetic", () => {
  const d = w.durationFromJson("-1.5s");
  equal([d.seconds, d.nanos], [-1n, -500000000], "duration fields");
  equal(w.durationToJson(d), "-1.500s", "durationToJson");
  equal(w.durationToJson(w.durationAdd(d, w.durationFromJson("2s"))), "0.500s", "durationAdd");
});

check("FieldMask: JSON round trip (camelCase on the wire, snake_case paths)", () => {
  const mask = w.fieldMaskFromJson("user.displayName,photo");
  equal(mask.paths, ["user.display_name", "photo"], "fieldMaskFromJson");
  equal(w.fieldMaskToJson(mask), "user.displayName,photo", "fieldMaskToJson");
});

check("Struct: JSON round trip", () => {
  const json = { a: [1, "two", true, null, { b: 2.5 }], c: {} };
  equal(w.structToJson(w.structFromJson(json)), json, "struct round trip");
});

check("Any: pack, JSON round trip, unpack", () => {
  const any = w.anyPack(DurationSchema, w.durationFromJson("3s"));
  const json = w.anyToJson(any);
  equal(json, { "@type": "type.googleapis.com/google.protobuf.Duration", value: "3s" }, "anyToJson");
  const back = w.anyUnpack(w.anyFromJson(json));
  equal([back.$typeName, back.seconds, back.nanos], ["google.protobuf.Duration", 3n, 0], "anyUnpack");
});

check("codec: fromJson/toJson and the string forms of a well-known type", () => {
  const ts = w.fromJson(TimestampSchema, "1970-01-01T00:00:01.000000001Z");
  equal(w.toJson(TimestampSchema, ts), "1970-01-01T00:00:01.000000001Z", "toJson");
  const d = w.fromJsonString(DurationSchema, '"0.25s"');
  equal(w.toJsonString(DurationSchema, d), '"0.250s"', "toJsonString");
  equal(
    w.toJson(TimestampSchema, create(TimestampSchema, { seconds: 1n })),
    "1970-01-01T00:00:01Z",
    "toJson of create()",
  );
});

check("int64From: bigint, string and a protobufjs Long", () => {
  equal(w.int64From("-9223372036854775808"), -9223372036854775808n, "int64From string");
  equal(
    w.int64From(Long.fromString("18446744073709551615", true), { unsigned: true }),
    18446744073709551615n,
    "int64From Long",
  );
});

check("errors: a WktJsonError is thrown and recognised, with rule, path and position", () => {
  const e = thrown(() => w.fromJsonString(TimestampSchema, '\n  "2024-02-30T00:00:00Z"'), "bad date");
  equal(e instanceof w.WktJsonError, true, "instanceof WktJsonError");
  equal(e instanceof Error, true, "instanceof Error");
  equal(w.isWktJsonError(e), true, "isWktJsonError");
  equal(
    [e.name, e.rule, e.jsonPath, e.typeName, e.line, e.column],
    ["WktJsonError", "range", "$", "google.protobuf.Timestamp", 2, 3],
    "error fields",
  );
  equal(w.isWktJsonError(new Error("x")), false, "isWktJsonError of an Error");
  const cause = new Error("inner");
  equal(new w.WktJsonError("binary", "$", "t", "d", { cause }).cause === cause, true, "cause");
});

const runtime =
  typeof globalThis.Deno !== "undefined"
    ? `Deno ${globalThis.Deno.version.deno}`
    : typeof globalThis.Bun !== "undefined"
      ? `Bun ${globalThis.Bun.version}`
      : `Node ${globalThis.process?.versions?.node}`;
console.log(`smoke: ${checks} checks passed on ${runtime}`);
