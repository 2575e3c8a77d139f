/**
 * The query of an HTTP request as a list of parameters, decoded, in the order the client wrote them: from a
 * query string (`a=1&b=2`, with or without its `?`, read as application/x-www-form-urlencoded: `+` is a space),
 * a `URLSearchParams`, or a record of strings and lists of strings (what Express, Fastify and Node's
 * `querystring` give). Bounded: at most `maxParams` parameters, and no more text than the URL's length limit.
 *
 * @module
 * @internal
 */
import { WktJsonError } from "../errors.js";
import { formatBound } from "../limits.js";
import { describe } from "../internal/describe.js";
import { optionsTypeName } from "../internal/options.js";
import { formDecode } from "./percent.js";

/**
 * The query of a request: a query string, a `URLSearchParams` (or anything with its `forEach`, such as a
 * `Map<string, string>`), or a record of strings and lists of strings. Named structurally, so that the types
 * need no DOM library.
 */
export type HttpQuery =
  | string
  | { forEach(callback: (value: string, name: string) => void): void }
  | { readonly [name: string]: string | readonly string[] | undefined };

/** A parameter: its name and value decoded, and the name as the client wrote it (for errors). */
export interface QueryParam {
  readonly name: string;
  readonly value: string;
}

/** Limits of the parameters' parsing: how many, and how many code units in all (the URL's budget left). */
export interface QueryBounds {
  readonly maxParams: number;
  readonly lengthLeft: number;
  readonly maxLength: number;
  readonly typeName: string;
}

/** The length of a query string, counted against the URL's `maxLength` before anything is split. */
export function queryTextLength(query: HttpQuery | undefined): number {
  return typeof query === "string" ? query.length : 0;
}

/** The longest part of a parameter's name an error shows. */
const shownNameMax = 100;

/** A parameter as errors name it, as the client wrote it: `query parameter ?read_mask` (a long name cut). */
export function paramLabel(name: string): string {
  return `query parameter ?${name.length > shownNameMax ? name.slice(0, shownNameMax) + "…" : name}`;
}

/**
 * The parameters of a query.
 *
 * @throws {WktJsonError} rule `size` beyond `maxParams` or the URL's length; `syntax` for a malformed
 *   percent-encoding (naming the parameter); `json-type` for a record member that is not a string or a list of
 *   strings, or a query of another type.
 */
export function queryParams(query: HttpQuery | undefined, b: QueryBounds): QueryParam[] {
  const out: QueryParam[] = [];
  if (query === undefined) return out;
  const tooMany = () =>
    new WktJsonError(
      "size",
      "$",
      b.typeName,
      `the query has more than maxParams (${formatBound(b.maxParams)}) parameters`,
    );
  if (typeof query === "string") {
    const text = query.charCodeAt(0) === 63 /* ? */ ? query.slice(1) : query;
    if (text === "") return out;
    let start = 0;
    for (;;) {
      let end = text.indexOf("&", start);
      if (end < 0) end = text.length;
      if (end > start) {
        if (out.length >= b.maxParams) throw tooMany();
        const part = text.slice(start, end);
        const eq = part.indexOf("=");
        const rawName = eq < 0 ? part : part.slice(0, eq);
        const rawValue = eq < 0 ? "" : part.slice(eq + 1);
        const name = formDecode(rawName);
        const value = name === undefined ? undefined : formDecode(rawValue);
        if (name === undefined || value === undefined) {
          throw new WktJsonError(
            "syntax",
            "$",
            b.typeName,
            `${paramLabel(rawName)}: malformed percent-encoding (RFC 3986: "%" and two hex digits of UTF-8)`,
          );
        }
        out.push({ name, value });
      }
      if (end === text.length) break;
      start = end + 1;
    }
    return out;
  }
  if (query === null || typeof query !== "object" || Array.isArray(query)) {
    throw new WktJsonError(
      "json-type",
      "$",
      optionsTypeName,
      `query: expected a query string, a URLSearchParams or a record of strings, got ${describe(query)}`,
    );
  }
  try {
    objectParams(query, b, out, tooMany);
  } catch (e) {
    // A getter or a forEach of the caller's that throws: the query cannot be read.
    if (e instanceof WktJsonError) throw e;
    throw new WktJsonError(
      "json-type",
      "$",
      optionsTypeName,
      `query: cannot be read (reading it threw ${e instanceof Error ? e.name : describe(e)})`,
    );
  }
  return out;
}

/** The parameters of a query given as an object: a URLSearchParams, a Map, a record. */
function objectParams(query: object, b: QueryBounds, out: QueryParam[], tooMany: () => WktJsonError): void {
  let length = 0;
  const add = (name: string, value: string) => {
    if (out.length >= b.maxParams) throw tooMany();
    length += name.length + value.length + 2;
    if (length > b.lengthLeft) {
      throw new WktJsonError(
        "size",
        "$",
        b.typeName,
        `the request's path and query are longer than maxLength (${formatBound(b.maxLength)} UTF-16 code units)`,
      );
    }
    out.push({ name, value });
  };
  const forEach: unknown = (query as { forEach?: unknown }).forEach;
  if (typeof forEach === "function") {
    // URLSearchParams, a Map: each entry, stopped by `add`'s bounds; the names and values must be strings.
    (query as { forEach(callback: (value: unknown, name: unknown) => void): void }).forEach((value, name) => {
      if (typeof value !== "string" || typeof name !== "string") {
        throw new WktJsonError(
          "json-type",
          "$",
          b.typeName,
          `${typeof name === "string" ? paramLabel(name) : `query parameter ?${describe(name)}`}: expected a string, got ${describe(value)}`,
        );
      }
      add(name, value);
    });
    return;
  }
  const names = Object.keys(query);
  if (names.length > b.maxParams) throw tooMany();
  for (const name of names) {
    const v: unknown = (query as Record<string, unknown>)[name];
    if (v === undefined) continue;
    if (typeof v === "string") add(name, v);
    else if (Array.isArray(v) && v.length > b.maxParams) throw tooMany();
    else if (Array.isArray(v) && v.every((x) => typeof x === "string")) {
      for (const x of v as string[]) add(name, x);
    } else {
      throw new WktJsonError(
        "json-type",
        "$",
        b.typeName,
        `${paramLabel(name)}: expected a string or a list of strings, got ${describe(v)}`,
      );
    }
  }
}
