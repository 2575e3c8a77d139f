#!/usr/bin/env node
// `npm run check:package`: the package as a consumer gets it, built from a fresh clone. Each step prints its
// time. It checks the committed HEAD of the checkout it runs in, not the working tree: it clones HEAD into a
// temporary folder (and warns when the working tree has uncommitted changes, which it does not see). Then:
//
// 1. `npm pack` of the clone, which has no dist/: the `prepare` script (scripts/prepare.mjs) builds it (tsup and
//    typescript, both devDependencies; no conformance protos, no protoc). The clone's node_modules is a link to this checkout's:
//    installing the devDependencies again would only repeat the lock file (step 4 does that install for real).
// 2. `npm publish --dry-run` of the clone: exit status 0, no npm warning but the "log in" one that a dry run
//    without a token always gives, nothing for `npm pkg fix` to change, and the file list is the allowed set:
//    package.json, README.md, LICENSE, CHANGELOG.md and the build's .js/.cjs/.d.ts/.d.cts under dist/ (the five
//    entry files required); no source maps, no src/. Prints the packed and unpacked size. Nothing is published.
//    (Its `prepare` finds dist/ built from the same files by step 1, and does not build again.)
// 3. The tarball of step 1 installed into an empty project, with its peer @bufbuild/protobuf and TypeScript 5.0.
//    There:
//    - `require("wkt-json")` loads dist/index.cjs and `import("wkt-json")` loads dist/index.js, with the same
//      exports, and a WktJsonError thrown by one copy is recognised by the other's isWktJsonError;
//    - paths outside `exports` are refused, `wkt-json/package.json` is allowed;
//    - the `wkt-json` bin runs (`npx wkt-json --version`, a `canon` and a failing `check`);
//    - @bufbuild/protobuf, a peer dependency, is installed once, beside wkt-json, not inside it;
//    - the types typecheck for a TypeScript consumer under TypeScript 5.0 (the oldest we support) and 5.9 (the
//      one we build with), each with moduleResolution node16 (an ESM and a CJS file), bundler and node10, with
//      strict on, esModuleInterop off (tsc's default), skipLibCheck off (so the .d.ts files themselves are
//      checked, ours and those of @bufbuild/protobuf and long) and an older lib (ES2020, no DOM). The consumer
//      code uses the codec with a well-known type's schema, the standalone helpers, the error class with a
//      `cause`, and int64From with a protobufjs Long.
//    - every TypeScript block of README.md, docs/*.md and bench/README.md (made a program as test/readme.test.ts
//      makes it, by test/readme/blocks.ts) typechecks against the installed package, as a user's web project
//      would compile it: TypeScript 5.0 and 5.9, lib ES2022 and DOM, strict with exactOptionalPropertyTypes and
//      noUncheckedIndexedAccess, bundler resolution, skipLibCheck on (tsc --init's default).
// 4. The clone installed by its git URL (`git+file://<clone>#<commit>`) into another empty project: npm does
//    what it does for a GitHub URL (clones, installs the devDependencies in the temporary clone, runs
//    `prepare`, packs), then the same ESM, CJS and bin checks as in 3.
// 5. The bundle-size budget (scripts/bundle-size.mjs, run as a child process: it measures this checkout's
//    dist/, so `npm run build` first); skipped with a note where that script is missing.
//
// Dependencies come from the registry or npm's cache (`--prefer-offline`; CI has filled the cache with
// `npm ci`). (@arethetypeswrong/cli 0.18 was tried for the types: it cannot read the tarballs npm 11 writes.)

import { execFile, spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { run } from "./run.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** Files the package must hold: the five entry files of `exports` and `bin`, and what npm shows on its page. */
const required = [
  "package.json",
  "README.md",
  "LICENSE",
  "CHANGELOG.md",
  "dist/index.js",
  "dist/index.cjs",
  "dist/index.d.ts",
  "dist/index.d.cts",
  "dist/cli.js",
];
/** Further files it may hold: more modules of the build under dist/ (a per-module ESM layout, chunks). */
const alsoAllowed =
  /^dist\/(?:[\w.-]+\/)*[\w.-]+\.(?:js|cjs|mjs|d\.ts|d\.cts|d\.mts)$|^dist\/(?:[\w.-]+\/)+package\.json$/;
/** The one npm warning tolerated from `npm publish --dry-run`: no token, which a dry run does not need. */
const loginWarning = /^npm warn publish This command requires you to be logged in .*\(dry-run\)$/;

async function step(name, fn) {
  const started = performance.now();
  await fn();
  console.log(`check-package: ok   ${name} (${((performance.now() - started) / 1000).toFixed(1)}s)`);
}

/** Runs npm and returns stdout and stderr; throws with both when it fails. */
function npm(args, cwd) {
  const result = spawnSync("npm", args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  if (result.error !== undefined || result.status !== 0) {
    throw new Error(
      `npm ${args.join(" ")} failed (${result.error?.message ?? `exit status ${result.status}`}):\n` +
        `${result.stdout ?? ""}${result.stderr ?? ""}`,
    );
  }
  return { stdout: result.stdout, stderr: result.stderr };
}

/**
 * The JSON npm prints with --json. The build that `prepare` runs writes to the same stdout first, so the JSON
 * starts at the first line that is only `[` or `{`.
 */
function npmJson(stdout) {
  const at = stdout.search(/^[[{]$/m);
  if (at < 0) throw new Error(`no JSON in npm's output:\n${stdout}`);
  return JSON.parse(stdout.slice(at));
}

/** Files of the package that are neither required nor allowed, and required files it lacks. */
function unexpectedFiles(paths) {
  const have = new Set(paths);
  return {
    extra: paths.filter((p) => !required.includes(p) && !alsoAllowed.test(p)),
    missing: required.filter((p) => !have.has(p)),
  };
}

/** The files under `dir`, as paths relative to it with "/", leaving out node_modules. */
function filesUnder(dir, prefix = "") {
  return readdirSync(join(dir, prefix), { withFileTypes: true }).flatMap((entry) => {
    const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : filesUnder(dir, path);
    return [path];
  });
}

/** An empty npm project in `dir` with `specs` installed (from npm's cache where it can). */
function consumerProject(dir, specs) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "consumer", private: true, version: "0.0.0" }));
  npm(["install", "--no-audit", "--no-fund", "--prefer-offline", "--no-package-lock", ...specs], dir);
  const nested = join(dir, "node_modules", "wkt-json", "node_modules", "@bufbuild", "protobuf");
  if (existsSync(nested)) {
    throw new Error("wkt-json got its own copy of @bufbuild/protobuf: it should use the consumer's (a peer)");
  }
}

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

/** In a project with wkt-json installed: ESM and CJS load the right builds with the same exports, the bin runs. */
function consumerChecks(dir, version) {
  writeFileSync(join(dir, "cjs.cjs"), cjsConsumer);
  writeFileSync(join(dir, "esm.mjs"), esmConsumer);
  const cjsKeys = run(process.execPath, ["cjs.cjs"], dir);
  const esmKeys = run(process.execPath, ["esm.mjs"], dir);
  if (cjsKeys !== esmKeys) throw new Error(`CJS and ESM export different names:\n${cjsKeys}\n${esmKeys}`);
  if (JSON.parse(esmKeys).length < 20) throw new Error(`too few exports: ${esmKeys}`);

  const shown = run("npx", ["--no-install", "wkt-json", "--version"], dir);
  if (shown !== `wkt-json ${version}\n`) throw new Error(`npx wkt-json --version printed ${JSON.stringify(shown)}`);
  const bin = join(dir, "node_modules", ".bin", "wkt-json");
  const canon = spawnSync(bin, ["canon", "google.protobuf.Timestamp"], {
    input: '"2015-07-06T15:33:38-07:00"',
    encoding: "utf8",
  });
  if (canon.status !== 0 || canon.stdout !== '"2015-07-06T22:33:38Z"\n') {
    throw new Error(`wkt-json canon gave status ${canon.status}: ${canon.stdout}${canon.stderr}${canon.error ?? ""}`);
  }
  const check = spawnSync(bin, ["check", "google.protobuf.Duration"], { input: '"1.5"', encoding: "utf8" });
  if (check.status !== 1 || !check.stderr.includes("[syntax]")) {
    throw new Error(`wkt-json check of a bad Duration gave status ${check.status}: ${check.stdout}${check.stderr}`);
  }
}

/**
 * Typechecks the documents' TypeScript blocks in `consumer/readme/` against the installed wkt-json, with each
 * compiler of `tscs`; throws with every error. `clone` is the checkout the documents come from.
 */
async function checkDocumentBlocks(clone, consumer, tscs) {
  const builder = join(clone, "test", "readme", "blocks.mjs"); // beside node_modules, so that it finds typescript
  const source = readFileSync(join(clone, "test", "readme", "blocks.ts"), "utf8");
  writeFileSync(
    builder,
    ts.transpileModule(source, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText,
  );
  const { build, documentsOf, exportedTypeNames, tsBlocks } = await import(pathToFileURL(builder).href);
  const library = await import(pathToFileURL(join(consumer, "node_modules", "wkt-json", "dist", "index.js")).href);
  const genText = readFileSync(join(clone, "test", "readme", "gen", "library_pb.ts"), "utf8");
  const fixturesText = readFileSync(join(clone, "test", "readme", "fixtures.ts"), "utf8");
  const fixtures = ts.createSourceFile("fixtures.ts", fixturesText, ts.ScriptTarget.ES2022, true);
  const shape = fixtures.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === "Fixtures");
  if (shape === undefined) throw new Error("test/readme/fixtures.ts has no interface Fixtures");
  const fixtureNames = shape.members.map((m) => m.name.getText(fixtures));
  const implicitImports = [
    ["wkt-json", Object.keys(library), []],
    [
      "./gen/library_pb.js",
      [...genText.matchAll(/^export const (\w+)/gm)].map((m) => m[1]),
      exportedTypeNames(genText),
    ],
    ["@bufbuild/protobuf", ["create", "clone"], []],
    ["@bufbuild/protobuf/wkt", ["StructSchema", "AnySchema"], []],
  ];
  const dir = join(consumer, "readme");
  mkdirSync(join(dir, "gen"), { recursive: true });
  writeFileSync(join(dir, "gen", "library_pb.ts"), genText);
  writeFileSync(join(dir, "fixtures.ts"), fixturesText.replace('"../../src/index.js"', '"wkt-json"'));
  const files = ["fixtures.ts"];
  const where = new Map();
  for (const file of documentsOf(readdirSync(join(clone, "docs")))) {
    for (const block of tsBlocks(file, readFileSync(join(clone, file), "utf8"))) {
      const name = `block_${files.length}.ts`;
      const program = build(block, implicitImports, fixtureNames);
      writeFileSync(join(dir, name), program.typecheckText);
      files.push(name);
      where.set(name, [block, program.headerLines]);
    }
  }
  writeFileSync(
    join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        noEmit: true,
        skipLibCheck: true,
        types: [],
        target: "es2022",
        lib: ["es2022", "dom"],
        module: "esnext",
        moduleResolution: "bundler",
      },
      files,
    }),
  );
  const failures = [];
  for (const [version, tsc] of Object.entries(tscs)) {
    const { status, output } = await new Promise((done) =>
      execFile(process.execPath, [tsc, "-p", "tsconfig.json"], { cwd: dir, encoding: "utf8" }, (error, stdout) =>
        done({ status: error === null ? 0 : error.code, output: stdout }),
      ),
    );
    if (status === 0) continue;
    // block_3.ts(12,5): error TS... → README.md:140:5: error TS...
    const located = output.replace(/^(block_\d+\.ts)\((\d+),(\d+)\)/gm, (all, name, line, column) => {
      const [block, headerLines] = where.get(name) ?? [];
      return block === undefined ? all : `${block.file}:${block.line + Number(line) - 1 - headerLines}:${column}`;
    });
    failures.push(`TypeScript ${version}:\n${located}`);
  }
  if (failures.length > 0) throw new Error(`the documents' examples do not typecheck:\n${failures.join("\n")}`);
  return files.length - 1;
}

async function main() {
  const version = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;
  if (spawnSync("git", ["rev-parse", "--verify", "--quiet", "HEAD"], { cwd: root }).status !== 0) {
    throw new Error("this is not a git checkout with a commit: check:package clones the committed HEAD");
  }
  const commit = run("git", ["rev-parse", "HEAD"], root).trim();
  const dirty = run("git", ["status", "--porcelain"], root).split("\n").filter(Boolean);
  if (dirty.length > 0) {
    console.log(
      `check-package: warning: the working tree has uncommitted changes (${dirty.length}: ${dirty
        .slice(0, 3)
        .map((l) => l.slice(3))
        .join(", ")}${dirty.length > 3 ? ", ..." : ""}); this checks the committed HEAD ${commit.slice(0, 12)}`,
    );
  }

  const work = mkdtempSync(join(tmpdir(), "wkt-json-package-"));
  try {
    const clone = join(work, "clone");
    await step(`git clone of HEAD ${commit.slice(0, 12)} into a temporary folder`, () => {
      run("git", ["clone", "--quiet", "--no-checkout", root, clone], work);
      run("git", ["checkout", "--quiet", "--detach", commit], clone);
      if (existsSync(join(clone, "dist"))) throw new Error("the clone has a dist/: is dist/ committed?");
      symlinkSync(join(root, "node_modules"), join(clone, "node_modules"), "dir");
    });

    let tarball;
    await step("npm pack of the clone, with no dist/ (prepare builds it)", () => {
      const [packed] = npmJson(npm(["pack", "--json", "--pack-destination", work], clone).stdout);
      tarball = join(work, packed.filename);
      const { missing } = unexpectedFiles(packed.files.map((f) => f.path));
      if (missing.length > 0) throw new Error(`the tarball lacks ${missing.join(", ")}`);
    });

    await step("npm publish --dry-run of the clone: no warning, only the allowed files", () => {
      const { stdout, stderr } = npm(["publish", "--dry-run", "--json"], clone);
      const warnings = stderr.split("\n").filter((line) => /^npm warn/i.test(line) && !loginWarning.test(line));
      if (warnings.length > 0) throw new Error(`npm publish --dry-run warned:\n${warnings.join("\n")}`);
      const published = npmJson(stdout)["wkt-json"];
      const paths = published.files.map((f) => f.path);
      const { extra, missing } = unexpectedFiles(paths);
      if (extra.length > 0 || missing.length > 0) {
        throw new Error(
          `the package's files differ from the allowed set: ` +
            `${extra.length > 0 ? `not allowed: ${extra.join(", ")}` : ""}` +
            `${extra.length > 0 && missing.length > 0 ? "; " : ""}${missing.length > 0 ? `missing: ${missing.join(", ")}` : ""}`,
        );
      }
      npm(["pkg", "fix"], clone);
      const fixed = run("git", ["diff", "--stat", "--", "package.json"], clone);
      if (fixed !== "") throw new Error(`npm pkg fix changes package.json:\n${run("git", ["diff"], clone)}`);
      for (const path of paths.filter((p) => /\.c?js$/.test(p))) {
        const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(readFileSync(join(clone, path), "utf8"))?.[1];
        if (url !== undefined && !url.startsWith("data:")) {
          console.log(
            `check-package: warning: ${path} names a source map the package does not ship (${url}): ` +
              "some bundlers warn about it; build it without one (tsup `sourcemap`)",
          );
        }
      }
      console.log(
        `check-package: the package: ${paths.length} files, ${published.size.toLocaleString("en")} bytes packed, ` +
          `${published.unpackedSize.toLocaleString("en")} bytes unpacked`,
      );
    });

    const consumer = join(work, "consumer");
    const protobufVersion = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).devDependencies[
      "@bufbuild/protobuf"
    ];
    await step(
      "install the tarball into an empty project, with its peer @bufbuild/protobuf, long, temporal-polyfill and TypeScript 5.0",
      () =>
        consumerProject(consumer, [
          tarball,
          `@bufbuild/protobuf@${protobufVersion}`,
          `typescript-oldest@npm:typescript@${typescriptOldest}`,
          // The consumer's own `long`, as a protobufjs user has it: wkt-json does not depend on it.
          `long@${JSON.parse(readFileSync(join(root, "package.json"), "utf8")).devDependencies.long}`,
          // The README's Temporal example passes a polyfill, as a user on a runtime without Temporal does.
          `temporal-polyfill@${JSON.parse(readFileSync(join(root, "package.json"), "utf8")).devDependencies["temporal-polyfill"]}`,
        ]),
    );

    await step("from the tarball: require() and import() load the CJS and ESM builds; the bin runs", () =>
      consumerChecks(consumer, version),
    );
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

    await step(
      `the README's and docs' examples against the package: TypeScript ${Object.keys(tscs).join(" and ")}, lib DOM`,
      async () => {
        const count = await checkDocumentBlocks(clone, consumer, tscs);
        console.log(`check-package: ${count} example blocks typecheck`);
      },
    );

    const fromGit = join(work, "from-git");
    const gitUrl = `git+file://${clone}#${commit}`;
    await step(`install the clone by its git URL (${gitUrl.replace(work, "<tmp>")}) into another empty project`, () =>
      consumerProject(fromGit, [gitUrl, `@bufbuild/protobuf@${protobufVersion}`]),
    );

    await step("from the git URL: require() and import() load the CJS and ESM builds; the bin runs", () => {
      const { extra, missing } = unexpectedFiles(filesUnder(join(fromGit, "node_modules", "wkt-json")));
      if (extra.length > 0 || missing.length > 0) {
        throw new Error(
          `the git install holds ${extra.join(", ") || "nothing extra"} and lacks ${missing.join(", ") || "nothing"}`,
        );
      }
      consumerChecks(fromGit, version);
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }

  const bundleSize = join(root, "scripts", "bundle-size.mjs");
  if (!existsSync(bundleSize)) {
    console.log("check-package: note: scripts/bundle-size.mjs is missing: no bundle-size budget checked");
    return;
  }
  await step("bundle-size budget (scripts/bundle-size.mjs)", () => {
    const result = spawnSync(process.execPath, [bundleSize], { cwd: root, stdio: "inherit" });
    if (result.status !== 0)
      throw new Error(`scripts/bundle-size.mjs failed (exit status ${result.status ?? result.signal})`);
  });
}

main().catch((e) => {
  console.error(`check-package: FAILED: ${e instanceof Error ? e.message : String(e)}`);
  process.exitCode = 1;
});
