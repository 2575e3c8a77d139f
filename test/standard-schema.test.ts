// standardSchema: a message type as a Standard Schema v1, checked against the spec's own types
// (@standard-schema/spec) and through a real consumer of the interface (Hono's sValidator, in memory, no server).

import { create, type JsonValue } from "@bufbuild/protobuf";
import { DurationSchema, TimestampSchema, type Timestamp, type TimestampJson } from "@bufbuild/protobuf/wkt";
import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import { sValidator } from "@hono/standard-validator";
import fc from "fast-check";
import { Hono } from "hono";
import { describe, expect, expectTypeOf, it } from "vitest";
import { fromJson, jsonSchema, standardSchema, toJson, validateJson, type StandardSchemaIssue } from "../src/index.js";
import { TestAllTypesProto3, testRegistry } from "./conformance-registry.js";
import { catchWkt } from "./helpers.js";
import { arbMessage } from "./arbitrary.js";
import { Book } from "./patch/registry.js";

const M = TestAllTypesProto3;
const schema = standardSchema(M);
const validate = (value: unknown) => schema["~standard"].validate(value);

describe("validate", () => {
  it("decodes a valid value into the message fromJson gives", () => {
    const json = { optionalInt32: 1, repeatedTimestamp: ["2024-02-29T00:00:00+01:00"], mapStringString: { a: "b" } };
    const result = validate(json);
    expect(result.issues).toBeUndefined();
    expect("value" in result && result.value).toEqual(fromJson(M, json));
  });

  it("lists every problem, each with its path as keys, its rule and our message", () => {
    const result = validate({
      optionalInt32: "x",
      repeatedTimestamp: ["2024-01-01T00:00:00Z", "2024-02-30T00:00:00Z"],
      mapStringNestedMessage: { "team name": { a: "y" } },
      bogus: 1,
    });
    expect(result.issues).toEqual([
      {
        rule: "syntax",
        path: ["optionalInt32"],
        jsonPath: "$.optionalInt32",
        message: expect.stringMatching(/^int32 at \$\.optionalInt32: /),
        typeName: "int32",
        detail: expect.any(String),
      },
      {
        rule: "range",
        path: ["repeatedTimestamp", 1],
        jsonPath: "$.repeatedTimestamp[1]",
        message: expect.stringMatching(/^google\.protobuf\.Timestamp at \$\.repeatedTimestamp\[1\]: /),
        typeName: "google.protobuf.Timestamp",
        detail: expect.any(String),
      },
      {
        rule: "syntax",
        path: ["mapStringNestedMessage", "team name", "a"],
        jsonPath: '$.mapStringNestedMessage["team name"].a',
        message: expect.any(String),
        typeName: "int32",
        detail: expect.any(String),
      },
      {
        rule: "unknown-field",
        path: ["bogus"],
        jsonPath: "$.bogus",
        message: expect.any(String),
        typeName: "protobuf_test_messages.proto3.TestAllTypesProto3",
        detail: expect.any(String),
      },
    ]);
  });

  it("gives the validator's issues, as they are", () => {
    const json = { optionalNestedMessage: { a: 1.5 }, oneofUint32: 1, oneofString: "a" };
    const issues = validateJson(M, json);
    expect(issues.length).toBe(2);
    // The same objects' members: one issue shape (issue 28).
    expect(validate(json).issues).toEqual(issues);
    for (const i of issues) expect(i.message).toBe(`${i.typeName} at ${i.jsonPath}: ${i.detail}`);
  });

  it("reports a value that is not an object at the root, with an empty path", () => {
    expect(validate("x").issues).toEqual([expect.objectContaining({ rule: "json-type", path: [], jsonPath: "$" })]);
    expect(standardSchema(TimestampSchema)["~standard"].validate("2024-02-30T00:00:00Z").issues).toEqual([
      expect.objectContaining({ rule: "range", path: [] }),
    ]);
  });

  it("takes the decoder's options: ignoreUnknownFields, registry, maxIssues, maxDepth", () => {
    expect(standardSchema(M, { ignoreUnknownFields: true })["~standard"].validate({ bogus: 1 }).issues).toBeUndefined();
    const any = { optionalAny: { "@type": "type.googleapis.com/protobuf_test_messages.proto3.ForeignMessage", c: 1 } };
    expect(validate(any).issues).toEqual([expect.objectContaining({ rule: "unknown-type" })]);
    expect(standardSchema(M, { registry: testRegistry })["~standard"].validate(any).issues).toBeUndefined();
    const many = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`bogus${i}`, i]));
    expect(standardSchema(M, { maxIssues: 3 })["~standard"].validate(many).issues).toHaveLength(3);
    let deep: JsonValue = {};
    for (let i = 0; i < 10; i++) deep = { recursiveMessage: deep };
    expect(standardSchema(M, { maxDepth: 5 })["~standard"].validate(deep).issues).toEqual([
      expect.objectContaining({ rule: "depth" }),
    ]);
  });

  // Issue 26: "An issue's path must name the client's keys exactly: a 150-character map key appears cut to 100
  // characters plus "…", which names no property of the input."
  it("a path names the client's keys exactly: a 150-character map key, whole", () => {
    const key = "team ".repeat(30);
    const [issue] = validate({ mapStringNestedMessage: { [key]: { a: "x" } } })
      .issues as readonly StandardSchemaIssue[];
    expect(issue!.path).toEqual(["mapStringNestedMessage", key, "a"]);
    expect(issue!.jsonPath).toBe(`$.mapStringNestedMessage[${JSON.stringify(key)}].a`);
    expect(issue!.message).toBe(`int32 at ${issue!.jsonPath}: "x" is not a number`);
    // The issues are plain data: what JSON.stringify writes names the key too.
    expect(JSON.parse(JSON.stringify(issue))).toEqual({
      message: issue!.message,
      path: ["mapStringNestedMessage", key, "a"],
      rule: "syntax",
      jsonPath: issue!.jsonPath,
      typeName: "int32",
      detail: '"x" is not a number',
    });
  });

  // Before issue 26, a path of more than 10,000 code units kept its innermost segments after "$…".
  it("a deep path is whole, as keys and as jsonPath", () => {
    const key = "k".repeat(90);
    let deep: JsonValue = { optionalInt32: "x" };
    for (let i = 0; i < 95; i++) deep = { mapStringNestedMessage: { [key]: { corecursive: deep } } };
    const [issue] = standardSchema(M, { maxDepth: 300 })["~standard"].validate(deep)
      .issues as readonly StandardSchemaIssue[];
    expect(issue!.path).toHaveLength(3 * 95 + 1);
    expect(issue!.path.slice(0, 3)).toEqual(["mapStringNestedMessage", key, "corecursive"]);
    expect(issue!.jsonPath).toBe("$" + `.mapStringNestedMessage.${key}.corecursive`.repeat(95) + ".optionalInt32");
  });

  it("never throws, whatever the value: a message or issues", () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.anything()), (value) => {
        const r = validate(value);
        expect(r.issues === undefined ? "value" in r : r.issues.length > 0).toBe(true);
      }),
      { numRuns: 300 },
    );
    const proto = JSON.parse('{"__proto__": {"optionalInt32": 1}}') as unknown;
    expect(validate(proto).issues).toEqual([expect.objectContaining({ rule: "unknown-field", path: ["__proto__"] })]);
    expect(({} as Record<string, unknown>).optionalInt32).toBeUndefined();
  });

  it("refuses bad options when the schema is made, not when it validates", () => {
    expect(catchWkt(() => standardSchema(M, { maxDepth: -1 }))).toMatchObject({ rule: "range" });
    expect(catchWkt(() => standardSchema(M, { maxIssues: 0 }))).toMatchObject({ rule: "range" });
    expect(catchWkt(() => standardSchema({} as typeof M))).toMatchObject({ rule: "json-type" });
  });
});

describe("the Standard Schema v1 interface", () => {
  it("is a StandardSchemaV1 and a StandardJSONSchemaV1 of @standard-schema/spec, typed from the descriptor", () => {
    const ts = standardSchema(TimestampSchema);
    expectTypeOf(ts).toMatchTypeOf<StandardSchemaV1<TimestampJson, Timestamp>>();
    expectTypeOf(ts).toMatchTypeOf<StandardJSONSchemaV1<TimestampJson, Timestamp>>();
    expectTypeOf<StandardSchemaV1.InferOutput<typeof ts>>().toEqualTypeOf<Timestamp>();
    expectTypeOf<StandardSchemaV1.InferInput<typeof ts>>().toEqualTypeOf<TimestampJson>();
    const asSpec: StandardSchemaV1<TimestampJson, Timestamp> = ts;
    expect(asSpec["~standard"]).toMatchObject({ version: 1, vendor: "wkt-json" });
    const r = asSpec["~standard"].validate("2024-04-12T00:00:00Z");
    expect(r).toEqual({ value: create(TimestampSchema, { seconds: 1712880000n }) });
  });

  it("gives JSON Schema of the input and of the output, as jsonSchema does", () => {
    const s = standardSchema(M, { ignoreUnknownFields: true, registry: testRegistry });
    const spec: StandardJSONSchemaV1 = s;
    expect(spec["~standard"].jsonSchema.input({ target: "draft-2020-12" })).toEqual(
      jsonSchema(M, { io: "input", ignoreUnknownFields: true, registry: testRegistry }),
    );
    expect(spec["~standard"].jsonSchema.output({ target: "draft-07" })).toEqual(
      jsonSchema(M, { target: "draft-07", registry: testRegistry }),
    );
    expect(
      spec["~standard"].jsonSchema.output({ target: "draft-2020-12", libraryOptions: { useProtoFieldName: true } }),
    ).toEqual(jsonSchema(M, { useProtoFieldName: true, registry: testRegistry }));
    expect(catchWkt(() => spec["~standard"].jsonSchema.input({ target: "openapi-3.0" }))).toMatchObject({
      rule: "range",
    });
  });
});

describe("through Hono's sValidator (@hono/standard-validator)", () => {
  const app = new Hono();
  app.post("/v1/messages", sValidator("json", standardSchema(M)), (c) => {
    const message = c.req.valid("json"); // a TestAllTypesProto3 message
    return c.json({ saved: toJson(M, message) }, 201);
  });
  app.post("/v1/durations", sValidator("json", standardSchema(DurationSchema)), (c) =>
    c.json({ nanos: c.req.valid("json").nanos }),
  );

  const post = (path: string, body: unknown) =>
    app.request(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  it("passes the decoded message to the handler", async () => {
    const res = await post("/v1/messages", {
      optional_int64: 9007199254740993,
      optionalTimestamp: "2024-01-01T01:00:00+01:00",
    });
    expect(res.status).toBe(201);
    // JSON.parse in Hono rounds the unquoted 2^53 + 1 first: only the text codec keeps every digit.
    expect(await res.json()).toEqual({
      saved: { optionalInt64: "9007199254740992", optionalTimestamp: "2024-01-01T00:00:00Z" },
    });
    const d = await post("/v1/durations", "1.5s");
    expect(await d.json()).toEqual({ nanos: 500000000 });
  });

  it("answers 400 with our issues, paths as keys", async () => {
    const res = await post("/v1/messages", { optionalInt32: "x", repeatedDuration: ["1s", "1"] });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { success: boolean; error: StandardSchemaIssue[] };
    expect(body.success).toBe(false);
    expect(body.error.map((i) => [i.path, i.rule])).toEqual([
      [["optionalInt32"], "syntax"],
      [["repeatedDuration", 1], "syntax"],
    ]);
  });
});

describe("create: true, a create request's body (AIP-133 with AIP-203 for creation)", () => {
  const book = standardSchema(Book, { create: true });
  const check = (value: unknown, s = book) => s["~standard"].validate(value);
  const issues = (value: unknown, s = book) => check(value, s).issues?.map((i) => [i.path, i.rule, i.jsonPath]);

  it("OUTPUT_ONLY: the server must clear out any value in this field and must not throw an error", () => {
    const r = check({ title: "T", createTime: "2024-01-01T00:00:00Z", chapters: [{ id: "c", title: "1" }] });
    expect(r.issues).toBeUndefined();
    expect("value" in r && toJson(Book, r.value)).toEqual({ title: "T", chapters: [{ title: "1" }] });
  });

  it("lists every REQUIRED field missing and (strict) every OUTPUT_ONLY member sent, rule field-behavior", () => {
    expect(issues({ author: {}, chapters: [{ pages: 1 }] })).toEqual([
      [["title"], "field-behavior", "$.title"],
      [["author", "givenName"], "field-behavior", "$.author.givenName"],
      [["chapters", 0, "title"], "field-behavior", "$.chapters[0].title"],
    ]);
    const strict = standardSchema(Book, { create: true, strict: true, required: ["isbn"] });
    expect(
      issues({ title: "T", createTime: "2024-01-01T00:00:00Z", author: { id: "a", givenName: "U" } }, strict),
    ).toEqual([
      [["createTime"], "field-behavior", "$.createTime"],
      [["author", "id"], "field-behavior", "$.author.id"],
      [["isbn"], "field-behavior", "$.isbn"],
    ]);
    expect(issues({ author: {} }, standardSchema(Book, { create: true, maxIssues: 1 }))).toHaveLength(1);
  });

  it("never throws, whatever the value: a message or issues", () => {
    const strict = standardSchema(Book, { create: true, strict: true, ignoreUnknownFields: true });
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.anything(), arbMessage(Book, { maxDepth: 3 })), (v) => {
        const value = typeof v === "object" && v !== null && "$typeName" in v ? toJson(Book, v as never) : v;
        for (const s of [book, strict]) {
          const r = check(value, s);
          expect(r.issues === undefined ? "value" in r : r.issues.length > 0).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("gives the decoder's issues for JSON it refuses; the field-behaviour issues come once those are fixed", () => {
    expect(issues({ title: 1, author: {} })).toEqual([[["title"], "json-type", "$.title"]]);
  });

  it("puts every issue under the path option, as without create", () => {
    const at = standardSchema(Book, { create: true, path: "$.Definition", strict: true });
    expect(issues({ author: {}, createTime: "2024-01-01T00:00:00Z" }, at)).toEqual([
      [["Definition", "createTime"], "field-behavior", "$.Definition.createTime"],
      [["Definition", "title"], "field-behavior", "$.Definition.title"],
      [["Definition", "author", "givenName"], "field-behavior", "$.Definition.author.givenName"],
    ]);
    expect(issues({ title: 1 }, at)).toEqual([[["Definition", "title"], "json-type", "$.Definition.title"]]);
    expect(issues(5, at)).toEqual([[["Definition"], "json-type", "$.Definition"]]);
    expect(check({ title: "T" }, at).issues).toBeUndefined();
    expect(catchWkt(() => standardSchema(Book, { create: true, path: "Definition" }))).toMatchObject({
      rule: "range",
      jsonPath: "$",
    });
  });

  it("takes the decoder's options, and checks its own when the schema is made", () => {
    expect(
      issues({ title: "T", titel: 1 }, standardSchema(Book, { create: true, ignoreUnknownFields: true })),
    ).toBeUndefined();
    expect(catchWkt(() => standardSchema(Book, { create: "yes" as never }))).toMatchObject({ rule: "range" });
    expect(catchWkt(() => standardSchema(Book, { create: true, strict: 1 as never }))).toMatchObject({
      rule: "range",
    });
    expect(catchWkt(() => standardSchema(Book, { create: true, required: ["nope"] })).jsonPath).toBe("$");
    // Without create, the value is what fromJson gives: output-only members kept, nothing required.
    expect(issues({ createTime: "2024-01-01T00:00:00Z" }, standardSchema(Book))).toBeUndefined();
  });

  // Enable once jsonSchema takes `create` (helper wt-schema's JsonSchemaOptions member): REQUIRED fields
  // `required`, OUTPUT_ONLY ones `readOnly`. standardSchema passes `create: true` to it already.
  it("jsonSchema.input is jsonSchema's create input: REQUIRED fields required, OUTPUT_ONLY readOnly", () => {
    const input = book["~standard"].jsonSchema.input({ target: "draft-2020-12" });
    expect(input).toEqual(jsonSchema(Book, { io: "input", create: true } as never));
    const entry = (input.$defs as Record<string, { required?: string[]; properties: Record<string, object> }>)[
      "acme.shelf.v1.Book"
    ]!;
    expect(entry.required).toContain("title");
    expect(entry.properties.createTime).toMatchObject({ readOnly: true });
    expect(standardSchema(Book)["~standard"].jsonSchema.input({ target: "draft-2020-12" })).toEqual(
      jsonSchema(Book, { io: "input" }),
    );
  });

  it("through Hono's sValidator: 400 with the field-behaviour issues, else the message", async () => {
    const app = new Hono();
    app.post("/v1/books", sValidator("json", book), (c) => c.json(toJson(Book, c.req.valid("json")), 201));
    const post = (body: unknown) =>
      app.request("/v1/books", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const ok = await post({ title: "T", name: "shelves/1/books/1", createTime: "2024-01-01T00:00:00Z" });
    expect([ok.status, await ok.json()]).toEqual([201, { title: "T" }]); // name (IDENTIFIER) and createTime (OUTPUT_ONLY) dropped
    const res = await post({ tags: ["sf"] });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: StandardSchemaIssue[] };
    expect(body.error.map((i) => [i.path, i.rule])).toEqual([[["title"], "field-behavior"]]);
  });
});
