import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { runChildProcess } from "../src/spawn/run-child-process.js";
import { buildStaticFixture } from "./attack-support.js";
import { cleanupAll, exec, scratchDir } from "./sandbox-support.js";
import { SCOPE_MATRIX } from "./scope-matrix.js";

afterEach(cleanupAll);

type Scope = Omit<LocalProcessSandboxOptions, "workspaceDir">;

/**
 * Runs `aio-events take` in `scope` and, once it has said what it reserved, has the same
 * binary ask for one AIO event on the host while the sandbox still holds its share.
 */
async function takeWhileHostAsks(
  binary: string,
  ws: string,
  name: string,
  scope: Scope,
): Promise<{ sandbox: string; host: string }> {
  // Written by the host into the workspace, which every scope shows; one per run.
  const goOn = path.join(ws, `go-on-${name}`);
  let host = "not asked";
  let said = "";
  const result = await runChildProcess("aio-events", binary, ["take", goOn], {
    cwd: ws,
    env: {},
    timeoutSec: 30,
    graceSec: 1,
    onLog: async (stream, chunk) => {
      if (stream !== "stdout") return;
      said += chunk;
      if (host === "not asked" && said.includes("\n")) {
        host = (await exec(binary, ["one"])).stdout.trim();
        await writeFile(goOn, "");
      }
    },
    localProcessSandbox: { command: "/usr/bin/bwrap", workspaceDir: ws, ...scope },
  });
  expect(result.exitCode, result.stderr).toBe(0);
  return { sandbox: result.stdout, host };
}

describe("the host-wide AIO event pool", () => {
  it("a program reserves no AIO event, so the host's io_setup never fails for it, in every scope", async () => {
    const ws = scratchDir();
    const binary = await buildStaticFixture("aio-events", ws);
    const seen: Record<string, { sandbox: string; host: string }> = {};
    for (const [name, scope] of Object.entries(SCOPE_MATRIX)) {
      seen[name] = await takeWhileHostAsks(binary, ws, name, scope as Scope);
    }
    // Unavailable, as on a kernel built without AIO: libaio's callers take their fallback.
    const held = { sandbox: "ENOSYS 0\ndone\n", host: "ok" };
    expect(seen).toEqual(Object.fromEntries(Object.keys(SCOPE_MATRIX).map((name) => [name, held])));
  }, 90_000);
});
