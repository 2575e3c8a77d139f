// The input JSON Schema and proto2 `required` fields (issue 26, editions: "JSON we accept must be writable"):
// fromJson refuses JSON that leaves a required field (editions: LEGACY_REQUIRED) unset, at any depth, unless
// `allowPartial`; the input schema (io "input", and create) says the same, so that a gateway that checks a body
// against it and the service that reads it agree. Checked with ajv (draft 2020-12 and draft-07) on a table of
// messages with required fields nested, in list elements and in map values (json-schema-required*.proto).

import { fileURLToPath } from "node:url";
import type { DescMessage, JsonObject, JsonValue } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import {
  createFromJson,
  fromJson,
  isWktJsonError,
  jsonSchema,
  standardSchema,
  toJson,
  validateJson,
  type JsonSchemaOptions,
} from "../src/index.js";
import { catchWkt } from "./helpers.js";
import { ajv2020, schemaValidator, type Validate } from "./fixtures/ajv.js";
import { compileProto } from "./patch/registry.js";
import { TestAllRequiredTypesProto2 } from "./conformance-registry.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const p2 = compileProto(here, "json-schema-required.proto");
const ed = compileProto(here, "json-schema-required-editions.proto");
const Node = p2.getMessage("req.v1.Node")!;
const Leaf = p2.getMessage("req.v1.Leaf")!;
const Ed = ed.getMessage("req.ed.Ed")!;

const validator = (schema: DescMessage, options: JsonSchemaOptions): Validate => schemaValidator(schema, options);

/** Whether `f` returns; false when it throws our error (anything else fails the test). */
function accepts(f: () => unknown): boolean {
  try {
    f();
    return true;
  } catch (e) {
    if (!isWktJsonError(e)) throw e;
    return false;
  }
}

/** `o` without its member `key`: the field left out. */
function omit(o: JsonObject, key: string): JsonObject {
  const copy = { ...o };
  delete copy[key];
  return copy;
}

const leaf: JsonObject = { name: "n", color: "COLOR_RED", wrapped: 0, inner: {} };
const ed0 = { reqId: 0, value: null, nothing: null, label: "" };

/** [what, type, JSON]: fromJson decides, and the schema must agree, under each read option. */
const table: [string, DescMessage, JsonValue][] = [
  ["the required field given", Node, { reqId: 1 }],
  ["under its proto name", Node, { req_id: 1 }],
  ["as a string", Node, { reqId: "7" }],
  ["at its default value (present: proto2 presence, not AIP-203's non-empty)", Node, { reqId: 0 }],
  ["left out", Node, {}],
  ["null (its default value: the field stays unset)", Node, { reqId: null }],
  ["under both names", Node, { reqId: 1, req_id: 1 }],
  ["left out in a nested message", Node, { reqId: 1, child: {} }],
  ["given in a nested message", Node, { reqId: 1, child: { req_id: 2 } }],
  ["left out two levels down", Node, { reqId: 1, child: { reqId: 2, child: { note: "x" } } }],
  ["a nested message null (unset: nothing to require)", Node, { reqId: 1, child: null }],
  ["left out in a list element", Node, { reqId: 1, children: [{ reqId: 2 }, {}] }],
  ["given in every list element", Node, { reqId: 1, children: [{ reqId: 2 }, { reqId: 3 }] }],
  ["left out in a map value", Node, { reqId: 1, byKey: { "a b": {} } }],
  ["given in every map value", Node, { reqId: 1, by_key: { a: { reqId: 2 } } }],
  ["a leaf with all its required fields", Node, { reqId: 1, leaf }],
  ["a leaf's one-name field left out", Node, { reqId: 1, leaf: omit(leaf, "name") }],
  ["a leaf's one-name field null", Node, { reqId: 1, leaf: { ...leaf, name: null } }],
  ["a leaf's one-name field empty (set: proto2 presence)", Node, { reqId: 1, leaf: { ...leaf, name: "" } }],
  ["a required closed enum by number", Node, { reqId: 1, leaf: { ...leaf, color: 2 } }],
  ["a required closed enum null", Node, { reqId: 1, leaf: { ...leaf, color: null } }],
  [
    "a required enum's unknown name (skipped under ignoreUnknownFields: unset)",
    Node,
    { reqId: 1, leaf: { ...leaf, color: "COLOR_GREEN" } },
  ],
  ["a required wrapper null (unset)", Node, { reqId: 1, leaf: { ...leaf, wrapped: null } }],
  ["a required message empty (set)", Node, { reqId: 1, leaf: { ...leaf, inner: {} } }],
  ["a required message null (unset)", Node, { reqId: 1, leaf: { ...leaf, inner: null } }],
  ["editions: all given", Ed, ed0],
  ["editions: left out", Ed, { value: 1, nothing: null, label: "" }],
  ["editions: a Value null is a value (set)", Ed, { ...ed0, value: null }],
  ["editions: a Value left out", Ed, { reqId: 0, nothing: null, label: "" }],
  ["editions: a NullValue null is a value (set)", Ed, { ...ed0, nothing: null }],
  ["editions: a NullValue left out", Ed, { reqId: 0, value: 1, label: "" }],
  ["editions: left out in a list element", Ed, { ...ed0, children: [ed0, omit(ed0, "label")] }],
  ["editions: left out in a map value", Ed, { ...ed0, byKey: { k: { ...ed0, reqId: null } } }],
  ["editions: nested, all given", Ed, { ...ed0, child: { ...ed0, child: ed0 } }],
  ["editions: nested, left out", Ed, { ...ed0, child: { ...ed0, child: {} } }],
];

const cases = table.map(([what, type, json]) => [what, type, json] as const);

describe("the input schema requires what fromJson requires", () => {
  for (const allowPartial of [false, true]) {
    for (const ignoreUnknownFields of [false, true]) {
      const read = { allowPartial, ignoreUnknownFields };
      it.each(cases)(`${JSON.stringify(read)}: %s`, (_what, type, json) => {
        const decoded = accepts(() => fromJson(type, json, read));
        expect(validateJson(type, json, read).length === 0).toBe(decoded);
        for (const target of ["draft-2020-12", "draft-07"] as const) {
          expect(validator(type, { io: "input", target, ...read })(json)).toBe(decoded);
        }
        // Standard Schema: validate and its jsonSchema.input pass allowPartial on alike.
        const std = standardSchema(type, read)["~standard"];
        expect(std.validate(json).issues === undefined).toBe(decoded);
        expect(ajv2020.compile(std.jsonSchema.input({ target: "draft-2020-12" }))(json)).toBe(decoded);
      });
    }
  }

  it("a table that tells both ways", () => {
    const refused = cases.filter(([, type, json]) => !accepts(() => fromJson(type, json)));
    const partial = cases.filter(([, type, json]) => !accepts(() => fromJson(type, json, { allowPartial: true })));
    expect(refused.length).toBeGreaterThan(partial.length + 10);
    expect(cases.length - refused.length).toBeGreaterThan(10);
  });

  it("what the default input schema accepts, toJson writes (JSON we accept must be writable)", () => {
    for (const [, type, json] of cases) {
      if (!validator(type, { io: "input" })(json)) continue;
      expect(() => toJson(type, fromJson(type, json))).not.toThrow();
    }
  });
});

describe("the schema's form", () => {
  const defOf = (doc: JsonObject, name: string): JsonObject =>
    ((doc.$defs ?? doc.definitions) as Record<string, JsonObject>)[name]!;

  it("a field with two names is required as one of them; with one name, in `required`; neither null", () => {
    const doc = jsonSchema(Node, { io: "input" });
    const node = defOf(doc, "req.v1.Node");
    expect(node.required).toBeUndefined();
    expect(node.anyOf).toEqual([
      { required: ["reqId"], properties: { reqId: {} } },
      { required: ["req_id"], properties: { req_id: {} } },
    ]);
    const props = node.properties as Record<string, JsonObject>;
    expect(props.reqId!.type).not.toContain("null");
    expect(props.note!.type).toContain("null");
    expect(defOf(doc, "req.v1.Leaf").required).toEqual(["name", "color", "wrapped", "inner"]);
    const edDef = defOf(jsonSchema(Ed, { io: "input" }), "req.ed.Ed");
    expect(edDef.required).toEqual(["value", "nothing", "label"]);
    // A Value and a NullValue take null as their value: required, and null allowed.
    expect((edDef.properties as Record<string, JsonObject>).value).toEqual({ $ref: "#/$defs/google.protobuf.Value" });
  });

  it("allowPartial: nothing is required, null is allowed, as before", () => {
    const node = defOf(jsonSchema(Node, { io: "input", allowPartial: true }), "req.v1.Node");
    expect(node.required).toBeUndefined();
    expect(node.anyOf).toBeUndefined();
    expect((node.properties as Record<string, JsonObject>).reqId!.type).toContain("null");
  });

  it("the output schema lists required fields whatever allowPartial says (toJson always writes them)", () => {
    for (const allowPartial of [false, true]) {
      expect(defOf(jsonSchema(Node, { allowPartial }), "req.v1.Node").required).toEqual(["reqId"]);
    }
  });

  it("allowPartial must be a boolean", () => {
    expect(catchWkt(() => jsonSchema(Node, { io: "input", allowPartial: "yes" as never }))).toMatchObject({
      rule: "range",
      detail: 'allowPartial must be a boolean, got "yes"',
    });
  });

  it("TestAllRequiredTypesProto2 is recursive through required fields: no JSON completes it, none passes", () => {
    const v = validator(TestAllRequiredTypesProto2, { io: "input" });
    expect(v({})).toBe(false);
    expect(validator(TestAllRequiredTypesProto2, { io: "input", allowPartial: true })({})).toBe(true);
  });
});

describe("create: proto2 required fields beside AIP-203 REQUIRED ones", () => {
  // A create body (AIP-133) is the whole resource: a proto2 required field left out makes a message that
  // toJson and toBinary refuse, so createFromJson refuses it too (rule required), unless allowPartial.
  const full = { reqId: 1, leaf: { ...leaf, title: "t" } as JsonObject };
  it.each<[string, JsonValue]>([
    ["all given", full],
    ["the proto2 required field left out", { leaf: full.leaf }],
    ["the AIP-203 REQUIRED field left out", { reqId: 1, leaf }],
    ["a proto2 required field left out in a leaf", { reqId: 1, leaf: omit(full.leaf, "name") }],
    ["a proto2 required field left out in a list element", { ...full, children: [{}] }],
  ])("%s: the create schema and createFromJson agree", (_what, json) => {
    for (const allowPartial of [false, true]) {
      const created = accepts(() => createFromJson(Node, json, { allowPartial }));
      expect(validator(Node, { create: true, allowPartial })(json)).toBe(created);
      const std = standardSchema(Node, { create: true, allowPartial })["~standard"];
      expect(std.validate(json).issues === undefined).toBe(created);
      expect(ajv2020.compile(std.jsonSchema.input({ target: "draft-2020-12" }))(json)).toBe(created);
    }
  });

  it("createFromJson names the missing field, rule required; allowPartial reads it", () => {
    expect(catchWkt(() => createFromJson(Node, { children: [{}] }))).toMatchObject({
      rule: "required",
      jsonPath: "$.children[0].reqId",
    });
    expect(createFromJson(Node, {}, { allowPartial: true })).toMatchObject({ reqId: 0 });
  });
});
