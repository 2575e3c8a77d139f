// Prints the one closing line of a CI run: every unit, property, browser and conformance test it ran.
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
for (const file of [".ci-results/unit.json", ".ci-results/browser.json"]) {
  if (!existsSync(file)) continue;
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
