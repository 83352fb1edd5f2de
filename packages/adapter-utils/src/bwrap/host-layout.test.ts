import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import { inspectHostLayout } from "./host-layout.js";

describe("inspectHostLayout", () => {
  it("gives a file below a linked directory its real path (`/etc -> private/etc`), none otherwise", () => {
    const base = tempDirForTest("pc-host-layout-");
    mkdirSync(path.join(base, "private", "etc"), { recursive: true });
    writeFileSync(path.join(base, "private", "etc", "hosts"), "");
    symlinkSync("private/etc", path.join(base, "etc"));
    const linked = path.join(base, "etc", "hosts");
    const real = path.join(base, "private", "etc", "hosts");
    const layout = inspectHostLayout([linked, real]);
    expect(layout.get(linked)).toEqual({ kind: "file", real });
    expect(layout.get(real)).toEqual({ kind: "file" });
  });
});
