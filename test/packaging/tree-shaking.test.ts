// What an application's bundler keeps of wkt-json: esbuild bundles an entry that imports a few functions from
// src/index.ts, as it would from the per-module dist/ (one module per source file, `sideEffects: false`), and
// the metafile says which modules are in the bundle. scripts/bundle-size.mjs measures the built dist/ with
// budgets; this test pins the properties that make those budgets reachable, without a build:
//
// - the Timestamp, Duration and FieldMask JSON functions load no code of `long` and none of @bufbuild/protobuf
//   (they build their messages as literals, which the last group checks are what create() makes);
// - the codec (fromJson + toJson) holds no module of PATCH, JSON Schema, the descriptors or the resolver.

import { create, equals, isMessage } from "@bufbuild/protobuf";
import { DurationSchema, FieldMaskSchema, TimestampSchema } from "@bufbuild/protobuf/wkt";
import { build } from "esbuild";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { durationFromJson, durationFromNanos } from "../../src/wkt/duration.js";
import { fieldMaskFromJson, fieldMaskFromPaths } from "../../src/wkt/field-mask.js";
import { timestampFromDate, timestampFromJson } from "../../src/wkt/timestamp.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "../..");

/** The modules (paths relative to the checkout) esbuild keeps in a browser bundle of `contents`. */
async function bundledModules(contents: string): Promise<string[]> {
  const result = await build({
    stdin: { contents, resolveDir: root, sourcefile: "entry.mjs", loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  const output = Object.values(result.metafile.outputs)[0]!;
  return Object.entries(output.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([path]) => relative(root, join(root, path)).split(sep).join("/"));
}

const fromSrc = (names: string) => `export { ${names} } from "./src/index.ts";`;

// esbuild takes 0.3-0.7 s a bundle on a quiet 2-core machine; the timeout leaves room for a loaded one.
describe("tree-shaking (esbuild, browser, from src/)", { timeout: 30_000 }, () => {
  it.each([
    ["Timestamp", "timestampFromJson, timestampToJson"],
    ["Duration", "durationFromJson, durationToJson"],
    ["FieldMask", "fieldMaskFromJson, fieldMaskToJson"],
  ])("the %s JSON functions load no code of long or @bufbuild/protobuf", async (_wkt, names) => {
    const modules = await bundledModules(fromSrc(names));
    expect(modules.filter((m) => m.includes("node_modules/"))).toEqual([]);
    expect(modules.filter((m) => /^src\/(codec|mask|schema|descriptors)\//.test(m))).toEqual([]);
  });

  it("int64From loads no code of long", async () => {
    const modules = await bundledModules(fromSrc("int64From"));
    expect(modules.filter((m) => m.includes("node_modules/"))).toEqual([]);
  });

  it("the codec holds no module of PATCH, JSON Schema, the descriptors or the resolver", async () => {
    const modules = await bundledModules(fromSrc("fromJson, toJson"));
    expect(modules).toContain("src/codec/from-json.ts");
    expect(modules).toContain("src/codec/to-json.ts");
    expect(modules.filter((m) => /^src\/(mask|schema|descriptors)\//.test(m))).toEqual([]);
    expect(modules.filter((m) => m.includes("node_modules/long/"))).toEqual([]);
  });
});

describe("no module of src/ imports a module only for its side effects", () => {
  // Under verbatimModuleSyntax, `import { type A } from "m"` is kept as `import {} from "m"`: an import for
  // side effects, which a bundler that does not read "sideEffects" keeps, with all of "m". `import type` is
  // erased.
  const files = readdirSync(join(root, "src"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"));

  it.each(files)("src/%s", (file) => {
    const text = readFileSync(join(root, "src", file), "utf8");
    const typesOnly = /^import \{(\s*type [\w$]+(\s+as [\w$]+)?\s*,?)+\s*\} from .*$/gm;
    const bare = /^import ["'].*$/gm;
    expect([...(text.match(typesOnly) ?? []), ...(text.match(bare) ?? [])]).toEqual([]);
  });
});

describe("the WKT functions' literal messages are what create() makes", () => {
  it.each([
    ["Timestamp", TimestampSchema, timestampFromJson("2024-02-29T12:00:00.5Z"), { seconds: 1709208000n, nanos: 5e8 }],
    ["Timestamp from a Date", TimestampSchema, timestampFromDate(new Date(-1)), { seconds: -1n, nanos: 999000000 }],
    ["Duration", DurationSchema, durationFromJson("-1.5s"), { seconds: -1n, nanos: -5e8 }],
    ["Duration from nanos", DurationSchema, durationFromNanos(0n), {}],
    ["FieldMask", FieldMaskSchema, fieldMaskFromJson("a.b,cD"), { paths: ["a.b", "c_d"] }],
    ["FieldMask from paths", FieldMaskSchema, fieldMaskFromPaths([]), {}],
  ] as const)("%s", (_label, schema, literal, init) => {
    const made = create(schema as typeof TimestampSchema, init as object);
    expect(isMessage(literal, schema)).toBe(true);
    expect(equals(schema as typeof TimestampSchema, literal as never, made)).toBe(true);
    expect(literal).toStrictEqual(made);
    expect(Object.keys(literal)).toEqual(Object.keys(made));
  });
});
