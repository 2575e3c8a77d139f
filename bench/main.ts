/**
 * `npm run bench`: builds every case (checking that all implementations give the same output), times them in
 * interleaved rounds, and prints one table; with `--json[=file]` also writes the results as JSON. Run through
 * bench/run.mjs, which bundles this file with esbuild first.
 *
 * Each area (one builder in bench/cases/index.ts: Timestamp, Struct, whole messages, Any, ...) runs in
 * `--processes` fresh child processes one after another, its cases interleaved in each as before, and the
 * rounds of those processes are pooled. A process settles into a steady state of its own: in one process
 * @bufbuild/protobuf's toJson of TestAllTypesProto3 ran at about 300 µs, in the next at about 700 µs, with
 * every round of a process alike; a median over rounds of one process reported that process, not the library.
 * Areas do not share a process, so no area's types shape the code another area times. `--one-process` runs
 * everything in this process instead.
 *
 * Options: --rounds=N per process (default 3), --processes=N per area (default 3), --time=MS per measurement
 * (default 40), --filter=TEXT (cases whose "area op/fixture" contains TEXT; repeatable, any matches),
 * --json[=file] (default .bench/results.json), --one-process, --force-gc (a full garbage collection before
 * each measurement; see harness.ts).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { reason as protobufTsReason } from "wkt-json-bench:protobuf-ts";
import { caseBuilders } from "./cases/index.js";
import { formatTable, poolResults, runCases, type Case, type CaseResult } from "./harness.js";

interface Args {
  rounds: number;
  timeMs: number;
  filters: string[];
  json: string | undefined;
  oneProcess: boolean;
  processes: number;
  forceGc: boolean;
  /** Child mode: run only caseBuilders[area] and write the results to `results`. */
  area: number | undefined;
  results: string | undefined;
}

function parseArgs(argv: readonly string[]): Args {
  const args: Args = {
    rounds: 3,
    timeMs: 40,
    filters: [],
    json: undefined,
    oneProcess: false,
    processes: 3,
    forceGc: false,
    area: undefined,
    results: undefined,
  };
  for (const a of argv) {
    const [name, value] = a.split(/=(.*)/s, 2) as [string, string | undefined];
    if (name === "--rounds") args.rounds = Number(value);
    else if (name === "--time") args.timeMs = Number(value);
    else if (name === "--filter" && value !== undefined) args.filters.push(value);
    else if (name === "--json") args.json = value ?? ".bench/results.json";
    else if (name === "--one-process") args.oneProcess = true;
    else if (name === "--force-gc") args.forceGc = true;
    else if (name === "--processes") args.processes = Number(value);
    else if (name === "--area") args.area = Number(value);
    else if (name === "--results") args.results = value;
    else throw new Error(`unknown option ${a} (see bench/main.ts)`);
  }
  if (!(Number.isInteger(args.rounds) && args.rounds >= 1))
    throw new Error("--rounds must be a whole number from 1 up");
  if (!(Number.isInteger(args.processes) && args.processes >= 1))
    throw new Error("--processes must be a whole number from 1 up");
  if (!(args.timeMs > 0)) throw new Error("--time must be a positive number of milliseconds");
  return args;
}

function summary(results: readonly CaseResult[]): { met: string[]; missed: string[]; slowerThanEs: string[] } {
  const met: string[] = [];
  const missed: string[] = [];
  const slowerThanEs: string[] = [];
  for (const r of results) {
    const id = `${r.area} ${r.name}`;
    for (const t of r.targets)
      (t.met ? met : missed).push(`${id} (${t.label}: ${t.ratio?.toFixed(2)} vs max ${t.max.toFixed(2)})`);
    if (r.ratio.es !== undefined && r.ratio.es > 1) slowerThanEs.push(`${id} (ours/es ${r.ratio.es.toFixed(2)})`);
  }
  return { met, missed, slowerThanEs };
}

function casesOf(builders: readonly (() => Case[])[], filters: readonly string[]): Case[] {
  const cases = builders.flatMap((build) => build());
  return filters.length === 0 ? cases : cases.filter((c) => filters.some((f) => `${c.area} ${c.name}`.includes(f)));
}

/** Child mode: one area's cases, timed here; the results go to a file for the parent. */
async function runArea(args: Args, started: number): Promise<void> {
  const build = caseBuilders[args.area!];
  if (build === undefined || args.results === undefined) throw new Error("--area needs a valid index and --results");
  const cases = casesOf([build], args.filters);
  const results = cases.length === 0 ? [] : await runCases(cases, runOptions(args, started, cases[0]!.area));
  writeFileSync(args.results, JSON.stringify(results));
}

function runOptions(args: Args, started: number, label: string): Parameters<typeof runCases>[1] {
  return {
    rounds: args.rounds,
    timeMs: args.timeMs,
    forceGc: args.forceGc,
    progress: (round, rounds) =>
      process.stderr.write(
        `  ${label}: round ${round}/${rounds} done (${((Date.now() - started) / 1000).toFixed(0)} s)\n`,
      ),
  };
}

/**
 * Runs every area in `args.processes` child processes of its own, one after another, in table order, and pools
 * the rounds of each area's processes (see {@link poolResults}).
 */
function runAreasInChildren(args: Args): CaseResult[] {
  const dir = mkdtempSync(join(tmpdir(), "wkt-json-bench-"));
  try {
    const results: CaseResult[] = [];
    const passed = process.argv.slice(2).filter((a) => !a.startsWith("--json") && !a.startsWith("--processes"));
    for (let i = 0; i < caseBuilders.length; i++) {
      const runs: CaseResult[][] = [];
      for (let p = 0; p < args.processes; p++) {
        const file = join(dir, `area-${i}-${p}.json`);
        const r = spawnSync(
          process.execPath,
          [...process.execArgv, process.argv[1]!, ...passed, `--area=${i}`, `--results=${file}`],
          {
            stdio: "inherit",
          },
        );
        if (r.status !== 0) throw new Error(`the benchmark process of area ${i} failed (status ${r.status})`);
        runs.push(JSON.parse(readFileSync(file, "utf8")) as CaseResult[]);
      }
      results.push(...poolResults(runs));
    }
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const started = Date.now();
  if (args.area !== undefined) return runArea(args, started);
  const load = loadavg()
    .map((x) => x.toFixed(2))
    .join(" ");
  const where = args.oneProcess
    ? "all in this process"
    : `each area in ${args.processes} fresh processes, rounds pooled`;
  console.log(
    `${args.rounds} interleaved rounds of ${args.timeMs} ms per measurement, ${where}; outputs checked equal first; ` +
      `node ${process.version}, ${availableParallelism()} CPUs (${cpus()[0]?.model.trim() ?? "?"}), load ${load}` +
      (protobufTsReason !== undefined ? `\n@protobuf-ts/runtime column left out: ${protobufTsReason}` : ""),
  );
  let results: CaseResult[];
  if (args.oneProcess) {
    const cases = casesOf(caseBuilders, args.filters);
    if (cases.length === 0) throw new Error("no case matches the filter");
    results = await runCases(cases, runOptions(args, started, "all"));
  } else {
    results = runAreasInChildren(args);
    if (results.length === 0) throw new Error("no case matches the filter");
  }
  console.log();
  console.log(
    "Time per operation: the mean over each measurement (garbage collection included), median over the rounds.",
  );
  console.log("Ratios are time ours/other (below 1 is faster), the median of per-round ratios; the speed-up over");
  console.log(
    "@bufbuild/protobuf is in parentheses. Floors do less than a codec: they bound what any JavaScript code can reach.\n",
  );
  console.log(formatTable(results));
  const s = summary(results);
  console.log(
    `\nTargets met: ${s.met.length}; missed: ${s.missed.length}${s.missed.map((m) => `\n  missed: ${m}`).join("")}`,
  );
  console.log(
    `Slower than @bufbuild/protobuf: ${s.slowerThanEs.length === 0 ? "none" : s.slowerThanEs.map((m) => `\n  ${m}`).join("")}`,
  );
  console.log(
    `Finished in ${((Date.now() - started) / 1000).toFixed(0)} s (load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(" ")}).`,
  );
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
        processes: args.oneProcess ? "one" : `${args.processes} per area, rounds pooled`,
        forcedGc: args.forceGc,
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
