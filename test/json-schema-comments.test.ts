// jsonSchema with proto comments as `description` and INPUT_ONLY fields as `writeOnly` (issue 29, "JSON Schema
// that says more"), on json-schema-comments.proto compiled by protoc with and without --include_source_info.

import { fileURLToPath } from "node:url";
import { create, type JsonObject } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { jsonSchema, toJson, type JsonSchemaOptions } from "../src/index.js";
import { ajv07, ajv2020 } from "./fixtures/ajv.js";
import { catchWkt } from "./helpers.js";
import { compileProto } from "./patch/registry.js";

const here = fileURLToPath(new URL(".", import.meta.url));
const withInfo = compileProto(here, "json-schema-comments.proto", { sourceInfo: true });
const withoutInfo = compileProto(here, "json-schema-comments.proto");
const Account = withInfo.getMessage("acme.comments.v1.Account")!;

const entry = (doc: JsonObject, name: string): JsonObject =>
  ((doc.$defs ?? doc.definitions) as Record<string, JsonObject>)[`acme.comments.v1.${name}`]!;
const prop = (def: JsonObject, name: string): JsonObject => (def.properties as Record<string, JsonObject>)[name]!;
const ref = (name: string) => ({ $ref: `#/$defs/acme.comments.v1.${name}` });

describe("jsonSchema: proto comments as description", () => {
  const doc = jsonSchema(Account);
  const account = entry(doc, "Account");

  it("a message's leading comment, its lines joined, the space after // removed", () => {
    expect(account.description).toBe("A user account.\n\nCreated by the sign-up flow.");
    expect(entry(doc, "Account.Profile").description).toBe("A profile, nested.");
    expect(entry(doc, "Plain")).toBeUndefined(); // not reached from Account
    expect(entry(jsonSchema(withInfo.getMessage("acme.comments.v1.Plain")!), "Plain")).not.toHaveProperty(
      "description",
    );
  });

  it.each<[string, JsonObject]>([
    // Leading, over two lines: only the one space after // goes, the indentation after it stays.
    ["name", { type: "string", description: "The account's name,\n  indented on its second line." }],
    // Trailing, where there is no leading comment.
    ["email", { type: "string", description: "Where mail goes." }],
    // A detached comment (a blank line before the field) is not the field's.
    ["karma", { type: "integer", minimum: -2147483648, maximum: 2147483647 }],
    // A block comment; beside a $ref in 2020-12, with OUTPUT_ONLY's readOnly.
    ["createTime", { $ref: "#/$defs/google.protobuf.Timestamp", description: "A block comment.", readOnly: true }],
    ["ssoToken", { type: "string", description: "A token of a single sign-on provider." }],
    ["level", ref("Level")],
    ["tier", { ...ref("Account.Tier"), description: "The tier, with a nested enum." }],
  ])("field %s", (name, schema) => {
    expect(prop(account, name)).toEqual(schema);
  });

  it("an enum's comment, then its values' comments as a list", () => {
    expect(entry(doc, "Level").description).toBe(
      "How trusted an account is.\n\n- LEVEL_UNSPECIFIED: Not known.\n- LEVEL_NEW: A new account:\n  read only.\n" +
        "- LEVEL_TRUSTED: Can post.",
    );
    expect(entry(doc, "Account.Tier").description).toBe("A tier.\n\n- TIER_PAID: Paying.");
  });

  it("in an input schema, under both names of a field", () => {
    const input = entry(jsonSchema(Account, { io: "input" }), "Account");
    expect(prop(input, "ssoToken").description).toBe("A token of a single sign-on provider.");
    expect(prop(input, "sso_token").description).toBe("A token of a single sign-on provider.");
    expect(input.description).toBe(account.description);
  });

  it("draft-07 ignores the siblings of a $ref: a field's description goes beside an allOf", () => {
    const d7 = entry(jsonSchema(Account, { target: "draft-07" }), "Account");
    expect(prop(d7, "tier")).toEqual({
      allOf: [{ $ref: "#/definitions/acme.comments.v1.Account.Tier" }],
      description: "The tier, with a nested enum.",
    });
    expect(prop(d7, "createTime")).toEqual({
      allOf: [{ $ref: "#/definitions/google.protobuf.Timestamp" }],
      description: "A block comment.",
      readOnly: true,
    });
  });

  it.each(variants().slice(0, 4))(
    "descriptions: false is the document of descriptors without source info (%j)",
    (options) => {
      const off = jsonSchema(Account, { ...options, descriptions: false });
      expect(JSON.stringify(off)).not.toContain('"description"');
      expect(off).toEqual(jsonSchema(withoutInfo.getMessage("acme.comments.v1.Account")!, options));
      expect(jsonSchema(Account, { ...options, descriptions: true })).toEqual(jsonSchema(Account, options));
    },
  );

  it("an extension's comment, top-level or nested, on its member", () => {
    const registry = withInfo; // json-schema-comments.proto imports json-schema-comments-ext.proto
    const base = entry(jsonSchema(registry.getMessage("acme.comments.v1.Base")!, { registry }), "Base");
    expect(base.description).toBe("Extendable.");
    expect(prop(base, "[acme.comments.v1.note]")).toEqual({ type: "string", description: "A top-level extension." });
    expect(prop(base, "[acme.comments.v1.Holder.rank]")).toMatchObject({ description: "A nested extension." });
    expect(prop(base, "id")).toEqual({ type: "string" });
  });

  it("refuses a descriptions option that is not a boolean (rule range)", () => {
    expect(catchWkt(() => jsonSchema(Account, { descriptions: "yes" as never }))).toMatchObject({
      rule: "range",
      typeName: "options",
    });
  });
});

describe("jsonSchema: INPUT_ONLY fields are writeOnly", () => {
  // AIP-203: INPUT_ONLY "indicates that the field is provided in requests, and the corresponding field is not
  // included in output".
  it.each(variants())("in every document (%j)", (options) => {
    const def = entry(jsonSchema(Account, options), "Account");
    expect(prop(def, "password")).toMatchObject({ writeOnly: true });
    expect(prop(def, "profile")).toMatchObject({ writeOnly: true });
    expect(prop(def, "name")).not.toHaveProperty("writeOnly");
    expect(prop(def, "createTime")).not.toHaveProperty("writeOnly");
  });

  it("beside the field's description and type", () => {
    expect(prop(entry(jsonSchema(Account), "Account"), "password")).toEqual({
      type: "string",
      description: "The password, sent on sign-up and never returned.",
      writeOnly: true,
    });
    expect(prop(entry(jsonSchema(Account, { target: "draft-07" }), "Account"), "profile")).toEqual({
      allOf: [{ $ref: "#/definitions/acme.comments.v1.Account.Profile" }],
      writeOnly: true,
    });
  });

  it("the output schema keeps the member: toJson writes a set INPUT_ONLY field, and the output is valid", () => {
    const json = toJson(Account, create(Account, { name: "a", password: "secret" }) as never);
    for (const [ajv, target] of [
      [ajv2020, "draft-2020-12"],
      [ajv07, "draft-07"],
    ] as const) {
      // ajv's strict mode knows description, readOnly and writeOnly: the documents compile.
      const v = ajv.compile(jsonSchema(Account, { target }));
      expect(v(json)).toBe(true);
    }
  });
});

function variants(): JsonSchemaOptions[] {
  return [{}, { io: "input" }, { create: true }, { target: "draft-07" }, { descriptions: false }];
}
