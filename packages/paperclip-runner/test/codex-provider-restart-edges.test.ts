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
} from "./helpers/codex-durable.js";
import { expectNothingLeft, startupTrigger } from "./helpers/codex-run-checks.js";

// A provider that exits on its own at the edges of a restart (`src/provider/provider-restart.ts`).

const toolchain = serverToolchainForFile();

const startupTriggers = (result: DriverResult): unknown[] =>
  result.committed.filter((event) => event.payload.code === "provider_startup_ownership").map(startupTrigger);

describe("a provider that exits on its own around a restart", { timeout: 120_000 }, () => {
  it("commits the startup facts session.open held back when the provider dies right after it, before its exit", async () => {
    await withWork(async (work) => {
      const result = await driveCodexRunner(toolchain(), work, [
        ...openSteps(work, codexPrepare(work, { contract: false })),
        { op: "killProvider" },
        { op: "event", type: "session.resumed" },
        ...closeSteps,
      ]);
      expectNothingLeft(result);
      const triggers = startupTriggers(result);
      expect(triggers.filter((trigger) => trigger === "ensure").length).toBeGreaterThan(0);
      expect(triggers.filter((trigger) => trigger === "ensure")).toHaveLength(
        triggers.filter((trigger) => trigger === "restore").length,
      );
      const types = eventTypes(result.committed);
      const firstRestore = result.committed.findIndex((event) => startupTrigger(event) === "restore");
      const exited = types.indexOf("session.failed");
      expect(result.committed[exited]?.payload).toMatchObject({ code: "provider_exited" });
      expect(triggers.lastIndexOf("ensure")).toBeLessThan(exited);
      expect(exited).toBeLessThan(firstRestore);
    });
  });

  it("handles the turn/completed a provider wrote just before it exited: the turn completes, the session is reconciled", async () => {
    await withWork(async (work) => {
      const result = await driveCodexRunner(toolchain(), work, [
        ...openSteps(work, codexPrepare(work, { contract: false })),
        { op: "queue", type: "turn.start", payload: { text: "complete-exit" }, id: "turn" },
        { op: "event", type: "session.resumed" },
        ...closeSteps,
      ]);
      expectNothingLeft(result);
      const types = eventTypes(result.committed);
      expect(types).toContain("turn.completed");
      expect(types).not.toContain("turn.failed");
      expect(types).not.toContain("session.failed");
      const exited = result.committed.find(
        (event) => event.eventType === "session.reconciled" && event.payload.code === "provider_exited",
      );
      expect(exited?.payload).toMatchObject({ completedByExitedProcess: true, exitCode: 0 });
    });
  });

  it("commits one session.failed when the restarted provider cannot resume the thread", async () => {
    await withWork(async (work) => {
      const prepare = codexPrepare(work, {
        contract: false,
        args: fakeCodexArgs("fail-resume"),
      });
      const result = await driveCodexRunner(toolchain(), work, [
        ...openSteps(work, prepare),
        { op: "queue", type: "turn.start", payload: { text: "hang" }, id: "turn" },
        { op: "event", type: "turn.started" },
        { op: "killProvider" },
        { op: "event", type: "turn.failed" },
        ...closeSteps,
      ]);
      expectNothingLeft(result);
      const failed = result.committed.filter((event) => event.eventType === "session.failed");
      expect(failed.map((event) => event.payload.code)).toEqual(["provider_exited"]);
      const diagnostics = result.committed
        .filter((event) => event.eventType === "harness.diagnostic")
        .map((event) => event.payload.code)
        .filter((code) => code !== "provider_startup_ownership");
      expect(diagnostics).toEqual(["provider_start_failed"]);
      expect(eventTypes(result.committed)).not.toContain("session.resumed");
    });
  });

  it("starts the provider of a failed session again on the next turn.start, on the same thread", async () => {
    await withWork(async (work) => {
      const result = await driveCodexRunner(toolchain(), work, [
        ...openSteps(work, codexPrepare(work, { contract: false })),
        { op: "queue", type: "turn.start", payload: { text: "non-json" }, id: "broken" },
        { op: "event", type: "turn.failed" },
        { op: "queue", type: "turn.start", payload: { text: "plain" }, id: "next" },
        { op: "event", type: "turn.completed" },
        ...closeSteps,
      ]);
      expectNothingLeft(result);
      expect(commandOf(result, "next")?.result.status).toBe("completed");
      const threads = new Set(
        result.committed
          .filter((event) => event.eventType === "session.started" || event.eventType === "turn.accepted")
          .map((event) => event.payload.providerSessionId),
      );
      expect(threads.size).toBe(1);
      const ensured = result.committed.filter((event) => startupTrigger(event) === "ensure");
      expect(ensured.at(-1)?.payload.startup).toMatchObject({ command: { commandId: "next" } });
    });
  });
});
