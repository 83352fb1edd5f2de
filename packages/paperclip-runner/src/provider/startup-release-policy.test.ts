import { describe, expect, it } from "vitest";
import { providerEvent } from "./provider-event.js";
import { releasedOnDrain, startupRelease } from "./startup-release-policy.js";

describe("startupRelease", () => {
  it("keeps held facts through the first drain and commits them after a later drain's answer", () => {
    expect(startupRelease("runner.drain", false)).toBe("keep");
    expect(startupRelease("runner.drain", true)).toBe("after-answer");
  });

  it("commits them before a suspend's or shutdown's answer, drained or not", () => {
    for (const type of ["runner.suspend", "runner.shutdown"]) {
      expect(startupRelease(type, false)).toBe("before");
      expect(startupRelease(type, true)).toBe("before");
    }
  });

  it("keeps them through snapshots and goal commands, commits them after any other command's effect", () => {
    expect(startupRelease("session.snapshot", false)).toBe("keep");
    expect(startupRelease("session.goal.set", false)).toBe("keep");
    expect(startupRelease("turn.start", false)).toBe("after-effect");
    expect(startupRelease("session.close", false)).toBe("after-effect");
  });
});

describe("releasedOnDrain", () => {
  it("leaves out only the diagnostic for Codex's replayed token usage", () => {
    const startup = providerEvent("harness.diagnostic", 0, { code: "provider_startup_ownership" });
    const resumed = providerEvent("session.resumed", 0, {});
    const usage = providerEvent("harness.diagnostic", 0, { code: "codex_resume_usage_snapshot" });
    expect(releasedOnDrain([startup, resumed, usage])).toEqual([startup, resumed]);
  });
});
