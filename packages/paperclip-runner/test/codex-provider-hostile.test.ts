import path from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_RESTARTS_BETWEEN_TURNS } from "../src/provider/provider-restart.js";
import {
  closeSteps,
  codexPrepare,
  commandOf,
  type DriverResult,
  driveCodexRunner,
  eventTypes,
  fakeCodexArgs,
  openSteps,
  type Step,
  serverToolchainForFile,
  withWork,
} from "./helpers/codex-durable.js";
import { expectNothingLeft } from "./helpers/codex-run-checks.js";
import { expectEachOpenFails, failureDiagnostics } from "./helpers/provider-start-failures.js";

const toolchain = serverToolchainForFile();

describe("hostile or broken providers", { timeout: 120_000 }, () => {
  it("fails session.open with a coded error, harness.diagnostic and session.failed when the provider cannot start", async () => {
    await withWork(async (work) => {
      // Under the default request timeout (30 s): these fail on their own, however slowly the
      // provider starts on a loaded machine, not by a timeout that a slow start would win.
      await expectEachOpenFails(toolchain(), work, {
        missing: {
          prepare: codexPrepare(work, { command: "/nonexistent/codex", args: [] }),
          code: "ERR_RUNNER_PROVIDER_START_FAILED",
          text: "ENOENT",
        },
        early: {
          prepare: codexPrepare(work, { args: fakeCodexArgs("exit-before-initialize") }),
          code: "ERR_RUNNER_PROVIDER_START_FAILED",
          text: "code 3",
        },
        garbage: {
          prepare: codexPrepare(work, { args: fakeCodexArgs("non-json-initialize") }),
          code: "ERR_RUNNER_PROVIDER_PROTOCOL",
          text: "a line is not JSON",
        },
      });
    });
  });

  it("fails session.open the same way when the provider never answers initialize within the request timeout", async () => {
    await withWork(async (work) => {
      await expectEachOpenFails(
        toolchain(),
        work,
        {
          silent: {
            prepare: codexPrepare(work, { args: fakeCodexArgs("never-answer") }),
            code: "ERR_RUNNER_PROVIDER_TIMEOUT",
            text: "the provider did not answer initialize within 500 ms",
          },
        },
        { PAPERCLIP_RUNNER_PROVIDER_REQUEST_TIMEOUT_MS: "500" },
      );
    });
  });

  it("ends the turn (turn.failed and the run terminal) on non-JSON, a 5 MiB frame, a flood or an exit (the provider then started again), and the session reopens on the same thread", async () => {
    await withWork(async (work) => {
      const hostile = ["non-json", "oversized", "flood", "exit"];
      const steps: Step[] = [
        { op: "queue", type: "run.prepare", payload: codexPrepare(work), id: "prepare" },
        ...hostile.flatMap((text, index): Step[] => [
          { op: "queue", type: "session.open", id: `open-${index}` },
          { op: "command", id: `open-${index}` },
          { op: "queue", type: "turn.start", payload: { text }, id: `turn-${index}` },
          { op: "event", type: "run.terminal", count: index + 1 },
        ]),
        { op: "queue", type: "session.open", id: "open-last" },
        { op: "queue", type: "turn.start", payload: { text: "fine" }, id: "turn-last" },
        { op: "event", type: "run.terminal", count: hostile.length + 1 },
      ];
      const result = await driveCodexRunner(toolchain(), work, [...steps, ...closeSteps]);
      expectNothingLeft(result);
      const failures = failureDiagnostics(result).map((payload) => [payload.code, payload.message]);
      expect(failures).toEqual([
        [
          "provider_protocol_violation",
          "ERR_RUNNER_PROVIDER_PROTOCOL: provider protocol violation: a line is not JSON",
        ],
        [
          "provider_protocol_violation",
          expect.stringMatching(
            /^ERR_RUNNER_PROVIDER_PROTOCOL: provider protocol violation: a frame of \d+ bytes exceeds the 4 MiB limit$/,
          ),
        ],
        [
          "provider_protocol_violation",
          "ERR_RUNNER_PROVIDER_PROTOCOL: provider protocol violation: more than 1024 provider messages are waiting",
        ],
      ]);
      // An exit of its own is no protocol failure: the provider starts again on the same thread,
      // as upstream's runner does (the turn it ran is lost: failed below).
      const exited = result.committed.findIndex(
        (event) => event.eventType === "session.failed" && event.payload.code === "provider_exited",
      );
      expect(result.committed[exited]?.payload).toMatchObject({
        code: "provider_exited",
        exitCode: 7,
        expected: false,
        previousTurnCompleted: false,
      });
      expect(
        eventTypes(result.committed.slice(exited + 1))
          .filter((type) => type.startsWith("session.") || type === "turn.failed")
          .slice(0, 3),
      ).toEqual(["session.resumed", "session.reconciled", "turn.failed"]);
      const turnFailed = result.committed.filter((event) => event.eventType === "turn.failed");
      expect(turnFailed.map((event) => event.payload.providerTurnId)).toEqual([
        "turn-1",
        "turn-2",
        "turn-3",
        "turn-4",
      ]);
      expect(turnFailed.every((event) => event.payload.providerTerminalObserved === false)).toBe(true);
      expect(
        result.committed
          .filter((event) => event.eventType === "run.terminal")
          .map((event) => event.payload.runTerminalState),
      ).toEqual(["failed", "failed", "failed", "failed", "succeeded"]);
      const threads = new Set(
        result.committed
          .filter((event) => event.eventType === "session.started" || event.eventType === "session.resumed")
          .map((event) => event.payload.providerSessionId),
      );
      expect(threads.size).toBe(1);
      expect(commandOf(result, "turn-last")?.result.result).toEqual({
        status: "accepted",
        providerTurnId: "turn-5",
      });
    });
  });

  it("starts a provider killed between turns again on the same thread (session.reconciled, not failed), and the next turn completes", async () => {
    await withWork(async (work) => {
      const result = await driveCodexRunner(toolchain(), work, [
        ...openSteps(work, codexPrepare(work, { contract: false })),
        { op: "queue", type: "turn.start", payload: { text: "plain" }, id: "before" },
        { op: "event", type: "turn.completed" },
        { op: "killProvider" },
        { op: "event", type: "session.resumed" },
        { op: "queue", type: "turn.start", payload: { text: "plain" }, id: "after" },
        { op: "event", type: "turn.completed", count: 2 },
        ...closeSteps,
      ]);
      expectNothingLeft(result);
      const types = eventTypes(result.committed);
      const exited = types.indexOf("session.reconciled");
      // Nothing was lost (the last turn completed on that process): reconciled, no failure.
      expect(result.committed[exited]?.payload).toMatchObject({
        code: "provider_exited",
        expected: false,
        previousTurnCompleted: true,
        completedByExitedProcess: true,
        completedTurnProcessGeneration: 1,
        processGeneration: 1,
      });
      expect(types).not.toContain("session.failed");
      expect(types.slice(exited + 1, exited + 5)).toEqual([
        "harness.diagnostic",
        "harness.diagnostic",
        "session.resumed",
        "session.reconciled",
      ]);
      expect(result.committed[exited + 1]?.payload).toMatchObject({
        startup: { trigger: "restore", command: null, attemptedProcessGeneration: 2 },
      });
      expect(commandOf(result, "after")?.result.status).toBe("completed");
    });
  });

  it("stops starting a provider that dies again after each resume: MAX_RESTARTS_BETWEEN_TURNS restarts, then the session fails", async () => {
    await withWork(async (work) => {
      const prepare = codexPrepare(work, {
        contract: false,
        args: fakeCodexArgs("exit-after-resume"),
      });
      const result = await driveCodexRunner(toolchain(), work, [
        ...openSteps(work, prepare),
        { op: "queue", type: "turn.start", payload: { text: "exit" }, id: "turn" },
        // Two startup facts per launch (the first and each restart), then the failure's diagnostic.
        { op: "event", type: "harness.diagnostic", count: 2 * (1 + MAX_RESTARTS_BETWEEN_TURNS) + 1 },
        ...closeSteps,
      ]);
      expectNothingLeft(result);
      expect(eventTypes(result.committed).filter((type) => type === "session.resumed")).toHaveLength(
        MAX_RESTARTS_BETWEEN_TURNS,
      );
      // The first exit took the turn; the fourth one is no longer restarted.
      expect(failureDiagnostics(result)).toEqual([
        { code: "provider_exited", message: "the provider exited (code 9, signal none)" },
      ]);
      expect(result.committed.at(-1)?.payload).toMatchObject({ code: "provider_exited", exitCode: 9 });
    });
  });

  it("treats a notification for another thread or turn as a protocol failure that needs reconciliation", async () => {
    await withWork(async (work) => {
      // Each in a runner of its own: a runner whose session was closed prepares no other.
      const results: DriverResult[] = [];
      for (const text of ["foreign-turn", "foreign-thread"]) {
        const own = path.join(work, text);
        const steps: Step[] = [
          { op: "queue", type: "run.prepare", payload: codexPrepare(own), id: `prepare-${text}` },
          { op: "queue", type: "session.open", id: `open-${text}` },
          { op: "queue", type: "turn.start", payload: { text }, id: `turn-${text}` },
          { op: "command", id: `turn-${text}` },
          { op: "event", type: "turn.failed" },
          { op: "queue", type: "turn.start", payload: { text: "again" }, id: `refused-${text}` },
          { op: "command", id: `refused-${text}` },
          { op: "queue", type: "session.close", id: `close-${text}` },
          { op: "command", id: `close-${text}` },
        ];
        const each = await driveCodexRunner(toolchain(), own, [...steps, ...closeSteps]);
        expectNothingLeft(each);
        results.push(each);
      }
      const result = {
        ...(results[0] as DriverResult),
        commands: results.flatMap((each) => each.commands),
        committed: results.flatMap((each) => each.committed),
      };
      // As upstream's: another turn of the thread, then a thread never started (no session.failed).
      expect(failureDiagnostics(result)).toEqual([
        expect.objectContaining({
          code: "turn_binding_mismatch",
          classification: "invalid_authoritative",
          method: "item/started",
          receivedTurnId: "turn-elsewhere",
        }),
        expect.objectContaining({
          code: "thread_binding_mismatch",
          classification: "invalid_authoritative",
          method: "item/started",
          receivedThreadId: "thread-somebody-else",
        }),
      ]);
      expect(eventTypes(result.committed)).not.toContain("session.failed");
      for (const text of ["foreign-turn", "foreign-thread"]) {
        expect(commandOf(result, `refused-${text}`)?.result).toMatchObject({
          status: "rejected",
          message: "the provider session needs reconciliation; turn.start is refused",
        });
      }
    });
  });
});
