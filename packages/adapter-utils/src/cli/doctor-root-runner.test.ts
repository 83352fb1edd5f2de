import { describe, expect, it } from "vitest";
import { checkRootRunner } from "./doctor-root-runner.js";

describe("checkRootRunner", () => {
  it("warns (never fails) a root runner that its network-only programs can write host files", () => {
    const check = checkRootRunner(0);
    expect(check?.status).toBe("warn");
    expect(check?.name).toBe("root runner");
    expect(check?.detail).toContain("workspace scope");
    // A user of the npm package has no docs/ directory: the page is named by its URL.
    expect(check?.detail).toContain(
      "https://github.com/paperclipai/paperclip/blob/main/docs/adapter-utils/security.md",
    );
  });

  it("says nothing for another uid, or where there are no uids", () => {
    expect(checkRootRunner(1000)).toBeNull();
    expect(checkRootRunner(undefined)).toBeNull();
  });
});
