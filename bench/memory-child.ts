/**
 * One memory measurement, in a process of its own (bench/memory.mjs starts it, bundled, with --expose-gc):
 * decodes the Struct text in `file` once with the implementation named by `mode` and prints, as JSON, how
 * much memory that took beyond what the process held with the text loaded. `write` mode writes the fixture.
 *
 * - peakRss: the process's high-water resident set size (getrusage maxrss) after the decode, minus the resident
 *   size before it: the most memory the decode had at once, whatever held it (JS heap, parser buffers).
 * - heapGrowth: how much the committed JS heap grew (total_heap_size after minus before).
 * - retained: JS heap still used after a full GC with the result alive: the size of the result.
 */
import { writeFileSync, readFileSync } from "node:fs";
import { getHeapStatistics } from "node:v8";
import { fromJsonString as esFromJsonString } from "@bufbuild/protobuf";
import { StructSchema } from "@bufbuild/protobuf/wkt";
import { fromJsonString } from "../src/codec/from-json.js";
import { flowDefinition } from "./fixtures.js";

const [mode, file] = process.argv.slice(2) as [string, string];
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error("run with --expose-gc");

if (mode === "write") {
  writeFileSync(file, JSON.stringify(flowDefinition(7, 10_000_000)));
} else {
  const text = readFileSync(file, "utf8");
  gc();
  gc();
  const rssBefore = process.memoryUsage().rss;
  const heapBefore = getHeapStatistics();
  const decode: Record<string, () => unknown> = {
    "JSON.parse": () => JSON.parse(text),
    "wkt-json": () => fromJsonString(StructSchema, text),
    "@bufbuild/protobuf": () => esFromJsonString(StructSchema, text),
  };
  const run = decode[mode];
  if (run === undefined) throw new Error(`unknown mode ${mode}`);
  const t0 = performance.now();
  const result = run();
  const ms = performance.now() - t0;
  const peakRss = process.resourceUsage().maxRSS * 1024 - rssBefore;
  const heapGrowth = getHeapStatistics().total_heap_size - heapBefore.total_heap_size;
  gc();
  gc();
  const retained = getHeapStatistics().used_heap_size - heapBefore.used_heap_size;
  process.stdout.write(
    JSON.stringify({ mode, bytes: text.length, peakRss, heapGrowth, retained, ms, keep: typeof result }) + "\n",
  );
}
