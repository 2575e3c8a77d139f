// library.proto (requests with google.api.http rules) as descriptors, compiled by protoc from the `protoc`
// devDependency when the tests load, with this folder's google/api/http.proto and annotations.proto.
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { DescMessage, DescMethod, DescService, FileRegistry } from "@bufbuild/protobuf";
import { compileProto } from "../patch/registry.js";

const here = dirname(fileURLToPath(import.meta.url));

/** library.proto, its imports, and google/api/{http,annotations}.proto. */
export const httpRegistry: FileRegistry = compileProto(here, "library.proto");

export function message(name: string): DescMessage {
  const desc = httpRegistry.getMessage(`acme.http.v1.${name}`);
  if (desc === undefined) throw new Error(`acme.http.v1.${name} is not in library.proto`);
  return desc;
}

export const Library: DescService = httpRegistry.getService("acme.http.v1.Library")!;

export function method(name: string): DescMethod {
  const m = Library.methods.find((x) => x.name === name);
  if (m === undefined) throw new Error(`Library.${name} is not in library.proto`);
  return m;
}

export const GetBookRequest = message("GetBookRequest");
export const ListBooksRequest = message("ListBooksRequest");
export const CreateBookRequest = message("CreateBookRequest");
export const UpdateBookRequest = message("UpdateBookRequest");
export const MoveBookRequest = message("MoveBookRequest");
export const GetObjectRequest = message("GetObjectRequest");
export const Everything = message("Everything");
