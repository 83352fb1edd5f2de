import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { buildStaticFixture, runWhileHostActs } from "./attack-support.js";
import { cleanupAll, exec, scratchDir } from "./sandbox-support.js";
import { SCOPE_MATRIX } from "./scope-matrix.js";

afterEach(cleanupAll);

type Scope = Omit<LocalProcessSandboxOptions, "workspaceDir">;

/** The pool's size less what every process of the host holds: said when the host's own io_setup fails. */
async function hostHeadroom(): Promise<number> {
  const read = async (name: string) => Number((await readFile(`/proc/sys/fs/${name}`, "utf8")).trim());
  return (await read("aio-max-nr")) - (await read("aio-nr"));
}

/**
 * Runs `aio-events take` in `scope` and, once it has said what it reserved, has the same
 * binary ask for one AIO event on the host while the sandbox still holds its share. The
 * host's own processes may hold most of the pool already, and what one event costs depends
 * on the kernel (older ones count at least 8 per CPU): so the host asks first, before the
 * sandbox starts, and the answer during the run is judged against that one. A host whose
 * pool is already full cannot tell the sandbox's share from its own processes': that is
 * said, not passed. A pool too large for one program to fill (its mappings run out first)
 * leaves the host's answer "ok" either way; the program's own count still tells.
 */
async function takeWhileHostAsks(
  binary: string,
  ws: string,
  name: string,
  scope: Scope,
): Promise<{ sandbox: string; host: string | undefined }> {
  const askHost = async () => (await exec(binary, ["one"])).stdout.trim();
  const before = await askHost();
  if (before !== "ok") {
    throw new Error(
      `the host's own io_setup of one event fails before any sandbox runs (${before}, ` +
        `${await hostHeadroom()} events of fs.aio-max-nr left): end what holds the pool or raise fs.aio-max-nr`,
    );
  }
  // Written by the host into the workspace, which every scope shows; one per run.
  const goOn = path.join(ws, `go-on-${name}`);
  const { stdout, acted } = await runWhileHostActs(ws, scope, binary, ["take", goOn], {
    ready: /\n/,
    goOn,
    hostAct: async () => {
      const answer = await askHost();
      return answer === "ok" ? answer : `${answer} (${await hostHeadroom()} events of fs.aio-max-nr left)`;
    },
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
