import { describe, expect, it } from "vitest";
import { decideTerminal, type HarnessOutcome, type TerminalFacts } from "./decide-terminal.js";

const exited = (exitCode: number | null, signal: string | null, readyReceived = true): HarnessOutcome => ({
  kind: "exited",
  exitCode,
  signal,
  readyReceived,
});
const facts = (patch: Partial<TerminalFacts>): TerminalFacts => ({
  stopCause: null,
  harness: exited(0, null),
  resultSeen: true,
  harnessTerminal: null,
  ...patch,
});

describe("decideTerminal", () => {
  it("decides from the process and the result when the runner stopped nothing", () => {
    expect(decideTerminal(facts({})).reason).toBe("successful_process_and_result");
    expect(decideTerminal(facts({ resultSeen: false })).reason).toBe("semantic_result_missing");
    expect(decideTerminal(facts({ harness: exited(1, null) })).reason).toBe("harness_process_failed");
    expect(decideTerminal(facts({ harness: exited(null, "SIGSEGV") })).detail).toBe(
      "the harness process failed (signal SIGSEGV)",
    );
    expect(decideTerminal(facts({ harnessTerminal: { status: "failed" } })).reason).toBe(
      "harness_reported_failure",
    );
    expect(decideTerminal(facts({ harnessTerminal: { status: "succeeded" } })).reason).toBe(
      "successful_process_and_result",
    );
  });

  it("does not believe a harness's success claim over a failed exit", () => {
    expect(
      decideTerminal(facts({ harness: exited(2, null), harnessTerminal: { status: "succeeded" } })).reason,
    ).toBe("harness_process_failed");
  });

  it("judges a harness stopped for lingering after its terminal message by what it reported", () => {
    const stopped = exited(null, "SIGTERM");
    expect(
      decideTerminal(
        facts({ stopCause: "harness_lingered", harness: stopped, harnessTerminal: { status: "succeeded" } }),
      ),
    ).toMatchObject({ reason: "successful_process_and_result" });
    expect(
      decideTerminal(
        facts({ stopCause: "harness_lingered", harness: stopped, harnessTerminal: { status: "failed" } }),
      ),
    ).toMatchObject({ reason: "harness_reported_failure" });
  });

  it("reports a harness that never became ready as harness_start_failed", () => {
    expect(decideTerminal(facts({ harness: exited(0, null, false) })).reason).toBe("harness_start_failed");
    expect(decideTerminal(facts({ harness: { kind: "spawn_failed", message: "spawn x ENOENT" } }))).toEqual({
      reason: "harness_start_failed",
      detail: "spawn x ENOENT",
    });
    expect(decideTerminal(facts({ stopCause: "harness_ready_timeout" })).reason).toBe("harness_start_failed");
  });

  it("lets the runner's own stop outrank how the killed process exited", () => {
    const killed = exited(null, "SIGTERM");
    expect(decideTerminal(facts({ stopCause: "run_cancelled", harness: killed })).reason).toBe(
      "run_cancelled",
    );
    expect(decideTerminal(facts({ stopCause: "turn_interrupted", harness: killed })).reason).toBe(
      "turn_interrupted",
    );
    expect(decideTerminal(facts({ stopCause: "controller_closed", harness: killed })).reason).toBe(
      "controller_closed",
    );
    expect(decideTerminal(facts({ stopCause: "runner_shutdown", harness: killed })).reason).toBe(
      "runner_shutdown",
    );
    expect(
      decideTerminal(facts({ stopCause: "harness_protocol_violation", harness: exited(0, null) })).reason,
    ).toBe("harness_protocol_violation");
    expect(
      decideTerminal(facts({ stopCause: "run_cancelled", harness: { kind: "not_started" } })).reason,
    ).toBe("run_cancelled");
  });
});
