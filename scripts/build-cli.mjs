#!/usr/bin/env node
// Builds dist/cli.js, the `wkt-json` bin (`npm run build:cli`: tsup with tsup.cli.config.ts), unless it is newer
// than every file under cli/ and src/ and than tsup.cli.config.ts. `npm test` runs it first (pretest), as do
// the test files that start the bin (test/fixtures/cli-run.ts, when run alone) and scripts/runtimes.mjs: a
// build takes 2-3 s, the check a few milliseconds.

import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const cli = join(root, "dist", "cli.js");

/** The newest modification time of the files under `dir` (recursively). */
function newestMtime(dir) {
  let newest = 0;
  for (const name of readdirSync(dir, { recursive: true })) {
    const stat = statSync(join(dir, String(name)));
    if (stat.isFile()) newest = Math.max(newest, stat.mtimeMs);
  }
  return newest;
}

/** Whether dist/cli.js is missing or older than its sources. */
export function cliIsStale() {
  let built = 0;
  try {
    built = statSync(cli).mtimeMs;
  } catch {
    return true; // missing
  }
  const sources = Math.max(
    newestMtime(join(root, "cli")),
    newestMtime(join(root, "src")),
    statSync(join(root, "tsup.cli.config.ts")).mtimeMs,
  );
  return built <= sources;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1] && cliIsStale()) {
  const r = spawnSync("npm", ["run", "--silent", "build:cli"], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
  if (r.error !== undefined) console.error(`build-cli: ${r.error.message}`);
  process.exitCode = r.error !== undefined ? 1 : (r.status ?? 1);
}
