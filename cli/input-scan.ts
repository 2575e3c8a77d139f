/**
 * Scans of the `wkt-json` command's input, run before it is decoded: cheap passes over the bytes that bound
 * what the decoder will be asked to build (values, nesting), keeping nothing. They check nothing else:
 * malformed input is left to the decoder, which reports it with its path.
 *
 * @module
 */
import { charge, workMeter, type WorkMeter } from "../src/internal/meter.js";

// The binary scan is the library's too (each record of sizeDelimitedDecodeStream).
export { scanBinary } from "../src/stream/binary-scan.js";

/** What {@link scanJson} found. */
export interface Scan {
  /** Whether the input holds more than the allowed number of values. */
  readonly tooManyValues: boolean;
  /** The index just past the `[` or `{` where nesting first goes beyond the limit, or -1. */
  readonly deepEnd: number;
}

/**
 * One pass over the bytes of a JSON input before anything is decoded (the decoder's first step is
 * `JSON.parse`, which builds the whole tree): counts the values (objects, arrays, strings and member names,
 * numbers, literals) up to `maxValues`, and finds where nesting first goes beyond `depthLimit`, whichever
 * comes first. It keeps nothing and checks nothing else: malformed text is the decoder's to report. Bytes of
 * multi-byte UTF-8 characters are all 0x80 or above, so they never look like `"` or `\`. Its steps, one per
 * byte, are charged to `meter`.
 */
export function scanJson(
  bytes: Uint8Array,
  maxValues: number,
  depthLimit: number,
  meter: WorkMeter = workMeter("JSON", bytes.length),
): Scan {
  // One step per byte, each looked at once: charged up front (the allowance is 16 per byte).
  charge(meter, bytes.length);
  let values = 0;
  let depth = 0;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const c = bytes[i]!;
    if (c === 0x22) {
      // a string: up to the next quote not escaped
      for (i++; i < n; i++) {
        const d = bytes[i]!;
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > depthLimit) return { tooManyValues: false, deepEnd: i + 1 };
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
      continue;
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e) {
      // a number or a literal: to its end
      while (i + 1 < n && isLiteralByte(bytes[i + 1]!)) i++;
    } else {
      continue; // white space, ",", ":", or a byte the decoder will reject
    }
    if (++values > maxValues) return { tooManyValues: true, deepEnd: -1 };
  }
  return { tooManyValues: false, deepEnd: -1 };
}

/** Letters, digits, `+`, `-`, `.`: the bytes of a number or of `true`, `false`, `null`. */
function isLiteralByte(c: number): boolean {
  return (
    (c >= 0x30 && c <= 0x39) ||
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    c === 0x2b ||
    c === 0x2d ||
    c === 0x2e
  );
}
