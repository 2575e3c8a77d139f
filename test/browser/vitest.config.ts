import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// `npm run test:browser`: the built bundle in headless Chromium. Separate from `npm test`, as it needs
// dist/ (npm run build) and Debian's chromium at /usr/bin/chromium.
export default defineConfig({
  root: fileURLToPath(new URL("../..", import.meta.url)),
  test: {
    include: ["test/browser/**/*.browser.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    ...(process.env["CI"] === "true"
      ? { reporters: ["default", "json"], outputFile: { json: ".ci-results/browser.json" } }
      : {}),
  },
});
