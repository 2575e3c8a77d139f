/**
 * The lines of an NDJSON stream, split as they arrive, each bounded. The NDJSON spec (ndjson.org, 1.0): "Each
 * JSON text MUST conform to the [RFC 8259] standard and MUST be written to the stream followed by the newline
 * character \n (0x0A). The newline character MAY be preceded by a carriage return \r (0x0D). The JSON texts
 * MUST NOT contain newlines or carriage returns." and "The parser MAY silently ignore empty lines, e.g. \n\n.
 * This behavior MUST be documented and SHOULD be configurable by the user of the parser." JSON Lines
 * (jsonlines.org): "The last character in the file may be a line separator, and it will be treated the same as
 * if there was no line separator present."
 *
 * So: a line ends at `\n`, a `\r` before it is dropped, the last line needs no `\n`, and a blank line (nothing but
 * spaces, tabs and `\r`) is skipped or refused as the caller chooses; it counts in the line numbers either way. A
 * byte-order mark at the start of the stream is dropped (RFC 8259: parsers "MAY ignore the presence of a byte
 * order mark").
 *
 * Bytes are decoded with one `TextDecoder` in stream mode, so a character split between two chunks is whole;
 * each line ends the decoder's stream (fatal: bytes that are not UTF-8 make that line bad, and the next line
 * starts afresh). A line longer than `maxLength` UTF-16 code units is dropped as soon as it is: its text is not
 * kept, the rest of it is skipped up to its `\n`, and it is reported with its line number. What is held at any
 * time is at most one line of `maxLength` code units and the chunk being split, however long the stream.
 *
 * @module
 * @internal
 */
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { formatBound } from "../limits.js";

/**
 * One line of the stream: its text (without `\n`, `\r` or a BOM), or why it is bad. `joined`: the line was
 * made of several string chunks and no chunk so far held a newline, as when each chunk is a line without its
 * `\n` (what Node's `readline` gives) and the option that says so was not given.
 */
export type NdjsonLine =
  | { readonly line: number; readonly text: string; readonly error?: undefined; readonly joined: boolean }
  | { readonly line: number; readonly text?: undefined; readonly error: WktJsonError; readonly joined: boolean };

/** For tests: the most UTF-16 code units held for one line at a time. */
export interface NdjsonLineStats {
  longest: number;
}

/** What {@link ndjsonLines} takes, besides the source. */
export interface NdjsonLinesOptions {
  /** The type the lines hold, for the errors. */
  readonly typeName: string;
  /** The longest line, in UTF-16 code units, without its `\r`; longer is rule `size`. */
  readonly maxLength: number;
  /** Whether a blank line is skipped (true) or reported, rule `syntax`. */
  readonly skipBlankLines: boolean;
  /** Whether each chunk is one whole line (its `\n` optional), rather than a piece of the text. */
  readonly wholeLines?: boolean | undefined;
  readonly stats?: NdjsonLineStats | undefined;
}

const newline = 0x0a;

/**
 * @internal The lines of an NDJSON stream of strings or of byte chunks (not both), numbered from 1, each with
 * its text or its error (rule `syntax` for bytes that are not UTF-8 or a blank line that is not skipped, `size`
 * for a line past `maxLength`). A chunk that is neither a string nor a Uint8Array is rule `json-type`, thrown.
 */
export async function* ndjsonLines(
  source: AsyncIterable<string | Uint8Array>,
  options: NdjsonLinesOptions,
): AsyncGenerator<NdjsonLine, void, undefined> {
  const { typeName, maxLength, skipBlankLines, stats } = options;
  const wholeLines = options.wholeLines === true;
  let lineNo = 0;
  let text = ""; // the current line so far, unless it is over the limit or not UTF-8
  let length = 0; // its length so far, in UTF-16 code units
  let started = false; // whether anything of the current line was seen
  let bad: "long" | "utf8" | "newline" | undefined;
  let pieces = 0; // string chunks the current line came in
  let newlineSeen = false; // whether any chunk held a newline
  let decoder: TextDecoder | undefined;
  let kind: "string" | "bytes" | undefined;

  const append = (piece: string): void => {
    if (bad !== undefined) return;
    length += piece.length;
    // Room for a `\r` and a BOM, dropped at the line's end, where the length is judged exactly.
    if (length > maxLength + 2) {
      bad = "long";
      text = "";
      return;
    }
    text += piece;
    if (stats !== undefined && text.length > stats.longest) stats.longest = text.length;
  };
  const appendBytes = (piece: Uint8Array, last: boolean): void => {
    if (bad !== undefined) return;
    decoder ??= new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    let s: string;
    try {
      s = decoder.decode(piece, { stream: !last });
    } catch {
      bad = "utf8";
      text = "";
      return;
    }
    append(s);
  };
  /** Ends the current line: its text, its error, or nothing for a blank line skipped. */
  const endLine = (): NdjsonLine | undefined => {
    lineNo++;
    let t = text;
    const why = bad;
    const joined = pieces > 1 && !newlineSeen;
    pieces = 0;
    text = "";
    length = 0;
    started = false;
    bad = undefined;
    if (why !== undefined) decoder = undefined; // it may hold bytes of the line dropped
    if (why === "utf8") {
      return { line: lineNo, error: new WktJsonError("syntax", "$", typeName, "the line is not UTF-8 text"), joined };
    }
    if (why === "newline") {
      const detail = "the chunk holds a newline: under lines: true each chunk is one line";
      return { line: lineNo, error: new WktJsonError("syntax", "$", typeName, detail), joined };
    }
    if (t.charCodeAt(t.length - 1) === 0x0d) t = t.slice(0, -1);
    if (lineNo === 1 && t.charCodeAt(0) === 0xfeff) t = t.slice(1);
    if (why === "long" || t.length > maxLength) {
      return {
        line: lineNo,
        error: new WktJsonError(
          "size",
          "$",
          typeName,
          `the line is longer than the limit of ${formatBound(maxLength)} UTF-16 code units (maxLength)`,
        ),
        joined,
      };
    }
    if (isBlank(t)) {
      if (skipBlankLines) return undefined;
      return { line: lineNo, error: new WktJsonError("syntax", "$", typeName, "the line is blank"), joined };
    }
    return { line: lineNo, text: t, joined };
  };

  for await (const given of source as AsyncIterable<unknown>) {
    const k = typeof given === "string" ? "string" : given instanceof Uint8Array ? "bytes" : undefined;
    if (k === undefined || (kind !== undefined && k !== kind)) {
      const what = k === undefined ? describe(given) : `a ${k === "string" ? "string" : "Uint8Array"} after ${kind}`;
      throw new WktJsonError(
        "json-type",
        "$",
        typeName,
        `a chunk of the stream is ${what}: give strings or Uint8Arrays, not both`,
      );
    }
    kind = k;
    const chunk = given as string | Uint8Array;
    if (wholeLines) {
      // One line a chunk: a `\n` at its end is dropped (the `\r` before it at the line's end), one inside is bad.
      const nl = typeof chunk === "string" ? chunk.indexOf("\n") : chunk.indexOf(newline);
      const body = nl === chunk.length - 1 ? chunk.slice(0, nl) : chunk;
      if (nl >= 0 && nl < chunk.length - 1) bad = "newline";
      else if (typeof body === "string") append(body);
      else appendBytes(body as Uint8Array, true);
      const line = endLine();
      if (line !== undefined) yield line;
      continue;
    }
    if (typeof chunk === "string" && chunk.length > 0) {
      pieces++;
      if (!newlineSeen && chunk.includes("\n")) newlineSeen = true;
    }
    let start = 0;
    const n = chunk.length;
    while (start < n) {
      const nl = typeof chunk === "string" ? chunk.indexOf("\n", start) : chunk.indexOf(newline, start);
      const end = nl < 0 ? n : nl;
      if (end > start) started = true;
      if (typeof chunk === "string") {
        if (bad === undefined) append(chunk.slice(start, end));
      } else if (end > start || nl >= 0) appendBytes(chunk.subarray(start, end), nl >= 0);
      if (nl < 0) break;
      const line = endLine();
      if (line !== undefined) yield line;
      start = nl + 1;
    }
  }
  if (kind === "bytes" && decoder !== undefined) appendBytes(new Uint8Array(0), true); // a character cut short
  if (started || bad !== undefined) {
    const line = endLine();
    if (line !== undefined) yield line;
  }
}

/** Whether a line holds nothing but JSON's white space (space, tab, `\r`; it holds no `\n`). */
function isBlank(t: string): boolean {
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}
