/**
 * The progress line of a stream (`--from ndjson`, `--from binary-delimited`) on stderr when it is a terminal:
 * `wkt-json: 12,345 lines, 2 invalid`, redrawn in place. Apart from the command so that it is tested in-process,
 * with its terminal, its writer and its clock given.
 *
 * @module
 */
import { formatBound } from "../src/limits.js";

/** How often the progress line is redrawn, in milliseconds. */
export const progressEveryMs = 200;

/** Where the progress line goes: a terminal or not, how to write to it, and the time in milliseconds. */
export interface ProgressTarget {
  readonly isTTY: boolean | undefined;
  write(text: string): void;
  now(): number;
}

/** A progress line: shown by `update`, taken away by `clear` (before an error line, and at the end). */
export interface Progress {
  update(seen: number, bad: number): void;
  clear(): void;
}

/**
 * The progress of a stream, `wkt-json: 12,345 lines, 2 invalid`, redrawn in place at most every
 * {@link progressEveryMs}, when `target` is a terminal; nothing otherwise (a log file gets the errors only).
 */
export function progressLine(unit: string, target: ProgressTarget): Progress {
  if (target.isTTY !== true) return { update() {}, clear() {} };
  let last = target.now();
  let shown = false;
  return {
    update(seen, bad) {
      const now = target.now();
      if (now - last < progressEveryMs) return;
      last = now;
      shown = true;
      const invalid = bad > 0 ? `, ${formatBound(bad)} invalid` : "";
      target.write(`\r\x1b[Kwkt-json: ${formatBound(seen)} ${unit}s${invalid}`);
    },
    clear() {
      if (shown) target.write("\r\x1b[K");
      shown = false;
    },
  };
}
