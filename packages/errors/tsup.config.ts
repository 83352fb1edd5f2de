import { defineConfig } from "tsup";

export default defineConfig([
  {
    entry: { index: "src/index.ts", registry: "src/registry/index.ts", testing: "src/testing/index.ts" },
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: true,
    target: "node20",
  },
  {
    entry: { cli: "src/cli/main.ts" },
    format: ["esm"],
    sourcemap: true,
    target: "node20",
  },
]);
