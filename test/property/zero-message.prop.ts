// The JSON reader starts a message that sets up to 16 fields from a copy of a per-type zero message that already
// has the members its message fields add, and deletes those left unset (src/codec/zero-message.ts). Law: for
// any such JSON object, the message is exactly protobuf-es's (its reader creates messages with create()):
// the same members in the same order, own undefined ones counted, and the same values down to -0.

import {
  fromJson as esFromJson,
  fromJsonString as esFromJsonString,
  toJson,
  type DescMessage,
  type JsonObject,
  type JsonValue,
} from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fromJson, fromJsonString } from "../../src/codec/from-json.js";
import { arbMessage } from "../arbitrary.js";
import { TestAllTypesEdition2023, TestAllTypesProto3, testRegistry } from "../conformance-registry.js";

const registry = testRegistry;

/**
 * Where two values first differ, or undefined: leaves by Object.is (-0 apart from 0), objects by prototype and by
 * their own keys in order, then member by member. (toStrictEqual compares `constructor` members, which a map
 * field with the key "constructor" has, by identity.)
 */
function difference(a: unknown, b: unknown, path: string): string | undefined {
  if (Object.is(a, b)) return undefined;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null)
    return `${path}: ${String(a)} against ${String(b)}`;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return `${path}: another prototype`;
  if (a instanceof Uint8Array)
    return a.length === (b as Uint8Array).length && a.every((x, i) => x === (b as Uint8Array)[i])
      ? undefined
      : `${path}: other bytes`;
  const ka = Reflect.ownKeys(a);
  const kb = Reflect.ownKeys(b);
  if (ka.length !== kb.length || ka.some((k, i) => k !== kb[i]))
    return `${path}: members ${ka.map(String).join()} against ${kb.map(String).join()}`;
  for (const k of ka) {
    const d = difference(
      (a as Record<PropertyKey, unknown>)[k],
      (b as Record<PropertyKey, unknown>)[k],
      `${path}.${String(k)}`,
    );
    if (d !== undefined) return d;
  }
  return undefined;
}

/** Up to 16 of a message's JSON members, in shuffled order, some message-valued ones replaced by null. */
function arbSparseJson(desc: DescMessage): fc.Arbitrary<JsonObject> {
  // No packed Any: protobuf-es rewrites a custom type-URL prefix, which wkt-json keeps on purpose.
  return arbMessage(desc, { anyTypes: [] })
    .map((m) => toJson(desc, m as never, { registry }) as JsonObject)
    .chain((json) =>
      fc
        .shuffledSubarray(Object.keys(json), { maxLength: Math.min(16, Object.keys(json).length) })
        .chain((keys) =>
          fc.tuple(fc.constant(keys), fc.array(fc.boolean(), { minLength: keys.length, maxLength: keys.length })),
        )
        .map(([keys, nulls]) => {
          const out: JsonObject = {};
          keys.forEach((k, i) => {
            const v = json[k]!;
            out[k] = nulls[i] && typeof v === "object" && v !== null && !Array.isArray(v) ? null : v;
          });
          return out;
        }),
    );
}

describe.each<[string, DescMessage]>([
  ["proto3", TestAllTypesProto3],
  ["editions", TestAllTypesEdition2023],
])("%s: a message of few fields is protobuf-es's, member for member and in order", (_, desc) => {
  it("from a JSON value and from its text", () => {
    fc.assert(
      fc.property(arbSparseJson(desc), (json) => {
        const text = JSON.stringify(json); // -0 becomes 0 here, for both readers
        const pairs = [
          [fromJson(desc, json, { registry }), esFromJson(desc, json as JsonValue, { registry })],
          [fromJsonString(desc, text, { registry }), esFromJsonString(desc, text, { registry })],
        ];
        for (const [ours, theirs] of pairs) expect(difference(ours, theirs, "$")).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  }, 60_000);
});
