/**
 * timestampFromJson / timestampToJson against @bufbuild/protobuf's fromJson / toJson with TimestampSchema, on
 * the same inputs. Run: `npx vitest bench --run bench/timestamp.bench.ts`. Each case handles a batch of 256
 * different values from a seeded PRNG, so every run and machine measures the same work; before timing, both
 * implementations must produce equal output on the batch.
 */
import { create, fromJson, toJson } from "@bufbuild/protobuf";
import { type Timestamp, TimestampSchema } from "@bufbuild/protobuf/wkt";
import { bench, describe } from "vitest";
import { timestampFromJson, timestampToJson } from "../src/timestamp.js";

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const batch = 256;

/** Timestamps between 1990 and 2040 whose nanos need exactly `digits` (0, 3, 6 or 9) fraction digits. */
function timestamps(seed: number, digits: 0 | 3 | 6 | 9): Timestamp[] {
  const rand = mulberry32(seed);
  const out: Timestamp[] = [];
  for (let i = 0; i < batch; i++) {
    const seconds = BigInt(631_152_000 + Math.floor(rand() * 1_577_836_800));
    let nanos = 0;
    if (digits > 0) {
      const unit = 10 ** (9 - digits);
      nanos = (1 + Math.floor(rand() * (10 ** digits - 1))) * unit;
      if (nanos % (unit * 1000) === 0) nanos += unit; // keep exactly `digits` digits
    }
    out.push(create(TimestampSchema, { seconds, nanos }));
  }
  return out;
}

/** The same instants written in a local time with an offset such as +05:30. */
function withOffsets(list: Timestamp[], seed: number): string[] {
  const rand = mulberry32(seed);
  return list.map((ts) => {
    const minutes = (Math.floor(rand() * 48) - 24) * 30 + 1; // -12:59 .. +11:31, never zero
    const local = new Date((Number(ts.seconds) + minutes * 60) * 1000).toISOString().slice(0, 19);
    const abs = Math.abs(minutes);
    const frac = timestampToJson(ts).slice(19, -1);
    return `${local}${frac}${minutes < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  });
}

function sameMessages(a: Timestamp, b: Timestamp, input: string): void {
  if (a.$typeName !== b.$typeName || a.seconds !== b.seconds || a.nanos !== b.nanos) {
    throw new Error(`parse mismatch on ${input}: ${a.seconds}/${a.nanos} vs ${b.seconds}/${b.nanos}`);
  }
}

let sink = 0;

function parseGroup(name: string, texts: string[]): void {
  for (const t of texts) sameMessages(timestampFromJson(t), fromJson(TimestampSchema, t), t);
  describe(name, () => {
    bench("wkt-json", () => {
      for (let i = 0; i < texts.length; i++) sink += timestampFromJson(texts[i]!).nanos;
    });
    bench("@bufbuild/protobuf", () => {
      for (let i = 0; i < texts.length; i++) sink += fromJson(TimestampSchema, texts[i]!).nanos;
    });
  });
}

function formatGroup(name: string, list: Timestamp[]): void {
  for (const ts of list) {
    const ours = timestampToJson(ts);
    const theirs = toJson(TimestampSchema, ts);
    if (ours !== theirs) throw new Error(`format mismatch: ${ours} vs ${String(theirs)}`);
  }
  describe(name, () => {
    bench("wkt-json", () => {
      for (let i = 0; i < list.length; i++) sink += timestampToJson(list[i]!).length;
    });
    bench("@bufbuild/protobuf", () => {
      for (let i = 0; i < list.length; i++) sink += (toJson(TimestampSchema, list[i]!) as string).length;
    });
  });
}

const fixtures = { frac0: timestamps(1, 0), frac3: timestamps(2, 3), frac6: timestamps(3, 6), frac9: timestamps(4, 9) };

for (const [name, list] of Object.entries(fixtures)) parseGroup(`parse/${name}`, list.map(timestampToJson));
parseGroup("parse/offset", withOffsets(fixtures.frac3, 5));
for (const [name, list] of Object.entries(fixtures)) formatGroup(`format/${name}`, list);

// Keep the sink observable so no engine can drop the work.
if (sink === -1) console.log(sink);
