import { mkdir, readFile } from "node:fs/promises";
import path from "node:path";
import { shellQuote } from "@paperclipai/internal";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { isSameOrBelow } from "../src/bwrap/mount-request.js";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { privateSocketRoots } from "../src/temp-dir/private-socket-roots.js";
import { cleanupAll, probeScopesAfterHostSetup, runShellInSandbox } from "./sandbox-support.js";
import { SCOPE_MATRIX } from "./scope-matrix.js";

afterEach(cleanupAll);

const roots = privateSocketRoots(process.getuid?.() ?? 0);
/** Every scope, and capped ones: a cap makes `/dev/shm` and the masks tmpfs of their own. */
const SCOPES = {
  ...SCOPE_MATRIX,
  workspaceCapped: { filesystemScope: "workspace", tmpfsSizeBytes: 1 << 20 },
  networkOnlyDenyCapped: { networkScope: "deny", tmpfsSizeBytes: 1 << 20 },
};

/**
 * A workspace that is exactly a directory the sandbox replaces with a private one (`/tmp`,
 * `/dev/shm`, `/run`) showed the program that empty directory in the network-only scope:
 * its writes were lost without an error. Each is now the host's, in every scope, with the
 * private socket root below it still hidden. The host's directory is a scratch directory
 * bound over it in a private mount namespace, holding a planted socket root with a file.
 */
describe("a workspace that is a directory the sandbox makes private", () => {
  for (const place of ["/tmp", "/dev/shm", "/run"]) {
    it(`is the host's ${place}, its socket root still hidden, in every scope`, async () => {
      const host = tempDirForTest("pc-ws-place-", { base: "/var/tmp" });
      const root = roots.find((candidate) => isSameOrBelow(place, candidate))!;
      const planted = path.join(host, path.relative(place, root));
      await mkdir(planted, { recursive: true, mode: 0o700 });
      const setup = [
        `echo secret > ${shellQuote(path.join(planted, "secret"))}`,
        `mount --bind ${shellQuote(host)} ${shellQuote(place)}`,
      ].join(" && ");
      const out = await probeScopesAfterHostSetup(setup, {
        command: "/bin/sh",
        args: ["-c", `echo made >> result && ls -A ${shellQuote(root)} 2>/dev/null; echo listed`],
        workspace: place,
        scopes: SCOPES,
      });
      const listed = Object.fromEntries(Object.keys(SCOPES).map((name) => [name, "listed\n"]));
      expect(out).toEqual(listed);
      const runs = Object.keys(SCOPES).length;
      expect(await readFile(path.join(host, "result"), "utf8")).toBe("made\n".repeat(runs));
    });
  }
});

/**
 * A workspace on, in or above the sandbox's own `/proc` or `/dev` (but `/dev/shm`), or in
 * a private socket root, cannot be shown without undoing what hides the host's (its
 * processes, devices, every run's proxy socket): the start is refused before anything runs.
 */
describe("a workspace the sandbox cannot show", () => {
  const cases = ["/", "/proc", "/dev", "/dev/pts", path.join(roots[0]!, "ws")];
  for (const workspaceDir of cases) {
    for (const [name, matrixScope] of Object.entries(SCOPE_MATRIX)) {
      const scope = matrixScope as Omit<LocalProcessSandboxOptions, "workspaceDir">;
      it(`${workspaceDir} is refused with its code (${name})`, async () => {
        await expect(runShellInSandbox("true", { workspaceDir, ...scope })).rejects.toMatchObject({
          code: "ERR_SANDBOX_WORKSPACE_HIDDEN",
          details: { workspaceDir },
        });
      });
    }
  }
});
