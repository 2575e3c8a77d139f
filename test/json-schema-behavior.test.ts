// jsonSchema and AIP-203 field behaviour (issue 26): "`jsonSchema` of such an input [a create request, AIP-133]
// marks REQUIRED fields `required` and output-only ones `readOnly` (OpenAPI reads both)." Checked with ajv
// (draft 2020-12 and draft-07) on shelf.proto's Book (test/patch/shelf.proto).

import { fileURLToPath } from "node:url";
import type { DescMessage, JsonObject, JsonValue } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { createFromJson, fromJson, jsonSchema, standardSchema, type JsonSchemaOptions } from "../src/index.js";
import { catchWkt } from "./helpers.js";
import { ajv2020, schemaValidator, type Validate } from "./fixtures/ajv.js";
import { Author, Book, compileProto, shelfRegistry } from "./patch/registry.js";

const validator = (schema: DescMessage, options: JsonSchemaOptions): Validate =>
  schemaValidator(schema, { ...options, registry: shelfRegistry });

const entry = (doc: JsonObject, name: string): JsonObject =>
  ((doc.$defs ?? doc.definitions) as Record<string, JsonObject>)[name]!;
const prop = (def: JsonObject, name: string): JsonObject => (def.properties as Record<string, JsonObject>)[name]!;

describe("create: REQUIRED fields are required (AIP-133, AIP-203)", () => {
  // AIP-203: "The use of REQUIRED indicates that the field must be present (and set to a non-empty value) on the
  // request". Book.title and Author.given_name are REQUIRED.
  const author = { givenName: "Ursula", familyName: "Le Guin" };
  const cases: [string, JsonValue, boolean][] = [
    ["a body with its required field", { title: "The Dispossessed" }, true],
    ["a body without its required field", { isbn: "978-0060512750" }, false],
    ["the required field as null (its default value)", { title: null }, false],
    // "set to a non-empty value": "" is the default of a string field of implicit presence.
    ["the required string empty", { title: "" }, false],
    ["a nested message with its required field (JSON name)", { title: "T", author }, true],
    ["a nested message with its required field (proto name)", { title: "T", author: { given_name: "U" } }, true],
    ["a nested message without its required field", { title: "T", author: { familyName: "Le Guin" } }, false],
    ["a nested required field as null", { title: "T", author: { givenName: null } }, false],
    ["a list element without its required field", { title: "T", chapters: [{ title: "1" }, { pages: 3 }] }, false],
    ["a map value without its required field", { title: "T", appendices: { a: { pages: 3 } } }, false],
    // OUTPUT_ONLY members are ignored in a create request (the create path drops them): valid, marked readOnly.
    ["an output-only member", { title: "T", createTime: "2024-01-01T00:00:00Z" }, true],
  ];
  for (const target of ["draft-2020-12", "draft-07"] as const) {
    it.each(cases)(`${target}: %s is valid: %s`, (_, json, ok) => {
      expect(validator(Book, { create: true, target })(json)).toBe(ok);
    });
  }

  it("a plain input schema (a PATCH body may leave required fields out) requires nothing", () => {
    const v = validator(Book, { io: "input" });
    for (const [, json] of cases) expect(v(json)).toBe(true);
  });

  it("a field with two names is required as one of them", () => {
    const def = entry(jsonSchema(Author, { create: true }), "acme.shelf.v1.Author");
    expect(def.required).toBeUndefined();
    expect(def.anyOf).toEqual([
      { required: ["givenName"], properties: { givenName: {} } },
      { required: ["given_name"], properties: { given_name: {} } },
    ]);
    // Not null, under either name.
    expect(prop(def, "givenName")).toEqual({ type: "string", minLength: 1 });
    expect(prop(def, "given_name")).toEqual({ type: "string", minLength: 1 });
    expect(entry(jsonSchema(Book, { create: true }), "acme.shelf.v1.Book").required).toEqual(["title"]);
  });

  it("the decoder has no notion of field behaviour: it reads a body without its required field", () => {
    // The decoder itself has no notion of field behaviour: it reads the body; the create path and the schema
    // apply AIP-203.
    expect(() => fromJson(Book, { isbn: "1" }, { registry: shelfRegistry })).not.toThrow();
  });

  it("create implies io input, and refuses io output; the option must be a boolean", () => {
    expect(jsonSchema(Book, { create: true })).toEqual(jsonSchema(Book, { create: true, io: "input" }));
    expect(catchWkt(() => jsonSchema(Book, { create: true, io: "output" }))).toMatchObject({ rule: "range" });
    expect(catchWkt(() => jsonSchema(Book, { create: "yes" as never }))).toMatchObject({ rule: "range" });
    expect(jsonSchema(Book, { create: false })).toEqual(jsonSchema(Book));
  });

  it("nameSuffix puts a create schema beside the plain input schema in one document", () => {
    const refPrefix = "#/components/schemas/";
    const input = jsonSchema(Book, { io: "input", refPrefix, nameSuffix: "Input" });
    const create = jsonSchema(Book, { create: true, refPrefix, nameSuffix: "Create" });
    expect(create.$ref).toBe("#/components/schemas/acme.shelf.v1.BookCreate");
    const schemas = { ...(input.$defs as JsonObject), ...(create.$defs as JsonObject) };
    expect(Object.keys(schemas)).toHaveLength(2 * Object.keys(input.$defs as JsonObject).length);
    expect((schemas["acme.shelf.v1.BookCreate"] as JsonObject).required).toEqual(["title"]);
    expect((schemas["acme.shelf.v1.BookInput"] as JsonObject).required).toBeUndefined();
  });
});

describe("create: a REQUIRED field is given a non-empty value where JSON Schema can say so", () => {
  // AIP-203: REQUIRED "must be present (and set to a non-empty value)".
  const registry = compileProto(fileURLToPath(new URL(".", import.meta.url)), "json-schema-behavior.proto");
  const Order = registry.getMessage("acme.behavior.v1.Order")!;
  const v = ajv2020.compile(jsonSchema(Order, { create: true })) as Validate;
  const full = {
    items: ["a"],
    counts: { a: 1 },
    payload: "AQID",
    note: "",
    quantity: 2,
    due: "2024-01-01T00:00:00Z",
  };
  it.each<[string, JsonObject, boolean]>([
    ['every field non-empty (an explicit-presence string set to "" is set)', {}, true],
    ["an empty list", { items: [] }, false],
    ["an empty map", { counts: {} }, false],
    ["empty bytes", { payload: "" }, false],
    ["a Timestamp as null", { due: null }, false],
    // Not stated by the schema (the create path refuses it): a number at its default.
    ["a number at its default", { quantity: 0 }, true],
  ])("%s: valid %s", (_, change, ok) => {
    expect(v({ ...full, ...change })).toBe(ok);
  });
  it("each one missing is refused", () => {
    for (const k of Object.keys(full)) {
      const body: Record<string, unknown> = { ...full };
      delete body[k];
      expect(v(body)).toBe(false);
    }
  });
});

describe("OUTPUT_ONLY fields are readOnly in every schema", () => {
  // AIP-203: OUTPUT_ONLY "indicates that the field is provided in responses, but that including the field in a
  // message in a request does nothing". OpenAPI: "readOnly ... SHOULD NOT be sent as part of the request".
  it.each<[string, JsonSchemaOptions]>([
    ["output", {}],
    ["input", { io: "input" }],
    ["create", { create: true }],
    ["output, draft-07", { target: "draft-07" }],
  ])("%s", (_, options) => {
    const doc = jsonSchema(Book, options);
    const book = entry(doc, "acme.shelf.v1.Book");
    const draft07 = options.target === "draft-07";
    // createTime is a Timestamp: a $ref, whose siblings draft-07 ignores.
    const ref = { $ref: `${draft07 ? "#/definitions/" : "#/$defs/"}google.protobuf.Timestamp` };
    const input = options.io === "input" || options.create === true;
    const t = input ? { anyOf: [{ type: "null" }, ref] } : ref;
    expect(prop(book, "createTime")).toEqual(
      draft07 && !input ? { allOf: [t], readOnly: true } : { ...t, readOnly: true },
    );
    expect(prop(book, "etag")).toMatchObject({ readOnly: true });
    expect(prop(book, "title")).not.toHaveProperty("readOnly");
    expect(prop(entry(doc, "acme.shelf.v1.Author"), "id")).toMatchObject({ readOnly: true });
    if (input) {
      expect(prop(book, "create_time")).toBe(prop(book, "createTime"));
    }
  });

  it("a create schema marks the IDENTIFIER readOnly too; other schemas do not", () => {
    // AIP-203: IDENTIFIER "is not accepted as input (i.e. OUTPUT_ONLY) in the context of a create method", and
    // "considered IMMUTABLE when accepted as input in any other method" (an update: it names the resource).
    expect(prop(entry(jsonSchema(Book, { create: true }), "acme.shelf.v1.Book"), "name")).toMatchObject({
      readOnly: true,
    });
    for (const options of [{}, { io: "input" as const }]) {
      expect(prop(entry(jsonSchema(Book, options), "acme.shelf.v1.Book"), "name")).not.toHaveProperty("readOnly");
    }
  });

  it("ajv takes readOnly as an annotation: a response with output-only fields is valid", () => {
    const v = validator(Book, { target: "draft-07" });
    expect(v({ title: "T", createTime: "2024-01-01T00:00:00Z", etag: "x" })).toBe(true);
    expect(v({ title: "T", createTime: "2024-02-30T00:00:00Z" })).toBe(false);
  });
});

describe("path lists (required, outputOnly): the behaviour createFromJson and standardSchema apply, published", () => {
  // A path names a field at one place: "paths (proto names) of REQUIRED fields, besides the descriptor's", from the
  // root through singular message fields. req.v1.Node is recursive (child: Node; children: repeated Node), so one
  // type is reached at several places, each with its own behaviour.
  const registry = compileProto(fileURLToPath(new URL(".", import.meta.url)), "json-schema-required.proto");
  const Node = registry.getMessage("req.v1.Node")!;
  const lists = { required: ["note", "child.note", "leaf.inner.x"], outputOnly: ["child.child.note"] };
  const doc = jsonSchema(Node, { create: true, ...lists });
  const leaf = { name: "n", color: 1, wrapped: 0, inner: { x: 1 }, title: "t" };

  it("each type on a path has an entry of its own there; elsewhere (a list element) the plain entry", () => {
    expect(doc.$ref).toBe("#/$defs/req.v1.Node-at");
    expect(Object.keys(doc.$defs as JsonObject).sort()).toEqual([
      "google.protobuf.Int32Value",
      "req.v1.Color",
      "req.v1.Inner",
      "req.v1.Inner-at.leaf.inner",
      "req.v1.Leaf",
      "req.v1.Leaf-at.leaf",
      "req.v1.Node",
      "req.v1.Node-at",
      "req.v1.Node-at.child",
      "req.v1.Node-at.child.child",
    ]);
    const root = entry(doc, "req.v1.Node-at");
    expect(prop(root, "child")).toEqual({ anyOf: [{ type: "null" }, { $ref: "#/$defs/req.v1.Node-at.child" }] });
    expect(prop(root, "children")).toMatchObject({ items: { $ref: "#/$defs/req.v1.Node" } });
    expect(prop(entry(doc, "req.v1.Node-at.child"), "child")).toEqual({
      anyOf: [{ type: "null" }, { $ref: "#/$defs/req.v1.Node-at.child.child" }],
    });
    expect(prop(entry(doc, "req.v1.Node-at.child.child"), "note")).toMatchObject({ readOnly: true });
    expect(prop(entry(doc, "req.v1.Node"), "note")).not.toHaveProperty("readOnly");
    // One name each: note and x are required in `required`; reqId (two names) in an anyOf.
    expect(entry(doc, "req.v1.Inner-at.leaf.inner").required).toEqual(["x"]);
    expect(entry(doc, "req.v1.Inner").required).toBeUndefined();
  });

  it.each<[string, JsonValue]>([
    ["every listed field given", { reqId: 1, note: "a", child: { reqId: 2, note: "b" }, leaf }],
    ["a root field of the list left out", { reqId: 1, child: { reqId: 2, note: "b" } }],
    ["a listed field left out in the child", { reqId: 1, note: "a", child: { reqId: 2 } }],
    ["the child's child needs no note", { reqId: 1, note: "a", child: { reqId: 2, note: "b", child: { reqId: 3 } } }],
    ["a list element needs no note (the paths do not reach it)", { reqId: 1, note: "a", children: [{ reqId: 2 }] }],
    ["a listed field left out two levels down", { reqId: 1, note: "a", leaf: { ...leaf, inner: {} } }],
    ["a listed field empty (AIP-203: non-empty)", { reqId: 1, note: "", child: { reqId: 2, note: "b" } }],
    [
      "an output-only member sent (dropped)",
      { reqId: 1, note: "a", child: { reqId: 2, note: "b", child: { reqId: 3, note: "c" } } },
    ],
  ])("%s: the schema and createFromJson agree", (_what, json) => {
    const created = (() => {
      try {
        createFromJson(Node, json, lists);
        return true;
      } catch {
        return false;
      }
    })();
    for (const target of ["draft-2020-12", "draft-07"] as const) {
      expect(validator(Node, { create: true, target, ...lists })(json)).toBe(created);
    }
    const std = standardSchema(Node, { create: true, ...lists })["~standard"];
    expect(std.validate(json).issues === undefined).toBe(created);
    expect(ajv2020.compile(std.jsonSchema.input({ target: "draft-2020-12" }))(json)).toBe(created);
  });

  it("without lists the document is as before; a bad path is refused as createFromJson refuses it", () => {
    expect(jsonSchema(Node, { create: true, required: [] })).toEqual(jsonSchema(Node, { create: true }));
    const ours = catchWkt(() => jsonSchema(Node, { create: true, required: ["children.note"] }));
    const create = catchWkt(() => createFromJson(Node, {}, { required: ["children.note"] }));
    expect([ours.rule, ours.jsonPath, ours.detail]).toEqual([create.rule, create.jsonPath, create.detail]);
  });
});
