import { defineConfig } from "vitest/config";

// Under CI (CI=true) the results are also written as JSON, so that .ci/run can end on one plain
// "N passed, N failed" line for everything it ran.
const ci = process.env["CI"] === "true";

/**
 * The test files that run each in a fresh process of its own (the project "isolated" below): those that read
 * the process's CPU time (test/cost.ts) or its heap figures (process.memoryUsage), so that what they measure is
 * theirs alone, with no module graph, cache or garbage that earlier files left in the process; and
 * real-payloads.test.ts, whose payloads of up to 18 MB a shared process would keep for the files after it. Every other
 * file runs in a shared process (project "shared"). A file that stubs a global or a module restores it
 * (vi.unstubAllGlobals, a saved globalThis.fetch, mockRestore); one that cannot belongs here.
 */
export const isolatedFiles = [
  "test/hostile/linear.test.ts",
  "test/hostile/json-text-linear.test.ts",
  "test/hostile/mask-linear.test.ts",
  "test/hostile/registry-linear.test.ts",
  "test/hostile/patch-linear.test.ts",
  "test/hostile/http-linear.test.ts",
  "test/hostile/memory-time.test.ts",
  "test/hostile/memory.test.ts",
  "test/hostile/projection-work.test.ts",
  "test/hostile/json-text.prop.ts",
  "test/hostile/real-payloads.test.ts",
  "test/json-schema.test.ts",
];

const include = ["test/**/*.test.ts", "test/**/*.prop.ts"];

// Vite's module runner reads every imported binding through a getter, which makes hot paths slower under vitest
// than in a bundle. src/ carries no workaround for it: the timing tests of test/hostile compare the code with
// itself at two sizes (a constant cost per call cancels), and `npm run bench` times esbuild bundles.
export default defineConfig({
  test: {
    // Test files in child processes (not worker threads): the timing tests read process.cpuUsage()
    // (test/cost.ts), which with worker threads would count the files running beside them. A process runs one
    // file at a time.
    pool: "forks",
    // Two files at once on a 2-core machine (vitest's default there is one, as it keeps a core for itself): the
    // suite is CPU-bound, the runner's own share small, and no test reads wall time, so a file beside it cannot
    // fail one.
    maxWorkers: 2,
    // The ratio tests of test/hostile collect garbage before each side they time, so that what earlier tests
    // left on the heap is not charged to one side. One thread for V8's collector: on Node before 23.9 the timing
    // tests read the process's CPU time (test/cost.ts), which then holds no helper threads' share; and two
    // workers' collector threads no longer contend for the two cores (the whole run: 306 s -> 254 s, quiet).
    execArgv: ["--expose-gc", "--single-threaded-gc"],
    // A guard against a hang, not a speed bound. Every test runs in under a third of its timeout beside two busy
    // loops: those under this default take at most 10 s there (ajv over deeply nested values, the budget
    // default's law, PATCH's AIP-161 law: 8-10 s beside other work, 3 s alone); slower ones set their own.
    testTimeout: 60_000,
    ...(ci ? { reporters: ["default", "json"], outputFile: { json: ".ci-results/unit.json" } } : {}),
    // Two projects, which vitest runs in one pool of the two workers above. "isolated": the files of
    // isolatedFiles, each in a fresh process (vitest's default). "shared": the rest, without per-file isolation:
    // each worker process imports src/, @bufbuild/protobuf and the test helpers once and runs file after file in
    // it, instead of importing them afresh for each of 87 files (24 of them in one worker: 113 s of CPU time
    // isolated, 57 s shared). The files do not depend on their order or on what ran before them: checked with a
    // shuffled run in one worker (`npx vitest run --project shared --sequence.shuffle.files --sequence.seed=7
    // --maxWorkers=1`). vitest starts the isolated project first (projects in the order of their names; within
    // one, the files that took longest last time first), so that the long timing files are not left for the
    // end. "shared" leaves out the isolated files by negated patterns, not by an `exclude` of its own, which
    // would replace the command line's --exclude (scripts/runtimes.mjs passes some).
    projects: [
      { extends: true, test: { name: "isolated", include: isolatedFiles, isolate: true } },
      {
        extends: true,
        test: { name: "shared", include: [...include, ...isolatedFiles.map((f) => `!${f}`)], isolate: false },
      },
    ],
  },
});
