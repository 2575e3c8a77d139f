#!/usr/bin/env node
// `npm run check:package`: the package as a consumer gets it. Packs it with `npm pack`, installs the tarball
// into a temporary project (its dependencies from the registry, or npm's cache), and checks there that
//
// - `require("wkt-json")` loads dist/index.cjs and `import("wkt-json")` loads dist/index.js, with the same
//   exports, and a WktJsonError thrown by one copy is recognised by the other's isWktJsonError;
// - paths outside `exports` are refused, `wkt-json/package.json` is allowed;
// - the `wkt-json` bin runs;
// - @bufbuild/protobuf, a peer dependency, is installed once, beside wkt-json, not inside it;
// - the types typecheck for a TypeScript consumer under TypeScript 5.0 (the oldest we support) and 5.9 (the
//   one we build with), each with moduleResolution node16 (an ESM and a CJS file), bundler and node10, with
//   strict on, esModuleInterop off (tsc's default), skipLibCheck off (so the .d.ts files themselves are
//   checked, ours and those of @bufbuild/protobuf and long) and an older lib (ES2020, no DOM). The consumer
//   code uses the codec with a well-known type's schema, the standalone helpers, the error class with a
//   `cause`, and int64From with a protobufjs Long.
//
// Then reports the size of the ESM bundle minified and gzipped (dependencies excluded): the whole library,
// and what an import of the Timestamp codec alone costs after tree-shaking. (@arethetypeswrong/cli 0.18 was
// tried first: it cannot read the tarballs npm 11 writes.)
//
// Needs `npm run build` first: it packs the dist/ that is there, and says so when dist/ is missing.
// TypeScript 5.0 is installed into the temporary project from the registry (or npm's cache).

import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { run } from "./run.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const built = ["dist/index.js", "dist/index.cjs", "dist/index.d.ts", "dist/index.d.cts", "dist/cli.js"];

/** Runs tsc on tsconfig.<mode>.json; resolves to its exit status and output (it fails on type errors). */
function tscRun(tsc, mode, cwd) {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [tsc, "-p", `tsconfig.${mode}.json`],
      { cwd, encoding: "utf8" },
      (error, stdout, stderr) => {
        if (error !== null && typeof error.code !== "number") reject(error);
        else resolve({ status: error === null ? 0 : error.code, output: `${stdout}${stderr}` });
      },
    );
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

// What a TypeScript consumer writes; checked under each resolution mode and TypeScript version below. The
// first line imports `long` as each mode allows without esModuleInterop (node10 and CommonJS: `import =`).
const typesBody = `
import { TimestampSchema } from "@bufbuild/protobuf/wkt";
import { fromJson, int64From, isWktJsonError, timestampFromJson, timestampToJson, toJson, WktJsonError } from "wkt-json";
import type { Int64Like, JsonReadOptions, WktRule } from "wkt-json";
const text: string = timestampToJson(timestampFromJson("2015-07-06T15:33:38Z"));
const options: Partial<JsonReadOptions> = { ignoreUnknownFields: true };
const json = toJson(TimestampSchema, fromJson(TimestampSchema, "2015-07-06T15:33:38Z", options));
const long: Int64Like = Long.fromString("18446744073709551615", true);
const big: bigint = int64From(long, { unsigned: true });
const error = new WktJsonError("binary", "$", "google.protobuf.Any", "not a message", { cause: new Error("inner") });
export function ruleOf(e: unknown): WktRule | undefined { return isWktJsonError(e) ? e.rule : undefined; }
export { text, json, big, error };
`;
const typesEsm = `import Long from "long";\n${typesBody}`;
const typesNode10 = `import Long = require("long");\n${typesBody}`;
const typesCjs = `
import Long = require("long");
import w = require("wkt-json");
const text: string = w.timestampToJson(w.timestampFromJson("2015-07-06T15:33:38Z"));
const big: bigint = w.int64From(Long.fromString("-1"));
export function ruleOf(e: unknown): w.WktRule | undefined { return w.isWktJsonError(e) ? e.rule : undefined; }
export { text, big };
`;

/** TypeScript versions the types are checked with: the oldest supported, and the one the package is built with. */
const typescriptOldest = "5.0.4";

/**
 * Errors tolerated under TypeScript 5.0 in @bufbuild/protobuf's own .d.ts, not in ours: since 2.7.0 it writes
 * `Uint8Array<ArrayBuffer>`, a generic Uint8Array that TypeScript has from 5.7 on. A consumer on an older
 * TypeScript gets these errors from @bufbuild/protobuf whether it imports wkt-json or not (skipLibCheck, on
 * in `tsc --init`'s tsconfig, hides them). Anything else, and any error under the newer TypeScript, fails.
 */
const upstreamUnderOldest =
  /^node_modules\/@bufbuild\/protobuf\/.*\.d\.ts\(\d+,\d+\): error TS2315: Type 'Uint8Array' is not generic\.$/;

// tsc's defaults but strict, with skipLibCheck off and an older lib: no esModuleInterop, no DOM.
function tsconfig(compilerOptions, files) {
  return JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      skipLibCheck: false,
      types: [],
      target: "es2020",
      lib: ["es2020"],
      ...compilerOptions,
    },
    files,
  });
}
const resolutions = {
  node16: [{ module: "node16", moduleResolution: "node16" }, ["esm.mts", "cjs.cts"]],
  bundler: [{ module: "esnext", moduleResolution: "bundler" }, ["bundler.ts"]],
  node10: [{ module: "commonjs", moduleResolution: "node10" }, ["node10.ts"]],
};

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
  if (missing.length > 0) {
    throw new Error(
      `${existsSync(join(root, "dist")) ? `dist/ lacks ${missing.join(", ")}` : "there is no dist/"}: run \`npm run build\` first ` +
        "(check:package packs and checks the package as the build wrote it)",
    );
  }
  const builtAt = statSync(join(root, "dist", "index.js")).mtimeMs;
  const newer = readdirSync(join(root, "src"), { recursive: true }).filter(
    (f) => String(f).endsWith(".ts") && statSync(join(root, "src", String(f))).mtimeMs > builtAt,
  );
  if (newer.length > 0) {
    console.log(
      `check-package: warning: src/ changed after the last build (${newer.slice(0, 3).join(", ")}${newer.length > 3 ? ", ..." : ""}); this checks the old dist/`,
    );
  }

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
    const protobufVersion = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).devDependencies[
      "@bufbuild/protobuf"
    ];
    await step("install the tarball into a fresh project, with its peer @bufbuild/protobuf and TypeScript 5.0", () => {
      run("mkdir", ["-p", consumer]);
      writeFileSync(
        join(consumer, "package.json"),
        JSON.stringify({ name: "consumer", private: true, version: "0.0.0" }),
      );
      run(
        "npm",
        [
          "install",
          "--no-audit",
          "--no-fund",
          "--prefer-offline",
          "--no-package-lock",
          tarball,
          `@bufbuild/protobuf@${protobufVersion}`,
          `typescript-oldest@npm:typescript@${typescriptOldest}`,
        ],
        consumer,
      );
      const nested = join(consumer, "node_modules", "wkt-json", "node_modules", "@bufbuild", "protobuf");
      if (existsSync(nested))
        throw new Error("wkt-json got its own copy of @bufbuild/protobuf: it should use the consumer's (a peer)");
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
      const out = spawnSync(bin, ["canon", "google.protobuf.Timestamp"], {
        input: '"2015-07-06T15:33:38-07:00"',
        encoding: "utf8",
      });
      if (out.status !== 0 || out.stdout !== '"2015-07-06T22:33:38Z"\n') {
        throw new Error(`wkt-json canon gave status ${out.status}: ${out.stdout}${out.stderr}${out.error ?? ""}`);
      }
    });

    const tscs = {
      [typescriptOldest]: join(consumer, "node_modules", "typescript-oldest", "bin", "tsc"),
      [JSON.parse(readFileSync(join(root, "node_modules", "typescript", "package.json"), "utf8")).version]: join(
        root,
        "node_modules",
        "typescript",
        "bin",
        "tsc",
      ),
    };
    const label = `TypeScript ${Object.keys(tscs).join(" and ")}: node16 ESM and CJS, bundler, node10; strict, no esModuleInterop, lib ES2020`;
    await step(label, async () => {
      writeFileSync(join(consumer, "esm.mts"), typesEsm);
      writeFileSync(join(consumer, "cjs.cts"), typesCjs);
      writeFileSync(join(consumer, "bundler.ts"), typesEsm);
      writeFileSync(join(consumer, "node10.ts"), typesNode10);
      for (const [mode, [options, files]] of Object.entries(resolutions)) {
        writeFileSync(join(consumer, `tsconfig.${mode}.json`), tsconfig(options, files));
      }
      const failures = [];
      const tolerated = new Set();
      await Promise.all(
        Object.entries(tscs).flatMap(([version, tsc]) =>
          Object.keys(resolutions).map(async (mode) => {
            const { status, output } = await tscRun(tsc, mode, consumer);
            if (status === 0) return;
            const lines = output.split("\n").filter((line) => /\): error TS\d+/.test(line));
            const others = lines.filter((line) => !(version === typescriptOldest && upstreamUnderOldest.test(line)));
            for (const line of lines)
              if (!others.includes(line)) tolerated.add(line.replace(/^.*\/dist\/(?:cjs|esm)\/|\(.*$/g, ""));
            if (others.length > 0 || lines.length === 0) failures.push(`TypeScript ${version}, ${mode}:\n${output}`);
          }),
        ),
      );
      if (failures.length > 0) throw new Error(failures.join("\n"));
      if (tolerated.size > 0) {
        console.log(
          `check-package: note: TypeScript ${typescriptOldest} finds only the known errors of @bufbuild/protobuf's own .d.ts ` +
            `(generic Uint8Array, TypeScript 5.7+: ${[...tolerated].sort().join(", ")}); none in wkt-json's`,
        );
      }
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  const whole = await bundleSize('export * from "./dist/index.js";');
  const timestamp = await bundleSize('export { timestampFromJson, timestampToJson } from "./dist/index.js";');
  console.log(`check-package: size of dist/index.js, minified, dependencies excluded:`);
  console.log(
    `  everything:                          ${kb(whole.min)} min, ${kb(whole.gzip)} min+gzip (${whole.gzip} bytes)`,
  );
  console.log(
    `  timestampFromJson + timestampToJson: ${kb(timestamp.min)} min, ${kb(timestamp.gzip)} min+gzip (${timestamp.gzip} bytes)`,
  );
}

main().catch((e) => {
  console.error(`check-package: FAILED: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});
