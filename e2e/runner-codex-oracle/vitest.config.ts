import { defineConfig } from "vitest/config";

export default defineConfig({
  // Each scenario starts a runner and the real Codex CLI; installing the toolchain into the cache
  // the first time (server, Codex, Debian 13's libc) takes minutes.
  // globalSetup: Codex leaves per-user directories in /tmp on hosts where it sandboxes its shell.
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 900_000,
  },
});
