// How the timing tests measure, in one place: CPU time, not wall time, and the least of interleaved repeats.
//
// - CPU time: process.cpuUsage() (user + system, every thread of this process, the collector's included;
//   process.threadCpuUsage() where Node has it).
//   Other work on the machine takes the CPU away from a test but adds nothing to what the test's process
//   spends, so a busy machine slows a run without changing its figure. vitest.config.ts runs each test file
//   in a process of its own (pool "forks"), so the figure is that file's alone; with worker threads it would
//   include the files beside it.
// - The least of several interleaved rounds for each side (small, large, reference): a sample can only be
//   made larger by what happens around it (a collection of an earlier test's garbage, a cache flushed by a
//   switch to another process), so the least is the best estimate of the work, and interleaving gives both
//   sides the same conditions.
// - A ratio against one bound, linearBound below: the geometric middle of what a linear and a quadratic walk
//   read, so that neither can land on the wrong side of it by a factor less than the square root of the growth
//   (3.2 for 10x the input). A tighter bound (1.5 times linear) failed a linear walk in CI: a CPU-time figure
//   still grows with what load does to the caches, only less than a wall-clock one.

/** This thread's CPU time where Node has it (23.9 and later), else the process's. */
const usage: (since?: NodeJS.CpuUsage) => NodeJS.CpuUsage =
  (process as { threadCpuUsage?: typeof process.cpuUsage }).threadCpuUsage?.bind(process) ??
  process.cpuUsage.bind(process);

/**
 * CPU time (user + system) spent in `fn`, in milliseconds: the test's thread where Node can tell (23.9 and
 * later), else the whole process, the collector's helper threads included.
 */
export function cpuMs(fn: () => void): number {
  const start = usage();
  fn();
  const used = usage(start);
  return (used.user + used.system) / 1000;
}

/**
 * The least of each figure over up to `rounds` rounds, where `round` measures every side once (interleaved, so
 * that all sides meet the same conditions); stops early once `enough(least)` holds for the least so far.
 *
 * @example
 * const [small, large] = leastOf(() => [cpuMs(() => op(a)), cpuMs(() => op(b))], 8, ([s, l]) => l! / s! < 2);
 */
export function leastOf(
  round: () => readonly number[],
  rounds: number,
  enough: (least: number[]) => boolean,
): number[] {
  let least: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const figures = round();
    least = figures.map((f, i) => Math.min(f, least[i] ?? Infinity));
    if (enough(least)) break;
  }
  return least;
}

/** A full collection where the runner exposes it (vitest.config.ts passes --expose-gc). */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/**
 * The most a cost may grow for `k` times the input: k^1.5, the geometric middle of linear (k) and quadratic
 * (k²), so that a linear walk passes and a quadratic one fails, each by a factor of √k. `reference` is what a
 * linear reference (a deep copy, JSON.parse) read on the same inputs, when the runtime makes even that grow
 * faster than k (the collector, the caches); the bound scales with it.
 *
 * @example
 * expect(large / small).toBeLessThan(linearBound(10, copyLarge / copySmall));
 */
export function linearBound(k: number, reference = k): number {
  return Math.sqrt(k) * Math.max(k, reference);
}

/**
 * CPU time per code unit of running `op` on `text` `times` times in a row, keeping every result alive: running
 * on a quarter-size text four times keeps as much alive as once on the full one, so the garbage collector does
 * comparable work on both sides of a ratio, and the ratio shows the code's own growth.
 *
 * @example
 * const ratio = perUnit(parse, large, 1) / perUnit(parse, small, 4); // about 1 for a linear parser
 */
export function perUnit(op: (text: string) => unknown, text: string, times: number): number {
  const results: unknown[] = [];
  collectGarbage();
  const elapsed = cpuMs(() => {
    for (let k = 0; k < times; k++) results.push(op(text));
  });
  if (results.length !== times) throw new Error(`perUnit: ${results.length} results for ${times} runs`);
  return elapsed / (text.length * times);
}
