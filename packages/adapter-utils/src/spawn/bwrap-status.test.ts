import { describe, expect, it } from "vitest";
import { BwrapStatusReader, bwrapSupportsJsonStatus } from "./bwrap-status.js";

describe("BwrapStatusReader", () => {
  it("reads the child pid and the exit code across chunk boundaries", () => {
    const reader = new BwrapStatusReader();
    reader.push('{ "child-pid": 7685, "mnt-namespace": 4026532177 }\n{ "exit-');
    expect(reader.status).toEqual({ childPid: 7685, exitCode: null });
    reader.push('code": 3 }');
    reader.end();
    expect(reader.status).toEqual({ childPid: 7685, exitCode: 3 });
  });

  it("has no exit code when the sandbox was never set up, and ignores garbage", () => {
    const reader = new BwrapStatusReader();
    reader.push('not json\n{ "child-pid": 12 }\n[1]\n');
    reader.end();
    expect(reader.status).toEqual({ childPid: 12, exitCode: null });
  });
});

describe("bwrapSupportsJsonStatus", () => {
  it("needs bubblewrap 0.5 or later", () => {
    expect(bwrapSupportsJsonStatus("bubblewrap 0.8.0")).toBe(true);
    expect(bwrapSupportsJsonStatus("bubblewrap 0.5.0")).toBe(true);
    expect(bwrapSupportsJsonStatus("bubblewrap 0.4.1")).toBe(false);
    expect(bwrapSupportsJsonStatus("bubblewrap 1.0")).toBe(true);
    expect(bwrapSupportsJsonStatus("garbage")).toBe(false);
  });
});
