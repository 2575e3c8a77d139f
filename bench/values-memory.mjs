/**
 * Peak memory of decoding the shapes of bench/values-memory-child.ts at several sizes, one fresh process per
 * measurement: `node bench/values-memory.mjs [sizes in MB, comma-separated] [shapes, comma-separated]
 * [maxValues|default] [text|value]` (`value`: fromJson of the parsed text). Also prints what the budget charged
 * (units of 8 bytes, for the whole input) against the memory the result kept: the calibration of
 * src/internal/budget.ts (kept/charged at most 8 bytes a unit). Bundles the child with esbuild into .bench/ first.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { build } from "esbuild";

mkdirSync(".bench", { recursive: true });
await build({
  entryPoints: ["bench/values-memory-child.ts"],
  bundle: true,
  platform: "node",
  format: "esm",
  outfile: ".bench/values-memory-child.mjs",
  logLevel: "error",
  banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
});
const sizes = (process.argv[2] ?? "1,4,16").split(",").map(Number);
const shapes = (
  process.argv[3] ?? "nested,corecursive,structLists,valueLists,bytes,wide,listNumbers,int64,structStrings,map"
).split(",");
const maxValues = process.argv[4] ?? "default";
const entry = process.argv[5] ?? "text";
const mb = (b) => (b / 2 ** 20).toFixed(1);
console.log(
  "shape        text MB   peak RSS MB   retained MB   peak/text   ms     result   charged MB  retained/charged",
);
for (const shape of shapes) {
  for (const size of sizes) {
    let out;
    try {
      out = JSON.parse(
        execFileSync(
          process.execPath,
          ["--expose-gc", ".bench/values-memory-child.mjs", shape, String(size * 2 ** 20), maxValues, entry],
          {
            encoding: "utf8",
            stdio: ["ignore", "pipe", "pipe"],
          },
        ),
      );
    } catch (e) {
      console.log(`${shape.padEnd(12)} ${String(size).padStart(7)}   aborted (${String(e.status ?? e.signal)})`);
      continue;
    }
    console.log(
      `${shape.padEnd(12)} ${mb(out.bytes).padStart(7)} ${mb(out.peakRss).padStart(13)} ${mb(out.retained).padStart(13)} ${(out.peakRss / out.bytes).toFixed(0).padStart(9)}x ${String(out.ms).padStart(6)}   ${(out.rule ?? "ok").padEnd(6)} ${(out.rule === undefined ? mb(out.charged * 8) : "-").padStart(10)}  ${out.rule === undefined ? (out.retained / (out.charged * 8)).toFixed(2) : "-"}`,
    );
  }
}
