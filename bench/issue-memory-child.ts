/**
 * What validateJsonString's issues keep alive when their paths share a long client key: the heap retained (after
 * gc) by the issues of one call, its time and peak RSS, and the first issue's path (its length, line and column),
 * which names the 1 MB map key whole. Default: 1,000 issues (a repeated int32 of strings) under a 1 MB key;
 * argument `dup`: 20,000 repeated `"a"` members under it (issues up to maxIssues). It prints one JSON line;
 * compare retainedMB with textMB (shared keys keep it near a few MB, not issues x key length).
 * Bundle and run with --expose-gc:
 * npx esbuild bench/issue-memory-child.ts --bundle --platform=node --format=esm --external:@bufbuild/protobuf
 *   --outfile=.bench/imc.mjs && node --expose-gc .bench/imc.mjs [dup]
 */
import { validateJsonString } from "../src/codec/validate.js";
import { TestAllTypesProto3, testRegistry } from "../test/conformance-registry.js";
const gc = (globalThis as any).gc;
const key = "k".repeat(1 << 20);
const dup = process.argv[2] === "dup";
const text = dup
  ? `{"mapStringNestedMessage":{"${key}":{${Array(20000).fill('"a":1').join(",")}}}}`
  : `{"mapStringNestedMessage":{"${key}":{"corecursive":{"repeatedInt32":[${Array(1000).fill('"x"').join(",")}]}}}}`;
gc();
gc();
const before = process.memoryUsage().heapUsed;
const t0 = performance.now();
const issues = validateJsonString(TestAllTypesProto3, text, { registry: testRegistry });
const ms = performance.now() - t0;
gc();
gc();
const after = process.memoryUsage().heapUsed;
console.log(
  JSON.stringify({
    dup,
    textMB: text.length / 2 ** 20,
    issues: issues.length,
    retainedMB: (after - before) / 2 ** 20,
    ms: Math.round(ms),
    rssMaxMB: process.resourceUsage().maxRSS / 1024,
    first: issues[0]!.jsonPath.slice(0, 60) + "..." + issues[0]!.jsonPath.slice(-40),
    pathLen: issues[0]!.jsonPath.length,
    line: issues[0]!.line,
    column: issues[0]!.column,
  }),
);
