#!/usr/bin/env node
/**
 * The `wkt-json` command: canonical proto3 JSON on the command line. Reads one message from stdin (proto3
 * JSON, or the binary encoding with `--from binary`), checks it with this library's strict decoder, and
 * writes it back as canonical JSON (or binary with `--to binary`). Bundled by tsup into dist/cli.js, the
 * package's `bin`; everything Node-specific lives here, never in src/.
 *
 * Exit status: 0 done, 1 the input is invalid (the error is on stderr), 2 a usage or setup error (bad
 * arguments, an unknown type, an unreadable descriptor set), 3 an internal error (a bug: please report it).
 *
 * @module
 */
import { readFileSync } from "node:fs";
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
  type FileDescriptorProto,
} from "@bufbuild/protobuf/wkt";
import { fromJsonString, isWktJsonError, toJsonString, WktJsonError } from "../src/index.js";

const exitInvalid = 1;
const exitUsage = 2;
const exitInternal = 3;

const usage = `Usage: wkt-json <command> <type> [options] < input

Commands:
  canon <type>   read one message on stdin, write its canonical proto3 JSON on stdout
  check <type>   read one message on stdin and only validate it: exit 0 silently, or 1 with the error

<type> is a fully-qualified message name. The well-known types (google.protobuf.Timestamp, Duration,
Struct, Any, FieldMask, the wrappers, ..., and descriptor.proto's messages) are built in; other types
come from --descriptor-set.

Options:
  --descriptor-set FILE     a binary google.protobuf.FileDescriptorSet with your types, as written by
                            'buf build -o FILE' or 'protoc --include_imports --descriptor_set_out=FILE';
                            may be repeated
  --from json|binary        the input encoding (default json)
  --to json|binary          the output encoding (default json); binary is written raw, with no newline
  --pretty N                indent JSON output by N spaces, 0 to 10 (default 0: one line)
  --ignore-unknown-fields   skip JSON members that name no field, and enum names the enum lacks
  --use-proto-field-name    write proto field names (optional_int32) instead of JSON names (optionalInt32)
  --enum-as-integer         write enum values as numbers
  --always-emit-implicit    also write fields that hold their default value
  -h, --help                show this help
  -v, --version             show the version

Errors name the type, the JSON path, the line and column and the rule broken:
  wkt-json: google.protobuf.Timestamp at $ (line 1, column 1): ... [range]

Exit status: 0 done, 1 invalid input, 2 usage or setup error, 3 internal error.

Examples:
  echo '"2015-07-06T15:33:38-07:00"' | wkt-json canon google.protobuf.Timestamp
    => "2015-07-06T22:33:38Z"
  wkt-json canon acme.v1.Order --descriptor-set acme.binpb --pretty 2 < order.json
  wkt-json check acme.v1.Order --descriptor-set acme.binpb < order.json && echo valid
  wkt-json canon acme.v1.Order --descriptor-set acme.binpb --to binary < order.json > order.bin
  wkt-json canon acme.v1.Order --descriptor-set acme.binpb --from binary < order.bin
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

interface Options {
  readonly command: "canon" | "check";
  readonly typeName: string;
  readonly descriptorSets: readonly string[];
  readonly from: "json" | "binary";
  readonly to: "json" | "binary";
  readonly pretty: number;
  readonly ignoreUnknownFields: boolean;
  readonly useProtoFieldName: boolean;
  readonly enumAsInteger: boolean;
  readonly alwaysEmitImplicit: boolean;
}

/** The command line, parsed: a conversion to run, or a request for the help or the version. */
type Parsed = { kind: "run"; options: Options } | { kind: "help" } | { kind: "version" };

function parseCommandLine(args: string[]): Parsed {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: {
        "descriptor-set": { type: "string", multiple: true },
        from: { type: "string" },
        to: { type: "string" },
        pretty: { type: "string" },
        "ignore-unknown-fields": { type: "boolean" },
        "use-proto-field-name": { type: "boolean" },
        "enum-as-integer": { type: "boolean" },
        "always-emit-implicit": { type: "boolean" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean", short: "v" },
      },
    });
  } catch (e) {
    // parseArgs explains first, then advises on `--` and dashes, which would only confuse here.
    const text = errorText(e).split("\n")[0] ?? "";
    const advice = text.indexOf(". To specify");
    throw new UsageError(advice >= 0 ? text.slice(0, advice + 1) : text);
  }
  const { values, positionals } = parsed;
  if (values.help === true) return { kind: "help" };
  if (values.version === true) return { kind: "version" };

  const [command, typeName, ...extra] = positionals;
  if (command === undefined) throw new UsageError("no command given");
  if (command !== "canon" && command !== "check") throw new UsageError(`unknown command '${command}'`);
  if (typeName === undefined) throw new UsageError(`'${command}' needs a message type, such as google.protobuf.Timestamp`);
  if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'`);

  const encoding = (flag: string, value: string | undefined): "json" | "binary" => {
    if (value === undefined || value === "json") return "json";
    if (value === "binary") return "binary";
    throw new UsageError(`${flag} must be json or binary, got '${value}'`);
  };
  const from = encoding("--from", values.from);
  const to = encoding("--to", values.to);

  let pretty = 0;
  if (values.pretty !== undefined) {
    if (to !== "json") throw new UsageError("--pretty applies to JSON output only");
    if (!/^(?:10|[0-9])$/.test(values.pretty)) throw new UsageError(`--pretty must be 0 to 10, got '${values.pretty}'`);
    pretty = Number(values.pretty);
  }
  if (values["ignore-unknown-fields"] === true && from !== "json") {
    throw new UsageError("--ignore-unknown-fields applies to JSON input only");
  }
  for (const flag of ["use-proto-field-name", "enum-as-integer", "always-emit-implicit"] as const) {
    if (values[flag] === true && to !== "json") throw new UsageError(`--${flag} applies to JSON output only`);
  }

  return {
    kind: "run",
    options: {
      command,
      typeName: typeName.startsWith(".") ? typeName.slice(1) : typeName,
      descriptorSets: values["descriptor-set"] ?? [],
      from,
      to,
      pretty,
      ignoreUnknownFields: values["ignore-unknown-fields"] === true,
      useProtoFieldName: values["use-proto-field-name"] === true,
      enumAsInteger: values["enum-as-integer"] === true,
      alwaysEmitImplicit: values["always-emit-implicit"] === true,
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
 * is built in. Files are added imports first, whatever their order in the sets.
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
    if (set.file.length === 0) throw new UsageError(`${path} is not a binary FileDescriptorSet: it holds no files`, false);
    for (const file of set.file) {
      if (fromSet.has(file.name)) continue; // the first set that has a file wins
      files.set(file.name, file);
      fromSet.set(file.name, path);
    }
  }

  const ordered: FileDescriptorProto[] = [];
  const state = new Map<string, "adding" | "added">();
  const add = (file: FileDescriptorProto): void => {
    if (state.get(file.name) === "added") return;
    if (state.get(file.name) === "adding") throw new UsageError(`${file.name} imports itself (an import cycle)`, false);
    state.set(file.name, "adding");
    for (const dep of file.dependency) {
      const depFile = files.get(dep);
      if (depFile === undefined) {
        throw new UsageError(
          `${fromSet.get(file.name) ?? "built-in"}: ${file.name} imports ${dep}, which the descriptor set lacks ` +
            "(write it with --include_imports)",
          false,
        );
      }
      add(depFile);
    }
    state.set(file.name, "added");
    ordered.push(file);
  };
  for (const file of files.values()) add(file);
  try {
    return createFileRegistry(create(FileDescriptorSetSchema, { file: ordered }));
  } catch (e) {
    throw new UsageError(`invalid descriptor set: ${errorText(e)}`, false);
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

async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Converts the input; returns what to write on stdout. Throws WktJsonError for invalid input. */
function convert(registry: FileRegistry, schema: DescMessage, input: Uint8Array, options: Options): Uint8Array | string {
  const typeName = schema.typeName;
  let message;
  if (options.from === "binary") {
    try {
      message = fromBinary(schema, input);
    } catch (e) {
      throw new WktJsonError("binary", "$", typeName, `the input is not a serialized ${typeName}: ${errorText(e)}`);
    }
  } else {
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(input);
    } catch {
      throw new WktJsonError("syntax", "$", typeName, "the input is not UTF-8 text");
    }
    message = fromJsonString(schema, text, { registry, ignoreUnknownFields: options.ignoreUnknownFields });
  }
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
      useProtoFieldName: options.useProtoFieldName,
      enumAsInteger: options.enumAsInteger,
      alwaysEmitImplicit: options.alwaysEmitImplicit,
    }) + "\n"
  );
}

/** The one-line form of our error: type, path, line and column when known, detail, rule. */
function formatError(e: WktJsonError): string {
  const at = e.line !== undefined && e.column !== undefined ? ` (line ${e.line}, column ${e.column})` : "";
  return `wkt-json: ${e.typeName} at ${e.path}${at}: ${e.detail} [${e.rule}]`;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
  return pkg.version;
}

async function main(args: string[]): Promise<number> {
  let parsed: Parsed;
  let registry: FileRegistry;
  let schema: DescMessage;
  try {
    parsed = parseCommandLine(args);
    if (parsed.kind === "help") {
      process.stdout.write(usage);
      return 0;
    }
    if (parsed.kind === "version") {
      process.stdout.write(`wkt-json ${version()}\n`);
      return 0;
    }
    registry = loadRegistry(parsed.options.descriptorSets);
    schema = findMessage(registry, parsed.options.typeName, parsed.options);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    const help = e.pointToHelp ? "Try 'wkt-json --help' for more information.\n" : "";
    process.stderr.write(`wkt-json: ${e.message}\n${help}`);
    return exitUsage;
  }

  const options = parsed.options;
  const input = await readStdin();
  let output: Uint8Array | string;
  try {
    output = convert(registry, schema, input, options);
  } catch (e) {
    if (!isWktJsonError(e)) throw e;
    process.stderr.write(formatError(e) + "\n");
    return exitInvalid;
  }
  if (options.command === "canon") process.stdout.write(output);
  return 0;
}

// A reader that goes away (`wkt-json canon ... | head -c 10`) is no error of ours.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw e;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`wkt-json: internal error (please report it): ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = exitInternal;
  },
);
