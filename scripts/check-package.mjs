#!/usr/bin/env node
// `npm run check:package`: the package as a consumer gets it. Packs it with `npm pack`, installs the tarball
// into a temporary project (its dependencies from the registry, or npm's cache), and checks there that
//
// - `require("wkt-json")` loads dist/index.cjs and `import("wkt-json")` loads dist/index.js, with the same
//   exports, and a WktJsonError thrown by one copy is recognised by the other's isWktJsonError;
// - paths outside `exports` are refused, `wkt-json/package.json` is allowed;
// - the `wkt-json` bin runs;
// - TypeScript finds the types for ESM and CJS consumers (node16), for bundlers, and for the old node10
//   resolution (with esModuleInterop), with skipLibCheck off, so the .d.ts files themselves are checked.
//
// Then reports the size of the ESM bundle minified and gzipped (dependencies excluded): the whole library,
// and what an import of the Timestamp codec alone costs after tree-shaking. (@arethetypeswrong/cli 0.18 was
// tried first: it cannot read the tarballs npm 11 writes.)
//
// Needs `npm run build` first.

import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const built = ["dist/index.js", "dist/index.cjs", "dist/index.d.ts", "dist/index.d.cts", "dist/cli.js"];

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8" });
  if (result.error !== undefined || result.status !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} failed (${result.error?.message ?? `exit status ${result.status}`}):\n` +
        `${result.stdout ?? ""}${result.stderr ?? ""}`,
    );
  }
  return result.stdout;
}

/** Like run, for commands that may run side by side. */
function runAsync(command, args, cwd) {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, encoding: "utf8" }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(" ")} failed (${error.message}):\n${stdout}${stderr}`));
      else resolve(stdout);
    });
  });
}

async function step(name, fn) {
  const started = performance.now();
  await fn();
  console.log(`check-package: ok   ${name} (${((performance.now() - started) / 1000).toFixed(1)}s)`);
}

const cjsConsumer = `
const assert = require("node:assert/strict");
const w = require("wkt-json");
assert.match(require.resolve("wkt-json"), /[\\\\/]node_modules[\\\\/]wkt-json[\\\\/]dist[\\\\/]index\\.cjs$/);
assert.equal(w.timestampToJson(w.timestampFromJson("2015-07-06T15:33:38-07:00")), "2015-07-06T22:33:38Z");
assert.equal(typeof w.fromJsonString, "function");
assert.equal(require("wkt-json/package.json").name, "wkt-json");
assert.throws(() => require("wkt-json/dist/index.cjs"), { code: "ERR_PACKAGE_PATH_NOT_EXPORTED" });
process.stdout.write(JSON.stringify(Object.keys(w).sort()));
`;

const esmConsumer = `
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import * as w from "wkt-json";
import { durationFromJson, durationToJson } from "wkt-json";
assert.match(import.meta.resolve("wkt-json"), /\\/node_modules\\/wkt-json\\/dist\\/index\\.js$/);
assert.equal(durationToJson(durationFromJson("-0.5s")), "-0.500s");
await assert.rejects(import("wkt-json/dist/index.js"), { code: "ERR_PACKAGE_PATH_NOT_EXPORTED" });
// The same error from the CommonJS copy: instanceof fails across copies, isWktJsonError does not.
const cjs = createRequire(import.meta.url)("wkt-json");
let fromCjs;
try { cjs.timestampFromJson("2024-02-30T00:00:00Z"); } catch (e) { fromCjs = e; }
assert.equal(fromCjs instanceof w.WktJsonError, false);
assert.equal(w.isWktJsonError(fromCjs), true);
assert.equal(fromCjs.rule, "range");
process.stdout.write(JSON.stringify(Object.keys(w).sort()));
`;

// What a TypeScript consumer writes; checked under each resolution mode below.
const typesEsm = `
import { timestampFromJson, timestampToJson, isWktJsonError, type WktRule, type JsonReadOptions } from "wkt-json";
const text: string = timestampToJson(timestampFromJson("2015-07-06T15:33:38Z"));
const options: Partial<JsonReadOptions> = { ignoreUnknownFields: true };
export function ruleOf(e: unknown): WktRule | undefined { return isWktJsonError(e) ? e.rule : undefined; }
export { text, options };
`;
const typesCjs = `
import w = require("wkt-json");
const text: string = w.timestampToJson(w.timestampFromJson("2015-07-06T15:33:38Z"));
export function ruleOf(e: unknown): w.WktRule | undefined { return w.isWktJsonError(e) ? e.rule : undefined; }
export { text };
`;

function tsconfig(compilerOptions, files) {
  return JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, skipLibCheck: false, types: [], target: "es2022", lib: ["es2022"], ...compilerOptions },
    files,
  });
}

async function bundleSize(contents) {
  const result = await build({
    stdin: { contents, resolveDir: root, sourcefile: "size-entry.js", loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    external: ["@bufbuild/protobuf", "@bufbuild/protobuf/*", "long"],
    write: false,
    logLevel: "silent",
  });
  const bytes = result.outputFiles[0].contents;
  return { min: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
}

const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;

async function main() {
  const missing = built.filter((file) => !existsSync(join(root, file)));
  if (missing.length > 0) throw new Error(`missing ${missing.join(", ")}: run 'npm run build' first`);

  const work = mkdtempSync(join(tmpdir(), "wkt-json-package-"));
  try {
    let tarball;
    await step("npm pack", () => {
      const [packed] = JSON.parse(run("npm", ["pack", "--json", "--pack-destination", work], root));
      tarball = join(work, packed.filename);
      const files = new Set(packed.files.map((f) => f.path));
      for (const file of [...built, "package.json"]) {
        if (!files.has(file)) throw new Error(`the tarball lacks ${file}`);
      }
    });

    const consumer = join(work, "consumer");
    await step("install the tarball into a fresh project", () => {
      run("mkdir", ["-p", consumer]);
      writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "consumer", private: true, version: "0.0.0" }));
      run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--no-package-lock", tarball], consumer);
    });

    await step("require() and import() resolve to the CJS and ESM builds, with the same exports", () => {
      writeFileSync(join(consumer, "cjs.cjs"), cjsConsumer);
      writeFileSync(join(consumer, "esm.mjs"), esmConsumer);
      const cjsKeys = run(process.execPath, ["cjs.cjs"], consumer);
      const esmKeys = run(process.execPath, ["esm.mjs"], consumer);
      if (cjsKeys !== esmKeys) throw new Error(`CJS and ESM export different names:\n${cjsKeys}\n${esmKeys}`);
      if (JSON.parse(esmKeys).length < 20) throw new Error(`too few exports: ${esmKeys}`);
    });

    await step("the wkt-json bin runs", () => {
      const bin = join(consumer, "node_modules", ".bin", "wkt-json");
      const out = spawnSync(bin, ["canon", "google.protobuf.Timestamp"], { input: '"2015-07-06T15:33:38-07:00"', encoding: "utf8" });
      if (out.status !== 0 || out.stdout !== '"2015-07-06T22:33:38Z"\n') {
        throw new Error(`wkt-json canon gave status ${out.status}: ${out.stdout}${out.stderr}${out.error ?? ""}`);
      }
    });

    await step("TypeScript finds the types: node16 ESM and CJS, bundler, node10", async () => {
      writeFileSync(join(consumer, "esm.mts"), typesEsm);
      writeFileSync(join(consumer, "cjs.cts"), typesCjs);
      writeFileSync(join(consumer, "bundler.ts"), typesEsm);
      writeFileSync(join(consumer, "node10.ts"), typesEsm);
      writeFileSync(join(consumer, "tsconfig.node16.json"), tsconfig({ module: "node16", moduleResolution: "node16" }, ["esm.mts", "cjs.cts"]));
      writeFileSync(join(consumer, "tsconfig.bundler.json"), tsconfig({ module: "esnext", moduleResolution: "bundler" }, ["bundler.ts"]));
      // esModuleInterop, as `tsc --init` sets it: the .d.ts default-imports `long`, a CommonJS module.
      writeFileSync(
        join(consumer, "tsconfig.node10.json"),
        tsconfig({ module: "commonjs", moduleResolution: "node10", esModuleInterop: true }, ["node10.ts"]),
      );
      const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
      await Promise.all(
        ["node16", "bundler", "node10"].map((mode) => runAsync(process.execPath, [tsc, "-p", `tsconfig.${mode}.json`], consumer)),
      );
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  const whole = await bundleSize('export * from "./dist/index.js";');
  const timestamp = await bundleSize('export { timestampFromJson, timestampToJson } from "./dist/index.js";');
  console.log(`check-package: size of dist/index.js, minified, dependencies excluded:`);
  console.log(`  everything:                          ${kb(whole.min)} min, ${kb(whole.gzip)} min+gzip (${whole.gzip} bytes)`);
  console.log(`  timestampFromJson + timestampToJson: ${kb(timestamp.min)} min, ${kb(timestamp.gzip)} min+gzip (${timestamp.gzip} bytes)`);
}

main().catch((e) => {
  console.error(`check-package: FAILED: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});
