import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";
import type { HarnessCommand } from "../harness-message.js";
import { CommandInbox, send } from "./harness-io.js";
import type { UpstreamScript, UpstreamStep } from "./upstream-script.js";

/** What upstream's fake harness reports as its driver session and version. */
const DRIVER_SESSION_ID = "driver_local_runner_fake";
const DRIVER_VERSION = "1.0.0";
const DEFAULT_TURN_ID = "turn_local_runner";

/**
 * Runs an upstream `paperclip.fake_harness.script.v1` script as upstream's fake
 * harness does. `delayOverrideMs` (`--delay-ms`) replaces every delay step's time.
 */
export async function runUpstreamScript(
  script: UpstreamScript,
  delayOverrideMs: number | null,
): Promise<number> {
  // The harness protocol's rule: when the runner closes stdin, the harness leaves.
  const inbox = new CommandInbox(
    () => false,
    null,
    () => process.exit(0),
  );
  const commandOf = (type: string, requestId?: string) =>
    inbox.take(
      (command: HarnessCommand) =>
        command.command === type && (requestId === undefined || command.payload.requestId === requestId),
      true,
    );
  await send({ type: "ready", version: DRIVER_VERSION, script: script.name });
  await commandOf("session.open");
  await event("session.started", null, null, { driverSessionId: DRIVER_SESSION_ID });
  await event("runtime.phase.changed", null, null, { phase: "executing" });
  const turn = await commandOf("turn.start");
  const turnId = typeof turn.payload.turnId === "string" ? turn.payload.turnId : DEFAULT_TURN_ID;
  await event("turn.started", turnId, null, {});
  for (const step of script.steps) {
    const exitCode = await runStep(step, turnId, delayOverrideMs, commandOf);
    if (exitCode !== null) return exitCode;
  }
  return 0;
}

async function runStep(
  step: UpstreamStep,
  turnId: string,
  delayOverrideMs: number | null,
  commandOf: (type: string, requestId?: string) => Promise<HarnessCommand>,
): Promise<number | null> {
  switch (step.kind) {
    case "delay":
      await sleep(delayOverrideMs ?? step.milliseconds);
      return null;
    case "log":
      await send({ type: "log", stream: step.stream, text: step.text });
      return null;
    case "event":
      await event(step.eventType, step.turnId ?? turnId, step.itemId, step.payload ?? {});
      return null;
    case "request":
      await send({ type: "request", request: step.request });
      return null;
    case "await_resolution": {
      const command = await commandOf("request.resolve", step.requestId);
      await event("runtime_request.resolved", turnId, null, {
        requestId: step.requestId,
        response: command.payload.response ?? null,
      });
      return null;
    }
    case "await_interrupt": {
      const command = await commandOf("turn.interrupt");
      await event("turn.interrupted", turnId, null, { reason: command.payload.reason ?? "operator" });
      return null;
    }
    case "result":
      await send({ type: "result", result: step.payload });
      return null;
    case "terminal":
      await send({ type: "terminal", terminal: step.payload });
      return null;
    case "spawn_worker": {
      const worker = spawn("/bin/sh", ["-c", "sleep 60"], { stdio: "ignore", env: {} });
      worker.on("error", () => undefined);
      await send({
        type: "diagnostic",
        diagnostic: { workerPid: worker.pid ?? null, purpose: "cleanup_conformance" },
      });
      return null;
    }
    case "exit":
      return step.code;
  }
}

function event(
  eventType: string,
  turnId: string | null,
  itemId: string | null,
  payload: unknown,
): Promise<void> {
  return send({ type: "event", event: { eventType, turnId, itemId, payload } });
}
