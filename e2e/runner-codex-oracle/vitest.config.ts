import { defineConfig } from "vitest/config";

export default defineConfig({
  // Each scenario starts a runner and the real Codex CLI; installing the toolchain into the cache
  // the first time (server, Codex, Debian 13's libc) takes minutes.
  // globalSetup: Codex leaves per-user directories in /tmp on hosts where it sandboxes its shell.
  // maxWorkers: a file spends most of its time waiting on Codex and the model stub (about a quarter
  // of one core in all), so two files at once, whatever the cores (vitest's default is one fewer
  // than the cores: one on a 2-core CI runner). Each file already runs both runners at once, and
  // more at once makes Codex's own orderings vary more.
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 900_000,
    maxWorkers: 2,
  },
});
