import { describe, expect, it } from "vitest";
import { isSandboxStatus, isTerminal, judgeTransition } from "./sandbox-state.js";

describe("sandbox states", () => {
  it("knows the API's states", () => {
    expect(isSandboxStatus("paused")).toBe(true);
    expect(isSandboxStatus("gone")).toBe(false);
    expect(isSandboxStatus("sleeping")).toBe(false);
    expect(["error", "failed", "destroyed", "gone", "running"].filter((s) => isTerminal(s as never))).toEqual(
      ["error", "failed", "destroyed", "gone"],
    );
  });

  it("keeps polling while the state is transitional or still the start state", () => {
    expect(judgeTransition("running", "running")).toBe("done");
    expect(judgeTransition("creating", "running")).toBe("poll");
    expect(judgeTransition("resuming", "running")).toBe("poll");
    expect(judgeTransition("paused", "running", "paused")).toBe("poll");
    expect(judgeTransition("running", "paused", "running")).toBe("poll");
    expect(judgeTransition("paused", "running")).toBe("fail");
    expect(judgeTransition("error", "running", "paused")).toBe("fail");
    expect(judgeTransition("gone", "paused")).toBe("fail");
  });
});
