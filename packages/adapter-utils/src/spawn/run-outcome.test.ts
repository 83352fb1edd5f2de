import { describe, expect, it } from "vitest";
import { type RunEnd, runOutcome } from "./run-outcome.js";
import { BIND_CHANGED_MARK, COURIER_UNREACHABLE_MARK } from "./spawn-failure.js";

const end = (overrides: Partial<RunEnd>): RunEnd => ({
  bwrap: "/usr/bin/bwrap",
  status: { childPid: 10, exitCode: null },
  timedOut: false,
  code: 1,
  signal: null,
  stdout: "",
  stderr: "bwrap: Can't mount proc on /newroot/proc: Operation not permitted\n",
  courierToken: null,
  ...overrides,
});

describe("runOutcome", () => {
  it("takes a failure without bwrap's exit report for a sandbox that was never set up", () => {
    const outcome = runOutcome(end({}));
    expect("error" in outcome && outcome.error.code).toBe("ERR_SANDBOX_SETUP_FAILED");
  });

  it("takes the program's own failure, a timeout or a signal as the program's result", () => {
    for (const overrides of [
      { status: { childPid: 10, exitCode: 1 } },
      { timedOut: true },
      { signal: "SIGKILL" as const, code: null },
      { bwrap: null, status: null },
    ]) {
      const outcome = runOutcome(end({ ...overrides, stdout: "out" }));
      expect("result" in outcome && outcome.result.stdout).toBe("out");
    }
  });

  it("reports a bridge that could not reach its courier", () => {
    const stderr = `${COURIER_UNREACHABLE_MARK}t0k3n: connect: No such file or directory\n`;
    const exited = { status: { childPid: 10, exitCode: 125 }, code: 125, stderr };
    const outcome = runOutcome(end({ ...exited, courierToken: "t0k3n" }));
    expect("error" in outcome && outcome.error.code).toBe("ERR_SANDBOX_COURIER_UNREACHABLE");
    // Without the run's token the line is the program's own, and so is the exit.
    const forged = runOutcome(end({ ...exited, courierToken: "other" }));
    expect("result" in forged && forged.result.exitCode).toBe(125);
  });

  it("reports an exec shim that found a bind changed, by its status and its line", () => {
    const stderr = `${BIND_CHANGED_MARK}/ws/cfg\n`;
    const exited = { status: { childPid: 10, exitCode: 122 }, code: 122, stderr };
    const outcome = runOutcome(end(exited));
    expect("error" in outcome && outcome.error.code).toBe("ERR_SANDBOX_BIND_CHANGED");
    expect("error" in outcome && outcome.error.details).toEqual({ destination: "/ws/cfg", stage: "sandbox" });
    // A cause that stays (another program keeps swapping the path) fails every retry the same way.
    expect("error" in outcome && outcome.error.retryable).toBe(false);
    // The line without the status, or the status without the line, is the program's own result.
    expect("result" in runOutcome(end({ ...exited, status: { childPid: 10, exitCode: 1 }, code: 1 }))).toBe(
      true,
    );
    expect("result" in runOutcome(end({ ...exited, stderr: "" }))).toBe(true);
  });

  it("passes a clean exit through with its code, signal and output", () => {
    expect(runOutcome(end({ status: { childPid: 10, exitCode: 0 }, code: 0, stdout: "ok" }))).toEqual({
      result: { exitCode: 0, signal: null, timedOut: false, stdout: "ok", stderr: end({}).stderr },
    });
  });
});
