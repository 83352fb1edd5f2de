import { readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  version: string;
};

export default defineConfig({
  define: { __PACKAGE_VERSION__: JSON.stringify(version) },
  test: {
    // Property tests draw the same cases on every run; FC_SEED=random explores.
    setupFiles: ["@paperclipai/test-support/fast-check-setup"],
    // Some unit tests start real processes too: vitest's 5 s default is short on a loaded 2-core
    // CI machine (no test asserts a duration; the integration files set their own bounds).
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Unit tests need neither root nor bwrap; the integration tests say once what they need.
    projects: [
      // Unit test files share no state: one worker process runs them all, without a fresh
      // process per file (which cost more than the tests themselves).
      { extends: true, test: { name: "unit", include: ["src/**/*.test.ts"], isolate: false } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          // The side-by-side files against upstream's runner are run once, by
          // e2e/runner-upstream-differential, among the test command's end-to-end suites.
          exclude: ["test/**/*-upstream.test.ts"],
          globalSetup: ["test/preconditions.ts"],
          // A fresh fork per file cost about a sixth of the project's time on a loaded CI machine.
          // The files share their worker and its module cache: each restores what it changes, and
          // none counts on a helper module's state being fresh (see commandSeries).
          isolate: false,
        },
      },
    ],
  },
});
