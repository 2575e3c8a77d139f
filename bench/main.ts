/**
 * `npm run bench`: builds every case (checking that all implementations give the same output), times them in
 * interleaved rounds in this one process, and prints one table; with `--json[=file]` also writes the results
 * as JSON. Run through bench/run.mjs, which bundles this file with esbuild first.
 *
 * Options: --rounds=N (default 7), --time=MS per measurement (default 40), --filter=TEXT (cases whose
 * "area op/fixture" contains TEXT; repeatable, any matches), --json[=file] (default .bench/results.json).
 */
import { writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg } from "node:os";
import { reason as protobufTsReason } from "wkt-json-bench:protobuf-ts";
import { caseBuilders } from "./cases/index.js";
import { formatTable, runCases, type Case, type CaseResult } from "./harness.js";

interface Args {
  rounds: number;
  timeMs: number;
  filters: string[];
  json: string | undefined;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = { rounds: 7, timeMs: 40, filters: [], json: undefined };
  for (const a of argv) {
    const [name, value] = a.split(/=(.*)/s, 2) as [string, string | undefined];
    if (name === "--rounds") args.rounds = Number(value);
    else if (name === "--time") args.timeMs = Number(value);
    else if (name === "--filter" && value !== undefined) args.filters.push(value);
    else if (name === "--json") args.json = value ?? ".bench/results.json";
    else throw new Error(`unknown option ${a} (see bench/main.ts)`);
  }
  if (!(Number.isInteger(args.rounds) && args.rounds >= 1)) throw new Error("--rounds must be a whole number from 1 up");
  if (!(args.timeMs > 0)) throw new Error("--time must be a positive number of milliseconds");
  return args;
}

function summary(results: readonly CaseResult[]): { met: string[]; missed: string[]; slowerThanEs: string[] } {
  const met: string[] = [];
  const missed: string[] = [];
  const slowerThanEs: string[] = [];
  for (const r of results) {
    const id = `${r.area} ${r.name}`;
    for (const t of r.targets) (t.met ? met : missed).push(`${id} (${t.label}: ${t.ratio?.toFixed(2)} vs max ${t.max.toFixed(2)})`);
    if (r.ratio.es !== undefined && r.ratio.es > 1) slowerThanEs.push(`${id} (ours/es ${r.ratio.es.toFixed(2)})`);
  }
  return { met, missed, slowerThanEs };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const started = Date.now();
  let cases: Case[] = caseBuilders.flatMap((build) => build());
  if (args.filters.length > 0) cases = cases.filter((c) => args.filters.some((f) => `${c.area} ${c.name}`.includes(f)));
  if (cases.length === 0) throw new Error("no case matches the filter");
  const load = loadavg().map((x) => x.toFixed(2)).join(" ");
  console.log(
    `${cases.length} cases, outputs checked equal; ${args.rounds} interleaved rounds of ${args.timeMs} ms per measurement; ` +
      `node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model.trim() ?? "?"}), load ${load}` +
      (protobufTsReason !== undefined ? `\n@protobuf-ts/runtime column left out: ${protobufTsReason}` : ""),
  );
  const results = await runCases(cases, {
    rounds: args.rounds,
    timeMs: args.timeMs,
    progress: (round, rounds) => process.stderr.write(`  round ${round}/${rounds} done (${((Date.now() - started) / 1000).toFixed(0)} s)\n`),
  });
  console.log();
  console.log("Time per operation: the mean over each measurement (garbage collection included), median over the rounds.");
  console.log("Ratios are time ours/other (below 1 is faster), the median of per-round ratios; the speed-up over");
  console.log("@bufbuild/protobuf is in parentheses. Floors do less than a codec: they bound what any JavaScript code can reach.\n");
  console.log(formatTable(results));
  const s = summary(results);
  console.log(`\nTargets met: ${s.met.length}; missed: ${s.missed.length}${s.missed.map((m) => `\n  missed: ${m}`).join("")}`);
  console.log(`Slower than @bufbuild/protobuf: ${s.slowerThanEs.length === 0 ? "none" : s.slowerThanEs.map((m) => `\n  ${m}`).join("")}`);
  console.log(`Finished in ${((Date.now() - started) / 1000).toFixed(0)} s (load ${loadavg().map((x) => x.toFixed(2)).join(" ")}).`);
  if (args.json !== undefined) {
    const doc = {
      meta: {
        date: new Date().toISOString(),
        node: process.version,
        cpus: availableParallelism(),
        cpuModel: cpus()[0]?.model.trim(),
        loadAverageAtStart: load,
        rounds: args.rounds,
        timeMs: args.timeMs,
        filters: args.filters,
        protobufTs: protobufTsReason ?? "generated",
        units: "ns per operation; ratio = time ours / other, median of per-round ratios",
      },
      summary: s,
      cases: results,
    };
    writeFileSync(args.json, JSON.stringify(doc, null, 2) + "\n");
    console.log(`Wrote ${args.json}`);
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
