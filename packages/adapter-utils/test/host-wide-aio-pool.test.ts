import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { buildStaticFixture, runWhileHostActs } from "./attack-support.js";
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
): Promise<{ sandbox: string; host: string | undefined }> {
  // Written by the host into the workspace, which every scope shows; one per run.
  const goOn = path.join(ws, `go-on-${name}`);
  const { stdout, acted } = await runWhileHostActs(ws, scope, binary, ["take", goOn], {
    ready: /\n/,
    goOn,
    hostAct: async () => (await exec(binary, ["one"])).stdout.trim(),
  });
  return { sandbox: stdout, host: acted };
}

describe("the host-wide AIO event pool", () => {
  it("a program reserves no AIO event, so the host's io_setup never fails for it, in every scope", async () => {
    const ws = scratchDir();
    const binary = await buildStaticFixture("aio-events", ws);
    const seen: Record<string, { sandbox: string; host: string | undefined }> = {};
    for (const [name, scope] of Object.entries(SCOPE_MATRIX)) {
      seen[name] = await takeWhileHostAsks(binary, ws, name, scope as Scope);
    }
    // Unavailable, as on a kernel built without AIO: libaio's callers take their fallback.
    const held = { sandbox: "ENOSYS 0\ndone\n", host: "ok" };
    expect(seen).toEqual(Object.fromEntries(Object.keys(SCOPE_MATRIX).map((name) => [name, held])));
  }, 90_000);
});
