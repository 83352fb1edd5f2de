import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// The side-by-side files stay beside the runner's other tests, whose helpers they share; this
// package runs them (the runner's config leaves them out) once, among the test command's
// end-to-end suites: upstream's runner is a native binary, ours is tested on every Node by its
// own suite.
const runnerDir = fileURLToPath(new URL("../../packages/paperclip-runner/", import.meta.url));
const { version } = JSON.parse(readFileSync(`${runnerDir}package.json`, "utf8")) as { version: string };

export default defineConfig({
  define: { __PACKAGE_VERSION__: JSON.stringify(version) },
  test: {
    dir: `${runnerDir}test`,
    include: ["**/*-upstream.test.ts"],
    setupFiles: ["@paperclipai/test-support/fast-check-setup"],
    globalSetup: [`${runnerDir}test/preconditions.ts`],
    // Each scenario runs the server's control plane and both runners on a loaded 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // maxWorkers: a file spends most of its time waiting on leases, reconnect graces and the
    // runners' timers (a renewal case waits out most of a 16 s lease), so two files at once,
    // whatever the cores (vitest's default is one fewer than the cores: one on a 2-core runner).
    maxWorkers: 2,
  },
});
