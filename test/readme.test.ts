// Every TypeScript block of README.md, as a reader would use it: typechecked under --strict (with
// exactOptionalPropertyTypes and noUncheckedIndexedAccess on top, the strictest settings a project is likely to
// have; generated code from test/readme/gen/), then run, with each `expression; //=> value` line checked.
//
// How a block becomes a program:
// - Its import lines stay ("wkt-json" is src/index.ts; "./gen/library_pb.js" is test/readme/gen/library_pb.ts).
//   A block without import lines gets the names the README promises: every export of wkt-json and of
//   ./gen/library_pb.js, `create` and `clone` of @bufbuild/protobuf, `StructSchema` of @bufbuild/protobuf/wkt.
// - Every block may use the example data of test/readme/fixtures.ts (`stored`, `hook`, ...), a fresh copy each.
//   A name the block declares or imports itself is not given.
// - `statement; //=> value` (on the statement's last line, or alone on the line below it): `value` is a
//   TypeScript expression, optionally followed by a `// comment`; the statement's expression (or the variable it
//   declares) must deeply equal it (vitest's toEqual). Every such line must run: an arrow in a branch that is
//   not taken is a failure.
//
// The typecheck is tsc's own checker through the compiler API, on the blocks as virtual files beside
// test/readme/fixtures.ts, so that nothing is written to disk.
import * as protobuf from "@bufbuild/protobuf";
import * as wkt from "@bufbuild/protobuf/wkt";
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import * as library from "../src/index.js";
import { makeFixtures } from "./readme/fixtures.js";
import * as gen from "./readme/gen/library_pb.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const readmeDir = join(root, "test", "readme");
const readme = readFileSync(join(root, "README.md"), "utf8");

/** What a block's import specifiers are at run time. */
const modules: Record<string, Record<string, unknown>> = {
  "wkt-json": library,
  "@bufbuild/protobuf": protobuf,
  "@bufbuild/protobuf/wkt": wkt,
  "./gen/library_pb.js": gen,
};

/** The names a block without import lines gets, by module (types included: they matter to the typecheck). */
const genTypes = [
  ...readFileSync(join(readmeDir, "gen", "library_pb.ts"), "utf8").matchAll(/^export type (\w+)/gm),
].map((m) => m[1]!);
const implicitImports: [string, string[], string[]][] = [
  ["wkt-json", Object.keys(library), []],
  ["./gen/library_pb.js", Object.keys(gen), genTypes],
  ["@bufbuild/protobuf", ["create", "clone"], []],
  ["@bufbuild/protobuf/wkt", ["StructSchema"], []],
];
const fixtureNames = Object.keys(makeFixtures());

interface Block {
  /** 1-based line of the README where the code starts (the line after the fence). */
  line: number;
  code: string;
}

function tsBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== "```ts" && lines[i] !== "```typescript") continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end] !== "```") end++;
    if (end === lines.length) throw new Error(`README.md:${i + 1}: a ts block without its closing fence`);
    blocks.push({ line: start + 1, code: lines.slice(start, end).join("\n") + "\n" });
    i = end;
  }
  return blocks;
}

interface ImportedName {
  module: string;
  name: string;
  local: string;
  typeOnly: boolean;
}

interface Program {
  /** The block as a module for the typecheck: its own text, arrows turned into checks, and the imports it gets. */
  typecheckText: string;
  /** Lines of typecheckText before the block's first line. */
  headerLines: number;
  /** The block's statements for the run: no imports, arrows turned into checks; still TypeScript. */
  runText: string;
  /** The names the run gets, with where they come from. */
  imports: ImportedName[];
  fixtures: string[];
  arrows: number;
}

function build(block: Block): Program {
  const sf = ts.createSourceFile("block.ts", block.code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const imports: ImportedName[] = [];
  const declared = new Set<string>();
  const importRanges: [number, number][] = [];
  for (const stmt of sf.statements) {
    if (ts.isImportDeclaration(stmt)) {
      const module = (stmt.moduleSpecifier as ts.StringLiteral).text;
      const clause = stmt.importClause;
      const named = clause?.namedBindings;
      if (clause === undefined || clause.name !== undefined || named === undefined || !ts.isNamedImports(named)) {
        throw new Error(`README.md:${block.line + lineOf(sf, stmt)}: only named imports are supported`);
      }
      for (const el of named.elements) {
        const local = el.name.text;
        imports.push({
          module,
          name: (el.propertyName ?? el.name).text,
          local,
          typeOnly: clause.isTypeOnly || el.isTypeOnly,
        });
        declared.add(local);
      }
      importRanges.push([stmt.getStart(sf), stmt.end]);
    } else if (ts.isVariableStatement(stmt)) {
      for (const d of stmt.declarationList.declarations) for (const n of bindingNames(d.name)) declared.add(n);
    } else if ((ts.isFunctionDeclaration(stmt) || ts.isClassDeclaration(stmt)) && stmt.name !== undefined) {
      declared.add(stmt.name.text);
    }
  }
  const hasImports = imports.length > 0;
  const implicit: ImportedName[] = [];
  if (!hasImports) {
    const seen = new Set(declared);
    for (const [module, values, types] of implicitImports) {
      for (const [names, typeOnly] of [
        [values, false],
        [types, true],
      ] as const) {
        for (const name of names) {
          if (seen.has(name)) continue;
          seen.add(name);
          implicit.push({ module, name, local: name, typeOnly });
        }
      }
    }
  }
  const fixtures = fixtureNames.filter((n) => !declared.has(n) && !implicit.some((i) => i.local === n));

  // Arrows: `statement; //=> expected` on the statement's last line.
  const edits: { start: number; end: number; text: string }[] = [];
  const arrowsSeen = new Set<number>();
  const visit = (node: ts.Node): void => {
    if (ts.isExpressionStatement(node) || ts.isVariableStatement(node)) {
      // On the statement's last line, or alone on the line below it.
      const m = /^[ \t]*(?:\n[ \t]*)?\/\/=>([^\n]*)/.exec(block.code.slice(node.end));
      if (m !== null && !arrowsSeen.has(node.end + m[0].length)) {
        arrowsSeen.add(node.end + m[0].length);
        const expected = m[1]!.trim();
        const line = block.line + lineOf(sf, node);
        const check = (actual: string) => `__check((${actual}), (\n${expected}\n), ${line})`;
        if (ts.isExpressionStatement(node)) {
          edits.push({ start: node.getStart(sf), end: node.end, text: check(node.expression.getText(sf)) + ";" });
        } else {
          const decls = node.declarationList.declarations;
          const only = decls[0];
          if (decls.length !== 1 || only === undefined || !ts.isIdentifier(only.name)) {
            throw new Error(`README.md:${line}: an arrow after a declaration needs one variable`);
          }
          edits.push({ start: node.end, end: node.end, text: " " + check(only.name.text) + ";" });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  const arrowCount = block.code.split("//=>").length - 1;
  if (arrowsSeen.size !== arrowCount) {
    throw new Error(`README.md:${block.line}: ${arrowCount - arrowsSeen.size} arrow(s) do not follow a statement`);
  }
  const apply = (text: string, more: { start: number; end: number; text: string }[]) => {
    let out = text;
    for (const e of [...edits, ...more].sort((a, b) => b.start - a.start))
      out = out.slice(0, e.start) + e.text + out.slice(e.end);
    return out;
  };
  // Imports become blank lines for the run (line numbers stay), and stay as they are for the typecheck.
  const runText = apply(
    block.code,
    importRanges.map(([start, end]) => ({ start, end, text: block.code.slice(start, end).replace(/[^\n]/g, "") })),
  );
  const header: string[] = ["declare function __check(actual: unknown, expected: unknown, line: number): void;"];
  const byModule = new Map<string, string[]>();
  for (const i of implicit) {
    const list = byModule.get(i.module) ?? [];
    list.push(i.typeOnly ? `type ${i.name}` : i.name);
    byModule.set(i.module, list);
  }
  for (const [module, names] of byModule) header.push(`import { ${names.join(", ")} } from ${JSON.stringify(module)};`);
  header.push(`import { makeFixtures as __makeFixtures } from "./fixtures.js";`);
  if (fixtures.length > 0) header.push(`const { ${fixtures.join(", ")} } = __makeFixtures();`);
  return {
    typecheckText: header.join("\n") + "\n" + apply(block.code, []),
    headerLines: header.length,
    runText,
    imports: [...imports, ...implicit],
    fixtures,
    arrows: arrowCount,
  };
}

function lineOf(sf: ts.SourceFile, node: ts.Node): number {
  return sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
}

function bindingNames(name: ts.BindingName): string[] {
  if (ts.isIdentifier(name)) return [name.text];
  const out: string[] = [];
  for (const el of name.elements) if (!ts.isOmittedExpression(el)) out.push(...bindingNames(el.name));
  return out;
}

const blocks = tsBlocks(readme);
const programs = blocks.map((b) => ({ block: b, program: build(b) }));
const virtualPath = (k: number) => join(readmeDir, `__readme_block_${k}.ts`);

describe("README.md", () => {
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
      for (const d of ts.getPreEmitDiagnostics(program)) {
        const k = d.file === undefined ? -1 : [...files.keys()].indexOf(resolve(d.file.fileName));
        let where = d.file?.fileName ?? "";
        if (k >= 0 && d.file !== undefined && d.start !== undefined) {
          const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
          const p = programs[k]!;
          where = `README.md:${p.block.line + line - p.program.headerLines}:${character + 1}`;
        }
        const list = diagnostics.get(k) ?? [];
        list.push(`${where}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
        diagnostics.set(k, list);
      }
    }, 120_000);

    it("(no errors outside the blocks)", () => {
      expect(diagnostics.get(-1) ?? []).toEqual([]);
    });
    it.each(programs.map((p, k) => [p.block.line, k] as const))("the block at README.md:%i", (_line, k) => {
      expect(diagnostics.get(k) ?? []).toEqual([]);
    });
  });

  describe("runs every block and checks its results", () => {
    it.each(programs.map((p) => [p.block.line, p] as const))(
      "the block at README.md:%i",
      async (_line, { program }) => {
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
        values.push((actual: unknown, expected: unknown, line: number) => {
          checked++;
          expect(actual, `README.md:${line}`).toEqual(expected);
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
