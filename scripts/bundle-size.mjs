#!/usr/bin/env node
// `node scripts/bundle-size.mjs`: what wkt-json costs in a browser bundle, side by side with @bufbuild/protobuf
// doing the same job, and a budget for each row (exit status 1 when a row is past its budget).
//
// Each row is a small entry file bundled as an application's bundler would: esbuild with bundle, minify,
// format esm, platform browser, every dependency included (@bufbuild/protobuf and long bundled), then gzip at
// level 9. wkt-json is imported by its package name and resolved through a temporary node_modules/wkt-json
// symlink to this checkout, so what is measured is the BUILT dist/ as package.json's `exports` and
// `sideEffects` present it (run `npm run build` first).
//
// Rows: the Timestamp, Duration and FieldMask JSON functions against protobuf-es's fromJson/toJson with the
// WKT's schema; the codec (fromJson + toJson) for a user message against protobuf-es's fromJson + toJson for
// the same generated schema (test/readme/gen/library_pb.ts, acme.library.v1.Book: a Timestamp, a nested
// message, a map, a repeated field); then each further area on top of the codec row, shown as what it adds;
// then everything. Budgets:
//
// - each WKT row: at most 6 KB gzip (6,144 B);
// - the codec row: at most codecRatioBudget x protobuf-es's own gzip size for the same job (the issue's target
//   is 1.00x and its ceiling 1.25x, not met yet: see codecRatioBudget);
// - the codec row holds no module of the areas (FieldMask algebra, FieldMask apply, PATCH, JSON Schema,
//   descriptors, resolver): they cost only when imported. Checked in esbuild's metafile, which needs the
//   per-module layout of dist/ that tsup.config.ts writes;
// - each area row and the everything row: a ceiling about 15% above its size when the budget was set, so that
//   growth shows.
//
// Prints a markdown table (for the README) and the codec row's bytes per module, grouped as
// "@bufbuild/protobuf", "long" and "wkt-json src/<area>".
//
// Options: --json prints the measurements as JSON instead of the tables (the budget check still runs).

import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const fixture = join(root, "test/readme/gen/library_pb.ts");
const wktBudget = 6 * 1024;
// NOT MET: the issue's target is 1.00x and its hard ceiling 1.25x; the codec row is 53,904 B gzip against
// protobuf-es's 28,083 B (1.92x). This budget is only a regression guard: that ratio rounded up to the next
// 0.05. Where the rest goes (gzip saved by stubbing each part out, measured one at a time): the binary fast
// paths of the well-known types inside an Any 4,490 B (without them the bench's Any rows go from 2.7-3.9x
// faster than protobuf-es to 1.0-1.7x and miss their >=1.5x targets); the WKT registry with
// type/api/source_context and its checks 3,099 B (an Any of any well-known type resolves without a registry);
// Timestamp/Duration text 3,194 B; the base64 codec 2,434 B (Node's Buffer for long input: 64 KB encodes in
// ~40 us against protobuf-es's ~1,100 us, and protobuf-es's decoder accepts input the spec refuses);
// Struct/Value/ListValue 2,530 B; the JSON value checks and budget 1,451 B; the wide-message plans 958 B; enum
// names 480 B. The rest is the codec itself: its own reader and writer with their checks and errors, where
// protobuf-es's to-json.js + from-json.js are 19 KB minified.
//
// Issue 29 added options the codec must read on every call, so they are in this row whatever the caller uses:
// toJson's output options (int64AsNumber, floatShortest, the per-field emission paths and their checks) about
// 1,450 B, and unresolvedAny with the pruning copy that "skip" makes (codec/any-fallback.ts) about 1,400 B:
// 57,395 B, 2.04x. Then (issue 27's second round) duplicates and unreachable branches went: the WKT binary paths
// through one field codec instead of a table per type (-832 B; any-timestamp 2.6-3.1x -> 2.2-2.7x faster than
// protobuf-es, target 1.5x), base64's second size computation, module tables a bundler can drop: 56,084 B,
// 2.00x. What is left is not duplication: the row's string literals (our messages) are ~6 KB gzip more than
// protobuf-es's row, and its code without any string literal is 42.8 KB gzip against protobuf-es's 21.1 KB
// (checks, paths, limits). The budget is the ratio rounded up to the next 0.05.
const codecRatioBudget = 2.0;

/** The areas beyond the codec: the modules of each (paths under dist/, as src/ lays them out). */
const areas = {
  "FieldMask algebra": [/^wkt\/field-mask-algebra\.js$/, /^internal\/mask-algebra\.js$/],
  "FieldMask apply": [/^mask\/field-mask-(apply|project|merge)\.js$/, /^mask\/json-project\.js$/],
  PATCH: [/^mask\/patch\.js$/, /^mask\/body-scan\.js$/],
  "JSON Schema": [/^schema\//],
  descriptors: [/^descriptors\/descriptors\.js$/, /^descriptors\/registry-from-types\.js$/],
  resolver: [/^descriptors\/type-resolver\.js$/],
  "HTTP requests": [/^http\//],
  streams: [/^stream\//],
  Temporal: [/^wkt\/temporal\.js$/],
};

const pbImports = `import { fromJson, toJson } from "@bufbuild/protobuf";`;
const codecOurs = `export { fromJson, toJson } from "wkt-json";\nexport { BookSchema } from ${JSON.stringify(fixture)};`;

/**
 * The rows. `ours` and `theirs` are entry files (their exports are what the application uses); `budget` is a
 * gzip ceiling in bytes, `ratio` a ceiling on ours/theirs, `area` the modules that row brings in.
 */
const rows = [
  ...["Timestamp", "Duration", "FieldMask"].map((wkt) => {
    const fn = wkt[0].toLowerCase() + wkt.slice(1);
    return {
      name: wkt,
      label: `\`${fn}FromJson\` + \`${fn}ToJson\``,
      ours: `export { ${fn}FromJson, ${fn}ToJson } from "wkt-json";`,
      theirs:
        `${pbImports}\nimport { ${wkt}Schema } from "@bufbuild/protobuf/wkt";\n` +
        `export const from = (json) => fromJson(${wkt}Schema, json);\n` +
        `export const to = (message) => toJson(${wkt}Schema, message);`,
      budget: wktBudget,
    };
  }),
  {
    name: "codec",
    label: "`fromJson` + `toJson` of a user message",
    ours: codecOurs,
    theirs: `export { fromJson, toJson } from "@bufbuild/protobuf";\nexport { BookSchema } from ${JSON.stringify(fixture)};`,
    ratio: codecRatioBudget,
  },
  ...[
    [
      "FieldMask algebra",
      "fieldMaskUnion, fieldMaskIntersect, fieldMaskSubtract, fieldMaskNormalize, fieldMaskCovers",
      6200,
    ],
    ["FieldMask apply", "fieldMaskProject, fieldMaskMerge", 6800],
    ["PATCH", "patch", 11000],
    ["JSON Schema", "jsonSchema", 8500],
    [
      "descriptors",
      "typeFromDescriptor, enumFromDescriptor, apiFromDescriptor, typesFromDescriptors, registryFromTypes",
      11000,
    ],
    ["resolver", "createTypeResolver", 10300],
    ["HTTP requests", "fromHttpRequest, toHttpRequest", 16400],
    ["streams", "ndjsonDecodeStream, ndjsonEncodeStream, sizeDelimitedDecodeStream, sizeDelimitedEncodeStream", 15300],
    ["Temporal", "timestampToTemporal, timestampFromTemporal, durationToTemporal, durationFromTemporal", 1600],
  ].map(([area, names, budget]) => ({
    name: area,
    label: `+ ${area} (\`${names.split(", ").join("`, `")}\`)`,
    ours: `${codecOurs}\nexport { ${names} } from "wkt-json";`,
    area,
    deltaBudget: budget,
  })),
  {
    name: "everything",
    label: 'everything (`export * from "wkt-json"`)',
    ours: `export * from "wkt-json";`,
    budget: 141_000,
  },
];

/** A temporary project whose node_modules/wkt-json is this checkout. */
function consumerDir() {
  const dir = mkdtempSync(join(tmpdir(), "wkt-json-size-"));
  mkdirSync(join(dir, "node_modules"));
  symlinkSync(root, join(dir, "node_modules", "wkt-json"), "dir");
  return dir;
}

/** Bundles `contents` as an application would; returns min and gzip bytes and the bytes per input module. */
async function measure(contents, dir, external = []) {
  const result = await build({
    external,
    stdin: { contents, resolveDir: dir, sourcefile: "entry.mjs", loader: "js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    metafile: true,
    logLevel: "silent",
    // @bufbuild/protobuf, for the entry and the fixture: the checkout's own copy.
    nodePaths: [join(root, "node_modules")],
  });
  const bytes = result.outputFiles[0].contents;
  const output = Object.values(result.metafile.outputs)[0];
  const modules = Object.entries(output.inputs)
    .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
    .map(([path, { bytesInOutput }]) => ({
      path: relative(root, join(process.cwd(), path)).split(sep).join("/"),
      bytes: bytesInOutput,
    }));
  return { min: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length, modules };
}

/** The module path below dist/ of a wkt-json module, or undefined for a dependency or the fixture. */
function distPath(path) {
  return path.startsWith("dist/") ? path.slice("dist/".length) : undefined;
}

/** The group a module's bytes are counted under in the breakdown. */
function groupOf(path) {
  if (path.includes("node_modules/@bufbuild/protobuf/")) return "@bufbuild/protobuf";
  if (path.includes("node_modules/long/")) return "long";
  const own = distPath(path);
  if (own === undefined) return path.startsWith("test/") ? "the generated schema" : path;
  const slash = own.indexOf("/");
  return slash < 0 ? "wkt-json src/ (root)" : `wkt-json src/${own.slice(0, slash)}`;
}

const fmt = (n) => n.toLocaleString("en-US");

async function main() {
  const asJson = process.argv.includes("--json");
  for (const file of ["dist/index.js", "dist/index.cjs", "dist/index.d.ts"]) {
    if (!existsSync(join(root, file))) {
      console.error(`bundle-size: ${file} is missing; run \`npm run build\` first`);
      process.exit(1);
    }
  }
  const dir = consumerDir();
  const results = [];
  const failures = [];
  let schemaAlone;
  let codecAlone;
  try {
    for (const row of rows) {
      const ours = await measure(row.ours, dir);
      const theirs = row.theirs === undefined ? undefined : await measure(row.theirs, dir);
      results.push({ row, ours, theirs });
    }
    // For the breakdown: the generated schema alone (what both codec rows start from), and wkt-json's own
    // modules of the codec row alone, with @bufbuild/protobuf left out.
    schemaAlone = await measure(`export { BookSchema } from ${JSON.stringify(fixture)};`, dir);
    codecAlone = await measure(`export { fromJson, toJson } from "wkt-json";`, dir, [
      "@bufbuild/protobuf",
      "@bufbuild/protobuf/*",
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const codec = results.find((r) => r.row.name === "codec");
  const codecModules = new Set(codec.ours.modules.map((m) => m.path));
  const perModule = codec.ours.modules.some((m) => distPath(m.path) !== undefined && m.path !== "dist/index.js");
  if (!perModule) {
    failures.push(
      "dist/index.js is one bundle: the metafile cannot tell which areas the codec row holds (tsup.config.ts " +
        "writes the ESM one module per source file)",
    );
  }

  const table = [
    "| entry | wkt-json min / gzip | @bufbuild/protobuf min / gzip | ratio (gzip) | budget (gzip) |",
    "|---|---:|---:|---:|---:|",
  ];
  for (const { row, ours, theirs } of results) {
    let oursText = `${fmt(ours.min)} / ${fmt(ours.gzip)} B`;
    let theirsText = theirs === undefined ? "n/a" : `${fmt(theirs.min)} / ${fmt(theirs.gzip)} B`;
    let ratioText = theirs === undefined ? "n/a" : `${(ours.gzip / theirs.gzip).toFixed(2)}x`;
    let budgetText;
    if (row.budget !== undefined) {
      budgetText = `≤ ${fmt(row.budget)} B`;
      if (ours.gzip > row.budget) failures.push(`${row.name}: ${fmt(ours.gzip)} B gzip, budget ${fmt(row.budget)} B`);
    } else if (row.ratio !== undefined) {
      budgetText = `≤ ${row.ratio.toFixed(2)}x`;
      if (ours.gzip > theirs.gzip * row.ratio) {
        failures.push(
          `${row.name}: ${fmt(ours.gzip)} B gzip is ${(ours.gzip / theirs.gzip).toFixed(3)}x protobuf-es's ` +
            `${fmt(theirs.gzip)} B, budget ${row.ratio.toFixed(2)}x`,
        );
      }
    } else if (row.deltaBudget !== undefined) {
      const delta = ours.gzip - codec.ours.gzip;
      oursText = `+${fmt(ours.min - codec.ours.min)} / +${fmt(delta)} B`;
      theirsText = "n/a";
      budgetText = `+${fmt(row.deltaBudget)} B`;
      if (delta > row.deltaBudget) {
        failures.push(`${row.name}: adds ${fmt(delta)} B gzip to the codec row, budget ${fmt(row.deltaBudget)} B`);
      }
      // The area's own modules: in this row, never in the codec row.
      const own = ours.modules.filter((m) => areas[row.area].some((re) => re.test(distPath(m.path) ?? "")));
      if (perModule && own.length === 0) failures.push(`${row.name}: none of its modules is in its row`);
      for (const m of own) {
        if (codecModules.has(m.path)) failures.push(`codec row holds ${m.path}, a module of ${row.name}`);
      }
    }
    table.push(`| ${row.label} | ${oursText} | ${theirsText} | ${ratioText} | ${budgetText} |`);
  }
  // Every area's modules, whether or not its row brought them in, are absent from the codec row.
  for (const m of codec.ours.modules) {
    const own = distPath(m.path);
    if (own === undefined) continue;
    for (const [area, patterns] of Object.entries(areas)) {
      if (patterns.some((re) => re.test(own))) failures.push(`codec row holds ${m.path}, a module of ${area}`);
    }
  }

  const groups = new Map();
  for (const m of codec.ours.modules) groups.set(groupOf(m.path), (groups.get(groupOf(m.path)) ?? 0) + m.bytes);
  const theirGroups = new Map();
  for (const m of codec.theirs.modules) {
    theirGroups.set(groupOf(m.path), (theirGroups.get(groupOf(m.path)) ?? 0) + m.bytes);
  }
  const breakdown = [
    "| group (codec row, minified bytes before gzip) | wkt-json row | protobuf-es row |",
    "|---|---:|---:|",
    ...[...new Set([...groups.keys(), ...theirGroups.keys()])]
      .sort((a, b) => (groups.get(b) ?? 0) - (groups.get(a) ?? 0))
      .map((g) => `| ${g} | ${fmt(groups.get(g) ?? 0)} | ${fmt(theirGroups.get(g) ?? 0)} |`),
  ];
  const top = [...codec.ours.modules]
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 25)
    .map((m) => `  ${fmt(m.bytes).padStart(7)}  ${m.path.replace(/^.*node_modules\//, "")}`);
  const onlyOurs = codec.ours.modules
    .filter((m) => m.path.includes("node_modules/") && !codec.theirs.modules.some((t) => t.path === m.path))
    .sort((a, b) => b.bytes - a.bytes)
    .map((m) => `  ${fmt(m.bytes).padStart(7)}  ${m.path.replace(/^.*node_modules\//, "")}`);

  if (asJson) {
    console.log(
      JSON.stringify(
        results.map(({ row, ours, theirs }) => ({
          row: row.name,
          ours: { min: ours.min, gzip: ours.gzip, modules: ours.modules },
          theirs: theirs && { min: theirs.min, gzip: theirs.gzip, modules: theirs.modules },
        })),
        null,
        2,
      ),
    );
  } else {
    console.log("esbuild --bundle --minify --format=esm --platform=browser, gzip -9, every dependency included\n");
    console.log(table.join("\n"));
    const added = (r) => `+${fmt(r.min - schemaAlone.min)} / +${fmt(r.gzip - schemaAlone.gzip)} B`;
    console.log(
      `\nThe codec row over the generated schema alone (${fmt(schemaAlone.min)} / ${fmt(schemaAlone.gzip)} B, min / ` +
        `gzip): wkt-json ${added(codec.ours)}, protobuf-es ${added(codec.theirs)}; wkt-json's own modules ` +
        `alone (@bufbuild/protobuf left out): ${fmt(codecAlone.min)} / ${fmt(codecAlone.gzip)} B.`,
    );
    console.log(`\nThe codec row by group:\n\n${breakdown.join("\n")}`);
    console.log(`\nThe codec row's largest modules (minified bytes):\n${top.join("\n")}`);
    console.log(
      `\nDependency modules in the codec row that protobuf-es's own row does not need:\n` +
        (onlyOurs.length === 0 ? "  none" : onlyOurs.join("\n")),
    );
  }
  if (failures.length > 0) {
    console.error(`\nbundle-size: ${failures.length} budget(s) exceeded:\n${failures.map((f) => `  ${f}`).join("\n")}`);
    process.exit(1);
  }
  console.error("\nbundle-size: every row within its budget");
}

await main();
