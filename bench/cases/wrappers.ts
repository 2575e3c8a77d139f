/**
 * Wrappers: `wrapperFromJson` / `wrapperToJson` beside `fromJson` / `toJson` with the wrapper's schema.
 * Int64Value (values up to int64 max, as strings) and DoubleValue on 256 values per call; BytesValue of 1 KB
 * (16 per call) and 64 KB. Floor for bytes: Node's native base64 (`Buffer`), which `src/` must not depend on.
 * On Node, our codec uses `Buffer` too (behind a feature check and a round-trip check); the "portable path"
 * cases time the code every other runtime gets, beside `@bufbuild/protobuf`'s own base64 functions.
 */
import { create, fromJson, toJson, type DescMessage, type JsonValue } from "@bufbuild/protobuf";
import { BytesValueSchema, DoubleValueSchema, Int64ValueSchema } from "@bufbuild/protobuf/wkt";
import { base64Decode as esBase64Decode, base64Encode as esBase64Encode } from "@bufbuild/protobuf/wire";
import { base64DecodePortable, base64EncodePortable } from "../../src/internal/base64.js";
import { wrapperFromJson, wrapperToJson } from "../../src/wkt/wrappers.js";
import { pt, same, tsColumn } from "../check.js";
import { base64Reference, batch, flat, mulberry32, randomBytes } from "../fixtures.js";
import { sink, type Case } from "../harness.js";

const area = "Wrappers";

function wrapperCases(
  label: string,
  schema: DescMessage,
  tsName: "Int64Value" | "DoubleValue" | "BytesValue",
  values: unknown[],
  extra: { parseFloor?: Case["floor"]; formatFloor?: Case["floor"]; targets?: Case["targets"] },
): Case[] {
  const msgs = values.map((value) => create(schema, { value } as never));
  const texts = flat(msgs.map((m) => toJson(schema, m)));
  for (let k = 0; k < msgs.length; k++) {
    same(`${label} format`, wrapperToJson(schema, msgs[k]!), texts[k]);
    same(`${label} parse`, wrapperFromJson(schema, texts[k]), fromJson(schema, texts[k]!));
  }
  const T = (): ReturnType<typeof pt<typeof tsName>> => pt(tsName);
  return [
    {
      area,
      name: `fromJson/${label}`,
      ops: texts.length,
      ours: () => {
        let r: unknown;
        for (let i = 0; i < texts.length; i++) r = wrapperFromJson(schema, texts[i]);
        sink.v = r;
      },
      es: () => {
        let r: unknown;
        for (let i = 0; i < texts.length; i++) r = fromJson(schema, texts[i]!);
        sink.v = r;
      },
      ...tsColumn(
        () => {
          for (let k = 0; k < texts.length; k++)
            same(`protobuf-ts ${label} parse`, values[k], T().fromJson(texts[k]!).value);
        },
        () => {
          const t = T();
          return () => {
            let r: unknown;
            for (let i = 0; i < texts.length; i++) r = t.fromJson(texts[i]!);
            sink.v = r;
          };
        },
      ),
      ...(extra.parseFloor !== undefined ? { floor: extra.parseFloor } : {}),
      ...(extra.targets !== undefined ? { targets: extra.targets } : {}),
    },
    {
      area,
      name: `toJson/${label}`,
      ops: msgs.length,
      ours: () => {
        let r: unknown;
        for (let i = 0; i < msgs.length; i++) r = wrapperToJson(schema, msgs[i]!);
        sink.v = r;
      },
      es: () => {
        let r: unknown;
        for (let i = 0; i < msgs.length; i++) r = toJson(schema, msgs[i]!);
        sink.v = r;
      },
      ...tsColumn(
        () => {
          for (let k = 0; k < texts.length; k++)
            same(`protobuf-ts ${label} format`, texts[k], T().toJson(T().create({ value: values[k] })));
        },
        () => {
          const t = T();
          const own = values.map((value) => t.create({ value }));
          return () => {
            let r: unknown;
            for (let i = 0; i < own.length; i++) r = t.toJson(own[i]);
            sink.v = r;
          };
        },
      ),
      ...(extra.formatFloor !== undefined ? { floor: extra.formatFloor } : {}),
      ...(extra.targets !== undefined ? { targets: extra.targets } : {}),
    },
  ];
}

function bytesFloors(list: Uint8Array[]): {
  parseFloor: NonNullable<Case["floor"]>;
  formatFloor: NonNullable<Case["floor"]>;
} {
  const texts = flat(list.map(base64Reference));
  const buffers = list.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength));
  return {
    parseFloor: {
      name: "Buffer",
      run: () => {
        let r: unknown;
        for (let i = 0; i < texts.length; i++) r = Buffer.from(texts[i]!, "base64");
        sink.v = r;
      },
    },
    formatFloor: {
      name: "Buffer",
      run: () => {
        let r = "";
        for (let i = 0; i < buffers.length; i++) r = buffers[i]!.toString("base64");
        sink.v = r;
      },
    },
  };
}

/** The portable base64 path alone, beside @bufbuild/protobuf's base64 functions (portable too, on Node 20). */
function portableCases(label: string, list: Uint8Array[]): Case[] {
  const texts = flat(list.map(base64Reference));
  for (let k = 0; k < list.length; k++) {
    same(`${label} portable encode`, base64EncodePortable(list[k]!), esBase64Encode(list[k]!));
    same(`${label} portable decode`, base64DecodePortable(texts[k]!), esBase64Decode(texts[k]!));
  }
  const floors = bytesFloors(list);
  const area = "Base64, portable path (internal)";
  const targets = [{ vs: "es", max: 1 / 3, label: "≥3x vs es" }] as const;
  return [
    {
      area,
      name: `decode/${label}`,
      ops: list.length,
      ours: () => {
        let r: unknown;
        for (let i = 0; i < texts.length; i++) r = base64DecodePortable(texts[i]!);
        sink.v = r;
      },
      es: () => {
        let r: unknown;
        for (let i = 0; i < texts.length; i++) r = esBase64Decode(texts[i]!);
        sink.v = r;
      },
      floor: floors.parseFloor,
      targets,
    },
    {
      area,
      name: `encode/${label}`,
      ops: list.length,
      ours: () => {
        let r: unknown;
        for (let i = 0; i < list.length; i++) r = base64EncodePortable(list[i]!);
        sink.v = r;
      },
      es: () => {
        let r: unknown;
        for (let i = 0; i < list.length; i++) r = esBase64Encode(list[i]!);
        sink.v = r;
      },
      floor: floors.formatFloor,
      targets,
    },
  ];
}

export function wrappersCases(): Case[] {
  const rand = mulberry32(11);
  const int64s = Array.from({ length: batch }, (_, k) =>
    k === 0
      ? 9223372036854775807n
      : 9223372036854775807n - BigInt(Math.floor(rand() * 2 ** 52)) * BigInt(1 + Math.floor(rand() * 2 ** 10)),
  );
  const doubles = Array.from({ length: batch }, () => (rand() - 0.5) * 10 ** Math.floor(rand() * 20 - 5));
  const bytes1k = Array.from({ length: 16 }, (_, k) => randomBytes(100 + k, 1024));
  const bytes64k = [randomBytes(200, 65536)];
  for (const b of [...bytes1k, ...bytes64k]) {
    same(
      "base64 reference",
      base64Reference(b),
      toJson(BytesValueSchema, create(BytesValueSchema, { value: b })) as JsonValue,
    );
  }
  const bytesTargets = [{ vs: "es", max: 1 / 3, label: "≥3x vs es" }] as const;
  return [
    ...wrapperCases("int64value-max", Int64ValueSchema, "Int64Value", int64s, {}),
    ...wrapperCases("doublevalue", DoubleValueSchema, "DoubleValue", doubles, {}),
    ...wrapperCases("bytesvalue-1kb", BytesValueSchema, "BytesValue", bytes1k, {
      ...bytesFloors(bytes1k),
      targets: bytesTargets,
    }),
    ...wrapperCases("bytesvalue-64kb", BytesValueSchema, "BytesValue", bytes64k, {
      ...bytesFloors(bytes64k),
      targets: bytesTargets,
    }),
    ...portableCases("1kb", bytes1k),
    ...portableCases("64kb", bytes64k),
  ];
}
