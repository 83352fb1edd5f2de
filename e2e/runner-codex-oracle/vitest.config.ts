import { defineConfig } from "vitest/config";

export default defineConfig({
  // Each scenario starts a runner and the real Codex CLI; installing the toolchain into the cache
  // the first time (server, Codex, Debian 13's libc) takes minutes.
  test: { include: ["test/**/*.test.ts"], testTimeout: 120_000, hookTimeout: 900_000 },
});
