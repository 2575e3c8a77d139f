/**
 * Streams of messages as NDJSON (newline-delimited JSON, also JSON Lines): one message's proto3 JSON per line,
 * for bulk imports and exports (grpc-gateway #581, #1086, #2438; grpc-httpjson-transcoding PR #73). The reader
 * takes chunks of text or bytes as they arrive (a Node stream, a web `ReadableStream`, any async iterable) and
 * yields messages; the writer turns messages into lines. Line splitting, the blank-line rule and the limits are
 * those of ndjson-lines.ts; each line is read by {@link fromJsonString} with the caller's options.
 *
 * @module
 */
import { toJsonString, type JsonWriteStringOptions } from "../codec/to-json.js";
import { fromJsonString, type JsonReadOptions } from "../codec/from-json.js";
import { makeContext } from "../codec/read-context.js";
import { prettySpacesOption } from "../codec/to-json-options.js";
import type { DescMessage, MessageShape } from "@bufbuild/protobuf";
import { WktJsonError } from "../errors.js";
import { checkSchema } from "../wkt/registry.js";
import { basePathOf } from "../internal/base-path.js";
import { countOption, optionsTypeName } from "../internal/options.js";
import { ndjsonLines, type NdjsonLineStats } from "./ndjson-lines.js";
import { chunksOf, lineError, onErrorOption, type StreamErrorHandler, type StreamSource } from "./source.js";

/**
 * Default `maxLength` of {@link ndjsonDecodeStream}: the longest line, in UTF-16 code units (64 MiB, as the
 * `wkt-json` command's `--max-length` and protobuf-es's `readMaxBytes`). A stream is read line by line, so this
 * bounds what the reader holds however long the stream.
 */
export const ndjsonMaxLengthDefault = 64 * 1024 * 1024;

/** Options of {@link ndjsonDecodeStream}: those of {@link fromJsonString} for each line, and the stream's own. */
export interface NdjsonDecodeOptions extends Partial<JsonReadOptions> {
  /**
   * The longest line, in UTF-16 code units (without its `\r`); a longer one is rule `size`, dropped as soon as it
   * is past the limit, without being held whole. Default {@link ndjsonMaxLengthDefault}.
   */
  maxLength?: number | undefined;
  /**
   * Called with each bad line's error (its `line` the line's number in the stream), after which the reader goes
   * on with the next line; a migration counts them, or writes them to a dead-letter file. It may throw to stop
   * the stream (after 100 bad lines, say). Without it, the first bad line's error is thrown.
   */
  onError?: StreamErrorHandler | undefined;
  /**
   * Whether a blank line (nothing, or only spaces, tabs and `\r`) is skipped, as the NDJSON spec allows (default
   * true), or is a bad line, rule `syntax`. Blank lines count in the line numbers either way.
   */
  skipBlankLines?: boolean | undefined;
  /**
   * Whether each chunk is one whole line, its `\n` optional, as Node's `readline` and line-splitting streams
   * give them (default false: chunks are pieces of the text, cut anywhere, newlines included). A chunk that
   * holds a newline other than at its end is then a bad line, rule `syntax`.
   */
  lines?: boolean | undefined;
}

/**
 * Reads a stream of NDJSON, one message of `schema` per line, yielding each as it is read. The chunks may be
 * strings or `Uint8Array`s of UTF-8 (not both), split anywhere, even inside a character; give them as an async
 * iterable (a Node `Readable`, a web `ReadableStream`, a `fetch` response's `body`), an iterable, or a
 * `ReadableStream` where it is not async iterable. Lines end at `\n` (a `\r` before it is dropped); the last
 * needs none. Memory stays flat whatever the stream's length: one line at a time, at most `maxLength` long.
 *
 * Each bad line is a {@link WktJsonError} whose `line` is the line's number in the stream, with `jsonPath`
 * and `column` inside that line's JSON: thrown, or, with `onError`, given to it and skipped.
 *
 * @throws {WktJsonError} for the first bad line without `onError`: the rules of {@link fromJsonString}, `size`
 *   for a line longer than `maxLength`, `syntax` for a line that is not UTF-8 (or a blank line under
 *   `skipBlankLines: false`, a chunk that holds a newline under `lines: true`); `json-type` for a chunk that is
 *   neither a string nor a Uint8Array, or a source that breaks the iterator protocol. At the call: `json-type`
 *   for a `schema` that is no message descriptor or a source that is no stream, `range` or `json-type` for a
 *   bad option. What the source itself throws (a network error) is thrown as it is.
 * @example
 * const lines = ['{"title": "Dune"}\n{"title": "Emma"}\n', '{"titel": "Ulysses"}\n'];
 * const titles: string[] = [];
 * const bad: number[] = [];
 * for await (const book of ndjsonDecodeStream(BookSchema, lines, { onError: (e) => bad.push(e.line!) })) {
 *   titles.push(book.title);
 * }
 * titles; //=> ["Dune", "Emma"]
 * bad; //=> [3]
 */
export function ndjsonDecodeStream<Desc extends DescMessage>(
  schema: Desc,
  source: StreamSource<string | Uint8Array>,
  options?: NdjsonDecodeOptions,
): AsyncGenerator<MessageShape<Desc>, void, undefined> {
  return ndjsonDecodeWith(schema, source, options, undefined);
}

/** @internal {@link ndjsonDecodeStream}, with the line splitter's stats for tests. */
export function ndjsonDecodeWith<Desc extends DescMessage>(
  schema: Desc,
  source: StreamSource<string | Uint8Array>,
  options: NdjsonDecodeOptions | undefined,
  stats: NdjsonLineStats | undefined,
): AsyncGenerator<MessageShape<Desc>, void, undefined> {
  checkSchema(schema);
  const { onError: onErrorGiven, skipBlankLines, lines: wholeLines, ...given } = options ?? {};
  const onError = onErrorOption(onErrorGiven);
  const maxLength = countOption("maxLength", given.maxLength, ndjsonMaxLengthDefault);
  const readOptions: Partial<JsonReadOptions> = { ...given, maxLength };
  // The options of every line, checked now rather than at the first line.
  makeContext(readOptions, true);
  basePathOf(readOptions, optionsTypeName);
  const lines = ndjsonLines(chunksOf(source, schema.typeName), {
    typeName: schema.typeName,
    maxLength,
    skipBlankLines: skipBlankLines !== false,
    wholeLines: wholeLines === true,
    stats,
  });
  return (async function* () {
    for await (const l of lines) {
      let message: MessageShape<Desc> | undefined;
      let error = l.error;
      if (error === undefined) {
        try {
          message = fromJsonString(schema, l.text!, readOptions);
        } catch (e) {
          error = lineError(e, l.line);
        }
      } else {
        error = lineError(error, l.line);
      }
      if (error !== undefined && l.joined) error = joinedLines(error);
      if (error === undefined) {
        yield message!;
      } else if (onError === undefined) {
        throw error;
      } else {
        onError(error);
      }
    }
  })();
}

/**
 * A bad line that came in several string chunks, none with a newline: most likely the lines of `readline`,
 * read as one; the error says so, and what to pass.
 */
function joinedLines(e: WktJsonError): WktJsonError {
  const hint =
    "; no chunk of the stream held a newline: if each chunk is a whole line (as Node's readline gives them), " +
    "pass lines: true";
  const out = new WktJsonError(e.rule, e.jsonPath, e.typeName, e.detail + hint, { cause: e.cause });
  if (e.line !== undefined) out.line = e.line;
  if (e.column !== undefined) out.column = e.column;
  return out;
}

/**
 * Writes messages of `schema` as NDJSON: yields one line per message, its proto3 JSON ({@link toJsonString} with
 * `options`) and `\n`. The messages may come from an iterable or an async iterable; the lines are strings,
 * for `Readable.from` in Node (piped to a file or a response) or a web `ReadableStream` through a
 * `TextEncoderStream`.
 *
 * @throws {WktJsonError} the errors of {@link toJsonString}, with `line` the message's line; `range` for a
 *   `prettySpaces` of 1 or more (a line cannot hold an indented document), `json-type` for a `schema` that is
 *   no message descriptor or messages given otherwise than as an iterable.
 * @example
 * const out: string[] = [];
 * for await (const line of ndjsonEncodeStream(BookSchema, [create(BookSchema, { title: "Dune" })])) out.push(line);
 * out; //=> ['{"title":"Dune"}\n']
 */
export function ndjsonEncodeStream<Desc extends DescMessage>(
  schema: Desc,
  messages: StreamSource<MessageShape<Desc>>,
  options?: Partial<JsonWriteStringOptions>,
): AsyncGenerator<string, void, undefined> {
  checkSchema(schema);
  if (prettySpacesOption(options?.prettySpaces) >= 1) {
    throw new WktJsonError(
      "range",
      "$",
      optionsTypeName,
      "prettySpaces must be 0 for NDJSON: each message is written on one line",
    );
  }
  const items = chunksOf(messages, schema.typeName);
  return (async function* () {
    let line = 0;
    for await (const message of items) {
      line++;
      let text: string;
      try {
        text = toJsonString(schema, message, options);
      } catch (e) {
        throw lineError(e, line);
      }
      yield text + "\n";
    }
  })();
}
