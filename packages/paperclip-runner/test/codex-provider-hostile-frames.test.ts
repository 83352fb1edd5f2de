import { readFileSync } from "node:fs";
import path from "node:path";
import { isAlive } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import {
  closeSteps,
  codexPrepare,
  commandOf,
  type DriverResult,
  driveCodexRunner,
  eventTypes,
  fakeCodexArgs,
  openSteps,
  serverToolchainForFile,
  withWork,
  workPaths,
} from "./helpers/codex-durable.js";
import { expectNothingLeft } from "./helpers/codex-run-checks.js";
import { expectEachOpenFails, failureDiagnostics } from "./helpers/provider-start-failures.js";

// Hostile providers beyond the named ones of `codex-provider-hostile.test.ts`: JSON-RPC errors,
// frames that are not UTF-8 or nest too deep, answers to nothing, a flood ahead of an answer, a
// provider that closes its stdout or leaves a grandchild behind, an unknown server request.
// The fake's hostile start modes are in `helpers/fake-codex-hostile-start.mjs`.

const toolchain = serverToolchainForFile();

/**
 * Opens a session on each mode's provider in one runner (`expectEachOpenFails`), and each failure
 * carries exactly its code and text, in the command's result, its diagnostic and `session.failed`.
 */
async function openFailures(
  work: string,
  cases: Record<string, { code: string; text: string }>,
  launcherEnv?: Record<string, string>,
): Promise<DriverResult> {
  const startCases = Object.fromEntries(
    Object.entries(cases).map(([mode, failure]) => [
      mode,
      { ...failure, prepare: codexPrepare(work, { args: fakeCodexArgs(mode) }) },
    ]),
  );
  const result = await expectEachOpenFails(toolchain(), work, startCases, launcherEnv);
  const messages = Object.values(cases).map(({ code, text }) => `${code}: ${text}`);
  expect(Object.keys(cases).map((mode) => commandOf(result, `open-${mode}`)?.result.message)).toEqual(
    messages,
  );
  expect(failureDiagnostics(result)).toEqual(
    messages.map((message) => ({ code: "provider_start_failed", message })),
  );
  expect(
    result.committed
      .filter((event) => event.eventType === "session.failed")
      .map((event) => event.payload.message),
  ).toEqual(messages);
  return result;
}

describe("more hostile providers", { timeout: 120_000 }, () => {
  it("fails session.open with a coded error when initialize or thread/start is answered with a JSON-RPC error, the provider's text redacted", async () => {
    await withWork(async (work) => {
      const result = await openFailures(work, {
        "initialize-error": {
          code: "ERR_RUNNER_PROVIDER_REQUEST_FAILED",
          text: "the provider answered initialize with an error: login failed for [REDACTED]",
        },
        "thread-start-error": {
          code: "ERR_RUNNER_PROVIDER_REQUEST_FAILED",
          text: "the provider answered thread/start with an error: thread refused for [REDACTED]",
        },
      });
      expect(JSON.stringify([result.committed, result.commands])).not.toContain("sk_live_");
    });
  });

  it("fails session.open as a protocol violation on bytes that are not UTF-8, a frame nested too deep, an answer to nothing, an answer twice, half a line, a thread id that is no string", async () => {
    await withWork(async (work) => {
      const violation = (reason: string) => ({
        code: "ERR_RUNNER_PROVIDER_PROTOCOL",
        text: `provider protocol violation: ${reason}`,
      });
      await openFailures(work, {
        "invalid-utf8": violation("a line is not UTF-8"),
        "deep-nesting": violation("a frame nests deeper than 127 levels"),
        "unknown-answer": violation("an answer names no request the runner sent"),
        "duplicate-answer": violation("an answer names no request the runner sent"),
        "partial-exit": violation("a line is not JSON"),
        "thread-id-number": violation("the thread answer has no valid thread id"),
      });
    });
  });

  it("fails session.open when more than 16 MiB of notifications wait ahead of the initialize answer", async () => {
    await withWork(async (work) => {
      // The default request timeout (30 s): the bound, not a timeout, ends it.
      await openFailures(work, {
        "buffer-flood": {
          code: "ERR_RUNNER_PROVIDER_PROTOCOL",
          text: "provider protocol violation: the provider messages waiting exceed the 16 MiB aggregate limit",
        },
      });
    });
  });

  it("kills a provider that closed its stdout and ignores SIGTERM, and the grandchild that kept the pipes of one that exited", async () => {
    await withWork(async (work) => {
      const result = await openFailures(
        work,
        {
          "closed-stdout": {
            code: "ERR_RUNNER_PROVIDER_TIMEOUT",
            text: "the provider did not answer initialize within 1000 ms",
          },
          grandchild: {
            code: "ERR_RUNNER_PROVIDER_START_FAILED",
            text: "the provider process could not start: the provider exited (code 3, signal none)",
          },
        },
        { PAPERCLIP_RUNNER_PROVIDER_REQUEST_TIMEOUT_MS: "1000" },
      );
      // Each case runs in a runner of its own, its Codex home under its own directory.
      const home = workPaths(path.join(work, "case grandchild")).codexHome;
      const grandchild = Number(readFileSync(path.join(home, "grandchild.pid"), "utf8"));
      expect(result.providerLog.filter((record) => record.kind === "start")).toHaveLength(2);
      expect(isAlive(grandchild)).toBe(false);
    });
  });

  it("kills a provider that ignores the SIGTERM of session.close once the grace is over", async () => {
    await withWork(async (work) => {
      const result = await driveCodexRunner(toolchain(), work, [
        ...openSteps(work, codexPrepare(work, { args: fakeCodexArgs("ignore-sigterm") })),
        { op: "queue", type: "session.close", id: "close" },
        { op: "command", id: "close" },
        ...closeSteps,
      ]);
      expectNothingLeft(result);
      expect(commandOf(result, "close")?.result.result).toMatchObject({ status: "closed" });
      expect(eventTypes(result.committed)).toContain("session.closed");
    });
  });

  it("fails the session and the turn, and kills the provider, when it stops answering mid-turn (a turn/interrupt times out)", async () => {
    await withWork(async (work) => {
      const result = await driveCodexRunner(
        toolchain(),
        work,
        [
          ...openSteps(work),
          { op: "queue", type: "turn.start", payload: { text: "deaf" }, id: "deaf" },
          { op: "event", type: "turn.started" },
          { op: "queue", type: "turn.interrupt", payload: { reason: "user" }, id: "interrupt" },
          { op: "command", id: "interrupt" },
          { op: "event", type: "run.terminal" },
          { op: "queue", type: "session.open", id: "reopen" },
          { op: "queue", type: "turn.start", payload: { text: "plain" }, id: "after" },
          { op: "event", type: "run.terminal", count: 2 },
          ...closeSteps,
        ],
        { launcherEnv: { PAPERCLIP_RUNNER_PROVIDER_REQUEST_TIMEOUT_MS: "1000" } },
      );
      expectNothingLeft(result);
      const timeout =
        "ERR_RUNNER_PROVIDER_TIMEOUT: the provider did not answer turn/interrupt within 1000 ms";
      expect(commandOf(result, "interrupt")?.result.message).toBe(timeout);
      expect(
        failureDiagnostics(result).filter((payload) => payload.code !== "provider_interrupt_requested"),
      ).toEqual([{ code: "provider_protocol_violation", message: timeout }]);
      expect(result.committed.find((event) => event.eventType === "session.failed")?.payload).toMatchObject({
        code: "provider_protocol_violation",
        message: timeout,
      });
      expect(result.committed.find((event) => event.eventType === "turn.failed")?.payload).toMatchObject({
        providerTurnId: "turn-1",
        providerTerminalObserved: false,
      });
      expect(commandOf(result, "after")?.result.result).toMatchObject({ status: "accepted" });
    });
  });

  it("answers an unknown server request -32601 with upstream's warning notice, and fails the turn on a frame nested too deep; the session reopens", async () => {
    await withWork(async (work) => {
      const result = await driveCodexRunner(toolchain(), work, [
        ...openSteps(work),
        { op: "queue", type: "turn.start", payload: { text: "unknown-request" }, id: "unknown" },
        { op: "event", type: "run.terminal" },
        { op: "queue", type: "turn.start", payload: { text: "deep-frame" }, id: "deep" },
        { op: "event", type: "run.terminal", count: 2 },
        { op: "queue", type: "session.open", id: "reopen" },
        { op: "queue", type: "turn.start", payload: { text: "plain" }, id: "after" },
        { op: "event", type: "run.terminal", count: 3 },
        ...closeSteps,
      ]);
      expectNothingLeft(result);
      const answers = result.providerLog.filter((record) => record.kind === "unknown_request_answer");
      expect(answers.map((record) => record.answer)).toEqual([
        { code: -32601, message: "provider request is unavailable in this runner layer" },
      ]);
      const notice = result.committed.find((event) => event.eventType === "provider.notice.recorded");
      expect(notice?.payload).toMatchObject({
        category: "warning",
        scope: "turn",
        summary: "unsupported Codex request item/fileChange/requestApproval",
      });
      expect(failureDiagnostics(result)).toEqual([
        {
          code: "provider_protocol_violation",
          message:
            "ERR_RUNNER_PROVIDER_PROTOCOL: provider protocol violation: a frame nests deeper than 127 levels",
        },
      ]);
      expect(
        result.committed
          .filter((event) => event.eventType === "run.terminal")
          .map((event) => event.payload.runTerminalState),
      ).toEqual(["succeeded", "failed", "succeeded"]);
      expect(commandOf(result, "after")?.result.result).toMatchObject({ status: "accepted" });
    });
  });
});
