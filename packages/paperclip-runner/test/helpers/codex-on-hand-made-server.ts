import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { workPaths } from "./codex-durable.js";
import { handMadeServer } from "./hand-made-prp-server.js";
import { spawnHandMadeRunner } from "./hand-made-runner.js";

type LaunchOptions = Omit<Parameters<typeof spawnHandMadeRunner>[0], "endpoint" | "stateDir">;

/**
 * A run's work for the fake Codex app-server (its cwd and `CODEX_HOME` made), the hand-made
 * server, and `launch`, which starts a runner on both over one state directory (its `env` added
 * to `CODEX_HOME`).
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
  return { codexHome, server, stateDir, launch };
}
