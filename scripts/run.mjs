// The one helper the scripts share: run a command to completion, or throw with everything it printed.

import { spawnSync } from "node:child_process";

/** Runs `command args` in `cwd` and returns its stdout; throws with its output when it fails. */
export function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, encoding: "utf8" });
  if (result.error !== undefined || result.status !== 0) {
    throw new Error(
      `${command} ${args.join(" ")} failed (${result.error?.message ?? `exit status ${result.status}`}):\n` +
        `${result.stdout ?? ""}${result.stderr ?? ""}`,
    );
  }
  return result.stdout;
}
