// The hostile-input table (cases.ts) through every entry point that takes text: each row decodes to its
// canonical JSON or fails with its rule and path (and a line and column); the collect-all validator and the
// create request's text entry point agree; what decodes encodes and decodes again to the same message; and
// nothing reached Object.prototype.

import { toBinary, type JsonValue } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { fromJsonString } from "../../src/codec/from-json.js";
import { toJson, toJsonString } from "../../src/codec/to-json.js";
import { validateJsonString } from "../../src/codec/validate.js";
import { createFromJsonString } from "../../src/mask/create.js";
import { testRegistry } from "../conformance-registry.js";
import { catchWkt } from "../helpers.js";
import { hostileCases, type Case } from "./cases.js";

const registry = testRegistry;

function label(c: Case): string {
  const text = c.text.length > 70 ? c.text.slice(0, 60) + `... (${c.text.length} chars)` : c.text;
  return `${c.schema.typeName.replace(/^.*\./, "")} ${JSON.stringify(text)}${c.options === undefined ? "" : " " + JSON.stringify(c.options)}`;
}

const rows = hostileCases.map((c) => [c.group, label(c), c] as const);

describe("hostile inputs", () => {
  it("the table has at least 300 rows", () => {
    expect(hostileCases.length).toBeGreaterThanOrEqual(300);
  });

  it.each(rows)("%s: %s", (_, __, c) => {
    const options = { registry, ...c.options };
    if ("json" in c.expect) {
      const message = fromJsonString(c.schema, c.text, options);
      const json = toJson(c.schema, message, { registry });
      expect(json).toEqual(c.expect.json);
      // Decode then encode is idempotent: the canonical text reads back as the same message.
      const again = fromJsonString(c.schema, toJsonString(c.schema, message, { registry }), { registry });
      expect(toBinary(c.schema, again)).toEqual(toBinary(c.schema, message));
      expect(toJson(c.schema, again, { registry })).toEqual(json as JsonValue);
      expect(validateJsonString(c.schema, c.text, options)).toEqual([]);
      // A create request's body of a type without field behaviour is what fromJsonString reads.
      expect(toJson(c.schema, createFromJsonString(c.schema, c.text, options), { registry })).toEqual(json);
    } else {
      const e = catchWkt(() => fromJsonString(c.schema, c.text, options));
      expect({ rule: e.rule, jsonPath: e.jsonPath }).toEqual(c.expect);
      // Every error from text carries the position of the offending value.
      expect(e.line).toBeGreaterThanOrEqual(1);
      expect(e.column).toBeGreaterThanOrEqual(1);
      const issues = validateJsonString(c.schema, c.text, options);
      expect(issues.length).toBeGreaterThan(0);
      expect(issues).toContainEqual(
        expect.objectContaining({ rule: e.rule, jsonPath: e.jsonPath, line: e.line, column: e.column }),
      );
      const created = catchWkt(() => createFromJsonString(c.schema, c.text, options));
      expect([created.rule, created.jsonPath, created.line, created.column]).toEqual([
        e.rule,
        e.jsonPath,
        e.line,
        e.column,
      ]);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each<[string, string]>([
    ["google.protobuf.Value", "-0"],
    ["google.protobuf.Struct", '{"a":[-0,{"b":-0}]}'],
    ["google.protobuf.ListValue", "[0,-0]"],
  ])("%s: -0 keeps its sign through the text (JSON.stringify would write 0)", (typeName, text) => {
    const schema = registry.getMessage(typeName)!;
    expect(toJsonString(schema, fromJsonString(schema, text))).toBe(text);
  });

  it("left Object.prototype as it was", () => {
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(
      Object.getOwnPropertyNames(Object.getPrototypeOf({})).sort(),
    );
    for (const name of ["polluted", "a", "x", "toString1"]) expect(name in {}).toBe(false);
  });
});
