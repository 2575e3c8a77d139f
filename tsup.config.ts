import { defineConfig } from "tsup";
import { cliConfig } from "./tsup.cli.config.js";

export default defineConfig([
  {
    entry: ["src/index.ts"],
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: true,
    // Cleans dist/ but for the CLI, which the config below writes there at the same time.
    clean: ["!cli.js", "!cli.js.map"],
    target: "es2022",
    platform: "neutral",
  },
  // The conformance testee (conformance/testee.ts, with src bundled in) for `npm run conformance`. Not
  // published, no d.ts, and no clean: its folder also holds test-protos.binpb from compile-protos.mjs.
  {
    entry: { testee: "conformance/testee.ts" },
    outDir: "conformance/.build",
    format: ["esm"],
    dts: false,
    sourcemap: true,
    clean: false,
    target: "node20",
    platform: "node",
  },
  cliConfig,
]);
