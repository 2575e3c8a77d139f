/**
 * Resolution of type URLs over HTTP: the registry for an Any whose type the service does not know.
 *
 * Spec, rule 2: "Any.type_url with scheme http, https or none: no scheme means https; the last path segment is
 * the fully qualified type name; an HTTP GET on the URL must yield the binary type descriptor or an error;
 * lookups may be cached or precompiled, so binary compatibility of types must be preserved."
 *
 * A type URL usually comes from a client (the `@type` of a JSON Any), so a resolver at the edge of a service is
 * a way for that client to make the service send requests. This module keeps that reach to what the service
 * chose: nothing is fetched unless its origin (`scheme://host[:port]`) is in `origins`, and that holds for the
 * type URL asked for, for the type URLs of the fields of every Type fetched, and for redirects (which are never
 * followed). A type URL with a query or a fragment is refused; so is one with user info. Every request is bounded
 * in time (`timeoutMs`) and body size (`maxBodyBytes`), requests in flight are capped (`maxConcurrent`), the
 * cache is a bounded LRU (`maxCacheEntries`), and a resolution fetches at most `maxTypes` types. A failed
 * request is reported the same way whatever the cause (refused, timed out, HTTP error status, redirect, body too
 * large or unreadable): the error tells nothing about the network behind the origins that a client could use to
 * map it, and quotes nothing from a response.
 *
 * @module
 */
import { fromBinary, type Registry } from "@bufbuild/protobuf";
import { EnumSchema, Field_Kind, TypeSchema, type Enum, type Type } from "@bufbuild/protobuf/wkt";
import { builtins } from "./builtins.js";
import { movedError } from "./moved-error.js";
import { registryFromTypes, type RegistryFromTypesOptions } from "./registry-from-types.js";
import { WktJsonError } from "../errors.js";
import {
  defaultTypeResolverMaxBodyBytes,
  defaultTypeResolverMaxCacheEntries,
  defaultTypeResolverMaxConcurrent,
  defaultTypeResolverMaxTypes,
  defaultTypeResolverTimeoutMs,
  formatBound,
} from "../limits.js";
import { enumTypeName, typeTypeName } from "../internal/names.js";
import { checkCount, type CountRule } from "../internal/options.js";
import { typeUrlParse } from "../wkt/registry.js";

/** The reader of a response body the resolver uses: a `ReadableStreamDefaultReader` fits. */
export interface TypeFetchBodyReader {
  read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>;
  cancel(reason?: unknown): Promise<void>;
}

/**
 * The part of a fetch `Response` the resolver reads: a `Response` fits. `headers` and `body` are optional, for
 * a hand-written fetch; with them the resolver refuses an oversize body by its `Content-Length` before reading
 * it and stops reading one that grows past `maxBodyBytes`; without `body` it reads `arrayBuffer()` and checks the
 * size afterwards.
 */
export interface TypeFetchResponse {
  readonly ok: boolean;
  readonly status: number;
  /** Not read: an error never quotes the response. */
  readonly statusText?: string;
  /** `true` when the fetch followed a redirect despite `redirect: "error"`: the resolver refuses the response. */
  readonly redirected?: boolean;
  readonly headers?: { get(name: string): string | null } | undefined;
  readonly body?: { getReader(): TypeFetchBodyReader; cancel?(reason?: unknown): Promise<void> } | null | undefined;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/**
 * The global `AbortSignal` type where the program's lib declares one (DOM, Node's types), else the part the
 * resolver's callers may read: the published types compile with any `lib`.
 */
export type TypeFetchSignal = typeof globalThis extends { AbortController: { prototype: { signal: infer S } } }
  ? S
  : { readonly aborted: boolean };

/**
 * The global `URL` type where the program's lib declares one (DOM, Node's types), else the parts of a parsed
 * URL an `origins` predicate reads.
 */
export type TypeResolverUrl = typeof globalThis extends { URL: { prototype: infer U } }
  ? U
  : {
      readonly href: string;
      readonly protocol: string;
      readonly host: string;
      readonly hostname: string;
      readonly port: string;
      readonly origin: string;
      readonly pathname: string;
    };

/** What the resolver passes to {@link TypeFetch}: a `RequestInit` of the global fetch. */
export interface TypeFetchInit {
  method: "GET";
  headers: Record<string, string>;
  /** Redirects are not followed: a redirect to another origin would escape `origins`. */
  redirect: "error";
  /** Aborted after `timeoutMs`. */
  signal: TypeFetchSignal;
}

/** A `fetch`: the global one fits. It is given the exact URL the resolver checked against `origins`. */
export type TypeFetch = (url: string, init: TypeFetchInit) => Promise<TypeFetchResponse>;

/** Where the resolver keeps what it fetched, by HTTP URL. A `Map` fits (then bounding it is the caller's task). */
export interface TypeResolverCache {
  get(url: string): Type | Enum | undefined;
  set(url: string, value: Type | Enum): void;
}

/** Options of {@link createTypeResolver}. */
export interface TypeResolverOptions {
  /**
   * Where the resolver may send requests: a list of origins such as `"https://types.example.com"` or
   * `"http://127.0.0.1:8080"` (scheme, host and port when not the default; no path), or a predicate on the
   * parsed URL. Checked for every URL before it is requested: the one asked for, the type URLs of the fields of
   * fetched Types, and (redirects being refused) nothing else. Default: none, so that the resolver fetches
   * nothing and answers only from `registry` and the well-known types.
   */
  origins?: readonly string[] | ((url: TypeResolverUrl) => boolean);
  /** Performs the GET requests. Default: the global `fetch`. */
  fetch?: TypeFetch;
  /**
   * Fetched types by URL, kept across calls. Default: an LRU cache of `maxCacheEntries` per resolver; `false`
   * fetches every time. A cache given here is used as it is: a `Map` grows without bound.
   */
  cache?: TypeResolverCache | false;
  /** Entries of the default cache. Default {@link defaultTypeResolverMaxCacheEntries} (1,000). */
  maxCacheEntries?: number;
  /** Types known already, which are not fetched (the well-known types never are), and custom-option extensions. */
  registry?: Registry;
  /** Most types one resolution may fetch, against a server that makes up types without end. Default 1,000. */
  maxTypes?: number;
  /**
   * Milliseconds one request may take, from sending it to the end of its body. Default
   * {@link defaultTypeResolverTimeoutMs} (5,000).
   */
  timeoutMs?: number;
  /** Most bytes of one response body. Default {@link defaultTypeResolverMaxBodyBytes} (1 MiB). */
  maxBodyBytes?: number;
  /** Most requests of the resolver in flight at once; the others wait. Default {@link defaultTypeResolverMaxConcurrent} (8). */
  maxConcurrent?: number;
}

/** Resolves type URLs to registries; see {@link createTypeResolver}. */
export interface TypeResolver {
  /**
   * Fetches the Type a type URL names and every message and enum type its fields reference, transitively, and
   * returns a registry that has them all.
   */
  resolve(typeUrl: string): Promise<Registry>;
}

/**
 * Creates a resolver of type URLs (rule 2): an HTTP GET on the URL (no scheme means https) must yield a binary
 * `google.protobuf.Type` (a binary `google.protobuf.Enum` for enum types) or an error. The resolver follows the
 * types the fields reference, skips those known already, caches what it fetched per URL, and returns a registry
 * for the codec's `registry` option. It fetches only from `origins`: without that option it answers from
 * `registry` and the well-known types alone.
 *
 * @throws {WktJsonError} from `createTypeResolver`: rule `range` for a limit that is not a whole number from 1
 *   up or Infinity, `type-url` for an entry of `origins` that is not an origin. The promise of `resolve` rejects with rule
 *   `type-url` for a malformed type URL, or one with a query, a fragment or user info; `unknown-type` for a type
 *   neither known nor at an allowed origin (no request is made); `fetch` for a request that fails in any way
 *   (no connection, past `timeoutMs`, an HTTP status other than 2xx, a redirect, a body past `maxBodyBytes` or
 *   unreadable), one detail for all of them; `binary` for a body that is not a serialized Type (or Enum) of the
 *   named type; `size` past `maxTypes`; and those of {@link registryFromTypes}.
 * @example
 * const resolver = createTypeResolver({ origins: ["https://types.example.com"] });
 * const registry = await resolver.resolve(any.typeUrl); // "types.example.com/acme.v1.Flow"
 * toJson(AnySchema, any, { registry }); //=> { "@type": "types.example.com/acme.v1.Flow", ... }
 */
export function createTypeResolver(options?: TypeResolverOptions): TypeResolver {
  const maxTypes = limitOption("maxTypes", options?.maxTypes, defaultTypeResolverMaxTypes);
  const timeoutMs = limitOption("timeoutMs", options?.timeoutMs, defaultTypeResolverTimeoutMs);
  const maxBodyBytes = limitOption("maxBodyBytes", options?.maxBodyBytes, defaultTypeResolverMaxBodyBytes);
  const maxConcurrent = limitOption("maxConcurrent", options?.maxConcurrent, defaultTypeResolverMaxConcurrent);
  const maxCacheEntries = limitOption("maxCacheEntries", options?.maxCacheEntries, defaultTypeResolverMaxCacheEntries);
  const allowed = originCheck(options?.origins);
  const cache: TypeResolverCache | undefined =
    options?.cache === false ? undefined : (options?.cache ?? lruCache(maxCacheEntries));
  const inFlight = new Map<string, Promise<Type | Enum>>();
  const slots = semaphore(maxConcurrent);
  const known = options?.registry;

  interface Request {
    readonly typeUrl: string;
    readonly typeName: string;
    /** The URL requested, as checked against `origins`. */
    readonly httpUrl: string;
    readonly want: "message" | "enum";
    /** `$`, or `$.fields[j].typeUrl` in the referring Type. */
    readonly path: string;
    /** `pkg.Msg.field`, the field that references the type, or "". */
    readonly referrer: string;
  }

  const where = (typeUrl: string, referrer: string): string =>
    `type URL ${JSON.stringify(typeUrl)}${referrer === "" ? "" : `, referenced by ${referrer}`}`;

  // One detail for every way a request can fail, so that the error cannot tell a closed port from an HTTP status
  // or a silent host (a port scan through the resolver); and no `cause`, which a service might pass on.
  const fetchFailed = (r: Request): WktJsonError =>
    new WktJsonError(
      "fetch",
      r.path,
      typeTypeName,
      `GET ${r.httpUrl} (${where(r.typeUrl, r.referrer)}): no ${r.want === "enum" ? enumTypeName : typeTypeName} was fetched ` +
        `(no connection, no answer within timeoutMs (${formatBound(timeoutMs)}), an HTTP status other than 2xx, a redirect, ` +
        `or a body past maxBodyBytes (${formatBound(maxBodyBytes)}))`,
    );

  /** The HTTP URL of a type URL, or the error that keeps the resolver from requesting it. */
  const target = (typeUrl: string, typeName: string, path: string, referrer: string): string => {
    // Rule 2: "no scheme means https".
    const text = typeUrl.includes("://") ? typeUrl : `https://${typeUrl}`;
    let url: URL | undefined;
    try {
      url = new URL(text);
    } catch {
      url = undefined;
    }
    if (url === undefined || url.username !== "" || url.password !== "" || !url.pathname.endsWith(`/${typeName}`)) {
      throw new WktJsonError(
        "type-url",
        path,
        typeTypeName,
        `${where(typeUrl, referrer)} is not an HTTP URL of the form <host>/<path>/${typeName}`,
      );
    }
    if (allowed === undefined || !allowed(url)) {
      const why =
        allowed === undefined
          ? "the resolver has no origins to fetch from"
          : `its origin ${url.origin} is not in the resolver's origins`;
      throw new WktJsonError(
        "unknown-type",
        path,
        typeTypeName,
        `${where(typeUrl, referrer)}: ${typeName} is not in the registry, and ${why}`,
      );
    }
    return url.href;
  };

  const download = async (r: Request): Promise<Type | Enum> => {
    const fetchFn = options?.fetch ?? (globalThis.fetch as TypeFetch | undefined);
    if (typeof fetchFn !== "function") {
      throw new WktJsonError(
        "fetch",
        r.path,
        typeTypeName,
        `GET ${r.httpUrl} (${where(r.typeUrl, r.referrer)}): there is no global fetch; pass one with the fetch option`,
      );
    }
    const body = await slots(() => exchange(fetchFn, r.httpUrl, timeoutMs, maxBodyBytes));
    if (body === undefined) throw fetchFailed(r);
    const schema = r.want === "enum" ? EnumSchema : TypeSchema;
    let value: Type | Enum | undefined;
    try {
      value = fromBinary(schema, body) as Type | Enum;
    } catch {
      value = undefined;
    }
    // Nothing of the body is quoted: not its size, not the name it gives.
    if (value === undefined || value.name !== r.typeName) {
      throw new WktJsonError(
        "binary",
        r.path,
        typeTypeName,
        `GET ${r.httpUrl} (${where(r.typeUrl, r.referrer)}): the body is not a serialized ${schema.typeName} of ${r.typeName}`,
      );
    }
    return value;
  };

  const get = async (r: Request): Promise<Type | Enum> => {
    const want = r.want === "enum" ? enumTypeName : typeTypeName;
    const hit = cache?.get(r.httpUrl);
    if (hit !== undefined && hit.$typeName === want) return hit;
    const key = `${want} ${r.httpUrl}`;
    let pending = inFlight.get(key);
    if (pending === undefined) {
      pending = download(r).finally(() => inFlight.delete(key));
      if (cache !== undefined) inFlight.set(key, pending);
    }
    const value = await pending;
    cache?.set(r.httpUrl, value);
    return value;
  };

  return {
    async resolve(typeUrl: string): Promise<Registry> {
      const typeName = parse(typeUrl, "$");
      if (known?.getMessage(typeName) !== undefined) return known;
      if (builtins().getMessage(typeName) !== undefined) return builtins();
      const types = new Map<string, Type>();
      const enums = new Map<string, Enum>();
      const requested = new Set([typeName]);
      let frontier: Request[] = [
        { typeUrl, typeName, httpUrl: target(typeUrl, typeName, "$", ""), want: "message", path: "$", referrer: "" },
      ];
      while (frontier.length > 0) {
        const values = await Promise.all(frontier.map(get));
        const next: Request[] = [];
        for (const value of values) {
          if (value.$typeName === enumTypeName) {
            enums.set(value.name, value as Enum);
            continue;
          }
          const type = value as Type;
          types.set(type.name, type);
          // Every field is checked before any of them is requested: one not allowed fails the resolution
          // with no request for the others.
          type.fields.forEach((f, j) => {
            const want =
              f.kind === Field_Kind.TYPE_ENUM
                ? "enum"
                : f.kind === Field_Kind.TYPE_MESSAGE || f.kind === Field_Kind.TYPE_GROUP
                  ? "message"
                  : undefined;
            if (want === undefined) return;
            const path = `$.fields[${j}].typeUrl`;
            const name = parse(f.typeUrl, path);
            if (requested.has(name) || known?.get(name) !== undefined || builtins().get(name) !== undefined) return;
            if (requested.size >= maxTypes) {
              throw new WktJsonError(
                "size",
                path,
                typeTypeName,
                `resolving ${JSON.stringify(typeUrl)} needs more than maxTypes (${formatBound(maxTypes)}) types`,
              );
            }
            const referrer = `${type.name}.${f.name}`;
            const httpUrl = target(f.typeUrl, name, path, referrer);
            requested.add(name);
            next.push({ typeUrl: f.typeUrl, typeName: name, httpUrl, want, path, referrer });
          });
        }
        frontier = next;
      }
      const opts: RegistryFromTypesOptions = {};
      if (known !== undefined) opts.registry = known;
      return registryFromTypes({ types: [...types.values()], enums: [...enums.values()] }, opts);
    },
  };
}

/** The type name of a type URL; refuses a query or a fragment, which a GET would not send as the name. */
function parse(typeUrl: string, path: string): string {
  let typeName: string;
  try {
    typeName = typeUrlParse(typeUrl).typeName;
  } catch (e) {
    throw movedError(e, path, typeTypeName);
  }
  // `example.com/x?y=/a.B` would GET /x?y=/a.B and `example.com/x#/a.B` would GET /x: neither names the type.
  if (typeUrl.includes("?") || typeUrl.includes("#")) {
    throw new WktJsonError(
      "type-url",
      path,
      typeTypeName,
      `type URL ${JSON.stringify(typeUrl)} has a query or a fragment; the type name is the last path segment`,
    );
  }
  return typeName;
}

/** The rule of each limit of {@link TypeResolverOptions}: a whole number from 1 up, or Infinity for no limit. */
const limitRules = {
  maxTypes: { min: 1, unbounded: true, unit: "types fetched per resolution" },
  timeoutMs: { min: 1, unbounded: true, unit: "milliseconds per request" },
  maxBodyBytes: { min: 1, unbounded: true, unit: "bytes per response body" },
  maxConcurrent: { min: 1, unbounded: true, unit: "requests in flight" },
  maxCacheEntries: { min: 1, unbounded: true, unit: "cache entries" },
} as const satisfies Record<string, CountRule>;

/** A limit option checked by its rule (options.ts words the error), or the default when it is not given. */
function limitOption(name: keyof typeof limitRules, value: number | undefined, fallback: number): number {
  return value === undefined ? fallback : checkCount(name, value, limitRules[name]);
}

/** The check of `origins`: undefined when nothing may be fetched. */
function originCheck(origins: TypeResolverOptions["origins"]): ((url: URL) => boolean) | undefined {
  if (origins === undefined) return undefined;
  // The predicate gets a copy, so that it cannot change the URL that is then requested.
  if (typeof origins === "function") return (url) => origins(new URL(url.href)) === true;
  const set = new Set<string>();
  origins.forEach((origin, i) => {
    let url: URL | undefined;
    try {
      url = typeof origin === "string" ? new URL(origin) : undefined;
    } catch {
      url = undefined;
    }
    const bare =
      url !== undefined &&
      (url.protocol === "http:" || url.protocol === "https:") &&
      url.username === "" &&
      url.password === "" &&
      url.pathname === "/" &&
      url.search === "" &&
      url.hash === "" &&
      !/[?#]$/.test(origin);
    if (url === undefined || !bare) {
      throw new WktJsonError(
        "type-url",
        `$.origins[${i}]`,
        "options",
        `${JSON.stringify(origin)} is not an origin such as "https://types.example.com" or "http://127.0.0.1:8080"`,
      );
    }
    set.add(url.origin);
  });
  return (url) => set.has(url.origin);
}

/**
 * One GET: the body of a 2xx answer within `timeoutMs` and `maxBodyBytes`, or undefined for any failure (the
 * caller reports them all alike).
 */
async function exchange(
  fetchFn: TypeFetch,
  url: string,
  timeoutMs: number,
  maxBodyBytes: number,
): Promise<Uint8Array | undefined> {
  const controller = new AbortController();
  let reader: TypeFetchBodyReader | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The timer settles the request even with a fetch that ignores the signal.
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      reader?.cancel().catch(() => undefined);
      resolve(undefined);
    }, timeoutMs);
  });
  const work = async (): Promise<Uint8Array | undefined> => {
    try {
      const res = await fetchFn(url, {
        method: "GET",
        headers: { accept: "application/x-protobuf" },
        redirect: "error",
        signal: controller.signal,
      });
      if (controller.signal.aborted || !res.ok || res.status < 200 || res.status > 299 || res.redirected === true) {
        res.body?.cancel?.().catch(() => undefined);
        return undefined;
      }
      const length = res.headers?.get("content-length");
      if (length !== null && length !== undefined && length !== "" && !(Number(length) <= maxBodyBytes)) {
        res.body?.cancel?.().catch(() => undefined);
        return undefined;
      }
      if (res.body !== null && res.body !== undefined && typeof res.body.getReader === "function") {
        reader = res.body.getReader();
        const chunks: Uint8Array[] = [];
        let total = 0;
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          if (value === undefined) continue;
          total += value.byteLength;
          if (total > maxBodyBytes) {
            reader.cancel().catch(() => undefined);
            return undefined;
          }
          chunks.push(value);
        }
        const body = new Uint8Array(total);
        let at = 0;
        for (const c of chunks) {
          body.set(c, at);
          at += c.byteLength;
        }
        return body;
      }
      const buffer = await res.arrayBuffer();
      return buffer.byteLength > maxBodyBytes ? undefined : new Uint8Array(buffer);
    } catch {
      return undefined;
    }
  };
  try {
    return await Promise.race([work(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs at most `max` tasks at once; the others wait in order. */
function semaphore(max: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (task) => {
    // A finishing task hands its slot straight to the next one, so that no newcomer slips in between.
    if (active < max) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next !== undefined) next();
      else active--;
    }
  };
}

/** A cache of at most `max` entries that drops the least recently used. */
function lruCache(max: number): TypeResolverCache {
  const map = new Map<string, Type | Enum>();
  return {
    get(url) {
      const value = map.get(url);
      if (value !== undefined) {
        // A Map iterates in insertion order: re-inserting makes the entry the most recent.
        map.delete(url);
        map.set(url, value);
      }
      return value;
    },
    set(url, value) {
      map.delete(url);
      map.set(url, value);
      if (map.size > max) map.delete(map.keys().next().value as string);
    },
  };
}
