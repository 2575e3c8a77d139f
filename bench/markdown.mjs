#!/usr/bin/env node
// Prints the results of `npm run bench -- --json[=file]` as the Markdown table of README.md "Performance": a
// column group per runtime (bench/combine.mjs). Takes the file bench/run.mjs writes ({ runtimes: [...] }) or one
// runtime's results (.bench/results-node20.json).
// Usage: node bench/markdown.mjs [.bench/results.json]
import { readFileSync } from "node:fs";
import { combinedMarkdown } from "./combine.mjs";

const doc = JSON.parse(readFileSync(process.argv[2] ?? ".bench/results.json", "utf8"));
console.log(combinedMarkdown(doc.runtimes ?? [doc]));
