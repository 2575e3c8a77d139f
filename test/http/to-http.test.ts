// toHttpRequest (issue 29): a request message to its method, path, query and body under its google.api.http
// rule, percent-encoded as http.proto says, so that fromHttpRequest reads it back (round-trip.prop.ts).
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { fromHttpRequest, fromJson, toHttpRequest } from "../../src/index.js";
import { catchWkt } from "../helpers.js";
import { Everything, GetObjectRequest, httpRegistry, ListBooksRequest, method, UpdateBookRequest } from "./registry.js";

describe("toHttpRequest", () => {
  it("writes the issue's request: path variables, then each remaining field as query parameters", () => {
    const req = fromJson(ListBooksRequest, {
      parent: "shelves/1",
      pageSize: 10,
      readMask: "title,author",
      filter: { createTime: "2024-01-01T00:00:00Z", minPages: 3 },
      tags: ["a", "b"],
      genre: "POETRY",
    });
    expect(toHttpRequest(method("ListBooks"), req)).toEqual({
      method: "GET",
      path: "/v1/shelves/1/books",
      query:
        "pageSize=10&readMask=title%2Cauthor&tags=a&tags=b&filter.createTime=2024-01-01T00%3A00%3A00Z&filter.minPages=3&genre=POETRY",
      url: "/v1/shelves/1/books?pageSize=10&readMask=title%2Cauthor&tags=a&tags=b&filter.createTime=2024-01-01T00%3A00%3A00Z&filter.minPages=3&genre=POETRY",
    });
    expect(toHttpRequest(method("ListBooks"), req, { useProtoFieldName: true, enumAsInteger: true }).query).toBe(
      "page_size=10&read_mask=title%2Cauthor&tags=a&tags=b&filter.create_time=2024-01-01T00%3A00%3A00Z&filter.min_pages=3&genre=2",
    );
  });

  it("percent-encodes a single-segment variable whole, a multi-segment one but its slashes", () => {
    const m = fromJson(GetObjectRequest, { bucket: "b/x y", object: "a/b c+d/é", generation: "7" });
    expect(toHttpRequest(method("GetObject"), m).url).toBe("/v1/b%2Fx%20y/objects/a/b%20c%2Bd/%C3%A9?generation=7");
  });

  it('writes the body field whole (AIP-134: the resource with its name), and with body "*" every field the path leaves', () => {
    const u = fromJson(UpdateBookRequest, { book: { name: "shelves/1/books/2", title: "T" }, updateMask: "title" });
    expect(toHttpRequest(method("UpdateBook"), u)).toEqual({
      method: "PATCH",
      path: "/v1/shelves/1/books/2",
      query: "updateMask=title",
      url: "/v1/shelves/1/books/2?updateMask=title",
      body: { name: "shelves/1/books/2", title: "T" },
    });
    const MoveBook = httpRegistry.getMessage("acme.http.v1.MoveBookRequest")!;
    const mv = fromJson(MoveBook, { name: "shelves/1/books/2", otherShelf: "shelves/3" });
    expect(toHttpRequest(method("MoveBook"), mv)).toMatchObject({
      method: "POST",
      url: "/v1/shelves/1/books/2:move",
      body: { otherShelf: "shelves/3" },
    });
  });

  it("writes maps as ?map[key]=value, Struct and Value as JSON text, a custom method's kind", () => {
    const e = fromJson(Everything, { name: "n", labels: { "a b": "1" }, meta: { k: [1, null] }, anyValue: "s" });
    expect(toHttpRequest(Everything, e, { rule: { get: "/e" } }).query).toBe(
      "name=n&labels%5Ba%20b%5D=1&meta=%7B%22k%22%3A%5B1%2Cnull%5D%7D&anyValue=%22s%22",
    );
    const h = create(method("Head").input, { name: "shelves/1/books/2" } as never);
    expect(toHttpRequest(method("Head"), h).method).toBe("HEAD");
  });

  it.each([
    ["a path-bound field unset", { name: "" }, "required", "$.name"],
    ["a path-bound field off its pattern", { name: "shelves/1" }, "syntax", "$.name"],
  ])("refuses %s (%s at %s)", (_, init, rule, jsonPath) => {
    const m = create(method("GetBook").input, init as never);
    expect(catchWkt(() => toHttpRequest(method("GetBook"), m))).toMatchObject({ rule, jsonPath });
  });

  it("refuses what a query cannot carry: a repeated message field (rule json-type)", () => {
    const H = httpRegistry.getMessage("acme.http.v1.ListBooksResponse")!;
    const r = fromJson(H, { books: [{ title: "x" }] });
    expect(catchWkt(() => toHttpRequest(H, r, { rule: { get: "/b" } }))).toMatchObject({
      rule: "json-type",
      jsonPath: "$.books",
    });
    // In the body it goes whole.
    expect(toHttpRequest(H, r, { rule: { post: "/b", body: "*" } }).body).toEqual({ books: [{ title: "x" }] });
  });

  it("leaves out a message field of the query whose JSON is {} (the one exception to the round trip); a body keeps it", () => {
    const msg = fromJson(Everything, { name: "x", author: {} });
    expect(toHttpRequest(Everything, msg, { rule: { get: "/e/{name}" } }).url).toBe("/e/x");
    expect(toHttpRequest(Everything, msg, { rule: { post: "/e/{name}", body: "*" } }).body).toEqual({ author: {} });
    expect(toHttpRequest(Everything, msg, { rule: { post: "/e/{name}", body: "author" } }).body).toEqual({});
  });

  it("writes a path-bound number, bool or enum at its zero (implicit presence), which reads back the same", () => {
    const zero = fromJson(Everything, {});
    for (const [get, url] of [
      ["/e/{i32}", "/e/0"],
      ["/e/{flag}", "/e/false"],
      ["/e/{genre}", "/e/GENRE_UNSPECIFIED"],
      ["/e/{i64}:do", "/e/0:do"],
    ] as const) {
      const req = toHttpRequest(Everything, zero, { rule: { get } });
      expect(req.url).toBe(url);
      expect(fromHttpRequest(Everything, { method: "GET", path: req.url }, { rule: { get } })).toEqual(zero);
    }
    expect(toHttpRequest(Everything, zero, { rule: { get: "/e/{genre}" }, enumAsInteger: true }).url).toBe("/e/0");
    // A string's zero fills no segment; an unset field of explicit presence has no value.
    expect(catchWkt(() => toHttpRequest(Everything, zero, { rule: { get: "/e/{name}" } })).rule).toBe("required");
    expect(catchWkt(() => toHttpRequest(Everything, zero, { rule: { get: "/e/{opt}" } })).rule).toBe("required");
  });
});
