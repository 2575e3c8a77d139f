// The built ESM bundle (dist/index.js) in real headless Chromium: test/browser/cases.ts runs in the page and in
// Node, and every case must pass in both and give the same result in both.
//
// The page gets dist/index.js bundled with its dependencies (@bufbuild/protobuf, long) by esbuild into one
// module, served with a one-line HTML page from a node:http server on 127.0.0.1. Every other request the
// browser makes is aborted, so nothing reaches the network. Chromium is Debian's (/usr/bin/chromium, or
// $WKT_JSON_CHROMIUM), driven by playwright-core, which never downloads a browser of its own.

import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { chromium, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cases, runCases, type CaseResult, type WktJson } from "./cases.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const distEsm = join(root, "dist", "index.js");
const executablePath = process.env["WKT_JSON_CHROMIUM"] ?? "/usr/bin/chromium";

/** Fails when dist/index.js is missing or older than src/: this test is about the built bundle. */
function assertBuilt(): void {
  if (!existsSync(distEsm)) throw new Error(`${distEsm} is missing: run 'npm run build' first`);
  let newest = 0;
  for (const name of readdirSync(join(root, "src"), { recursive: true })) {
    const stat = statSync(join(root, "src", String(name)));
    if (stat.isFile()) newest = Math.max(newest, stat.mtimeMs);
  }
  if (statSync(distEsm).mtimeMs < newest) throw new Error(`${distEsm} is older than src/: run 'npm run build' first`);
}

/** dist/index.js and the cases, with their dependencies, as one browser module that runs the cases. */
async function bundleForPage(): Promise<string> {
  const result = await build({
    stdin: {
      contents: [
        'import * as lib from "./dist/index.js";',
        'import { runCases } from "./test/browser/cases.ts";',
        "globalThis.wktJsonResults = runCases(lib);",
      ].join("\n"),
      resolveDir: root,
      sourcefile: "page-entry.ts",
      loader: "ts",
    },
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

/** Serves the page and the bundle on 127.0.0.1, on a free port. */
async function serve(bundle: string): Promise<{ server: Server; origin: string }> {
  const page =
    '<!doctype html><meta charset="utf-8"><title>wkt-json</title><script type="module" src="/bundle.js"></script>';
  const server = createServer((req, res) => {
    if (req.url === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(page);
    } else if (req.url === "/bundle.js") {
      res.writeHead(200, { "content-type": "text/javascript; charset=utf-8" }).end(bundle);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let server: Server | undefined;
let context: BrowserContext | undefined;
let userDataDir: string | undefined;
let browserResults: CaseResult[];
let nodeResults: CaseResult[];
let userAgent: string;
const pageErrors: string[] = [];

beforeAll(async () => {
  assertBuilt();
  if (!existsSync(executablePath)) {
    throw new Error(`no Chromium at ${executablePath}: apt-get install -y chromium (or set WKT_JSON_CHROMIUM)`);
  }
  const served = await serve(await bundleForPage());
  server = served.server;

  userDataDir = mkdtempSync(join(tmpdir(), "wkt-json-chromium-"));
  context = await chromium.launchPersistentContext(userDataDir, {
    executablePath,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  // Only our server answers; anything else the page or the browser asks for is refused.
  await context.route("**/*", (route) =>
    route
      .request()
      .url()
      .startsWith(served.origin + "/")
      ? route.continue()
      : route.abort("blockedbyclient"),
  );
  const page: Page = context.pages()[0] ?? (await context.newPage());
  page.on("pageerror", (e) => pageErrors.push(`pageerror: ${e.message}`));
  page.on("console", (m) => {
    if (m.type() === "error") pageErrors.push(`console.error: ${m.text()}`);
  });
  await page.goto(served.origin + "/");
  await page.waitForFunction(() => "wktJsonResults" in globalThis, undefined, { timeout: 30_000 });
  browserResults = (await page.evaluate(
    () => (globalThis as { wktJsonResults?: unknown }).wktJsonResults,
  )) as CaseResult[];
  userAgent = await page.evaluate(() => navigator.userAgent);

  const lib = (await import(pathToFileURL(distEsm).href)) as WktJson;
  nodeResults = runCases(lib);
});

afterAll(async () => {
  await context?.close();
  await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)));
  if (userDataDir !== undefined) rmSync(userDataDir, { recursive: true, force: true });
});

describe("dist/index.js in headless Chromium", () => {
  it("ran in Chromium, without page errors", () => {
    expect(userAgent).toMatch(/HeadlessChrome\/\d+/);
    expect(pageErrors).toEqual([]);
    expect(browserResults.map((r) => r.name)).toEqual(cases.map((c) => c.name));
  });

  it.each(cases.map((c, i) => [c.name, i] as const))("%s", (_name, i) => {
    const inBrowser = browserResults[i]!;
    const inNode = nodeResults[i]!;
    expect(inBrowser.actual, "in Chromium").toEqual(inBrowser.expected);
    expect(inBrowser.ok, "in Chromium").toBe(true);
    expect(inNode.ok, "in Node").toBe(true);
    // JSON text, so that -0 and 0 differ and key order is part of the comparison
    expect(JSON.stringify(inBrowser.actual), "the same in Chromium and Node").toBe(JSON.stringify(inNode.actual));
  });
});
