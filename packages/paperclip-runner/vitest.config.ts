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
    // A fresh worker process per test file cost more CPU than many files' tests. Vitest (3.2)
    // reads this at the root only: a project's own `isolate: false` only skips the module reset
    // inside a worker, and a worker is still started per file. Set here, the files of a project
    // share one worker and its module cache, and each project starts a fresh one.
    isolate: false,
    // Unit tests need neither root nor bwrap; the integration tests say once what they need.
    projects: [
      // Unit test files share no state.
      { extends: true, test: { name: "unit", include: ["src/**/*.test.ts"] } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          // The side-by-side files against upstream's runner are run once, by
          // e2e/runner-upstream-differential, among the test command's end-to-end suites.
          exclude: ["test/**/*-upstream.test.ts"],
          // The files share their worker and its module cache: each restores what it changes, and
          // none counts on a helper module's state being fresh (see commandSeries).
          globalSetup: ["test/preconditions.ts"],
        },
      },
    ],
  },
});
