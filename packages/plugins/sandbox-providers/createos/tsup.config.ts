import { readFileSync } from "node:fs";
import { defineConfig } from "tsup";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  version: string;
};

const define = { __PACKAGE_VERSION__: JSON.stringify(version) };

export default defineConfig([
  {
    entry: {
      index: "src/index.ts",
      client: "src/client.ts",
      manifest: "src/manifest.ts",
      worker: "src/worker.ts",
    },
    format: ["esm", "cjs"],
    dts: true,
    sourcemap: true,
    target: "node20",
    define,
    // `import.meta.url` in the CJS worker (runWorker compares it with the process entry point).
    shims: true,
  },
]);
