import { describe, expect, it } from "vitest";
import { providerEvent } from "./provider-event.js";
import { releasedOnDrain, startupRelease } from "./startup-release-policy.js";

describe("startupRelease", () => {
  it("keeps held facts through the first drain; a later one's commit follows its answer", () => {
    expect(startupRelease("runner.drain", "none")).toBe("keep");
    expect(startupRelease("runner.drain", "kept")).toBe("after-answer");
  });

  it("carries them to the next run on a suspend or shutdown, whatever the drains did", () => {
    for (const type of ["runner.suspend", "runner.shutdown"]) {
      for (const drain of ["none", "kept", "releasing"] as const)
        expect(startupRelease(type, drain)).toBe("carry");
    }
  });

  it("commits a due commit before any other command, a drain among them", () => {
    for (const type of ["runner.drain", "turn.start", "session.snapshot"]) {
      expect(startupRelease(type, "releasing")).toBe("before");
    }
  });

  it("keeps them through snapshots and goal commands, commits them after any other command's effect", () => {
    expect(startupRelease("session.snapshot", "kept")).toBe("keep");
    expect(startupRelease("session.goal.set", "none")).toBe("keep");
    expect(startupRelease("turn.start", "kept")).toBe("after-effect");
    expect(startupRelease("session.close", "none")).toBe("after-effect");
  });

  it("leaves them as a first drain does behind a cancel, interrupt or stop with no turn", () => {
    for (const type of ["run.cancel", "turn.interrupt", "turn.stop"]) {
      expect(startupRelease(type, "none")).toBe("kept-as-drained");
      expect(startupRelease(type, "kept")).toBe("kept-as-drained");
      expect(startupRelease(type, "releasing")).toBe("before");
      // A turn's interrupt commits them after its effect, as any other command.
      expect(startupRelease(type, "none", true)).toBe("after-effect");
    }
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
