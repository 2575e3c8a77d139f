// shelf.proto (a resource with AIP-203 field behaviour) as descriptors: compiled by protoc from the `protoc`
// devDependency into a temporary descriptor set when the tests load (some 50 ms), so no generated code is
// checked in. test/consumers use compileProto for their own resources.

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createFileRegistry, fromBinary, type DescMessage, type FileRegistry } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";

const here = dirname(fileURLToPath(import.meta.url));
const protocPkg = dirname(createRequire(import.meta.url).resolve("protoc/package.json"));

/**
 * Compiles `file` (in `dir`, which may import google/api/field_behavior.proto from this folder and the
 * well-known types) with protoc into a registry of it and its imports; with `sourceInfo`, the descriptors keep
 * their comments (`--include_source_info`).
 */
export function compileProto(dir: string, file: string, options?: { sourceInfo?: boolean }): FileRegistry {
  const tmp = mkdtempSync(join(tmpdir(), "wkt-json-protoc-"));
  try {
    const out = join(tmp, "set.binpb");
    const args = [
      join(protocPkg, "protoc.cjs"),
      `--proto_path=${dir}`,
      `--proto_path=${here}`,
      `--proto_path=${join(protocPkg, "include")}`,
      "--include_imports",
      ...(options?.sourceInfo === true ? ["--include_source_info"] : []),
      `--descriptor_set_out=${out}`,
      file,
    ];
    execFileSync(process.execPath, args, { stdio: ["ignore", "ignore", "inherit"] });
    return createFileRegistry(fromBinary(FileDescriptorSetSchema, readFileSync(out)));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** shelf.proto, its imports and google/api/field_behavior.proto. */
export const shelfRegistry: FileRegistry = compileProto(here, "shelf.proto");

function message(name: string): DescMessage {
  const desc = shelfRegistry.getMessage(`acme.shelf.v1.${name}`);
  if (desc === undefined) throw new Error(`acme.shelf.v1.${name} is not in shelf.proto`);
  return desc;
}

export const Book = message("Book");
export const Author = message("Author");
export const Chapter = message("Chapter");
export const UpdateBookRequest = message("UpdateBookRequest");
