import { defineConfig } from "tsup";

/**
 * The conformance testee (conformance/testee.ts, with src bundled in) for `npm run conformance`. Not
 * published, no d.ts, and no clean: its folder also holds test-protos.binpb from compile-protos.mjs, which the
 * testee reads when it runs (conformance/run.mjs compiles it). Apart from the library's build, so that
 * `npm run build` (and the `prepare` of a git install) needs neither the conformance protos nor protoc.
 */
export default defineConfig({
  entry: { testee: "conformance/testee.ts" },
  outDir: "conformance/.build",
  format: ["esm"],
  dts: false,
  sourcemap: true,
  clean: false,
  target: "node20",
  platform: "node",
});
