// The `wkt-json` command. Most tests run it in-process (`run`: cli/wkt-json.ts's main on streams of the test's
// own, as test/fixtures/cli-run.ts's cliInProcess does), which costs no process start; a few run the bin for
// real (`runProcess`: `node dist/cli.js` as a child process, fed through pipes and from files, and in a shell
// pipe), so that what only a process shows stays proven: the built file starts, reads stdin from a pipe and from
// a file, writes text and bytes on stdout, exits 0, 1 and 2, streams through pipes with their backpressure,
// survives a reader that goes away, and a deep input within its own call stack. `npm test` builds dist/cli.js
// first (pretest); run alone (`npx vitest run test/cli.test.ts`), this file rebuilds it when it is missing or
// older than its sources.

import { execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { promisify } from "node:util";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { create, setExtension, toBinary } from "@bufbuild/protobuf";
import { sizeDelimitedEncode } from "@bufbuild/protobuf/wire";
import {
  DurationSchema,
  EnumValueOptionsSchema,
  ValueSchema,
  file_google_protobuf_struct,
  FileDescriptorProtoSchema,
  FileDescriptorSetSchema,
} from "@bufbuild/protobuf/wkt";
import {
  json as jsonEnumValueOption,
  JsonEnumValueOptionsSchema,
} from "@bufbuild/protobuf/wkt/google/protobuf/json_enumvalue_options_pb.js";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildCliIfStale,
  cli,
  cliInProcess as run,
  conformanceDescriptorSet as descriptorSet,
  root,
} from "./fixtures/cli-run.js";
import { fromJsonString, jsonSchema, pathJoin } from "../src/index.js";
import { shortPath } from "../src/short-path.js";
import { closestOption, parseArgsProblem } from "../cli/usage.js";
import { progressEveryMs, progressLine } from "../cli/progress.js";
import { catchWkt } from "./helpers.js";
import { TestAllTypesProto2, TestAllTypesProto3, testRegistry } from "./conformance-registry.js";
import { compileProto } from "./patch/registry.js";

const execFileAsync = promisify(execFile);

const proto3 = "protobuf_test_messages.proto3.TestAllTypesProto3";
const withSet = ["--descriptor-set", descriptorSet];
/**
 * A guard against a hang, generous on a busy machine: some tests start Node a few times, several tests at once,
 * beside another test file (the slowest, the binary round trip, took 18 s beside other work).
 */
const timeout = 120_000;

interface Run {
  status: number | null;
  stdout: Buffer;
  stderr: string;
  /** stdout as UTF-8 text. */
  out: string;
}

/**
 * Runs the built CLI in a process of its own with `input` on a pipe to its stdin, or with stdin opened on the
 * file `{ file }`. Async, so that the tests (each a Node start-up) run concurrently.
 */
function runProcess(args: string[], input: string | Uint8Array | { file: string } = ""): Promise<Run> {
  const fd = typeof input === "object" && "file" in input ? openSync(input.file, "r") : undefined;
  return new Promise<Run>((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: root,
      stdio: [fd ?? "pipe", "pipe", "pipe"],
      timeout: 60_000, // a guard against a hang: a start-up takes 1-5 s beside other work
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout?.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on("data", (chunk: Buffer) => stderr.push(chunk));
    child.on("error", reject);
    child.on("close", (status) => {
      const out = Buffer.concat(stdout);
      resolve({ status, stdout: out, out: out.toString("utf8"), stderr: Buffer.concat(stderr).toString("utf8") });
    });
    if (fd === undefined) {
      child.stdin?.on("error", () => {}); // a CLI that exits before reading (usage errors) closes the pipe
      child.stdin?.end(input as string | Uint8Array);
    }
  }).finally(() => {
    if (fd !== undefined) closeSync(fd);
  });
}

/** The parts of the one-line error `wkt-json: <type> at <path> (line L, column C): <detail> [rule]`. */
function parseError(stderr: string): { typeName: string; path: string; line?: number; column?: number; rule: string } {
  const m = /^wkt-json: (\S+) at (\S+?)(?: \(line (\d+), column (\d+)\))?: .+ \[([a-z0-9-]+)\]\n$/s.exec(stderr);
  if (m === null) throw new Error(`not a wkt-json input error: ${JSON.stringify(stderr)}`);
  const [, typeName, path, line, column, rule] = m as unknown as [
    string,
    string,
    string,
    string | undefined,
    string | undefined,
    string,
  ];
  return {
    typeName,
    path,
    rule,
    ...(line === undefined ? {} : { line: Number(line) }),
    ...(column === undefined ? {} : { column: Number(column) }),
  };
}

let tmp: string;
const tmpFile = (name: string, content: string | Uint8Array): string => {
  const path = join(tmp, name);
  writeFileSync(path, content);
  return path;
};

beforeAll(() => {
  buildCliIfStale();
  tmp = mkdtempSync(join(tmpdir(), "wkt-json-cli-"));
}, 120_000);

afterAll(() => {
  rmSync(tmp, { recursive: true, force: true });
});

describe.concurrent("the built file", { timeout }, () => {
  it("starts with a node shebang and is executable, so npm can link it as a bin", async () => {
    expect(readFileSync(cli, "utf8").startsWith("#!/usr/bin/env node\n")).toBe(true);
    const { stdout } = await execFileAsync(cli, ["--version"], { encoding: "utf8" });
    expect(stdout).toMatch(/^wkt-json \d/);
  });

  it("--version prints the package version", async () => {
    const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
    expect(await runProcess(["--version"])).toMatchObject({ status: 0, out: `wkt-json ${version}\n`, stderr: "" });
  });

  it("--help prints usage with examples on stdout", async () => {
    const result = await runProcess(["--help"]);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.out).toMatch(/^Usage: wkt-json <command> <type>/);
    for (const text of [
      "canon <type>",
      "check <type>",
      "--descriptor-set FILE",
      "--from json|binary",
      "--to json|binary",
      "--pretty N",
      "--ignore-unknown-fields",
      "Examples:",
    ]) {
      expect(result.out).toContain(text);
    }
    expect((await run(["canon", "google.protobuf.Timestamp", "-h"])).status).toBe(0);
  });
});

describe.concurrent("canon", { timeout }, () => {
  it("normalises a Timestamp with an offset to UTC (stdin on a pipe)", async () => {
    expect(await runProcess(["canon", "google.protobuf.Timestamp"], '"2015-07-06T15:33:38-07:00"\n')).toMatchObject({
      status: 0,
      out: '"2015-07-06T22:33:38Z"\n',
      stderr: "",
    });
  });

  it.each([
    ["google.protobuf.Duration", '"1.50s"', '"1.500s"'],
    ["google.protobuf.FieldMask", '"a.fooBar,b"', '"a.fooBar,b"'],
    ["google.protobuf.Int64Value", "9223372036854775807", '"9223372036854775807"'],
    ["google.protobuf.Struct", '{"a": [1, null, {"b": true}]}', '{"a":[1,null,{"b":true}]}'],
    ["google.protobuf.Empty", "{ }", "{}"],
    [".google.protobuf.BoolValue", "true", "true"],
  ])("reads and writes %s without a descriptor set", async (type, input, output) => {
    expect(await run(["canon", type], input)).toMatchObject({ status: 0, out: `${output}\n`, stderr: "" });
  });

  it("writes a TestAllTypesProto3 from a file in canonical form with --descriptor-set", async () => {
    const input = tmpFile(
      "all-types.json",
      JSON.stringify({
        optional_int64: 12,
        optionalString: "hi",
        optionalTimestamp: "2020-01-01T01:00:00+01:00",
        optionalDuration: "-0.5s",
        repeatedInt32: [1, "2"],
        optionalNestedEnum: "BAR",
        mapStringString: { ["__proto__"]: "x" },
        optionalAny: { "@type": "type.googleapis.com/google.protobuf.Duration", value: "1.5s" },
        optionalValue: null,
      }),
    );
    const result = await runProcess(["canon", proto3, ...withSet], { file: input });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(result.out).toBe(
      '{"optionalInt64":"12","optionalString":"hi","optionalNestedEnum":"BAR","repeatedInt32":[1,2],' +
        '"mapStringString":{"__proto__":"x"},"optionalDuration":"-0.500s","optionalTimestamp":"2020-01-01T00:00:00Z",' +
        '"optionalAny":{"@type":"type.googleapis.com/google.protobuf.Duration","value":"1.500s"},"optionalValue":null}\n',
    );
  });

  it("indents with --pretty N as JSON.stringify does", async () => {
    const input = '{"optionalInt32": 5, "repeatedString": ["a", "b"]}';
    const compact = (await run(["canon", proto3, ...withSet], input)).out;
    const pretty = await run(["canon", proto3, ...withSet, "--pretty", "2"], input);
    expect(pretty.status).toBe(0);
    expect(pretty.out).toBe(JSON.stringify(JSON.parse(compact), null, 2) + "\n");
    expect((await run(["canon", proto3, ...withSet, "--pretty=0"], input)).out).toBe(compact);
  });

  it("passes the JSON output options through", async () => {
    const input = '{"optionalInt32": 5, "optionalNestedEnum": "BAZ"}';
    expect((await run(["canon", proto3, ...withSet, "--use-proto-field-name", "--enum-as-integer"], input)).out).toBe(
      '{"optional_int32":5,"optional_nested_enum":2}\n',
    );
    const all = JSON.parse((await run(["canon", proto3, ...withSet, "--always-emit-implicit"], "{}")).out) as object;
    expect(all).toMatchObject({ optionalInt32: 0, optionalString: "", repeatedInt32: [], mapInt32Int32: {} });
  });

  it("skips unknown fields only with --ignore-unknown-fields", async () => {
    const input = '{"optionalInt32": 1, "noSuchField": {"x": [1]}}';
    const strict = await run(["canon", proto3, ...withSet], input);
    expect(strict.status).toBe(1);
    expect(parseError(strict.stderr)).toMatchObject({ rule: "unknown-field", path: "$.noSuchField", line: 1 });
    expect(await run(["canon", proto3, ...withSet, "--ignore-unknown-fields"], input)).toMatchObject({
      status: 0,
      out: '{"optionalInt32":1}\n',
    });
  });
});

describe.concurrent("errors in the input", { timeout }, () => {
  // The type named is the innermost one being read: the Timestamp, the scalar, the JSON text itself.
  it.each([
    // [input, typeName, path, line, column, rule]
    [
      '{\n  "optionalInt32": 1,\n  "optionalTimestamp": "2024-02-30T00:00:00Z"\n}',
      "google.protobuf.Timestamp",
      "$.optionalTimestamp",
      3,
      24,
      "range",
    ],
    ['{\n  "optionalDuration": "1sabc"\n}', "google.protobuf.Duration", "$.optionalDuration", 2, 23, "syntax"],
    ['{"repeatedInt32": [1,\n 2.5]}', "int32", "$.repeatedInt32[1]", 2, 2, "syntax"],
    ['{"optionalInt32": 1,\n"optionalInt32": 2}', "JSON", "$.optionalInt32", 2, 1, "duplicate-field"],
    ['{"optionalNestedEnum": "NOPE"}', `${proto3}.NestedEnum`, "$.optionalNestedEnum", 1, 24, "enum"],
  ])(
    "reports %j as %s at %s (line %i, column %i), rule %s, exit 1",
    async (input, typeName, path, line, column, rule) => {
      const result = await run(["canon", proto3, ...withSet], input);
      expect(result.status).toBe(1);
      expect(result.out).toBe("");
      expect(parseError(result.stderr)).toEqual({ typeName, path, line, column, rule });
    },
  );

  it("reports text that is not JSON as a syntax error with its position", async () => {
    const result = await run(["canon", "google.protobuf.Struct"], '{"a": 1,\n  ]');
    expect(result.status).toBe(1);
    expect(parseError(result.stderr)).toMatchObject({ rule: "syntax", line: 2 });
  });

  it("names the well-known type and the rule for a bad Timestamp", async () => {
    const result = await run(["canon", "google.protobuf.Timestamp"], '"2015-07-06 15:33:38Z"');
    expect(result.status).toBe(1);
    expect(parseError(result.stderr)).toEqual({
      typeName: "google.protobuf.Timestamp",
      path: "$",
      line: 1,
      column: 1,
      rule: "syntax",
    });
  });

  it("rejects input that is not UTF-8", async () => {
    const result = await run(["canon", "google.protobuf.StringValue"], new Uint8Array([0x22, 0xff, 0x22]));
    expect(result.status).toBe(1);
    expect(parseError(result.stderr)).toMatchObject({ rule: "syntax", path: "$" });
  });
});

describe.concurrent("check", { timeout }, () => {
  it("exits 0 and writes nothing for valid input", async () => {
    expect(await run(["check", proto3, ...withSet], '{"optionalTimestamp": "2024-02-29T00:00:00Z"}')).toMatchObject({
      status: 0,
      out: "",
      stderr: "",
    });
  });

  it("exits 1 with the error for invalid input, and writes nothing on stdout", async () => {
    const result = await runProcess(["check", "google.protobuf.Duration"], '"315576000001s"');
    expect(result.status).toBe(1);
    expect(result.out).toBe("");
    expect(parseError(result.stderr)).toEqual({
      typeName: "google.protobuf.Duration",
      path: "$",
      line: 1,
      column: 1,
      rule: "range",
    });
  });

  it("validates binary input too: it must have a JSON form", async () => {
    const duration = (seconds: bigint): Uint8Array => toBinary(DurationSchema, create(DurationSchema, { seconds }));
    expect((await run(["check", "google.protobuf.Duration", "--from", "binary"], duration(315576000000n))).status).toBe(
      0,
    );
    // One second past the documented range: valid binary, but no valid JSON form.
    const bad = await run(["check", "google.protobuf.Duration", "--from", "binary"], duration(315576000001n));
    expect(bad.status).toBe(1);
    expect(parseError(bad.stderr)).toMatchObject({ typeName: "google.protobuf.Duration", rule: "range" });
  });
});

describe.concurrent("binary", { timeout }, () => {
  const input =
    '{"optionalInt64": "-9007199254740993", "optionalBytes": "AAEC/w==", "optionalFloat": -0, ' +
    '"repeatedNestedMessage": [{"a": 1}, {"corecursive": {"optionalBool": true}}], ' +
    '"optionalStruct": {"k": ["v", 1.5, null]}, "optionalFieldMask": "fooBar,baz.qux"}';

  it("--to binary writes @bufbuild/protobuf's binary encoding of the message", async () => {
    const result = await runProcess(["canon", proto3, ...withSet, "--to", "binary"], input);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const expected = toBinary(TestAllTypesProto3, fromJsonString(TestAllTypesProto3, input));
    expect(new Uint8Array(result.stdout)).toEqual(expected);
  });

  it("round-trips JSON -> binary -> JSON to the canonical JSON, through files and a shell pipe", async () => {
    const canonical = (await runProcess(["canon", proto3, ...withSet], input)).out;
    expect(canonical).toContain('"optionalInt64":"-9007199254740993"');
    expect(canonical).toContain('"optionalFloat":-0');
    const binFile = join(tmp, "all-types.bin");
    const jsonFile = tmpFile("round-trip.json", input);
    const q = (s: string): string => `'${s.replaceAll("'", "'\\''")}'`;
    const wkt = `${q(process.execPath)} ${q(cli)}`;
    const set = `--descriptor-set ${q(descriptorSet)}`;
    const script =
      `${wkt} canon ${proto3} ${set} --to binary < ${q(jsonFile)} > ${q(binFile)} && ` +
      `${wkt} canon ${proto3} ${set} --to binary < ${q(jsonFile)} | ${wkt} canon ${proto3} ${set} --from binary`;
    const { stdout: piped } = await execFileAsync("sh", ["-c", script], { encoding: "utf8" });
    expect(piped).toBe(canonical);
    expect((await runProcess(["canon", proto3, ...withSet, "--from", "binary"], { file: binFile })).out).toBe(
      canonical,
    );
  });

  it("reports bytes that are not a serialized message as a binary error", async () => {
    const result = await run(["canon", proto3, ...withSet, "--from", "binary"], new Uint8Array([0x0a, 0x05, 0x01]));
    expect(result.status).toBe(1);
    expect(parseError(result.stderr)).toEqual({ typeName: proto3, path: "$", rule: "binary" });
  });

  // Issue 25: fromBinary keeps an extension's bytes as unknown fields; the JSON writer reads them as the
  // extension's type, and protobuf-es's own error made the command exit 3 (internal error).
  it("reports malformed extension bytes as a binary error at the extension's key, exit 1", async () => {
    const proto2 = TestAllTypesProto2.typeName;
    const result = await run(["canon", proto2, ...withSet, "--from", "binary"], new Uint8Array([0xc8, 0x07, 0x00]));
    expect(result).toMatchObject({ status: 1, out: "" });
    expect(parseError(result.stderr)).toEqual({
      typeName: proto2,
      path: '$["[protobuf_test_messages.proto2.groupfield]"]',
      rule: "binary",
    });
  });
});

describe.concurrent("descriptor sets", { timeout }, () => {
  /** A one-file set: acme.Event { <typeName> at = 1; } importing `dependency`, written without its imports. */
  function eventSet(dependency: string, typeName: string): Uint8Array {
    const file = create(FileDescriptorProtoSchema, {
      name: "acme/event.proto",
      package: "acme",
      syntax: "proto3",
      dependency: [dependency],
      messageType: [
        { name: "Event", field: [{ name: "at", number: 1, type: 11, label: 1, typeName, jsonName: "at" }] },
      ],
    });
    return toBinary(FileDescriptorSetSchema, create(FileDescriptorSetSchema, { file: [file] }));
  }

  it("resolves the well-known types a set imports but lacks", async () => {
    const set = tmpFile("event.binpb", eventSet("google/protobuf/timestamp.proto", ".google.protobuf.Timestamp"));
    expect(
      await run(["canon", "acme.Event", "--descriptor-set", set], '{"at": "2000-01-01T00:00:00+00:30"}'),
    ).toMatchObject({
      status: 0,
      out: '{"at":"1999-12-31T23:30:00Z"}\n',
    });
  });

  it("reports an import the set lacks as a setup error, exit 2", async () => {
    const set = tmpFile("broken.binpb", eventSet("acme/missing.proto", ".acme.Missing"));
    const result = await run(["canon", "acme.Event", "--descriptor-set", set], "{}");
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^wkt-json: .*acme\/missing\.proto/);
  });

  /** A set of the files `file`, written as `name`. */
  const setOf = (name: string, ...file: object[]): string =>
    tmpFile(name, toBinary(FileDescriptorSetSchema, create(FileDescriptorSetSchema, { file: file as never })));
  /** google.protobuf.Struct as one string field `x`, in the file `fileName`. */
  const otherStruct = (fileName: string) => ({
    name: fileName,
    package: "google.protobuf",
    syntax: "proto3",
    messageType: [{ name: "Struct", field: [{ name: "x", number: 1, type: 9, label: 1, jsonName: "x" }] }],
  });

  // Issue 25: the set's Struct replaced the built-in one, and canon --to binary wrote "[object Object]", exit 0.
  it.each([
    ["google/protobuf/struct.proto", "google/protobuf/struct.proto (SET) redefines the well-known type"],
    [
      "acme/struct.proto",
      "google.protobuf.Struct is defined in google/protobuf/struct.proto (built in) and in acme/struct.proto (SET)",
    ],
  ])("a set whose %s redefines google.protobuf.Struct is inconsistent: exit 2", async (fileName, message) => {
    const set = setOf(`redef-${fileName.replaceAll("/", "-")}.binpb`, otherStruct(fileName));
    const result = await run(["canon", "google.protobuf.Struct", "--descriptor-set", set, "--to", "binary"], '{"a":1}');
    expect(result).toMatchObject({ status: 2, out: "" });
    expect(result.stderr).toMatch(/^wkt-json: inconsistent descriptor set: /);
    expect(result.stderr.replace(set, "SET")).toContain(message);
  });

  it("a set holding the built-in google/protobuf/struct.proto as it is loads", async () => {
    const set = setOf("struct-copy.binpb", file_google_protobuf_struct.proto);
    const args = ["canon", "google.protobuf.Struct", "--to", "binary"];
    const builtIn = await run(args, '{"a":[1,"x"]}');
    expect(await run([...args, "--descriptor-set", set], '{"a":[1,"x"]}')).toMatchObject({
      status: 0,
      stdout: builtIn.stdout,
    });
  });

  it("a type defined in two files of the sets is inconsistent: exit 2", async () => {
    const a = { name: "a.proto", package: "acme", syntax: "proto3", messageType: [{ name: "M" }] };
    const set = setOf("twice.binpb", a, { ...a, name: "b.proto" });
    const result = await run(["check", "acme.M", "--descriptor-set", set], "{}");
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("acme.M is defined in a.proto");
  });

  // Issue 25: GREEN with the custom JSON name "BLUE" was written "BLUE" and read back as BLUE, so that canon
  // flipped the value on every pass. protoc refuses such an enum.
  it("an enum whose values' JSON names clash is a setup error: exit 2", async () => {
    const customName = create(EnumValueOptionsSchema);
    setExtension(customName, jsonEnumValueOption, create(JsonEnumValueOptionsSchema, { string: "BLUE" }));
    const set = setOf("clash.binpb", {
      name: "acme/color.proto",
      package: "acme",
      syntax: "proto3",
      enumType: [
        {
          name: "Color",
          value: [
            { name: "RED", number: 0 },
            { name: "GREEN", number: 1, options: customName },
            { name: "BLUE", number: 2 },
          ],
        },
      ],
      messageType: [{ name: "M", field: [{ name: "c", number: 1, type: 14, label: 1, typeName: ".acme.Color" }] }],
    });
    const result = await run(["canon", "acme.M", "--descriptor-set", set], '{"c":"GREEN"}');
    expect(result).toMatchObject({ status: 2, out: "" });
    expect(result.stderr).toMatch(/^wkt-json: invalid descriptor set: the JSON names of the enum acme\.Color /);
  });

  it("takes more than one set", async () => {
    const set = tmpFile("event2.binpb", eventSet("google/protobuf/timestamp.proto", ".google.protobuf.Timestamp"));
    const args = ["canon", "acme.Event", "--descriptor-set", descriptorSet, "--descriptor-set", set];
    expect(await run(args, '{"at": null}')).toMatchObject({ status: 0, out: "{}\n" });
    expect(
      (await run(["canon", proto3, "--descriptor-set", set, "--descriptor-set", descriptorSet], "{}")).status,
    ).toBe(0);
  });
});

describe.concurrent("schema", { timeout }, () => {
  it("writes jsonSchema's document of a well-known type, reading no input", async () => {
    const result = await run(["schema", "google.protobuf.Duration"], "ignored");
    expect(result.status).toBe(0);
    expect(result.stderr).toBe("");
    expect(result.out).toBe(JSON.stringify(jsonSchema(DurationSchema)) + "\n");
  });

  it("writes the input schema of a type from a descriptor set, indented, its extensions included", async () => {
    const result = await run([
      "schema",
      TestAllTypesProto2.typeName,
      "--descriptor-set",
      descriptorSet,
      "--io",
      "input",
      "--pretty",
      "2",
    ]);
    expect(result.status).toBe(0);
    expect(result.out).toBe(
      JSON.stringify(jsonSchema(TestAllTypesProto2, { io: "input", registry: testRegistry }), null, 2) + "\n",
    );
    expect(result.out).toContain('"[protobuf_test_messages.proto2.extension_int32]"');
  });

  it("passes the output options and the target through", async () => {
    const args = [
      "schema",
      proto3,
      ...withSet,
      "--use-proto-field-name",
      "--enum-as-integer",
      "--always-emit-implicit",
      "--target",
      "draft-07",
    ];
    const result = await run(args);
    expect(result.status).toBe(0);
    const expected = jsonSchema(TestAllTypesProto3, {
      useProtoFieldName: true,
      enumAsInteger: true,
      alwaysEmitImplicit: true,
      target: "draft-07",
      registry: testRegistry,
    });
    expect(JSON.parse(result.out)).toEqual(expected);
    const input = await run(["schema", proto3, ...withSet, "--io", "input", "--ignore-unknown-fields"]);
    expect(JSON.parse(input.out)).toEqual(
      jsonSchema(TestAllTypesProto3, { io: "input", ignoreUnknownFields: true, registry: testRegistry }),
    );
  });

  it("is listed in --help", async () => {
    expect((await run(["--help"])).out).toMatch(/^ {2}schema <type> /m);
  });
});

// proto2 required fields at depth (test/json-schema-required.proto): fromJson refuses JSON that leaves one unset
// unless allowPartial (issue 26, "JSON we accept must be writable"); the CLI follows, with --allow-partial.
describe.concurrent("proto2 required fields, --allow-partial and schema --create", { timeout }, () => {
  const registry = compileProto(fileURLToPath(new URL(".", import.meta.url)), "json-schema-required.proto");
  const files = [...registry.files].map((f) => f.proto);
  let set = "";
  const args = (...rest: string[]) => [...rest, "--descriptor-set", set];
  beforeAll(() => {
    set = tmpFile(
      "required.binpb",
      toBinary(FileDescriptorSetSchema, create(FileDescriptorSetSchema, { file: files })),
    );
  });
  const Node = registry.getMessage("req.v1.Node")!;

  it.each([
    ["canon", "{}", "$.reqId", 1, 1],
    ["check", '{\n  "reqId": 1,\n  "child": {"note": "x"}\n}', "$.child.reqId", 3, 12],
    ["check", '{"reqId": 1, "children": [{"reqId": 2}, {}]}', "$.children[1].reqId", 1, 41],
    ["check", '{"reqId": 1, "byKey": {"k": {"reqId": null}}}', "$.byKey.k.reqId", 1, 39], // at the null
  ])(
    "%s %s: exit 1, rule required at the missing field, located at the object (or the null)",
    async (cmd, input, path, line, column) => {
      const result = await run(args(cmd, "req.v1.Node"), input);
      expect(result).toMatchObject({ status: 1, out: "" });
      expect(parseError(result.stderr)).toEqual({ typeName: "req.v1.Node", path, rule: "required", line, column });
      expect(result.stderr).toContain(
        cmd === "check"
          ? "is missing (--allow-partial accepts it)"
          : "is missing; a message without it cannot be written",
      );
    },
  );

  it("check --allow-partial accepts it, as fromJsonString with allowPartial does", async () => {
    const input = '{"reqId": 1, "children": [{}], "byKey": {"k": {}}, "child": {"note": "x"}}';
    expect(() => fromJsonString(Node, input, { allowPartial: true })).not.toThrow();
    expect(await run(args("check", "req.v1.Node", "--allow-partial"), input)).toMatchObject({
      status: 0,
      out: "",
      stderr: "",
    });
    // Other errors are still errors.
    const bad = await run(args("check", "req.v1.Node", "--allow-partial"), '{"reqId": "x"}');
    expect(bad.status).toBe(1);
    expect(parseError(bad.stderr)).toMatchObject({ path: "$.reqId", rule: "syntax" });
  });

  it("canon with every required field given writes it", async () => {
    expect(await run(args("canon", "req.v1.Node"), '{"req_id": 0, "child": {"reqId": "2"}}')).toMatchObject({
      status: 0,
      out: '{"reqId":0,"child":{"reqId":2}}\n',
    });
  });

  it("binary input without a required field: exit 1, rule required (canon and check)", async () => {
    for (const cmd of ["canon", "check"]) {
      const result = await run(args(cmd, "req.v1.Node", "--from", "binary"), new Uint8Array());
      expect(result.status).toBe(1);
      expect(parseError(result.stderr)).toMatchObject({ path: "$.reqId", rule: "required" });
    }
  });

  it("schema --io input requires the required fields; --allow-partial does not; --create adds field behaviour", async () => {
    const input = await run(args("schema", "req.v1.Node", "--io", "input"));
    expect(input.status).toBe(0);
    expect(JSON.parse(input.out)).toEqual(jsonSchema(Node, { io: "input", registry }));
    const partial = await run(args("schema", "req.v1.Node", "--io", "input", "--allow-partial"));
    expect(JSON.parse(partial.out)).toEqual(jsonSchema(Node, { io: "input", allowPartial: true, registry }));
    expect(partial.out).not.toEqual(input.out);
    const create = await run(args("schema", "req.v1.Node", "--create", "--target", "draft-07"));
    expect(create.status).toBe(0);
    const expected = jsonSchema(Node, { create: true, target: "draft-07", registry });
    expect(JSON.parse(create.out)).toEqual(expected);
    // Leaf.title is REQUIRED (google.api.field_behavior): required in the create schema only.
    const leaf = (doc: Record<string, unknown>) =>
      (doc.definitions as Record<string, { required?: string[] }>)["req.v1.Leaf"]!;
    expect(leaf(expected).required).toContain("title");
    expect(leaf(jsonSchema(Node, { io: "input", target: "draft-07", registry })).required).not.toContain("title");
    const both = await run(args("schema", "req.v1.Node", "--create", "--io", "input", "--allow-partial"));
    expect(JSON.parse(both.out)).toEqual(jsonSchema(Node, { create: true, allowPartial: true, registry }));
  });

  it("the flags are in --help", async () => {
    const help = (await run(["--help"])).out;
    expect(help).toMatch(/^ {2}--allow-partial {2,}check: /m);
    expect(help).toMatch(/^ {2}--create {2,}schema: /m);
  });
});

describe.concurrent("usage errors exit 2, reading no input", { timeout }, () => {
  it.each([
    [[]],
    [["bogus", "google.protobuf.Timestamp"]],
    [["canon"]],
    [["canon", "google.protobuf.Timestamp", "extra"]],
    [["canon", "google.protobuf.Timestamp", "--bogus"]],
    [["canon", "google.protobuf.Timestamp", "-x"]],
    [["canon", "google.protobuf.Timestamp", "--pretty"]],
    [["canon", "google.protobuf.Timestamp", "--pretty", "11"]],
    [["canon", "google.protobuf.Timestamp", "--pretty", "-1"]],
    [["canon", "google.protobuf.Timestamp", "--pretty", "2", "--to", "binary"]],
    [["canon", "google.protobuf.Timestamp", "--from", "xml"]],
    [["canon", "google.protobuf.Timestamp", "--to", "yaml"]],
    [["canon", "google.protobuf.Timestamp", "--from", "binary", "--ignore-unknown-fields"]],
    [["canon", "google.protobuf.Timestamp", "--to", "binary", "--enum-as-integer"]],
    [["canon", "no.such.Type"]],
    [["canon", "google.protobuf.NullValue"]],
    [["canon", proto3]],
    [["canon", proto3, "--descriptor-set", "/nonexistent/set.binpb"]],
    [["canon", proto3, "--descriptor-set", fileURLToPath(import.meta.url)]],
    [["schema"]],
    [["schema", "no.such.Type"]],
    [["schema", "google.protobuf.Duration", "--from", "binary"]],
    [["schema", "google.protobuf.Duration", "--max-values", "10"]],
    [["schema", "google.protobuf.Duration", "--io", "both"]],
    [["schema", "google.protobuf.Duration", "--target", "openapi-3.0"]],
    [["schema", "google.protobuf.Duration", "--ignore-unknown-fields"]],
    [["schema", "google.protobuf.Duration", "--io", "input", "--use-proto-field-name"]],
    [["canon", "google.protobuf.Duration", "--io", "input"]],
    [["check", "google.protobuf.Duration", "--target", "draft-07"]],
    [["canon", "google.protobuf.Duration", "--allow-partial"]],
    [["check", "google.protobuf.Duration", "--from", "binary", "--allow-partial"]],
    [["schema", "google.protobuf.Duration", "--allow-partial"]],
    [["schema", "google.protobuf.Duration", "--create", "--io", "output"]],
    [["check", "google.protobuf.Duration", "--create"]],
    [["schema", "google.protobuf.Duration", "--create", "--enum-as-integer"]],
  ])("%j", async (args) => {
    const result = await run(args, '"2000-01-01T00:00:00Z"');
    expect(result.status).toBe(2);
    expect(result.out).toBe("");
    expect(result.stderr).toMatch(/^wkt-json: \S.*\n/);
  });

  it("points to --help for a bad command line (a process: exit 2)", async () => {
    expect(await runProcess(["canon", "google.protobuf.Timestamp", "--bogus"])).toMatchObject({
      status: 2,
      stderr: "wkt-json: unknown option '--bogus'\nTry 'wkt-json --help' for more information.\n",
    });
  });

  it.each<[string[], string]>([
    [["--prety", "2"], "unknown option '--prety' (did you mean --pretty?)"],
    [["--prety=2"], "unknown option '--prety' (did you mean --pretty?)"],
    [["--max-lenght", "10"], "unknown option '--max-lenght' (did you mean --max-length?)"],
    [["--maxdepth", "10"], "unknown option '--maxdepth' (did you mean --max-depth?)"],
    [["--Pretty", "2"], "unknown option '--Pretty' (did you mean --pretty?)"],
    [["--bogus"], "unknown option '--bogus'"],
    [["-x"], "unknown option '-x'"],
    [["--pretty"], "--pretty needs a value"],
    [["--max-depth", "-1"], "--max-depth needs a value (write --max-depth=VALUE for one that starts with '-')"],
    [["--help=1"], "--help takes no value"],
  ])("%j: a message in the style of the others, with the closest option", async (flags, message) => {
    const result = await run(["canon", "google.protobuf.Timestamp", ...flags]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`wkt-json: ${message}\nTry 'wkt-json --help' for more information.\n`);
  });
});

describe.concurrent("streams: --from and --to ndjson, binary-delimited", { timeout }, () => {
  const lines = [
    '"2015-07-06T15:33:38-07:00"\r', // CRLF
    "",
    '"x"', // 3: syntax
    '"0000-12-31T23:59:59Z"', // 4: range
    '"1970-01-01T00:00:00Z"        ', // 5: 30 code units, past --max-length 29
    '"1970-01-01T00:00:00.5Z"', // 6, and the last without a newline
  ].join("\n");

  it("ndjson: each line canonical; a bad one named by its line; --skip-invalid goes on, counts, exit 1", async () => {
    const args = ["canon", "google.protobuf.Timestamp", "--from", "ndjson", "--max-length", "29"];
    const [stop, skip] = await Promise.all([run(args, lines), run([...args, "--skip-invalid"], lines)]);
    expect(stop).toMatchObject({ status: 1, out: '"2015-07-06T22:33:38Z"\n' });
    expect(stop.stderr).toMatch(/^wkt-json: line 3: google\.protobuf\.Timestamp at \$ \(column 1\): .* \[syntax\]\n$/);
    expect(skip.status).toBe(1);
    expect(skip.out).toBe('"2015-07-06T22:33:38Z"\n"1970-01-01T00:00:00.500Z"\n');
    const errors = skip.stderr.split("\n");
    expect(errors.map((e) => /^wkt-json: (line \d+): .*\[([a-z-]+)\]$/.exec(e)?.slice(1))).toEqual([
      ["line 3", "syntax"],
      ["line 4", "range"],
      ["line 5", "size"],
      undefined,
      undefined,
    ]);
    expect(errors[2]).toContain("--max-length");
    expect(errors.slice(3)).toEqual(["wkt-json: 3 of 6 lines invalid", ""]);
  });

  it("binary-delimited: protobuf-es's size-delimited bytes, read back; a stream cut short names its record", async () => {
    const durations = Array.from({ length: 20_000 }, (_, i) => `"${i}.500s"`).join("\n") + "\n";
    const toBin = ["canon", "google.protobuf.Duration", "--from", "ndjson", "--to", "binary-delimited"];
    const bin = await runProcess(toBin, durations);
    expect(bin).toMatchObject({ status: 0, stderr: "" });
    const first = sizeDelimitedEncode(DurationSchema, create(DurationSchema, { seconds: 0n, nanos: 500_000_000 }));
    expect(new Uint8Array(bin.stdout.subarray(0, first.length))).toEqual(first);
    const fromBin = ["canon", "google.protobuf.Duration", "--from", "binary-delimited"];
    const [back, cutShort] = await Promise.all([
      runProcess(fromBin, bin.stdout),
      runProcess([...fromBin, "--skip-invalid"], bin.stdout.subarray(0, bin.stdout.length - 1)),
    ]);
    expect(back).toMatchObject({ status: 0, out: durations, stderr: "" });
    expect(cutShort.status).toBe(1);
    expect(cutShort.out.split("\n")).toHaveLength(20_000); // 19,999 records and the empty rest
    expect(cutShort.stderr).toBe(
      "wkt-json: record 20000: google.protobuf.Duration at $: the stream ends inside the record: its size or its " +
        "bytes are cut short [binary]\nwkt-json: 1 of 20,000 records invalid, and the stream could not be read past " +
        "record 20,000\n",
    );
  });

  it("a reader that goes away (`| head -c 10`) ends the command quietly, exit 0 (a process)", async () => {
    // 220 KB of output, more than a pipe holds: the command is still writing when the reader closes its end.
    const durations = Array.from({ length: 20_000 }, (_, i) => `"${i}.500s"`).join("\n");
    const child = spawn(process.execPath, [cli, "canon", "google.protobuf.Duration", "--from", "ndjson"], {
      cwd: root,
      stdio: ["pipe", "pipe", "pipe"],
      timeout: 60_000,
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.stdout.once("data", () => child.stdout.destroy());
    child.stdin.on("error", () => {});
    child.stdin.end(durations);
    const [status, signal] = (await once(child, "close")) as [number | null, NodeJS.Signals | null];
    expect({ status, signal, stderr }).toEqual({ status: 0, signal: null, stderr: "" });
  });

  it("a stream is written as a stream; --skip-invalid and --pretty are refused where they do not apply", async () => {
    const cases: [string[], string][] = [
      [["--from", "ndjson", "--to", "json"], "--to json writes one message"],
      [["--to", "binary-delimited"], "--to binary-delimited writes a stream"],
      [["--skip-invalid"], "--skip-invalid applies to a stream only"],
      [["--from", "ndjson", "--pretty", "2"], "--pretty cannot apply to ndjson"],
      [["--from", "ndjson", "--skip-invaild"], "unknown option '--skip-invaild' (did you mean --skip-invalid?)"],
    ];
    const results = await Promise.all(cases.map(([flags]) => run(["canon", "google.protobuf.Timestamp", ...flags])));
    results.forEach((r, i) => {
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(new RegExp(`^wkt-json: ${cases[i]![1].replace(/[()?]/g, "\\$&")}`));
    });
    const help = await run(["--help"]);
    for (const text of ["--from json|binary|ndjson|binary-delimited", "--skip-invalid", "wkt-json: line 7:"]) {
      expect(help.out).toContain(text);
    }
  });
});

describe("closestOption and parseArgsProblem", () => {
  const names = ["pretty", "to", "from", "max-length", "max-depth", "max-values", "io", "descriptor-set"];
  it.each<[string, string | undefined]>([
    ["prety", "pretty"], // a letter left out
    ["prettty", "pretty"], // one too many
    ["prtety", "pretty"], // two swapped: one step
    ["PRETTY", "pretty"], // case
    ["max-lenght", "max-length"],
    ["max-dept", "max-depth"],
    ["descriptor-sets", "descriptor-set"],
    ["pr", undefined], // too far from anything for its length
    ["bogus", undefined],
    ["", undefined],
    ["x".repeat(100_000), undefined], // given up on at once
  ])("%s -> %s", (typed, closest) => {
    expect(closestOption(typed, names)).toBe(closest);
  });

  it("passes on what it does not know, in the same style", () => {
    expect(parseArgsProblem(new Error("Something went wrong."), names)).toBe("something went wrong");
  });
});

describe("shortPath: long paths in messages", () => {
  it("keeps a path up to 120 code units whole", () => {
    const path = "$.a" + "[0]".repeat(39);
    expect(path.length).toBe(120);
    expect(shortPath(path)).toBe(path);
  });

  it("shortens a 200-segment path around … to at most 120 code units, keeping the root side and the innermost", () => {
    const path = "$.optionalValue" + "[0]".repeat(200);
    const shown = shortPath(path);
    expect(shown.length).toBeLessThanOrEqual(120);
    expect(shown).toMatch(/^\$\.optionalValue(\[0\])+…(\[0\])+$/);
  });

  it("any path: whole when short; else at most 120 code units, from $, to its last segment", () => {
    const segment = fc.oneof(
      fc.nat({ max: 1000 }),
      fc.stringMatching(/^[a-z_][a-zA-Z0-9_]{0,60}$/),
      fc.string({ maxLength: 60 }),
    );
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 300 }), (segments) => {
        const path = pathJoin("$", ...segments);
        const shown = shortPath(path);
        if (path.length <= 120) {
          expect(shown).toBe(path);
        } else {
          expect(shown.length).toBeLessThanOrEqual(120);
          expect(shown.startsWith("$")).toBe(true);
          const last = pathJoin("$", segments[segments.length - 1]!).slice(1);
          if (last.length <= 40) expect(shown.endsWith(last)).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("cuts a long key to its start, and keeps the segments after it", () => {
    const shown = shortPath(`$.m["${"k".repeat(1_000_000)}"].a[2]`);
    expect(shown).toBe(`$.m["${"k".repeat(38)}…"].a[2]`);
    expect(shortPath("$." + "k".repeat(200))).toBe("$." + "k".repeat(39) + "…");
  });
});

describe.concurrent("nesting: --max-depth, one number in the message, long paths shortened", { timeout }, () => {
  it("1,000,000 nested '[' names the one limit the user can change", async () => {
    const result = await run(["check", "google.protobuf.Value"], "[".repeat(1_000_000));
    expect(result.status).toBe(1);
    expect(parseError(result.stderr)).toMatchObject({ rule: "depth" });
    expect(result.stderr).toContain("deeper than --max-depth (100) allows");
    // One number in the detail (line and column aside): the limit, not the parser's own bound of 202.
    const detail = result.stderr.slice(result.stderr.indexOf("): ") + 3);
    expect(detail.match(/\d+/g)).toEqual(["100"]);
    expect((await run(["check", "google.protobuf.Value", "--max-depth", "7"], "[".repeat(1_000_000))).stderr).toContain(
      "deeper than --max-depth (7) allows",
    );
  });

  it("--max-depth N sets the decoder's limit: N levels read, N + 1 refused (rule depth, at the level)", async () => {
    const nested = (n: number) => '{"a":'.repeat(n - 1) + "{}" + "}".repeat(n - 1); // n Struct levels
    expect(await run(["canon", "google.protobuf.Struct", "--max-depth", "3"], nested(3))).toMatchObject({
      status: 0,
      out: '{"a":{"a":{}}}\n',
    });
    const deeper = await run(["canon", "google.protobuf.Struct", "--max-depth", "3"], nested(4));
    expect(deeper.status).toBe(1);
    expect(parseError(deeper.stderr)).toMatchObject({ rule: "depth", path: "$.a.a.a" });
    expect(deeper.stderr).toContain("--max-depth (3)");
    expect(deeper.stderr).not.toContain("maxDepth");
    // Deeper than the default of 100, with a higher limit.
    const lists = "[".repeat(150) + "]".repeat(150);
    expect((await run(["check", "google.protobuf.Value"], lists)).status).toBe(1);
    expect(await run(["check", "google.protobuf.Value", "--max-depth", "200"], lists)).toMatchObject({
      status: 0,
      stderr: "",
    });
  });

  it("--max-depth also bounds binary input on its way out", async () => {
    const value = fromJsonString(ValueSchema, "[".repeat(10) + "]".repeat(10));
    const bytes = toBinary(ValueSchema, value);
    expect((await run(["canon", "google.protobuf.Value", "--from", "binary"], bytes)).status).toBe(0);
    const shallow = await run(["canon", "google.protobuf.Value", "--from", "binary", "--max-depth", "5"], bytes);
    expect(shallow.status).toBe(1);
    expect(parseError(shallow.stderr).rule).toBe("depth");
  });

  it.each([["0"], ["-1"], ["10001"], ["1.5"], ["x"], [""], ["1e3"]])(
    "--max-depth %j: usage error, exit 2",
    async (n) => {
      const result = await run(["check", "google.protobuf.Value", `--max-depth=${n}`], "[]");
      expect(result.status).toBe(2);
      expect(result.stderr).toMatch(/^wkt-json: --max-depth must be a whole number from 1 to 10,000, got '.*'\n/);
    },
  );

  it("--max-depth applies to canon and check only", async () => {
    const result = await run(["schema", "google.protobuf.Value", "--max-depth", "5"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^wkt-json: --max-depth applies to canon and check only/);
  });

  it("--max-depth 10000 (the most) reads lists nested 9,000 deep, or stops with rule depth: never a crash", async () => {
    const lists = "[".repeat(9_000) + "]".repeat(9_000);
    const result = await runProcess(["canon", "google.protobuf.Value", "--max-depth", "10000"], lists);
    if (result.status === 0) expect(result.out).toBe(lists + "\n");
    else expect(parseError(result.stderr).rule).toBe("depth");
  });

  it("prints a 200-segment path shortened, as shortPath does", async () => {
    const text = "[".repeat(200) + '"\\ud800"' + "]".repeat(200); // a lone surrogate 200 lists deep
    const result = await run(["check", "google.protobuf.Value", "--max-depth", "300"], text);
    expect(result.status).toBe(1);
    const e = catchWkt(() => fromJsonString(ValueSchema, text, { maxDepth: 300 }));
    expect(e.jsonPath).toBe("$" + "[0]".repeat(200));
    const shown = parseError(result.stderr);
    expect(shown).toMatchObject({ rule: e.rule, path: shortPath(e.jsonPath), line: e.line, column: e.column });
    expect(shown.path.length).toBeLessThanOrEqual(120);
    expect(shown.path).toContain("…");
  });

  it("is in --help", async () => {
    expect((await run(["--help"])).out).toMatch(/^ {2}--max-depth N {2,}the deepest nesting/m);
  });
});

describe("the progress line of a stream (in-process, with its terminal and clock given)", () => {
  const run = (isTTY: boolean | undefined) => {
    const out: string[] = [];
    let clock = 1_000;
    const progress = progressLine("line", { isTTY, write: (t) => out.push(t), now: () => clock });
    const tick = (ms: number) => (clock += ms);
    return { out, progress, tick };
  };

  it("on a terminal: redrawn in place at most every 200 ms, cleared before an error line and at the end", () => {
    const { out, progress, tick } = run(true);
    progress.update(1, 0);
    expect(out).toEqual([]); // not before 200 ms
    tick(progressEveryMs);
    progress.update(12_345, 0);
    tick(progressEveryMs - 1);
    progress.update(12_346, 0); // too soon: not drawn
    tick(1);
    progress.update(20_000, 2);
    expect(out).toEqual(["\r\x1b[Kwkt-json: 12,345 lines", "\r\x1b[Kwkt-json: 20,000 lines, 2 invalid"]);
    progress.clear();
    progress.clear(); // once
    expect(out.slice(2)).toEqual(["\r\x1b[K"]);
  });

  it("not on a terminal (a file, a pipe): nothing, so that stderr holds the errors only", () => {
    for (const isTTY of [false, undefined]) {
      const { out, progress, tick } = run(isTTY);
      tick(10_000);
      progress.update(5, 1);
      progress.clear();
      expect(out).toEqual([]);
    }
  });
});
