#!/usr/bin/env node
// Prints the results of `npm run bench -- --json[=file]` as the Markdown table of README.md "Performance".
// Usage: node bench/markdown.mjs [.bench/results.json]
import { readFileSync } from "node:fs";

const doc = JSON.parse(readFileSync(process.argv[2] ?? ".bench/results.json", "utf8"));

function ns(x) {
  if (x === undefined) return "—";
  if (x < 1e3) return `${x.toPrecision(3)} ns`;
  if (x < 1e6) return `${(x / 1e3).toPrecision(3)} µs`;
  if (x < 1e9) return `${(x / 1e6).toPrecision(3)} ms`;
  return `${(x / 1e9).toPrecision(3)} s`;
}

const rows = [
  "| case | wkt-json | @bufbuild/protobuf | @protobuf-ts/runtime | floor | speed-up vs protobuf-es | ours / floor | target |",
  "|---|---:|---:|---:|---:|---:|---:|---|",
];
let area = "";
for (const c of doc.cases) {
  if (c.area !== area) {
    area = c.area;
    rows.push(`| **${area}** | | | | | | | |`);
  }
  const ts = c.ns.ts !== undefined ? ns(c.ns.ts) : (c.tsNote ?? "—");
  const floor = c.ns.floor !== undefined ? `${ns(c.ns.floor)} (${c.floorName})` : "—";
  const es = c.ratio.es;
  const speedup = es === undefined ? "—" : `${(1 / es).toFixed(1)}x${es > 1 ? " (**slower**)" : ""}`;
  const vsFloor = c.ratio.floor === undefined ? "—" : c.ratio.floor.toFixed(2);
  const target = c.targets.map((t) => `${t.label.replace(" vs es", "")}: ${t.met ? "met" : "**missed**"}`).join("; ");
  rows.push(`| ${c.name} | ${ns(c.ns.ours)} | ${ns(c.ns.es)} | ${ts} | ${floor} | ${speedup} | ${vsFloor} | ${target} |`);
}
console.log(rows.join("\n"));
