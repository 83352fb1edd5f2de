import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { DurableEngine, EngineReceipt } from "../src/durable/engine/durable-engine.js";
import type { ServerCommand } from "../src/durable/state/command-journal.js";
import { handMadeServer } from "./helpers/hand-made-prp-server.js";
import { welcomedRunner } from "./helpers/in-process-runner.js";

// Commands are applied one at a time, in order. When the run fails while one is applied, those
// queued behind it are not started: each stays unjournalled for the server to deliver again to
// the next runner. Before, they were journalled and handed to the engine after the failure.

/** An engine that holds each command until the test answers it, and can fail its run. */
function answeringEngine() {
  let crash!: (error: Error) => void;
  const finished = new Promise<number>((_resolve, reject) => {
    crash = reject;
  });
  const received: ServerCommand[] = [];
  const answers: ((receipt: EngineReceipt) => void)[] = [];
  let arrived!: () => void;
  const firstArrived = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  let done!: () => void;
  const firstDone = new Promise<void>((resolve) => {
    done = resolve;
  });
  const engine: DurableEngine = {
    ready: Promise.resolve(),
    finished,
    isFinished: false,
    command: (command) => {
      received.push(command);
      arrived();
      return new Promise((resolve) => answers.push(resolve));
    },
    acknowledge: () => undefined,
    shutdown: () => undefined,
    afterCommand: async () => done(),
  };
  const answerFirst = (): void =>
    answers[0]?.({
      kind: "receipt",
      commandId: received[0]?.commandId ?? "",
      status: "ok",
      detail: "",
      original: null,
    });
  return { engine, received, firstArrived, firstDone, answerFirst, crash };
}

describe("a run that fails while a command is applied", () => {
  it("starts none of the commands queued behind it", async () => {
    const server = await handMadeServer();
    const held = answeringEngine();
    const { conn, running, saved } = await welcomedRunner(server, held.engine, `lease_${randomUUID()}`);
    conn.sendCommand({ commandId: "prepare", controllerSeq: 1, type: "run.prepare" });
    conn.sendCommand({ commandId: "open", controllerSeq: 2, type: "session.open" });
    await held.firstArrived;
    held.crash(new Error("the harness died"));
    await expect(running).rejects.toThrow("the harness died");
    // The command under way when the run failed ends as it would; the one queued behind it must not start.
    held.answerFirst();
    await held.firstDone;
    // Whatever starting the next command would do is done within this turn of the event loop.
    await new Promise((resolve) => setImmediate(resolve));
    expect(held.received.map((command) => command.commandId)).toEqual(["prepare"]);
    expect(saved.some((state) => Object.hasOwn(state.processedCommands, "open"))).toBe(false);
  });
});
