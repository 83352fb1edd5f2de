import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { codexOnHandMadeServer } from "./codex-on-hand-made-server.js";
import type { PeerConnection } from "./hand-made-prp-server.js";

/** The fresh ticket a relaunch is given (the hand-made server proves any ticket it is told). */
export const RELAUNCH_TICKET = "bootstrap_00000000-0000-4000-8000-0000000000bb";

/**
 * A relaunch of `on`'s runner with the fresh ticket, its first connection taken through the
 * handshake (the welcome is the test's to send).
 */
export async function relaunchedThroughHandshake(on: Awaited<ReturnType<typeof codexOnHandMadeServer>>) {
  const run = on.launch({ ticket: RELAUNCH_TICKET });
  const conn = await on.server.nextConnection();
  await conn.handshake(RELAUNCH_TICKET).catch(async (error: unknown) => {
    // The runner's own account of why it left the handshake.
    throw new Error(`${String(error)}; the runner exited ${await run.closed}: ${run.stderr()}`);
  });
  return { run, conn };
}

/** The ends of the command stream, and the lifecycle each leaves. */
export const STREAM_ENDS = [
  { type: "runner.shutdown", lifecycle: "stopped" },
  { type: "runner.suspend", lifecycle: "suspended" },
] as const;

/** The pids of every fake app-server started under `codexHome`, in order (from its log). */
export async function providerStarts(codexHome: string): Promise<number[]> {
  const log = await readFile(join(codexHome, "log.jsonl"), "utf8");
  return log
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as { kind: string; pid: number })
    .filter((record) => record.kind === "start")
    .map((record) => record.pid);
}

/** The params of every `method` request the fake app-servers under `codexHome` received, in order (from its log). */
export async function providerRequestParams(
  codexHome: string,
  method: string,
): Promise<Record<string, unknown>[]> {
  const log = await readFile(join(codexHome, "log.jsonl"), "utf8");
  return log
    .split("\n")
    .filter((line) => line !== "")
    .map(
      (line) =>
        JSON.parse(line) as { kind: string; message?: { method?: string; params?: Record<string, unknown> } },
    )
    .filter((record) => record.kind === "received" && record.message?.method === method)
    .map((record) => record.message?.params ?? {});
}

/**
 * The `command_result`s of `commandId` received on `conn`, as JSON text with their keys in the
 * order they were sent (a result sent again must be the same bytes).
 */
export function sentResults(conn: PeerConnection, commandId: string): string[] {
  return conn.resultsOf(commandId).map((result) => JSON.stringify(result));
}

/** `runner-state.json`'s lifecycle, read as the server reads it (upstream's file is not ours' shape). */
export async function stateLifecycle(stateDir: string): Promise<unknown> {
  const state = JSON.parse(await readFile(join(stateDir, "runner-state.json"), "utf8")) as {
    lifecycle?: unknown;
  };
  return state.lifecycle;
}

/** The server's `command_result_ack` of an end's `completed` result, as the server of 2026.916.1 words it. */
export function ackEnd(
  conn: PeerConnection,
  end: { readonly commandId: string; readonly controllerSeq: number; readonly type: string },
): void {
  conn.send({
    kind: "command_result_ack",
    payload: {
      commandId: end.commandId,
      commandType: end.type,
      controllerSeq: end.controllerSeq,
      status: "completed",
    },
  });
}
