#!/usr/bin/env node
/**
 * The `wkt-json` command as a process: {@link main} (cli/wkt-json.ts) on the process's stdin, stdout and stderr,
 * its result the exit status. Bundled by tsup into dist/cli.js, the package's `bin`.
 *
 * @module
 */
import { main } from "./wkt-json.js";

// A reader that goes away (`wkt-json canon ... | head -c 10`) is no error of ours.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw e;
});

void main(process.argv.slice(2), { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }).then(
  (code) => {
    process.exitCode = code;
  },
);
