// toJsonString prints one-line text directly from the message; toJson builds the JSON value. Over random
// messages of the conformance test types, valid or with one value broken by hand, the text is exactly the
// value printed (JSON.stringify, -0 kept as "-0") and every error is the same error.

import { type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, it } from "vitest";
import { arbMessage, type ArbMessageOptions } from "../arbitrary.js";
import {
  ForeignMessage,
  TestAllTypesEdition2023,
  TestAllTypesProto2,
  TestAllTypesProto3,
  testRegistry,
} from "../conformance-registry.js";
import { expectTextAgrees } from "../text-agrees.js";

const registry = testRegistry;
type Msg = MessageShape<DescMessage>;

const messages: [string, DescMessage][] = [
  ["proto3", TestAllTypesProto3],
  ["proto2", TestAllTypesProto2],
  ["editions", TestAllTypesEdition2023],
];

function anyTypes(root: DescMessage): DescMessage[] {
  const wkt = (name: string) => registry.getMessage(`google.protobuf.${name}`)!;
  const names = [
    "Timestamp",
    "Duration",
    "FieldMask",
    "Struct",
    "Value",
    "ListValue",
    "Empty",
    "Any",
    "Int64Value",
    "DoubleValue",
    "BytesValue",
  ];
  return [...names.map(wkt), ForeignMessage, root];
}

function arb(desc: DescMessage, options?: ArbMessageOptions): fc.Arbitrary<Msg> {
  return arbMessage(desc, { anyTypes: anyTypes(desc), ...options }) as unknown as fc.Arbitrary<Msg>;
}

/** The write options; `prettySpaces` below 1 is one line, printed directly. */
const arbOptions = fc.record(
  {
    alwaysEmitImplicit: fc.boolean(),
    enumAsInteger: fc.boolean(),
    useProtoFieldName: fc.boolean(),
    registry: fc.constant(registry),
    prettySpaces: fc.constantFrom(0, 0.5, -1),
  },
  { requiredKeys: ["alwaysEmitImplicit", "enumAsInteger", "useProtoFieldName"] },
);

/** Values that do not belong where they are put: each field kind must reject most of them. */
const junk: unknown[] = [
  undefined,
  null,
  "",
  "x",
  "1",
  "01",
  "1.5",
  "NaN",
  "\ud800",
  0,
  -0,
  1,
  -1,
  1.5,
  2 ** 31,
  2 ** 32,
  2 ** 53,
  NaN,
  Infinity,
  -Infinity,
  3.5e38,
  0n,
  1n,
  -1n,
  2n ** 63n,
  2n ** 64n,
  true,
  false,
  {},
  [],
  [1],
  { a: 1 },
  new Uint8Array(0),
  new Uint8Array([1, 2]),
  { $typeName: "google.protobuf.Duration" },
  { case: "oneofUint32", value: 1 },
  { case: "oneofUint32", value: "x" },
  { "01": 1 },
  { "-0": 1 },
  { x: 1 },
  { "9223372036854775808": 1n },
  { "18446744073709551616": 1n },
  { "\ud800": "v" },
  Symbol("s"),
  () => 1,
];

/** Every place of a message tree a value can be put: message fields, list items, map values and keys. */
function slots(root: unknown): [Record<string | number, unknown>, string | number, "value" | "key"][] {
  const out: [Record<string | number, unknown>, string | number, "value" | "key"][] = [];
  const seen = new Set<unknown>();
  const walk = (v: unknown, depth: number): void => {
    if (typeof v !== "object" || v === null || seen.has(v) || depth > 6 || v instanceof Uint8Array) return;
    seen.add(v);
    const obj = v as Record<string | number, unknown>;
    for (const k of Array.isArray(v) ? v.keys() : Object.keys(v)) {
      if (k === "$typeName" || k === "$unknown") continue;
      out.push([obj, k, "value"]);
      if (!Array.isArray(v) && !("$typeName" in obj)) out.push([obj, k, "key"]);
      walk(obj[k], depth + 1);
    }
  };
  walk(root, 0);
  return out;
}

describe.each(messages)("%s", (_, desc) => {
  it("toJsonString is the text of toJson's value, under every option", () => {
    fc.assert(
      fc.property(arb(desc), arbOptions, (m, options) => {
        expectTextAgrees(desc, m, options);
      }),
      { numRuns: 60 },
    );
  }, 30_000);

  it("with one value broken by hand, toJsonString throws what toJson throws (or prints the same)", () => {
    fc.assert(
      fc.property(
        arb(desc, { maxDepth: 2, setChance: 0.4 }),
        fc.nat(),
        fc.constantFrom(...junk),
        fc.string({ maxLength: 3 }),
        arbOptions,
        (m, pick, value, key, options) => {
          const all = slots(m);
          if (all.length > 0) {
            const [obj, k, what] = all[pick % all.length]!;
            if (what === "key") obj[key] = value;
            else obj[k] = value;
          }
          expectTextAgrees(desc, m, options);
        },
      ),
      { numRuns: 300 },
    );
  }, 30_000);
});
