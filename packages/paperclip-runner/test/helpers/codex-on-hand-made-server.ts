import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { codexPrepare, workPaths } from "./codex-durable.js";
import { handMadeServer } from "./hand-made-prp-server.js";
import { HAND_MADE_TICKET, spawnHandMadeRunner } from "./hand-made-runner.js";
import { prepareAndOpen } from "./prepare-and-open.js";

type LaunchOptions = Omit<Parameters<typeof spawnHandMadeRunner>[0], "endpoint" | "stateDir">;

/**
 * A run's work for the fake Codex app-server (its cwd and `CODEX_HOME` made), the hand-made
 * server, `launch`, which starts a runner on both over one state directory (its `env` added to
 * `CODEX_HOME`), and `openSession`, which takes the runner's next connection through the ticket's
 * handshake, a welcome (with `welcome`'s fields), `run.prepare` (`prepare`, the fake's by default) and
 * `session.open`.
 */
export async function codexOnHandMadeServer(work: string) {
  const { cwd, codexHome } = workPaths(work);
  await mkdir(cwd, { recursive: true });
  await mkdir(codexHome, { recursive: true });
  const server = await handMadeServer();
  const stateDir = join(work, "state");
  const launch = (options: LaunchOptions = {}) =>
    spawnHandMadeRunner({
      ...options,
      endpoint: ["--connect-url", server.url],
      stateDir,
      env: { CODEX_HOME: codexHome, ...options.env },
    });
  const openSession = async (welcome: Record<string, unknown> = {}, prepare = codexPrepare(work)) => {
    const conn = await server.nextConnection();
    await conn.handshake(HAND_MADE_TICKET);
    conn.welcome(welcome);
    const opened = await prepareAndOpen(conn, prepare);
    const pid = (opened as { result: { processId: number } }).result.processId;
    return { conn, opened, pid };
  };
  return { codexHome, server, stateDir, launch, openSession };
}
