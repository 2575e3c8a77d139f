// The reach of createTypeResolver (issue 14, "Reach"): a type URL comes from a client, so the resolver must not
// be a way into the network behind the service. Every server here listens on 127.0.0.1 and every URL names
// 127.0.0.1: no test sends anything anywhere else. Each server counts the requests it sees and how many are in
// flight at once, so that "no request" is observed where it would be made, not inferred from the client.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { create, toBinary } from "@bufbuild/protobuf";
import { Field_Cardinality, Field_Kind, Syntax, TypeSchema } from "@bufbuild/protobuf/wkt";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { isWktJsonError, type WktJsonError } from "../../src/errors.js";
import {
  defaultTypeResolverMaxBodyBytes,
  defaultTypeResolverMaxCacheEntries,
  defaultTypeResolverMaxConcurrent,
  defaultTypeResolverTimeoutMs,
} from "../../src/limits.js";
import { createTypeResolver, type TypeFetch, type TypeResolverOptions } from "../../src/descriptors/type-resolver.js";
import { testRegistry } from "../conformance-registry.js";

type Handler = (req: IncomingMessage, res: ServerResponse, host: TestServer) => void;

interface TestServer {
  readonly server: Server;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  readonly port: number;
  /** Request paths, in order. */
  seen: string[];
  inFlight: number;
  maxInFlight: number;
  /** Body bytes handed to the socket. */
  written: number;
  /** Responses whose connection closed. */
  closed: number;
}

const servers: TestServer[] = [];

async function serve(handler: Handler): Promise<TestServer> {
  const t = { seen: [] as string[], inFlight: 0, maxInFlight: 0, written: 0, closed: 0 } as TestServer;
  const server = createServer((req, res) => {
    t.seen.push(req.url ?? "");
    t.inFlight++;
    t.maxInFlight = Math.max(t.maxInFlight, t.inFlight);
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      t.inFlight--;
    };
    res.on("finish", end);
    res.on("close", () => {
      end();
      t.closed++;
    });
    handler(req, res, t);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  Object.assign(t, { server, port, origin: `http://127.0.0.1:${port}` });
  servers.push(t);
  return t;
}

afterAll(async () => {
  for (const t of servers) {
    t.server.closeAllConnections();
    await new Promise<void>((resolve) => t.server.close(() => resolve()));
  }
});

/** A port on 127.0.0.1 where nothing listens (it did a moment ago). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

function typeBytes(name: string, fieldUrls: readonly string[] = []): Uint8Array {
  return toBinary(
    TypeSchema,
    create(TypeSchema, {
      name,
      syntax: Syntax.PROTO3,
      fields: fieldUrls.map((typeUrl, i) => ({
        name: `f${i}`,
        jsonName: `f${i}`,
        number: i + 1,
        kind: Field_Kind.TYPE_MESSAGE,
        cardinality: Field_Cardinality.OPTIONAL,
        typeUrl,
      })),
    }),
  );
}

const lastSegment = (path: string) => path.slice(path.lastIndexOf("/") + 1);

/** Answers every GET with the empty Type its last path segment names. */
const typeServer: Handler = (req, res) => {
  res.writeHead(200, { "content-type": "application/x-protobuf" }).end(typeBytes(lastSegment(req.url ?? "")));
};

async function rejection(p: Promise<unknown>): Promise<WktJsonError> {
  try {
    await p;
  } catch (e) {
    if (isWktJsonError(e)) return e;
    throw new Error(`expected a WktJsonError, got ${String(e)}`, { cause: e });
  }
  throw new Error("expected a rejection");
}

/** The outcome of a promise, or "pending" when it has not settled within `ms` (a guard, not a measurement). */
async function within(p: Promise<unknown>, ms: number): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const guard = new Promise((resolve) => (timer = setTimeout(() => resolve("pending"), ms)));
  try {
    return await Promise.race([
      p.then(
        (v) => v,
        (e: unknown) => e,
      ),
      guard,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let types: TestServer;
let other: TestServer;

describe("origins", () => {
  beforeAll(async () => {
    types = await serve(typeServer);
    other = await serve(typeServer);
  });
  afterEach(() => {
    types.seen = [];
    other.seen = [];
  });

  it.each([["http://HOST/t/acme.A"], ["HOST/t/acme.A"], ["https://HOST/t/acme.A"]])(
    "without origins, fetches nothing: %s (unknown-type)",
    async (url) => {
      const e = await rejection(createTypeResolver().resolve(url.replace("HOST", `127.0.0.1:${types.port}`)));
      expect(e).toMatchObject({ rule: "unknown-type", jsonPath: "$" });
      expect(e.detail).toContain("origins");
      expect(types.seen).toEqual([]);
    },
  );

  it("without origins, still answers from the registry and the well-known types", async () => {
    const r = createTypeResolver({ registry: testRegistry });
    expect(
      (await r.resolve(`${types.origin}/t/protobuf_test_messages.proto3.TestAllTypesProto3`)).getMessage(
        "protobuf_test_messages.proto3.TestAllTypesProto3",
      ),
    ).toBeDefined();
    expect(
      (await createTypeResolver().resolve("type.googleapis.com/google.protobuf.Duration")).getMessage(
        "google.protobuf.Duration",
      ),
    ).toBeDefined();
    expect(types.seen).toEqual([]);
  });

  it("with origins, fetches from them", async () => {
    const registry = await createTypeResolver({ origins: [types.origin] }).resolve(`${types.origin}/t/acme.A`);
    expect(registry.getMessage("acme.A")).toBeDefined();
    expect(types.seen).toEqual(["/t/acme.A"]);
  });

  it.each<[string, (t: TestServer) => string]>([
    ["a trailing slash", (t) => `${t.origin}/`],
    ["an upper-case scheme", (t) => t.origin.replace("http", "HTTP")],
  ])("accepts an origin with %s", async (_, origin) => {
    await createTypeResolver({ origins: [origin(types)] }).resolve(`${types.origin}/t/acme.A`);
    expect(types.seen).toEqual(["/t/acme.A"]);
  });

  it.each<[string, (t: TestServer, o: TestServer) => string, (t: TestServer) => string[]]>([
    ["another port of the same host", (_, o) => `${o.origin}/t/acme.A`, (t) => [t.origin]],
    ["the same host and port under https", (t) => `https://127.0.0.1:${t.port}/t/acme.A`, (t) => [t.origin]],
    ["no scheme, which means https", (t) => `127.0.0.1:${t.port}/t/acme.A`, (t) => [t.origin]],
    ["a host name for the same address", (t) => `http://localhost:${t.port}/t/acme.A`, (t) => [t.origin]],
    ["an empty list", (t) => `${t.origin}/t/acme.A`, () => []],
  ])("refuses %s without a request (unknown-type)", async (_, url, origins) => {
    const e = await rejection(createTypeResolver({ origins: origins(types) }).resolve(url(types, other)));
    expect(e).toMatchObject({ rule: "unknown-type", jsonPath: "$" });
    expect(types.seen).toEqual([]);
    expect(other.seen).toEqual([]);
  });

  it("asks a predicate about every URL, nested ones included, before requesting it", async () => {
    const root = await serve((req, res) => {
      res
        .writeHead(200)
        .end(typeBytes("acme.Root", [`${types.origin}/t/acme.Allowed`, `${other.origin}/t/acme.Refused`]));
    });
    const asked: string[] = [];
    const e = await rejection(
      createTypeResolver({
        origins: (url) => {
          asked.push(url.href);
          const ok = url.port !== String(other.port);
          url.port = String(other.port); // a copy: changing it changes nothing
          return ok;
        },
      }).resolve(`${root.origin}/r/acme.Root`),
    );
    expect(e).toMatchObject({ rule: "unknown-type", jsonPath: "$.fields[1].typeUrl" });
    expect(asked).toEqual([
      `${root.origin}/r/acme.Root`,
      `${types.origin}/t/acme.Allowed`,
      `${other.origin}/t/acme.Refused`,
    ]);
    expect(root.seen).toEqual(["/r/acme.Root"]);
    expect(types.seen).toEqual([]); // the resolution failed before the next round of requests
    expect(other.seen).toEqual([]);
  });

  it("fetches no field type URL of another origin: a Type of 200 fields there makes zero requests to it", async () => {
    const wide = await serve((req, res) => {
      res.writeHead(200).end(
        typeBytes(
          "acme.Wide",
          Array.from({ length: 200 }, (_, i) => `${other.origin}/t/acme.T${i}`),
        ),
      );
    });
    const e = await rejection(createTypeResolver({ origins: [wide.origin] }).resolve(`${wide.origin}/w/acme.Wide`));
    expect(e).toMatchObject({ rule: "unknown-type", jsonPath: "$.fields[0].typeUrl" });
    expect(e.detail).toContain("acme.Wide.f0");
    expect(wide.seen).toEqual(["/w/acme.Wide"]);
    expect(other.seen).toEqual([]);
  });

  it.each([
    ["a 302 to another origin", 302, () => `${other.origin}/t/acme.B`],
    ["a 301 to the same origin", 301, () => `${types.origin}/t/acme.B`],
    ["a 307 to another origin", 307, () => `${other.origin}/t/acme.B`],
    ["a 308 to another origin", 308, () => `${other.origin}/t/acme.B`],
  ])("follows no redirect: %s (fetch)", async (_, status, location) => {
    const redirector = await serve((req, res) => {
      res.writeHead(status, { location: location() }).end();
    });
    const e = await rejection(
      createTypeResolver({ origins: [redirector.origin, types.origin, other.origin] }).resolve(
        `${redirector.origin}/r/acme.B`,
      ),
    );
    expect(e).toMatchObject({ rule: "fetch", jsonPath: "$" });
    expect(redirector.seen).toEqual(["/r/acme.B"]);
    expect(types.seen).toEqual([]);
    expect(other.seen).toEqual([]);
  });

  it("refuses a response a fetch says it reached by a redirect (fetch)", async () => {
    const fetch: TypeFetch = async () => ({
      ok: true,
      status: 200,
      redirected: true,
      arrayBuffer: async () => typeBytes("acme.A").slice().buffer,
    });
    expect(
      await rejection(
        createTypeResolver({ origins: ["https://types.example"], fetch }).resolve("types.example/acme.A"),
      ),
    ).toMatchObject({ rule: "fetch" });
  });

  it.each([["?x=/acme.A"], ["#/acme.A"], ["/acme.A?"], ["/acme.A#"], ["/acme.A?x=1#/acme.A"]])(
    "sends no query or fragment: /admin%s (type-url, no request)",
    async (tail) => {
      const e = await rejection(
        createTypeResolver({ origins: [types.origin] }).resolve(`${types.origin}/admin${tail}`),
      );
      expect(e).toMatchObject({ rule: "type-url", jsonPath: "$" });
      expect(types.seen).toEqual([]);
    },
  );

  it("refuses a field type URL with a query (type-url), with no request for it", async () => {
    const root = await serve((req, res) => {
      res.writeHead(200).end(typeBytes("acme.Root", [`${types.origin}/admin?x=/acme.A`]));
    });
    const e = await rejection(
      createTypeResolver({ origins: [root.origin, types.origin] }).resolve(`${root.origin}/r/acme.Root`),
    );
    expect(e).toMatchObject({ rule: "type-url", jsonPath: "$.fields[0].typeUrl" });
    expect(types.seen).toEqual([]);
  });

  it.each<[string, unknown]>([
    ["127.0.0.1:8080", "127.0.0.1:8080"],
    ["a path", "http://127.0.0.1:8080/types"],
    ["a query", "http://127.0.0.1:8080?x"],
    ["a fragment", "http://127.0.0.1:8080#x"],
    ["user info", "http://u:p@127.0.0.1:8080"],
    ["another scheme", "ftp://127.0.0.1"],
    ["a number", 8080],
    ["an empty string", ""],
  ])("refuses an origin that is %s (type-url)", (_, origin) => {
    let error: unknown;
    try {
      createTypeResolver({ origins: ["http://127.0.0.1:1", origin as string] });
    } catch (e) {
      error = e;
    }
    expect(isWktJsonError(error)).toBe(true);
    expect(error).toMatchObject({ rule: "type-url", jsonPath: "$.origins[1]" });
  });
});

describe("limits", () => {
  it.each<[keyof TypeResolverOptions, unknown]>([
    ["timeoutMs", 0],
    ["timeoutMs", -1],
    ["timeoutMs", 1.5],
    ["maxBodyBytes", Number.NaN],
    ["maxConcurrent", 0],
    ["maxCacheEntries", "10"],
    ["maxTypes", 0],
  ])("refuses %s %s (range)", (name, value) => {
    let error: unknown;
    try {
      createTypeResolver({ [name]: value } as TypeResolverOptions);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ rule: "range", jsonPath: "$" });
    expect((error as WktJsonError).detail).toContain(name);
  });

  it("has the documented defaults", () => {
    expect([
      defaultTypeResolverTimeoutMs,
      defaultTypeResolverMaxBodyBytes,
      defaultTypeResolverMaxCacheEntries,
      defaultTypeResolverMaxConcurrent,
    ]).toEqual([5_000, 1_048_576, 1_000, 8]);
  });

  describe("timeoutMs", () => {
    it("gives up on a silent server after timeoutMs (fetch)", async () => {
      const silent = await serve(() => undefined);
      const started = performance.now();
      const outcome = await within(
        createTypeResolver({ origins: [silent.origin], timeoutMs: 200 }).resolve(`${silent.origin}/s/acme.A`),
        4_000,
      );
      expect(outcome).toMatchObject({ rule: "fetch", jsonPath: "$" });
      expect(performance.now() - started).toBeGreaterThanOrEqual(190);
      expect(silent.seen).toEqual(["/s/acme.A"]);
    });

    it("gives up on a body that trickles in after timeoutMs (fetch), and hangs up", async () => {
      const trickle = await serve((req, res) => {
        res.writeHead(200, { "content-type": "application/x-protobuf" });
        const timer = setInterval(() => res.write(new Uint8Array([0x0a])), 20);
        res.on("close", () => clearInterval(timer));
      });
      const outcome = await within(
        createTypeResolver({ origins: [trickle.origin], timeoutMs: 200 }).resolve(`${trickle.origin}/s/acme.A`),
        4_000,
      );
      expect(outcome).toMatchObject({ rule: "fetch", jsonPath: "$" });
      for (let i = 0; i < 100 && trickle.closed === 0; i++) await sleep(20);
      expect(trickle.closed).toBe(1);
    });

    it("gives up after timeoutMs even with a fetch that ignores the signal (fetch)", async () => {
      const fetch: TypeFetch = () => new Promise(() => undefined);
      const outcome = await within(
        createTypeResolver({ origins: ["https://types.example"], fetch, timeoutMs: 100 }).resolve(
          "types.example/acme.A",
        ),
        4_000,
      );
      expect(outcome).toMatchObject({ rule: "fetch", jsonPath: "$" });
    });

    it('passes a signal and redirect: "error" to the fetch', async () => {
      let init: Parameters<TypeFetch>[1] | undefined;
      const fetch: TypeFetch = async (_, i) => {
        init = i;
        return { ok: true, status: 200, arrayBuffer: async () => typeBytes("acme.A").slice().buffer };
      };
      await createTypeResolver({ origins: ["https://types.example"], fetch }).resolve("types.example/acme.A");
      expect(init?.redirect).toBe("error");
      expect(init?.signal).toBeInstanceOf(AbortSignal);
      expect(init?.signal.aborted).toBe(false);
    });
  });

  describe("maxBodyBytes", () => {
    const body = typeBytes("acme.Sized", ["type.googleapis.com/google.protobuf.Duration"]);
    let sized: TestServer;

    it.each([
      ["with Content-Length", true, body.length, true],
      ["with Content-Length", true, body.length - 1, false],
      ["chunked", false, body.length, true],
      ["chunked", false, body.length - 1, false],
    ])("a body %s of maxBodyBytes + 0/1 (fetch) [%#]", async (_, withLength, maxBodyBytes, ok) => {
      sized ??= await serve((req, res) => {
        const chunked = req.url?.startsWith("/chunked/") === true;
        res.writeHead(200, chunked ? {} : { "content-length": String(body.length) });
        if (chunked) {
          res.write(body.subarray(0, 3));
          res.end(body.subarray(3));
        } else res.end(body);
      });
      const url = `${sized.origin}/${withLength ? "length" : "chunked"}/acme.Sized`;
      const p = createTypeResolver({ origins: [sized.origin], maxBodyBytes }).resolve(url);
      if (ok) expect((await p).getMessage("acme.Sized")).toBeDefined();
      else expect(await rejection(p)).toMatchObject({ rule: "fetch", jsonPath: "$" });
    });

    it.each([
      ["declared by Content-Length", true],
      ["chunked, with no length", false],
    ])("stops reading a 64 MiB body %s past the default 1 MiB, and hangs up (fetch)", async (_, declared) => {
      const chunk = new Uint8Array(1 << 20);
      const total = 64;
      const huge = await serve((req, res, t) => {
        res.writeHead(200, declared ? { "content-length": String(total * chunk.length) } : {});
        let sent = 0;
        let stop = false;
        res.on("close", () => (stop = true));
        const pump = () => {
          while (!stop && sent < total) {
            sent++;
            t.written += chunk.length;
            if (!res.write(chunk)) return void res.once("drain", pump);
          }
          if (!stop) res.end();
        };
        pump();
      });
      const e = await rejection(createTypeResolver({ origins: [huge.origin] }).resolve(`${huge.origin}/h/acme.A`));
      expect(e).toMatchObject({ rule: "fetch", jsonPath: "$" });
      for (let i = 0; i < 100 && huge.closed === 0; i++) await sleep(20);
      expect(huge.closed).toBe(1);
      // What the sockets buffer, not 64 MiB (before: all of it was read, then found not to be a Type).
      expect(huge.written).toBeLessThan(16 * chunk.length);
      expect(defaultTypeResolverMaxBodyBytes).toBe(chunk.length);
    });

    it("checks the size of a body read with arrayBuffer() (a fetch with no body stream)", async () => {
      const big = new Uint8Array(100);
      const fetch: TypeFetch = async () => ({ ok: true, status: 200, arrayBuffer: async () => big.slice().buffer });
      expect(
        await rejection(
          createTypeResolver({ origins: ["https://types.example"], fetch, maxBodyBytes: 99 }).resolve(
            "types.example/acme.A",
          ),
        ),
      ).toMatchObject({ rule: "fetch" });
    });
  });

  describe("cache", () => {
    let cached: TestServer;
    const resolveAll = async (r: ReturnType<typeof createTypeResolver>, ids: readonly number[]) => {
      for (const id of ids) await r.resolve(`${cached.origin}/c/${id}/acme.C`);
    };

    it("keeps the maxCacheEntries most recently used types", async () => {
      cached ??= await serve(typeServer);
      const r = createTypeResolver({ origins: [cached.origin], maxCacheEntries: 3 });
      await resolveAll(r, [1, 2, 3]);
      expect(cached.seen.length).toBe(3);
      await resolveAll(r, [1]); // a hit, which makes 1 the most recent
      expect(cached.seen.length).toBe(3);
      await resolveAll(r, [4]); // evicts 2, the least recent
      expect(cached.seen.length).toBe(4);
      await resolveAll(r, [1, 3, 4]);
      expect(cached.seen.length).toBe(4);
      await resolveAll(r, [2]);
      expect(cached.seen.length).toBe(5);
    });

    it("holds the default 1,000 entries, not more", async () => {
      cached ??= await serve(typeServer);
      cached.seen = [];
      const r = createTypeResolver({ origins: [cached.origin] });
      const ids = Array.from({ length: defaultTypeResolverMaxCacheEntries + 1 }, (_, i) => i);
      await resolveAll(r, ids);
      expect(cached.seen.length).toBe(ids.length);
      await resolveAll(r, [ids.length - 1, 1]); // still there
      expect(cached.seen.length).toBe(ids.length);
      await resolveAll(r, [0]); // the first was dropped (before: kept, the cache had no bound)
      expect(cached.seen.length).toBe(ids.length + 1);
    }, 30_000);
  });

  describe("maxConcurrent", () => {
    /** Answers after `ms`, so that requests overlap. */
    const slowTypes =
      (ms: number, fields: number): Handler =>
      (req, res) => {
        const name = lastSegment(req.url ?? "");
        setTimeout(() => {
          res.writeHead(200).end(
            name === "acme.Fan"
              ? typeBytes(
                  name,
                  Array.from({ length: fields }, (_, i) => `${slow.origin}/t/acme.T${i}`),
                )
              : typeBytes(name),
          );
        }, ms);
      };
    let slow: TestServer;

    it.each([
      [undefined, defaultTypeResolverMaxConcurrent],
      [3, 3],
    ])("keeps at most maxConcurrent %s requests in flight for a Type of many fields", async (maxConcurrent, cap) => {
      slow = await serve(slowTypes(60, 4 * cap));
      const options: TypeResolverOptions = { origins: [slow.origin] };
      if (maxConcurrent !== undefined) options.maxConcurrent = maxConcurrent;
      const registry = await createTypeResolver(options).resolve(`${slow.origin}/t/acme.Fan`);
      expect(registry.getMessage("acme.T0")).toBeDefined();
      expect(slow.seen.length).toBe(1 + 4 * cap);
      expect(slow.maxInFlight).toBeLessThanOrEqual(cap); // before: 150 in flight for a Type of 200 fields
      expect(slow.maxInFlight).toBeGreaterThan(1);
    });

    it("counts requests across concurrent resolutions of one resolver", async () => {
      slow = await serve(slowTypes(60, 0));
      const r = createTypeResolver({ origins: [slow.origin], maxConcurrent: 2 });
      await Promise.all(Array.from({ length: 10 }, (_, i) => r.resolve(`${slow.origin}/t/acme.R${i}`)));
      expect(slow.seen.length).toBe(10);
      expect(slow.maxInFlight).toBe(2);
    });
  });
});

describe("uniform fetch errors", () => {
  // Each way a request can fail, each on its own server, for the same path: the errors must be the same but for
  // the port, or a client could map the network (a closed port, a silent host, an HTTP service) through them.
  const failures: Array<[string, Handler | "closed"]> = [
    ["a refused connection", "closed"],
    ["no answer within timeoutMs", () => undefined],
    [
      "HTTP 500 with a status text and a body",
      (req, res) =>
        void res.writeHead(500, "Secret Admin Panel", { "content-type": "text/plain" }).end("root password: hunter2"),
    ],
    ["HTTP 404", (req, res) => void res.writeHead(404).end("not found")],
    ["HTTP 401", (req, res) => void res.writeHead(401, { "www-authenticate": "Basic" }).end()],
    ["a redirect", (req, res) => void res.writeHead(302, { location: "/elsewhere/acme.A" }).end()],
    [
      "a body past maxBodyBytes by its Content-Length",
      (req, res) => void res.writeHead(200, { "content-length": "4096" }).end(new Uint8Array(4096)),
    ],
    ["a body past maxBodyBytes while streaming", (req, res) => void res.writeHead(200).end(new Uint8Array(4096))],
    [
      "a connection reset in the middle of the body",
      (req, res) => {
        res.writeHead(200, { "content-length": "100" });
        res.write(new Uint8Array(10), () => res.destroy());
      },
    ],
    ["a socket closed before any answer", (req) => void req.socket.destroy()],
  ];

  it("gives one rule, path and detail (but for the port) for every failure, with no cause", async () => {
    const hosts: string[] = [];
    for (const [, handler] of failures)
      hosts.push(handler === "closed" ? "" : `127.0.0.1:${(await serve(handler)).port}`);
    // Taken last, so that none of the servers above gets the port.
    const closed = `127.0.0.1:${await closedPort()}`;
    hosts.forEach((h, i) => (hosts[i] = h === "" ? closed : h));
    const resolver = createTypeResolver({
      origins: hosts.map((h) => `http://${h}`),
      timeoutMs: 300,
      maxBodyBytes: 1024,
    });
    const errors = await Promise.all(hosts.map((h) => rejection(resolver.resolve(`http://${h}/x/acme.A`))));
    const seen = errors.map((e, i) => ({
      rule: e.rule,
      jsonPath: e.jsonPath,
      typeName: e.typeName,
      detail: e.detail.replaceAll(hosts[i] as string, "HOST"),
      message: e.message.replaceAll(hosts[i] as string, "HOST"),
      cause: e.cause,
      keys: Object.keys(e).sort().join(),
    }));
    const first = seen[0];
    expect(first).toMatchObject({ rule: "fetch", jsonPath: "$", typeName: "google.protobuf.Type", cause: undefined });
    for (const [i, s] of seen.entries()) expect([failures[i]?.[0], s]).toEqual([failures[i]?.[0], first]);
    for (const leak of ["Secret", "hunter2", "500", "404", "401", "302", "refused", "ECONN", "reset", "socket"])
      expect(first?.message).not.toContain(leak);
  });
});
