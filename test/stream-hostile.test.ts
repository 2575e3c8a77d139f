// The stream readers and writers against hostile input: wrong types in every argument and option (no foreign
// exception), sources that break the iterator or reader protocol, sources left early (the source is closed),
// sizes and lines at the edges. Memory is judged by what is held (the splitters' stats), never by time.
import { create, type DescMessage } from "@bufbuild/protobuf";
import { sizeDelimitedEncode } from "@bufbuild/protobuf/wire";
import { Int32ValueSchema, ListValueSchema } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  isWktJsonError,
  ndjsonDecodeStream,
  ndjsonEncodeStream,
  sizeDelimitedDecodeStream,
  sizeDelimitedEncodeStream,
  type WktJsonError,
} from "../src/index.js";
import { ndjsonDecodeWith } from "../src/stream/ndjson.js";
import { sizeDelimitedDecodeWith } from "../src/stream/size-delimited.js";

const one = create(Int32ValueSchema, { value: 1 });
const oneRecord = sizeDelimitedEncode(Int32ValueSchema, one);

/** Runs the call and reads what it yields (at most 100 items); returns our error, or undefined. */
async function ours(call: () => AsyncIterable<unknown>): Promise<WktJsonError | undefined> {
  try {
    let n = 0;
    for await (const _ of call()) if (++n >= 100) break;
  } catch (e) {
    if (isWktJsonError(e)) return e;
    throw new Error(`a foreign exception escaped: ${e instanceof Error ? `${e.name}: ${e.message}` : typeof e}`, {
      cause: e,
    });
  }
  return undefined;
}

/** Each function with the one argument or option that takes the hostile value `h`; the others valid. */
const calls: readonly [string, (h: unknown) => AsyncIterable<unknown>][] = [
  ["ndjsonDecodeStream(h, ...)", (h) => ndjsonDecodeStream(h as DescMessage, ["1\n"])],
  ["ndjsonDecodeStream(s, h)", (h) => ndjsonDecodeStream(Int32ValueSchema, h as never)],
  ["ndjsonDecodeStream(s, [h])", (h) => ndjsonDecodeStream(Int32ValueSchema, [h] as never)],
  ["ndjsonDecodeStream(s, ['1', h])", (h) => ndjsonDecodeStream(Int32ValueSchema, ["1", h] as never)],
  ["ndjsonDecodeStream(s, src, h)", (h) => ndjsonDecodeStream(Int32ValueSchema, ["1\n"], h as never)],
  ...(["maxLength", "onError", "skipBlankLines", "lines", "maxDepth", "maxValues", "registry", "path"] as const).map(
    (k): [string, (h: unknown) => AsyncIterable<unknown>] => [
      `ndjsonDecodeStream(s, src, { ${k}: h })`,
      (h) => ndjsonDecodeStream(Int32ValueSchema, ["1\n\n{]\n"], { [k]: h }),
    ],
  ),
  ["ndjsonEncodeStream(h, ...)", (h) => ndjsonEncodeStream(h as DescMessage, [one])],
  ["ndjsonEncodeStream(s, h)", (h) => ndjsonEncodeStream(Int32ValueSchema, h as never)],
  ["ndjsonEncodeStream(s, [h])", (h) => ndjsonEncodeStream(Int32ValueSchema, [h] as never)],
  ["ndjsonEncodeStream(s, m, h)", (h) => ndjsonEncodeStream(Int32ValueSchema, [one], h as never)],
  ...(["prettySpaces", "registry", "useProtoFieldName", "maxDepth"] as const).map(
    (k): [string, (h: unknown) => AsyncIterable<unknown>] => [
      `ndjsonEncodeStream(s, m, { ${k}: h })`,
      (h) => ndjsonEncodeStream(Int32ValueSchema, [one], { [k]: h }),
    ],
  ),
  ["sizeDelimitedDecodeStream(h, ...)", (h) => sizeDelimitedDecodeStream(h as DescMessage, [oneRecord])],
  ["sizeDelimitedDecodeStream(s, h)", (h) => sizeDelimitedDecodeStream(Int32ValueSchema, h as never)],
  ["sizeDelimitedDecodeStream(s, [h])", (h) => sizeDelimitedDecodeStream(Int32ValueSchema, [h] as never)],
  ["sizeDelimitedDecodeStream(s, src, h)", (h) => sizeDelimitedDecodeStream(Int32ValueSchema, [oneRecord], h as never)],
  ...(["readMaxBytes", "maxValues", "onError", "readUnknownFields"] as const).map(
    (k): [string, (h: unknown) => AsyncIterable<unknown>] => [
      `sizeDelimitedDecodeStream(s, src, { ${k}: h })`,
      (h) => sizeDelimitedDecodeStream(Int32ValueSchema, [oneRecord, new Uint8Array([1, 0xff])], { [k]: h }),
    ],
  ),
  ["sizeDelimitedEncodeStream(h, ...)", (h) => sizeDelimitedEncodeStream(h as DescMessage, [one])],
  ["sizeDelimitedEncodeStream(s, h)", (h) => sizeDelimitedEncodeStream(Int32ValueSchema, h as never)],
  ["sizeDelimitedEncodeStream(s, [h])", (h) => sizeDelimitedEncodeStream(Int32ValueSchema, [h] as never)],
  ["sizeDelimitedEncodeStream(s, m, h)", (h) => sizeDelimitedEncodeStream(Int32ValueSchema, [one], h as never)],
  [
    "sizeDelimitedEncodeStream(s, m, { writeUnknownFields: h })",
    (h) => sizeDelimitedEncodeStream(Int32ValueSchema, [one], { writeUnknownFields: h as boolean }),
  ],
];

/** Values of every JavaScript type; functions and objects that look like streams too. */
const hostile: readonly unknown[] = [
  null,
  undefined,
  0,
  NaN,
  -Infinity,
  "",
  "1\n",
  true,
  5n,
  Symbol("s"),
  {},
  [],
  Object.create(null),
  () => 1,
  new Uint8Array([0xff]),
  new Date(0),
  { getReader: 5 },
  { getReader: () => null },
  { getReader: () => ({ read: () => 5 }) },
  { [Symbol.asyncIterator]: () => 5 },
  { [Symbol.asyncIterator]: () => ({ next: () => null }) },
  { [Symbol.iterator]: () => ({ next: () => 7 }) },
  { $typeName: "google.protobuf.Int32Value", value: "x" },
  { kind: "message", typeName: "google.protobuf.Int32Value", fields: 5 },
];

describe("no foreign exception from the stream functions", () => {
  it.each(calls)("%s, with values of every type", async (_, call) => {
    for (const h of hostile) await ours(() => call(h));
  });

  it("any value in any argument: a result or our error (fast-check)", async () => {
    const value = fc.oneof(
      fc.anything({ withBigInt: true, withBoxedValues: true, withMap: true, withSet: true, withTypedArray: true }),
      fc.constantFrom(...hostile),
    );
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: calls.length - 1 }), value, async (i, h) => {
        await ours(() => calls[i]![1](h));
      }),
      { numRuns: 1000 },
    );
  });

  it("a source that breaks the iterator or reader protocol is rule json-type; its own error is its own", async () => {
    for (const source of hostile.slice(-8, -2)) {
      expect(await ours(() => ndjsonDecodeStream(Int32ValueSchema, source as never))).toMatchObject({
        rule: "json-type",
      });
    }
    const own = new Error("disk on fire");
    async function* failing() {
      yield "1\n";
      throw own;
    }
    await expect(async () => {
      for await (const _ of ndjsonDecodeStream(Int32ValueSchema, failing()));
    }).rejects.toBe(own);
  });
});

describe("the source is closed when the consumer leaves early, and released when it ends or fails", () => {
  /** A web ReadableStream of `chunks`, which records whether it was cancelled. */
  function webStream(chunks: readonly Uint8Array[], fail?: Error) {
    const state = { cancelled: false, pulled: 0 };
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (state.pulled < chunks.length) c.enqueue(chunks[state.pulled++]!);
        else if (fail !== undefined) c.error(fail);
        else c.close();
      },
      cancel() {
        state.cancelled = true;
      },
    });
    // As Safari's: no async iterator, read through getReader().
    const source = { getReader: () => stream.getReader() };
    return { stream, source, state };
  }
  const lines = Array.from({ length: 10 }, () => new TextEncoder().encode("1\n"));
  const records = Array.from({ length: 10 }, () => oneRecord);

  it("a ReadableStream: cancelled on break, released at its end and when it errors", async () => {
    const readers = [
      [(s: object) => ndjsonDecodeStream(Int32ValueSchema, s as never), lines],
      [(s: object) => sizeDelimitedDecodeStream(Int32ValueSchema, s as never), records],
    ] as const;
    for (const [read, chunks] of readers) {
      const early = webStream(chunks);
      for await (const _ of read(early.source)) break;
      expect(early.state.cancelled).toBe(true);
      expect(early.stream.locked).toBe(false);
      expect(early.state.pulled).toBeLessThanOrEqual(2); // nothing read ahead

      const whole = webStream(chunks);
      let n = 0;
      for await (const _ of read(whole.source)) n++;
      expect(n).toBe(10);
      expect([whole.state.cancelled, whole.stream.locked]).toEqual([false, false]);

      const boom = new Error("network down");
      const failing = webStream(chunks, boom);
      await expect(async () => {
        for await (const _ of read(failing.source));
      }).rejects.toBe(boom);
      expect(failing.stream.locked).toBe(false);
    }
  });

  it("an iterator, sync or async: return() on break and on our error, not after its end", async () => {
    for (const kind of ["sync", "async"] as const) {
      const log: string[] = [];
      const make = (chunks: unknown[]) => {
        let i = 0;
        const iterator = {
          next: () => (i < chunks.length ? { done: false, value: chunks[i++] } : { done: true, value: undefined }),
          return: () => {
            log.push("return");
            return { done: true, value: undefined };
          },
        };
        return kind === "sync" ? { [Symbol.iterator]: () => iterator } : { [Symbol.asyncIterator]: () => iterator };
      };
      for await (const _ of ndjsonDecodeStream(Int32ValueSchema, make(["1\n", "2\n"]) as never)) break;
      expect(log).toEqual(["return"]);
      for await (const _ of ndjsonDecodeStream(Int32ValueSchema, make(["1\n", "2\n"]) as never));
      expect(log).toEqual(["return"]);
      expect(await ours(() => ndjsonDecodeStream(Int32ValueSchema, make(["{]\n", "2\n"]) as never))).toMatchObject({
        rule: "syntax",
        line: 1,
      });
      expect(log).toEqual(["return", "return"]);
      expect(
        await ours(() => sizeDelimitedDecodeStream(Int32ValueSchema, make([oneRecord, 5]) as never)),
      ).toMatchObject({ rule: "json-type" });
      expect(log).toEqual(["return", "return", "return"]);
    }
  });
});

describe("NDJSON at the edges", () => {
  it("a stream with no newline: refused at maxLength, held no further, in chunks of any size", async () => {
    for (const size of [1, 7, 4096]) {
      const chunks = Array.from({ length: Math.ceil(200_000 / size) }, () => "x".repeat(size));
      const stats = { longest: 0 };
      const errors: WktJsonError[] = [];
      const read = ndjsonDecodeWith(
        Int32ValueSchema,
        chunks,
        { maxLength: 1000, onError: (e) => errors.push(e) },
        stats,
      );
      for await (const _ of read);
      expect(errors.map((e) => [e.line, e.rule])).toEqual([[1, "size"]]);
      expect(stats.longest).toBeLessThanOrEqual(1002);
    }
  });

  it("100,000 blank lines are skipped (or each refused, by its number); a line of nested [ is refused", async () => {
    const blank = "\n".repeat(50_000) + " \r\n".repeat(50_000) + "5";
    const read = [];
    for await (const m of ndjsonDecodeStream(Int32ValueSchema, [blank])) read.push(m.value);
    expect(read).toEqual([5]);
    let bad = 0;
    for await (const _ of ndjsonDecodeStream(Int32ValueSchema, [blank], {
      skipBlankLines: false,
      onError: () => bad++,
    }));
    expect(bad).toBe(100_000);
    const deep = "[".repeat(100_000);
    const errors: WktJsonError[] = [];
    const ok = [];
    for await (const m of ndjsonDecodeStream(ListValueSchema, [deep + "\n[1]"], { onError: (e) => errors.push(e) })) {
      ok.push(m.values.length);
    }
    expect(ok).toEqual([1]);
    expect(errors.map((e) => [e.line, e.rule])).toEqual([[1, "depth"]]);
  });
});

describe("size-delimited at the edges", () => {
  const decode = async (bytes: number[], options = {}) => {
    const errors: WktJsonError[] = [];
    const read: number[] = [];
    for await (const m of sizeDelimitedDecodeStream(Int32ValueSchema, [new Uint8Array(bytes)], {
      ...options,
      onError: (e) => errors.push(e),
    })) {
      read.push(m.value);
    }
    return { read, errors: errors.map((e) => [e.line, e.rule]) };
  };

  it("zero-length records are empty messages; 200,000 of them, one at a time", async () => {
    expect(await decode([0, 0, ...oneRecord, 0])).toEqual({ read: [0, 0, 1, 0], errors: [] });
    const stats = { largest: 0 };
    let n = 0;
    for await (const _ of sizeDelimitedDecodeWith(Int32ValueSchema, [new Uint8Array(200_000)], undefined, stats)) n++;
    expect(n).toBe(200_000);
    expect(stats.largest).toBe(200_000); // the one chunk given, nothing more
  });

  it("sizes of 2^63, of 10 bytes and more, are refused and end the stream", async () => {
    const twoTo63 = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01];
    for (const size of [
      twoTo63,
      [0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
      [0xff, 0xff, 0xff, 0xff, 0x1f],
    ]) {
      expect(await decode([...oneRecord, ...size, 0, ...oneRecord], { readMaxBytes: Infinity })).toEqual({
        read: [1],
        errors: [[2, "size"]],
      });
    }
    expect(await decode([...oneRecord, ...new Array(11).fill(0x80), 0])).toEqual({
      read: [1],
      errors: [[2, "binary"]],
    });
    // A size that fits but whose bytes never come: cut short, nothing held past what came.
    expect(await decode([...oneRecord, 0xff, 0xff, 0x03, 1, 2, 3])).toEqual({ read: [1], errors: [[2, "binary"]] });
  });
});
