import { readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  version: string;
};

export default defineConfig({
  define: { __PACKAGE_VERSION__: JSON.stringify(version) },
  test: {
    // Tests drive real processes; a loaded 2-core CI machine needs headroom (no test asserts a duration).
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
          globalSetup: ["test/preconditions.ts"],
          // A fresh fork per file cost a sixth of the project's time or more on a loaded CI
          // machine. The files share their worker and its module cache: each restores what it
          // changes (PATH, umask), and none counts on a module's state being fresh.
          isolate: false,
        },
      },
    ],
  },
});
