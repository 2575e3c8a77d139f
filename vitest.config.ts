import { defineConfig } from "vitest/config";

// Under CI (CI=true) the results are also written as JSON, so that .ci/run can end on one plain
// "N passed, N failed" line for everything it ran.
const ci = process.env["CI"] === "true";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts", "test/**/*.prop.ts"],
    // The ratio tests of test/hostile collect garbage before each side they time, so that what earlier tests
    // left on the heap is not charged to one side.
    execArgv: ["--expose-gc"],
    ...(ci ? { reporters: ["default", "json"], outputFile: { json: ".ci-results/unit.json" } } : {}),
  },
});
