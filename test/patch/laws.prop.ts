// The AIP-161 read-write law for patch, jsonPatch and patchFromJsonString, over random resources of
// test/patch/laws.proto (field behaviour in nested messages, list elements, map values of string, integer and
// bool keys, oneofs, a recursive type, wrappers, an Any), with every kind of mask a client may send.
//
// AIP-161: "reading a resource with a given mask and then updating the resource with the returned data and the
// same mask must be a no-op."

import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { type DescMessage, type JsonObject, type JsonValue, type MessageShape } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createFromJson,
  createFromJsonString,
  standardSchema,
  fieldMaskProject,
  fromJson,
  jsonPatch,
  jsonPatchFromJsonString,
  patch,
  patchFromJsonString,
  toJson,
  type PatchOptions,
} from "../../src/index.js";
import { formatPath } from "../../src/internal/mask-path.js";
import { arbMessage } from "../arbitrary.js";
import { compileProto } from "./registry.js";

const registry = compileProto(dirname(fileURLToPath(import.meta.url)), "laws.proto");
const Res = registry.getMessage("acme.laws.v1.Res") as DescMessage;
const Node = registry.getMessage("acme.laws.v1.Node") as DescMessage;
const Leaf = registry.getMessage("acme.laws.v1.Leaf") as DescMessage;

/** Every path through singular message fields, `depth` message levels below the root at most. */
function leafPaths(d: DescMessage, prefix: string[], depth: number, out: string[][] = []): string[][] {
  for (const f of d.fields) {
    const p = [...prefix, f.name];
    out.push(p);
    if (f.fieldKind === "message" && depth > 0 && !f.message.typeName.startsWith("google.")) {
      leafPaths(f.message, p, depth - 1, out);
    }
  }
  return out;
}
const leaves = leafPaths(Res, [], 2);

/** AIP-161 paths into the stored maps' entries: `by_key.<key>` and the paths of the entry's message below it. */
function keyPaths(stored: MessageShape<DescMessage>): string[][] {
  const out: string[][] = [];
  const maps = [
    ["by_key", "byKey", Node],
    ["by_num", "byNum", Node],
    ["by_flag", "byFlag", Leaf],
  ] as const;
  for (const [field, local, value] of maps) {
    for (const key of Object.keys((stored as unknown as Record<string, object>)[local]!)) {
      out.push([field, key], ...leafPaths(value, [field, key], 0));
    }
  }
  return out;
}

/** A stored resource from a random one: its REQUIRED title set, as a service keeps it. */
const arbStored = arbMessage(Res, { maxDepth: 4, setChance: 0.4, anyTypes: [Node], negativeZero: false }).map(
  (random) => {
    const json = toJson(Res, random as never, { registry }) as Record<string, JsonValue>;
    json.title = "t";
    return fromJson(Res, json, { registry });
  },
);

/** The three PATCH entry points on the same request; each result as proto3 JSON. */
function patchAll(stored: MessageShape<DescMessage>, body: JsonObject, options: PatchOptions): JsonValue[] {
  const storedJson = toJson(Res, stored, { registry });
  const text = JSON.stringify(body);
  return [
    toJson(Res, patch(Res, stored, body, options), { registry }),
    jsonPatch(Res, storedJson, body, options),
    toJson(Res, patchFromJsonString(Res, stored, text, options), { registry }),
    jsonPatchFromJsonString(Res, storedJson, text, options),
  ];
}

describe("AIP-161: reading with a mask, then updating with the returned data and the same mask, is a no-op", () => {
  it("for the implied mask, `*`, every field, every leaf path and every AIP-161 map-key path", () => {
    fc.assert(
      fc.property(arbStored, (stored) => {
        const storedJson = toJson(Res, stored, { registry });
        const masks: [PatchOptions["updateMask"], boolean][] = [
          [undefined, false],
          ["*", false],
          [Res.fields.map((f) => f.name), false],
          ...leaves.map((l): [string[], boolean] => [[l.join(".")], false]),
          ...keyPaths(stored).map((l): [string[], boolean] => [[formatPath(l)], true]),
        ];
        for (const [updateMask, aip161] of masks) {
          const read =
            updateMask === undefined || updateMask === "*"
              ? storedJson
              : toJson(Res, fieldMaskProject(Res, stored, updateMask as string[], { aip161 }), { registry });
          for (const out of patchAll(stored, read as JsonObject, { updateMask, aip161, registry })) {
            expect(out).toEqual(storedJson);
          }
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000); // a hang guard: 3 s alone, 19 s beside two busy loops and other work

  it("also when the client leaves the output-only fields out (strict: true has nothing to refuse then)", () => {
    // AIP-161: a service "must ignore any output only fields provided as input, even if they are cleared".
    fc.assert(
      fc.property(arbStored, (stored) => {
        const storedJson = toJson(Res, stored, { registry }) as JsonObject;
        // The resource as a create request keeps it: without OUTPUT_ONLY members at any depth (nor the name).
        // The IDENTIFIER it keeps: a `*` update that leaves it out clears it, which IMMUTABLE refuses.
        const bare = toJson(Res, createFromJson(Res, storedJson, { registry }), { registry }) as JsonObject;
        if (storedJson.name !== undefined) bare.name = storedJson.name;
        for (const updateMask of [undefined, "*", Res.fields.map((f) => f.name)]) {
          for (const out of patchAll(stored, bare, { updateMask, registry })) expect(out).toEqual(storedJson);
        }
        // A mask naming an output-only field is refused under strict: the fields a client may write.
        const writable = ["node", "by_key", "by_num", "items", "first", "second", "plain", "counted", "extra"];
        for (const updateMask of [undefined, "*", [...writable, "meta", "tags", "yours", "by_flag", "title"]]) {
          for (const out of patchAll(stored, bare, { updateMask, registry, strict: true })) {
            expect(out).toEqual(storedJson);
          }
        }
      }),
      { numRuns: 40 },
    );
  });
});

describe("create (AIP-133): the value, its text and the Standard Schema agree", () => {
  it("createFromJson, createFromJsonString and standardSchema({ create: true }) give the same resource or error", () => {
    // AIP-203 OUTPUT_ONLY on create: "the server must clear out any value in this field".
    for (const strict of [false, true]) {
      const schema = standardSchema(Res, { create: true, strict, registry });
      fc.assert(
        fc.property(arbStored, fc.boolean(), (stored, titled) => {
          const json = toJson(Res, stored, { registry }) as JsonObject;
          if (!titled) delete json.title; // REQUIRED: missing
          const outcome = (f: () => MessageShape<DescMessage>): unknown => {
            try {
              return toJson(Res, f(), { registry });
            } catch (e) {
              const { rule, jsonPath: path } = e as { rule: string; jsonPath: string };
              return { rule, jsonPath: path };
            }
          };
          const value = outcome(() => createFromJson(Res, json, { strict, registry }));
          expect(outcome(() => createFromJsonString(Res, JSON.stringify(json), { strict, registry }))).toEqual(value);
          const result = schema["~standard"].validate(json) as unknown as {
            value?: MessageShape<DescMessage>;
            issues?: { rule: string; jsonPath: string }[];
          };
          if (result.issues === undefined) expect(toJson(Res, result.value!, { registry })).toEqual(value);
          else expect(result.issues.map((i) => ({ rule: i.rule, jsonPath: i.jsonPath }))).toContainEqual(value);
        }),
        { numRuns: 60 },
      );
    }
  });
});
