import { defineConfig } from "vitest/config";

// Under CI (CI=true) the results are also written as JSON, so that .ci/run can end on one plain
// "N passed, N failed" line for everything it ran.
const ci = process.env["CI"] === "true";

// Vite's module runner reads every imported binding through a getter, which makes hot paths slower under vitest
// than in a bundle. src/ carries no workaround for it: the timing tests of test/hostile compare the code with
// itself at two sizes (a constant cost per call cancels), and `npm run bench` times esbuild bundles.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.prop.ts"],
    // Each test file in a process of its own: the timing tests read process.cpuUsage() (test/cost.ts), which with
    // worker threads would count the files running beside them.
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
  },
});
