import { expect } from "vitest";
import {
  closeSteps,
  commandOf,
  type DriverResult,
  driveCodexRunner,
  eventTypes,
  type ServerToolchain,
  type Step,
} from "./codex-durable.js";
import { expectNothingLeft } from "./codex-run-checks.js";

/** A provider that cannot start: its `run.prepare` payload and the coded failure it must end in. */
export interface StartFailureCase {
  readonly prepare: Record<string, unknown>;
  readonly code: string;
  /** A part of the failure's message after its code. */
  readonly text: string;
}

/** The failure diagnostics (the startup facts of each provider launch left aside). */
export const failureDiagnostics = (result: DriverResult) =>
  result.committed
    .filter((event) => event.eventType === "harness.diagnostic")
    .map((event) => event.payload)
    .filter((payload) => payload.code !== "provider_startup_ownership");

/**
 * Opens a session on each case's provider in one runner, each session closed so that the next
 * `run.prepare` binds the next case: every `session.open` fails with its code and text, once, with
 * one `provider_start_failed` diagnostic and one `session.failed`; no session starts and no
 * process is left.
 */
export async function expectEachOpenFails(
  toolchain: ServerToolchain,
  work: string,
  cases: Record<string, StartFailureCase>,
  launcherEnv?: Record<string, string>,
): Promise<DriverResult> {
  const steps: Step[] = Object.entries(cases).flatMap(([name, { prepare }]): Step[] => [
    { op: "queue", type: "run.prepare", payload: prepare, id: `prepare-${name}` },
    { op: "command", id: `prepare-${name}` },
    { op: "queue", type: "session.open", id: `open-${name}` },
    { op: "command", id: `open-${name}` },
    { op: "queue", type: "session.close", id: `close-${name}` },
    { op: "command", id: `close-${name}` },
  ]);
  const result = await driveCodexRunner(toolchain, work, [...steps, ...closeSteps], {
    ...(launcherEnv ? { launcherEnv } : {}),
  });
  expectNothingLeft(result);
  for (const [name, { code, text }] of Object.entries(cases)) {
    const open = commandOf(result, `open-${name}`);
    expect(open?.status, name).toBe("failed");
    expect(open?.result.message, name).toContain(`${code}: `);
    expect(open?.result.message, name).toContain(text);
  }
  const count = Object.keys(cases).length;
  expect(eventTypes(result.committed).filter((type) => type === "session.failed")).toHaveLength(count);
  expect(failureDiagnostics(result).map((payload) => payload.code)).toEqual(
    Array(count).fill("provider_start_failed"),
  );
  expect(eventTypes(result.committed)).not.toContain("session.started");
  return result;
}
