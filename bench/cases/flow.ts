/**
 * A realistic service payload (issue 16): `bench.flow.v2.UpdateFlowRequest` of bench/protos/flow.proto, about
 * 2 KB of JSON modelled on the flow-builder service's Flow (../shared/spec/consumers.md): a Flow with string
 * ids, an enum, Timestamps, a nullable commit message (StringValue), repeated FlowError and Revision messages
 * (each with a nested Author, a Timestamp, a Duration and an int64), a map of links, a ~600-byte free-form
 * definition (Struct) of widgets and transitions, and the request's FieldMask. Decoded from and encoded to
 * text and JSON values by the three libraries; target ≥ 2x protobuf-es and ahead of protobuf-ts.
 */
import { createFileRegistry, fromBinary, type DescMessage, type JsonObject } from "@bufbuild/protobuf";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { readFileSync } from "node:fs";
import { flowRequest } from "../fixtures.js";
import type { Case } from "../harness.js";
import { messageCases } from "./message.js";

/** .bench/flow.binpb, written by bench/run.mjs next to the bundle (.bench/main.mjs). */
function flowRegistry(): ReturnType<typeof createFileRegistry> {
  const bytes = readFileSync(new URL("./flow.binpb", import.meta.url));
  return createFileRegistry(fromBinary(FileDescriptorSetSchema, bytes));
}

export function flowCases(): Case[] {
  const registry = flowRegistry();
  const schema = registry.getMessage("bench.flow.v2.UpdateFlowRequest") as DescMessage;
  const json = flowRequest(41, 2048);
  return messageCases({
    area: "Service payload (flow-builder UpdateFlowRequest, 2 KB)",
    label: `update-flow-request-${(JSON.stringify(json).length / 1024).toFixed(1)}kb`,
    schema,
    tsName: "UpdateFlowRequest",
    json,
    registry,
    strings: true,
    targets: [
      { vs: "es", max: 1 / 2, label: "≥2x vs es" },
      { vs: "ts", max: 1, label: "ahead of ts" },
    ],
  });
}
