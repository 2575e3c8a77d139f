/**
 * durationFromJson / durationToJson against @bufbuild/protobuf's fromJson / toJson with DurationSchema, on the
 * same inputs. Run: `npx vitest bench --run bench/duration.bench.ts`. Each case handles a batch of 256
 * different values from a seeded PRNG; before timing, both implementations must produce equal output on it.
 */
import { create, fromJson, toJson } from "@bufbuild/protobuf";
import { type Duration, DurationSchema } from "@bufbuild/protobuf/wkt";
import { bench, describe } from "vitest";
import { durationFromJson, durationToJson } from "../src/duration.js";

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

function durations(seed: number, make: (rand: () => number) => { seconds: bigint; nanos: number }): Duration[] {
  const rand = mulberry32(seed);
  const out: Duration[] = [];
  for (let i = 0; i < batch; i++) out.push(create(DurationSchema, make(rand)));
  return out;
}

const int = (rand: () => number, n: number) => Math.floor(rand() * n);

const fixtures: Record<string, Duration[]> = {
  // "3600s": whole seconds, as timeouts and TTLs usually are.
  whole: durations(1, (r) => ({ seconds: BigInt(1 + int(r, 86_400)), nanos: 0 })),
  // "12.345s", "0.000340012s": a fraction of 3, 6 or 9 digits.
  fractional: durations(2, (r) => ({ seconds: BigInt(int(r, 100)), nanos: (1 + int(r, 999)) * [1, 1_000, 1_000_000][int(r, 3)]! })),
  // "-0.500s": under a second, negative, so nanos carries the sign.
  "negative-subsecond": durations(3, (r) => ({ seconds: 0n, nanos: -(1 + int(r, 999)) * 1_000_000 })),
  // "315575999999.123456789s": near the ±10,000-year bound, 9 fraction digits.
  large: durations(4, (r) => {
    const sign = r() < 0.5 ? -1 : 1;
    return { seconds: BigInt(sign * (315_000_000_000 + int(r, 576_000_000))), nanos: sign * (1 + int(r, 999_999_998)) };
  }),
};

let sink = 0;

for (const [name, list] of Object.entries(fixtures)) {
  const texts = list.map((d) => {
    const ours = durationToJson(d);
    const theirs = toJson(DurationSchema, d);
    if (ours !== theirs) throw new Error(`format mismatch: ${ours} vs ${String(theirs)}`);
    const a = durationFromJson(ours);
    const b = fromJson(DurationSchema, ours);
    if (a.$typeName !== b.$typeName || a.seconds !== b.seconds || a.nanos !== b.nanos) {
      throw new Error(`parse mismatch on ${ours}: ${a.seconds}/${a.nanos} vs ${b.seconds}/${b.nanos}`);
    }
    return ours;
  });
  describe(`parse/${name}`, () => {
    bench("wkt-json", () => {
      for (let i = 0; i < texts.length; i++) sink += durationFromJson(texts[i]!).nanos;
    });
    bench("@bufbuild/protobuf", () => {
      for (let i = 0; i < texts.length; i++) sink += fromJson(DurationSchema, texts[i]!).nanos;
    });
  });
  describe(`format/${name}`, () => {
    bench("wkt-json", () => {
      for (let i = 0; i < list.length; i++) sink += durationToJson(list[i]!).length;
    });
    bench("@bufbuild/protobuf", () => {
      for (let i = 0; i < list.length; i++) sink += (toJson(DurationSchema, list[i]!) as string).length;
    });
  });
}

// Keep the sink observable so no engine can drop the work.
if (sink === -1) console.log(sink);
