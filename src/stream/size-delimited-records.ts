/**
 * The records of a size-delimited stream, framed as they arrive: each a varint of its size in bytes, then that
 * many bytes (protobuf-es's `sizeDelimitedEncode`, Java's `writeDelimitedTo`, C++'s
 * `SerializeDelimitedToZeroCopyStream`; protocolbuffers/protobuf#10229). The size prefix is read by protobuf-es's
 * `sizeDelimitedPeek`; what this adds to its `sizeDelimitedDecodeStream` is a record number on every error, a
 * record past the cap that is skipped (its size is known, so the stream stays framed) rather than ending the
 * stream, a size of 4 GiB or more refused rather than read modulo 2^32, and buffering that copies each byte
 * once: a record that arrives in many chunks is joined once it is whole.
 *
 * @module
 * @internal
 */
import { sizeDelimitedPeek } from "@bufbuild/protobuf/wire";
import { WktJsonError } from "../errors.js";
import { describe } from "../internal/describe.js";
import { formatBound } from "../limits.js";

/**
 * One record: its bytes, or why it is bad. `fatal`: the stream cannot be framed past it (a malformed size, a
 * stream cut short), so nothing follows.
 */
export type SizeDelimitedRecord =
  | { readonly record: number; readonly bytes: Uint8Array; readonly error?: undefined }
  | { readonly record: number; readonly bytes?: undefined; readonly error: WktJsonError; readonly fatal: boolean };

/** For tests: the largest buffer held (a chunk, or the join of a record's chunks). */
export interface SizeDelimitedStats {
  largest: number;
}

/**
 * @internal The records of a size-delimited stream of Uint8Array chunks, numbered from 1: each record's bytes
 * (a view of a chunk, or of the join of the chunks it came in), or its error: rule `size` for a record of more
 * than `maxBytes` bytes (skipped without being held), `binary` for a malformed size or a stream that ends inside
 * a record (fatal). A chunk that is not a Uint8Array is rule `json-type`, thrown.
 */
export async function* sizeDelimitedRecords(
  source: AsyncIterable<Uint8Array>,
  typeName: string,
  maxBytes: number,
  stats?: SizeDelimitedStats,
): AsyncGenerator<SizeDelimitedRecord, void, undefined> {
  let record = 0;
  let parts: Uint8Array[] = []; // bytes not yet framed
  let held = 0; // their length
  let need = 1; // bytes to hold before framing again
  let skip = 0; // bytes of a record over the cap still to drop
  const fail = (detail: string, fatal: boolean, rule: "binary" | "size" = "binary"): SizeDelimitedRecord => ({
    record,
    error: new WktJsonError(rule, "$", typeName, detail),
    fatal,
  });
  for await (const chunk of source as AsyncIterable<unknown>) {
    if (!(chunk instanceof Uint8Array)) {
      throw new WktJsonError(
        "json-type",
        "$",
        typeName,
        `a chunk of the stream is ${describe(chunk)}: give Uint8Arrays`,
      );
    }
    let data = chunk;
    if (skip > 0) {
      const n = Math.min(skip, data.length);
      skip -= n;
      data = data.subarray(n);
    }
    if (data.length === 0) continue;
    parts.push(data);
    held += data.length;
    if (stats !== undefined && held > stats.largest) stats.largest = held;
    if (held < need) continue;
    const buf = parts.length === 1 ? parts[0]! : join(parts, held);
    parts = [];
    held = 0;
    need = 1;
    let p = 0;
    while (p < buf.length) {
      let size: ReturnType<typeof sizeDelimitedPeek>;
      try {
        size = sizeDelimitedPeek(buf.subarray(p, p + 10));
      } catch {
        record++;
        yield fail("the size of the record is not a varint", true);
        return;
      }
      if (size.eof) {
        parts = [buf.subarray(p)];
        held = buf.length - p;
        need = held + 1;
        break;
      }
      record++;
      // The varint of a size of 2^32 or more: 5 bytes with more than 4 bits in the last, or more bytes.
      if (size.offset > 5 || (size.offset === 5 && buf[p + 4]! > 0x0f)) {
        yield fail(
          `the record's size is 4 GiB or more, above the limit of ${formatBound(maxBytes)} bytes`,
          true,
          "size",
        );
        return;
      }
      const start = p + size.offset;
      const end = start + size.size;
      if (size.size > maxBytes) {
        yield fail(
          `the record has ${formatBound(size.size)} bytes, more than the limit of ${formatBound(maxBytes)}`,
          false,
          "size",
        );
        skip = Math.max(0, end - buf.length);
        p = Math.min(end, buf.length);
        continue;
      }
      if (end > buf.length) {
        record--; // not whole yet: framed again when it is
        parts = [buf.subarray(p)];
        held = buf.length - p;
        need = end - p;
        break;
      }
      yield { record, bytes: buf.subarray(start, end) };
      p = end;
    }
  }
  if (held > 0) {
    record++;
    yield fail("the stream ends inside the record: its size or its bytes are cut short", true);
  }
}

/** The chunks `parts`, `length` bytes in all, as one array. */
function join(parts: readonly Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
