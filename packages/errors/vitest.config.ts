import { defineConfig } from "vitest/config";
import { runUpstreamRedactionTestsAgainstOurs } from "./test/upstream-redaction/run-upstream-tests-against-ours.js";

export default defineConfig({
  plugins: [runUpstreamRedactionTestsAgainstOurs()],
  test: {
    // Property tests draw the same cases on every run; FC_SEED=random explores.
    setupFiles: ["@paperclipai/test-support/fast-check-setup"],
    // Property and linear-time tests are CPU-bound: vitest's 5 s default is short on a loaded
    // 2-core CI machine (no test asserts a duration; step counts stand in for time).
    testTimeout: 30_000,
    hookTimeout: 30_000,
    server: {
      // Upstream's test file must go through vitest's module graph for the plugin to see it.
      deps: { inline: [/adapter-utils@2026\.916\.1/] },
    },
    // A fresh worker process per test file cost more CPU than many files' tests. Vitest (3.2)
    // reads this at the root only: a project's own `isolate: false` only skips the module reset
    // inside a worker, and a worker is still started per file. Set here, the files of a project
    // share one worker and its module cache, and each project starts a fresh one.
    isolate: false,
    projects: [
      // The files of both projects share no state: they change nothing in the process.
      { extends: true, test: { name: "unit", include: ["src/**/*.test.ts"] } },
      {
        extends: true,
        test: { name: "integration", include: ["test/**/*.test.ts"], globalSetup: ["test/preconditions.ts"] },
      },
    ],
  },
});
