import { expect } from "vitest";
import { type DriverResult, eventTypes, firstEvent, type Step } from "./codex-durable.js";

// What the command differentials share (`codex-*-upstream.test.ts`: the prepare, before-open,
// open-session, drain-and-stop and payload edges, and the generated sweep): a command step, the
// server's shape of a tool result, the answers normalised and compared.

/** A command id the control plane takes, made of a case's name. */
export const slug = (name: string): string => name.replace(/[^A-Za-z0-9]+/g, "-");

export const command = (type: string, name: string, payload?: Record<string, unknown>): Step[] => [
  { op: "queue", type, id: slug(name), ...(payload === undefined ? {} : { payload }) },
  { op: "command", id: slug(name) },
];

/** The server's own shape of a `semantic_tool.result` (`durable-prp-control-plane.js`). */
export const toolResult = (callId: string): Record<string, unknown> => ({
  callId,
  operationId: "report_progress",
  input: {},
  sourceEventId: "event-1",
  sourceEventType: "semantic_tool.input",
  correlation: {},
  result: { ok: true },
  isError: false,
});

/** A command's answer with what differs between two runs (thread and runtime request ids, pids, the work directory) normalised. */
export function answer(result: DriverResult, name: string): unknown {
  const record = result.commands.find((candidate) => candidate.commandId === slug(name));
  if (record === undefined) return undefined;
  const normalise = (value: unknown, key = ""): unknown => {
    // Warm attachment: an accepted difference (docs/compatibility.md), not compared here.
    if (key === "warmAttachBlockers" || key === "warmAttachReady") return "<warm attach>";
    if (key === "processId" && typeof value === "number") return "<pid>";
    if (typeof value === "string") {
      // A runtime request's id hashes the thread's id, which differs between runs.
      return (
        value
          .replaceAll(result.work, "<work>")
          .replace(/^thread-\d+-\d+$/, "<thread>")
          // The server's OpenCode proxy draws its turns' ids at random.
          .replace(/^turn-[0-9a-f]{24}$/, "<turn>")
          .replace(/^runtime-request-[0-9a-f]{64}$/, "<runtime request>")
      );
    }
    if (Array.isArray(value)) return value.map((item) => normalise(item));
    if (value !== null && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, normalise(item, name)]));
    }
    return value;
  };
  return { status: record.status, result: normalise(record.result.result) };
}

/** Every command the scenario queued answered the same by both runners (but `except`), and the same event types committed. */
export function expectSameAnswers(
  ours: DriverResult,
  upstream: DriverResult,
  /** Commands whose answers differ, each asserted by the caller on its own. */
  except: readonly string[] = [],
): void {
  const ids = upstream.commands.map((record) => record.commandId);
  expect(ours.commands.map((record) => record.commandId)).toEqual(ids);
  for (const id of ids.filter((candidate) => !except.includes(candidate)))
    expect({ id, ...(answer(ours, id) as object) }).toEqual({ id, ...(answer(upstream, id) as object) });
  expect(eventTypes(ours.committed)).toEqual(eventTypes(upstream.committed));
}

export const failed = (message: string) => ({
  status: "failed",
  result: { code: "command_execution_failed", message },
});

/**
 * Where upstream's runner exits 1 on a provider's protocol violation, ours fails the session in
 * the same words (`reason`), ends the run failed and goes on until the server's close.
 */
export function expectSessionFailedOnProtocol(ours: DriverResult, reason: string): void {
  expect(ours.failure).toBeNull();
  expect(ours.invalid).toEqual([]);
  expect(firstEvent(ours, "session.failed").payload).toMatchObject({
    code: "provider_protocol_violation",
    message: `ERR_RUNNER_PROVIDER_PROTOCOL: provider protocol violation: ${reason}`,
  });
  expect(firstEvent(ours, "run.terminal").payload).toMatchObject({ runTerminalState: "failed" });
  expect(ours.exits).toEqual([{ phase: "final", code: 0, signal: null }]);
}
