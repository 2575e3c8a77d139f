/**
 * The layers of src/, kept by a test: imports go down, or sideways within a folder, never up, and no module
 * imports itself back through others. Read from the source text (every `import`/`export ... from` with a
 * relative specifier), so a new file or folder is checked without being listed here.
 *
 * Layers, lowest first: the shared base at the root (errors, limits, path, int64), internal/, wkt/, codec/, then
 * mask/, schema/ and descriptors/ (which may use each other only as listed below), and src/index.ts, the barrel.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const src = resolve(dirname(fileURLToPath(import.meta.url)), "../src");

/** The rank of each folder: a module may import from its own folder or a lower rank. */
const rank: Record<string, number> = {
  ".": 0,
  internal: 1,
  wkt: 2,
  codec: 3,
  mask: 4,
  schema: 4,
  descriptors: 4,
  // Streams of messages (NDJSON, size-delimited binary): built on the codec.
  stream: 4,
  http: 4,
};
/** Imports between folders of the same rank that are allowed: [from, to]. */
const sideways = new Set<string>([
  // Standard Schema's create mode and JSON Schema's field behaviour use the AIP-203 rules of mask/.
  "schema>mask",
]);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith(".ts") ? [p] : [];
  });
}

const files = sourceFiles(src);
const importRe = /^\s*(?:import|export)\s[^;]*?from\s*"(\.{1,2}\/[^"]+)"/gms;

/** Each file's relative imports, as files of src/ (relative paths). */
const graph = new Map<string, string[]>(
  files.map((file) => {
    const text = readFileSync(file, "utf8");
    const targets = [...text.matchAll(importRe)].map((m) =>
      relative(src, resolve(dirname(file), m[1]!.replace(/\.js$/, ".ts"))),
    );
    return [relative(src, file), targets];
  }),
);

function folderOf(file: string): string {
  const d = dirname(file);
  return d === "." ? "." : d.split("/")[0]!;
}

describe("src/ layers", () => {
  it("every relative import names a file of src/", () => {
    const missing = [...graph].flatMap(([f, ts]) => ts.filter((t) => !graph.has(t)).map((t) => `${f} -> ${t}`));
    expect(missing).toEqual([]);
  });

  it("every folder has a rank", () => {
    const unranked = [...graph.keys()].map(folderOf).filter((f) => !(f in rank));
    expect([...new Set(unranked)]).toEqual([]);
  });

  it("imports go down or sideways within a folder, never up", () => {
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      if (file === "index.ts") continue; // the barrel exports everything
      const from = folderOf(file);
      for (const target of targets) {
        const to = folderOf(target);
        if (target === "index.ts") upward.push(`${file} -> ${target} (the barrel)`);
        else if (from === to) continue;
        else if (rank[to]! > rank[from]!) upward.push(`${file} -> ${target}`);
        else if (rank[to] === rank[from] && !sideways.has(`${from}>${to}`)) upward.push(`${file} -> ${target}`);
      }
    }
    expect(upward).toEqual([]);
  });

  it("no import cycle", () => {
    const cycles: string[] = [];
    const state = new Map<string, "open" | "done">();
    const stack: string[] = [];
    const visit = (file: string): void => {
      state.set(file, "open");
      stack.push(file);
      for (const next of graph.get(file) ?? []) {
        const s = state.get(next);
        if (s === "open") cycles.push([...stack.slice(stack.indexOf(next)), next].join(" -> "));
        else if (s === undefined) visit(next);
      }
      stack.pop();
      state.set(file, "done");
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });
});
