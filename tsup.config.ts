import { defineConfig, type Options } from "tsup";
import { cliConfig } from "./tsup.cli.config.js";

/**
 * The library, in three parts:
 *
 * - ESM (`import`): one module per source file, dist/index.js and dist/<folder>/<file>.js as in src/, so that an
 *   application's bundler drops every module it does not use (package.json says `sideEffects: false`), where
 *   of one bundled file it keeps every top-level statement it cannot prove pure. Measured against one bundle
 *   with scripts/bundle-size.mjs (figures in the commit that chose it). The cost: Node loads ~100 files on
 *   import, as it does for @bufbuild/protobuf.
 * - CJS (`require`): one bundled dist/index.cjs (a `require` cannot be tree-shaken either way).
 * - Types: one dist/index.d.ts and dist/index.d.cts, from one declaration build for both.
 *
 * No source maps: the package does not ship them (package.json `files`), and a `sourceMappingURL` comment
 * naming a missing file would dangle in an application's bundle (some bundlers warn on it).
 */
const common: Options = {
  sourcemap: false,
  target: "es2022",
  platform: "neutral",
  dts: false,
};

export default defineConfig([
  {
    ...common,
    entry: ["src/**/*.ts"],
    format: ["esm"],
    bundle: false,
    // Cleans dist/ but for the CLI, which the config below writes there at the same time.
    clean: ["!cli.js"],
  },
  { ...common, entry: ["src/index.ts"], format: ["cjs"], clean: false },
  { ...common, entry: ["src/index.ts"], format: ["esm", "cjs"], dts: { only: true }, clean: false },
  cliConfig,
]);
