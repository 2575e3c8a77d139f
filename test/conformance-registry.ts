// The conformance suite's test messages (TestAllTypesProto3 and friends) as descriptors, for unit and property
// tests: every scalar, repeated, map, oneof and well-known-type field in one message, under proto2, proto3 and
// editions 2023. Loaded from conformance/.build/test-protos.binpb, which `npm test` compiles first (pretest);
// when it is missing (vitest started directly) it is compiled here.

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createFileRegistry, fromBinary, type DescEnum, type DescMessage, type FileRegistry } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";

const descriptorSetPath = fileURLToPath(new URL("../conformance/.build/test-protos.binpb", import.meta.url));

function loadDescriptorSet(): Uint8Array {
  if (!existsSync(descriptorSetPath)) {
    const script = fileURLToPath(new URL("../conformance/compile-protos.mjs", import.meta.url));
    execFileSync(process.execPath, [script], { stdio: ["ignore", "inherit", "inherit"] });
  }
  return readFileSync(descriptorSetPath);
}

/** Every file of the conformance suite plus the well-known types and descriptor.proto. */
export const testRegistry: FileRegistry = createFileRegistry(fromBinary(FileDescriptorSetSchema, loadDescriptorSet()));

function message(typeName: string): DescMessage {
  const desc = testRegistry.getMessage(typeName);
  if (desc === undefined) throw new Error(`${typeName} is not in ${descriptorSetPath}`);
  return desc;
}

function enumeration(typeName: string): DescEnum {
  const desc = testRegistry.getEnum(typeName);
  if (desc === undefined) throw new Error(`${typeName} is not in ${descriptorSetPath}`);
  return desc;
}

// proto3: test_messages_proto3.proto
export const TestAllTypesProto3 = message("protobuf_test_messages.proto3.TestAllTypesProto3");
export const ForeignMessage = message("protobuf_test_messages.proto3.ForeignMessage");
export const ForeignEnum = enumeration("protobuf_test_messages.proto3.ForeignEnum");
export const NullHypothesisProto3 = message("protobuf_test_messages.proto3.NullHypothesisProto3");
export const EnumOnlyProto3 = message("protobuf_test_messages.proto3.EnumOnlyProto3");

// proto2: test_messages_proto2.proto (extensions, groups, required fields)
export const TestAllTypesProto2 = message("protobuf_test_messages.proto2.TestAllTypesProto2");
export const ForeignMessageProto2 = message("protobuf_test_messages.proto2.ForeignMessageProto2");
export const ForeignEnumProto2 = enumeration("protobuf_test_messages.proto2.ForeignEnumProto2");
export const TestAllRequiredTypesProto2 = message("protobuf_test_messages.proto2.TestAllRequiredTypesProto2");
export const UnknownToTestAllTypes = message("protobuf_test_messages.proto2.UnknownToTestAllTypes");

// editions 2023: test_messages_edition2023.proto and the editions twins of the proto2/proto3 files
export const TestAllTypesEdition2023 = message("protobuf_test_messages.editions.TestAllTypesEdition2023");
export const ForeignMessageEdition2023 = message("protobuf_test_messages.editions.ForeignMessageEdition2023");
export const TestAllTypesProto3Editions = message("protobuf_test_messages.editions.proto3.TestAllTypesProto3");
export const TestAllTypesProto2Editions = message("protobuf_test_messages.editions.proto2.TestAllTypesProto2");
