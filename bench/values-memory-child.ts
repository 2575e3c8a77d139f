/**
 * Memory of decoding one hostile shape (issue 14, maxValues): run bundled, with --expose-gc, one process per
 * measurement: `node --expose-gc values-memory-child.mjs <shape> <code units> [maxValues|default]`. Prints JSON:
 * bytes (UTF-16 code units of the text), values (the budget used, when known), peakRss (maxRSS after minus RSS
 * before, with the text already built), retained (heap used after a full GC with the result alive), ms, and
 * the error's rule when the decode was refused.
 */
import { getHeapStatistics } from "node:v8";
import { StructSchema } from "@bufbuild/protobuf/wkt";
import { fromJsonString } from "../src/codec/from-json.js";
import { isWktJsonError } from "../src/errors.js";
import { TestAllTypesProto3 } from "../test/conformance-registry.js";

const [shape, sizeArg, maxValuesArg] = process.argv.slice(2) as [string, string, string | undefined];
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

const shapes: Record<string, () => [string, typeof StructSchema | typeof TestAllTypesProto3]> = {
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
gc();
gc();
const rssBefore = process.memoryUsage().rss;
const heapBefore = getHeapStatistics().used_heap_size;
const t0 = performance.now();
let result: unknown;
let rule: string | undefined;
try {
  result = fromJsonString(schema as never, text, options);
} catch (e) {
  if (!isWktJsonError(e)) throw e;
  rule = e.rule;
}
const ms = performance.now() - t0;
const peakRss = process.resourceUsage().maxRSS * 1024 - rssBefore;
gc();
gc();
const retained = getHeapStatistics().used_heap_size - heapBefore;
process.stdout.write(
  JSON.stringify({ shape, bytes: text.length, peakRss, retained, ms: Math.round(ms), rule, kept: typeof result }) +
    "\n",
);
