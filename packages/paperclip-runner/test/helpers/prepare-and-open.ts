import { expect } from "vitest";
import type { PeerConnection } from "./hand-made-prp-server.js";

/**
 * Sends `run.prepare` (`prepare`, seq 1, with `payload` if given) and `session.open` (`open`,
 * seq 2) on a welcomed connection, each answered `completed` before the next: the harness (or
 * the provider `payload` names) is up. Resolves to `session.open`'s result.
 */
export async function prepareAndOpen(
  conn: PeerConnection,
  payload?: Record<string, unknown>,
): Promise<Record<string, unknown> | null> {
  conn.sendCommand({
    commandId: "prepare",
    controllerSeq: 1,
    type: "run.prepare",
    ...(payload === undefined ? {} : { payload }),
  });
  expect(await conn.resultOf("prepare")).toMatchObject({ status: "completed" });
  conn.sendCommand({
    commandId: "open",
    controllerSeq: 2,
    type: "session.open",
    payload: { reuse: "same_session" },
  });
  const opened = await conn.resultOf("open");
  expect(opened).toMatchObject({ status: "completed" });
  return opened;
}
