// createTypeResolver against a real HTTP server on 127.0.0.1 (never the network). Spec rule 2: no scheme means
// https, so the resolver asks for https://127.0.0.1:<port>/...; the injected fetch sends those to the plain-HTTP
// test server (the one place the tests bend the URL), and records every URL it is given. The hostile side
// (origins, timeouts, body size, concurrency, uniform errors) is in test/hostile/resolver-reach.test.ts.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { create, toBinary, type DescMessage } from "@bufbuild/protobuf";
import {
  AnySchema,
  DurationSchema,
  EnumSchema,
  Field_Cardinality,
  Field_Kind,
  Syntax,
  TimestampSchema,
  TypeSchema,
  type Enum,
  type Type,
} from "@bufbuild/protobuf/wkt";
import fc from "fast-check";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { anyPack } from "../src/wkt/any.js";
import { typesFromDescriptors } from "../src/descriptors/descriptors.js";
import { isWktJsonError, type WktJsonError } from "../src/errors.js";
import { fromJson } from "../src/codec/from-json.js";
import { toJson } from "../src/codec/to-json.js";
import {
  createTypeResolver as createResolver,
  type TypeFetch,
  type TypeResolverCache,
  type TypeResolverOptions,
} from "../src/descriptors/type-resolver.js";
import { arbMessage } from "./arbitrary.js";
import { TestAllTypesProto2, TestAllTypesProto3, testRegistry } from "./conformance-registry.js";

let server: Server;
let host: string; // "127.0.0.1:<port>"
const routes = new Map<string, { status: number; body: Uint8Array | string }>();
let served: string[] = []; // request paths, in order
let fetched: string[] = []; // URLs given to the injected fetch

const localFetch: TypeFetch = (url, init) => {
  fetched.push(url);
  return fetch(url.replace(`https://${host}/`, `http://${host}/`), init);
};

function handle(req: IncomingMessage, res: ServerResponse): void {
  const path = req.url ?? "";
  served.push(path);
  const route = routes.get(path);
  if (route === undefined) {
    res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    return;
  }
  const binary = typeof route.body !== "string";
  res.writeHead(route.status, { "content-type": binary ? "application/x-protobuf" : "text/html" }).end(route.body);
}

function serveType(type: Type): void {
  routes.set(`/types/${type.name}`, { status: 200, body: toBinary(TypeSchema, type) });
}

function serveEnum(e: Enum): void {
  routes.set(`/types/${e.name}`, { status: 200, body: toBinary(EnumSchema, e) });
}

function serveSet(desc: DescMessage): { types: Type[]; enums: Enum[] } {
  const set = typesFromDescriptors(desc, { typeUrlPrefix: `${host}/types` });
  set.types.forEach(serveType);
  set.enums.forEach(serveEnum);
  return set;
}

function typeWith(name: string, refs: Array<[string, Field_Kind, string]>, fileName = ""): Type {
  return create(TypeSchema, {
    name,
    fields: refs.map(([fieldName, kind, typeUrl], i) => ({
      name: fieldName,
      number: i + 1,
      kind,
      cardinality: Field_Cardinality.OPTIONAL,
      typeUrl,
      jsonName: fieldName,
    })),
    sourceContext: { fileName },
    syntax: Syntax.PROTO3,
  });
}

async function rejection(p: Promise<unknown>): Promise<WktJsonError> {
  try {
    await p;
  } catch (e) {
    if (isWktJsonError(e)) return e;
    throw new Error(`expected a WktJsonError, got ${String(e)}`, { cause: e });
  }
  throw new Error("expected a rejection");
}

let proto3: { types: Type[]; enums: Enum[] };

// The global fetch is a TypeFetch.
const globalFetch: TypeFetch = fetch;
void globalFetch;

/** A resolver allowed to fetch from the test server, under the scheme the type URLs give (https by default). */
function createTypeResolver(options?: TypeResolverOptions, scheme = "https") {
  return createResolver({ origins: [`${scheme}://${host}`], ...options });
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  proto3 = serveSet(TestAllTypesProto3);
  serveSet(TestAllTypesProto2);
  // Two types referencing each other from two source files, and a chain A -> B -> C for the maxTypes limit.
  serveType(typeWith("acme.Ping", [["pong", Field_Kind.TYPE_MESSAGE, `${host}/types/acme.Pong`]], "acme/ping.proto"));
  serveType(
    typeWith(
      "acme.Pong",
      [
        ["ping", Field_Kind.TYPE_MESSAGE, `${host}/types/acme.Ping`],
        ["at", Field_Kind.TYPE_MESSAGE, `${host}/types/google.protobuf.Timestamp`],
      ],
      "acme/pong.proto",
    ),
  );
  serveType(typeWith("acme.HasMissing", [["gone", Field_Kind.TYPE_MESSAGE, `${host}/types/acme.Missing`]]));
  serveType(typeWith("acme.HasBadUrl", [["bad", Field_Kind.TYPE_MESSAGE, `${host}/types/`]]));
  serveType(typeWith("acme.HasWrongKind", [["e", Field_Kind.TYPE_ENUM, `${host}/types/acme.Ping`]]));
  routes.set("/types/acme.Html", { status: 200, body: "<!doctype html><html><body>types</body></html>" });
  routes.set("/types/acme.Empty", { status: 200, body: new Uint8Array(0) });
  routes.set("/types/acme.Wrong", { status: 200, body: toBinary(TypeSchema, typeWith("acme.Other", [])) });
  routes.set("/types/acme.Boom", { status: 500, body: "internal error" });
  // Served with an explicit http:// scheme in its own URLs, for the default (global) fetch.
  serveType(typeWith("acme.Plain", [["next", Field_Kind.TYPE_MESSAGE, `http://${host}/types/acme.PlainNext`]]));
  serveType(typeWith("acme.PlainNext", []));
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

beforeEach(() => {
  served = [];
  fetched = [];
});

describe("createTypeResolver", () => {
  it("fetches a type and everything it references, and the codec reads and writes through the registry", async () => {
    const registry = await createTypeResolver({ fetch: localFetch }).resolve(
      `${host}/types/protobuf_test_messages.proto3.TestAllTypesProto3`,
    );
    const schema = registry.getMessage("protobuf_test_messages.proto3.TestAllTypesProto3");
    expect(schema).toBeDefined();
    // Rule 2: no scheme means https.
    expect(fetched[0]).toBe(`https://${host}/types/protobuf_test_messages.proto3.TestAllTypesProto3`);
    // One request per message and enum type of the closure (map entries included), none for well-known types.
    expect(served.length).toBe(proto3.types.length + proto3.enums.length);
    expect(new Set(served).size).toBe(served.length);
    expect(served.some((p) => p.includes("google.protobuf."))).toBe(false);
    const s = schema as DescMessage;
    fc.assert(
      fc.property(
        arbMessage(TestAllTypesProto3, {
          maxDepth: 2,
          anyTypes: [TimestampSchema, DurationSchema, TestAllTypesProto3],
        }),
        (m) => {
          const json = toJson(TestAllTypesProto3, m as never, { registry: testRegistry });
          const decoded = fromJson(s, json, { registry });
          expect(decoded).toEqual(m);
          expect(toJson(s, decoded, { registry })).toEqual(json);
        },
      ),
      { numRuns: 25 },
    );
    // An Any holding the type, read through the resolved registry.
    const any = anyPack(
      TestAllTypesProto3,
      fromJson(TestAllTypesProto3, { optionalInt32: 7 }, { registry: testRegistry }),
      { typeUrlPrefix: `${host}/types` },
    );
    expect(toJson(AnySchema, any, { registry })).toEqual({
      "@type": `${host}/types/protobuf_test_messages.proto3.TestAllTypesProto3`,
      optionalInt32: 7,
    });
  });

  it("fetches enum types as google.protobuf.Enum", async () => {
    const registry = await createTypeResolver({ fetch: localFetch }).resolve(
      `${host}/types/protobuf_test_messages.proto2.TestAllTypesProto2`,
    );
    expect(registry.getEnum("protobuf_test_messages.proto2.ForeignEnumProto2")?.open).toBe(false);
    expect(
      registry.getEnum("protobuf_test_messages.proto2.TestAllTypesProto2.NestedEnum")?.values.map((v) => v.name),
    ).toEqual(["FOO", "BAR", "BAZ", "NEG"]);
  });

  it("follows a cycle of types referencing each other, fetching each once", async () => {
    const registry = await createTypeResolver({ fetch: localFetch }).resolve(`${host}/types/acme.Ping`);
    expect(served).toEqual(["/types/acme.Ping", "/types/acme.Pong"]);
    const ping = registry.getMessage("acme.Ping") as DescMessage;
    expect(ping.field["pong"]?.message?.field["ping"]?.message).toBe(ping);
    expect(toJson(ping, fromJson(ping, { pong: { ping: { pong: { at: "2024-01-01T00:00:00Z" } } } }))).toEqual({
      pong: { ping: { pong: { at: "2024-01-01T00:00:00Z" } } },
    });
  });

  describe("cache", () => {
    it("serves a second resolution from the cache (no requests)", async () => {
      const resolver = createTypeResolver({ fetch: localFetch });
      await resolver.resolve(`${host}/types/acme.Ping`);
      expect(served.length).toBe(2);
      const again = await resolver.resolve(`${host}/types/acme.Ping`);
      expect(served.length).toBe(2);
      expect(again.getMessage("acme.Pong")).toBeDefined();
      // The types a first resolution fetched serve another root that references them.
      await resolver.resolve(`https://${host}/types/acme.Pong`);
      expect(served.length).toBe(2);
    });

    it("dedupes concurrent resolutions", async () => {
      const resolver = createTypeResolver({ fetch: localFetch });
      const url = `${host}/types/protobuf_test_messages.proto3.TestAllTypesProto3`;
      await Promise.all([resolver.resolve(url), resolver.resolve(url), resolver.resolve(url)]);
      expect(served.length).toBe(proto3.types.length + proto3.enums.length);
    });

    it("shares a cache given by the caller, and fetches every time with cache: false", async () => {
      const cache: TypeResolverCache = new Map<string, Type | Enum>();
      await createTypeResolver({ fetch: localFetch, cache }).resolve(`${host}/types/acme.Ping`);
      await createTypeResolver({ fetch: localFetch, cache }).resolve(`${host}/types/acme.Ping`);
      expect(served.length).toBe(2);
      const uncached = createTypeResolver({ fetch: localFetch, cache: false });
      await uncached.resolve(`${host}/types/acme.Ping`);
      await uncached.resolve(`${host}/types/acme.Ping`);
      expect(served.length).toBe(6);
    });

    it("does not cache failures", async () => {
      const resolver = createTypeResolver({ fetch: localFetch });
      await rejection(resolver.resolve(`${host}/types/acme.Later`));
      routes.set("/types/acme.Later", { status: 200, body: toBinary(TypeSchema, typeWith("acme.Later", [])) });
      try {
        const registry = await resolver.resolve(`${host}/types/acme.Later`);
        expect(registry.getMessage("acme.Later")).toBeDefined();
        expect(served).toEqual(["/types/acme.Later", "/types/acme.Later"]);
      } finally {
        routes.delete("/types/acme.Later");
      }
    });
  });

  it("needs no request for a type it knows", async () => {
    const resolver = createTypeResolver({ fetch: localFetch, registry: testRegistry });
    expect(
      (await resolver.resolve(`${host}/types/google.protobuf.Duration`)).getMessage("google.protobuf.Duration"),
    ).toBeDefined();
    expect(
      (await resolver.resolve(`${host}/types/protobuf_test_messages.proto3.ForeignMessage`)).getMessage(
        "protobuf_test_messages.proto3.ForeignMessage",
      ),
    ).toBeDefined();
    expect(served).toEqual([]);
  });

  it("uses the global fetch by default, and http:// URLs as given", async () => {
    const registry = await createTypeResolver({}, "http").resolve(`http://${host}/types/acme.Plain`);
    expect(registry.getMessage("acme.Plain")?.field["next"]?.message?.typeName).toBe("acme.PlainNext");
    expect(served).toEqual(["/types/acme.Plain", "/types/acme.PlainNext"]);
  });

  // The detail names the URL and the referring field, and nothing of the answer (no status, no status text, no
  // body): test/hostile/resolver-reach.test.ts checks that every kind of failure gives the same detail.
  it.each<[string, string, string, string[]]>([
    ["a 404 for the type", "acme.Nowhere", "$", ["https://HOST/types/acme.Nowhere"]],
    [
      "a 404 for a referenced type",
      "acme.HasMissing",
      "$.fields[0].typeUrl",
      ["https://HOST/types/acme.Missing", "acme.HasMissing.gone"],
    ],
    ["a 500", "acme.Boom", "$", ["https://HOST/types/acme.Boom"]],
  ])("rejects %s (fetch)", async (_, name, path, details) => {
    const e = await rejection(createTypeResolver({ fetch: localFetch }).resolve(`${host}/types/${name}`));
    expect(e).toMatchObject({ rule: "fetch", jsonPath: path, typeName: "google.protobuf.Type" });
    for (const d of details) expect(e.detail).toContain(d.replace("HOST", host));
    // The server's address is named; its ephemeral port may hold "404" or "500" by chance, so it is left out.
    const said = e.message.split(host).join("HOST");
    for (const leak of ["404", "500", "Not Found", "Internal", "not found", "internal error"])
      expect(said).not.toContain(leak);
    expect(e.cause).toBeUndefined();
  });

  it.each([
    ["an HTML page", "acme.Html"],
    ["an empty body", "acme.Empty"],
    ["the Type of another name", "acme.Wrong"],
  ])("rejects a body that is not the Type: %s (binary)", async (_, name) => {
    const e = await rejection(createTypeResolver({ fetch: localFetch }).resolve(`${host}/types/${name}`));
    expect(e).toMatchObject({ rule: "binary", jsonPath: "$" });
    expect(e.detail).toContain(`https://${host}/types/${name}`);
    // Nothing of the body is quoted: not the name it gives, not its size.
    expect(e.detail).not.toContain("acme.Other");
    expect(e.detail).not.toMatch(/bytes/);
  });

  it("rejects an enum field whose URL serves a message Type (binary)", async () => {
    const e = await rejection(createTypeResolver({ fetch: localFetch }).resolve(`${host}/types/acme.HasWrongKind`));
    expect(e).toMatchObject({ rule: "binary", jsonPath: "$.fields[0].typeUrl" });
  });

  it.each([
    ["", "$"],
    ["ftp://example.com/acme.A", "$"],
    ["HOST/types/", "$"],
    ["https://HOST/types/not a name", "$"],
    // A query or a fragment: today's `...#/a.B` would GET /types and drop the name.
    ["https://HOST/admin?x=/acme.Ping", "$"],
    ["HOST/types#/acme.Ping", "$"],
    ["HOST/types/acme.Ping?", "$"],
    ["HOST/types/x#acme.Ping/acme.Ping", "$"],
    // User info, which would send credentials, or name another host than the one before "@".
    ["https://user:pw@HOST/types/acme.Ping", "$"],
    ["HOST@127.0.0.2/types/acme.Ping", "$"],
  ])("rejects the type URL %j (type-url)", async (url, path) => {
    expect(await rejection(createTypeResolver({ fetch: localFetch }).resolve(url.replace("HOST", host)))).toMatchObject(
      { rule: "type-url", jsonPath: path },
    );
    expect(served).toEqual([]);
  });

  it("rejects a malformed type URL in a fetched Type (type-url)", async () => {
    expect(
      await rejection(createTypeResolver({ fetch: localFetch }).resolve(`${host}/types/acme.HasBadUrl`)),
    ).toMatchObject({ rule: "type-url", jsonPath: "$.fields[0].typeUrl" });
  });

  it("reports a request that fails with no HTTP status (fetch)", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const e = await rejection(
      createResolver({ origins: [`http://127.0.0.1:${port}`] }).resolve(`http://127.0.0.1:${port}/types/acme.A`),
    );
    expect(e).toMatchObject({ rule: "fetch", jsonPath: "$" });
    expect(e.detail).toContain(`http://127.0.0.1:${port}/types/acme.A`);
  });

  it("reports a missing global fetch (fetch)", async () => {
    const saved = globalThis.fetch;
    (globalThis as { fetch?: unknown }).fetch = undefined;
    try {
      expect(await rejection(createTypeResolver().resolve(`${host}/types/acme.Ping`))).toMatchObject({
        rule: "fetch",
        jsonPath: "$",
      });
    } finally {
      globalThis.fetch = saved;
    }
  });

  it.each([
    [1, true],
    [2, false],
  ])("stops past maxTypes %i (size)", async (maxTypes, fails) => {
    const p = createTypeResolver({ fetch: localFetch, maxTypes }).resolve(`${host}/types/acme.Ping`);
    if (fails) expect(await rejection(p)).toMatchObject({ rule: "size", jsonPath: "$.fields[0].typeUrl" });
    else expect((await p).getMessage("acme.Pong")).toBeDefined();
  });
});
