import { defineConfig, type Options } from "tsup";

/**
 * The `wkt-json` command (cli/bin.ts and cli/wkt-json.ts, with src bundled in) into dist/cli.js, the package's
 * `bin`; the shebang comes from the source, and tsup makes the file executable. The dependencies stay imports.
 * Built with the library by `npm run build`, and alone by `npm run build:cli` (which `npm test` runs first when
 * dist/cli.js is older than its sources, through scripts/build-cli.mjs, as some CLI tests run the built file).
 * No clean: dist/ holds the library too. No source map: the package does not ship
 * maps (package.json `files`), and a `sourceMappingURL` naming a missing file makes some bundlers warn.
 */
export const cliConfig: Options = {
  entry: { cli: "cli/bin.ts" },
  outDir: "dist",
  format: ["esm"],
  dts: false,
  sourcemap: false,
  clean: false,
  target: "node20",
  platform: "node",
};

export default defineConfig(cliConfig);
