import { describe, expect, it } from "vitest";
import { recoverRunnerState } from "../../state/recover-runner-state.js";
import { initialRunnerState } from "../../state/runner-state.js";
import { recoveredEngineKind, scriptedEngineOwnsRun } from "./recovered-engine.js";

const binding = { runId: "run-1", sessionId: "session-1", runnerId: "runner-1" };

describe("recoveredEngineKind", () => {
  it("rebinds the provider when its state file was recovered, even over a scripted run", () => {
    expect(recoveredEngineKind(true, true)).toBe("provider");
    expect(recoveredEngineKind(true, false)).toBe("provider");
  });

  it("rebinds the scripted engine when it owns the run and no provider state exists", () => {
    expect(recoveredEngineKind(false, true)).toBe("scripted");
  });

  it("binds nothing on a fresh state directory", () => {
    expect(recoveredEngineKind(false, false)).toBeNull();
  });
});

describe("scriptedEngineOwnsRun", () => {
  const initial = initialRunnerState(binding);

  it("is false for a store that recovered nothing", () => {
    expect(scriptedEngineOwnsRun({ recovery: null, initial: { ...initial, lastControllerSeq: 3 } })).toBe(
      false,
    );
  });

  it("is false for a recovered store that never took a command", () => {
    const state = { ...initial, lastControllerSeq: 0 };
    expect(scriptedEngineOwnsRun({ recovery: recoverRunnerState(state), initial: state })).toBe(false);
  });

  it("is true once a recovered store has taken a command", () => {
    const state = { ...initial, lastControllerSeq: 1 };
    expect(scriptedEngineOwnsRun({ recovery: recoverRunnerState(state), initial: state })).toBe(true);
  });
});
