import { join } from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { expect } from "vitest";
import { credentialMaterial } from "../../src/durable/transport/credential.js";
import type { HandMadeServer, PeerConnection } from "./hand-made-prp-server.js";
import { type HandMadeRun, spawnHandMadeRunner } from "./hand-made-runner.js";
import { upstreamRunner } from "./upstream-runner.js";

/** Which runner a side-by-side scenario drives against the hand-made server. */
export type Runner = "ours" | "upstream";

/** `which` runner dialling `url` with the hand-made identity; it retries a refused reconnect for 10 s. */
export function startRunner(which: Runner, url: string): HandMadeRun {
  return spawnHandMadeRunner({
    endpoint: ["--connect-url", url],
    stateDir: join(tempDirForTest(), "state"),
    // Upstream's runner retries a refused connection: long enough to see it come back.
    reconnectGraceMs: 10_000,
    ...(which === "upstream" ? { command: [upstreamRunner()] as const } : {}),
  });
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
