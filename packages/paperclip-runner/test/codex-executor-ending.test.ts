import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { isAlive } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../src/durable/engine/durable-engine.js";
import type { ServerCommand } from "../src/durable/state/command-journal.js";
import { CodexExecutor } from "../src/provider/codex-executor.js";
import type { CodexProviderState } from "../src/provider/codex-provider-state.js";
import type { ExecutorContext } from "../src/provider/executor-context.js";
import { providerEnvironment } from "../src/provider/provider-environment.js";
import { codexPrepare, withWork, workPaths } from "./helpers/codex-durable.js";

// The Codex executor alone (no server), on the real fake app-server: the orders of a provider's
// exit and the runner's own steps that a server scenario cannot pin down.

let seq = 0;
const commandOf = (type: string, payload: Record<string, unknown> = {}): ServerCommand => ({
  schema: "paperclip.prp.command.v1",
  commandId: `${type}-${++seq}`,
  controllerSeq: seq,
  type,
  payload,
});

async function startExecutor(work: string) {
  const { codexHome } = workPaths(work);
  await mkdir(workPaths(work).cwd, { recursive: true });
  await mkdir(codexHome, { recursive: true });
  const events: EngineEvent["event"][] = [];
  const executor = new CodexExecutor({
    stateDir: work,
    identity: {
      runnerInstanceId: "runner-1",
      runId: "run-1",
      normalizedSessionId: "session-1",
      turnId: "turn-1",
      itemId: "item-1",
    },
    lastEventSeq: 0,
    onEvent: async (event) => {
      events.push(event.event);
    },
    session: {
      spawnSpec: (state: CodexProviderState) => ({
        command: state.config.command,
        args: state.config.args,
        cwd: state.config.cwd,
        env: { ...providerEnvironment("codex", process.env), CODEX_HOME: codexHome },
      }),
      requestTimeoutMs: 10_000,
    },
    recovered: null,
    checkLaunchProfile: () => undefined,
  });
  const run = async (type: string, payload?: Record<string, unknown>) => {
    const command = commandOf(type, payload);
    await executor.beforeCommand(command);
    return await executor.command(command);
  };
  await run("run.prepare", codexPrepare(work, { contract: false }));
  await run("session.open");
  const stateFile = path.join(work, "codex-provider-state.json");
  const readState = async () => JSON.parse(await readFile(stateFile, "utf8")) as CodexProviderState;
  /** The pids of the fake app-servers started so far (each logs its start). */
  const pids = async () => {
    const text = await readFile(path.join(codexHome, "log.jsonl"), "utf8");
    return text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { kind: string; pid?: number })
      .filter((record) => record.kind === "start")
      .map((record) => record.pid as number);
  };
  return { executor, events, run, readState, stateFile, pids };
}

/** Every provider the test started is stopped, whatever the test's outcome. */
async function stopAll(pids: () => Promise<number[]>): Promise<void> {
  for (const pid of await pids().catch(() => [])) if (isAlive(pid)) process.kill(pid, "SIGKILL");
}

describe("a provider exit while the runner is ending or busy", { timeout: 30_000 }, () => {
  it("a failing runner (kill) starts no second provider and leaves the state file as it was", async () => {
    await withWork(async (work) => {
      const { executor, events, readState, stateFile, pids } = await startExecutor(work);
      try {
        const before = await readFile(stateFile, "utf8");
        const pid = (await readState()).processId as number;
        const eventsBefore = events.length;
        await executor.kill();
        // The exit reaches the executor after kill (its actor handles it behind this step).
        executor.shutdown();
        await executor.finished;
        expect(isAlive(pid)).toBe(false);
        expect(await pids()).toEqual([pid]);
        expect(await readFile(stateFile, "utf8")).toBe(before);
        expect(events.slice(eventsBefore).map((event) => event.eventType)).toEqual([]);
      } finally {
        await stopAll(pids);
      }
    });
  });

  it("a turn.start that finds the provider dead before its exit was handled starts it again and runs the turn", async () => {
    await withWork(async (work) => {
      const { executor, events, run, readState, pids } = await startExecutor(work);
      try {
        const pid = (await readState()).processId as number;
        // The actor is held until the provider is reaped, so its exit message waits behind the
        // turn.start queued meanwhile: the race of a death between two turns, pinned down.
        const ctx = (executor as unknown as { ctx: ExecutorContext }).ctx;
        const process_ = ctx.session?.peer.process;
        const dead = ctx.run(async () => {
          process.kill(pid, "SIGKILL");
          await process_?.exited;
        });
        // Its beforeCommand ran before the death (nothing to restart then): the command alone is queued.
        const held = executor.command(commandOf("turn.start", { text: "plain" }));
        await dead;
        const receipt = await held;
        expect(receipt).toMatchObject({ status: "accepted", detail: "command applied" });
        expect((await pids()).length).toBe(2);
        const types = events.map((event) => event.eventType);
        expect(types).toContain("session.resumed");
        expect(types).toContain("turn.accepted");
        expect(types.indexOf("session.resumed")).toBeLessThan(types.indexOf("turn.accepted"));
        expect(types).not.toContain("turn.failed");
        await run("session.close");
      } finally {
        executor.shutdown();
        await executor.finished;
        await stopAll(pids);
      }
    });
  });

  it("a provider that dies after runner.drain is not started again, and no event follows the drain", async () => {
    await withWork(async (work) => {
      const { executor, events, readState, pids } = await startExecutor(work);
      try {
        const pid = (await readState()).processId as number;
        // Durable mode answers the drain itself once beforeCommand returns: its answer is final here.
        await executor.beforeCommand(commandOf("runner.drain"));
        const drained = events.length;
        const ctx = (executor as unknown as { ctx: ExecutorContext }).ctx;
        const provider = ctx.session?.peer.process;
        process.kill(pid, "SIGKILL");
        await provider?.exited;
        await provider?.outputEnded;
        // The exit message is handled in the actor, before the suspend queued after it.
        await ctx.run(async () => undefined);
        await executor.beforeCommand(commandOf("runner.suspend"));
        executor.shutdown();
        await executor.finished;
        expect(await pids()).toEqual([pid]);
        expect(events.slice(drained).map((event) => event.eventType)).toEqual([]);
      } finally {
        await stopAll(pids);
      }
    });
  });
});
