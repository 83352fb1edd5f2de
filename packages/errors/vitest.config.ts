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
    projects: [
      // Unit test files share no state: one worker process runs them all, without a fresh
      // process per file (which cost more than the tests themselves).
      { extends: true, test: { name: "unit", include: ["src/**/*.test.ts"], isolate: false } },
      {
        extends: true,
        test: { name: "integration", include: ["test/**/*.test.ts"], globalSetup: ["test/preconditions.ts"] },
      },
    ],
  },
});
