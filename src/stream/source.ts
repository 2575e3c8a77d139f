/**
 * What the stream readers read from, and the one error shape of a stream: a {@link StreamSource} is anything
 * that gives chunks in order, whatever the runtime: an async iterable (a Node `Readable`, `process.stdin`, a web
 * `ReadableStream` in Node, Deno and Firefox, an async generator), a plain iterable (an array of chunks, a
 * generator), or a web `ReadableStream` where it is not async iterable (Safari, Chrome before 124), read through
 * its `getReader()`.
 *
 * @module
 */
import { isWktJsonError, WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { optionsTypeName } from "../internal/options.js";

/** The reader of a web `ReadableStream`, as far as the stream readers use it. */
export interface StreamReaderLike<T> {
  read(): PromiseLike<{ done: boolean; value?: T | undefined }>;
  releaseLock(): void;
  cancel(reason?: unknown): PromiseLike<void>;
}

/**
 * The chunks of a stream: an async iterable, an iterable, or an object with the `getReader()` of a web
 * `ReadableStream`.
 */
export type StreamSource<T> = AsyncIterable<T> | Iterable<T> | { getReader(): StreamReaderLike<T> };

/**
 * @internal The chunks of `source` as one async iterable, `source` checked at the call (rule `json-type` for
 * anything but a {@link StreamSource}). Leaving the loop early (a `break`, an error) ends the source's iteration
 * (`return()`, or `cancel()` of a reader), as `for await` does, so a Node stream is destroyed and a web stream
 * cancelled.
 */
export function chunksOf<T>(source: StreamSource<T>, typeName: string): AsyncIterable<T> {
  const s = source as Partial<AsyncIterable<T> & Iterable<T> & { getReader(): StreamReaderLike<T> }> | null;
  if (typeof s?.[Symbol.asyncIterator] === "function") return s as AsyncIterable<T>;
  if (typeof s?.[Symbol.iterator] === "function" && typeof source !== "string") return iterate(s as Iterable<T>);
  if (typeof s?.getReader === "function") return readAll(s.getReader());
  throw new WktJsonError(
    "json-type",
    "$",
    typeName,
    `the stream is ${describe(source)}: give an async iterable, an iterable or a ReadableStream of chunks`,
  );
}

async function* iterate<T>(items: Iterable<T>): AsyncGenerator<T, void, undefined> {
  yield* items;
}

/** The chunks of a web stream's reader; the stream is cancelled when the loop is left early. */
async function* readAll<T>(reader: StreamReaderLike<T>): AsyncGenerator<T, void, undefined> {
  let done = false;
  try {
    for (;;) {
      const r = await reader.read();
      if (r.done) break;
      yield r.value as T;
    }
    done = true;
  } finally {
    if (done) reader.releaseLock();
    else await reader.cancel();
  }
}

/**
 * @internal `e` (an error of one line's or one record's decoder) as the stream's error: the same, at `line` of
 * the stream (for a size-delimited stream, the record's number), its column within the line kept.
 */
export function errorAtLine(e: WktJsonError, line: number): WktJsonError {
  const out = new WktJsonError(
    e.rule,
    e.jsonPath,
    e.typeName,
    e.detail,
    e.cause === undefined ? undefined : { cause: e.cause },
  );
  out.line = line;
  if (e.column !== undefined) out.column = e.column;
  return out;
}

/**
 * @internal An error of one line or record: a {@link WktJsonError} is placed at `line`; anything else (a bug) is
 * thrown as it is.
 */
export function lineError(e: unknown, line: number): WktJsonError {
  if (!isWktJsonError(e)) throw e;
  return errorAtLine(e, line);
}

/** What the stream readers do with a bad line or record: the `onError` option. */
export type StreamErrorHandler = (error: WktJsonError) => void;

/**
 * @internal The `onError` option checked: a function, or undefined (stop at the first bad line: throw); else
 * rule `json-type`, as for `prettySpaces`.
 */
export function onErrorOption(onError: unknown): StreamErrorHandler | undefined {
  if (onError === undefined || typeof onError === "function") return onError as StreamErrorHandler | undefined;
  throw new WktJsonError("json-type", "$", optionsTypeName, `onError must be a function, got ${describe(onError)}`);
}
