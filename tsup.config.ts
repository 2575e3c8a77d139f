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
  cliConfig,
]);
