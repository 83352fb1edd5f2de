import { defineConfig } from "vitest/config";

export default defineConfig({
  // Each scenario runs the real control plane and one or two runner processes; installing the
  // pinned server into the toolchain cache the first time takes minutes.
  test: { include: ["test/**/*.test.ts"], testTimeout: 120_000, hookTimeout: 600_000 },
});
