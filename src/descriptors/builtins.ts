/**
 * The types every registry built from Types knows without being given them: the well-known types and
 * descriptor.proto's messages. registryFromTypes, typesFromDescriptors and the type resolver skip them.
 *
 * @module
 * @internal
 */
import { createRegistry, type DescFile, type Registry } from "@bufbuild/protobuf";
import { file_google_protobuf_descriptor } from "@bufbuild/protobuf/wkt";
import { wktFiles } from "../wkt/registry.js";

const builtinFiles = (): DescFile[] => [...wktFiles, file_google_protobuf_descriptor];

let builtinRegistry: Registry | undefined;

/** The well-known types and descriptor.proto, made on first use. @internal */
export function builtins(): Registry {
  return (builtinRegistry ??= createRegistry(...builtinFiles()));
}
