import { join } from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { expect } from "vitest";
import { credentialMaterial } from "../../src/durable/transport/credential.js";
import { type HandMadeServer, handMadeServer, type PeerConnection } from "./hand-made-prp-server.js";
import { HAND_MADE_TICKET, type HandMadeRun, spawnHandMadeRunner } from "./hand-made-runner.js";
import { upstreamRunner } from "./upstream-runner.js";

/** Which runner a side-by-side scenario drives against the hand-made server. */
export type Runner = "ours" | "upstream";

/** `which` runner dialling `url` with the hand-made identity; it retries a refused reconnect for 10 s. */
export function startRunner(
  which: Runner,
  url: string,
  stateDir: string = join(tempDirForTest(), "state"),
): HandMadeRun {
  return spawnHandMadeRunner({
    endpoint: ["--connect-url", url],
    stateDir,
    // Upstream's runner retries a refused connection: long enough to see it come back.
    reconnectGraceMs: 10_000,
    ...(which === "upstream" ? { command: [upstreamRunner()] as const } : {}),
  });
}

/** `which` runner welcomed on its ticket connection (`welcome`: the welcome's payload), its state dir beside it. */
export async function welcomedRunner(which: Runner, welcome: Record<string, unknown> = {}) {
  const server = await handMadeServer();
  const stateDir = join(tempDirForTest(), "state");
  const run = startRunner(which, server.url, stateDir);
  const conn = await server.nextConnection();
  await conn.handshake(HAND_MADE_TICKET);
  conn.welcome(welcome);
  return { server, run, conn, stateDir };
}

/** `conn` is still open a moment after the last frame (what a refusal would have closed at once). */
export async function expectStaysOpen(conn: PeerConnection): Promise<void> {
  const state = await Promise.race([
    conn.closed.then(() => "closed"),
    new Promise<string>((resolve) => setTimeout(() => resolve("open"), 500)),
  ]);
  expect(state).toBe("open");
}

/**
 * After a refused frame: ours stops with `code`; upstream's schedules another connection, which
 * offers `leaseToken` (the ticket's lease) again.
 */
export async function expectAftermath(
  which: Runner,
  run: HandMadeRun,
  server: HandMadeServer,
  leaseToken: string,
  code: string,
): Promise<void> {
  if (which === "ours") {
    expect(await run.closed).toBe(1);
    expect(run.stderr()).toContain(`code: ${code}`);
    return;
  }
  const again = await server.nextConnection();
  const hello = JSON.parse((await again.nextPlain()) ?? "null") as { payload: { credentialId: string } };
  expect(hello.payload.credentialId).toBe(credentialMaterial(leaseToken).credentialId);
  again.close();
}
