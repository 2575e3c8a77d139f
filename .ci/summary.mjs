// Prints the one closing line of a CI run: every unit, property, browser and conformance test it ran.
import { existsSync, readdirSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
// unit.json is npm test's; unit-<runtime>.json and unit-protobuf-<version>.json the same suite under another
// runtime or @bufbuild/protobuf (scripts/runtimes.mjs, scripts/test-protobuf-range.mjs).
const reports = existsSync(".ci-results")
  ? readdirSync(".ci-results").filter((f) => /^(unit|browser)(-.*)?\.json$/.test(f))
  : [];
for (const file of reports.sort().map((f) => `.ci-results/${f}`)) {
  const r = JSON.parse(readFileSync(file, "utf8"));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
}
if (existsSync(".ci-results/conformance.log")) {
  // conformance/run.mjs repeats the runner's summaries last, after "runner summaries:"; count those once.
  const log = readFileSync(".ci-results/conformance.log", "utf8");
  const tail = log.slice(log.lastIndexOf("runner summaries:"));
  for (const m of tail.matchAll(
    /^CONFORMANCE SUITE \w+: (\d+) successes, \d+ skipped, \d+ expected failures, (\d+) unexpected failures/gm,
  )) {
    passed += Number(m[1]);
    failed += Number(m[2]);
  }
}
console.log(`tests: ${passed} passed, ${failed} failed`);
