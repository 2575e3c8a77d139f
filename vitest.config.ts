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
    // The ratio tests of test/hostile collect garbage before each side they time, so that what earlier tests
    // left on the heap is not charged to one side.
    execArgv: ["--expose-gc"],
    // A guard against a hang, not a speed bound: the slowest tests (ajv over deeply nested values, the text
    // writer's wide-message laws) take 2-4 s on a quiet 2-core machine and three times that beside other work,
    // which the 5 s default failed.
    testTimeout: 30_000,
    ...(ci ? { reporters: ["default", "json"], outputFile: { json: ".ci-results/unit.json" } } : {}),
  },
});
