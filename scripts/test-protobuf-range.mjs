#!/usr/bin/env node
// The lowest supported @bufbuild/protobuf under the test suite. package.json has it twice: as a
// peerDependency, the range consumers may use (its lower bound is the lowest version that passes our tests),
// and as a devDependency pinned at the newest version, which `npm ci` installs and `npm test` tests. This
// script tests the other end: in a temporary copy of the working tree (the files git tracks or would track,
// no node_modules), `npm ci`, then `npm install --no-save @bufbuild/protobuf@<lowest>`, then the sources
// typecheck against it (so the published .d.ts finds every type it names) and `npm test` passes.
//
//   node scripts/test-protobuf-range.mjs                  the lower bound of the peer range
//   node scripts/test-protobuf-range.mjs --version 2.16.0 any other version (to try one, or to bisect)
//   ... --keep                                            leave the temporary copy for a look
//
// When the lower bound is the version installed for development, `npm test` has already tested it and the
// script says so and stops (--version of that version runs it anyway). Under CI=true the copy's vitest
// report is kept as .ci-results/unit-protobuf-<version>.json.

import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { run } from "./run.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pkgName = "@bufbuild/protobuf";

function log(message) {
  console.log(`protobuf-range: ${message}`);
}

function step(label, fn) {
  const started = performance.now();
  const result = fn();
  log(`ok   ${label} (${((performance.now() - started) / 1000).toFixed(1)}s)`);
  return result;
}

/** The lower bound of a range such as "^2.17.0" or ">=2.17.0 <3.0.0"; the ranges package.json may hold. */
export function lowerBound(range) {
  const m = /^\s*(?:\^|>=\s*)?(\d+\.\d+\.\d+)(?:\s+<\s*(\d+)(?:\.0\.0)?)?\s*$/.exec(range);
  if (m === null) throw new Error(`cannot read a lower bound from the ${pkgName} peer range ${JSON.stringify(range)}`);
  return m[1];
}

function compare(a, b) {
  const x = a.split(".").map(Number);
  const y = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

function main() {
  const argv = process.argv.slice(2);
  const keep = argv.includes("--keep");
  const versionAt = argv.indexOf("--version");
  const asked = versionAt === -1 ? undefined : argv[versionAt + 1];
  if (versionAt !== -1 && (asked === undefined || !/^\d+\.\d+\.\d+$/.test(asked)))
    throw new Error("--version takes an exact version");

  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const peer = pkg.peerDependencies?.[pkgName];
  const dev = pkg.devDependencies?.[pkgName];
  if (peer === undefined || dev === undefined)
    throw new Error(`package.json needs ${pkgName} in peerDependencies and devDependencies`);
  if (pkg.dependencies?.[pkgName] !== undefined)
    throw new Error(`${pkgName} is in dependencies: it belongs in peerDependencies`);
  const lowest = lowerBound(peer);
  if (!/^\d+\.\d+\.\d+$/.test(dev))
    throw new Error(`the devDependency ${pkgName} should be pinned exactly, is ${JSON.stringify(dev)}`);
  if (dev.split(".")[0] !== lowest.split(".")[0] || compare(dev, lowest) < 0) {
    throw new Error(`the devDependency ${pkgName}@${dev} is outside the peer range ${peer}`);
  }
  const installedPath = join(root, "node_modules", pkgName, "package.json");
  const installed = existsSync(installedPath) ? JSON.parse(readFileSync(installedPath, "utf8")).version : undefined;
  log(
    `peer range ${peer}: lowest ${lowest}; newest (devDependency, installed) ${dev}${installed !== dev ? `, but node_modules holds ${installed}` : ""}`,
  );

  const version = asked ?? lowest;
  if (asked === undefined && version === installed) {
    log(
      `the lowest supported version is the one installed for development: \`npm test\` tests it; nothing more to run`,
    );
    return 0;
  }

  const work = mkdtempSync(join(tmpdir(), "wkt-json-protobuf-"));
  const copy = join(work, "repo");
  try {
    step("copy the working tree (git ls-files)", () => {
      const files = run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], root)
        .split("\0")
        .filter((f) => f !== "");
      for (const file of files) {
        if (!existsSync(join(root, file))) continue; // deleted in the working tree
        mkdirSync(dirname(join(copy, file)), { recursive: true });
        copyFileSync(join(root, file), join(copy, file));
      }
    });
    step("npm ci", () => run("npm", ["ci", "--no-audit", "--no-fund", "--prefer-offline"], copy));
    step(`npm install --no-save ${pkgName}@${version}`, () =>
      run(
        "npm",
        ["install", "--no-save", "--no-audit", "--no-fund", "--prefer-offline", `${pkgName}@${version}`],
        copy,
      ),
    );
    const got = JSON.parse(readFileSync(join(copy, "node_modules", pkgName, "package.json"), "utf8")).version;
    if (got !== version) throw new Error(`asked for ${pkgName}@${version}, node_modules holds ${got}`);
    step(`the sources typecheck against ${pkgName}@${version}`, () =>
      run(
        process.execPath,
        [join(copy, "node_modules", "typescript", "bin", "tsc"), "--noEmit", "-p", "tsconfig.src.json"],
        copy,
      ),
    );
    step(`npm test with ${pkgName}@${version}`, () => {
      if (spawnSync("npm", ["test"], { cwd: copy, stdio: "inherit" }).status !== 0) {
        throw new Error(`npm test failed with ${pkgName}@${version} (its output is above)`);
      }
    });
  } finally {
    const report = join(copy, ".ci-results", "unit.json");
    if (process.env["CI"] === "true" && existsSync(report)) {
      mkdirSync(join(root, ".ci-results"), { recursive: true });
      copyFileSync(report, join(root, ".ci-results", `unit-protobuf-${version}.json`));
    }
    if (keep) log(`the copy is kept at ${copy}`);
    else rmSync(work, { recursive: true, force: true });
  }
  log(`passed with ${pkgName}@${version}`);
  return 0;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    process.exitCode = main();
  } catch (e) {
    console.error(`protobuf-range: FAILED: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  }
}
