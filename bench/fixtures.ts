/**
 * Benchmark fixtures, all from the seeded PRNG below, so every run and every machine measures the same bytes.
 * Generators only: the equal-output checks live beside the cases that use them.
 */
import {
  create,
  ScalarType,
  type DescField,
  type DescMessage,
  type JsonObject,
  type JsonValue,
} from "@bufbuild/protobuf";
import { type Duration, DurationSchema, type Timestamp, TimestampSchema } from "@bufbuild/protobuf/wkt";

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

/**
 * `x` as `JSON.parse` gives it: strings flat, as a service receives them. Strings built by concatenation are
 * ropes until first read, and reading a rope costs more, which would skew the parse cases.
 */
export function flat<T>(x: T): T {
  return JSON.parse(JSON.stringify(x)) as T;
}

/** How many different values the small-value cases (Timestamp, Duration, wrappers) handle per call. */
export const batch = 256;

const int = (rand: () => number, n: number): number => Math.floor(rand() * n);

// ---------------------------------------------------------------------------------------------------------
// Timestamp and Duration

/** Timestamps between 1990 and 2040 whose nanos need exactly `digits` (0, 3, 6 or 9) fraction digits. */
export function timestamps(seed: number, digits: 0 | 3 | 6 | 9): Timestamp[] {
  const rand = mulberry32(seed);
  const out: Timestamp[] = [];
  for (let i = 0; i < batch; i++) {
    const seconds = BigInt(631_152_000 + int(rand, 1_577_836_800));
    let nanos = 0;
    if (digits > 0) {
      const unit = 10 ** (9 - digits);
      nanos = (1 + int(rand, 10 ** digits - 1)) * unit;
      if (nanos % (unit * 1000) === 0) nanos += unit; // keep exactly `digits` digits
    }
    out.push(create(TimestampSchema, { seconds, nanos }));
  }
  return out;
}

/** The same instants written in local time with an offset such as +05:30 (never zero), `toJson` giving the rest. */
export function withOffsets(list: Timestamp[], seed: number, toJson: (ts: Timestamp) => string): string[] {
  const rand = mulberry32(seed);
  return list.map((ts) => {
    const minutes = (int(rand, 48) - 24) * 30 + 1; // -11:59 .. +11:31
    const local = new Date((Number(ts.seconds) + minutes * 60) * 1000).toISOString().slice(0, 19);
    const abs = Math.abs(minutes);
    const frac = toJson(ts).slice(19, -1);
    const hh = String(Math.floor(abs / 60)).padStart(2, "0");
    const mm = String(abs % 60).padStart(2, "0");
    return `${local}${frac}${minutes < 0 ? "-" : "+"}${hh}:${mm}`;
  });
}

function durations(seed: number, make: (rand: () => number) => { seconds: bigint; nanos: number }): Duration[] {
  const rand = mulberry32(seed);
  const out: Duration[] = [];
  for (let i = 0; i < batch; i++) out.push(create(DurationSchema, make(rand)));
  return out;
}

/** The Duration workloads, by fixture name. */
export const durationFixtures: Record<string, Duration[]> = {
  // "3600s": whole seconds, as timeouts and TTLs usually are.
  whole: durations(1, (r) => ({ seconds: BigInt(1 + int(r, 86_400)), nanos: 0 })),
  // "12.345s", "0.000340012s": a fraction of 3, 6 or 9 digits.
  fractional: durations(2, (r) => ({
    seconds: BigInt(int(r, 100)),
    nanos: (1 + int(r, 999)) * [1, 1_000, 1_000_000][int(r, 3)]!,
  })),
  // "-0.500s": under a second, negative, so nanos carries the sign.
  "negative-subsecond": durations(3, (r) => ({ seconds: 0n, nanos: -(1 + int(r, 999)) * 1_000_000 })),
  // "315575999999.123456789s": near the ±10,000-year bound, 9 fraction digits.
  large: durations(4, (r) => {
    const sign = r() < 0.5 ? -1 : 1;
    return { seconds: BigInt(sign * (315_000_000_000 + int(r, 576_000_000))), nanos: sign * (1 + int(r, 999_999_998)) };
  }),
};

// ---------------------------------------------------------------------------------------------------------
// FieldMask

const maskWords = [
  "user",
  "display",
  "name",
  "photo",
  "config",
  "url",
  "content",
  "type",
  "secret",
  "insecure",
  "ssl",
  "events",
  "active",
  "created",
  "at",
  "updated",
  "repository",
  "owner",
  "id",
  "v2",
];

/** `n` proto paths of 1 to 3 segments, each segment 1 to 3 words joined by "_" (like `config.content_type`). */
export function protoPaths(seed: number, n: number): string[] {
  const rnd = mulberry32(seed);
  const pick = (): string => maskWords[Math.floor(rnd() * (maskWords.length - 1))]!; // "v2" only after a word
  const segment = (): string => {
    const parts = [pick()];
    for (let k = Math.floor(rnd() * 3); k > 0; k--) parts.push(rnd() < 0.2 ? pick() + "2" : pick());
    return parts.join("_");
  };
  return Array.from({ length: n }, () => Array.from({ length: 1 + Math.floor(rnd() * 3) }, segment).join("."));
}

// ---------------------------------------------------------------------------------------------------------
// Struct

const events = ["incomingMessage", "incomingCall", "incomingRequest", "audioComplete", "keypress", "noMatch"];
/** Property names per widget type, in the order the flow editor writes them; each is present with p = 0.8. */
const widgetProps: Record<string, readonly string[]> = {
  trigger: [],
  "say-play": ["voice", "language", "loop", "say"],
  "gather-input-on-call": [
    "voice",
    "speech_timeout",
    "loop",
    "finish_on_key",
    "say",
    "language",
    "hints",
    "stop_gather",
    "gather_language",
    "profanity_filter",
    "timeout",
    "number_of_digits",
    "speech_model",
  ],
  "split-based-on": ["input", "conditions"],
  "send-to-flex": ["workflow", "channel", "attributes", "priority", "timeout"],
  "run-function": ["service_sid", "environment_sid", "function_sid", "url", "parameters"],
  "x-custom-widget": ["matrix", "weights", "options", "note", "retries"], // unknown to any schema
};
const widgetTypes = Object.keys(widgetProps);
const nestedNames = ["key", "value", "friendly_name", "arguments", "type", "enabled"];

/**
 * A flow-builder definition of about `bytes` bytes of JSON text: a few top-level members and an array of
 * states (widgets) whose free-form properties hold integers, floats, strings, booleans, nulls, nested objects
 * and arrays. Member names repeat as in real definitions: a widget type's properties come in the editor's order.
 * Returned as `JSON.parse` gives it (as a service gets it).
 */
export function flowDefinition(seed: number, bytes: number): JsonObject {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const scalar = (): JsonValue => {
    const r = rnd();
    if (r < 0.3) return Math.floor(rnd() * 1e6);
    if (r < 0.45) return Math.round(rnd() * 1e6) / 1000;
    if (r < 0.6) return rnd() < 0.5;
    if (r < 0.65) return null;
    return pick(nestedNames) + " " + Math.floor(rnd() * 1e6).toString(36);
  };
  const value = (depth: number): JsonValue => {
    const r = rnd();
    if (depth < 3 && r < 0.15) {
      const o: JsonObject = {};
      for (const name of nestedNames) if (rnd() < 0.5) o[name] = value(depth + 1);
      return o;
    }
    if (depth < 3 && r < 0.25) return Array.from({ length: Math.floor(rnd() * 5) }, () => value(depth + 1));
    return scalar();
  };
  const states: JsonValue[] = [];
  const doc: JsonObject = {
    description: "generated flow " + seed,
    flags: { allow_concurrent_calls: true },
    initial_state: "Trigger",
    states,
  };
  let size = JSON.stringify(doc).length;
  while (size < bytes) {
    const type = states.length === 0 ? "trigger" : pick(widgetTypes);
    const properties: JsonObject = { offset: { x: Math.floor(rnd() * 2000) - 1000, y: Math.floor(rnd() * 2000) } };
    for (const name of widgetProps[type]!) if (rnd() < 0.8) properties[name] = value(0);
    const transitions = Array.from({ length: 1 + Math.floor(rnd() * 3) }, () =>
      rnd() < 0.6 ? { event: pick(events), next: "widget_" + Math.floor(rnd() * 1000) } : { event: pick(events) },
    );
    const state: JsonObject = { name: "widget_" + states.length, type, transitions, properties };
    states.push(state);
    size += JSON.stringify(state).length + 1;
  }
  return JSON.parse(JSON.stringify(doc)) as JsonObject;
}

/**
 * A map-like object of about `bytes` bytes with thousands of distinct member names at every level: the worst
 * case for any JS object builder (each new name is a new hidden class), shown for honesty.
 */
export function wideObject(seed: number, bytes: number): JsonObject {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const key = (): string => pick(nestedNames) + "_" + Math.floor(rnd() * 100);
  const value = (depth: number): JsonValue => {
    const r = rnd();
    if (depth < 4 && r < 0.15) {
      const o: JsonObject = {};
      for (let n = 1 + Math.floor(rnd() * 5); n > 0; n--) o[key()] = value(depth + 1);
      return o;
    }
    if (depth < 4 && r < 0.25) return Array.from({ length: Math.floor(rnd() * 5) }, () => value(depth + 1));
    if (r < 0.45) return Math.floor(rnd() * 1e6);
    if (r < 0.55) return rnd() * 1000 - 500;
    if (r < 0.65) return rnd() < 0.5;
    if (r < 0.7) return null;
    return pick(nestedNames) + "-" + Math.floor(rnd() * 1e4).toString(36);
  };
  const out: JsonObject = {};
  let size = 2;
  for (let i = 0; size < bytes; i++) {
    const k = key() + "_" + i;
    out[k] = value(0);
    size += JSON.stringify(k).length + JSON.stringify(out[k]).length + 2;
  }
  return JSON.parse(JSON.stringify(out)) as JsonObject;
}

/** `n` numbers with two decimals, as a ListValue of measurements would hold. */
export function numberList(seed: number, n: number): number[] {
  const rnd = mulberry32(seed);
  return Array.from({ length: n }, () => Math.round(rnd() * 1e6) / 100);
}

// ---------------------------------------------------------------------------------------------------------
// JSON text (the internal parser)

const textWords = [
  "id",
  "name",
  "createTime",
  "labels",
  "items",
  "value",
  "kind",
  "status",
  "owner",
  "tags",
  "count",
  "enabled",
  "description",
  "updateMask",
  "payload",
  "x",
  "y",
  "score",
  "etag",
  "parent",
];
const pieces = [
  "alpha",
  "beta",
  "gamma",
  "délta",
  "日本",
  "emoji 🎉",
  "line\nbreak",
  'quote " here',
  "tab\there",
  "back\\slash",
  "path/to/thing",
  "2024-01-01T00:00:00Z",
  "",
  "some longer text that goes on for a while",
];

/** A free-form JSON value: nested objects and arrays, strings (some with escapes), numbers, literals. */
function freeForm(rand: () => number, depth: number): unknown {
  const r = rand();
  if (depth < 6 && r < 0.18) {
    const o: Record<string, unknown> = {};
    const n = 1 + Math.floor(rand() * 8);
    for (let k = 0; k < n; k++)
      o[textWords[Math.floor(rand() * textWords.length)]! + (rand() < 0.3 ? k : "")] = freeForm(rand, depth + 1);
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
  const page = (): string => JSON.stringify({ results: doc, nextPageToken: "abc" }, null, indent);
  // Records are measured on their own (indentation inside the page makes them a little longer), then trimmed.
  for (let length = 0; length <= size;) {
    const o: Record<string, unknown> = {};
    for (let k = 0; k < 3; k++) o[textWords[k]!] = freeForm(rand, 1);
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

// ---------------------------------------------------------------------------------------------------------
// Bytes

/** `n` random bytes. */
export function randomBytes(seed: number, n: number): Uint8Array {
  const rand = mulberry32(seed);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = Math.floor(rand() * 256);
  return out;
}

/** Standard base64 with padding, written independently of the library (no Buffer, so it runs anywhere). */
export function base64Reference(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

// ---------------------------------------------------------------------------------------------------------
// Whole messages

/**
 * The proto3 JSON of a message with every field set (one member per oneof, chosen by the PRNG): scalars with
 * non-default values, three items per list, two entries per map, and the well-known types in their JSON forms.
 * Messages nested below `depth` 1 (NestedMessage.corecursive) get their scalar fields only. Any fields hold a
 * Duration, so any registry with the well-known types resolves them.
 */
export function messageWithEveryField(desc: DescMessage, seed: number): JsonObject {
  const rand = mulberry32(seed);
  return flat(messageJson(desc, rand, 0));
}

function messageJson(desc: DescMessage, rand: () => number, depth: number): JsonObject {
  const out: JsonObject = {};
  const chosen = new Map<string, DescField>();
  for (const oneof of desc.oneofs) chosen.set(oneof.name, oneof.fields[int(rand, oneof.fields.length)]!);
  for (const field of desc.fields) {
    if (field.oneof !== undefined && chosen.get(field.oneof.name) !== field) continue;
    if (depth > 0 && field.message !== undefined) continue;
    const key = field.jsonName;
    switch (field.fieldKind) {
      case "list":
        out[key] = Array.from({ length: 3 }, () => singleJson(field, rand, depth));
        break;
      case "map": {
        const obj: JsonObject = {};
        for (let k = 0; k < 2; k++) obj[mapKey(field.mapKey, rand, k)] = singleJson(field, rand, depth);
        out[key] = obj;
        break;
      }
      default:
        out[key] = singleJson(field, rand, depth);
    }
  }
  return out;
}

function mapKey(t: ScalarType, rand: () => number, k: number): string {
  switch (t) {
    case ScalarType.STRING:
      return "key" + k + "_" + int(rand, 1000);
    case ScalarType.BOOL:
      return k === 0 ? "true" : "false";
    default:
      return String(scalarJson(t, rand));
  }
}

function singleJson(field: DescField, rand: () => number, depth: number): JsonValue {
  if (field.enum !== undefined) {
    if (field.enum.typeName === "google.protobuf.NullValue") return null;
    // Not an aliased number: which alias a writer prints differs (protobuf-es the first, protobuf-ts the last).
    const all = field.enum.values;
    const values = all.filter((v) => v.number !== 0 && all.filter((w) => w.number === v.number).length === 1);
    return values[int(rand, values.length)]!.name;
  }
  if (field.message !== undefined) return messageFieldJson(field.message, rand, depth);
  return scalarJson(field.scalar!, rand);
}

function messageFieldJson(m: DescMessage, rand: () => number, depth: number): JsonValue {
  switch (m.typeName) {
    case "google.protobuf.Timestamp":
      return new Date(
        Date.UTC(
          2000 + int(rand, 30),
          int(rand, 12),
          1 + int(rand, 28),
          int(rand, 24),
          int(rand, 60),
          int(rand, 60),
          int(rand, 1000),
        ),
      ).toISOString();
    case "google.protobuf.Duration":
      return `${int(rand, 100_000)}.${String(int(rand, 1000)).padStart(3, "0")}s`;
    case "google.protobuf.FieldMask":
      return "user.displayName,photo,config.contentType";
    case "google.protobuf.Struct":
      return { name: "x" + int(rand, 100), count: int(rand, 1000), tags: ["a", "b"], nested: { ok: true, none: null } };
    case "google.protobuf.ListValue":
      return [1, "two", { three: 3 }, [false], null];
    case "google.protobuf.Value":
      return { kind: "value", score: Math.round(rand() * 1e4) / 100, list: [1, 2, 3] };
    case "google.protobuf.Any":
      return { "@type": "type.googleapis.com/google.protobuf.Duration", value: `${1 + int(rand, 1000)}.500s` };
    case "google.protobuf.Empty":
      return {};
  }
  if (m.typeName.startsWith("google.protobuf.") && m.typeName.endsWith("Value") && m.fields.length === 1) {
    return scalarJson(m.fields[0]!.scalar!, rand); // a wrapper: the bare scalar
  }
  return messageJson(m, rand, depth + 1);
}

const words = ["alpha", "beta", "gamma", "délta", "日本", "emoji 🎉", 'quote " here', "tab\there"];

function scalarJson(t: ScalarType, rand: () => number): JsonValue {
  switch (t) {
    case ScalarType.STRING:
      return words[int(rand, words.length)]! + " " + int(rand, 1e6);
    case ScalarType.BOOL:
      return true;
    case ScalarType.BYTES:
      return base64Reference(randomBytes(int(rand, 1e9), 8 + int(rand, 40)));
    case ScalarType.DOUBLE:
      return Math.round((rand() - 0.5) * 1e9) / 1000;
    case ScalarType.FLOAT:
      return Math.fround(Math.round((rand() - 0.5) * 1e5) / 8); // exact in float32
    case ScalarType.INT32:
    case ScalarType.SINT32:
    case ScalarType.SFIXED32:
      return int(rand, 2 ** 32) - 2 ** 31 || 1;
    case ScalarType.UINT32:
      return 1 + int(rand, 2 ** 32 - 1);
    case ScalarType.FIXED32:
      // Below 2^31: @protobuf-ts/runtime 2.11.1 rejects larger fixed32 values in JSON ("invalid int 32"), and
      // the case is meant to time it, not to fail it. uint32 keeps the full range.
      return 1 + int(rand, 2 ** 31 - 1);
    case ScalarType.INT64:
    case ScalarType.SINT64:
    case ScalarType.SFIXED64:
      return String(BigInt(int(rand, 2 ** 31)) * BigInt(int(rand, 2 ** 32)) * (rand() < 0.5 ? -1n : 1n) || 1n);
    case ScalarType.UINT64:
    case ScalarType.FIXED64:
      return String(BigInt(1 + int(rand, 2 ** 31)) * BigInt(1 + int(rand, 2 ** 32)) * 2n);
  }
}

/** An UpdateFlowRequest of about `bytes` of JSON text (the definition takes what the rest leaves). */
export function flowRequest(seed: number, bytes: number): JsonObject {
  const rnd = mulberry32(seed);
  const int = (n: number): number => Math.floor(rnd() * n);
  const sid = (prefix: string): string =>
    prefix + Array.from({ length: 32 }, () => "0123456789abcdef"[int(16)]).join("");
  const instant = (): string => {
    const ms = Date.UTC(2023, 0, 1) + int(365 * 86400) * 1000;
    return new Date(ms).toISOString().replace(".000Z", "Z");
  };
  const account = sid("AC");
  const flowSid = sid("FW");
  const names = ["Ada Lovelace", "Grace Hopper", "Edsger Dijkstra", "Barbara Liskov"];
  const revisions: JsonObject[] = Array.from({ length: 2 }, (_, k) => ({
    revision: 7 - k,
    dateCreated: instant(),
    commitMessage: ["Connect say-play to trigger", "Fix loop count", "Initial import", "Rename states"][k]!,
    author: {
      accountSid: account,
      name: names[int(names.length)]!,
      roles: k % 2 === 0 ? ["editor"] : ["editor", "publisher"],
    },
    validationTime: `${int(3)}.${String(int(1000)).padStart(3, "0")}s`,
    sizeBytes: String(1000 + int(100000)),
    status: k === 0 ? "PUBLISHED" : "DRAFT",
  }));
  const head: JsonObject = {
    flow: {
      sid: flowSid,
      accountSid: account,
      friendlyName: "Inbound support line",
      status: "PUBLISHED",
      revision: 7,
      dateCreated: instant(),
      dateUpdated: instant(),
      commitMessage: "Connect say-play to trigger",
      errors: [
        {
          code: 20001,
          message: "Widget say_play_1 has no transition for audioComplete",
          stateName: "say_play_1",
          propertyPath: "transitions[0].next",
        },
        {
          code: 20002,
          message: "Loop count must be at most 10",
          stateName: "say_play_2",
          propertyPath: "properties.loop",
        },
      ],
      valid: false,
      url: `https://studio.example.com/v2/Flows/${flowSid}`,
      links: {
        revisions: `https://studio.example.com/v2/Flows/${flowSid}/Revisions`,
        test_users: `https://studio.example.com/v2/Flows/${flowSid}/TestUsers`,
      },
      recentRevisions: revisions,
    },
    updateMask: "definition,commitMessage,status,friendlyName",
    requestId: sid("RQ"),
  };
  const rest = JSON.stringify(head).length;
  (head["flow"] as JsonObject)["definition"] = flowDefinition(seed, Math.max(200, bytes - rest));
  // Members in field number order, as every library writes them.
  const flow = head["flow"] as JsonObject;
  const order = [
    "sid",
    "accountSid",
    "friendlyName",
    "status",
    "revision",
    "dateCreated",
    "dateUpdated",
    "commitMessage",
    "errors",
    "valid",
    "url",
    "links",
    "definition",
    "recentRevisions",
  ];
  head["flow"] = Object.fromEntries(order.map((k) => [k, flow[k]!]));
  return JSON.parse(JSON.stringify(head)) as JsonObject;
}
