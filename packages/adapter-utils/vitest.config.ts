import { readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  version: string;
};

export default defineConfig({
  define: { __PACKAGE_VERSION__: JSON.stringify(version) },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Real sandboxes and servers: generous per-test bounds for a loaded 2-core CI runner.
    testTimeout: 30_000,
  },
});
