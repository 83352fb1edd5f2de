import { mkdir } from "node:fs/promises";
import path from "node:path";
import { expect } from "vitest";
import {
  closeSteps,
  commandOf,
  type DriverResult,
  driveCodexRunner,
  eventTypes,
  type ServerToolchain,
  type Step,
  workPaths,
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
 * Opens a session on each case's provider, each in a runner of its own (as upstream's, a runner
 * whose session was closed prepares no other): every `session.open` fails with its code and text,
 * once, with one `provider_start_failed` diagnostic and one `session.failed`; no session starts
 * and no process is left. Resolves with the cases' results merged, in order.
 */
export async function expectEachOpenFails(
  toolchain: ServerToolchain,
  work: string,
  cases: Record<string, StartFailureCase>,
  launcherEnv?: Record<string, string>,
): Promise<DriverResult> {
  // The cases' payloads name the work directory's workspace as their cwd.
  await mkdir(workPaths(work).cwd, { recursive: true });
  const results: DriverResult[] = [];
  for (const [name, { prepare }] of Object.entries(cases)) {
    const steps: Step[] = [
      { op: "queue", type: "run.prepare", payload: prepare, id: `prepare-${name}` },
      { op: "command", id: `prepare-${name}` },
      { op: "queue", type: "session.open", id: `open-${name}` },
      { op: "command", id: `open-${name}` },
      { op: "queue", type: "session.close", id: `close-${name}` },
      { op: "command", id: `close-${name}` },
    ];
    const result = await driveCodexRunner(
      toolchain,
      path.join(work, `case ${name}`),
      [...steps, ...closeSteps],
      {
        ...(launcherEnv ? { launcherEnv } : {}),
      },
    );
    expectNothingLeft(result);
    results.push(result);
  }
  const result: DriverResult = {
    ...(results[0] as DriverResult),
    commands: results.flatMap((each) => each.commands),
    committed: results.flatMap((each) => each.committed),
    providerLog: results.flatMap((each) => each.providerLog),
    exits: results.flatMap((each) => each.exits),
  };
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
