import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempDirForFile, tempDirForTest } from "./temp-dir.js";

describe("tempDirForTest", () => {
  let previous: string | undefined;

  it("makes a private directory", () => {
    previous = tempDirForTest("test-support-", { base: "/tmp" });
    writeFileSync(join(previous, "file"), "x");
    expect(previous.startsWith("/tmp/test-support-")).toBe(true);
  });

  it("removed it with its content when the test finished", () => {
    expect(previous && existsSync(previous)).toBe(false);
  });
});

describe("tempDirForFile", () => {
  const shared = tempDirForFile("test-support-file-");
  afterAll(() => {
    // Registered after tempDirForFile's own afterAll, so it runs first (vitest runs afterAll hooks in reverse).
    expect(existsSync(shared)).toBe(true);
  });

  it("outlives a test", () => {
    expect(existsSync(shared)).toBe(true);
  });
});
