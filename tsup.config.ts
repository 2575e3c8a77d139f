import { defineConfig } from "tsup";

export default defineConfig([
  {
    entry: ["src/index.ts"],
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: true,
    clean: true,
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
]);
