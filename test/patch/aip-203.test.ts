// patch on acme.aip203.v1.Shop (aip203.proto): AIP-203 field behaviour below messages, map entries and list
// elements, as AIP-161 and AIP-134 state it for an update. Each test quotes the sentence it comes from.

import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { toBinary, type DescMessage, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createFromJson,
  fromJson,
  jsonPatch,
  jsonPatchFromJsonString,
  patch,
  patchFromJsonString,
  toJson,
  type PatchOptions,
} from "../../src/index.js";
import { arbMessage } from "../arbitrary.js";
import { catchWkt } from "../helpers.js";
import { compileProto } from "./registry.js";

const registry = compileProto(dirname(fileURLToPath(import.meta.url)), "aip203.proto");
const Shop = registry.getMessage("acme.aip203.v1.Shop") as DescMessage;

const storedJson = {
  name: "shops/1",
  location: { city: "Lyon", verifyTime: "2024-01-01T00:00:00Z", geo: { lat: 45.7, checkedBy: "bot" } },
  owner: { id: "o-1", displayName: "Ada", badge: { serial: "b-9", color: "red" } },
  branches: {
    east: { title: "East", createTime: "2024-02-01T00:00:00Z", code: "E" },
    west: { title: "West", createTime: "2024-03-01T00:00:00Z" },
  },
  history: [
    { title: "First", createTime: "2020-01-01T00:00:00Z", code: "H1" },
    { title: "Second", createTime: "2021-01-01T00:00:00Z" },
  ],
  address: { city: "Lyon", street: "Rue de la Paix" },
  opened: "2020-01-01T00:00:00Z",
  customer: { address: { city: "Paris" }, name: "C" },
  note: "n",
  partner: { id: "p-1", displayName: "Bo" },
} satisfies JsonObject;

const stored = fromJson(Shop, storedJson);
const storedBytes = toBinary(Shop, stored);

/** patch on the stored Shop, as JSON; the stored message is never changed. */
function apply(body: JsonValue, options?: PatchOptions, from = stored): JsonObject {
  const out = toJson(Shop, patch(Shop, from, body, options)) as JsonObject;
  expect(toBinary(Shop, stored)).toEqual(storedBytes);
  return out;
}

/** The stored JSON with `edit` applied to a deep copy. */
function storedWith(edit: (j: Record<string, any>) => void): JsonObject {
  const j = structuredClone(storedJson) as Record<string, any>;
  edit(j);
  return j as JsonObject;
}

describe("OUTPUT_ONLY: the stored value is kept wherever the update rewrites something above it", () => {
  // AIP-161: a service "must ignore any output only fields provided as input, even if they are cleared or
  // modified".
  it("a message the mask names and the body clears keeps its output-only fields", () => {
    const kept = { verifyTime: "2024-01-01T00:00:00Z", geo: { checkedBy: "bot" } };
    expect(apply({}, { updateMask: "location" }).location).toEqual(kept);
    expect(apply({ location: null }).location).toEqual(kept);
    expect(apply({ location: {} }).location).toEqual(kept);
    expect(apply({ location: { city: "Nice" } }, { updateMask: "location" }).location).toEqual({
      city: "Nice",
      ...kept,
    });
    // Modified: the body's value is dropped, the stored one kept.
    const forged = { city: "Nice", verifyTime: "2030-01-01T00:00:00Z", geo: { lat: 1, checkedBy: "me" } };
    expect(apply({ location: forged }, { updateMask: "location" }).location).toEqual({
      city: "Nice",
      verifyTime: "2024-01-01T00:00:00Z",
      geo: { lat: 1, checkedBy: "bot" },
    });
  });

  it.each(["*", ["*"]] as const)("updateMask %j keeps nested output-only fields", (updateMask) => {
    // The resource as a client that knows nothing of output-only fields sends it back: without them.
    const body = storedWith((j) => {
      delete j.location.verifyTime;
      delete j.location.geo.checkedBy;
      for (const b of Object.values(j.branches) as Record<string, unknown>[]) delete b.createTime;
      for (const h of j.history as Record<string, unknown>[]) delete h.createTime;
    });
    expect(apply(body, { updateMask: updateMask as PatchOptions["updateMask"] })).toEqual(storedJson);
  });

  it("a map entry keeps the stored entry of the same key's; a new entry has none", () => {
    // AIP-161/134: reading the resource and updating it with the returned data and the same mask is a no-op.
    expect(apply({ branches: storedJson.branches }, { updateMask: "branches" })).toEqual(storedJson);
    const body = {
      branches: {
        east: { title: "East 2", createTime: "2030-01-01T00:00:00Z", code: "E" },
        north: { title: "North", createTime: "2030-01-01T00:00:00Z" },
      },
    };
    expect(apply(body).branches).toEqual({
      east: { title: "East 2", createTime: "2024-02-01T00:00:00Z", code: "E" },
      north: { title: "North" },
    });
  });

  it("a list element keeps the stored element at the same position's (a list has no other identity)", () => {
    expect(apply({ history: storedJson.history }, { updateMask: "history" })).toEqual(storedJson);
    const body = { history: [{ title: "One", code: "H1" }, { title: "Two" }, { title: "Three" }] };
    expect(apply(body).history).toEqual([
      { title: "One", createTime: "2020-01-01T00:00:00Z", code: "H1" },
      { title: "Two", createTime: "2021-01-01T00:00:00Z" },
      { title: "Three" },
    ]);
    // Reordered, elements take the output-only values of the positions they land on.
    expect(apply({ history: [{ title: "Second" }, { title: "First" }] }).history).toEqual([
      { title: "Second", createTime: "2020-01-01T00:00:00Z" },
      { title: "First", createTime: "2021-01-01T00:00:00Z" },
    ]);
  });

  it("an output-only field the stored resource leaves unset stays unset: the client's value is never kept", () => {
    const bareJson = { name: "shops/1", address: { city: "x" }, opened: "2020-01-01T00:00:00Z" };
    const body = {
      ...bareJson,
      location: { city: "Nice", verifyTime: "2030-01-01T00:00:00Z" },
      history: [{ title: "a", createTime: "2030-01-01T00:00:00Z" }],
    };
    expect(apply(body, { updateMask: "*" }, fromJson(Shop, bareJson))).toEqual({
      ...bareJson,
      location: { city: "Nice" },
      history: [{ title: "a" }],
    });
  });

  it.each<[string, PatchOptions["updateMask"]]>([
    ["the implied mask", undefined],
    ["*", "*"],
    ["each field", "location,owner,branches,history,address,opened,customer,note,partner"],
    ["location", "location"],
    ["location.geo", "location.geo"],
  ])("AIP-134: sending the resource as read back, with %s, changes nothing", (_, updateMask) => {
    expect(apply(storedJson, { updateMask })).toEqual(storedJson);
    expect(jsonPatch(Shop, storedJson, storedJson, { updateMask })).toEqual(storedJson);
  });
});

describe("IMMUTABLE and IDENTIFIER", () => {
  // AIP-203: an immutable field "may be set in a request to create a resource, but may not be changed after".
  it("a cleared parent may not take its immutable children with it", () => {
    for (const [body, options] of [
      [{}, { updateMask: "owner" }],
      [{ owner: null }, {}],
      [{ name: "shops/1", address: storedJson.address, opened: storedJson.opened }, { updateMask: "*" }],
    ] as const) {
      const e = catchWkt(() => apply(body, options));
      expect(e).toMatchObject({ rule: "field-behavior", jsonPath: "$.owner.id" });
      expect(e.detail).toContain("clears $.owner");
    }
    // One level further down: owner replaced without its badge.
    expect(catchWkt(() => apply({ owner: { id: "o-1" } }, { updateMask: "owner" }))).toMatchObject({
      rule: "field-behavior",
      jsonPath: "$.owner.badge.serial",
    });
    // A oneof member replaced by another is cleared too.
    expect(catchWkt(() => apply({ solo: "x" }))).toMatchObject({ rule: "field-behavior", jsonPath: "$.partner.id" });
    // Kept as it is, the parent may change around it.
    expect(apply({ owner: { id: "o-1", badge: { serial: "b-9" } } }, { updateMask: "owner" }).owner).toEqual({
      id: "o-1",
      badge: { serial: "b-9" },
    });
  });

  it("a map entry removed may not take its immutable fields with it; one kept may not change them", () => {
    const west = storedJson.branches.west;
    expect(catchWkt(() => apply({ branches: { west } }))).toMatchObject({
      rule: "field-behavior",
      jsonPath: "$.branches.east.code",
    });
    expect(catchWkt(() => apply({}, { updateMask: "branches.east", aip161: true }))).toMatchObject({
      rule: "field-behavior",
      jsonPath: "$.branches.east.code",
    });
    expect(catchWkt(() => apply({ branches: { east: { code: "X" }, west } }))).toMatchObject({
      rule: "field-behavior",
      jsonPath: "$.branches.east.code",
    });
    // west has no immutable value set: it may go.
    expect(apply({ branches: { east: { title: "E", code: "E" } } }).branches).toEqual({
      east: { title: "E", createTime: "2024-02-01T00:00:00Z", code: "E" },
    });
  });

  // AIP-203: IDENTIFIER is "considered IMMUTABLE and accepted as input for mutation methods that accept the
  // resource as the primary input e.g. Standard Update". The error names the behaviour the field has.
  it("an IDENTIFIER left out of a `*` update is named IDENTIFIER, and the `*` said to clear it", () => {
    const { name: _, ...withoutName } = storedJson;
    const e = catchWkt(() => apply(withoutName, { updateMask: "*" }));
    expect(e).toMatchObject({ rule: "field-behavior", jsonPath: "$.name" });
    expect(e.detail).toContain("name is IDENTIFIER");
    expect(e.detail).toContain('"*" replaces the whole resource and the body leaves name out');
    expect(e.detail).not.toContain("IMMUTABLE");
    // Sent with its stored value, `*` is accepted.
    expect(apply(storedJson, { updateMask: "*" }).name).toBe("shops/1");
    // Named by the mask and not sent; changed; an IMMUTABLE field keeps its own word.
    expect(catchWkt(() => apply({}, { updateMask: "name" })).detail).toContain(
      "name is IDENTIFIER: the update clears it",
    );
    expect(catchWkt(() => apply({ name: "shops/2" })).detail).toContain("name is IDENTIFIER: it may not change");
    expect(catchWkt(() => apply({ owner: { id: "o-2" } })).detail).toContain("id is IMMUTABLE");
  });

  it("inside a list it is not checked: an element has no identity to compare it by", () => {
    expect(apply({ history: [{ title: "First", code: "changed" }] }).history).toEqual([
      { title: "First", createTime: "2020-01-01T00:00:00Z", code: "changed" },
    ]);
  });

  it("going from unset to set in an update is a change: refused unless immutableSetOnce", () => {
    const unset = fromJson(Shop, {
      owner: { displayName: "Ada" },
      branches: { east: { title: "East" } },
      address: { city: "x" },
      opened: "2020-01-01T00:00:00Z",
    });
    for (const [body, path, again] of [
      [{ name: "shops/2" }, "$.name", { name: "shops/3" }],
      [{ owner: { id: "o-2" } }, "$.owner.id", { owner: { id: "o-3" } }],
      [{ location: { city: "x" }, partner: { id: "p" } }, "$.partner.id", { partner: { id: "q" } }],
      [
        { branches: { east: { title: "East", code: "E" } } },
        "$.branches.east.code",
        { branches: { east: { title: "East", code: "F" } } },
      ],
      [
        { branches: { east: { title: "East" }, north: { code: "N" } } },
        "$.branches.north.code",
        { branches: { east: { title: "East" }, north: { code: "M" } } },
      ],
    ] as const) {
      expect(catchWkt(() => apply(body, {}, unset))).toMatchObject({ rule: "field-behavior", jsonPath: path });
      const once = fromJson(Shop, apply(body, { immutableSetOnce: true }, unset));
      // Once set, it may not change.
      expect(catchWkt(() => apply(again, { immutableSetOnce: true }, once))).toMatchObject({
        rule: "field-behavior",
        jsonPath: path,
      });
    }
  });

  it("immutableSetOnce is a boolean", () => {
    expect(catchWkt(() => apply({}, { immutableSetOnce: "yes" as never }))).toMatchObject({ rule: "range" });
  });
});

describe("REQUIRED on a message field: present when one of its fields is not at its default", () => {
  // AIP-203: "a message is present if it has at least one field that is not at its default value".
  it.each<[JsonValue, PatchOptions]>([
    [{ address: {} }, {}],
    [{ address: {} }, { updateMask: "address" }],
    [{ address: { city: "" } }, { updateMask: "address" }],
    [{ address: { city: "", street: "" } }, {}],
    [{ address: null }, {}],
    [{}, { updateMask: "address" }],
  ])("%j (%j) is refused", (body, options) => {
    expect(catchWkt(() => apply(body, options))).toMatchObject({ rule: "field-behavior", jsonPath: "$.address" });
  });

  it('{city: "x"} passes; a Timestamp at the epoch is a value', () => {
    expect(apply({ address: { city: "x" } }, { updateMask: "address" }).address).toEqual({ city: "x" });
    expect(apply({ opened: "1970-01-01T00:00:00Z" }).opened).toBe("1970-01-01T00:00:00Z");
    expect(catchWkt(() => apply({ opened: null }))).toMatchObject({ rule: "field-behavior", jsonPath: "$.opened" });
  });

  it("reached through * and through a parent", () => {
    expect(
      catchWkt(() =>
        apply(
          storedWith((j) => (j.address = {})),
          { updateMask: "*" },
        ),
      ),
    ).toMatchObject({
      rule: "field-behavior",
      jsonPath: "$.address",
    });
    for (const [body, options] of [
      [{ customer: { name: "n" } }, { updateMask: "customer" }],
      [{ customer: { address: { city: "" }, name: "n" } }, { updateMask: "customer" }],
      [{ customer: { address: {} } }, {}],
      [{ customer: { name: "n" } }, { impliedMask: "fields" }],
    ] as const) {
      expect(catchWkt(() => apply(body, options))).toMatchObject({
        rule: "field-behavior",
        jsonPath: "$.customer.address",
      });
    }
    // A parent the update clears has no required fields to check.
    expect(apply({}, { updateMask: "customer" }).customer).toBeUndefined();
  });
});

describe("types without field behaviour", () => {
  it("are left as the merge made them", () => {
    const Plain = registry.getMessage("acme.aip203.v1.Plain") as DescMessage;
    const base = fromJson(Plain, { a: "x", children: [{ a: "c" }], named: { k: { a: "v" } } });
    expect(toJson(Plain, patch(Plain, base, { children: [] }, { updateMask: "*" }))).toEqual({});
    expect(apply({ plain: { a: "p", children: [{ a: "q" }] } }).plain).toEqual({ a: "p", children: [{ a: "q" }] });
  });
});

describe("the walk", () => {
  /** A Tree `depth` levels deep, ids from `id(level)` (none where it gives undefined). */
  function tree(depth: number, id: (level: number) => string | undefined): JsonObject {
    let t: JsonObject = { label: `l${depth}` };
    for (let level = depth - 1; level >= 0; level--) {
      const i = id(level);
      t = { ...(i === undefined ? {} : { id: i }), label: `l${level}`, child: t };
    }
    return t;
  }

  it("keeps output-only fields at every level of a recursive type, through a cleared parent too", () => {
    const deep = fromJson(Shop, { ...storedJson, tree: tree(90, (l) => `id${l}`) });
    const sent = tree(90, () => undefined);
    expect(apply({ tree: sent }, { updateMask: "tree" }, deep).tree).toEqual(tree(90, (l) => `id${l}`));
    // Cleared: a message per level holding just the stored id (the last level holds none: it is not made).
    let ids: JsonObject = { id: "id89" };
    for (let level = 88; level >= 0; level--) ids = { id: `id${level}`, child: ids };
    expect(apply({ tree: null }, {}, deep).tree).toEqual(ids);
  });

  it("is charged per element and entry within what the body earns", () => {
    const history = Array.from({ length: 20_000 }, () => ({}));
    const branches = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`b${i}`, {}]));
    const out = apply({ history, branches: { east: { code: "E" }, ...branches } });
    expect((out.history as JsonObject[])[1]).toEqual({ createTime: "2021-01-01T00:00:00Z" });
  });
});

describe("laws", () => {
  it("AIP-134: a resource read and sent back with the implied mask, `*` or each field is left as it was", () => {
    const masks = [undefined, "*", Shop.fields.map((f) => f.name)];
    fc.assert(
      fc.property(arbMessage(Shop, { maxDepth: 4, setChance: 0.5 }), (random) => {
        // A valid stored resource: its REQUIRED fields present.
        const json = toJson(Shop, random as never) as Record<string, JsonValue>;
        json.address = { city: "c" };
        json.opened = "1970-01-01T00:00:00Z";
        if (json.customer !== undefined) json.customer = { ...(json.customer as JsonObject), address: { city: "c" } };
        const stored = fromJson(Shop, json);
        for (const updateMask of masks) {
          expect(toJson(Shop, patch(Shop, stored, json, { updateMask }))).toEqual(json);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("review: the classes found by probing (laws.proto, aip203.proto)", () => {
  const laws = compileProto(dirname(fileURLToPath(import.meta.url)), "laws.proto");
  const Res = laws.getMessage("acme.laws.v1.Res") as DescMessage;
  const res = fromJson(Res, {
    title: "t",
    byKey: { east: { label: "e", createTime: "2024-01-01T00:00:00Z", code: "E" }, "a.b c": { code: "Q" } },
    byNum: { "7": { code: "S" } },
    first: { label: "f", createTime: "2024-01-01T00:00:00Z", code: "F" },
    mine: "m",
    node: { code: "N", child: { label: "c" } },
  });
  const resJson = toJson(Res, res) as JsonObject;
  const onRes = (body: JsonValue, options?: PatchOptions): JsonObject =>
    toJson(Res, patch(Res, res, body, options)) as JsonObject;

  // A refusal names the member as the client wrote it: the decoder takes a field's proto name as well as its
  // JSON name, and AIP-203 errors are about a member of the request.
  it.each<[string, string, string, number, number]>([
    ['{"by_key": {"east": {\n"code": "X"}}}', "$.by_key.east.code", "IMMUTABLE", 2, 9],
    ['{"node": {"child": {"label": "c",\n "code": "Z"}}}', "$.node.child.code", "IMMUTABLE", 2, 10],
    ['{\n"title": ""}', "$.title", "REQUIRED", 2, 10],
    // A map entry the update leaves out: the nearest value above it that the body holds (the map).
    // A map key as the client spelt it: "07" is the int32 key 7.
    ['{"byNum": {\n"07": {"code": "T"}}}', '$.byNum["07"].code', "IMMUTABLE", 2, 16],
    ['{\n "by_num": {}}', '$.by_num["7"].code', "clears", 2, 12],
    ['{"byKey":\n {"east": {"code": "E"}}}', '$.byKey["a.b c"].code', "clears", 2, 2],
  ])("%s is refused at %s, with its line and column", (text, path, what, line, column) => {
    for (const e of [
      catchWkt(() => patch(Res, res, JSON.parse(text) as JsonValue)),
      catchWkt(() => patchFromJsonString(Res, res, text)),
      catchWkt(() => jsonPatchFromJsonString(Res, resJson, text)),
    ]) {
      expect(e).toMatchObject({ rule: "field-behavior", jsonPath: path });
      expect(e.detail).toContain(what);
    }
    // The position of the member's value, else of the nearest value above it.
    expect(catchWkt(() => patchFromJsonString(Res, res, text))).toMatchObject({ line, column });
  });

  it("a text body repeating a map key or a member of a map entry: duplicate-field, with line and column", () => {
    // A value from JSON.parse keeps the last of the two; the text entry points refuse the body instead.
    for (const [text, path] of [
      ['{"byKey": {"east": {"code": "E"},\n"east": {"code": "X"}}}', "$.byKey.east"],
      ['{"byKey": {"east": {"code": "X",\n"code": "E"}}}', "$.byKey.east.code"],
    ] as const) {
      for (const e of [
        catchWkt(() => patchFromJsonString(Res, res, text)),
        catchWkt(() => jsonPatchFromJsonString(Res, resJson, text)),
      ]) {
        expect(e).toMatchObject({ rule: "duplicate-field", jsonPath: path, line: 2, column: 1 });
      }
    }
  });

  it("strict: a mask path into a map entry that names an output-only field is refused, as `location.verify_time` is", () => {
    // AIP-203 OUTPUT_ONLY: "including the field in a request does nothing"; strict makes including it an error.
    const updateMask = ["by_key.east.create_time"];
    expect(catchWkt(() => onRes({}, { updateMask, aip161: true, strict: true }))).toMatchObject({
      rule: "field-behavior",
      jsonPath: "$.updateMask",
    });
    // Without strict the path is ignored: the stored value stays, whatever the body says.
    const body = { byKey: { east: { createTime: "2030-01-01T00:00:00Z" } } };
    expect(onRes(body, { updateMask, aip161: true })).toEqual(resJson);
    expect(
      onRes({ byKey: { east: { label: "q" } } }, { updateMask: ["by_key.east.label"], aip161: true }).byKey,
    ).toEqual({
      ...(resJson.byKey as JsonObject),
      east: { label: "q", createTime: "2024-01-01T00:00:00Z", code: "E" },
    });
  });

  it("REQUIRED: a message the update brings into being is checked whole, whatever part of it the mask names", () => {
    // AIP-203: "In the case above, if a title is specified, the text field is required."
    const bare = fromJson(Shop, { address: { city: "x" }, opened: "2020-01-01T00:00:00Z" });
    for (const [body, options] of [
      [{ customer: { name: "n" } }, {}],
      [{ customer: { name: "n" } }, { updateMask: "customer.name" }],
    ] as const) {
      expect(catchWkt(() => patch(Shop, bare, body, options))).toMatchObject({
        rule: "field-behavior",
        jsonPath: "$.customer.address",
      });
    }
    // A stored message missing it already is not the update's doing: a change elsewhere in it passes.
    const legacy = fromJson(Shop, { address: { city: "x" }, opened: "2020-01-01T00:00:00Z", customer: { name: "a" } });
    expect((toJson(Shop, patch(Shop, legacy, { customer: { name: "b" } })) as JsonObject).customer).toEqual({
      name: "b",
    });
  });

  it("a oneof: selecting another member drops the output-only data of the old one; its immutable data may not go", () => {
    // AIP-203 IMMUTABLE: "may not be changed after"; the old member's `code` would go with it.
    expect(catchWkt(() => onRes({ second: { label: "s" } }))).toMatchObject({
      rule: "field-behavior",
      jsonPath: "$.first.code",
    });
    // `mine` (output-only) is the stored choice of `owned`; the client's choice of `yours` stands.
    expect(onRes({ yours: "y" }).yours).toBe("y");
    expect(onRes({ yours: "y" }).mine).toBeUndefined();
    // Sending the output-only member does nothing.
    expect(onRes({ mine: "forged" }, { updateMask: "mine" })).toEqual(resJson);
  });

  it("path lists: OUTPUT_ONLY wins over REQUIRED and IMMUTABLE on the same field; a path given twice is one", () => {
    // OUTPUT_ONLY: "including the field in a request does nothing", so it can be neither required nor changed.
    expect(onRes({ title: "" }, { outputOnly: ["title"], required: ["title"] }).title).toBe("t");
    expect(toJson(Res, createFromJson(Res, { title: "x" }, { outputOnly: ["title"] }))).toEqual({});
    expect(onRes({ node: { code: "other" } }, { outputOnly: ["node.code"], immutable: ["node.code"] })).toEqual(
      resJson,
    );
    expect(catchWkt(() => onRes({ node: { code: "q" } }, { immutable: ["node.code", "node.code"] }))).toMatchObject({
      rule: "field-behavior",
      jsonPath: "$.node.code",
    });
  });

  it("immutableSetOnce reaches nested fields: set once below a stored parent, then refused", () => {
    const body = { node: { child: { child: { code: "new" } } } };
    expect(catchWkt(() => onRes(body))).toMatchObject({ rule: "field-behavior", jsonPath: "$.node.child.child.code" });
    const once = patch(Res, res, body, { immutableSetOnce: true });
    expect(toJson(Res, once)).toMatchObject({ node: { child: { child: { code: "new" } } } });
    const again = { node: { child: { child: { code: "newer" } } } };
    expect(catchWkt(() => patch(Res, once, again, { immutableSetOnce: true }))).toMatchObject({
      rule: "field-behavior",
      jsonPath: "$.node.child.child.code",
    });
  });

  it("an Any's contents and extensions are not walked: field behaviour applies to the schema's own fields", () => {
    // The packed message is the client's bytes: a service that accepts an Any checks what it unpacks.
    const Node = laws.getMessage("acme.laws.v1.Node") as DescMessage;
    const extra = { "@type": "type.googleapis.com/acme.laws.v1.Node", createTime: "2030-01-01T00:00:00Z" };
    expect(
      (toJson(Res, patch(Res, res, { extra }, { registry: laws }), { registry: laws }) as JsonObject).extra,
    ).toEqual(extra);
    expect(toJson(Node, fromJson(Node, { createTime: "2030-01-01T00:00:00Z" }))).toEqual({
      createTime: "2030-01-01T00:00:00Z",
    });
  });

  it("__proto__ map keys go through the restore and check walks as plain keys", () => {
    const stored = fromJson(
      Res,
      JSON.parse('{"title": "t", "byKey": {"__proto__": {"code": "P", "createTime": "2024-01-01T00:00:00Z"}}}'),
    );
    const kept = toJson(
      Res,
      patch(Res, stored, JSON.parse('{"byKey": {"__proto__": {"code": "P", "label": "x"}}}')),
    ) as JsonObject;
    expect(JSON.stringify(kept.byKey)).toBe(
      '{"__proto__":{"label":"x","createTime":"2024-01-01T00:00:00Z","code":"P"}}',
    );
    expect(catchWkt(() => patch(Res, stored, { byKey: {} }))).toMatchObject({
      rule: "field-behavior",
      jsonPath: "$.byKey.__proto__.code",
    });
    // An AIP-161 mask path by that key.
    const byMask = patch(Res, stored, JSON.parse('{"byKey": {"__proto__": {"label": "L"}}}') as JsonValue, {
      updateMask: ["by_key.__proto__.label"],
      aip161: true,
    });
    expect(Object.keys((byMask as unknown as { byKey: object }).byKey)).toEqual(["__proto__"]);
    expect(catchWkt(() => patch(Res, stored, {}, { updateMask: ["by_key.__proto__"], aip161: true }))).toMatchObject({
      rule: "field-behavior",
      jsonPath: "$.byKey.__proto__.code",
    });
    expect(({} as Record<string, unknown>).code).toBeUndefined();
    expect(({} as Record<string, unknown>).label).toBeUndefined();
  });

  it("a body that removes a wide or deep stored subtree: a WktJsonError, never a stack overflow", () => {
    // The walk of what the update removed reads the stored resource (each node once, depth-bounded).
    const byKey = Object.fromEntries(
      Array.from({ length: 20_000 }, (_, i) => [`k${i}`, { label: "x", createTime: "2024-01-01T00:00:00Z" }]),
    );
    const wide = fromJson(Res, { title: "t", byKey: { ...byKey, last: { child: { child: { code: "c" } } } } });
    expect(catchWkt(() => patch(Res, wide, {}, { updateMask: ["by_key"] }))).toMatchObject({
      rule: "field-behavior",
      jsonPath: "$.byKey.last.child.child.code",
    });
    let deep: JsonObject = { code: "bottom" };
    for (let i = 0; i < 95; i++) deep = { createTime: "2024-01-01T00:00:00Z", child: deep };
    const stored = fromJson(Res, { title: "t", node: deep });
    const e = catchWkt(() => patch(Res, stored, { node: null }));
    expect(e).toMatchObject({ rule: "field-behavior", jsonPath: `$.node${".child".repeat(95)}.code` });
    expect(e.detail).toContain("clears $.node,");
  });
});
