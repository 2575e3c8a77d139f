// The command line under a Node other than the one `npm test` runs on: the built dist/cli.js (as
// `npm run build:cli` writes it) started by this Node (process.execPath), a few invocations that exercise what
// depends on the runtime: argument parsing (node:util parseArgs, whose errors the CLI rewords), stdin and
// stdout as text and as bytes, exit statuses, and a limit. test/cli.test.ts, the full CLI suite (each test a
// process start, about 30 s), runs once under the Node of `npm test`; scripts/runtimes.mjs runs this file under
// each other pinned Node instead (`node test/packaging/cli-smoke.mjs`). Prints one line per check and throws
// (non-zero exit) on the first failure.

import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const cli = join(root, "dist", "cli.js");
const version = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).version;
let checks = 0;

/** Runs the CLI with `args` and `input` on stdin; returns its status, stdout (bytes) and stderr (text). */
function run(args, input = "") {
  const r = spawnSync(process.execPath, [cli, ...args], { input, timeout: 60_000 });
  if (r.error !== undefined) throw r.error;
  return { status: r.status, stdout: r.stdout, out: r.stdout.toString("utf8"), err: r.stderr.toString("utf8") };
}

function check(name, actual, expected) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`cli-smoke: ${name}: got ${a}, want ${e}`);
  checks++;
  console.log(`ok   ${name}`);
}

const v = run(["--version"]);
check("--version", [v.status, v.out], [0, `wkt-json ${version}\n`]);

const canon = run(["canon", "google.protobuf.Timestamp"], '"2015-07-06T15:33:38-07:00"');
check("canon a Timestamp from stdin", [canon.status, canon.out], [0, '"2015-07-06T22:33:38Z"\n']);

const bad = run(["check", "google.protobuf.Duration"], '"1.5"');
check(
  "check: invalid input is exit 1, the rule named",
  [bad.status, bad.out, /\[syntax\]\n$/.test(bad.err)],
  [1, "", true],
);

const typo = run(["--prety", "2"]);
check(
  "a misspelt option: exit 2, the closest suggested",
  [typo.status, typo.err.split("\n")[0]],
  [2, "wkt-json: unknown option '--prety' (did you mean --pretty?)"],
);

const missing = run(["canon", "google.protobuf.Timestamp", "--pretty"]);
check(
  "an option without its value: exit 2",
  [missing.status, missing.err.split("\n")[0]],
  [2, "wkt-json: --pretty needs a value"],
);

const deep = run(["check", "google.protobuf.Value", "--max-depth", "3"], "[[[[1]]]]");
check(
  "--max-depth: deeper is exit 1, rule depth, the flag named",
  [deep.status, /--max-depth \(3\).*\[depth\]\n$/.test(deep.err)],
  [1, true],
);

const binary = run(["canon", "google.protobuf.Duration", "--to", "binary"], '"-1.5s"');
const back = run(["canon", "google.protobuf.Duration", "--from", "binary"], binary.stdout);
check(
  "bytes on stdout and stdin: a Duration to binary and back",
  [binary.status, back.status, back.out],
  [0, 0, '"-1.500s"\n'],
);

// Streams: stdin read as it comes (async iteration of process.stdin), TextDecoder in stream mode, stdout corked
// and drained, the exit status at the end.
const lines = '"1s"\r\n\n"x"\n"' + "\u00e9" + '"\n"2.5s"';
const skipped = run(["canon", "google.protobuf.Duration", "--from", "ndjson", "--skip-invalid"], lines);
check(
  "--from ndjson --skip-invalid: good lines written, each bad one by its line, the count, exit 1",
  [skipped.status, skipped.out, skipped.err.split("\n").map((l) => l.replace(/: google.*\[/, " ["))],
  [
    1,
    '"1s"\n"2.500s"\n',
    ["wkt-json: line 3 [syntax]", "wkt-json: line 4 [syntax]", "wkt-json: 2 of 5 lines invalid", ""],
  ],
);
const many = Array.from({ length: 5000 }, (_, i) => `"${i}s"`).join("\n") + "\n";
const delimited = run(["canon", "google.protobuf.Duration", "--from", "ndjson", "--to", "binary-delimited"], many);
const again = run(["canon", "google.protobuf.Duration", "--from", "binary-delimited"], delimited.stdout);
check(
  "5,000 lines to binary-delimited and back",
  [delimited.status, again.status, again.out === many, again.err],
  [0, 0, true, ""],
);

const help = run(["--help"]);
check(
  "--help: exit 0, every limit listed",
  [help.status, ["--max-depth", "--max-length", "--max-values", "--skip-invalid"].every((o) => help.out.includes(o))],
  [0, true],
);

console.log(`cli-smoke: ${checks} checks passed on Node ${process.versions.node}`);
