/**
 * The benchmark harness: cases named `op/fixture`, each timed for every implementation in interleaved rounds
 * within one process, with mitata's `measure` as the timer (see bench/README.md for why mitata).
 *
 * A case's implementations each handle the same batch of inputs per call and leave their result in
 * {@link sink}, so no engine can drop the work. Their outputs were compared before timing (the case files do
 * that when they build the case): a column whose output differs is not timed, and for `@bufbuild/protobuf` a
 * difference stops the run.
 */
import { measure } from "mitata";

/** Where every implementation leaves its last result. */
export const sink: { v: unknown } = { v: undefined };

/** Column keys, in table order. */
export const columns = ["ours", "es", "ts", "floor"] as const;
export type Column = (typeof columns)[number];

export const columnTitles: Record<Column, string> = {
  ours: "wkt-json",
  es: "@bufbuild/protobuf",
  ts: "@protobuf-ts/runtime",
  floor: "floor",
};

/** A speed target: ours / `vs` (a time ratio) must be at most `max`. */
export interface Target {
  readonly vs: "es" | "ts" | "floor";
  readonly max: number;
  /** As the issue states it: "≥ 5x", "≤ 1.6x JSON.parse", "ahead of ts". */
  readonly label: string;
}

export interface Case {
  /** Table section: "Timestamp", "Struct", ... */
  readonly area: string;
  /** `op/fixture`, such as `parse/frac3`. */
  readonly name: string;
  /** Operations one call performs (the batch size); times are reported per operation. */
  readonly ops: number;
  readonly ours: () => void;
  readonly es?: () => void;
  readonly ts?: () => void;
  /** Why there is no protobuf-ts column (no equivalent, different output, not generated). */
  readonly tsNote?: string;
  readonly floor?: { readonly name: string; readonly run: () => void };
  readonly targets?: readonly Target[];
}

export interface RunOptions {
  rounds: number;
  /** Least time per measurement, in milliseconds. */
  timeMs: number;
  /** Called after each round. */
  progress?: (round: number, rounds: number) => void;
  /**
   * A full garbage collection before each measurement (mitata's default when `gc()` is exposed). Off by
   * default: it threw @bufbuild/protobuf's Any path off its steady state for tens of milliseconds (a 1 KB Struct
   * in an Any: 0.8-2 ms a call after `gc()`, 75-85 µs in a steady loop), which no application sees.
   */
  forceGc?: boolean;
}

export interface CaseResult {
  readonly area: string;
  readonly name: string;
  readonly ops: number;
  readonly floorName: string | undefined;
  readonly tsNote: string | undefined;
  /** Median over rounds of the per-round mean, in ns per operation. */
  readonly ns: Partial<Record<Column, number>>;
  /** Median over rounds of ours / other, both measured in the same round. */
  readonly ratio: Partial<Record<Exclude<Column, "ours">, number>>;
  readonly targets: readonly (Target & { readonly ratio: number | undefined; readonly met: boolean })[];
  /** Per-round ns per operation, for whoever wants to look at the spread. */
  readonly rounds: Partial<Record<Column, number[]>>;
}

/** Least work in one timed sample, in ns. */
const sampleNs = 1e6;

function median(xs: readonly number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** The implementations of a case, as [column, function] pairs. */
function implsOf(c: Case): [Column, () => void][] {
  const out: [Column, () => void][] = [["ours", c.ours]];
  if (c.es !== undefined) out.push(["es", c.es]);
  if (c.ts !== undefined) out.push(["ts", c.ts]);
  if (c.floor !== undefined) out.push(["floor", c.floor.run]);
  return out;
}

/**
 * Times every case: one warm-up round, then `rounds` rounds, each measuring every implementation of every case
 * once, in an order rotated each round so that none always runs first. Load that comes and goes on a shared
 * machine then hits all columns of a case alike, and the median over rounds drops the rounds it spoiled.
 */
export async function runCases(cases: readonly Case[], options: RunOptions): Promise<CaseResult[]> {
  const samples = cases.map(() => new Map<Column, number[]>());
  /** Calls per sample, by case and column, set from the warm-up round. */
  const calls = cases.map(() => new Map<Column, number>());
  for (let round = 0; round <= options.rounds; round++) {
    const warmup = round === 0;
    for (let k = 0; k < cases.length; k++) {
      const c = cases[k]!;
      const impls = implsOf(c);
      for (let j = 0; j < impls.length; j++) {
        const [column, fn] = impls[(j + round) % impls.length]!;
        const batch = calls[k]!.get(column) ?? 1;
        const stats = await measure(fn, {
          ...(options.forceGc === true ? {} : { gc: false }),
          min_cpu_time: (warmup ? Math.min(20, options.timeMs) : options.timeMs) * 1e6,
          min_samples: warmup ? 4 : 12,
          // A sample of at least about a millisecond of calls: the cost of the garbage a call leaves (young
          // generation collections every few hundred calls) is then spread over the samples instead of landing
          // in a few outliers that a median would drop.
          batch_threshold: batch > 1 ? Infinity : 0,
          batch_samples: batch,
          batch_unroll: 1,
        });
        if (warmup) {
          calls[k]!.set(column, Math.max(1, Math.min(4096, Math.round(sampleNs / stats.avg))));
          continue;
        }
        // The mean of the samples (mitata drops the two lowest and highest): what a call costs over time.
        const perOp = stats.avg / c.ops;
        const list = samples[k]!.get(column);
        if (list === undefined) samples[k]!.set(column, [perOp]);
        else list.push(perOp);
      }
    }
    if (!warmup) options.progress?.(round, options.rounds);
  }
  return cases.map((c, k) =>
    resultOf(
      { area: c.area, name: c.name, ops: c.ops, floorName: c.floor?.name, tsNote: c.tsNote, targets: c.targets ?? [] },
      samples[k]!,
    ),
  );
}

type CaseMeta = Pick<CaseResult, "area" | "name" | "ops" | "floorName" | "tsNote"> & {
  readonly targets: readonly Target[];
};

/** Medians and per-round ratios from the per-round times of each column (rounds aligned across columns). */
function resultOf(meta: CaseMeta, per: ReadonlyMap<Column, number[]>): CaseResult {
  const ns: Partial<Record<Column, number>> = {};
  const rounds: Partial<Record<Column, number[]>> = {};
  for (const [column, list] of per) {
    ns[column] = median(list);
    rounds[column] = list;
  }
  const ours = per.get("ours")!;
  const ratio: Partial<Record<Exclude<Column, "ours">, number>> = {};
  for (const column of ["es", "ts", "floor"] as const) {
    const other = per.get(column);
    if (other !== undefined) ratio[column] = median(ours.map((t, r) => t / other[r]!));
  }
  const targets = meta.targets.map((t) => {
    const r = ratio[t.vs];
    return { vs: t.vs, max: t.max, label: t.label, ratio: r, met: r !== undefined && r <= t.max };
  });
  return {
    area: meta.area,
    name: meta.name,
    ops: meta.ops,
    floorName: meta.floorName,
    tsNote: meta.tsNote,
    ns,
    ratio,
    targets,
    rounds,
  };
}

/**
 * One result per case from the results of several processes (same cases, same order): the rounds of all of
 * them pooled, each round's ratio still taken between measurements of one process seconds apart.
 */
export function poolResults(runs: readonly (readonly CaseResult[])[]): CaseResult[] {
  const first = runs[0] ?? [];
  return first.map((r, k) => {
    const per = new Map<Column, number[]>();
    for (const run of runs) {
      const other = run[k];
      if (other === undefined || other.area !== r.area || other.name !== r.name)
        throw new Error(`case ${r.name} missing from a run`);
      for (const [column, list] of Object.entries(other.rounds) as [Column, number[]][])
        per.set(column, [...(per.get(column) ?? []), ...list]);
    }
    return resultOf(r, per);
  });
}

// ---------------------------------------------------------------------------------------------------------
// Output

/** 3 significant digits in a unit that keeps the number below 1000. */
export function formatNs(ns: number | undefined): string {
  if (ns === undefined) return "—";
  if (ns < 1e3) return `${ns.toPrecision(3)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toPrecision(3)} µs`;
  if (ns < 1e9) return `${(ns / 1e6).toPrecision(3)} ms`;
  return `${(ns / 1e9).toPrecision(3)} s`;
}

function formatRatio(r: number | undefined): string {
  if (r === undefined) return "—";
  return r.toFixed(2);
}

/** Speed-up of ours over the other column: 1 / ratio, as "7.1x". */
function formatSpeedup(r: number | undefined): string {
  if (r === undefined) return "";
  return `${(1 / r).toFixed(1)}x`;
}

/** One plain-text table of every result, sections by area. */
export function formatTable(results: readonly CaseResult[]): string {
  const header = [
    "case",
    "wkt-json",
    "protobuf-es",
    "protobuf-ts",
    "floor",
    "ours/es",
    "ours/ts",
    "ours/floor",
    "target",
  ];
  const rows: string[][] = [];
  let area = "";
  for (const r of results) {
    if (r.area !== area) {
      area = r.area;
      rows.push([`${area}`]);
    }
    const floor = r.ns.floor === undefined ? "—" : `${formatNs(r.ns.floor)} ${r.floorName}`;
    const target = r.targets.map((t) => `${t.met ? "met" : "MISSED"} ${t.label}`).join("; ");
    const slower = r.ratio.es !== undefined && r.ratio.es > 1 ? " SLOWER" : "";
    rows.push([
      `  ${r.name}`,
      formatNs(r.ns.ours),
      formatNs(r.ns.es),
      r.ns.ts === undefined && r.tsNote !== undefined ? `— (${r.tsNote})` : formatNs(r.ns.ts),
      floor,
      r.ratio.es === undefined ? "—" : `${formatRatio(r.ratio.es)} (${formatSpeedup(r.ratio.es)})${slower}`,
      r.ratio.ts === undefined ? "—" : `${formatRatio(r.ratio.ts)}`,
      formatRatio(r.ratio.floor),
      target,
    ]);
  }
  const widths = header.map((h, i) =>
    Math.max(h.length, ...rows.filter((row) => row.length > 1).map((row) => (row[i] ?? "").length)),
  );
  const line = (cells: string[]): string =>
    cells
      .map((cell, i) => (i === 0 || i === cells.length - 1 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join("  ")
      .trimEnd();
  const out = [line(header), line(widths.map((w) => "-".repeat(w)))];
  for (const row of rows) out.push(row.length === 1 ? row[0]! : line(row));
  return out.join("\n");
}
