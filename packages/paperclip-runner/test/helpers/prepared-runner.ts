import { isAlive } from "@paperclipai/test-support";
import { expect } from "vitest";
import { type HandMadeServer, handMadeServer, type PeerConnection } from "./hand-made-prp-server.js";
import { durableState, HAND_MADE_TICKET, type Launched, launchRunner } from "./hand-made-runner.js";
import { prepareAndOpen } from "./prepare-and-open.js";

/** A runner connected and welcomed, with `run.prepare` and `session.open` applied (the harness up). */
export async function preparedRunner(
  extra: readonly string[] = [],
  stateDir?: string,
  welcome: Record<string, unknown> = {},
): Promise<{ runner: Launched; conn: PeerConnection; harnessPid: number; server: HandMadeServer }> {
  const server = await handMadeServer();
  const runner = launchRunner(server.url, extra, stateDir);
  const conn = await server.nextConnection();
  await conn.handshake(HAND_MADE_TICKET);
  conn.welcome(welcome);
  await prepareAndOpen(conn);
  const ready = await conn.waitFor(
    (message) => (message.payload as { eventType?: unknown }).eventType === "harness.ready",
  );
  const harnessPid = (ready?.payload as { payload: { pid: number } } | undefined)?.payload.pid ?? 0;
  expect(harnessPid).toBeGreaterThan(0);
  return { runner, conn, harnessPid, server };
}

/**
 * The runner stopped with `code` as a recoverable failure: exit 1, the state resumable (nothing
 * of the attack applied), and the harness `harnessPid` gone when one was started.
 */
export async function expectStoppedWith(runner: Launched, code: string, harnessPid?: number): Promise<void> {
  const { code: exitCode, stderr } = await runner.exited;
  expect(exitCode).toBe(1);
  expect(stderr).toContain(`code: ${code}`);
  if (harnessPid !== undefined) expect(isAlive(harnessPid)).toBe(false);
  // parseDurableState is what the next runner reads: it must accept the file as it was left.
  const state = await durableState(runner.stateDir);
  expect(state.lifecycle).toBe("recoverable_failure");
  expect(state.recoverableFailure).toMatch(new RegExp(`^${code}: `));
}
