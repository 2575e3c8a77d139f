/**
 * parseJsonText against JSON.parse on the same texts. Run: `npx vitest bench --run bench/json-text.bench.ts`.
 * The fixtures come from a seeded PRNG, so every run and machine parses the same bytes.
 */
import { bench, describe } from "vitest";
import { parseJsonText } from "../src/internal/json-text.js";

/** mulberry32: a tiny seeded PRNG with good enough statistics for fixtures. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const words = ["id", "name", "createTime", "labels", "items", "value", "kind", "status", "owner", "tags", "count",
  "enabled", "description", "updateMask", "payload", "x", "y", "score", "etag", "parent"];
const pieces = ["alpha", "beta", "gamma", "délta", "日本", "emoji 🎉", "line\nbreak", "quote \" here", "tab\there",
  "back\\slash", "path/to/thing", "2024-01-01T00:00:00Z", "", "some longer text that goes on for a while"];

/** A free-form JSON value: nested objects and arrays, strings (some with escapes), numbers, literals. */
function freeForm(rand: () => number, depth: number): unknown {
  const r = rand();
  if (depth < 6 && r < 0.18) {
    const o: Record<string, unknown> = {};
    const n = 1 + Math.floor(rand() * 8);
    for (let k = 0; k < n; k++) o[words[Math.floor(rand() * words.length)]! + (rand() < 0.3 ? k : "")] = freeForm(rand, depth + 1);
    return o;
  }
  if (depth < 6 && r < 0.3) {
    const n = Math.floor(rand() * 6);
    const a: unknown[] = [];
    for (let k = 0; k < n; k++) a.push(freeForm(rand, depth + 1));
    return a;
  }
  if (r < 0.6) {
    let s = pieces[Math.floor(rand() * pieces.length)]!;
    if (rand() < 0.5) s += " " + pieces[Math.floor(rand() * pieces.length)]!;
    return s;
  }
  if (r < 0.72) return Math.floor(rand() * 100000) - 5000;
  if (r < 0.82) return Math.round(rand() * 1e6) / 1000;
  if (r < 0.86) return rand() * 1e-8;
  if (r < 0.93) return rand() < 0.5;
  return null;
}

/** A JSON document of at most (and about) `size` UTF-16 code units: a page of free-form records. */
export function freeFormDocument(seed: number, size: number, indent?: number): string {
  const rand = mulberry32(seed);
  const doc: Record<string, unknown>[] = [];
  const page = () => JSON.stringify({ results: doc, nextPageToken: "abc" }, null, indent);
  // Records are measured on their own (indentation inside the page makes them a little longer), then trimmed.
  for (let length = 0; length <= size; ) {
    const o: Record<string, unknown> = {};
    for (let k = 0; k < 3; k++) o[words[k]!] = freeForm(rand, 1);
    doc.push(o);
    length += JSON.stringify(o, null, indent).length + 1;
  }
  let text = page();
  while (text.length > size && doc.length > 1) {
    doc.pop();
    text = page();
  }
  return text;
}

/** An array of `n` numbers: integers and decimals, some negative. */
export function numberArray(seed: number, n: number): string {
  const rand = mulberry32(seed);
  const a: number[] = [];
  for (let k = 0; k < n; k++) a.push(rand() < 0.5 ? Math.floor(rand() * 1e6) - 1000 : Math.round(rand() * 1e7) / 1e4);
  return JSON.stringify(a);
}

/** `n` records with unquoted 64-bit ids beyond 2^53, as int64 fields may arrive from other encoders. */
export function bigIntDocument(seed: number, n: number): string {
  const rand = mulberry32(seed);
  const rows: string[] = [];
  for (let k = 0; k < n; k++) {
    const id = 9007199254740993n + BigInt(Math.floor(rand() * 1e9)) * 1000003n;
    rows.push(`{"id":${id},"ownerId":-${id * 7n},"count":${Math.floor(rand() * 1000)},"name":"row ${k}"}`);
  }
  return `{"rows":[${rows.join(",")}]}`;
}

const fixtures: [string, string][] = [
  ["1KB", freeFormDocument(5, 1_000)],
  ["100KB", freeFormDocument(2, 100_000)],
  ["100KB-indented", freeFormDocument(3, 100_000, 2)],
  ["1000-numbers", numberArray(4, 1_000)],
  ["bigints", bigIntDocument(5, 500)],
];

for (const [name, text] of fixtures) {
  describe(`parse/${name}`, () => {
    bench("wkt-json", () => {
      parseJsonText(text);
    });
    bench("JSON.parse", () => {
      JSON.parse(text);
    });
  });
}
