/**
 * Memory of decoding one hostile shape (issues 14 and 25, maxValues): run bundled, with --expose-gc, one process
 * per measurement: `node --expose-gc values-memory-child.mjs <shape> <code units> [maxValues|default] [text|value]`
 * (`value`: fromJson of the parsed text, built beforehand). Prints JSON: bytes (UTF-16 code units of the text),
 * peakRss (maxRSS after minus RSS before, with the text already built), retained (heap used after a full GC
 * with the result alive, and for `text` without the text), ms, the error's rule when the decode was refused,
 * and `charged`/`earned` (budgetOf: units of 8 bytes charged, code units earned, for the whole input).
 */
import { getHeapStatistics } from "node:v8";
import { create, createFileRegistry, type DescMessage } from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema, FileDescriptorSetSchema, StructSchema } from "@bufbuild/protobuf/wkt";
import { budgetOf, fromJson, fromJsonString } from "../src/codec/from-json.js";
import { isWktJsonError } from "../src/errors.js";
import { TestAllTypesProto3 } from "../test/conformance-registry.js";

const [shape, sizeArg, maxValuesArg, entry] = process.argv.slice(2) as [string, string, string | undefined, string];

/** acme.Wide: 280 proto3 scalar fields of implicit presence (a member each), and acme.Wides, a list of them. */
function wideType(): DescMessage {
  const types = [3, 9, 1, 5, 8]; // int64, string, double, int32, bool
  const field = Array.from({ length: 280 }, (_, i) => ({
    name: `f${i}`,
    number: i + 1,
    type: types[i % 5],
    label: 1,
    jsonName: `f${i}`,
  }));
  const file = create(FileDescriptorProtoSchema, {
    name: "acme/wide.proto",
    package: "acme",
    syntax: "proto3",
    messageType: [
      { name: "Wide", field },
      { name: "Wides", field: [{ name: "w", number: 1, type: 11, label: 3, jsonName: "w", typeName: ".acme.Wide" }] },
    ],
  } as never);
  return createFileRegistry(create(FileDescriptorSetSchema, { file: [file] })).getMessage("acme.Wides")!;
}
const size = Number(sizeArg);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("run with --expose-gc");

function repeatToSize(open: string, piece: string, close: string, n: number): string {
  return (
    open +
    Array(Math.max(1, Math.floor(n / (piece.length + 1))))
      .fill(piece)
      .join(",") +
    close
  );
}

const shapes: Record<string, () => [string, DescMessage]> = {
  // Empty nested messages (NestedMessage: two fields).
  nested: () => [repeatToSize('{"repeatedNestedMessage":[', "{}", "]}", size), TestAllTypesProto3],
  // A whole TestAllTypesProto3 (every field) per 19 code units.
  corecursive: () => [repeatToSize('{"repeatedNestedMessage":[', '{"corecursive":{}}', "]}", size), TestAllTypesProto3],
  // A Struct of small lists: a ListValue inside a Value per 3 code units.
  structLists: () => [repeatToSize('{"k":[', "[]", "]}", size), StructSchema],
  // google.protobuf.Value list items of a message field.
  valueLists: () => [repeatToSize('{"repeatedValue":[', "[]", "]}", size), TestAllTypesProto3],
  // A Struct of one-character strings in a list: a Value per 4 code units (0.5 of the budget per code unit).
  structStrings: () => [repeatToSize('{"k":[', '"a"', "]}", size), StructSchema],
  // A Struct of one-digit numbers in a list: a Value per 2 code units.
  structNumbers: () => [repeatToSize('{"k":[', "1", "]}", size), StructSchema],
  // repeated bytes: a Uint8Array per 3 code units.
  bytes: () => [repeatToSize('{"repeatedBytes":[', '""', "]}", size), TestAllTypesProto3],
  // A message of 280 implicit-presence fields (a V8 dictionary of 280 members) per 3 code units.
  wide: () => [repeatToSize('{"w":[', "{}", "]}", size), wideType()],
  // A ListValue of one-digit numbers: a Value per 2 code units (the densest real payload).
  listNumbers: () => [repeatToSize('{"repeatedListValue":[[', "1", "]]}", size), TestAllTypesProto3],
  // repeated int64: a bigint per 2 code units.
  int64: () => [repeatToSize('{"repeatedInt64":[', "1", "]}", size), TestAllTypesProto3],
  // map<int32, int32>: an entry per 6 code units.
  map: () => {
    const parts: string[] = [];
    let n = 20;
    for (let k = 0; n < size; k++) {
      const p = `"${k}":1`;
      parts.push(p);
      n += p.length + 1;
    }
    return ['{"mapInt32Int32":{' + parts.join(",") + "}}", TestAllTypesProto3];
  },
};

const make = shapes[shape];
if (make === undefined) throw new Error(`unknown shape ${shape}`);
const [text, schema] = make();
const options: Record<string, unknown> = {};
if (maxValuesArg !== undefined && maxValuesArg !== "default") options["maxValues"] = Number(maxValuesArg);
const value: unknown = entry === "value" ? JSON.parse(text) : undefined;
gc();
gc();
const rssBase = process.memoryUsage().rss;
const heapBase = getHeapStatistics().used_heap_size;
const t0 = performance.now();
let result: unknown;
let rule: string | undefined;
try {
  result = entry === "value" ? fromJson(schema, value as never, options) : fromJsonString(schema, text, options);
} catch (e) {
  if (!isWktJsonError(e)) throw e;
  rule = e.rule;
}
const ms = performance.now() - t0;
const peakRss = process.resourceUsage().maxRSS * 1024 - rssBase;
gc();
gc();
const retained = getHeapStatistics().used_heap_size - heapBase;
result = undefined;
// Only for an input that decoded: past the budget, the whole input may take more memory than the process has.
const { charged, earned } =
  rule === undefined ? budgetOf(schema, value ?? JSON.parse(text)) : { charged: 0, earned: 0 };
process.stdout.write(
  JSON.stringify({ shape, bytes: text.length, peakRss, retained, ms: Math.round(ms), rule, charged, earned }) + "\n",
);
