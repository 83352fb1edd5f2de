import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { buildStaticFixture, runWhileHostActs } from "./attack-support.js";
import { cleanupAll, exec, scratchDir } from "./sandbox-support.js";
import { SCOPE_MATRIX } from "./scope-matrix.js";

afterEach(cleanupAll);

type Scope = Omit<LocalProcessSandboxOptions, "workspaceDir">;
type Kind = "fanotify" | "mqueue";

/**
 * Runs `per-user-pools take <kind>` in `scope` and, once it has said what it holds, has the
 * same binary ask for one of that kind on the host, as the same uid, while the sandbox still
 * holds its share. The host asks once before the run too: a pool its own processes filled
 * cannot tell the sandbox's share from theirs, and that is said, not passed.
 */
async function takeWhileHostAsks(
  binary: string,
  ws: string,
  kind: Kind,
  name: string,
  scope: Scope,
): Promise<{ sandbox: string; host: string | undefined }> {
  const askHost = async () => (await exec(binary, ["one", kind])).stdout.trim();
  const before = await askHost();
  if (before !== "ok")
    throw new Error(`the host's own processes fill its ${kind} pool (${before}) before any run`);
  // Written by the host into the workspace, which every scope shows; one per run.
  const goOn = path.join(ws, `go-on-${kind}-${name}`);
  const { stdout, acted } = await runWhileHostActs(ws, scope, binary, ["take", kind, goOn], {
    ready: /\n/,
    goOn,
    hostAct: askHost,
  });
  return { sandbox: stdout, host: acted };
}

/**
 * fanotify groups (`fs.fanotify.max_user_groups`, 128) and POSIX message queue bytes
 * (`RLIMIT_MSGQUEUE`, 800 KiB) are counted per user id across every namespace. A program of a
 * root runner took all of root's: no host service of root could start a group or create a
 * queue until the run ended. The filter refuses both calls now, as an unprivileged caller
 * before Linux 5.13 (fanotify) and a kernel without POSIX queues (mq_open) are refused.
 */
describe("kernel pools counted per user id", () => {
  const held: Record<Kind, string> = { fanotify: "EPERM 0\ndone\n", mqueue: "ENOSYS 0\ndone\n" };
  for (const kind of ["fanotify", "mqueue"] as const) {
    it(`a program holds no ${kind} of the runner's uid, so the host's stay available, in every scope`, async () => {
      const ws = scratchDir();
      const binary = await buildStaticFixture("per-user-pools", ws);
      const seen: Record<string, { sandbox: string; host: string | undefined }> = {};
      for (const [name, scope] of Object.entries(SCOPE_MATRIX)) {
        seen[name] = await takeWhileHostAsks(binary, ws, kind, name, scope as Scope);
      }
      const expected = { sandbox: held[kind], host: "ok" };
      expect(seen).toEqual(Object.fromEntries(Object.keys(SCOPE_MATRIX).map((name) => [name, expected])));
    }, 90_000);
  }
});
