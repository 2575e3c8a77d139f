import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { WktJsonError } from "../src/errors.js";
import { fromJson, fromJsonString } from "../src/codec/from-json.js";
import { validateJson, validateJsonString } from "../src/codec/validate.js";
import { standardSchema } from "../src/schema/standard-schema.js";
import { badRequest, problemDetails, problemJsonContentType, type ProblemDetails } from "../src/problem.js";
import { TestAllTypesProto3 } from "./conformance-registry.js";
import { catchWkt } from "./helpers.js";

const M = TestAllTypesProto3;

// Issue 28: "Three issue shapes today ... One shape for all three (the Standard Schema one is fixed by its spec;
// the others follow it with the same member names and meanings)."
describe("one issue shape: WktJsonError, validateJson's issues, Standard Schema's issues", () => {
  const members = ["rule", "message", "path", "jsonPath", "typeName", "detail"] as const;
  const pick = (x: object) => Object.fromEntries(members.map((k) => [k, (x as Record<string, unknown>)[k]]));

  it("have the same members with the same values for one bad input", () => {
    const json = { mapStringNestedMessage: { "team name": { a: "x" } } };
    const error = catchWkt(() => fromJson(M, json));
    const [issue] = validateJson(M, json);
    const result = standardSchema(M)["~standard"].validate(json);
    const [ssIssue] = result.issues!;
    const expected = {
      rule: "syntax",
      message: `int32 at $.mapStringNestedMessage["team name"].a: ${error.detail}`,
      path: ["mapStringNestedMessage", "team name", "a"],
      jsonPath: '$.mapStringNestedMessage["team name"].a',
      typeName: "int32",
      detail: error.detail,
    };
    expect(pick(error)).toEqual(expected);
    expect(issue).toEqual(expected); // exactly these members: no line or column without a text
    expect(ssIssue).toEqual(expected);
    // Standard Schema v1's Issue: message a string, path an array of keys.
    expect(typeof ssIssue!.message).toBe("string");
    expect(Array.isArray(ssIssue!.path)).toBe(true);
  });

  it("from a text, the error and the issues both carry line and column", () => {
    const text = '{\n  "optionalTimestamp": "yesterday"\n}';
    const error = catchWkt(() => fromJsonString(M, text));
    const [issue] = validateJsonString(M, text);
    expect(issue).toEqual({ ...pick(error), line: 2, column: 24 });
    expect([error.line, error.column]).toEqual([2, 24]);
  });

  it("the error's path is its jsonPath read as keys, the root []", () => {
    expect(new WktJsonError("range", "$", "google.protobuf.Duration", "x").path).toEqual([]);
    const e = new WktJsonError("syntax", '$.items[2]["due at"]', "google.protobuf.Timestamp", "x");
    expect(e.path).toEqual(["items", 2, "due at"]);
    expect(e.path).toBe(e.path); // read once
  });
});

describe("problemDetails: RFC 9457 application/problem+json", () => {
  it("gives one violation per issue, the path as the client wrote it", () => {
    const issues = validateJson(M, { optionalInt32: "x", repeatedTimestamp: ["2024-02-30T00:00:00Z"] });
    expect(problemDetails(issues)).toEqual({
      type: "about:blank",
      title: "Bad Request",
      status: 400,
      detail: `2 problems; the first: ${issues[0]!.message}`,
      violations: [
        { rule: "syntax", path: "$.optionalInt32", message: issues[0]!.message },
        { rule: "range", path: "$.repeatedTimestamp[0]", message: issues[1]!.message },
      ],
    });
  });

  it("takes our error, the issues, or a Standard Schema failure, and gives the same body", () => {
    const json = { optionalBool: 1 };
    const fromError = problemDetails(catchWkt(() => fromJson(M, json)));
    expect(fromError).toEqual({
      type: "about:blank",
      title: "Bad Request",
      status: 400,
      detail: fromError.violations[0]!.message,
      violations: [{ rule: "json-type", path: "$.optionalBool", message: expect.stringMatching(/^bool at /) }],
    });
    expect(problemDetails(validateJson(M, json))).toEqual(fromError);
    expect(problemDetails(standardSchema(M)["~standard"].validate(json))).toEqual(fromError);
  });

  it("takes the service's own type, title and instance", () => {
    const e = catchWkt(() => fromJson(M, { optionalBool: 1 }));
    const body = problemDetails(e, {
      type: "https://api.example.com/problems/invalid-body",
      title: "The request body is not valid",
      instance: "/v1/flows",
    });
    expect(body).toMatchObject({
      type: "https://api.example.com/problems/invalid-body",
      title: "The request body is not valid",
      status: 400,
      instance: "/v1/flows",
    });
    expect(catchWkt(() => problemDetails(e, { type: 1 } as never))).toMatchObject({ rule: "range", jsonPath: "$" });
  });

  it("throws again anything that is not the client's problem, as it is", () => {
    const other = new Error("database down");
    expect(() => problemDetails(other)).toThrow(other);
    expect(() => badRequest(other)).toThrow(other);
    let thrown: unknown;
    try {
      problemDetails("a string thrown");
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBe("a string thrown");
    // An option a program passed is the program's problem: a server error.
    const optionError = catchWkt(() => fromJson(M, {}, { maxDepth: -1 }));
    expect(() => problemDetails(optionError)).toThrow(optionError);
    // A success, no issues, or something else: the caller's mistake.
    expect(() => problemDetails([])).toThrow(TypeError);
    expect(() => problemDetails([{ message: "zod", path: [] }])).toThrow(TypeError);
    const ok = standardSchema(M)["~standard"].validate({});
    expect(() => problemDetails(ok)).toThrow();
  });

  it("in a Hono handler: a 400 with the problem+json body, other errors to the error handler", async () => {
    const app = new Hono();
    app.post("/flows", async (c) => {
      try {
        const flow = fromJsonString(M, await c.req.text(), { path: "$.Definition" });
        return c.json({ ok: (flow as unknown as { optionalInt32: number }).optionalInt32 });
      } catch (e) {
        return new Response(JSON.stringify(problemDetails(e)), {
          status: 400,
          headers: { "content-type": problemJsonContentType },
        });
      }
    });
    const res = await app.request("/flows", { method: "POST", body: '{"optionalInt32": "x"}' });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/problem+json");
    const body = (await res.json()) as ProblemDetails;
    expect(body.violations).toEqual([
      { rule: "syntax", path: "$.Definition.optionalInt32", message: expect.stringMatching(/^int32 at /) },
    ]);
    expect((await app.request("/flows", { method: "POST", body: '{"optionalInt32": 3}' })).status).toBe(200);
  });
});

describe("badRequest: AIP-193's google.rpc.BadRequest", () => {
  it("gives a field violation per issue: field in JSON names, description, reason in UPPER_SNAKE_CASE", () => {
    const issues = validateJson(M, {
      optionalInt32: "x",
      repeatedNestedMessage: [{}, { a: 1.5 }],
      mapStringString: { "team name": 1 },
      optionalValue: NaN,
    } as never);
    expect(badRequest(issues)).toEqual({
      "@type": "type.googleapis.com/google.rpc.BadRequest",
      fieldViolations: [
        { field: "optionalInt32", description: issues[0]!.message, reason: "SYNTAX" },
        { field: "repeatedNestedMessage[1].a", description: issues[1]!.message, reason: "SYNTAX" },
        { field: 'mapStringString["team name"]', description: issues[2]!.message, reason: "JSON_TYPE" },
        { field: "optionalValue", description: issues[3]!.message, reason: "NOT_FINITE" },
      ],
    });
  });

  it("the body as a whole is the field ''; each reason matches error_details.proto's pattern", () => {
    expect(badRequest(catchWkt(() => fromJson(M, [] as never))).fieldViolations).toEqual([
      { field: "", description: expect.any(String), reason: "JSON_TYPE" },
    ]);
    const rules = ["json-type", "int64", "not-finite", "unknown-field", "field-behavior", "utf16", "size"];
    for (const rule of rules) {
      const [v] = badRequest([new WktJsonError(rule as never, "$.a", "t", "d")]).fieldViolations;
      expect(v!.reason).toMatch(/^[A-Z][A-Z0-9_]+[A-Z0-9]$/);
    }
  });
});

describe("the body is bounded by the input, however long the paths", () => {
  // A thousand issues under one long key share the key in memory, but each written whole into JSON text would
  // repeat it: 1,000 issues under a 1 MB key made a body of 2 GB, past V8's longest string (JSON.stringify threw
  // a RangeError in the handler). A path longer than 1,000 code units is shown shortened around `…`.
  const key = "k".repeat(100_000);
  const issues = validateJson(TestAllTypesProto3, {
    mapStringNestedMessage: { [key]: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`bad${i}`, 1])) },
  });

  it("problemDetails: each path and message cut around the long key, the first and innermost segments kept", () => {
    expect(issues).toHaveLength(200);
    const body = problemDetails(issues);
    const text = JSON.stringify(body);
    expect(text.length).toBeLessThan(200 * 1_000); // 200 whole paths would be 40 MB
    const v = body.violations[7]!;
    expect(v.path).toBe(`$.mapStringNestedMessage.${"k".repeat(39)}….bad7`);
    expect(v.message).toBe(`${issues[7]!.typeName} at ${v.path}: ${issues[7]!.detail}`);
    expect(v.rule).toBe(issues[7]!.rule);
    expect(body.detail).toBe(`200 problems; the first: ${body.violations[0]!.message}`);
    // The issues themselves still name the key whole, for programs.
    expect(issues[7]!.path[1]).toBe(key);
  });

  it("badRequest: the same shortened field", () => {
    const v = badRequest(issues).fieldViolations[7]!;
    expect(v.field).toBe(`mapStringNestedMessage.${"k".repeat(39)}….bad7`);
    expect(v.description).toBe(problemDetails(issues).violations[7]!.message);
  });

  it("a path up to 1,000 code units is shown whole, as jsonPath writes it", () => {
    const e = catchWkt(() => fromJson(TestAllTypesProto3, { mapStringString: { ["x y".repeat(300)]: 1 } }));
    expect(e.jsonPath.length).toBeLessThanOrEqual(1_000);
    expect(problemDetails(e).violations[0]).toEqual({ rule: e.rule, path: e.jsonPath, message: e.message });
  });
});
