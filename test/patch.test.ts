// patch and jsonPatch: AIP-134 updates with AIP-203 field behaviour, on acme.shelf.v1.Book (test/patch/shelf.proto,
// whose fields carry google.api.field_behavior options) and on the conformance suite's TestAllTypesProto3.

import { create, createFileRegistry, fromBinary, toBinary, type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { BinaryWriter, WireType } from "@bufbuild/protobuf/wire";
import {
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FieldOptionsSchema,
  FileDescriptorProtoSchema,
  FileDescriptorSetSchema,
} from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fieldMaskMerge, fromJson, isWktJsonError, jsonPatch, patch, toJson, type PatchOptions } from "../src/index.js";
import { arbMessage } from "./arbitrary.js";
import {
  TestAllTypesEdition2023,
  TestAllTypesProto2,
  TestAllTypesProto3,
  testRegistry,
} from "./conformance-registry.js";
import { catchWkt } from "./helpers.js";
import { Book, compileProto } from "./patch/registry.js";

const storedJson = {
  name: "shelves/1/books/1",
  title: "The Dispossessed",
  author: { id: "a-7", givenName: "Ursula", familyName: "Le Guin" },
  tags: ["sf", "utopia"],
  publishTime: "1974-05-01T00:00:00Z",
  createTime: "2024-01-01T00:00:00Z",
  updateTime: "2024-02-01T00:00:00Z",
  labels: { shelf: "a", lang: "en" },
  isbn: "978-0-06-051275-9",
  chapters: [{ id: "c1", title: "One", pages: 20 }],
  appendices: { map: { id: "x1", title: "Map of Anarres" } },
  metadata: { source: "import", tags: [1, 2] },
  rating: 5,
  printing: { copies: 1000, press: "Harper" },
  stats: { reads: "10" },
  etag: "e1",
} satisfies JsonObject;

const stored = fromJson(Book, storedJson);
const storedBytes = toBinary(Book, stored);

/** patch on the stored Book, as JSON; the stored message is never changed. */
function apply(body: JsonValue, options?: PatchOptions): JsonObject {
  const out = toJson(Book, patch(Book, stored, body, options)) as JsonObject;
  expect(toBinary(Book, stored)).toEqual(storedBytes);
  return out;
}

/** The members of `a` that differ from the stored JSON (`undefined` for a member removed). */
function changes(a: JsonObject): JsonObject {
  const out: Record<string, JsonValue | undefined> = {};
  for (const k of new Set([...Object.keys(storedJson), ...Object.keys(a)])) {
    const before = (storedJson as JsonObject)[k];
    if (JSON.stringify(before) !== JSON.stringify(a[k])) out[k] = a[k];
  }
  return out as JsonObject;
}

describe("AIP-134: the mask is the request's, else the fields the body holds", () => {
  it("changes only the fields the body holds", () => {
    expect(changes(apply({ title: "The Dispossessed: An Ambiguous Utopia" }))).toEqual({
      title: "The Dispossessed: An Ambiguous Utopia",
    });
  });

  it("replaces repeated and map fields, never appends", () => {
    expect(changes(apply({ tags: ["anarchism"], labels: { lang: "fr" } }))).toEqual({
      tags: ["anarchism"],
      labels: { lang: "fr" },
    });
    // The output-only id of element 0 is the stored element 0's (AIP-161; a list element's identity is its position).
    expect(changes(apply({ chapters: [{ title: "Shevek" }] }))).toEqual({ chapters: [{ id: "c1", title: "Shevek" }] });
  });

  it("goes into a sent message member by member: the members it lacks stay", () => {
    expect(changes(apply({ author: { familyName: "K. Le Guin" } }))).toEqual({
      author: { id: "a-7", givenName: "Ursula", familyName: "K. Le Guin" },
    });
  });

  it('impliedMask "fields": a sent message replaces the stored one', () => {
    const out = apply({ author: { givenName: "U.", familyName: "K. Le Guin" } }, { impliedMask: "fields" });
    // author.id is output only: the stored value stays through the replacement.
    expect(changes(out)).toEqual({ author: { id: "a-7", givenName: "U.", familyName: "K. Le Guin" } });
  });

  it("null clears a field, {} sets an empty message", () => {
    expect(changes(apply({ publishTime: null, tags: null, rating: null, metadata: null }))).toEqual({
      publishTime: undefined,
      tags: undefined,
      rating: undefined,
      metadata: undefined,
    });
    const M = TestAllTypesProto3;
    const base = fromJson(M, { optionalNestedMessage: { a: 1 } });
    expect(toJson(M, patch(M, base, { optionalNestedMessage: {} }))).toEqual({ optionalNestedMessage: {} });
  });

  it("takes a oneof member from the body: the other member goes", () => {
    const paperback = fromJson(Book, { ...storedJson, printing: { copies: 1000 } });
    const out = toJson(Book, patch(Book, paperback, { ebookUrl: "https://example.com/b/1" })) as JsonObject;
    expect(changes(out)).toEqual({ ebookUrl: "https://example.com/b/1", printing: undefined });
    // Unless it holds an immutable value (printing.press): that would go with it (AIP-203).
    expect(catchWkt(() => apply({ ebookUrl: "https://example.com/b/1" }))).toMatchObject({
      rule: "field-behavior",
      jsonPath: "$.printing.press",
    });
  });

  it("accepts proto field names in the body", () => {
    expect(changes(apply({ publish_time: "1974-05-01T10:00:00+05:00" }))).toEqual({
      publishTime: "1974-05-01T05:00:00Z",
    });
  });

  it("an empty body changes nothing", () => {
    expect(apply({})).toEqual(storedJson);
  });

  it.each<[string, PatchOptions["updateMask"]]>([
    ["JSON form", "title,author.familyName"],
    ["proto paths", ["title", "author.family_name"]],
    ["FieldMask", { $typeName: "google.protobuf.FieldMask", paths: ["title", "author.family_name"] }],
  ])("an update mask (%s) names what changes; the rest of the body is ignored", (_, updateMask) => {
    const out = apply({ title: "T", author: { familyName: "F", givenName: "G" }, tags: [] }, { updateMask });
    expect(changes(out)).toEqual({ title: "T", author: { id: "a-7", givenName: "Ursula", familyName: "F" } });
  });

  it("a masked field the body lacks is reset", () => {
    expect(changes(apply({ title: "T" }, { updateMask: "title,tags" }))).toEqual({ title: "T", tags: undefined });
  });

  it("a masked message field is replaced", () => {
    const out = apply({ printing: { copies: 5, press: "Harper" } }, { updateMask: "printing" });
    expect(changes(out)).toEqual({ printing: { copies: 5, press: "Harper" } });
  });

  it("`*` replaces the whole resource, keeping output-only fields and checking the others' rules", () => {
    const body = {
      name: "shelves/1/books/1",
      title: "New",
      isbn: "978-0-06-051275-9",
      printing: { press: "Harper" },
      createTime: "2030-01-01T00:00:00Z",
    };
    const out = apply(body, { updateMask: "*" });
    expect(out).toEqual({
      name: "shelves/1/books/1",
      title: "New",
      author: { id: "a-7" }, // output only: kept, though `*` cleared author
      isbn: "978-0-06-051275-9",
      printing: { press: "Harper" },
      createTime: "2024-01-01T00:00:00Z",
      updateTime: "2024-02-01T00:00:00Z",
      stats: { reads: "10" },
      etag: "e1",
    });
    // printing.press is immutable: `*` without printing would clear it.
    const { printing: _, ...withoutPrinting } = body;
    expect(catchWkt(() => apply(withoutPrinting, { updateMask: "*" }))).toMatchObject({
      rule: "field-behavior",
      jsonPath: "$.printing.press",
    });
    expect(catchWkt(() => apply({ name: "shelves/1/books/1", title: "New" }, { updateMask: "*" }))).toMatchObject({
      rule: "field-behavior",
      jsonPath: "$.isbn",
    });
  });

  it("AIP-161 map keys in the mask, with aip161", () => {
    expect(
      changes(apply({ labels: { lang: "fr", shelf: "z" } }, { updateMask: ["labels.lang"], aip161: true })),
    ).toEqual({ labels: { shelf: "a", lang: "fr" } });
    expect(catchWkt(() => apply({}, { updateMask: ["labels.lang"] }))).toMatchObject({ rule: "mask-path" });
  });
});

describe("the body is checked against the schema first", () => {
  it.each<[JsonValue, string, string]>([
    [{ titel: "x" }, "unknown-field", "$.titel"],
    [{ tags: "x" }, "json-type", "$.tags"],
    [{ author: { givenName: 1 } }, "json-type", "$.author.givenName"],
    [{ publishTime: "1974-05-32T00:00:00Z" }, "range", "$.publishTime"],
    [{ chapters: [{ title: "a" }, { pages: "many" }] }, "syntax", "$.chapters[1].pages"],
    [{ title: "a", title_: 1 }, "unknown-field", "$.title_"],
    [
      { publishTime: "2024-01-01T00:00:00Z", publish_time: "2024-01-01T00:00:00Z" },
      "duplicate-field",
      "$.publish_time",
    ],
    [{ ebookUrl: "u", printing: {} }, "oneof", "$.printing"],
    [["title"], "json-type", "$"],
    [JSON.parse('{"__proto__": {"title": "x"}}') as JsonValue, "unknown-field", "$.__proto__"],
  ])("%j: %s at %s", (body, rule, path) => {
    expect(catchWkt(() => apply(body))).toMatchObject({ rule, jsonPath: path });
    expect(({} as Record<string, unknown>).title).toBeUndefined();
  });

  it("unknown members are skipped under ignoreUnknownFields", () => {
    expect(changes(apply({ titel: "x", title: "T" }, { ignoreUnknownFields: true }))).toEqual({ title: "T" });
  });

  it("takes the decoder's limits", () => {
    expect(catchWkt(() => apply({ chapters: [{ title: "a" }] }, { maxValues: 3 }))).toMatchObject({ rule: "size" });
    let nested: JsonValue = {};
    for (let i = 0; i < 200; i++) nested = { optionalNestedMessage: { corecursive: nested } };
    expect(catchWkt(() => patch(TestAllTypesProto3, create(TestAllTypesProto3), nested))).toMatchObject({
      rule: "depth",
    });
  });
});

describe("AIP-203 field behaviour from google.api.field_behavior", () => {
  describe("OUTPUT_ONLY", () => {
    it("members of the body are ignored, under either name", () => {
      const body = {
        title: "T",
        createTime: "2030-01-01T00:00:00Z",
        update_time: "2030-01-01T00:00:00Z",
        stats: { reads: "99" },
        etag: "forged",
      };
      expect(changes(apply(body))).toEqual({ title: "T" });
    });

    it("nested: author.id is kept from the stored resource, also when author is replaced", () => {
      expect(changes(apply({ author: { id: "forged", givenName: "U." } }))).toEqual({
        author: { id: "a-7", givenName: "U.", familyName: "Le Guin" },
      });
      expect(changes(apply({ author: { id: "forged", givenName: "U." } }, { updateMask: "author" }))).toEqual({
        author: { id: "a-7", givenName: "U." },
      });
    });

    it("inside a list the stored element at the same position keeps it, inside a map the stored entry of the same key", () => {
      const out = apply({
        chapters: [
          { id: "forged", title: "Shevek" },
          { id: "forged", title: "Takver" },
        ],
        appendices: { map: { id: "forged", title: "Map" }, glossary: { id: "forged", title: "Words" } },
      });
      // An element or entry the stored resource lacks has the field unset: the client's value is never kept.
      expect(changes(out)).toEqual({
        chapters: [{ id: "c1", title: "Shevek" }, { title: "Takver" }],
        appendices: { map: { id: "x1", title: "Map" }, glossary: { title: "Words" } },
      });
    });

    it("a mask path naming one is ignored", () => {
      expect(
        changes(
          apply({ createTime: "2030-01-01T00:00:00Z", title: "T" }, { updateMask: "createTime,title,stats.reads" }),
        ),
      ).toEqual({ title: "T" });
    });

    it("strict: an error, at the member's path", () => {
      expect(catchWkt(() => apply({ title: "T", createTime: "2030-01-01T00:00:00Z" }, { strict: true }))).toMatchObject(
        { rule: "field-behavior", jsonPath: "$.createTime" },
      );
      expect(catchWkt(() => apply({ author: { id: "x" } }, { strict: true }))).toMatchObject({
        rule: "field-behavior",
        jsonPath: "$.author.id",
      });
      expect(
        catchWkt(() => apply({ chapters: [{ title: "a" }, { id: "x", title: "b" }] }, { strict: true })),
      ).toMatchObject({ rule: "field-behavior", jsonPath: "$.chapters[1].id" });
      // About the mask, not the body: at the update mask's path, as the mask's other errors are.
      expect(catchWkt(() => apply({ title: "T" }, { strict: true, updateMask: "title,createTime" }))).toMatchObject({
        rule: "field-behavior",
        jsonPath: "$.updateMask",
      });
      expect(changes(apply({ title: "T" }, { strict: true }))).toEqual({ title: "T" });
    });
  });

  describe("IMMUTABLE and IDENTIFIER", () => {
    it("may be sent with the stored value, not with another", () => {
      expect(changes(apply({ name: "shelves/1/books/1", isbn: "978-0-06-051275-9", title: "T" }))).toEqual({
        title: "T",
      });
      expect(catchWkt(() => apply({ isbn: "0" }))).toMatchObject({ rule: "field-behavior", jsonPath: "$.isbn" });
      expect(catchWkt(() => apply({ name: "shelves/2/books/1" }))).toMatchObject({
        rule: "field-behavior",
        jsonPath: "$.name",
      });
      expect(catchWkt(() => apply({ isbn: null }))).toMatchObject({ rule: "field-behavior", jsonPath: "$.isbn" });
      expect(catchWkt(() => apply({ printing: { press: "Gollancz" } }))).toMatchObject({
        rule: "field-behavior",
        jsonPath: "$.printing.press",
      });
    });

    it("may be set once with immutableSetOnce: a stored resource without it takes it", () => {
      const bare = fromJson(Book, { title: "T" });
      const body = { isbn: "1", printing: { press: "P" } };
      const out = toJson(Book, patch(Book, bare, body, { immutableSetOnce: true })) as JsonObject;
      expect(out).toEqual({ title: "T", isbn: "1", printing: { press: "P" } });
      // By default (AIP-203: "may be set in a request to create a resource, but may not be changed after").
      expect(catchWkt(() => patch(Book, bare, body))).toMatchObject({ rule: "field-behavior", jsonPath: "$.isbn" });
      expect(catchWkt(() => patch(Book, bare, { printing: { press: "P" } }))).toMatchObject({
        rule: "field-behavior",
        jsonPath: "$.printing.press",
      });
    });

    it("a replaced message may not change its immutable members", () => {
      expect(catchWkt(() => apply({ printing: { copies: 2 } }, { updateMask: "printing" }))).toMatchObject({
        rule: "field-behavior",
        jsonPath: "$.printing.press",
      });
    });
  });

  describe("REQUIRED", () => {
    it("may not be cleared", () => {
      expect(catchWkt(() => apply({ title: "" }))).toMatchObject({ rule: "field-behavior", jsonPath: "$.title" });
      expect(catchWkt(() => apply({ title: null }))).toMatchObject({ rule: "field-behavior", jsonPath: "$.title" });
      expect(catchWkt(() => apply({ author: { givenName: "" } }))).toMatchObject({
        rule: "field-behavior",
        jsonPath: "$.author.givenName",
      });
      expect(catchWkt(() => apply({ author: { familyName: "F" } }, { impliedMask: "fields" }))).toMatchObject({
        rule: "field-behavior",
        jsonPath: "$.author.givenName",
      });
    });

    it("in every element of a list and value of a map the update sets", () => {
      expect(catchWkt(() => apply({ chapters: [{ title: "a" }, { pages: 3 }] }))).toMatchObject({
        rule: "field-behavior",
        jsonPath: "$.chapters[1].title",
      });
      expect(catchWkt(() => apply({ appendices: { x: { pages: 3 } } }))).toMatchObject({
        rule: "field-behavior",
        jsonPath: "$.appendices.x.title",
      });
    });

    it("is not checked where the update does not reach", () => {
      const untitled = fromJson(Book, { tags: ["x"] });
      expect(toJson(Book, patch(Book, untitled, { tags: ["y"] }))).toEqual({ tags: ["y"] });
    });
  });

  it("reads the option packed or not, as protoc and protobuf-es leave it in the options' unknown fields", () => {
    const u = Book.fields.find((f) => f.name === "create_time")!.proto.options!.$unknown!.find((x) => x.no === 1052)!;
    expect(u.wireType).toBe(WireType.Varint); // [packed = false], as googleapis declares it
    // A field whose options hold field_behavior packed: OUTPUT_ONLY (3) and IMMUTABLE (5) in one record.
    const packed = new BinaryWriter().tag(1052, WireType.LengthDelimited).fork().int32(3).int32(5).join().finish();
    const file = create(FileDescriptorProtoSchema, {
      name: "packed.proto",
      package: "packed",
      syntax: "proto3",
      messageType: [
        {
          name: "M",
          field: [
            {
              name: "x",
              number: 1,
              type: FieldDescriptorProto_Type.STRING,
              label: FieldDescriptorProto_Label.OPTIONAL,
              jsonName: "x",
              options: fromBinary(FieldOptionsSchema, packed),
            },
            {
              name: "y",
              number: 2,
              type: FieldDescriptorProto_Type.STRING,
              label: FieldDescriptorProto_Label.OPTIONAL,
              jsonName: "y",
            },
          ],
        },
      ],
    });
    // Through the binary form, as a descriptor set arrives.
    const set = fromBinary(
      FileDescriptorSetSchema,
      toBinary(FileDescriptorSetSchema, create(FileDescriptorSetSchema, { file: [file] })),
    );
    const M = createFileRegistry(set).getMessage("packed.M")!;
    const m = fromJson(M, { x: "kept", y: "old" });
    expect(toJson(M, patch(M, m, { x: "forged", y: "new" }))).toEqual({ x: "kept", y: "new" });
    expect(catchWkt(() => patch(M, m, { x: "forged" }, { strict: true }))).toMatchObject({
      rule: "field-behavior",
      jsonPath: "$.x",
    });
  });
});

describe("field behaviour given as path lists", () => {
  const M = TestAllTypesProto3;
  const base = fromJson(M, {
    optionalInt32: 1,
    optionalString: "s",
    optionalNestedMessage: { a: 2 },
    repeatedInt32: [1],
  });

  it("outputOnly, immutable and required paths act as the options do", () => {
    const o: PatchOptions = {
      outputOnly: ["optional_int32"],
      immutable: ["optional_nested_message.a"],
      required: ["optional_string"],
    };
    expect(toJson(M, patch(M, base, { optionalInt32: 9, repeatedInt32: [2] }, o))).toEqual({
      optionalInt32: 1,
      optionalString: "s",
      optionalNestedMessage: { a: 2 },
      repeatedInt32: [2],
    });
    expect(catchWkt(() => patch(M, base, { optionalNestedMessage: { a: 3 } }, o))).toMatchObject({
      rule: "field-behavior",
      jsonPath: "$.optionalNestedMessage.a",
    });
    expect(catchWkt(() => patch(M, base, { optionalString: "" }, o))).toMatchObject({
      rule: "field-behavior",
      jsonPath: "$.optionalString",
    });
    expect(catchWkt(() => patch(M, base, { optionalInt32: 9 }, { ...o, strict: true }))).toMatchObject({
      rule: "field-behavior",
      jsonPath: "$.optionalInt32",
    });
  });

  it("a path list names fields of the schema", () => {
    expect(catchWkt(() => patch(M, base, {}, { outputOnly: ["no_such_field"] }))).toMatchObject({ rule: "mask-path" });
    expect(catchWkt(() => patch(M, base, {}, { required: ["repeated_nested_message.a"] }))).toMatchObject({
      rule: "mask-path",
    });
  });
});

describe("options", () => {
  it.each<[PatchOptions, string]>([
    [{ updateMask: "a_b" }, "mask-path"],
    [{ updateMask: "noSuchField" }, "mask-path"],
    [{ updateMask: ["tags.x"] }, "mask-path"],
    [{ impliedMask: "all" as never }, "range"],
    [{ strict: "yes" as never }, "range"],
    [{ maxDepth: -1 }, "range"],
  ])("%j: rule %s", (options, rule) => {
    expect(catchWkt(() => apply({ title: "T" }, options))).toMatchObject({ rule });
  });

  it("a mask from the query string names its errors at $.updateMask", () => {
    expect(catchWkt(() => apply({}, { updateMask: "title,,tags" }))).toMatchObject({ jsonPath: "$.updateMask" });
  });

  it("stored must be a message of the schema", () => {
    expect(catchWkt(() => patch(Book, create(TestAllTypesProto3) as never, {}))).toMatchObject({ rule: "json-type" });
  });

  it("path: the body's errors under it, the mask's at maskPath, the options' at $", () => {
    const at = { path: "$.book" };
    const placed = (f: () => unknown) => {
      const e = catchWkt(f);
      return [e.rule, e.jsonPath, e.path];
    };
    for (const call of [
      (body: JsonValue, o: PatchOptions) => patch(Book, stored, body, o),
      (body: JsonValue, o: PatchOptions) => jsonPatch(Book, storedJson, body, o),
    ]) {
      expect(placed(() => call({ titel: "x" }, at))).toEqual(["unknown-field", "$.book.titel", ["book", "titel"]]);
      expect(placed(() => call({ tags: "x" }, at))).toEqual(["json-type", "$.book.tags", ["book", "tags"]]);
      expect(placed(() => call(5, at))).toEqual(["json-type", "$.book", ["book"]]);
      expect(placed(() => call({ isbn: "x" }, at))).toEqual(["field-behavior", "$.book.isbn", ["book", "isbn"]]);
      expect(placed(() => call({ title: "" }, { ...at, required: ["title"] }))).toEqual([
        "field-behavior",
        "$.book.title",
        ["book", "title"],
      ]);
      expect(placed(() => call({ createTime: "2030-01-01T00:00:00Z" }, { ...at, strict: true }))).toEqual([
        "field-behavior",
        "$.book.createTime",
        ["book", "createTime"],
      ]);
      // The mask's errors: at $.updateMask (or maskPath), not under the body's path.
      expect(placed(() => call({}, { ...at, updateMask: "titel" }))).toEqual([
        "mask-path",
        "$.updateMask",
        ["updateMask"],
      ]);
      expect(placed(() => call({}, { ...at, updateMask: ["titel"], maskPath: "$.mask" }))).toEqual([
        "mask-path",
        "$.mask",
        ["mask"],
      ]);
      expect(placed(() => call({}, { ...at, updateMask: ["create_time"], strict: true }))).toEqual([
        "field-behavior",
        "$.updateMask",
        ["updateMask"],
      ]);
      // The options' errors at $; without the option, the body's root.
      expect(placed(() => call({}, { ...at, maxDepth: -1 }))).toEqual(["range", "$", []]);
      expect(placed(() => call({}, { path: "book" }))).toEqual(["range", "$", []]);
      expect(placed(() => call({ titel: "x" }, {}))).toEqual(["unknown-field", "$.titel", ["titel"]]);
    }
    // A stored JSON resource's errors keep their own paths: it is not in the body.
    expect(placed(() => jsonPatch(Book, { titel: 1 }, {}, at))).toEqual(["unknown-field", "$.titel", ["titel"]]);
  });

  it("an extension member cannot be in the implied mask", () => {
    const body = { "[protobuf_test_messages.proto2.extension_int32]": 1 };
    expect(
      catchWkt(() => patch(TestAllTypesProto2, create(TestAllTypesProto2), body, { registry: testRegistry })),
    ).toMatchObject({ rule: "mask-path", jsonPath: '$["[protobuf_test_messages.proto2.extension_int32]"]' });
  });
});

describe("jsonPatch: resources kept as proto3 JSON", () => {
  it("updates the stored JSON and writes canonical JSON", () => {
    const out = jsonPatch(Book, storedJson, {
      tags: ["x"],
      author: { givenName: "U." },
      createTime: "2000-01-01T00:00:00Z",
    });
    expect(changes(out)).toEqual({ tags: ["x"], author: { id: "a-7", givenName: "U.", familyName: "Le Guin" } });
    expect(jsonPatch(Book, { title: "t", isbn: "1" }, { title: "u" }, { useProtoFieldName: true })).toEqual({
      title: "u",
      isbn: "1",
    });
    expect(jsonPatch(Book, { publish_time: "1974-05-01T00:00:00+01:00", title: "t" }, {})).toEqual({
      publishTime: "1974-04-30T23:00:00Z",
      title: "t",
    });
  });

  it("refuses what jsonMerge would store: a misspelt field, a list replaced by a string", () => {
    expect(catchWkt(() => jsonPatch(Book, storedJson, { titel: "x" }))).toMatchObject({
      rule: "unknown-field",
      jsonPath: "$.titel",
    });
    expect(catchWkt(() => jsonPatch(Book, storedJson, { tags: "x" }))).toMatchObject({
      rule: "json-type",
      jsonPath: "$.tags",
    });
  });

  it("an error in the stored JSON says so", () => {
    const e = catchWkt(() => jsonPatch(Book, { title: 1 }, {}));
    expect(e).toMatchObject({ rule: "json-type", jsonPath: "$.title" });
    expect(e.detail.startsWith("the stored resource")).toBe(true);
  });
});

describe("laws, on random messages of the conformance types", () => {
  const types = [TestAllTypesProto3, TestAllTypesProto2, TestAllTypesEdition2023];
  const registry = testRegistry;

  it.each(types)("%s: sending the stored resource back changes nothing, with the implied mask and with *", (schema) => {
    fc.assert(
      fc.property(arbMessage(schema, { maxDepth: 3 }), (stored) => {
        const json = toJson(schema, stored as never, { registry });
        for (const updateMask of [undefined, "*"]) {
          expect(toJson(schema, patch(schema, stored as never, json, { registry, updateMask }), { registry })).toEqual(
            json,
          );
        }
      }),
      { numRuns: 200 },
    );
  });

  it.each(types)("%s: with an update mask, patch is fieldMaskMerge of the decoded body, replacing", (schema) => {
    const names = schema.fields.map((f) => f.name);
    fc.assert(
      fc.property(
        arbMessage(schema, { maxDepth: 3 }),
        arbMessage(schema, { maxDepth: 3 }),
        fc.subarray(names, { maxLength: 8 }),
        (a, b, mask) => {
          const body = toJson(schema, b as never, { registry });
          const expected = fieldMaskMerge(schema, a as never, fromJson(schema, body, { registry }), mask, {
            replaceMessageFields: true,
            replaceRepeatedFields: true,
          });
          const actual = patch(schema, a as never, body, { registry, updateMask: mask });
          expect(toJson(schema, actual, { registry })).toEqual(toJson(schema, expected, { registry }));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("hostile bodies", () => {
  it("any JSON body gives a message or a WktJsonError, nothing else, and never touches the stored message", () => {
    const M = TestAllTypesProto3;
    const base = fromJson(M, { optionalInt32: 1, repeatedString: ["a"], mapStringString: { k: "v" } });
    const bytes = toBinary(M, base);
    const member = fc.constantFrom(
      "optionalInt32",
      "optional_int32",
      "repeatedString",
      "mapStringString",
      "optionalNestedMessage",
      "oneofString",
      "oneofUint32",
      "__proto__",
      "optionalStruct",
      "optionalTimestamp",
      "x",
    );
    const body = fc.dictionary(member, fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constant(null)), { maxKeys: 4 });
    fc.assert(
      fc.property(
        body,
        fc.constantFrom<PatchOptions>(
          {},
          { impliedMask: "fields" },
          { updateMask: "*" },
          { outputOnly: ["optional_int32"], strict: true },
        ),
        (b, options) => {
          try {
            const r = patch(M, base, b as JsonValue, options);
            expect(r.$typeName).toBe(M.typeName);
          } catch (e) {
            expect(isWktJsonError(e)).toBe(true);
          }
          expect(toBinary(M, base)).toEqual(bytes);
        },
      ),
      { numRuns: 500 },
    );
    expect(({} as Record<string, unknown>).optionalInt32).toBeUndefined();
  });
});

describe("depth: the call's limit, and where the stored resource nests too deep", () => {
  // A stored resource `depth` messages deep through recursive_message, note at the bottom.
  const deep = (depth: number) => {
    let json: JsonObject = { optionalString: "bottom" };
    for (let i = 1; i < depth; i++) json = { recursiveMessage: json };
    return fromJson(TestAllTypesProto3, json, { registry: testRegistry, maxDepth: 1000 });
  };
  const stored = deep(150);
  const opts = { registry: testRegistry };
  const deepPath = "$" + ".recursiveMessage".repeat(100);

  it("maxDepth (or recursionLimit) of the call bounds the copy of the stored resource, not the default 100", () => {
    const j = (m: unknown) => toJson(TestAllTypesProto3, m as never, { registry: testRegistry, maxDepth: 300 });
    const want = { ...(j(stored) as JsonObject), optionalInt32: 7 };
    expect(j(patch(TestAllTypesProto3, stored, { optionalInt32: 7 }, { ...opts, maxDepth: 300 }))).toEqual(want);
    expect(j(patch(TestAllTypesProto3, stored, {}, { ...opts, recursionLimit: 300 }))).toEqual(j(stored));
  });

  it("a depth error names the stored resource's message past the limit, not $", () => {
    const e = catchWkt(() => patch(TestAllTypesProto3, stored, {}, opts));
    expect(e.rule).toBe("depth");
    expect(e.jsonPath).toBe(deepPath);
    expect(e.typeName).toBe(TestAllTypesProto3.typeName);
    expect(e.detail).toMatch(/^the stored resource: messages nest deeper than 100 levels/);
    const e2 = catchWkt(() => patch(TestAllTypesProto3, stored, {}, { ...opts, maxDepth: 120 }));
    expect(e2.jsonPath).toBe("$" + ".recursiveMessage".repeat(120));
    expect(e2.detail).toMatch(/deeper than 120 levels/);
  });

  it("the path goes through list elements and map entries as JSON names them", () => {
    const s = create(TestAllTypesProto3, {
      repeatedNestedMessage: [{}, { corecursive: deep(150) }],
    });
    const e = catchWkt(() => patch(TestAllTypesProto3, s, {}, opts));
    expect(e.jsonPath).toBe("$.repeatedNestedMessage[1].corecursive" + ".recursiveMessage".repeat(98));
    const m = create(TestAllTypesProto3, { mapStringNestedMessage: { "a b": { corecursive: deep(150) } } });
    expect(catchWkt(() => patch(TestAllTypesProto3, m, {}, opts)).jsonPath).toBe(
      '$.mapStringNestedMessage["a b"].corecursive' + ".recursiveMessage".repeat(98),
    );
  });

  it("fieldMaskMerge keeps the default limit; its error names the target's path", () => {
    const e = catchWkt(() =>
      fieldMaskMerge(TestAllTypesProto3, stored, create(TestAllTypesProto3), ["optional_int32"]),
    );
    expect(e.rule).toBe("depth");
    expect(e.jsonPath).toBe(deepPath);
    expect(e.detail).toMatch(/^the target: /);
    const s = catchWkt(() => fieldMaskMerge(TestAllTypesProto3, create(TestAllTypesProto3), stored, ["*"]));
    expect([s.jsonPath, s.detail.slice(0, 11)]).toEqual([deepPath, "the source:"]);
    // Merged into the target below a masked field: the source's path too.
    const t = catchWkt(() =>
      fieldMaskMerge(TestAllTypesProto3, create(TestAllTypesProto3), stored, ["recursive_message"]),
    );
    expect([t.rule, t.jsonPath, t.detail.slice(0, 11)]).toEqual(["depth", deepPath, "the source:"]);
  });
});

describe("depth: the field-behaviour walk takes the call's limit too", () => {
  const registry = compileProto(new URL("./patch", import.meta.url).pathname, "aip203.proto");
  const Tree = registry.getMessage("acme.aip203.v1.Tree")!;
  // 150 levels of Tree, each with its OUTPUT_ONLY id: `*` with a small body keeps every stored id (AIP-161).
  let json: JsonObject = { id: "150" };
  for (let i = 149; i >= 1; i--) json = { id: String(i), child: json };
  const stored = fromJson(Tree, json, { maxDepth: 1000 });

  it("with maxDepth 300 the stored output-only ids are kept all the way down", () => {
    const out = patch(Tree, stored, { label: "x" }, { updateMask: "*", maxDepth: 300 });
    expect(toJson(Tree, out, { maxDepth: 300 })).toEqual({ ...json, label: "x" });
  });

  it("with the default limit, a depth error at the path the walk reached, not $", () => {
    const e = catchWkt(() => patch(Tree, stored, { label: "x" }, { updateMask: "*" }));
    expect(e.rule).toBe("depth");
    expect(e.jsonPath).toBe("$" + ".child".repeat(100));
    expect(e.detail).toMatch(/^the updated resource: /);
  });
});
