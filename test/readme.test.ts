// Every TypeScript block of README.md, of the pages under docs/ and of bench/README.md, as a reader would use
// it: typechecked under --strict (with exactOptionalPropertyTypes and noUncheckedIndexedAccess on top, the
// strictest settings a project is likely to have; lib ES2022 and DOM; generated code from test/readme/gen/),
// then run, with each `expression; //=> value` line checked. How a block becomes a program is
// test/readme/blocks.ts ("wkt-json" is src/index.ts here; check:package typechecks the same programs against
// the packed package under TypeScript 5.0 and the newest).
//
// The typecheck is tsc's own checker through the compiler API, on the blocks as virtual files beside
// test/readme/fixtures.ts, so that nothing is written to disk.
import * as temporalPolyfill from "temporal-polyfill";
import * as protobuf from "@bufbuild/protobuf";
import * as wkt from "@bufbuild/protobuf/wkt";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import * as library from "../src/index.js";
import { makeFixtures } from "./readme/fixtures.js";
import * as gen from "./readme/gen/library_pb.js";
import { build, documentsOf, exportedTypeNames, tsBlocks, type ImplicitImports } from "./readme/blocks.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const readmeDir = join(root, "test", "readme");
/** The documents whose blocks run: the README, then docs/*.md and bench/README.md (paths from the root). */
const documents = documentsOf(readdirSync(join(root, "docs")));

/** What a block's import specifiers are at run time. */
const modules: Record<string, Record<string, unknown>> = {
  "wkt-json": library,
  "@bufbuild/protobuf": protobuf,
  "@bufbuild/protobuf/wkt": wkt,
  "./gen/library_pb.js": gen,
  // The Temporal example passes a polyfill, as on a runtime without Temporal (Node 20 to 24).
  "temporal-polyfill": temporalPolyfill,
};

/** The names a block without import lines gets, by module (types included: they matter to the typecheck). */
const genTypes = exportedTypeNames(readFileSync(join(readmeDir, "gen", "library_pb.ts"), "utf8"));
const implicitImports: ImplicitImports = [
  ["wkt-json", Object.keys(library), []],
  ["./gen/library_pb.js", Object.keys(gen), genTypes],
  ["@bufbuild/protobuf", ["create", "clone"], []],
  ["@bufbuild/protobuf/wkt", ["StructSchema", "AnySchema"], []],
];
const fixtureNames = Object.keys(makeFixtures());

const blocks = documents.flatMap((file) => tsBlocks(file, readFileSync(join(root, file), "utf8")));
const programs = blocks.map((b) => ({ block: b, program: build(b, implicitImports, fixtureNames) }));
const virtualPath = (k: number) => join(readmeDir, `__readme_block_${k}.ts`);

describe("README.md, docs/*.md, bench/README.md", () => {
  it("keeps the README under 30,000 bytes: what a newcomer reads in ten minutes (the rest is in docs/)", () => {
    expect(Buffer.byteLength(readFileSync(join(root, "README.md"), "utf8"))).toBeLessThan(30_000);
  });

  it("lists every rule of WktRule in The error model (rule not-finite was missing once)", () => {
    const errors = readFileSync(join(root, "src", "errors.ts"), "utf8");
    const union = errors.slice(
      errors.indexOf("export type WktRule ="),
      errors.indexOf(";", errors.indexOf("export type WktRule =")),
    );
    const rules = [...union.matchAll(/"([a-z0-9-]+)"/g)].map((m) => m[1]!);
    expect(rules.length).toBeGreaterThan(20);
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const list = readme.slice(readme.indexOf("The rules (`WktRule`)"), readme.indexOf("## Limits"));
    expect(rules.filter((r) => !list.includes(`\`${r}\``))).toEqual([]);
  });

  it("has TypeScript blocks with results to check", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    expect(programs.reduce((n, p) => n + p.program.arrows, 0)).toBeGreaterThanOrEqual(30);
  });

  describe("typechecks every block under --strict", () => {
    let diagnostics: Map<number, string[]>;
    beforeAll(() => {
      const options: ts.CompilerOptions = {
        strict: true,
        exactOptionalPropertyTypes: true,
        noUncheckedIndexedAccess: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
        types: [],
        skipLibCheck: true,
        noEmit: true,
        baseUrl: root,
        paths: { "wkt-json": ["src/index.ts"] },
      };
      const files = new Map(programs.map((p, k) => [virtualPath(k), p.program.typecheckText]));
      const host = ts.createCompilerHost(options);
      const getSourceFile = host.getSourceFile.bind(host);
      host.getSourceFile = (fileName, language, onError, create) => {
        const text = files.get(resolve(fileName));
        return text !== undefined
          ? ts.createSourceFile(fileName, text, language, true)
          : getSourceFile(fileName, language, onError, create);
      };
      const fileExists = host.fileExists.bind(host);
      host.fileExists = (fileName) => files.has(resolve(fileName)) || fileExists(fileName);
      const readFile = host.readFile.bind(host);
      host.readFile = (fileName) => files.get(resolve(fileName)) ?? readFile(fileName);
      const program = ts.createProgram([...files.keys()], options, host);
      diagnostics = new Map();
      // The blocks and their fixtures and generated code (test/readme/), not the library's own files: those are
      // checked under these options and stricter ones by `npm run typecheck` (tsconfig.src.json, also without
      // Node's types), and checking them here again was half of this file's time.
      const checked = program.getSourceFiles().filter((f) => resolve(f.fileName).startsWith(readmeDir));
      const found = [
        ...program.getOptionsDiagnostics(),
        ...program.getGlobalDiagnostics(),
        ...checked.flatMap((f) => [...program.getSyntacticDiagnostics(f), ...program.getSemanticDiagnostics(f)]),
      ];
      for (const d of found) {
        const k = d.file === undefined ? -1 : [...files.keys()].indexOf(resolve(d.file.fileName));
        let where = d.file?.fileName ?? "";
        if (k >= 0 && d.file !== undefined && d.start !== undefined) {
          const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
          const p = programs[k]!;
          where = `${p.block.file}:${p.block.line + line - p.program.headerLines}:${character + 1}`;
        }
        const list = diagnostics.get(k) ?? [];
        list.push(`${where}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
        diagnostics.set(k, list);
      }
    }, 120_000);

    it("(no errors outside the blocks)", () => {
      expect(diagnostics.get(-1) ?? []).toEqual([]);
    });
    it.each(programs.map((p, k) => [`${p.block.file}:${p.block.line}`, k] as const))("the block at %s", (_where, k) => {
      expect(diagnostics.get(k) ?? []).toEqual([]);
    });
  });

  describe("runs every block and checks its results", () => {
    it.each(programs.map((p) => [`${p.block.file}:${p.block.line}`, p] as const))(
      "the block at %s",
      async (_where, { program }) => {
        const names: string[] = [];
        const values: unknown[] = [];
        for (const i of program.imports) {
          const ns = modules[i.module];
          if (ns === undefined) throw new Error(`no module ${i.module} for the README's blocks`);
          if (!(i.name in ns)) continue; // a type (the typecheck has checked that the name exists)
          names.push(i.local);
          values.push(ns[i.name]);
        }
        const fixtures = makeFixtures() as unknown as Record<string, unknown>;
        for (const n of program.fixtures) {
          names.push(n);
          values.push(fixtures[n]);
        }
        let checked = 0;
        names.push("__check");
        values.push((actual: unknown, expected: unknown, where: string) => {
          checked++;
          expect(actual, where).toEqual(expected);
        });
        const js = ts
          .transpileModule(program.runText, {
            compilerOptions: {
              target: ts.ScriptTarget.ES2022,
              module: ts.ModuleKind.ESNext,
              moduleDetection: ts.ModuleDetectionKind.Force,
            },
          })
          .outputText.replace(/^export \{\};\s*$/m, "");
        const AsyncFunction = (async () => {}).constructor as new (
          ...args: string[]
        ) => (...args: unknown[]) => Promise<void>;
        await new AsyncFunction(...names, js)(...values);
        expect(checked).toBe(program.arrows);
      },
    );
  });
});
