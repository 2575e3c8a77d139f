// fromHttpRequest (issue 29): path variables, query parameters and the body into the request message, as
// google/api/http.proto's HttpRule maps them (library.proto's rules), with the codec's rules for every value and
// errors that name the parameter as the client wrote it.
import { create, setExtension, type DescExtension, type DescMethod, type JsonValue } from "@bufbuild/protobuf";
import { MethodOptionsSchema } from "@bufbuild/protobuf/wkt";
import { describe, expect, expectTypeOf, it } from "vitest";
import { GetBookRequestSchema, type GetBookRequest as GetBookRequestGen } from "../readme/gen/library_pb.js";
import {
  fromHttpRequest,
  fromJson,
  toHttpRequest,
  httpMaxParamsDefault,
  httpRuleOf,
  toJson,
  type HttpRequest,
  type HttpRequestReadOptions,
} from "../../src/index.js";
import { catchWkt } from "../helpers.js";
import { TestAllRequiredTypesProto2 } from "../conformance-registry.js";
import {
  CreateBookRequest,
  Everything,
  GetBookRequest,
  GetObjectRequest,
  httpRegistry,
  ListBooksRequest,
  message,
  method,
  UpdateBookRequest,
} from "./registry.js";

/** fromHttpRequest over library.proto's descriptors (built at run time, so their messages are untyped). */
const decode = (...args: Parameters<typeof fromHttpRequest>) =>
  fromHttpRequest(...args) as ReturnType<typeof fromHttpRequest> & Record<string, unknown>;

const list = (query: HttpRequest["query"], options?: HttpRequestReadOptions) =>
  toJson(ListBooksRequest, decode(method("ListBooks"), { method: "GET", path: "/v1/shelves/1/books", query }, options));

const every = (query: string, options?: HttpRequestReadOptions) =>
  toJson(Everything, decode(Everything, { method: "GET", path: "/e", query }, { rule: { get: "/e" }, ...options }));

describe("httpRuleOf", () => {
  it("reads google.api.http from a method's options (an extension the registry does not know: unknown fields)", () => {
    expect(httpRuleOf(method("GetBook"))).toEqual({
      get: "/v1/{name=shelves/*/books/*}",
      additionalBindings: [{ get: "/v1/{name=authors/*/books/*}" }],
    });
    expect(httpRuleOf(method("UpdateBook"))).toEqual({ patch: "/v1/{book.name=shelves/*/books/*}", body: "book" });
    expect(httpRuleOf(method("Head"))).toEqual({ custom: { kind: "HEAD", path: "/v1/{name=shelves/*/books/*}" } });
    expect(httpRuleOf(method("Plain"))).toBeUndefined();
  });

  it("reads a rule set with protobuf-es's setExtension from the registry's own extension", () => {
    const ext = httpRegistry.getExtension("google.api.http") as DescExtension;
    const options = create(MethodOptionsSchema);
    const HttpRule = httpRegistry.getMessage("google.api.HttpRule")!;
    setExtension(options, ext, create(HttpRule, { pattern: { case: "post", value: "/v1/x" }, body: "*" }) as never);
    const m = {
      ...method("Plain"),
      proto: { ...method("Plain").proto, options },
    } as typeof method extends () => infer R ? R : never;
    expect(httpRuleOf(m)).toEqual({ post: "/v1/x", body: "*" });
  });

  it("takes a rule as googleapis' generated HttpRule writes it to JSON (the rule's JSON form)", () => {
    const HttpRule = httpRegistry.getMessage("google.api.HttpRule")!;
    const rule = create(HttpRule, {
      pattern: { case: "get", value: "/v1/{name=shelves/*/books/*}" },
      additionalBindings: [create(HttpRule, { pattern: { case: "get", value: "/v2/{name=**}" } })],
    } as never);
    const json = toJson(HttpRule, rule) as HttpRequestReadOptions["rule"];
    const m = decode(GetBookRequest, { method: "GET", path: "/v2/a/b" }, { rule: json });
    expect(m["name"]).toBe("a/b");
  });

  it("types the message from a generated method's input", () => {
    const typed = { ...method("GetBook"), input: GetBookRequestSchema } as DescMethod & {
      readonly input: typeof GetBookRequestSchema;
    };
    const m = fromHttpRequest(typed, { method: "GET", path: "/v1/shelves/1/books/2", query: "readMask=title" });
    expectTypeOf(m).toEqualTypeOf<GetBookRequestGen>();
    expect(m.readMask?.paths).toEqual(["title"]);
  });

  it("refuses option bytes that are not an HttpRule (rule binary)", () => {
    const options = create(MethodOptionsSchema);
    options.$unknown = [{ no: 72295728, wireType: 2, data: new Uint8Array([5, 0x12, 9, 0x2f]) }];
    const m = { ...method("Plain"), proto: { ...method("Plain").proto, options } } as ReturnType<typeof method>;
    expect(catchWkt(() => httpRuleOf(m))).toMatchObject({ rule: "binary", typeName: "google.api.HttpRule" });
    for (const bad of [null, {}, GetBookRequest])
      expect(catchWkt(() => httpRuleOf(bad as never)).rule).toBe("json-type");
  });
});

describe("fromHttpRequest: path variables", () => {
  it("binds a variable of several segments, and picks the first binding that matches (additional_bindings)", () => {
    const get = (path: string) => decode(method("GetBook"), { method: "GET", path }).name;
    expect(get("/v1/shelves/1/books/2")).toBe("shelves/1/books/2");
    expect(get("/v1/authors/a/books/2")).toBe("authors/a/books/2");
  });

  it("decodes a single-segment variable whole (%2F too), and a ** variable except %2F (http.proto)", () => {
    const m = decode(method("GetObject"), { method: "GET", path: "/v1/b%2Fx/objects/a/b%2Fc/d%20e%2f" });
    expect(m).toMatchObject({ bucket: "b/x", object: "a/b%2Fc/d e%2f" });
    expect(decode(method("GetObject"), { method: "GET", path: "/v1/b/objects" }).object).toBe("");
  });

  it("binds a dotted field path, with a verb, and compares the method in upper case", () => {
    const m = decode(method("MoveBook"), { method: "post", path: "/v1/shelves/1/books/2:move" });
    expect(m.name).toBe("shelves/1/books/2");
    const h = decode(method("Head"), { method: "HEAD", path: "/v1/shelves/1/books/2" });
    expect(h.name).toBe("shelves/1/books/2");
  });

  it.each([
    ["GET", "/v1/shelves/1/books"], // one segment short
    ["GET", "/v1/shelves/1/books/2/x"], // one too many
    ["GET", "/v1/shelves//books/2"], // `*` takes no empty segment
    ["POST", "/v1/shelves/1/books/2"], // the rule's method is GET
    ["GET", "v1/shelves/1/books/2"], // not from the root
    ["GET", "/v1/shelves/1/books/2:move"], // a verb the rule lacks is part of the segment, which still matches...
  ])("refuses %s %s: no binding matches (rule syntax, at $)", (m, path) => {
    if (path.endsWith(":move")) {
      expect(decode(method("GetBook"), { method: m, path }).name).toBe("shelves/1/books/2:move");
      return;
    }
    expect(catchWkt(() => decode(method("GetBook"), { method: m, path }))).toMatchObject({
      rule: "syntax",
      jsonPath: "$",
      typeName: "acme.http.v1.GetBookRequest",
    });
  });

  it("names the variable of a malformed percent-encoding", () => {
    const e = catchWkt(() => decode(method("GetObject"), { method: "GET", path: "/v1/%E0%A4%A/objects/x" }));
    expect(e).toMatchObject({ rule: "syntax", jsonPath: "$.bucket" });
    expect(e.detail).toContain("path variable {bucket}");
  });

  it("reports a path variable's bad value with the codec's rule, naming the variable", () => {
    const e = catchWkt(() =>
      decode(GetObjectRequest, { method: "GET", path: "/o/x" }, { rule: { get: "/o/{generation}" } }),
    );
    expect(e).toMatchObject({ rule: "syntax", jsonPath: "$.generation" });
    expect(e.detail).toMatch(/^path variable \{generation\}: /);
  });
});

describe("fromHttpRequest: query parameters", () => {
  it("reads the issue's example: WKTs in their JSON string forms, dotted paths, repetition", () => {
    expect(list("read_mask=title,author&filter.create_time=2024-01-01T00:00:00Z&page_size=10&tags=a&tags=b")).toEqual({
      parent: "shelves/1",
      pageSize: 10,
      readMask: "title,author",
      tags: ["a", "b"],
      filter: { createTime: "2024-01-01T00:00:00Z" },
    });
  });

  it("takes proto names and JSON names at each dot (grpc-gateway), and a ? before the query", () => {
    expect(
      list("?pageSize=3&filter.maxAge=1.5s&filter.min_pages=7&filter.inPrint=true&filter.author.given_name=U"),
    ).toEqual({
      parent: "shelves/1",
      pageSize: 3,
      filter: { maxAge: "1.500s", minPages: 7, inPrint: true, author: { givenName: "U" } },
    });
  });

  it("takes the query in the path, a URLSearchParams, and a record of strings and lists", () => {
    const fromPath = decode(method("ListBooks"), { method: "GET", path: "/v1/shelves/1/books?tags=a&tags=b" });
    expect(fromPath.tags).toEqual(["a", "b"]);
    expect(
      list(
        new URLSearchParams([
          ["tags", "a"],
          ["tags", "b"],
          ["page_size", "2"],
        ]),
      ),
    ).toMatchObject({ tags: ["a", "b"], pageSize: 2 });
    expect(list(new Map([["tags", "a"]]))).toMatchObject({ tags: ["a"] });
    expect(catchWkt(() => list(new Map([["tags", 1]]) as never))).toMatchObject({ rule: "json-type" });
    expect(list({ tags: ["a", "b"], page_size: "2", page_token: undefined })).toMatchObject({
      tags: ["a", "b"],
      pageSize: 2,
    });
  });

  it("reads + as a space and decodes escapes (application/x-www-form-urlencoded)", () => {
    expect(list("page_token=a+b%2Bc%26d%3D")).toMatchObject({ pageToken: "a b+c&d=" });
  });

  it("reads enums by name or number, bools as Go's ParseBool, bytes as base64 or base64url, wrappers as their scalar", () => {
    expect(list("genre=POETRY")).toMatchObject({ genre: "POETRY" });
    expect(list("genre=1")).toMatchObject({ genre: "FICTION" });
    expect(list("show_deleted=1")).toMatchObject({ showDeleted: true });
    expect(list("show_deleted=False")).toMatchObject({});
    expect(every("data=-_8&bytesWrap=%2B%2F8%3D")).toEqual({ data: "+/8=", bytesWrap: "+/8=" });
    expect(every("dWrap=-1&i64Wrap=9007199254740993&bWrap=false&sWrap=")).toMatchObject({
      i64Wrap: "9007199254740993",
      bWrap: false,
      sWrap: "",
    });
    expect(every("dbl=NaN&flt=-Infinity&i64=-9223372036854775808&u64=18446744073709551615")).toMatchObject({
      dbl: "NaN",
      flt: "-Infinity",
      i64: "-9223372036854775808",
      u64: "18446744073709551615",
    });
  });

  it("reads map entries as ?map[key]=value (grpc-gateway), Struct and Value as their JSON text", () => {
    expect(
      every("labels[team name]=a&labels[x.y]=b&ranks[3]=POETRY&meta=%7B%22a%22%3A%5B1%5D%7D&anyValue=%22s%22"),
    ).toEqual({
      labels: { "team name": "a", "x.y": "b" },
      ranks: { "3": "POETRY" },
      meta: { a: [1] },
      anyValue: "s",
    });
  });

  it("reads a oneof member, and refuses two (the codec's rule oneof, naming the second parameter)", () => {
    expect(every("choiceB=2")).toEqual({ choiceB: 2 });
    const e = catchWkt(() => every("choice_a=x&choice_b=2"));
    expect(e).toMatchObject({ rule: "oneof" });
    expect(e.detail).toContain("query parameter ?choice_");
  });

  it.each([
    // [query, rule, jsonPath, parameter named in the detail]
    ["read_mask=a&read_mask=b", "duplicate-field", "$.readMask", "?read_mask"],
    ["parent=shelves/2", "duplicate-field", "$.parent", "?parent"],
    ["nope=1", "unknown-field", "$.nope", "?nope"],
    ["filter.nope=1", "unknown-field", "$.filter.nope", "?filter.nope"],
    ["filter=x", "json-type", "$.filter", "?filter"],
    ["tags.x=1", "syntax", "$.tags", "?tags.x"],
    ["filter.create_time.seconds=1", "syntax", "$.filter.createTime", "?filter.create_time.seconds"],
    ["tags[a]=1", "syntax", "$.tags", "?tags[a]"],
    ["page_size=x", "syntax", "$.pageSize", "?page_size"],
    ["page_size=2147483648", "range", "$.pageSize", "?page_size"],
    ["filter.create_time=yesterday", "syntax", "$.filter.createTime", "?filter.create_time"],
    ["filter.max_age=1", "syntax", "$.filter.maxAge", "?filter.max_age"],
    ["filter.min_pages=1.5", "syntax", "$.filter.minPages", "?filter.min_pages"],
    ["genre=EPIC", "enum", "$.genre", "?genre"],
    ["show_deleted=yes", "syntax", "$.showDeleted", "?show_deleted"],
    ["%zz=1", "syntax", "$", "?%zz"],
    ["read_mask=a..b", "mask-path", "$.readMask", "?read_mask"],
  ])("refuses ?%s (%s at %s)", (query, rule, jsonPath, param) => {
    const e = catchWkt(() => list(query));
    expect({ rule: e.rule, jsonPath: e.jsonPath }).toEqual({ rule, jsonPath });
    expect(e.detail).toContain(`query parameter ${param}`);
  });

  it("refuses a repeated message field, a map without [key], a map key twice", () => {
    const H = httpRegistry.getMessage("acme.http.v1.ListBooksResponse")!;
    expect(
      catchWkt(() => decode(H, { method: "GET", path: "/", query: "books=x" }, { rule: { get: "/" } })),
    ).toMatchObject({
      rule: "json-type",
      jsonPath: "$.books",
    });
    expect(catchWkt(() => every("labels=a"))).toMatchObject({ rule: "json-type", jsonPath: "$.labels" });
    expect(catchWkt(() => every("labels[a]=1&labels[a]=2"))).toMatchObject({
      rule: "duplicate-field",
      jsonPath: "$.labels.a",
    });
  });

  it("skips unknown parameters with ignoreUnknownFields (and unknown enum names, as the codec does)", () => {
    expect(list("nope=1&filter.nope=2&genre=EPIC&page_size=1", { ignoreUnknownFields: true })).toEqual({
      parent: "shelves/1",
      pageSize: 1,
    });
  });

  it("keeps __proto__ as data: a parameter that names no field, a map key that is a key", () => {
    expect(catchWkt(() => list("__proto__=1"))).toMatchObject({ rule: "unknown-field" });
    expect(catchWkt(() => list("__proto__.polluted=1"))).toMatchObject({ rule: "unknown-field" });
    expect(list({ ["__proto__"]: "1" } as never, { ignoreUnknownFields: true })).toEqual({ parent: "shelves/1" });
    const json = every("labels[__proto__]=x&labels[constructor]=y");
    expect(Object.getPrototypeOf(json)).toBe(Object.prototype);
    expect((json as { labels: Record<string, string> }).labels).toEqual(
      JSON.parse('{"__proto__":"x","constructor":"y"}'),
    );
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
  });
});

describe("fromHttpRequest: the body", () => {
  it('body "field": the body is that field; the path binds a field inside it (AIP-134), equal or absent there', () => {
    const update = (req: Partial<HttpRequest>) =>
      toJson(
        UpdateBookRequest,
        decode(method("UpdateBook"), { method: "PATCH", path: "/v1/shelves/1/books/2", ...req }),
      );
    expect(update({ body: { title: "T" }, query: "update_mask=title" })).toEqual({
      book: { name: "shelves/1/books/2", title: "T" },
      updateMask: "title",
    });
    expect(update({ bodyText: '{"name": "shelves/1/books/2", "title": "T"}' })).toEqual({
      book: { name: "shelves/1/books/2", title: "T" },
    });
    expect(update({ body: { name: "" } })).toEqual({ book: { name: "shelves/1/books/2" } });
    expect(update({ body: null })).toEqual({ book: { name: "shelves/1/books/2" } });
  });

  it("refuses a body that gives a path-bound field another value, and a parameter naming the body field", () => {
    const e = catchWkt(() =>
      decode(method("UpdateBook"), {
        method: "PATCH",
        path: "/v1/shelves/1/books/2",
        body: { name: "shelves/1/books/3" },
      }),
    );
    expect(e).toMatchObject({ rule: "duplicate-field", jsonPath: "$.book.name" });
    expect(
      catchWkt(() =>
        decode(method("UpdateBook"), {
          method: "PATCH",
          path: "/v1/shelves/1/books/2",
          query: "book.title=x",
        }),
      ),
    ).toMatchObject({ rule: "duplicate-field", jsonPath: "$.book" });
  });

  it("refuses a oneof sibling of a path-bound member, from the query or the body (aspnetcore #68639)", () => {
    const rule = { post: "/e/{choice_a}", body: "*" };
    const e = catchWkt(() =>
      decode(Everything, { method: "GET", path: "/e/x", query: "choice_b=2" }, { rule: { get: "/e/{choice_a}" } }),
    );
    expect(e).toMatchObject({ rule: "oneof" });
    expect(
      catchWkt(() => decode(Everything, { method: "POST", path: "/e/x", body: { choiceB: 2 } }, { rule })),
    ).toMatchObject({
      rule: "oneof",
      jsonPath: "$.choiceA",
    });
    expect(
      toJson(
        Everything,
        decode(Everything, { method: "POST", path: "/e/x", body: { choiceA: "x", i32: 1 } }, { rule }),
      ),
    ).toEqual({
      choiceA: "x",
      i32: 1,
    });
  });

  it("reports a body text's errors at the field's path with the line and column of the text", () => {
    const e = catchWkt(() =>
      decode(method("CreateBook"), {
        method: "POST",
        path: "/v1/shelves/1/books",
        bodyText: '{\n  "title": 5}',
      }),
    );
    expect(e).toMatchObject({ rule: "json-type", jsonPath: "$.book.title", line: 2, column: 12 });
    const first = catchWkt(() =>
      decode(method("CreateBook"), { method: "POST", path: "/v1/shelves/1/books", bodyText: '{"title": 5}' }),
    );
    expect(first).toMatchObject({ line: 1, column: 11 });
  });

  it("reads a body text as one JSON value: it cannot close the member it is put in", () => {
    const e = catchWkt(() =>
      decode(method("CreateBook"), {
        method: "POST",
        path: "/v1/shelves/1/books",
        bodyText: '{"title": "x"}, "parent": "shelves/9"',
      }),
    );
    expect(e.rule).toBe("syntax");
  });

  it('body "*": every field the path leaves is in the body; a query parameter is refused, or skipped', () => {
    const move = (req: Partial<HttpRequest>, options?: HttpRequestReadOptions) =>
      decode(method("MoveBook"), { method: "POST", path: "/v1/shelves/1/books/2:move", ...req }, options);
    expect(move({ bodyText: " \n" })).toMatchObject({ name: "shelves/1/books/2", otherShelf: "" });
    expect(move({ bodyText: '{"otherShelf": "shelves/3"}' })).toMatchObject({
      name: "shelves/1/books/2",
      otherShelf: "shelves/3",
    });
    expect(catchWkt(() => move({ query: "other_shelf=x" }))).toMatchObject({ rule: "unknown-field", jsonPath: "$" });
    expect(move({ query: "other_shelf=x" }, { ignoreUnknownFields: true }).otherShelf).toBe("");
  });

  it("refuses a body where the rule has none, but takes an empty one", () => {
    expect(
      catchWkt(() =>
        decode(method("ListBooks"), { method: "GET", path: "/v1/shelves/1/books", body: { pageSize: 1 } }),
      ),
    ).toMatchObject({
      rule: "unknown-field",
      jsonPath: "$",
    });
    for (const body of [{}, null]) {
      expect(decode(method("ListBooks"), { method: "GET", path: "/v1/shelves/1/books", body }).parent).toBe(
        "shelves/1",
      );
    }
    expect(decode(method("ListBooks"), { method: "GET", path: "/v1/shelves/1/books", bodyText: " " }).parent).toBe(
      "shelves/1",
    );
    for (const bodyText of [" {} ", ""]) {
      expect(decode(method("ListBooks"), { method: "GET", path: "/v1/shelves/1/books", bodyText }).parent).toBe(
        "shelves/1",
      );
    }
    expect(
      catchWkt(() =>
        decode(method("ListBooks"), { method: "GET", path: "/v1/shelves/1/books", bodyText: '{"pageSize": 1}' }),
      ),
    ).toMatchObject({ rule: "unknown-field", jsonPath: "$" });
  });
});

describe("fromHttpRequest: bounds and options", () => {
  it("bounds the path and query (maxLength), the parameters (maxParams), the dotted names (maxDepth)", () => {
    const path = "/v1/shelves/1/books";
    expect(list("page_token=" + "x".repeat(100), { maxLength: 200 })).toMatchObject({ pageToken: "x".repeat(100) });
    expect(catchWkt(() => list("page_token=" + "x".repeat(200), { maxLength: 200 }))).toMatchObject({
      rule: "size",
      jsonPath: "$",
    });
    expect(catchWkt(() => list({ page_token: "x".repeat(200) }, { maxLength: 200 }))).toMatchObject({ rule: "size" });
    expect(catchWkt(() => list("tags=a&tags=b&tags=c", { maxParams: 2 }))).toMatchObject({ rule: "size" });
    expect(list("tags=a&tags=b", { maxParams: 2 })).toMatchObject({ tags: ["a", "b"] });
    expect(catchWkt(() => list(new URLSearchParams("tags=a&tags=b&tags=c"), { maxParams: 2 }))).toMatchObject({
      rule: "size",
    });
    const many = Array.from({ length: httpMaxParamsDefault + 1 }, () => "tags=a").join("&");
    expect(catchWkt(() => list(many))).toMatchObject({ rule: "size" });
    expect(catchWkt(() => list("filter.author.given_name=x", { maxDepth: 2 }))).toMatchObject({ rule: "depth" });
    expect(list("filter.author.given_name=x", { maxDepth: 3 })).toMatchObject({
      filter: { author: { givenName: "x" } },
    });
    expect(
      catchWkt(() => decode(method("ListBooks"), { method: "GET", path: path + "/".repeat(70_000) })),
    ).toMatchObject({ rule: "size" });
  });

  it("stops hostile shapes with its own errors: deep JSON text in a parameter, long dotted names, empty parts", () => {
    const deep = "[".repeat(20_000) + "]".repeat(20_000);
    const e = catchWkt(() => every("meta=" + encodeURIComponent(`{"a":${deep}}`), { maxLength: Infinity }));
    expect(e).toMatchObject({ rule: "depth" });
    expect(e.detail).toContain("query parameter ?meta");
    expect(catchWkt(() => list("a" + ".a".repeat(30_000) + "=1"))).toMatchObject({ rule: "depth" });
    expect(list("&".repeat(60_000))).toEqual({ parent: "shelves/1" });
    expect(list("__proto__.x=1&constructor.prototype.x=1", { ignoreUnknownFields: true })).toEqual({
      parent: "shelves/1",
    });
    expect(({} as Record<string, unknown>)["x"]).toBeUndefined();
  });

  it.each([
    ["maxLength", -1],
    ["maxParams", 1.5],
    ["maxDepth", Infinity],
  ])("checks the option %s = %s (rule range, type options)", (name, value) => {
    expect(catchWkt(() => list("", { [name]: value }))).toMatchObject({ rule: "range", typeName: "options" });
  });

  it("refuses requests and queries of the wrong type with WktJsonError, never a TypeError", () => {
    for (const bad of [null, 1, { method: "GET" }, { method: 1, path: "/" }]) {
      expect(catchWkt(() => decode(method("ListBooks"), bad as never)).rule).toBe("json-type");
    }
    expect(catchWkt(() => list(5 as never)).rule).toBe("json-type");
    expect(catchWkt(() => list({ tags: [1] } as never)).rule).toBe("json-type");
    expect(catchWkt(() => decode(GetBookRequest, { method: "GET", path: "/" })).rule).toBe("syntax");
    expect(catchWkt(() => decode(method("Plain"), { method: "GET", path: "/" })).typeName).toBe("google.api.HttpRule");
  });

  it("decodes a create request with its body", () => {
    const m = decode(method("CreateBook"), {
      method: "POST",
      path: "/v1/shelves/1/books",
      query: "book_id=b1",
      body: { title: "T", tags: ["x"] } satisfies JsonValue,
    });
    expect(toJson(CreateBookRequest, m)).toEqual({
      parent: "shelves/1",
      book: { title: "T", tags: ["x"] },
      bookId: "b1",
    });
  });

  it("checks proto2 required fields of the whole request, body or not, as fromJson does (allowPartial skips it)", () => {
    const R = TestAllRequiredTypesProto2;
    const post = (body: JsonValue, rule: HttpRequestReadOptions["rule"], options: HttpRequestReadOptions = {}) =>
      fromHttpRequest(R, { method: "POST", path: "/x", body }, { rule, ...options });
    const all = catchWkt(() => post({}, { post: "/x", body: "*" }));
    expect([all.rule, all.jsonPath]).toEqual(["required", "$.requiredInt32"]);
    expect(all.detail).toContain("allowPartial accepts it");
    expect(catchWkt(() => post({ requiredInt32: 1 }, { post: "/x", body: "*" })).jsonPath).toBe("$.requiredInt64");
    // The body field is given, but the required fields of the request itself are not.
    expect(catchWkt(() => post({}, { post: "/x", body: "requiredNestedMessage" })).rule).toBe("required");
    expect(post({}, { post: "/x", body: "*" }, { allowPartial: true })).toBeDefined();
    // Without a body, the codec's own check, as before.
    expect(catchWkt(() => fromHttpRequest(R, { method: "GET", path: "/x" }, { rule: { get: "/x" } })).rule).toBe(
      "required",
    );
  });

  it("says whether a request that matches no binding is a 404 or a 405", () => {
    const rule = { get: "/v1/{name=shelves/*}", additionalBindings: [{ delete: "/v1/{name=shelves/*}" }] };
    const e405 = catchWkt(() => decode(GetBookRequest, { method: "PUT", path: "/v1/shelves/1" }, { rule }));
    expect([e405.rule, e405.jsonPath]).toEqual(["syntax", "$"]);
    expect(e405.detail).toContain("the path matches for GET, DELETE only (a server answers 405 Method Not Allowed)");
    const e404 = catchWkt(() => decode(GetBookRequest, { method: "GET", path: "/v2/shelves/1" }, { rule }));
    expect(e404.detail).toContain("no binding has this path (a server answers 404 Not Found)");
  });

  it("refuses a query that is a list, a list longer than maxParams, and one whose reading throws, as our error", () => {
    const a = catchWkt(() => list(["page_size=1"] as never));
    expect([a.rule, a.detail]).toEqual([
      "json-type",
      "query: expected a query string, a URLSearchParams or a record of strings, got an array",
    ]);
    const long = catchWkt(() => list({ tags: Array<string>(httpMaxParamsDefault + 1).fill("a") }));
    expect([long.rule, long.detail]).toEqual(["size", "the query has more than maxParams (1,000) parameters"]);
    const getter = {
      get tags(): string {
        throw new Error("boom");
      },
    };
    expect(catchWkt(() => list(getter)).detail).toBe("query: cannot be read (reading it threw Error)");
    const forEach = () => {
      throw new RangeError("x");
    };
    expect(catchWkt(() => list({ forEach } as never)).rule).toBe("json-type");
  });

  it("cuts a long parameter name in its error's detail", () => {
    const name = "x".repeat(50_000);
    const e = catchWkt(() => list(`${name}=1`));
    expect(e.rule).toBe("unknown-field");
    expect(e.detail.length).toBeLessThan(400);
    expect(e.detail.startsWith(`query parameter ?${"x".repeat(100)}…: `)).toBe(true);
    expect(catchWkt(() => list(`${name}=%zz`)).detail.length).toBeLessThan(400);
  });

  it("refuses a rule whose path variables name one field twice (by its proto and its JSON name)", () => {
    for (const get of ["/e/{json_named}/{renamed}", "/e/{author.given_name}/{author.givenName}"]) {
      const e = catchWkt(() => decode(Everything, { method: "GET", path: "/e/x/y" }, { rule: { get } }));
      expect(e).toMatchObject({ rule: "syntax", jsonPath: "$.get", typeName: "google.api.HttpRule" });
      expect(e.detail).toContain("name the same field");
    }
  });

  it("bounds a rule's additional bindings before walking them (a sparse list of 2^32 - 1 holes)", () => {
    const rule = { get: "/e", additionalBindings: new Array<never>(2 ** 32 - 1) };
    const e = catchWkt(() => decode(Everything, { method: "GET", path: "/e" }, { rule }));
    expect(e).toMatchObject({ rule: "syntax", jsonPath: "$.additionalBindings", typeName: "google.api.HttpRule" });
  });

  it("reads fields whose JSON names are Object.prototype's members (constructor, toString, valueOf) as fields", () => {
    const O = message("ObjectNames");
    const rule = { get: "/o/{to_string.given_name}" };
    const query = "constructor=a&constructor=b&toString.family_name=f&valueOf[k]=v&hasOwnProperty=h&__proto__=5";
    const m = fromHttpRequest(O, { method: "GET", path: "/o/g", query }, { rule });
    const json = {
      constructor: ["a", "b"],
      toString: { givenName: "g", familyName: "f" },
      valueOf: { k: "v" },
      hasOwnProperty: "h",
      Proto: 5,
    };
    expect(toJson(O, m)).toEqual(json);
    expect(Object.keys(Object.prototype.toString)).toEqual([]);
    expect(Object.keys(Object.prototype.valueOf)).toEqual([]);
    // And back: the writer's JSON has those members as its own, or not at all.
    const req = toHttpRequest(O, m, { rule });
    expect(toJson(O, fromHttpRequest(O, { method: "GET", path: req.url }, { rule }))).toEqual(json);
    const empty = catchWkt(() => toHttpRequest(O, fromJson(O, {}), { rule }));
    expect([empty.rule, empty.jsonPath]).toEqual(["required", "$.toString.givenName"]);
  });
});
