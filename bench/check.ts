/**
 * Equal-output checks, run before anything is timed. A benchmark of wrong answers is worthless: a difference
 * from `@bufbuild/protobuf` stops the run; a difference from (or a rejection by) `@protobuf-ts/runtime` or a
 * floor leaves that column out of the case, with a note saying why.
 */
import { isDeepStrictEqual } from "node:util";
import * as protobufTs from "wkt-json-bench:protobuf-ts";

/** Throws unless `a` and `b` are deeply equal (member order aside). */
export function same(what: string, a: unknown, b: unknown): void {
  if (!isDeepStrictEqual(a, b)) {
    const show = (v: unknown): string =>
      JSON.stringify(v, (_, x: unknown) =>
        typeof x === "bigint" ? `${x}n` : x instanceof Uint8Array ? `<${x.length} bytes>` : x,
      )?.slice(0, 300) ?? String(v);
    throw new Error(`${what}: outputs differ\n  wkt-json: ${show(a)}\n  other:    ${show(b)}`);
  }
}

/**
 * The protobuf-ts column of a case: the function `build` returns, when `check` passes; else a short note why
 * not.
 */
export function tsColumn(check: () => void, build: () => () => void): { ts: () => void } | { tsNote: string } {
  if (protobufTs.reason !== undefined) return { tsNote: "not generated" };
  try {
    check();
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    return { tsNote: message.includes("outputs differ") ? "output differs" : "rejects input" };
  }
  return { ts: build() };
}

/** The generated type, known to be there (call only inside a `tsColumn` check or run). */
export function pt<K extends Exclude<keyof typeof protobufTs, "reason">>(name: K): NonNullable<(typeof protobufTs)[K]> {
  const t = protobufTs[name];
  if (t === undefined) throw new Error(`protobuf-ts ${name} was not generated: ${protobufTs.reason}`);
  return t as NonNullable<(typeof protobufTs)[K]>;
}
