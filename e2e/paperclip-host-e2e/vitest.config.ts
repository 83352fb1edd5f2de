import { defineConfig } from "vitest/config";

// Each file starts a server of its own (with its embedded Postgres): one at a time.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 600_000,
    fileParallelism: false,
  },
});
