import { readFileSync } from "node:fs";
import { defineConfig } from "vitest/config";

const { version } = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  version: string;
};

/**
 * The integration files that each keep a worker process (and module cache) of their own, and
 * why. Every other integration file shares one worker: each restores what it changes in the
 * process (env, cwd, listeners), and the library's module caches that they meet (the socket-root
 * layout, the mount table, the exec roots, the bridge path and its probe, the bases' real paths)
 * hold facts of the host that no file changes: those that move roots or mounts do it in a
 * namespace of their own.
 */
const OWN_WORKER_FILES = [
  // vi.mock: in a shared module cache the mock misses the modules loaded before it (the spawn
  // helper keeps the real builder, the cleanup the real walk), and reaches the files after it.
  "test/bind-swapped-after-check.test.ts",
  "test/cleanup-planted-links.test.ts",
  "test/host-spelling-cost.test.ts",
  // vi.resetModules empties the shared cache, and its two copies of the spawn helper each leave
  // a spare launcher waiting in the process.
  "test/spare-launcher.test.ts",
  // Each counts the process's waiting spare launchers and expects to find only its own.
  "test/spare-launcher-failed-run.test.ts",
  "test/loader-env-escape.test.ts",
];

const preconditions = ["test/preconditions.ts"];

export default defineConfig({
  define: { __PACKAGE_VERSION__: JSON.stringify(version) },
  test: {
    // Property tests draw the same cases on every run; FC_SEED=random explores.
    setupFiles: ["@paperclipai/test-support/fast-check-setup"],
    // Real sandboxes and servers: generous per-test bounds for a loaded 2-core CI runner.
    testTimeout: 30_000,
    // A fresh worker process per test file cost more CPU than many files' tests. Vitest (3.2)
    // reads this at the root only: a project's own `isolate: false` only skips the module reset
    // inside a worker, and a worker is still started per file. Set here, the files of a project
    // share one worker, and each project starts a fresh one.
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
          exclude: OWN_WORKER_FILES,
          globalSetup: preconditions,
        },
      },
      // One project per file: a worker of its own.
      ...OWN_WORKER_FILES.map((file) => ({
        extends: true as const,
        test: { name: `integration:${file}`, include: [file], globalSetup: preconditions },
      })),
    ],
  },
});
