import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  version: string;
};

const define = { __PACKAGE_VERSION__: JSON.stringify(version) };
// The private primitives package is bundled in, never a dependency of the published tarball.
const noExternal = ["@paperclipai/internal"];

export default defineConfig([
  {
    entry: { index: "src/index.ts", "local-process-sandbox": "src/local-process-sandbox.ts" },
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: true,
    target: "node20",
    // The CommonJS build needs import.meta.url (native-bridge-path.ts finds the package from it).
    shims: true,
    define,
    noExternal,
  },
  {
    entry: { "sandbox-cli": "src/cli/main.ts" },
    format: ["esm"],
    sourcemap: true,
    target: "node20",
    define,
    noExternal,
  },
  {
    // The in-sandbox Node bridge: one CommonJS file of Node built-ins only, which each run
    // copies into its directory (write-bridge.ts finds it at dist/node-bridge.cjs).
    entry: { "node-bridge": "src/bridge/node-bridge/main.ts" },
    format: ["cjs"],
    outExtension: () => ({ js: ".cjs" }),
    platform: "node",
    target: "node20",
    noExternal: [/.*/],
    removeNodeProtocol: false,
  },
]);
