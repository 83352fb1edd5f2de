import { describe, expect, it } from "vitest";
import { providerEvent } from "./provider-event.js";
import { cancelKeepsHeldFacts, releasedOnDrain, startupRelease } from "./startup-release-policy.js";

describe("startupRelease", () => {
  it("keeps held facts through the first drain; a later one's commit follows its answer", () => {
    expect(startupRelease("runner.drain", "none", false)).toBe("keep");
    expect(startupRelease("runner.drain", "kept", false)).toBe("after-answer");
  });

  it("carries them to the next run on a suspend or shutdown, whatever the drains did", () => {
    for (const type of ["runner.suspend", "runner.shutdown"]) {
      for (const drain of ["none", "kept", "releasing"] as const)
        expect(startupRelease(type, drain, false)).toBe("carry");
    }
  });

  it("commits a due commit before any other command, a drain among them", () => {
    for (const type of ["runner.drain", "turn.start", "session.snapshot"]) {
      expect(startupRelease(type, "releasing", false)).toBe("before");
    }
  });

  it("keeps them through snapshots, goal commands and closes, commits them after any other command's effect", () => {
    expect(startupRelease("session.snapshot", "kept", false)).toBe("keep");
    expect(startupRelease("session.goal.set", "none", false)).toBe("keep");
    expect(startupRelease("turn.start", "kept", false)).toBe("after-effect");
    expect(startupRelease("session.close", "none", false)).toBe("keep");
    expect(startupRelease("session.destroy", "kept", false)).toBe("keep");
    expect(startupRelease("session.open", "none", false)).toBe("after-effect");
  });

  it("leaves them as a first drain does behind a cancel, interrupt or stop that keeps them", () => {
    for (const type of ["run.cancel", "turn.interrupt", "turn.stop"]) {
      expect(startupRelease(type, "none", true)).toBe("kept-as-drained");
      expect(startupRelease(type, "kept", true)).toBe("kept-as-drained");
      expect(startupRelease(type, "releasing", true)).toBe("before");
      // Otherwise (a turn's interrupt, a resume's facts) it commits them after its effect.
      expect(startupRelease(type, "none", false)).toBe("after-effect");
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

describe("cancelKeepsHeldFacts", () => {
  it("keeps a fresh open's facts and a restart's after turn.stop, with no turn active", () => {
    expect(cancelKeepsHeldFacts({ resume: false }, false)).toBe(true);
    expect(cancelKeepsHeldFacts({ resume: true, ensured: true }, false)).toBe(true);
  });

  it("does not keep a resume's facts, facts during a turn, or nothing held", () => {
    expect(cancelKeepsHeldFacts({ resume: true }, false)).toBe(false);
    expect(cancelKeepsHeldFacts({ resume: true, ensured: false }, false)).toBe(false);
    expect(cancelKeepsHeldFacts({ resume: false }, true)).toBe(false);
    expect(cancelKeepsHeldFacts(null, false)).toBe(false);
  });
});
