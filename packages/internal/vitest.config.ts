import { defineConfig } from "vitest/config";

export default defineConfig({
  // Tests start real processes: vitest's 5 s default is short on a loaded 2-core CI machine
  // (no test asserts a duration).
  test: { include: ["src/**/*.test.ts"], testTimeout: 30_000, hookTimeout: 30_000 },
});
