// createFromJson: create requests (AIP-133) with AIP-203 field behaviour for creation, on acme.shelf.v1.Book
// (test/patch/shelf.proto, whose fields carry google.api.field_behavior options) and on the conformance suite's
// TestAllTypesProto3 (none).

import { type JsonObject, type JsonValue } from "@bufbuild/protobuf";
import { TimestampSchema } from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createFromJson,
  createFromJsonString,
  fromJson,
  isWktJsonError,
  toJson,
  toJsonString,
  type CreateOptions,
} from "../src/index.js";
import { arbMessage } from "./arbitrary.js";
import { TestAllTypesProto3, testRegistry } from "./conformance-registry.js";
import { catchWkt } from "./helpers.js";
import { Book, UpdateBookRequest } from "./patch/registry.js";

/** createFromJson on a Book, as canonical JSON; the body is never changed. */
function created(body: JsonObject, options?: CreateOptions): JsonObject {
  const before = JSON.stringify(body);
  const out = toJson(Book, createFromJson(Book, body, options)) as JsonObject;
  expect(JSON.stringify(body)).toBe(before);
  return out;
}

/** The rule and path of the error createFromJson throws. */
function refused(body: JsonValue, options?: CreateOptions, schema = Book): { rule: string; jsonPath: string } {
  const e = catchWkt(() => createFromJson(schema, body, options));
  return { rule: e.rule, jsonPath: e.jsonPath };
}

const fb = (path: string) => ({ rule: "field-behavior", jsonPath: path });

describe('AIP-133: "The request message must include a field for the resource"', () => {
  it("decodes the body into the new resource", () => {
    const body = {
      title: "The Dispossessed",
      author: { givenName: "Ursula", familyName: "Le Guin" },
      tags: ["sf"],
      publishTime: "1974-05-01T00:00:00Z",
      labels: { lang: "en" },
      isbn: "978-0-06-051275-9",
      chapters: [{ title: "One", pages: 20 }],
      appendices: { map: { title: "Map of Anarres" } },
      metadata: { source: "import" },
      rating: 5,
      printing: { copies: 1000, press: "Harper" },
    };
    expect(created(body)).toEqual(body);
  });

  it("reports the body's errors with the body's paths (the decoder's rules)", () => {
    expect(refused({ title: 1 })).toEqual({ rule: "json-type", jsonPath: "$.title" });
    expect(refused({ title: "x", chapters: [{ titel: "x" }] })).toEqual({
      rule: "unknown-field",
      jsonPath: "$.chapters[0].titel",
    });
    expect(refused({ title: "x", publishTime: "1974-02-30T00:00:00Z" })).toMatchObject({ jsonPath: "$.publishTime" });
    expect(refused([])).toEqual({ rule: "json-type", jsonPath: "$" });
  });

  it("is the decoder for a type without field behaviour, and for a well-known type", () => {
    const json = { optionalInt32: 1, repeatedNestedMessage: [{ a: 2 }], mapStringString: { a: "b" } };
    expect(createFromJson(TestAllTypesProto3, json)).toEqual(fromJson(TestAllTypesProto3, json));
    expect(createFromJson(TimestampSchema, "2024-01-01T00:00:00Z").seconds).toBe(1704067200n);
  });
});

describe("AIP-203 OUTPUT_ONLY on create", () => {
  // "the server must clear out any value in this field and must not throw an error as a result of the presence
  // of a value"
  it("drops the output-only members the client sent, at every depth", () => {
    const out = created({
      title: "T",
      createTime: "2024-01-01T00:00:00Z",
      update_time: "2024-01-01T00:00:00Z",
      stats: { reads: "10" },
      etag: "e",
      author: { id: "a-1", givenName: "U" },
      chapters: [{ id: "c1", title: "One" }, { title: "Two" }],
      appendices: { map: { id: "x1", title: "Map" } },
    });
    expect(out).toEqual({
      title: "T",
      author: { givenName: "U" },
      chapters: [{ title: "One" }, { title: "Two" }],
      appendices: { map: { title: "Map" } },
    });
  });

  it("with strict: true refuses each, at its path as the client wrote it", () => {
    const strict = { strict: true };
    expect(refused({ title: "T", createTime: "2024-01-01T00:00:00Z" }, strict)).toEqual(fb("$.createTime"));
    expect(refused({ title: "T", create_time: "2024-01-01T00:00:00Z" }, strict)).toEqual(fb("$.create_time"));
    expect(refused({ title: "T", author: { givenName: "U", id: "a" } }, strict)).toEqual(fb("$.author.id"));
    expect(refused({ title: "T", chapters: [{ title: "1" }, { title: "2", id: "c" }] }, strict)).toEqual(
      fb("$.chapters[1].id"),
    );
    expect(refused({ title: "T", appendices: { "a b": { title: "1", id: "c" } } }, strict)).toEqual(
      fb('$.appendices["a b"].id'),
    );
    expect(created({ title: "T", author: { givenName: "U" } }, strict)).toEqual({
      title: "T",
      author: { givenName: "U" },
    });
  });

  it("takes output-only paths from the outputOnly list, through singular message fields", () => {
    expect(
      created(
        { title: "T", isbn: "1", author: { givenName: "U", familyName: "K" } },
        {
          outputOnly: ["isbn", "author.family_name"],
        },
      ),
    ).toEqual({ title: "T", author: { givenName: "U" } });
    expect(refused({ title: "T", isbn: "1" }, { outputOnly: ["isbn"], strict: true })).toEqual(fb("$.isbn"));
  });

  it("drops an output-only member before its value is judged required or not", () => {
    // Chapter.id is output-only: a chapter of only an id is an empty chapter, whose REQUIRED title is missing.
    expect(refused({ title: "T", chapters: [{ id: "c1" }] })).toEqual(fb("$.chapters[0].title"));
  });
});

describe("AIP-203 REQUIRED on create", () => {
  // "the field must be present (and set to a non-empty value) on the request"
  it("refuses a body without a required field, at the JSON path the client would use", () => {
    expect(refused({})).toEqual(fb("$.title"));
    expect(refused({ tags: ["sf"] })).toEqual(fb("$.title"));
    expect(refused({ title: "" })).toEqual(fb("$.title"));
    expect(refused({ title: null })).toEqual(fb("$.title"));
  });

  it("checks every message the body sets: singular fields, list elements, map values", () => {
    expect(refused({ title: "T", author: {} })).toEqual(fb("$.author.givenName"));
    expect(refused({ title: "T", author: { givenName: "" } })).toEqual(fb("$.author.givenName"));
    expect(refused({ title: "T", author: { family_name: "K" } })).toEqual(fb("$.author.givenName"));
    expect(refused({ title: "T", author: { given_name: "" } })).toEqual(fb("$.author.given_name"));
    expect(refused({ title: "T", chapters: [{ title: "1" }, { pages: 2 }] })).toEqual(fb("$.chapters[1].title"));
    expect(refused({ title: "T", appendices: { map: { title: "M" }, idx: {} } })).toEqual(fb("$.appendices.idx.title"));
    // A message the body does not set is not looked into (AIP-203: nested and parent behaviour are independent).
    expect(created({ title: "T" })).toEqual({ title: "T" });
  });

  it('counts a required message as present only when "it has at least one field that is not at its default"', () => {
    expect(refused({}, undefined, UpdateBookRequest)).toEqual(fb("$.book"));
    expect(refused({ book: {} }, undefined, UpdateBookRequest)).toEqual(fb("$.book"));
    expect(refused({ book: { title: "" } }, undefined, UpdateBookRequest)).toEqual(fb("$.book"));
    expect(refused({ book: { tags: ["a"] } }, undefined, UpdateBookRequest)).toEqual(fb("$.book.title"));
    expect(createFromJson(UpdateBookRequest, { book: { title: "T" } })).toBeDefined();
  });

  it("takes required paths from the required list; a well-known type counts when it is set", () => {
    expect(refused({ title: "T" }, { required: ["publish_time"] })).toEqual(fb("$.publishTime"));
    expect(refused({ title: "T", publish_time: null }, { required: ["publish_time"] })).toEqual(fb("$.publish_time"));
    expect(created({ title: "T", publishTime: "1970-01-01T00:00:00Z" }, { required: ["publish_time"] })).toEqual({
      title: "T",
      publishTime: "1970-01-01T00:00:00Z",
    });
    expect(refused({ title: "T", author: { givenName: "U" } }, { required: ["author.family_name"] })).toEqual(
      fb("$.author.familyName"),
    );
  });

  it("does not require an output-only field that is also required", () => {
    expect(created({ title: "T" }, { required: ["create_time"], outputOnly: [] })).toEqual({ title: "T" });
  });
});

describe("AIP-203 IMMUTABLE and IDENTIFIER on create", () => {
  // IMMUTABLE: "the field may be set once in a request to create a resource, but may not be changed thereafter"
  it("accepts immutable fields, at every depth", () => {
    expect(created({ title: "T", isbn: "1", printing: { press: "Harper" } })).toEqual({
      title: "T",
      isbn: "1",
      printing: { press: "Harper" },
    });
  });

  it("drops the IDENTIFIER name, which AIP-203 reads as OUTPUT_ONLY on create; strict refuses it", () => {
    // AIP-203: "The IDENTIFIER value conveys that the field is not accepted as input (i.e. OUTPUT_ONLY) in the
    // context of a create method"; field_behavior.proto: "for Create methods name is optional and unused".
    expect(created({ name: "shelves/1/books/1", title: "T" })).toEqual({ title: "T" });
    expect(refused({ name: "shelves/1/books/1", title: "T" }, { strict: true })).toEqual(fb("$.name"));
    // Not by the path lists' IMMUTABLE, which a create request may set.
    expect(created({ title: "T", isbn: "1" }, { immutable: ["title"] })).toEqual({ title: "T", isbn: "1" });
  });
});

describe("options and limits", () => {
  it("refuses bad options with rule range, as patch does", () => {
    expect(refused({ title: "T" }, { strict: "yes" } as never)).toMatchObject({ rule: "range", jsonPath: "$" });
    expect(refused({ title: "T" }, { required: ["nope"] })).toMatchObject({ jsonPath: "$" });
    expect(refused({ title: "T" }, 5 as never)).toMatchObject({ rule: "range", jsonPath: "$" });
  });

  it("takes the base path of the body: every error under it, the options' at $", () => {
    const at = { path: "$.Definition" };
    expect(refused({ titel: 1 }, at)).toEqual({ rule: "unknown-field", jsonPath: "$.Definition.titel" });
    expect(refused({ tags: ["sf"] }, { ...at, required: ["title"] })).toEqual(fb("$.Definition.title"));
    expect(refused({ title: "T", author: {} }, at)).toEqual(fb("$.Definition.author.givenName"));
    expect(refused({ title: "T", name: "x" }, { ...at, strict: true })).toEqual(fb("$.Definition.name"));
    expect(catchWkt(() => createFromJson(Book, { title: "" }, at)).path).toEqual(["Definition", "title"]);
    expect(refused({ title: "T" }, { ...at, strict: "yes" } as never)).toEqual({ rule: "range", jsonPath: "$" });
    expect(refused({ title: "T" }, { path: "Definition" })).toEqual({ rule: "range", jsonPath: "$" });
    // The text entry point alike, line and column kept.
    const e = catchWkt(() => createFromJsonString(Book, '{\n  "tags": []\n}', { ...at, required: ["title"] }));
    expect([e.jsonPath, e.path, e.line, e.column]).toEqual(["$.Definition.title", ["Definition", "title"], 1, 1]);
    const d = catchWkt(() => createFromJsonString(Book, '{"title": 1}', at));
    expect([d.rule, d.jsonPath, d.line, d.column]).toEqual(["json-type", "$.Definition.title", 1, 11]);
    expect(refused({ titel: 1 })).toEqual({ rule: "unknown-field", jsonPath: "$.titel" });
  });

  it("ignores the update mask's options, which a create request has none of", () => {
    const o = { updateMask: "nope", aip161: "x", immutableSetOnce: 1 } as never;
    expect(created({ title: "T" }, o)).toEqual({ title: "T" });
  });

  it("keeps the decoder's depth limit", () => {
    let body: JsonObject = { optionalInt32: 1 };
    for (let i = 0; i < 200; i++) body = { recursiveMessage: body };
    const e = catchWkt(() => createFromJson(TestAllTypesProto3, body));
    expect(e.rule).toBe("depth");
    // 100 messages deep: what the decoder takes by default, the walks take too.
    body = { optionalInt32: 1 };
    for (let i = 0; i < 99; i++) body = { recursiveMessage: body };
    expect(createFromJson(TestAllTypesProto3, body)).toEqual(fromJson(TestAllTypesProto3, body));
  });

  it("walks a large body within the work meter", () => {
    const chapters = Array.from({ length: 20_000 }, (_, i) => ({ id: `c${i}`, title: `Chapter ${i}` }));
    const book = createFromJson(Book, { title: "T", chapters }) as unknown as { chapters: { id: string }[] };
    expect(book.chapters.length).toBe(20_000);
    expect(book.chapters.every((c) => c.id === "")).toBe(true);
    const missing = [...chapters.map(({ title }) => ({ title })), { pages: 1 }];
    expect(refused({ title: "T", chapters: missing })).toEqual(fb("$.chapters[20000].title"));
  });
});

describe("laws", () => {
  it("without field behaviour, a create request is what fromJson reads (and the text what fromJsonString reads)", () => {
    const M = TestAllTypesProto3;
    fc.assert(
      fc.property(arbMessage(M, { maxDepth: 3 }), (m) => {
        const o = { registry: testRegistry };
        const json = toJson(M, m as never, o);
        const expected = toJson(M, fromJson(M, json, o), o);
        expect(toJson(M, createFromJson(M, json, o), o)).toEqual(expected);
        expect(toJson(M, createFromJsonString(M, toJsonString(M, m as never, o), o), o)).toEqual(expected);
      }),
      { numRuns: 150 },
    );
  });

  it("a Book: no output-only member is left, the result is a valid create body again, text and value agree", () => {
    const outputOnly = (json: JsonObject): string[] => {
      const found = ["createTime", "updateTime", "stats", "etag"].filter((k) => k in json);
      if (typeof json.author === "object" && json.author !== null && "id" in json.author) found.push("author.id");
      for (const c of (json.chapters ?? []) as JsonObject[]) if ("id" in c) found.push("chapters.id");
      for (const c of Object.values((json.appendices ?? {}) as JsonObject))
        if ("id" in (c as JsonObject)) found.push("appendices.id");
      return found;
    };
    fc.assert(
      fc.property(arbMessage(Book, { maxDepth: 3 }), (m) => {
        const json = toJson(Book, m as never) as JsonObject;
        let out: JsonObject;
        try {
          out = toJson(Book, createFromJson(Book, json)) as JsonObject;
        } catch (e) {
          if (!isWktJsonError(e)) throw e;
          expect(e.rule).toBe("field-behavior");
          const t = catchWkt(() => createFromJsonString(Book, JSON.stringify(json)));
          expect([t.rule, t.jsonPath]).toEqual([e.rule, e.jsonPath]);
          return;
        }
        expect(outputOnly(out)).toEqual([]);
        expect(toJson(Book, createFromJson(Book, out))).toEqual(out);
        // As text: JSON.stringify writes a Struct's -0 as 0, so the texts are compared.
        expect(JSON.stringify(toJson(Book, createFromJsonString(Book, JSON.stringify(json))))).toBe(
          JSON.stringify(out),
        );
      }),
      { numRuns: 200 },
    );
  });
});
