#!/usr/bin/env node
// The `prepare` script: builds dist/ (`npm run build`: tsup and typescript, both devDependencies) so that a git
// install and `npm pack` of a fresh clone get a working package. npm runs `prepare` on `npm install` and
// `npm ci` in this checkout, on `npm pack` and `npm publish`, and for a git dependency, where it runs it twice
// in the same temporary clone (pacote runs `npm install` there, which runs it, then runs it again itself
// before packing: pacote/lib/git.js and dir.js).
//
// The second of two runs in a row is skipped: after a build this script writes dist/.prepare.json with a
// SHA-256 of the build's inputs (every file at the top level of the package, and under src/ and cli/) and of
// every file in dist/, and it builds unless both still match. So it skips only when dist/ holds, byte for
// byte, what it built from the same sources, config and lock file; any change, or a `npm run build` since
// (tsup cleans dist/, stamp included), builds again. The stamp is not published (package.json `files`).

import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const stamp = join(root, "dist", ".prepare.json");

/** Paths of the files under `dir` (relative to the package root, sorted), descending into folders if `deep`. */
function files(dir, deep) {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir), { withFileTypes: true })
    .flatMap((entry) => {
      const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) return deep ? files(path, true) : [];
      return entry.isFile() ? [path] : [];
    })
    .sort();
}

/** One SHA-256 over the names and contents of `paths`. */
function digest(paths) {
  const hash = createHash("sha256");
  for (const path of paths)
    hash
      .update(`${path}\0`)
      .update(readFileSync(join(root, path)))
      .update("\0");
  return hash.digest("hex");
}

const inputs = () => digest([...files("", false), ...files("src", true), ...files("cli", true)]);
const outputs = () => digest(files("dist", true).filter((path) => path !== "dist/.prepare.json"));

const before = existsSync(stamp) ? JSON.parse(readFileSync(stamp, "utf8")) : undefined;
if (before !== undefined && before.inputs === inputs() && before.outputs === outputs()) {
  console.log("prepare: dist/ is the build of these sources already (dist/.prepare.json); not building again");
} else {
  const build = spawnSync("npm", ["run", "build"], { cwd: root, stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeFileSync(stamp, `${JSON.stringify({ inputs: inputs(), outputs: outputs() })}\n`);
}
