/**
 * Streams of messages in the binary encoding, each prefixed with its size as a varint: the size-delimited
 * format of protobuf-es (`sizeDelimitedEncode`, `sizeDelimitedDecodeStream` in `@bufbuild/protobuf/wire`), Java
 * (`writeDelimitedTo`, `parseDelimitedFrom`), C++ and Go (`protodelim`); protocolbuffers/protobuf#10229. The same
 * names and arguments as protobuf-es's, so switching is a change of import; what this adds: each bad record's
 * error is a {@link WktJsonError} with its record number (in `line`), a record past `readMaxBytes` is skipped
 * and the stream read on, and `onError` goes on past bad records (see size-delimited-records.ts for the
 * framing).
 *
 * @module
 */
import { createRegistry, fromBinary, ScalarType, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { sizeDelimitedEncode, type SizeDelimitedDecodeOptions } from "@bufbuild/protobuf/wire";
import type { BinaryWriteOptions } from "@bufbuild/protobuf";
import { WktJsonError } from "../errors.js";
import { checkSchema } from "../wkt/registry.js";
import { checkCount, countOption } from "../internal/options.js";
import {
  bigintCost,
  boxedNumberCost,
  bytesCost,
  extensionCost,
  keyedCost,
  oneofCaseCost,
  slotCost,
} from "../internal/budget.js";
import { isWktJsonError } from "../errors.js";
import { defaultMaxValues, defaultMaxValuesPerCodeUnit, formatBound } from "../limits.js";
import { zeroMessageCost } from "../codec/zero-message.js";
import { scanBinary, type ScanWeights } from "./binary-scan.js";
import { errorAtLine, chunksOf, onErrorOption, type StreamErrorHandler, type StreamSource } from "./source.js";
import { sizeDelimitedRecords, type SizeDelimitedStats } from "./size-delimited-records.js";

/**
 * Default `readMaxBytes` of {@link sizeDelimitedDecodeStream}: the largest record, in bytes (64 MiB, as
 * protobuf-es's).
 */
export const sizeDelimitedReadMaxBytesDefault = 64 * 1024 * 1024;

/** Options of {@link sizeDelimitedDecodeStream}: protobuf-es's, and what to do with a bad record. */
export interface SizeDelimitedReadOptions extends Partial<SizeDelimitedDecodeOptions> {
  /**
   * The largest record, in bytes: one whose size says more is rule `size`, skipped without being read (its
   * size is known, so the records after it are read). Default {@link sizeDelimitedReadMaxBytesDefault}. What a
   * record decodes to is bounded by `maxValues`.
   */
  readMaxBytes?: number;
  /**
   * Called with each bad record's error (its `line` the record's number, from 1), after which the reader goes on
   * with the next record; after a record that cannot be framed (a malformed size, a stream cut short) nothing
   * follows. Without it, the first bad record's error is thrown.
   */
  onError?: StreamErrorHandler | undefined;
  /**
   * The memory budget of each record, in units of 8 bytes, as `fromJsonString`'s `maxValues`: what the
   * messages, lists, maps, bigints and byte arrays decoded from it may take, counted by a scan of its bytes
   * before it is decoded (rule `size` past it). By default a record may take {@link defaultMaxValues} units
   * plus {@link defaultMaxValuesPerCodeUnit} per byte (32 MB and 48 bytes a byte, as a JSON text's), so that 3
   * bytes of the wire format (an empty message) cannot each take hundreds of bytes of memory; a number given
   * is a fixed cap.
   */
  maxValues?: number | undefined;
}

const readMaxBytesRule = { min: 0, unbounded: true, unit: "bytes" } as const;

/**
 * Reads a stream of size-delimited messages of `schema` (each a varint of its size, then its binary encoding),
 * yielding each as it is read, from chunks of bytes split anywhere: an async iterable (a Node `Readable`, a web
 * `ReadableStream`), an iterable, or a `ReadableStream` where it is not async iterable. Memory stays flat: at
 * most one record (up to `readMaxBytes`) and a chunk.
 *
 * @throws {WktJsonError} for the first bad record without `onError`, its `line` the record's number: `binary`
 *   for bytes that are not a message of the type, a malformed size, or a stream that ends inside a record;
 *   `size` for a record larger than `readMaxBytes` or one that would decode past `maxValues`; `json-type` for a
 *   chunk that is not a Uint8Array; at the call, `range` for a bad `readMaxBytes` or `maxValues` and
 *   `json-type` for an `onError` that is not a function.
 * @example
 * const books = [create(BookSchema, { title: "Dune" }), create(BookSchema, { title: "Emma" })];
 * const bytes: Uint8Array[] = [];
 * for await (const chunk of sizeDelimitedEncodeStream(BookSchema, books)) bytes.push(chunk);
 * const titles: string[] = [];
 * for await (const book of sizeDelimitedDecodeStream(BookSchema, bytes)) titles.push(book.title);
 * titles; //=> ["Dune", "Emma"]
 */
export function sizeDelimitedDecodeStream<Desc extends DescMessage>(
  schema: Desc,
  source: StreamSource<Uint8Array>,
  options?: SizeDelimitedReadOptions,
): AsyncGenerator<MessageShape<Desc>, void, undefined> {
  return sizeDelimitedDecodeWith(schema, source, options, undefined);
}

/** @internal {@link sizeDelimitedDecodeStream}, with the framer's stats for tests. */
export function sizeDelimitedDecodeWith<Desc extends DescMessage>(
  schema: Desc,
  source: StreamSource<Uint8Array>,
  options: SizeDelimitedReadOptions | undefined,
  stats: SizeDelimitedStats | undefined,
): AsyncGenerator<MessageShape<Desc>, void, undefined> {
  checkSchema(schema);
  const onError = onErrorOption(options?.onError);
  const maxBytes =
    options?.readMaxBytes === undefined
      ? sizeDelimitedReadMaxBytesDefault
      : checkCount("readMaxBytes", options.readMaxBytes, readMaxBytesRule);
  const keepUnknown = options?.readUnknownFields !== false;
  const readOptions = { readUnknownFields: keepUnknown };
  const maxValues = options?.maxValues === undefined ? undefined : countOption("maxValues", options.maxValues, 0);
  const weights = keepUnknown ? weightsKeepingUnknown : weightsDroppingUnknown;
  const typeName = schema.typeName;
  const records = sizeDelimitedRecords(chunksOf(source, typeName), typeName, maxBytes, stats);
  return (async function* () {
    for await (const r of records) {
      let message: MessageShape<Desc> | undefined;
      let error = r.error;
      if (r.bytes !== undefined) {
        try {
          error = recordTooCostly(schema, r.bytes, maxValues, weights);
          if (error === undefined) message = fromBinary(schema, r.bytes, readOptions);
        } catch (e) {
          if (isWktJsonError(e)) throw e; // a bug of the scan: not the record's

          const detail = `the record is not a serialized ${typeName}: ${e instanceof Error ? e.message : String(e)}`;
          error = new WktJsonError("binary", "$", typeName, detail);
        }
      }
      if (error === undefined) {
        yield message!;
        continue;
      }
      const located = errorAtLine(error, r.record);
      if (onError === undefined) throw located;
      onError(located);
      if (r.error !== undefined && r.fatal) return;
    }
  })();
}

/** The registry of the scan: none, as `fromBinary` keeps extensions and an Any's value as bytes. */
const noRegistry = createRegistry();

/**
 * What `fromBinary` allocates, in the units of the decoder's budget (internal/budget.ts): a message what
 * `create()` gives, an element its slot, a map entry its key, a bigint, a Uint8Array, a boxed double, a oneof's
 * holder, an unknown field its record.
 */
function weightsOf(unknownCost: number): ScanWeights {
  return {
    message: (desc) => {
      const c = zeroMessageCost(desc);
      return c.enter + c.upgrade;
    },
    field: (field) => {
      if (field === undefined) return unknownCost;
      let w = field.fieldKind === "list" ? slotCost : field.fieldKind === "map" ? keyedCost : 0;
      if (field.oneof !== undefined) w += oneofCaseCost;
      const scalar = field.fieldKind === "scalar" || field.fieldKind === "list" ? field.scalar : undefined;
      if (scalar === ScalarType.BYTES) w += bytesCost;
      else if (
        (scalar === ScalarType.INT64 ||
          scalar === ScalarType.UINT64 ||
          scalar === ScalarType.SINT64 ||
          scalar === ScalarType.FIXED64 ||
          scalar === ScalarType.SFIXED64) &&
        (field as { readonly longAsString?: boolean }).longAsString !== true
      )
        w += bigintCost;
      else if ((scalar === ScalarType.DOUBLE || scalar === ScalarType.FLOAT) && field.fieldKind === "scalar")
        w += boxedNumberCost;
      return w;
    },
  };
}
/** @internal The weights of a record read with its unknown fields (the default). */
export const weightsKeepingUnknown = weightsOf(extensionCost);
const weightsDroppingUnknown = weightsOf(0);

/**
 * The `size` error of a record that would decode to more than its budget (see the `maxValues` option), or
 * undefined; the scan's own steps are metered.
 */
function recordTooCostly(
  schema: DescMessage,
  bytes: Uint8Array,
  maxValues: number | undefined,
  weights: ScanWeights,
): WktJsonError | undefined {
  const cap = maxValues ?? defaultMaxValues + defaultMaxValuesPerCodeUnit * bytes.length;
  if (!scanBinary(bytes, schema, noRegistry, cap, undefined, weights)) return undefined;
  const allowance =
    maxValues === undefined
      ? `its size allows (maxValues: ${formatBound(defaultMaxValues)} units of 8 bytes plus ${defaultMaxValuesPerCodeUnit} per byte)`
      : `maxValues (${formatBound(maxValues)} units of 8 bytes)`;
  return new WktJsonError("size", "$", schema.typeName, `the record decodes to more memory than ${allowance}`);
}

/**
 * Writes messages of `schema` size-delimited: yields, for each, the varint of its size and its binary encoding
 * (protobuf-es's `sizeDelimitedEncode`, with `options`), from an iterable or an async iterable of messages.
 *
 * @throws {WktJsonError} rule `binary`, with `line` the message's number, for a message the binary encoding
 *   cannot write (a proto2 required field unset); `json-type` for messages given otherwise than as an iterable.
 * @example
 * for await (const chunk of sizeDelimitedEncodeStream(Int32ValueSchema, [create(Int32ValueSchema, { value: 150 })])) {
 *   chunk; //=> new Uint8Array([3, 8, 150, 1]) // the size (3), then the message
 * }
 */
export function sizeDelimitedEncodeStream<Desc extends DescMessage>(
  schema: Desc,
  messages: StreamSource<MessageShape<Desc>>,
  options?: Partial<BinaryWriteOptions>,
): AsyncGenerator<Uint8Array, void, undefined> {
  const items = chunksOf(messages, checkSchema(schema).typeName);
  const writeOptions = { writeUnknownFields: options?.writeUnknownFields !== false };
  return (async function* () {
    let record = 0;
    for await (const message of items) {
      record++;
      let bytes: Uint8Array;
      try {
        bytes = sizeDelimitedEncode(schema, message, writeOptions);
      } catch (e) {
        const detail = `cannot write the binary encoding: ${e instanceof Error ? e.message : String(e)}`;
        throw errorAtLine(new WktJsonError("binary", "$", schema.typeName, detail), record);
      }
      yield bytes;
    }
  })();
}
