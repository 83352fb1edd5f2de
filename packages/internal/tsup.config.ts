import { defineConfig } from "tsup";

// The packages bundle this source into their own builds (tsup `noExternal`); this build
// exists for the plain-Node scripts (scripts/repo-checks) that cannot load TypeScript.
export default defineConfig({
  entry: { index: "src/index.ts" },
  format: ["esm"],
  target: "node20",
});
