import { constants } from "node:os";
import { describe, expect, it } from "vitest";
import { bridgeEnding, FORWARDED_SIGNALS, startFailureStatus } from "./program-ending.js";

describe("bridgeEnding", () => {
  it("ends with the program's exit code, and 1 when it has none", () => {
    expect(bridgeEnding(0, null, constants.signals)).toEqual({ kind: "exit", status: 0 });
    expect(bridgeEnding(42, null, constants.signals)).toEqual({ kind: "exit", status: 42 });
    expect(bridgeEnding(null, null, constants.signals)).toEqual({ kind: "exit", status: 1 });
  });

  it("re-raises the program's signal, with the shell's 128+N should the signal not end the bridge", () => {
    expect(bridgeEnding(null, "SIGTERM", constants.signals)).toEqual({
      kind: "signal",
      signal: "SIGTERM",
      fallbackStatus: 143,
    });
    expect(bridgeEnding(null, "SIGUSR1", { SIGUSR1: 10 })).toMatchObject({ fallbackStatus: 138 });
  });
});

describe("startFailureStatus", () => {
  it("is 127 for a program that does not exist and 126 for one that cannot run", () => {
    expect(startFailureStatus("ENOENT")).toBe(127);
    expect(startFailureStatus("EACCES")).toBe(126);
    expect(startFailureStatus(undefined)).toBe(126);
  });
});

describe("FORWARDED_SIGNALS", () => {
  it("names only signals this platform has, and none a process cannot catch", () => {
    for (const signal of FORWARDED_SIGNALS) expect(constants.signals[signal], signal).toBeGreaterThan(0);
    expect(FORWARDED_SIGNALS).not.toContain("SIGKILL");
    expect(FORWARDED_SIGNALS).not.toContain("SIGSTOP");
  });
});
