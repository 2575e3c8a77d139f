// How a TypeScript block of the README (or of docs/*.md, bench/README.md) becomes a program: shared by
// test/readme.test.ts, which typechecks and runs every block against src/, and scripts/check-package.mjs, which
// typechecks them against the installed package under the oldest and newest TypeScript with the DOM lib, as a
// user's web project would (it transpiles this file with the TypeScript API, so it imports only typescript).
//
// - Its import lines stay ("wkt-json"; "./gen/library_pb.js" is test/readme/gen/library_pb.ts).
//   A block without import lines gets the names the README promises (`implicitImports`).
// - Every block may use the example data of test/readme/fixtures.ts (`stored`, `hook`, ...), a fresh copy each.
//   A name the block declares or imports itself is not given.
// - `statement; //=> value` (on the statement's last line, or alone on the line below it): `value` is a
//   TypeScript expression, optionally followed by a `// comment`; the statement's expression (or the variable it
//   declares) must deeply equal it. Every such line must run: an arrow in a branch not taken is a failure.
import ts from "typescript";

/** The names a block without import lines gets: [module, value names, type names]. */
export type ImplicitImports = [string, string[], string[]][];

/** The documents whose blocks are checked, from the root: the README, docs/*.md (sorted), bench/README.md. */
export function documentsOf(docsFiles: readonly string[]): string[] {
  return [
    "README.md",
    ...docsFiles
      .filter((f) => f.endsWith(".md"))
      .sort()
      .map((f) => `docs/${f}`),
    "bench/README.md",
  ];
}

/** The names `export type X` of a generated file's text (the types a block may use without importing). */
export function exportedTypeNames(text: string): string[] {
  return [...text.matchAll(/^export type (\w+)/gm)].map((m) => m[1]!);
}

export interface Block {
  /** The document, from the root (`README.md`, `docs/recipes.md`). */
  file: string;
  /** 1-based line of the document where the code starts (the line after the fence). */
  line: number;
  code: string;
}

/** The ```ts blocks of a document. */
export function tsBlocks(file: string, text: string): Block[] {
  const blocks: Block[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== "```ts" && lines[i] !== "```typescript") continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && lines[end] !== "```") end++;
    if (end === lines.length) throw new Error(`${file}:${i + 1}: a ts block without its closing fence`);
    blocks.push({ file, line: start + 1, code: lines.slice(start, end).join("\n") + "\n" });
    i = end;
  }
  return blocks;
}

export interface ImportedName {
  module: string;
  name: string;
  local: string;
  typeOnly: boolean;
}

export interface Program {
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

/** A block as a program, given the names a block without imports gets and the fixtures' names. */
export function build(block: Block, implicitImports: ImplicitImports, fixtureNames: readonly string[]): Program {
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
        throw new Error(`${block.file}:${block.line + lineOf(sf, stmt)}: only named imports are supported`);
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
        const check = (actual: string) =>
          `__check((${actual}), (\n${expected}\n), ${JSON.stringify(`${block.file}:${line}`)})`;
        if (ts.isExpressionStatement(node)) {
          edits.push({ start: node.getStart(sf), end: node.end, text: check(node.expression.getText(sf)) + ";" });
        } else {
          const decls = node.declarationList.declarations;
          const only = decls[0];
          if (decls.length !== 1 || only === undefined || !ts.isIdentifier(only.name)) {
            throw new Error(`${block.file}:${line}: an arrow after a declaration needs one variable`);
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
    throw new Error(`${block.file}:${block.line}: ${arrowCount - arrowsSeen.size} arrow(s) do not follow a statement`);
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
  const header: string[] = ["declare function __check(actual: unknown, expected: unknown, where: string): void;"];
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
