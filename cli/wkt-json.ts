/**
 * The `wkt-json` command: canonical proto3 JSON on the command line. Reads one message from stdin (proto3
 * JSON, or the binary encoding with `--from binary`), checks it with this library's strict decoder, and
 * writes it back as canonical JSON (or binary with `--to binary`); or a stream of them, one at a time in flat
 * memory (`--from ndjson`, `--from binary-delimited`). {@link main} runs it on the streams it is given;
 * cli/bin.ts, bundled by tsup into dist/cli.js (the package's `bin`), runs it on the process's own, so that
 * tests can run the command in-process too. Everything Node-specific lives under cli/, never in src/.
 *
 * Exit status: 0 done, 1 the input is invalid (the error is on stderr), 2 a usage or setup error (bad
 * arguments, an unknown type, an unreadable descriptor set), 3 an internal error (a bug: please report it).
 *
 * @module
 */
import { once } from "node:events";
import { readFileSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import { parseArgs } from "node:util";
import {
  create,
  createFileRegistry,
  fromBinary,
  toBinary,
  type DescFile,
  type DescMessage,
  type FileRegistry,
} from "@bufbuild/protobuf";
import {
  FileDescriptorSetSchema,
  file_google_protobuf_any,
  file_google_protobuf_api,
  file_google_protobuf_compiler_plugin,
  file_google_protobuf_cpp_features,
  file_google_protobuf_descriptor,
  file_google_protobuf_duration,
  file_google_protobuf_empty,
  file_google_protobuf_field_mask,
  file_google_protobuf_go_features,
  file_google_protobuf_java_features,
  file_google_protobuf_source_context,
  file_google_protobuf_struct,
  file_google_protobuf_timestamp,
  file_google_protobuf_type,
  file_google_protobuf_wrappers,
  type DescriptorProto,
  type FileDescriptorProto,
} from "@bufbuild/protobuf/wkt";
import { BinaryWriter } from "@bufbuild/protobuf/wire";
import { textParseOptions } from "../src/codec/read-context.js";
import {
  fromJsonString,
  isWktJsonError,
  jsonSchema,
  toJsonString,
  WktJsonError,
  type JsonSchemaOptions,
} from "../src/index.js";
import { scanBinary, scanJson } from "./input-scan.js";
import { parseArgsProblem } from "./usage.js";
import { progressLine } from "./progress.js";
import { shortPath } from "../src/short-path.js";
import { textDepthDetail } from "../src/codec/depth-errors.js";
import { enumJsonNameClash } from "../src/wkt/enum.js";
import { wktOwnForm, wktRedefinition } from "../src/wkt/registry.js";
import {
  cliMaxLengthDefault,
  cliMaxValuesDefault,
  cliMaxValuesPerByte,
  defaultMaxDepth,
  formatBound,
} from "../src/limits.js";
import { workMeter } from "../src/internal/meter.js";
import { ndjsonLines } from "../src/stream/ndjson-lines.js";
import { sizeDelimitedRecords } from "../src/stream/size-delimited-records.js";

/**
 * Where the command reads and writes: the process's stdin, stdout and stderr (cli/bin.ts), or streams of a
 * test's own.
 */
export interface CliIo {
  readonly stdin: Readable;
  readonly stdout: Writable;
  /** On a terminal (`isTTY`), a stream's progress is shown there. */
  readonly stderr: { write(text: string): unknown; readonly isTTY?: boolean };
}

const exitInvalid = 1;
const exitUsage = 2;
const exitInternal = 3;

const usage = `Usage: wkt-json <command> <type> [options] < input

Commands:
  canon <type>   read one message on stdin (or a stream of them: --from ndjson), write its canonical proto3
                 JSON on stdout
  check <type>   read one message on stdin (or a stream) and only validate it: exit 0 silently, or 1 with
                 the error
  schema <type>  write the JSON Schema (2020-12) of the type's proto3 JSON on stdout; reads no input

<type> is a fully-qualified message name. The well-known types (google.protobuf.Timestamp, Duration,
Struct, Any, FieldMask, the wrappers, ..., and descriptor.proto's messages) are built in; other types
come from --descriptor-set.

Options:
  --descriptor-set FILE     a binary google.protobuf.FileDescriptorSet with your types, as written by
                            'buf build -o FILE' or 'protoc --include_imports --descriptor_set_out=FILE';
                            may be repeated
  --from json|binary|ndjson|binary-delimited
                            the input encoding (default json). ndjson: a stream of messages, one proto3
                            JSON text a line (blank lines skipped, CRLF accepted); binary-delimited: a
                            stream of binary messages, each after its size as a varint (protobuf-es's
                            sizeDelimitedEncode, Java's writeDelimitedTo). A stream is read, checked and
                            written one message at a time, in flat memory whatever its length
  --to json|binary|ndjson|binary-delimited
                            the output encoding (default json; ndjson for a stream); binary is written
                            raw, with no newline. A stream is written as a stream (ndjson or
                            binary-delimited), one message is not
  --skip-invalid            ndjson, binary-delimited: report each invalid line or record on stderr and go
                            on with the next, leaving it out of the output; at the end, the count of
                            invalid ones, and exit 1 if there were any. Without it, the first stops the
                            command (exit 1). On a terminal, stderr shows the progress
  --pretty N                indent JSON output by N spaces, 0 to 10 (default 0: one line)
  --ignore-unknown-fields   skip JSON members that name no field, and enum names the enum lacks
  --allow-partial           check: accept JSON that leaves proto2 required fields unset (by default it is
                            invalid, exit 1, rule required); canon refuses it, as such a message cannot be
                            written. schema --io input: the schema of what check --allow-partial accepts
  --use-proto-field-name    write proto field names (optional_int32) instead of JSON names (optionalInt32)
  --enum-as-integer         write enum values as numbers
  --always-emit-implicit    also write fields that hold their default value
  --max-length BYTES        the most bytes read from stdin (default 67108864, 64 MiB); a longer input
                            is invalid (exit 1, rule size), and is not read past the limit. In a stream:
                            the longest line (in UTF-16 code units, at most its bytes) or record (bytes);
                            a longer one is invalid, and skipped without being held
  --max-depth N             the deepest nesting of messages, Struct, ListValue and Any values in the
                            input and the output, 1 to 10000 (default 100); deeper is invalid (exit 1,
                            rule depth)
  --max-values N            the most values the input may hold, counted before decoding: in JSON
                            objects, arrays, strings and member names, numbers, true, false, null; in
                            binary messages, map entries, fields and packed elements (an Any's value and
                            extensions included). Default: 2000000 plus 0.1 per byte of input. More is
                            invalid (exit 1, rule size)
  --io output|input         schema: the canonical JSON canon writes (default), or everything check
                            accepts (both field names, numbers in strings, enum numbers, null; proto2
                            required fields required)
  --create                  schema: the input schema of a create request's body (AIP-133): fields marked
                            REQUIRED by google.api.field_behavior are required, OUTPUT_ONLY ones readOnly.
                            Implies --io input
  --target draft-2020-12|draft-07
                            schema: the JSON Schema version (default draft-2020-12, as OpenAPI 3.1)
  -h, --help                show this help
  -v, --version             show the version

Errors name the type, the JSON path, the line and column and the rule broken:
  wkt-json: google.protobuf.Timestamp at $ (line 1, column 1): ... [range]
In a stream, the line (or the record, counted from 1) comes first, the column is within the line:
  wkt-json: line 7: acme.v1.Order at $.createTime (column 15): ... [range]

Exit status: 0 done, 1 invalid input, 2 usage or setup error, 3 internal error.

Examples:
  echo '"2015-07-06T15:33:38-07:00"' | wkt-json canon google.protobuf.Timestamp
    => "2015-07-06T22:33:38Z"
  wkt-json canon acme.v1.Order --descriptor-set acme.binpb --pretty 2 < order.json
  wkt-json check acme.v1.Order --descriptor-set acme.binpb < order.json && echo valid
  wkt-json canon acme.v1.Order --descriptor-set acme.binpb --to binary < order.json > order.bin
  wkt-json canon acme.v1.Order --descriptor-set acme.binpb --from binary < order.bin
  wkt-json canon acme.v1.Order --descriptor-set acme.binpb --from ndjson --skip-invalid < orders.ndjson
  wkt-json canon acme.v1.Order --descriptor-set acme.binpb --from ndjson --to binary-delimited < orders.ndjson
  wkt-json schema acme.v1.Order --descriptor-set acme.binpb --io input --pretty 2 > order.schema.json
  wkt-json schema acme.v1.Order --descriptor-set acme.binpb --create > create-order.schema.json
`;

/** A bad command line (reported with a pointer to --help) or setup (without): exit 2. */
class UsageError extends Error {
  constructor(
    message: string,
    readonly pointToHelp = true,
  ) {
    super(message);
  }
}

/** An encoding of --from and --to: one message, or a stream of them. */
type Encoding = "json" | "binary" | "ndjson" | "binary-delimited";

/** The encoding of one message of a stream encoding (and of a message's own). */
const messageEncoding = { json: "json", binary: "binary", ndjson: "json", "binary-delimited": "binary" } as const;

interface Options {
  readonly command: "canon" | "check" | "schema";
  readonly typeName: string;
  readonly descriptorSets: readonly string[];
  readonly from: Encoding;
  readonly to: Encoding;
  /** ndjson, binary-delimited: report each bad line or record and go on (--skip-invalid). */
  readonly skipInvalid: boolean;
  readonly pretty: number;
  readonly ignoreUnknownFields: boolean;
  /** check, schema --io input: proto2 required fields may be left unset (the reader's allowPartial). */
  readonly allowPartial: boolean;
  readonly useProtoFieldName: boolean;
  readonly enumAsInteger: boolean;
  readonly alwaysEmitImplicit: boolean;
  readonly maxLength: number;
  /** The nesting limit of the decoder and the writer (their `maxDepth`). */
  readonly maxDepth: number;
  /** The --max-values given, or undefined for the default, which follows the input's length. */
  readonly maxValues: number | undefined;
  /** schema: which document, and in which JSON Schema version. */
  readonly io: "input" | "output";
  readonly target: "draft-2020-12" | "draft-07";
  /** schema: a create request's body (jsonSchema's `create`), which is an input. */
  readonly create: boolean;
}

/**
 * The largest `--max-length`: the longest string V8 holds (2^29 - 24 UTF-16 code units), so that a text within
 * the limit can always be decoded into one.
 */
const maxLengthCeiling = 2 ** 29 - 24;

/**
 * The largest `--max-depth`. Deeper nesting than the platform's call stack takes ends in rule `depth` anyway (the
 * library turns a stack overflow into it); the bound keeps the pre-scan's cut (twice the depth) and the text
 * handed to the decoder small.
 */
const maxDepthCeiling = 10_000;

/** The command line, parsed: a conversion to run, or a request for the help or the version. */
type Parsed = { kind: "run"; options: Options } | { kind: "help" } | { kind: "version" };

/** The options of the command line, as `parseArgs` takes them. */
const optionSpec = {
  "descriptor-set": { type: "string", multiple: true },
  from: { type: "string" },
  to: { type: "string" },
  pretty: { type: "string" },
  "ignore-unknown-fields": { type: "boolean" },
  "allow-partial": { type: "boolean" },
  create: { type: "boolean" },
  "use-proto-field-name": { type: "boolean" },
  "enum-as-integer": { type: "boolean" },
  "always-emit-implicit": { type: "boolean" },
  "skip-invalid": { type: "boolean" },
  "max-length": { type: "string" },
  "max-depth": { type: "string" },
  "max-values": { type: "string" },
  io: { type: "string" },
  target: { type: "string" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
} as const;

function parseCommandLine(args: string[]): Parsed {
  let parsed;
  try {
    parsed = parseArgs({ args, strict: true, allowPositionals: true, options: optionSpec });
  } catch (e) {
    throw new UsageError(parseArgsProblem(e, Object.keys(optionSpec)));
  }
  const { values, positionals } = parsed;
  if (values.help === true) return { kind: "help" };
  if (values.version === true) return { kind: "version" };

  const [command, typeName, ...extra] = positionals;
  if (command === undefined) throw new UsageError("no command given");
  if (command !== "canon" && command !== "check" && command !== "schema")
    throw new UsageError(`unknown command '${command}'`);
  if (typeName === undefined)
    throw new UsageError(`'${command}' needs a message type, such as google.protobuf.Timestamp`);
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);

  const encoding = (flag: string, value: string): Encoding => {
    if (value === "json" || value === "binary" || value === "ndjson" || value === "binary-delimited") return value;
    throw new UsageError(`${flag} must be json, binary, ndjson or binary-delimited, got '${value}'`);
  };
  const from = encoding("--from", values.from ?? "json");
  const stream = from === "ndjson" || from === "binary-delimited";
  const to = encoding("--to", values.to ?? (stream ? "ndjson" : "json"));
  if (stream !== (to === "ndjson" || to === "binary-delimited")) {
    throw new UsageError(
      stream
        ? `--to ${to} writes one message: a stream (--from ${from}) is written as ndjson or binary-delimited`
        : `--to ${to} writes a stream: give --from ndjson or binary-delimited, or --to json or binary for one message`,
    );
  }
  if (values["skip-invalid"] === true && !stream) {
    throw new UsageError("--skip-invalid applies to a stream only (--from ndjson or binary-delimited)");
  }

  let pretty = 0;
  if (values.pretty !== undefined) {
    if (to === "ndjson") throw new UsageError("--pretty cannot apply to ndjson: each message is one line");
    if (to !== "json") throw new UsageError("--pretty applies to JSON output only");
    if (!/^(?:10|[0-9])$/.test(values.pretty)) throw new UsageError(`--pretty must be 0 to 10, got '${values.pretty}'`);
    pretty = Number(values.pretty);
  }
  for (const flag of ["ignore-unknown-fields", "allow-partial"] as const) {
    if (values[flag] === true && messageEncoding[from] !== "json")
      throw new UsageError(`--${flag} applies to JSON input only`);
  }
  // canon writes the message, and toJson and toBinary refuse one that leaves a required field unset.
  if (command === "canon" && values["allow-partial"] === true) {
    throw new UsageError("--allow-partial applies to check and schema only: canon cannot write a partial message");
  }
  for (const flag of ["use-proto-field-name", "enum-as-integer", "always-emit-implicit"] as const) {
    if (values[flag] === true && messageEncoding[to] !== "json")
      throw new UsageError(`--${flag} applies to JSON output only`);
  }
  const count = (flag: string, value: string | undefined, fallback: number, ceiling: number, floor = 0): number => {
    if (value === undefined) return fallback;
    if (!/^[0-9]+$/.test(value) || Number(value) > ceiling || Number(value) < floor) {
      throw new UsageError(`${flag} must be a whole number from ${floor} to ${formatBound(ceiling)}, got '${value}'`);
    }
    return Number(value);
  };
  if (command === "schema") {
    for (const flag of ["from", "to", "skip-invalid", "max-length", "max-depth", "max-values"] as const) {
      if (values[flag] !== undefined)
        throw new UsageError(`--${flag} applies to canon and check only: schema reads no input`);
    }
  } else {
    for (const flag of ["io", "target", "create"] as const) {
      if (values[flag] !== undefined) throw new UsageError(`--${flag} applies to schema only`);
    }
  }
  const create = values.create === true;
  const io = values.io ?? (create ? "input" : "output");
  if (io !== "input" && io !== "output") throw new UsageError(`--io must be input or output, got '${io}'`);
  if (create && io !== "input")
    throw new UsageError("--create gives an input schema (a request body): not --io output");
  const target = values.target ?? "draft-2020-12";
  if (target !== "draft-2020-12" && target !== "draft-07")
    throw new UsageError(`--target must be draft-2020-12 or draft-07, got '${target}'`);
  for (const flag of ["ignore-unknown-fields", "allow-partial"] as const) {
    if (command === "schema" && io === "output" && values[flag] === true) {
      throw new UsageError(`--${flag} applies to the input schema only (--io input)`);
    }
  }
  if (command === "schema" && io === "input") {
    for (const flag of ["use-proto-field-name", "enum-as-integer", "always-emit-implicit"] as const) {
      if (values[flag] === true) throw new UsageError(`--${flag} applies to the output schema only (--io output)`);
    }
  }
  const maxLength = count("--max-length", values["max-length"], cliMaxLengthDefault, maxLengthCeiling);
  const maxDepth = count("--max-depth", values["max-depth"], defaultMaxDepth, maxDepthCeiling, 1);
  const maxValues =
    values["max-values"] === undefined
      ? undefined
      : count("--max-values", values["max-values"], 0, Number.MAX_SAFE_INTEGER);

  return {
    kind: "run",
    options: {
      command,
      typeName: typeName.startsWith(".") ? typeName.slice(1) : typeName,
      descriptorSets: values["descriptor-set"] ?? [],
      from,
      to,
      skipInvalid: values["skip-invalid"] === true,
      pretty,
      ignoreUnknownFields: values["ignore-unknown-fields"] === true,
      allowPartial: values["allow-partial"] === true,
      useProtoFieldName: values["use-proto-field-name"] === true,
      enumAsInteger: values["enum-as-integer"] === true,
      alwaysEmitImplicit: values["always-emit-implicit"] === true,
      maxLength,
      maxDepth,
      maxValues,
      io,
      target,
      create,
    },
  };
}

/** The files of the well-known types, and the rest that @bufbuild/protobuf ships, available without a set. */
const builtinFiles: readonly DescFile[] = [
  file_google_protobuf_any,
  file_google_protobuf_source_context,
  file_google_protobuf_type,
  file_google_protobuf_api,
  file_google_protobuf_duration,
  file_google_protobuf_empty,
  file_google_protobuf_field_mask,
  file_google_protobuf_struct,
  file_google_protobuf_timestamp,
  file_google_protobuf_wrappers,
  file_google_protobuf_descriptor,
  file_google_protobuf_compiler_plugin,
  file_google_protobuf_cpp_features,
  file_google_protobuf_java_features,
  file_google_protobuf_go_features,
];

/**
 * Builds one registry from the descriptor sets and the built-in files. A file given in a set replaces the
 * built-in file of the same name; a set written without --include_imports works as long as what it lacks
 * is built in. Files are added imports first, whatever their order in the sets. An inconsistent set (a name
 * defined twice, a well-known type redefined, an enum whose JSON names clash) is a setup error.
 */
function loadRegistry(paths: readonly string[]): FileRegistry {
  const files = new Map<string, FileDescriptorProto>();
  for (const file of builtinFiles) files.set(file.proto.name, file.proto);
  const fromSet = new Map<string, string>(); // file name -> the set it came from, for error messages
  for (const path of paths) {
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(path);
    } catch (e) {
      throw new UsageError(`cannot read descriptor set ${path}: ${errorText(e)}`, false);
    }
    let set;
    try {
      set = fromBinary(FileDescriptorSetSchema, bytes);
    } catch (e) {
      throw new UsageError(`${path} is not a binary FileDescriptorSet: ${errorText(e)}`, false);
    }
    if (set.file.length === 0)
      throw new UsageError(`${path} is not a binary FileDescriptorSet: it holds no files`, false);
    for (const file of set.file) {
      if (fromSet.has(file.name)) continue; // the first set that has a file wins
      files.set(file.name, file);
      fromSet.set(file.name, path);
    }
  }

  // Imports first, by a walk with a stack of its own: an import chain as long as the set (20,000 files) would
  // overflow the call stack of a recursive one.
  const ordered: FileDescriptorProto[] = [];
  const state = new Map<string, "adding" | "added">();
  let chain = 0; // the longest import chain seen, for the error message below
  for (const root of files.values()) {
    if (state.has(root.name)) continue;
    state.set(root.name, "adding");
    const stack: { file: FileDescriptorProto; next: number }[] = [{ file: root, next: 0 }];
    while (stack.length > 0) {
      chain = Math.max(chain, stack.length);
      const top = stack[stack.length - 1]!;
      if (top.next === top.file.dependency.length) {
        stack.pop();
        state.set(top.file.name, "added");
        ordered.push(top.file);
        continue;
      }
      const dep = top.file.dependency[top.next++]!;
      const depFile = files.get(dep);
      if (depFile === undefined) {
        throw new UsageError(
          `${fromSet.get(top.file.name) ?? "built-in"}: ${top.file.name} imports ${dep}, which the descriptor set lacks ` +
            "(write it with --include_imports)",
          false,
        );
      }
      const seen = state.get(depFile.name);
      if (seen === "added") continue;
      if (seen === "adding") throw new UsageError(`${depFile.name} imports itself (an import cycle)`, false);
      state.set(depFile.name, "adding");
      stack.push({ file: depFile, next: 0 });
    }
  }
  checkNamesUnique(ordered, fromSet);
  let registry: FileRegistry;
  try {
    registry = createFileRegistry(create(FileDescriptorSetSchema, { file: ordered }));
  } catch (e) {
    if (e instanceof RangeError) {
      // A stack overflow in @bufbuild/protobuf (none is known since the files go in imports first, and nested
      // types are limited to 100 levels by fromBinary above): a setup error all the same, never exit 3.
      throw new UsageError(
        `invalid descriptor set: too deeply nested to load (${errorText(e)}); its longest import chain is ${formatBound(chain)} files`,
        false,
      );
    }
    throw new UsageError(`invalid descriptor set: ${errorText(e)}`, false);
  }
  checkRegistry(registry, fromSet);
  return registry;
}

/**
 * Refuses a set where two files define one full name (protoc refuses it: "already defined"). protobuf-es lets
 * the file added last win, so that a `google.protobuf.Struct` of other fields in a file of another name would
 * replace the built-in one unseen.
 */
function checkNamesUnique(files: readonly FileDescriptorProto[], fromSet: ReadonlyMap<string, string>): void {
  const definedIn = new Map<string, string>();
  const where = (file: string) => `${file} (${fromSet.get(file) ?? "built in"})`;
  const define = (name: string, file: string) => {
    const other = definedIn.get(name);
    if (other !== undefined) {
      throw new UsageError(
        `inconsistent descriptor set: ${name} is defined in ${where(other)} and in ${where(file)}`,
        false,
      );
    }
    definedIn.set(name, file);
  };
  const stack: { scope: string; message: DescriptorProto }[] = [];
  for (const file of files) {
    const scope = file.package === "" ? "" : file.package + ".";
    for (const e of file.enumType) define(scope + e.name, file.name);
    for (const x of file.extension) define(scope + x.name, file.name);
    for (const svc of file.service) define(scope + svc.name, file.name);
    for (const message of file.messageType) stack.push({ scope, message });
    // Nested types with a stack of its own: a set may nest them deeper than the call stack goes.
    while (stack.length > 0) {
      const { scope: outer, message } = stack.pop()!;
      const name = outer + message.name;
      define(name, file.name);
      for (const e of message.enumType) define(`${name}.${e.name}`, file.name);
      for (const x of message.extension) define(`${name}.${x.name}`, file.name);
      for (const nested of message.nestedType) stack.push({ scope: name + ".", message: nested });
    }
  }
}

/**
 * Refuses what protobuf-es builds without a word but the codec cannot serve: a well-known type with a form of
 * its own (Struct, Timestamp, a wrapper, ...) defined otherwise than the built-in one (a set's
 * google/protobuf/struct.proto replaces the built-in file: one of any protobuf release is the same field for
 * field, and is fine), and an enum whose values' JSON names clash, which protoc refuses.
 */
function checkRegistry(registry: FileRegistry, fromSet: ReadonlyMap<string, string>): void {
  for (const name of wktOwnForm) {
    const desc = registry.getMessage(name) ?? registry.getEnum(name);
    const problem = desc === undefined ? undefined : wktRedefinition(desc);
    if (problem !== undefined) {
      throw new UsageError(
        `inconsistent descriptor set: ${desc!.file.proto.name} (${fromSet.get(desc!.file.proto.name) ?? "built in"}) ` +
          `redefines the well-known type ${name}: ${problem}`,
        false,
      );
    }
  }
  for (const type of registry) {
    if (type.kind !== "enum") continue;
    const clash = enumJsonNameClash(type);
    if (clash !== undefined) {
      throw new UsageError(
        `invalid descriptor set: the JSON names of the enum ${type.typeName} (${type.file.proto.name}) clash: ${clash.detail}`,
        false,
      );
    }
  }
}

function findMessage(registry: FileRegistry, typeName: string, options: Options): DescMessage {
  const desc = registry.getMessage(typeName);
  if (desc !== undefined) return desc;
  if (registry.getEnum(typeName) !== undefined) {
    throw new UsageError(`${typeName} is an enum; give a message type`, false);
  }
  const hint =
    options.descriptorSets.length === 0
      ? "; for your own types, pass --descriptor-set"
      : ` in ${options.descriptorSets.join(", ")} or the well-known types`;
  throw new UsageError(`unknown message type ${typeName}${hint}`, false);
}

/**
 * Reads stdin whole, or throws rule `size` as soon as more than `maxLength` bytes came: nothing past the
 * limit is read or kept.
 */
async function readStdin(stdin: Readable, maxLength: number, typeName: string): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stdin) {
    length += (chunk as Buffer).length;
    if (length > maxLength) {
      stdin.destroy();
      throw new WktJsonError(
        "size",
        "$",
        typeName,
        `the input is longer than the limit of ${formatBound(maxLength)} bytes (set with --max-length)`,
      );
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks, length);
}

/** Converts the input; returns what to write on stdout. Throws WktJsonError for invalid input. */
function convert(
  registry: FileRegistry,
  schema: DescMessage,
  input: Uint8Array,
  options: Options,
): Uint8Array | string {
  const typeName = schema.typeName;
  const maxValues = options.maxValues ?? cliMaxValuesOf(input.length);
  // The scans' own steps: one per byte or tag, far within the allowance of a call on this many bytes.
  const meter = workMeter(typeName, input.length);
  let message;
  if (options.from === "binary") {
    if (scanBinary(input, schema, registry, maxValues, meter)) throw tooManyValues(typeName, maxValues, options);
    try {
      message = fromBinary(schema, input);
    } catch (e) {
      throw new WktJsonError("binary", "$", typeName, `the input is not a serialized ${typeName}: ${errorText(e)}`);
    }
  } else {
    const depthLimit = textParseOptions(options.maxDepth, undefined).maxDepth ?? options.maxDepth;
    const scan = scanJson(input, maxValues, depthLimit, meter);
    if (scan.tooManyValues) throw tooManyValues(typeName, maxValues, options);
    // Nested too deep: the decoder stops there with its depth error, which the text up to that point gives as
    // well, without a JSON.parse of the rest (25 MB of "[" took 1.4 GB and seconds).
    const deep = scan.deepEnd >= 0;
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(deep ? input.subarray(0, scan.deepEnd) : input);
    } catch {
      throw new WktJsonError("syntax", "$", typeName, "the input is not UTF-8 text");
    }
    const readOptions = {
      registry,
      ignoreUnknownFields: options.ignoreUnknownFields,
      allowPartial: options.allowPartial,
      maxLength: options.maxLength,
      maxDepth: options.maxDepth,
    };
    if (!deep) {
      message = fromJsonString(schema, text, readOptions);
    } else {
      try {
        fromJsonString(schema, text, readOptions);
      } catch (e) {
        // Any error before the deep point is the one the whole input gives; one at the cut means the decoder's
        // own nesting guard is looser than depthLimit, which no valid input reaches either.
        if (!isWktJsonError(e) || e.rule === "depth" || !atEnd(e, text)) throw e;
      }
      throw new WktJsonError("depth", "$", typeName, textDepthDetail(options.maxDepth));
    }
  }
  // check --allow-partial: read is all; the writers refuse a message that leaves a required field unset.
  if (options.allowPartial) return "";
  if (options.to === "binary") {
    try {
      return toBinary(schema, message);
    } catch (e) {
      throw new WktJsonError("binary", "$", typeName, `cannot write the binary encoding: ${errorText(e)}`);
    }
  }
  return (
    toJsonString(schema, message, {
      registry,
      prettySpaces: options.pretty,
      maxDepth: options.maxDepth,
      useProtoFieldName: options.useProtoFieldName,
      enumAsInteger: options.enumAsInteger,
      alwaysEmitImplicit: options.alwaysEmitImplicit,
    }) + "\n"
  );
}

/**
 * The default --max-values for an input of `bytes` bytes: {@link cliMaxValuesDefault} plus
 * {@link cliMaxValuesPerByte} per byte, as the library's decoder earns its budget from the length of its input.
 */
function cliMaxValuesOf(bytes: number): number {
  return cliMaxValuesDefault + Math.floor(cliMaxValuesPerByte * bytes);
}

function tooManyValues(typeName: string, maxValues: number, options: Options): WktJsonError {
  const limit =
    options.maxValues === undefined
      ? `the default limit for its length (${formatBound(cliMaxValuesDefault)} plus ${cliMaxValuesPerByte} per byte; set another with --max-values)`
      : "the limit (set with --max-values)";
  return new WktJsonError(
    "size",
    "$",
    typeName,
    `the input holds more than ${formatBound(maxValues)} values, ${limit}`,
  );
}

/** Whether an error of the decoder points at the last character of `text` or past it. */
function atEnd(e: WktJsonError, text: string): boolean {
  if (e.line === undefined || e.column === undefined) return true;
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return e.line > line || (e.line === line && e.column >= text.length - lineStart);
}

/**
 * An error told in the command's terms: the library's detail names its options, the command its flags. A
 * required field the JSON leaves out: check takes `--allow-partial` (the library's `allowPartial`), canon
 * nothing, as it cannot write the message. Nesting: `maxDepth` is `--max-depth`, with its value.
 */
function asCli(e: WktJsonError, command: Options["command"], maxDepth: number): WktJsonError {
  const library = " (allowPartial accepts it)";
  let detail: string;
  if (e.rule === "required" && e.detail.endsWith(library)) {
    detail =
      e.detail.slice(0, -library.length) +
      (command === "check" ? " (--allow-partial accepts it)" : "; a message without it cannot be written");
  } else if (e.rule === "depth" && e.detail.includes("maxDepth")) {
    // Some walks hold only the levels left and name the option without its value: the command knows it.
    detail = e.detail
      .replace(/\bmaxDepth\b(?! \()/g, `maxDepth (${formatBound(maxDepth)})`)
      .replace(/\bmaxDepth\b/g, "--max-depth");
  } else {
    return e;
  }
  const out = new WktJsonError(e.rule, e.jsonPath, e.typeName, detail);
  if (e.line !== undefined) out.line = e.line;
  if (e.column !== undefined) out.column = e.column;
  return out;
}

/**
 * The one-line form of our error: type, path (a long one shortened, see {@link shortPath}), line and column when
 * known, detail, rule. In a stream, `where` (`line 7`, `record 3`) comes first, and the column is within it.
 */
function formatError(e: WktJsonError, where?: string): string {
  if (where !== undefined) {
    const at = e.column !== undefined ? ` (column ${e.column})` : "";
    return `wkt-json: ${where}: ${e.typeName} at ${shortPath(e.jsonPath)}${at}: ${e.detail} [${e.rule}]`;
  }
  const at = e.line !== undefined && e.column !== undefined ? ` (line ${e.line}, column ${e.column})` : "";
  return `wkt-json: ${e.typeName} at ${shortPath(e.jsonPath)}${at}: ${e.detail} [${e.rule}]`;
}

/** One line or record of a stream on stdin: its input for {@link convert}, or its error. */
interface StreamItem {
  /** Its number in the stream, from 1. */
  readonly n: number;
  readonly input?: Uint8Array;
  readonly error?: WktJsonError;
  /** The stream cannot be read past it. */
  readonly fatal?: boolean;
}

/** The lines (--from ndjson) or records (--from binary-delimited) of stdin, read as they are asked for. */
async function* streamItems(
  stdin: AsyncIterable<Uint8Array>,
  schema: DescMessage,
  options: Options,
): AsyncGenerator<StreamItem, void, undefined> {
  const typeName = schema.typeName;
  if (options.from === "binary-delimited") {
    for await (const r of sizeDelimitedRecords(stdin, typeName, options.maxLength)) {
      yield r.error === undefined ? { n: r.record, input: r.bytes } : { n: r.record, error: r.error, fatal: r.fatal };
    }
    return;
  }
  const encoder = new TextEncoder();
  const lines = ndjsonLines(stdin, { typeName, maxLength: options.maxLength, skipBlankLines: true });
  for await (const l of lines) {
    // convert reads bytes, which it scans before decoding (--max-values, --max-depth): a line, encoded again.
    yield l.error === undefined ? { n: l.line, input: encoder.encode(l.text) } : { n: l.line, error: l.error };
  }
}

/**
 * Reads, checks and writes a stream on stdin (--from ndjson or binary-delimited) one message at a time: what is
 * held is one line or record, and stdout's backpressure pauses the reading. Each bad line or record is reported
 * with its number; the first ends the command (exit 1) unless --skip-invalid, which counts them and exits 1 at
 * the end if there were any. On a terminal, stderr shows the progress, cleared at the end.
 */
async function runStream(io: CliIo, registry: FileRegistry, schema: DescMessage, options: Options): Promise<number> {
  const { stdout, stderr } = io;
  const unit = options.from === "ndjson" ? "line" : "record";
  const perMessage: Options = { ...options, from: messageEncoding[options.from], to: messageEncoding[options.to] };
  const progress = progressLine(unit, {
    isTTY: stderr.isTTY,
    write: (text) => stderr.write(text),
    now: Date.now,
  });
  let seen = 0;
  let bad = 0;
  let stopped = false;
  let corked = false;
  for await (const item of streamItems(io.stdin as AsyncIterable<Uint8Array>, schema, options)) {
    seen = item.n;
    let error = item.error === undefined ? undefined : streamLimit(item.error);
    let output: Uint8Array | string = "";
    if (error === undefined) {
      try {
        output = convert(registry, schema, item.input!, perMessage);
      } catch (e) {
        if (!isWktJsonError(e)) throw e;
        error = e;
      }
    }
    if (error !== undefined) {
      bad++;
      progress.clear();
      stderr.write(formatError(asCli(error, options.command, options.maxDepth), `${unit} ${item.n}`) + "\n");
      if (!options.skipInvalid || item.fatal === true) {
        stopped = true;
        break;
      }
    } else if (options.command === "canon" && output !== "") {
      const framed = perMessage.to === "binary" ? new BinaryWriter().bytes(output as Uint8Array).finish() : output;
      if (!corked) {
        // The lines of one chunk of stdin are written in one system call, not one each (2.5 times faster).
        corked = true;
        stdout.cork();
        process.nextTick(() => {
          corked = false;
          stdout.uncork();
        });
      }
      if (!stdout.write(framed)) await once(stdout, "drain");
    }
    progress.update(seen, bad);
  }
  progress.clear();
  if (bad > 0 && options.skipInvalid) {
    const of = stopped ? `, and the stream could not be read past ${unit} ${formatBound(seen)}` : "";
    stderr.write(`wkt-json: ${formatBound(bad)} of ${formatBound(seen)} ${unit}s invalid${of}\n`);
  }
  return bad > 0 ? exitInvalid : 0;
}

/** The length limit of a stream's line or record (an error of the splitter) told with the flag that sets it. */
function streamLimit(e: WktJsonError): WktJsonError {
  if (e.rule !== "size") return e;
  const detail = e.detail.replace(/ \(maxLength\)$/, "") + " (set with --max-length)";
  return new WktJsonError(e.rule, e.jsonPath, e.typeName, detail);
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}

async function command(args: string[], io: CliIo): Promise<number> {
  let parsed: Parsed;
  let registry: FileRegistry;
  let schema: DescMessage;
  try {
    parsed = parseCommandLine(args);
    if (parsed.kind === "help") {
      io.stdout.write(usage);
      return 0;
    }
    if (parsed.kind === "version") {
      io.stdout.write(`wkt-json ${version()}\n`);
      return 0;
    }
    registry = loadRegistry(parsed.options.descriptorSets);
    schema = findMessage(registry, parsed.options.typeName, parsed.options);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    const help = e.pointToHelp ? "Try 'wkt-json --help' for more information.\n" : "";
    io.stderr.write(`wkt-json: ${e.message}\n${help}`);
    return exitUsage;
  }

  const options = parsed.options;
  if (options.command === "schema") {
    const js: JsonSchemaOptions = {
      io: options.io,
      target: options.target,
      registry,
      useProtoFieldName: options.useProtoFieldName,
      enumAsInteger: options.enumAsInteger,
      alwaysEmitImplicit: options.alwaysEmitImplicit,
      ignoreUnknownFields: options.ignoreUnknownFields,
      allowPartial: options.allowPartial,
      create: options.create,
    };
    io.stdout.write(JSON.stringify(jsonSchema(schema, js), null, options.pretty) + "\n");
    return 0;
  }
  if (options.from === "ndjson" || options.from === "binary-delimited") return runStream(io, registry, schema, options);
  let output: Uint8Array | string;
  try {
    const input = await readStdin(io.stdin, options.maxLength, schema.typeName);
    output = convert(registry, schema, input, options);
  } catch (e) {
    if (!isWktJsonError(e)) throw e;
    io.stderr.write(formatError(asCli(e, options.command, options.maxDepth)) + "\n");
    return exitInvalid;
  }
  if (options.command === "canon") io.stdout.write(output);
  return 0;
}

/**
 * Runs the command with the arguments `args` (without the program's name) on `io`; resolves to its exit status:
 * 0 done, 1 invalid input, 2 a usage or setup error, 3 an internal error (a bug), each error on `io.stderr`.
 */
export async function main(args: string[], io: CliIo): Promise<number> {
  try {
    return await command(args, io);
  } catch (e) {
    io.stderr.write(
      `wkt-json: internal error (please report it): ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
    );
    return exitInternal;
  }
}
