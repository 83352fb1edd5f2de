import { describe, expect, it } from "vitest";
import { executionFailed } from "./command-outcome.js";
import { providerExitedEvent } from "./provider-restart.js";

describe("providerExitedEvent (upstream's report of a provider that exited on its own)", () => {
  it("fails the session when a turn was running on the process", () => {
    expect(providerExitedEvent("codex", 1, null, true, 1)).toEqual({
      eventType: "session.failed",
      priority: 0,
      payload: {
        activeProviderTurnId: null,
        code: "provider_exited",
        completedByExitedProcess: false,
        completedTurnProcessGeneration: null,
        exitCode: null,
        expected: false,
        previousTurnCompleted: false,
        processGeneration: 1,
        provider: "codex",
      },
    });
  });

  it("reconciles the session when the last turn completed on the process that exited", () => {
    const event = providerExitedEvent("codex", 2, 9, false, 2);
    expect(event.eventType).toBe("session.reconciled");
    expect(event.payload).toMatchObject({
      completedByExitedProcess: true,
      completedTurnProcessGeneration: 2,
      previousTurnCompleted: true,
      processGeneration: 2,
      exitCode: 9,
    });
  });

  it("fails the session when the last turn completed on an earlier process, or none ever did", () => {
    expect(providerExitedEvent("codex", 3, null, false, 2)).toMatchObject({
      eventType: "session.failed",
      payload: {
        completedByExitedProcess: false,
        completedTurnProcessGeneration: 2,
        previousTurnCompleted: true,
      },
    });
    expect(providerExitedEvent("opencode", 1, 0, false, null)).toMatchObject({
      eventType: "session.failed",
      payload: { previousTurnCompleted: false, completedTurnProcessGeneration: null, provider: "opencode" },
    });
  });
});

describe("executionFailed (a command the provider's state refuses)", () => {
  it("fails the command with upstream's command_execution_failed result", () => {
    expect(executionFailed("Codex already has an active provider turn")).toEqual({
      status: "failed",
      detail: "Codex already has an active provider turn",
      result: { code: "command_execution_failed", message: "Codex already has an active provider turn" },
    });
  });
});
