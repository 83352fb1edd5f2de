import { defineConfig } from "vitest/config";

// Each file starts a server of its own (with its embedded Postgres, on free ports, in a temp
// dir of its own) and an emulator of its own, so files share nothing and two run at once.
// A file's time is mostly the host's runs waiting on sandbox commands and on its own timers,
// not CPU: two at a time pay off even on two cores (vitest would pick one worker there).
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 600_000,
    fileParallelism: true,
    maxWorkers: 2,
    minWorkers: 1,
  },
});
