#!/usr/bin/env node
// Runs the official Protocol Buffers conformance suite against conformance/testee (`npm run conformance`,
// which builds first). Required and recommended tests, proto2, proto3 and editions up to 2023; the tests
// expected to fail are listed, each with a `# reason`, in conformance/failing_tests.txt.
//
// Exits non-zero when the runner reports a test that failed unexpectedly, or a listed test that now passes
// (remove it from the list). Extra arguments go to the runner, e.g. `--test <name>` or `--debug`.

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { compileProtos } from "./compile-protos.mjs";
import { runnerCommand } from "./sysroot.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const testee = join(here, "testee"); // the runner wants an absolute path; it does not search PATH
const bundle = join(here, ".build", "testee.js");
const failureList = join(here, "failing_tests.txt");
const outputDir = join(here, ".build", "output"); // without --output_dir the runner writes into /

async function main() {
  compileProtos();
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run 'npm run conformance', which builds it`);
  const { command, args } = runnerCommand();
  rmSync(outputDir, { recursive: true, force: true }); // what is there after the run is this run's
  mkdirSync(outputDir, { recursive: true });

  const runnerArgs = [
    "--enforce_recommended",
    "--maximum_edition",
    "2023",
    "--failure_list",
    failureList,
    "--output_dir",
    outputDir,
    ...process.argv.slice(2),
    testee,
  ];
  const started = performance.now();
  const { status, summaries } = await runRunner(command, [...args, ...runnerArgs]);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);

  // The runner prints a summary after each suite (binary and JSON, then text format), each after pages of
  // per-test detail; repeat them last so the verdict is the last thing on the screen.
  console.log(`\nconformance: finished in ${seconds}s; runner summaries:`);
  for (const line of summaries) console.log(line);
  const failed = status !== 0 || summaries.length === 0 || summaries.some((line) => line.includes("FAILED"));
  if (failed) {
    console.log(
      `conformance: FAILED (runner exit status ${status}). The runner lists the unexpected failures, and the ` +
        `listed tests that now pass, above and in failing_tests.txt and succeeding_tests.txt in ${outputDir}.`,
    );
  }
  return failed ? 1 : 0;
}

/** Runs the runner, passing its output through, and collects its "CONFORMANCE SUITE ..." summary lines. */
function runRunner(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    const summaries = [];
    const scan = (out) => {
      let pending = "";
      return (chunk) => {
        out.write(chunk);
        const lines = (pending + chunk.toString("utf8")).split("\n");
        pending = lines.pop() ?? "";
        for (const line of lines) if (line.startsWith("CONFORMANCE SUITE")) summaries.push(line);
      };
    };
    child.stdout.on("data", scan(process.stdout));
    child.stderr.on("data", scan(process.stderr));
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ status: code ?? `signal ${signal}`, summaries }));
  });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    console.error(`conformance: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  },
);
