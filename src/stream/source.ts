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
  if (typeof s?.[Symbol.asyncIterator] === "function") {
    return drive(() => (s as AsyncIterable<T>)[Symbol.asyncIterator](), typeName);
  }
  if (typeof s?.[Symbol.iterator] === "function" && typeof source !== "string") {
    return drive(() => (s as Iterable<T>)[Symbol.iterator](), typeName);
  }
  if (typeof s?.getReader === "function") return readAll(() => s.getReader!(), typeName);
  throw new WktJsonError(
    "json-type",
    "$",
    typeName,
    `the stream is ${describe(source)}: give an async iterable, an iterable or a ReadableStream of chunks`,
  );
}

/**
 * The values of the iterator `open()` gives, as `for await` takes them (its `return()` called when the loop is
 * left early, not when the iterator threw or ended), with the iterator protocol checked: an iterator or a
 * result that is not an object is rule `json-type` (`for await` throws a TypeError). What the source itself
 * throws is thrown as it is: it is the source's error, not the input's.
 */
async function* drive<T>(
  open: () => Iterator<T> | AsyncIterator<T>,
  typeName: string,
): AsyncGenerator<T, void, undefined> {
  const it = open() as Partial<AsyncIterator<T>> | null;
  if (typeof it !== "object" || it === null || typeof it.next !== "function") {
    throw protocolError(typeName, `its iterator is ${describe(it)}`);
  }
  let open_ = true; // whether the iterator is to be closed if the loop is left
  try {
    for (;;) {
      let r: unknown;
      try {
        r = await it.next();
      } catch (e) {
        open_ = false;
        throw e;
      }
      if (typeof r !== "object" || r === null) {
        open_ = false;
        throw protocolError(typeName, `its iterator gave ${describe(r)}, not an iterator result`);
      }
      const { done, value } = r as IteratorResult<T>;
      if (done) {
        open_ = false;
        return;
      }
      yield value;
    }
  } finally {
    if (open_ && typeof it.return === "function") await it.return();
  }
}

/** The `json-type` error of a source that breaks the iterator or reader protocol. */
function protocolError(typeName: string, what: string): WktJsonError {
  return new WktJsonError(
    "json-type",
    "$",
    typeName,
    `the stream is no async iterable, iterable or ReadableStream: ${what}`,
  );
}

/** The chunks of a web stream's reader; the stream is cancelled when the loop is left early. */
async function* readAll<T>(getReader: () => StreamReaderLike<T>, typeName: string): AsyncGenerator<T, void, undefined> {
  const reader = getReader() as Partial<StreamReaderLike<T>> | null;
  if (typeof reader !== "object" || reader === null || typeof reader.read !== "function") {
    throw protocolError(typeName, `its getReader() gave ${describe(reader)}`);
  }
  let state: "reading" | "done" | "failed" = "reading";
  try {
    for (;;) {
      let r: unknown;
      try {
        r = await reader.read();
      } catch (e) {
        state = "failed";
        throw e;
      }
      if (typeof r !== "object" || r === null) {
        state = "failed";
        throw protocolError(typeName, `its reader's read() gave ${describe(r)}`);
      }
      if ((r as { done?: unknown }).done) break;
      yield (r as { value: T }).value;
    }
    state = "done";
  } finally {
    // Cancelled when left early (an ended or errored stream has nothing to cancel); released in every case, so
    // that the stream is not left locked.
    try {
      if (state === "reading" && typeof reader.cancel === "function") await reader.cancel();
    } finally {
      if (typeof reader.releaseLock === "function") reader.releaseLock();
    }
  }
}

/**
 * @internal `e` (an error of one line's or one record's decoder, made for it) as the stream's error: placed at
 * `line` of the stream (for a size-delimited stream, the record's number), its column within the line kept.
 * Set on `e` itself rather than on a copy: an error costs a stack trace, and a stream of a million bad lines
 * made two of them each.
 */
export function errorAtLine(e: WktJsonError, line: number): WktJsonError {
  e.line = line;
  return e;
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
