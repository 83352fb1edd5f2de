import { readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  version: string;
};

export default defineConfig({
  define: { __PACKAGE_VERSION__: JSON.stringify(version) },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Tests drive real processes; a loaded 2-core CI machine needs headroom (no test asserts a duration).
    testTimeout: 30_000,
    globalSetup: ["test/preconditions.ts"],
    hookTimeout: 30_000,
  },
});
