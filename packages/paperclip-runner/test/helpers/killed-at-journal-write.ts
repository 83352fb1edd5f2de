import { codexOnHandMadeServer } from "./codex-on-hand-made-server.js";
import type { PeerConnection } from "./hand-made-prp-server.js";
import { pausedAt, pausedAtWrite } from "./persist-pause.js";

/**
 * A runner on the fake app-server (`codexOnHandMadeServer`), its session open, sent `command`
 * (seq 3; `then` may go on on the connection) and SIGKILLed once the state write matching
 * `pattern` (a regular expression over `runner-state.json`'s text) is renamed into place: durable,
 * nothing after it done or sent. `on` launches the next runner over the same state directory.
 */
export async function killedAtJournalWrite(
  work: string,
  command: { readonly commandId: string; readonly type: string; readonly payload?: Record<string, unknown> },
  pattern: string,
  then: (conn: PeerConnection) => Promise<void> = async () => undefined,
) {
  const on = await codexOnHandMadeServer(work);
  const first = on.launch({ env: pausedAtWrite("runner-state.json", pattern) });
  const { conn, pid } = await on.openSession();
  const sent = { ...command, controllerSeq: 3 };
  conn.sendCommand(sent);
  const paused = pausedAt(first.child, "renamed");
  paused.catch(() => undefined);
  await then(conn);
  await paused;
  first.child.kill("SIGKILL");
  await first.closed;
  return { on, conn, pid, command: sent };
}

/** The pattern of the write that journals `commandId` as `pending` (before its effect). */
export const journalledPending = (commandId: string): string => `"${commandId}":\\{[^}]*"status":"pending"`;

/** The pattern of the write that journals `commandId`'s result (`done`). */
export const journalledDone = (commandId: string): string => `"${commandId}":\\{[^}]*"status":"done"`;

/** The pattern of the write that journals an end's result, with the lifecycle it leaves. */
export const journalledEnd = (lifecycle: string): string => `"lifecycle":"${lifecycle}"`;
