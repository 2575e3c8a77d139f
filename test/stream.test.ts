// Streams of messages: NDJSON (ndjsonDecodeStream, ndjsonEncodeStream) and size-delimited binary
// (sizeDelimitedDecodeStream, sizeDelimitedEncodeStream), read from chunks split anywhere.
import { create, toBinary } from "@bufbuild/protobuf";
import { sizeDelimitedDecodeStream as protobufEsDecodeStream, sizeDelimitedEncode } from "@bufbuild/protobuf/wire";
import {
  DurationSchema,
  Int32ValueSchema,
  ListValueSchema,
  SourceContextSchema,
  StringValueSchema,
  TimestampSchema,
} from "@bufbuild/protobuf/wkt";
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
import { TestAllRequiredTypesProto2 } from "./conformance-registry.js";
import { concatBytes } from "./helpers.js";
import { sizeDelimitedDecodeWith } from "../src/stream/size-delimited.js";

const encoder = new TextEncoder();

/** Everything an async iterable yields. */
async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** The error an async iterable ends with (a WktJsonError), and what it yielded before. */
async function failure<T>(items: AsyncIterable<T>): Promise<{ error: WktJsonError; before: T[] }> {
  const before: T[] = [];
  try {
    for await (const item of items) before.push(item);
  } catch (e) {
    if (isWktJsonError(e)) return { error: e, before };
    throw e;
  }
  throw new Error("expected a WktJsonError, but the stream ended");
}

/** `bytes` cut at the given offsets. */
function cut(bytes: Uint8Array, at: readonly number[]): Uint8Array[] {
  const points = [...new Set(at.map((i) => i % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let start = 0;
  for (const p of [...points, bytes.length]) {
    out.push(bytes.subarray(start, p));
    start = p;
  }
  return out;
}

const names = (items: { fileName: string }[]) => items.map((m) => m.fileName);

/** Lines of SourceContext with characters of 1 to 4 UTF-8 bytes, a `\r\n` and no newline at the end. */
const text = '{"fileName": "a.proto"}\n{"fileName": "é/ß.proto"}\r\n{"fileName": "日本.proto"}\n{"fileName": "😀"}';
const textNames = ["a.proto", "é/ß.proto", "日本.proto", "😀"];

describe("ndjsonDecodeStream", () => {
  it("reads lines from bytes cut anywhere, inside characters and between \\r and \\n too", async () => {
    const bytes = encoder.encode(text);
    for (let i = 0; i <= bytes.length; i++) {
      expect(names(await all(ndjsonDecodeStream(SourceContextSchema, cut(bytes, [i]))))).toEqual(textNames);
    }
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { maxLength: 12 }), async (at) => {
        expect(names(await all(ndjsonDecodeStream(SourceContextSchema, cut(bytes, at))))).toEqual(textNames);
      }),
      { numRuns: 100 },
    );
  });

  it("any lines, any line ends, any cuts: the values written, in order, each bad one by its number", async () => {
    const line = fc.oneof(
      {
        weight: 4,
        arbitrary: fc
          .string({ unit: fc.constantFrom("a", " ", "é", "日", "😀", '"', "\\", "\n", "\r", "\u2028"), maxLength: 8 })
          .map((v) => ({ v, text: JSON.stringify(v) })),
      },
      { weight: 1, arbitrary: fc.constantFrom({ text: "" }, { text: " \t" }, { text: "{" }, { text: "7" }) },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(line, fc.constantFrom("\n", "\r\n")), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (lines, at) => {
          const bytes = encoder.encode(lines.map(([l, end]) => l.text + end).join(""));
          const bad: number[] = [];
          const read = await all(
            ndjsonDecodeStream(StringValueSchema, cut(bytes, at), { onError: (e) => bad.push(e.line!) }),
          );
          expect(read.map((m) => m.value)).toEqual(lines.flatMap(([l]) => ("v" in l ? [l.v] : [])));
          const want = lines.flatMap(([l], i) => ("v" in l || l.text.trim() === "" ? [] : [i + 1]));
          expect(bad).toEqual(want);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("reads strings cut anywhere, from an iterable, an async iterable and a ReadableStream", async () => {
    const pieces = [text.slice(0, 30), text.slice(30, 31), text.slice(31)];
    expect(names(await all(ndjsonDecodeStream(SourceContextSchema, pieces)))).toEqual(textNames);
    async function* gen() {
      yield* pieces;
    }
    expect(names(await all(ndjsonDecodeStream(SourceContextSchema, gen())))).toEqual(textNames);
    const stream = () =>
      new ReadableStream<Uint8Array>({
        start(c) {
          for (const chunk of cut(encoder.encode(text), [5, 40, 41])) c.enqueue(chunk);
          c.close();
        },
      });
    expect(names(await all(ndjsonDecodeStream(SourceContextSchema, stream())))).toEqual(textNames);
    // a browser's ReadableStream that is not async iterable: read through getReader()
    const s = stream();
    const readerOnly = { getReader: () => s.getReader() };
    expect(names(await all(ndjsonDecodeStream(SourceContextSchema, readerOnly)))).toEqual(textNames);
  });

  it("skips blank lines (counted in the line numbers), or refuses them under skipBlankLines: false", async () => {
    const lines = ['"1s"', "", "  \t\r", '"2s"', '"x"'].join("\n") + "\n";
    const { error, before } = await failure(ndjsonDecodeStream(DurationSchema, [lines]));
    expect(before.map((d) => d.seconds)).toEqual([1n, 2n]);
    expect(error).toMatchObject({ rule: "syntax", line: 5, jsonPath: "$", typeName: "google.protobuf.Duration" });
    const strict = await failure(ndjsonDecodeStream(DurationSchema, [lines], { skipBlankLines: false }));
    expect(strict.error).toMatchObject({ rule: "syntax", line: 2, jsonPath: "$" });
  });

  it("a last line with or without a newline; a stream of nothing or of one newline has no message", async () => {
    expect(await all(ndjsonDecodeStream(Int32ValueSchema, ["1\n2"]))).toHaveLength(2);
    expect(await all(ndjsonDecodeStream(Int32ValueSchema, ["1\n2\n"]))).toHaveLength(2);
    expect(await all(ndjsonDecodeStream(Int32ValueSchema, []))).toEqual([]);
    expect(await all(ndjsonDecodeStream(Int32ValueSchema, ["\n"]))).toEqual([]);
  });

  it("lines: true reads each chunk as a line, as readline gives them; without it the error says so", async () => {
    const readline = ['{"fileName": "a"}', "", '{"fileName": "b"}\r', "\ufeff{}"]; // no \n, as readline's
    const errors: WktJsonError[] = [];
    const read = await all(
      ndjsonDecodeStream(SourceContextSchema, asAsync(readline), { lines: true, onError: (e) => errors.push(e) }),
    );
    expect(names(read)).toEqual(["a", "b"]);
    expect(errors.map((e) => [e.line, e.rule])).toEqual([[4, "syntax"]]); // a BOM on line 1 only
    const bytes = readline.slice(0, 3).map((l) => encoder.encode(l + "\n"));
    expect(names(await all(ndjsonDecodeStream(SourceContextSchema, bytes, { lines: true })))).toEqual(["a", "b"]);
    const inside = await failure(ndjsonDecodeStream(SourceContextSchema, ['{"fileName": "a"}\n{}'], { lines: true }));
    expect(inside.error).toMatchObject({ rule: "syntax", line: 1 });
    expect(inside.error.detail).toMatch(/holds a newline: under lines: true each chunk is one line/);
    // Without it: one line of all the chunks, whose error tells what to pass.
    const joined = await failure(ndjsonDecodeStream(SourceContextSchema, asAsync(readline.slice(0, 3))));
    expect(joined.error).toMatchObject({ rule: "syntax", line: 1 });
    expect(joined.error.detail).toMatch(/no chunk of the stream held a newline: .*pass lines: true$/);
    const long = await failure(ndjsonDecodeStream(Int32ValueSchema, ["1", "2", "3"], { maxLength: 2 }));
    expect(long.error).toMatchObject({ rule: "size", line: 1 });
    expect(long.error.detail).toMatch(/pass lines: true$/);
    // Chunks of text, or bytes, cut inside a line: no hint.
    for (const source of [["{", "]\n1"], ["{", "]"].map((t) => encoder.encode(t))]) {
      expect((await failure(ndjsonDecodeStream(Int32ValueSchema, source))).error.detail).not.toMatch(/lines: true/);
    }
  });

  it("drops a byte-order mark at the start of the stream only", async () => {
    const bom = [0xef, 0xbb, 0xbf];
    const bytes = new Uint8Array([...bom, ...encoder.encode("1\n"), ...bom, ...encoder.encode("2\n")]);
    const { error, before } = await failure(ndjsonDecodeStream(Int32ValueSchema, cut(bytes, [1, 2])));
    expect(before.map((m) => m.value)).toEqual([1]);
    expect(error).toMatchObject({ rule: "syntax", line: 2 });
  });

  it("gives each bad line's error with its line number, its JSON path and its column in the line", async () => {
    const lines = '{"fileName": "ok"}\n{"fileName": 7}\n{"fileName": "ok"}\n  {"fileNam": "x"}\n';
    const { error, before } = await failure(ndjsonDecodeStream(SourceContextSchema, [lines]));
    expect(names(before)).toEqual(["ok"]);
    expect(error).toMatchObject({ rule: "json-type", line: 2, column: 14, jsonPath: "$.fileName", path: ["fileName"] });
    const errors: WktJsonError[] = [];
    const read = await all(ndjsonDecodeStream(SourceContextSchema, [lines], { onError: (e) => errors.push(e) }));
    expect(names(read)).toEqual(["ok", "ok"]);
    expect(errors.map((e) => [e.rule, e.line, e.column, e.jsonPath])).toEqual([
      ["json-type", 2, 14, "$.fileName"],
      ["unknown-field", 4, 15, "$.fileNam"],
    ]);
    // the read options reach every line: a path under the caller's document
    const under = await failure(ndjsonDecodeStream(SourceContextSchema, [lines], { path: "$.rows" }));
    expect(under.error).toMatchObject({ line: 2, jsonPath: "$.rows.fileName" });
  });

  it("onError may stop the stream by throwing", async () => {
    const lines = Array.from({ length: 10 }, () => "x").join("\n");
    let bad = 0;
    const stop = new Error("too many bad lines");
    const read = ndjsonDecodeStream(Int32ValueSchema, [lines], {
      onError: () => {
        if (++bad === 3) throw stop;
      },
    });
    await expect(all(read)).rejects.toBe(stop);
    expect(bad).toBe(3);
  });

  it("refuses a line past maxLength without holding it, and reads the next line", async () => {
    const long = '"' + "x".repeat(100_000) + '"';
    const chunks = [
      '{"fileName": "a"}\n',
      ...Array.from({ length: 100 }, (_, i) => long.slice(i * 1000, (i + 1) * 1000)),
    ];
    chunks.push('"\n{"fileName": "b"}\n');
    const stats = { longest: 0 };
    const errors: WktJsonError[] = [];
    const read = await all(
      ndjsonDecodeWith(SourceContextSchema, chunks, { maxLength: 50, onError: (e) => errors.push(e) }, stats),
    );
    expect(names(read)).toEqual(["a", "b"]);
    expect(errors.map((e) => [e.rule, e.line])).toEqual([["size", 2]]);
    expect(stats.longest).toBeLessThanOrEqual(52);
    // maxLength itself is accepted, and a `\r` before the newline does not count
    const at = '"' + "y".repeat(8) + '"';
    expect(
      await all(ndjsonDecodeStream(SourceContextSchema, [`{"fileName": ${at}}\r\n`], { maxLength: 24 })),
    ).toHaveLength(1);
    const over = await failure(ndjsonDecodeStream(SourceContextSchema, [`{"fileName": ${at} }\n`], { maxLength: 24 }));
    expect(over.error).toMatchObject({ rule: "size", line: 1, jsonPath: "$" });
  });

  it("a line that is not UTF-8 is bad, and the next line decodes; a character cut short at the end too", async () => {
    const bytes = new Uint8Array([...encoder.encode('"1s"\n"'), 0xff, ...encoder.encode('s"\n"2s"\n'), 0xe6, 0x97]);
    const errors: WktJsonError[] = [];
    const read = await all(ndjsonDecodeStream(DurationSchema, cut(bytes, [6, 7]), { onError: (e) => errors.push(e) }));
    expect(read.map((d) => d.seconds)).toEqual([1n, 2n]);
    expect(errors.map((e) => [e.rule, e.line])).toEqual([
      ["syntax", 2],
      ["syntax", 4],
    ]);
  });

  it("20,000 lines from a generator: every message, one line held at a time, read as they are asked for", async () => {
    let made = 0;
    async function* source() {
      for (let i = 0; i < 20_000; i++) {
        made++;
        yield encoder.encode(`{"fileName": "f${i}.proto"}\n`);
      }
    }
    const stats = { longest: 0 };
    let count = 0;
    let ahead = 0;
    for await (const m of ndjsonDecodeWith(SourceContextSchema, source(), undefined, stats)) {
      if (m.fileName !== `f${count}.proto`) throw new Error(`line ${count + 1}: ${m.fileName}`);
      count++;
      ahead = Math.max(ahead, made - count);
    }
    expect(count).toBe(20_000);
    expect(stats.longest).toBeLessThanOrEqual(32); // one line, never the stream
    expect(ahead).toBeLessThanOrEqual(1); // nothing is read ahead of the consumer
  });

  it("stops the source when the consumer stops", async () => {
    let closed = false;
    function* source() {
      try {
        for (;;) yield "1\n";
      } finally {
        closed = true;
      }
    }
    for await (const m of ndjsonDecodeStream(Int32ValueSchema, source())) if (m.value === 1) break;
    expect(closed).toBe(true);
  });

  it("refuses a source or chunks of another kind (json-type), and bad options at the call", async () => {
    const bad = [
      [[new Uint8Array([0x31]), "2"], "a string after bytes"],
      [[{}], "an object"],
    ] as const;
    for (const [source, why] of bad) {
      const { error } = await failure(ndjsonDecodeStream(Int32ValueSchema, source as never));
      expect(error.rule, why).toBe("json-type");
    }
    const atCall = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e as WktJsonError;
      }
      throw new Error("no error at the call");
    };
    for (const source of [42, "1\n", null]) {
      expect(atCall(() => ndjsonDecodeStream(Int32ValueSchema, source as never))).toMatchObject({ rule: "json-type" });
      expect(atCall(() => sizeDelimitedDecodeStream(Int32ValueSchema, source as never))).toMatchObject({
        rule: "json-type",
      });
      expect(atCall(() => ndjsonEncodeStream(Int32ValueSchema, source as never))).toMatchObject({ rule: "json-type" });
    }
    expect(atCall(() => ndjsonDecodeStream(Int32ValueSchema, [], { maxLength: -1 }))).toMatchObject({
      rule: "range",
      typeName: "options",
    });
    expect(atCall(() => ndjsonDecodeStream(Int32ValueSchema, [], { onError: 1 as never }))).toMatchObject({
      rule: "json-type",
      typeName: "options",
    });
    expect(atCall(() => ndjsonDecodeStream(Int32ValueSchema, [], { maxDepth: 0 }))).toMatchObject({ rule: "range" });
    expect(atCall(() => ndjsonEncodeStream(Int32ValueSchema, [], { prettySpaces: 2 }))).toMatchObject({
      rule: "range",
      typeName: "options",
    });
  });
});

describe("ndjsonEncodeStream", () => {
  it("writes one line per message, which ndjsonDecodeStream reads back", async () => {
    const messages = textNames.map((fileName) => create(SourceContextSchema, { fileName }));
    const lines = await all(ndjsonEncodeStream(SourceContextSchema, messages));
    expect(lines[0]).toBe('{"fileName":"a.proto"}\n');
    expect(names(await all(ndjsonDecodeStream(SourceContextSchema, lines)))).toEqual(textNames);
  });

  it("passes the options through, and gives a message it cannot write its line number", async () => {
    const ok = create(TimestampSchema, { seconds: 0n });
    const bad = create(TimestampSchema, { seconds: -1n, nanos: -1 });
    const { error, before } = await failure(ndjsonEncodeStream(TimestampSchema, [ok, bad]));
    expect(before).toEqual(['"1970-01-01T00:00:00Z"\n']);
    expect(error).toMatchObject({ rule: "range", line: 2, typeName: "google.protobuf.Timestamp" });
    const proto = create(SourceContextSchema, { fileName: "a" });
    expect(await all(ndjsonEncodeStream(SourceContextSchema, [proto], { useProtoFieldName: true }))).toEqual([
      '{"file_name":"a"}\n',
    ]);
  });
});

describe("sizeDelimitedDecodeStream", () => {
  const messages = textNames.map((fileName) => create(SourceContextSchema, { fileName }));
  const bytes = concatBytes(...messages.map((m) => sizeDelimitedEncode(SourceContextSchema, m)));

  it("reads records cut anywhere, as protobuf-es's sizeDelimitedDecodeStream does", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { maxLength: 12 }), async (at) => {
        const ours = await all(sizeDelimitedDecodeStream(SourceContextSchema, cut(bytes, at)));
        const theirs = await all(protobufEsDecodeStream(SourceContextSchema, asAsync(cut(bytes, at))));
        expect(ours).toEqual(theirs);
        expect(names(ours)).toEqual(textNames);
      }),
      { numRuns: 100 },
    );
  });

  it("round-trips sizeDelimitedEncodeStream, with protobuf-es's bytes", async () => {
    const chunks = await all(sizeDelimitedEncodeStream(SourceContextSchema, asAsync(messages)));
    expect(concatBytes(...chunks)).toEqual(bytes);
    expect(names(await all(sizeDelimitedDecodeStream(SourceContextSchema, chunks)))).toEqual(textNames);
  });

  it("a stream cut inside a record or its size: rule binary at that record, and nothing after", async () => {
    for (const end of [bytes.length - 1, bytes.length - messages[3]!.fileName.length - 2 - 1]) {
      const errors: WktJsonError[] = [];
      const read = await all(
        sizeDelimitedDecodeStream(SourceContextSchema, cut(bytes.subarray(0, end), [3]), {
          onError: (e) => errors.push(e),
        }),
      );
      expect(read).toHaveLength(3);
      expect(errors.map((e) => [e.rule, e.line])).toEqual([["binary", 4]]);
    }
    const cutInSize = new Uint8Array([...sizeDelimitedEncode(Int32ValueSchema, create(Int32ValueSchema)), 0x80]);
    const { error } = await failure(sizeDelimitedDecodeStream(Int32ValueSchema, [cutInSize]));
    expect(error).toMatchObject({ rule: "binary", line: 2 });
  });

  it("a record past readMaxBytes is skipped unread (size), bad bytes are rule binary, the next record decodes", async () => {
    const one = (value: number) => sizeDelimitedEncode(Int32ValueSchema, create(Int32ValueSchema, { value }));
    const big = new Uint8Array([0xe8, 0x07, ...new Uint8Array(1000)]); // 1,000 bytes
    const notAMessage = new Uint8Array([2, 0xff, 0xff]);
    const stream = concatBytes(one(1), big, one(2), notAMessage, one(3));
    const errors: WktJsonError[] = [];
    const stats = { largest: 0 };
    const chunks = cut(
      stream,
      Array.from({ length: 60 }, (_, i) => i * 17),
    );
    const read = await all(
      sizeDelimitedDecodeWith(Int32ValueSchema, chunks, { readMaxBytes: 100, onError: (e) => errors.push(e) }, stats),
    );
    expect(read.map((m) => m.value)).toEqual([1, 2, 3]);
    expect(errors.map((e) => [e.rule, e.line, e.jsonPath])).toEqual([
      ["size", 2, "$"],
      ["binary", 4, "$"],
    ]);
    expect(stats.largest).toBeLessThanOrEqual(34); // the big record was never held
    expect((await failure(sizeDelimitedDecodeStream(Int32ValueSchema, [stream]))).error).toMatchObject({
      rule: "binary",
      line: 2,
    });
    expect(
      (await failure(sizeDelimitedDecodeStream(Int32ValueSchema, [stream], { readMaxBytes: 100 }))).error,
    ).toMatchObject({
      rule: "size",
      line: 2,
    });
  });

  it("bounds the memory a record decodes to by its size (maxValues), the next record read on", async () => {
    // Each 4 bytes a google.protobuf.Value holding an empty ListValue: about 68 bytes of memory each byte.
    const repeat = (unit: readonly number[], n: number) => {
      const out = new Uint8Array(unit.length * n);
      for (let i = 0; i < n; i++) out.set(unit, i * unit.length);
      return out;
    };
    const frame = (body: Uint8Array) => concatBytes(encodeVarint(body.length), body);
    const hostile = frame(repeat([0x0a, 0x02, 0x32, 0x00], 500_000)); // 2 MB, over 136 MB decoded
    const one = sizeDelimitedEncode(Int32ValueSchema, create(Int32ValueSchema, { value: 7 }));
    const errors: WktJsonError[] = [];
    const read = await all(
      sizeDelimitedDecodeStream(ListValueSchema, [hostile, frame(repeat([0x0a, 0x00], 1_000))], {
        onError: (e) => errors.push(e),
      }),
    );
    expect(read.map((m) => m.values.length)).toEqual([1_000]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ rule: "size", line: 1, typeName: "google.protobuf.ListValue" });
    expect(errors[0]!.detail).toMatch(
      /more memory than its size allows \(maxValues: 4,000,000 units of 8 bytes plus 6/,
    );
    // A cap given is a fixed cap: unknown fields (kept) count too, and dropped ones cost nothing.
    const unknown = frame(repeat([0x18, 0x00], 100)); // Int32Value field 3, unknown
    const capped = { maxValues: 200 };
    expect((await failure(sizeDelimitedDecodeStream(Int32ValueSchema, [unknown, one], capped))).error).toMatchObject({
      rule: "size",
      line: 1,
    });
    const dropped = { ...capped, readUnknownFields: false };
    expect(
      (await all(sizeDelimitedDecodeStream(Int32ValueSchema, [unknown, one], dropped))).map((m) => m.value),
    ).toEqual([0, 7]);
    expect(() => sizeDelimitedDecodeStream(Int32ValueSchema, [], { maxValues: -1 })).toThrow(/maxValues/);
  });

  it("a malformed size, or one of 4 GiB or more, ends the stream", async () => {
    const cases = [
      [new Uint8Array(10).fill(0xff), "binary"], // not a varint
      [new Uint8Array([0x80, 0x80, 0x80, 0x80, 0x10]), "size"], // 2^32, which uint32 reads as 0
    ] as const;
    for (const [prefix, rule] of cases) {
      const errors: WktJsonError[] = [];
      const stream = concatBytes(sizeDelimitedEncode(Int32ValueSchema, create(Int32ValueSchema)), prefix, [0]);
      const read = await all(
        sizeDelimitedDecodeStream(Int32ValueSchema, [stream], {
          readMaxBytes: Infinity,
          onError: (e) => errors.push(e),
        }),
      );
      expect(read).toHaveLength(1);
      expect(errors.map((e) => [e.rule, e.line])).toEqual([[rule, 2]]);
    }
  });

  it("20,000 records from a generator: every message, at most a chunk held at a time", async () => {
    const record = sizeDelimitedEncode(Int32ValueSchema, create(Int32ValueSchema, { value: 300 }));
    async function* source() {
      for (let i = 0; i < 2_000; i++) yield concatBytes(...Array.from({ length: 10 }, () => record));
    }
    const stats = { largest: 0 };
    let count = 0;
    for await (const m of sizeDelimitedDecodeWith(Int32ValueSchema, source(), undefined, stats)) {
      if (m.value !== 300) throw new Error(`record ${count + 1}`);
      count++;
    }
    expect(count).toBe(20_000);
    expect(stats.largest).toBe(10 * record.length);
  });

  it("refuses string chunks (json-type), and a bad readMaxBytes or onError at the call", async () => {
    expect((await failure(sizeDelimitedDecodeStream(Int32ValueSchema, ["x" as never]))).error.rule).toBe("json-type");
    expect(() => sizeDelimitedDecodeStream(Int32ValueSchema, [], { readMaxBytes: -1 })).toThrow(/readMaxBytes/);
    expect(() => sizeDelimitedDecodeStream(Int32ValueSchema, [], { onError: "x" as never })).toThrow(/onError/);
  });
});

describe("sizeDelimitedEncodeStream", () => {
  it("writes protobuf-es's bytes for each message, and numbers a message it cannot write", async () => {
    const out = await all(sizeDelimitedEncodeStream(Int32ValueSchema, [create(Int32ValueSchema, { value: 150 })]));
    expect(out).toEqual([new Uint8Array([3, ...toBinary(Int32ValueSchema, create(Int32ValueSchema, { value: 150 }))])]);
    const partial = create(TestAllRequiredTypesProto2);
    const { error, before } = await failure(sizeDelimitedEncodeStream(TestAllRequiredTypesProto2, [partial]));
    expect(before).toEqual([]);
    expect(error).toMatchObject({ rule: "binary", line: 1, typeName: TestAllRequiredTypesProto2.typeName });
  });
});

async function* asAsync<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items;
}

/** The varint of `n`. */
function encodeVarint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return out;
}
