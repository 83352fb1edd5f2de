import { readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  version: string;
};

/**
 * The test files that each keep a worker process (and module cache) of their own, and why. Every
 * other file shares its project's worker.
 */
const OWN_WORKER_FILES = [
  // vi.mock of node:fs/promises: in a shared module cache the mock misses the sync modules loaded
  // before it (they keep the real rename), and reaches the files after it.
  "src/sync/pending-restores.test.ts",
];

export default defineConfig({
  define: { __PACKAGE_VERSION__: JSON.stringify(version) },
  test: {
    // Tests drive real processes; a loaded 2-core CI machine needs headroom (no test asserts a duration).
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
      { extends: true, test: { name: "unit", include: ["src/**/*.test.ts"], exclude: OWN_WORKER_FILES } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/**/*.test.ts"],
          // The files share their worker and its module cache: each restores what it changes
          // (PATH, umask), and none counts on a module's state being fresh.
          globalSetup: ["test/preconditions.ts"],
        },
      },
      // One project per file: a worker of its own.
      ...OWN_WORKER_FILES.map((file) => ({
        extends: true as const,
        test: { name: `unit:${file}`, include: [file] },
      })),
    ],
  },
});
