/**
 * Memory of decoding a 10 MB Struct text: `fromJsonString(StructSchema, text)` of wkt-json and of
 * `@bufbuild/protobuf`, against `JSON.parse(text)` alone. Each measurement runs in a fresh process
 * (.bench/memory-child.mjs, bundled from bench/memory-child.ts by bench/run.mjs), several times in
 * interleaved order; the medians are reported. No target: the old one (peak at most 3x JSON.parse's) gave way
 * to the worst-shape budget of hostile input (`maxValues`, README "Hostile input", tested in test/hostile/).
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";

const modes = ["JSON.parse", "wkt-json", "@bufbuild/protobuf"];

function median(xs) {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`;

/** Measures, prints a table and returns the results. `dir` holds memory-child.mjs. */
export function measureMemory(dir, { runs = 3 } = {}) {
  const child = join(dir, "memory-child.mjs");
  const fixture = join(dir, "struct-10mb.json");
  const node = (args) =>
    execFileSync(process.execPath, ["--expose-gc", child, ...args], { encoding: "utf8", maxBuffer: 1 << 20 });
  if (!existsSync(fixture)) node(["write", fixture]);
  const samples = Object.fromEntries(modes.map((m) => [m, []]));
  for (let r = 0; r < runs; r++) {
    for (let k = 0; k < modes.length; k++) {
      const mode = modes[(k + r) % modes.length];
      samples[mode].push(JSON.parse(node([mode, fixture])));
    }
  }
  const results = modes.map((mode) => {
    const list = samples[mode];
    return {
      mode,
      bytes: list[0].bytes,
      peakRss: median(list.map((s) => s.peakRss)),
      heapGrowth: median(list.map((s) => s.heapGrowth)),
      retained: median(list.map((s) => s.retained)),
      ms: median(list.map((s) => s.ms)),
    };
  });
  const floor = results[0];
  console.log(`\nMemory: decoding a ${mb(floor.bytes)} Struct text, one fresh process per run, median of ${runs} runs`);
  console.log("implementation        peak RSS   heap growth   retained   time      peak / JSON.parse");
  for (const r of results) {
    console.log(
      `${r.mode.padEnd(20)} ${mb(r.peakRss).padStart(10)} ${mb(r.heapGrowth).padStart(13)} ${mb(r.retained).padStart(10)} ${`${r.ms.toFixed(0)} ms`.padStart(7)}   ${(r.peakRss / floor.peakRss).toFixed(2)}x`,
    );
  }
  const ours = results[1].peakRss / floor.peakRss;
  console.log(
    `wkt-json's peak is ${ours.toFixed(2)}x JSON.parse's (no target: the memory bound is the maxValues budget of README "Hostile input")`,
  );
  return { fixtureBytes: floor.bytes, runs, results, ratio: ours };
}
