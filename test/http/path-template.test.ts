// Path templates (google/api/http.proto's grammar) and the rules given by hand: a template or rule outside the
// grammar, or one that does not fit the request message, is rule syntax with type google.api.HttpRule at the
// rule's member; matching and expanding agree (http.proto's percent-encoding of variables).
import { describe, expect, it } from "vitest";
import { fromHttpRequest, toHttpRequest, type HttpRule } from "../../src/index.js";
import { catchWkt } from "../helpers.js";
import { matchTemplate, parseTemplate, expandTemplate } from "../../src/http/path-template.js";
import { percentDecodeKeepSlash, percentEncode, percentEncodeKeepSlash } from "../../src/http/percent.js";
import { create } from "@bufbuild/protobuf";
import { Everything, GetBookRequest, ListBooksRequest, UpdateBookRequest } from "./registry.js";

const ruleError = (schema: typeof GetBookRequest, rule: unknown) =>
  catchWkt(() => fromHttpRequest(schema, { method: "GET", path: "/" }, { rule: rule as HttpRule }));

describe("path templates", () => {
  it.each([
    ["/v1/{name}", ["v1", "*"], ["{name}"]],
    ["/v1/{name=shelves/*}/books:list", ["v1", "shelves", "*", "books"], ["{name}"]],
    ["/v1/{name=**}", ["v1", "**"], ["{name}"]],
    ["/v1/*/x/**", ["v1", "*", "x", "**"], []],
    ["/", [], []],
    ["/v1/a%20b", ["v1", "a b"], []],
  ])("parses %s", (text, segments, labels) => {
    const t = parseTemplate(text, "$.get");
    expect(t.segments.map((s) => (typeof s === "string" ? s : s.description))).toEqual(segments);
    expect(t.variables.map((v) => v.label)).toEqual(labels);
  });

  it.each([
    "", // not from the root
    "v1/x",
    "/v1/", // an empty segment
    "/v1//x",
    "/v1/{name",
    "/v1/{name=shelves/{id}}", // a variable in a variable
    "/v1/{1name}",
    "/v1/{a..b}",
    "/v1/{name}/{name}", // twice
    "/v1/**/x", // ** not last
    "/v1/x:", // an empty verb
    "/v1/x:a/b", // a verb not at the end
    "/v1/x}",
    "/v1/{name=a:b}",
    "/v1/%zz",
    "/" + "x".repeat(5000),
  ])("refuses the template %j (rule syntax at the rule's member)", (text) => {
    expect(ruleError(GetBookRequest, { get: text })).toMatchObject({
      rule: "syntax",
      jsonPath: "$.get",
      typeName: "google.api.HttpRule",
    });
  });

  it("matches and expands with http.proto's percent-encoding", () => {
    const t = parseTemplate("/v1/{a}/{b=x/**}:v", "$");
    expect(matchTemplate(t, "/v1/p%2Fq/x/r/s%2Ft:v")).toEqual(["p/q", "x/r/s%2Ft"]);
    expect(matchTemplate(t, "/v1/p/x:v")).toEqual(["p", "x"]);
    expect(matchTemplate(t, "/v1/p/y/r:v")).toBeUndefined();
    expect(matchTemplate(t, "/v1/p/x/r")).toBeUndefined();
    expect(expandTemplate(t, ["p/q", "x/r/s%2Ft"])).toBe("/v1/p%2Fq/x/r/s%252Ft:v");
    expect(expandTemplate(parseTemplate("/v1/*/{a}", "$"), ["x"])).toBeUndefined();
  });

  it("encodes all but [-_.~0-9a-zA-Z] (and / for multi-segment variables); decodes all but %2F there", () => {
    expect(percentEncode("a-_.~Z9 !'()*+/:,é")).toBe("a-_.~Z9%20%21%27%28%29%2A%2B%2F%3A%2C%C3%A9");
    expect(percentEncodeKeepSlash("a b/c+d")).toBe("a%20b/c%2Bd");
    expect(percentDecodeKeepSlash("a%2Fb%2fc%20%2")).toBeUndefined();
    expect(percentDecodeKeepSlash("a%2Fb%2fc%20d")).toBe("a%2Fb%2fc d");
  });
});

describe("rules given by hand", () => {
  it.each([
    [{}, "$"], // no pattern
    [{ get: "/a", post: "/b" }, "$"], // two
    [{ get: 5 }, "$.get"],
    [{ custom: { kind: "", path: "/a" } }, "$.custom.kind"],
    [{ custom: { kind: "HEAD", path: "a" } }, "$.custom.path"],
    [{ get: "/{nope}" }, "$.get"], // no such field
    [{ get: "/{tags}" }, "$.get"], // a repeated field
    [{ get: "/{filter}" }, "$.get"], // a message field
    [{ get: "/{page_size.x}" }, "$.get"], // through a scalar
    [{ get: "/{filter.create_time}" }, "$.get"], // a Timestamp
    [{ get: "/a", body: "nope" }, "$.body"],
    [{ get: "/a", body: "filter.author" }, "$.body"], // not top-level
    [
      { get: "/a", additionalBindings: [{ get: "/b", additionalBindings: [{ get: "/c" }] }] },
      "$.additionalBindings[0].additionalBindings",
    ],
    [{ get: "/a", additionalBindings: [{}] }, "$.additionalBindings[0]"],
    [{ get: "/a", additionalBindings: {} }, "$.additionalBindings"],
    [null, "$"],
  ])("refuses %j (rule syntax at %s)", (rule, jsonPath) => {
    expect(ruleError(ListBooksRequest, rule)).toMatchObject({
      rule: "syntax",
      jsonPath,
      typeName: "google.api.HttpRule",
    });
  });

  it("takes a field path by proto or JSON names, a custom method of any kind (*), and caches per rule", () => {
    const rule: HttpRule = { custom: { kind: "*", path: "/v1/{book.name=shelves/*}" }, body: "book" };
    const a = fromHttpRequest(UpdateBookRequest, { method: "PURGE", path: "/v1/shelves/1" }, { rule });
    expect((a as unknown as { book: { name: string } }).book.name).toBe("shelves/1");
    const b = fromHttpRequest(Everything, { method: "GET", path: "/x/u" }, { rule: { get: "/x/{author.givenName}" } });
    expect((b as unknown as { author: { givenName: string } }).author.givenName).toBe("u");
  });

  it("writes the first binding whose variables fit (additional_bindings), else the first one's error", () => {
    const rule: HttpRule = { get: "/v1/{name=shelves/*}", additionalBindings: [{ get: "/v1/{name=authors/*}" }] };
    const m = (name: string) => create(GetBookRequest, { name } as never);
    expect(toHttpRequest(GetBookRequest, m("authors/a"), { rule }).path).toBe("/v1/authors/a");
    expect(catchWkt(() => toHttpRequest(GetBookRequest, m("x/y"), { rule }))).toMatchObject({
      rule: "syntax",
      jsonPath: "$.name",
    });
    expect(catchWkt(() => toHttpRequest(GetBookRequest, m(""), { rule }))).toMatchObject({
      rule: "required",
      jsonPath: "$.name",
    });
    expect(catchWkt(() => toHttpRequest(GetBookRequest, m("a"), { rule: { get: "/*/{name}" } }))).toMatchObject({
      rule: "syntax",
      jsonPath: "$",
    });
  });
});

describe("hostile paths and encodings", () => {
  it("matches a template of a thousand * and a ** against 10,000 segments in one pass", () => {
    const t = parseTemplate("/*".repeat(1000) + "/**", "$.get");
    const path = "/a".repeat(10_000);
    const start = performance.now();
    for (let k = 0; k < 20; k++) expect(matchTemplate(t, path)).toEqual([]);
    expect(matchTemplate(t, "/a".repeat(999))).toBeUndefined();
    expect(performance.now() - start).toBeLessThan(1000);
  });

  const bad = ["%FF", "%C0%80", "%ED%A0%80", "%E0%A4", "%", "%2", "%zz", "%F4%90%80%80"];
  it.each(bad)("refuses %s (not UTF-8, or not an escape) in a query value, a query name and a path variable", (x) => {
    const rule = { get: "/e/{name}" };
    const query = (q: string) =>
      catchWkt(() => fromHttpRequest(Everything, { method: "GET", path: "/e/a", query: q }, { rule }));
    expect(query(`name=${x}`)).toMatchObject({ rule: "syntax", detail: expect.stringContaining("?name: malformed") });
    expect(query(`${x}=1`)).toMatchObject({ rule: "syntax", detail: expect.stringContaining("malformed") });
    const single = catchWkt(() => fromHttpRequest(Everything, { method: "GET", path: `/e/a${x}` }, { rule }));
    expect(single).toMatchObject({ rule: "syntax", jsonPath: "$.name", detail: expect.stringContaining("{name}") });
    const multi = catchWkt(() =>
      fromHttpRequest(Everything, { method: "GET", path: `/e/a%2F/${x}` }, { rule: { get: "/e/{name=**}" } }),
    );
    expect(multi).toMatchObject({ rule: "syntax", jsonPath: "$.name" });
  });

  it("refuses a lone surrogate sent unencoded (rule utf16), in the path and the query", () => {
    const rule = { get: "/e/{name}" };
    expect(catchWkt(() => fromHttpRequest(Everything, { method: "GET", path: "/e/\uD800" }, { rule })).rule).toBe(
      "utf16",
    );
    expect(
      catchWkt(() => fromHttpRequest(Everything, { method: "GET", path: "/e/a", query: "json_named=\uDC00" }, { rule }))
        .rule,
    ).toBe("utf16");
  });
});
