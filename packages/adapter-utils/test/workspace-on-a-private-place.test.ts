import { mkdir, readFile, symlink } from "node:fs/promises";
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
 * A workspace on, in or above the sandbox's own `/proc` or `/dev` (but `/dev/shm`), `/sys`,
 * or in a private socket root, cannot be shown without undoing what hides the host's (its
 * processes, devices, kernel settings, every run's proxy socket): the start is refused
 * before anything runs.
 */
describe("a workspace the sandbox cannot show", () => {
  const cases = ["/", "/proc", "/dev", "/dev/pts", "/sys", "/sys/kernel", path.join(roots[0]!, "ws")];
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

/**
 * `/var/run` links to `/run` on the host: naming it is naming `/run` (it was refused as a
 * link showing a socket root). The host's `/run` is a fresh tmpfs in a private mount
 * namespace, holding a planted socket root and a file the program reads through `/var/run`;
 * what each run writes there the next one finds. A link elsewhere to such a place may have been planted by an earlier
 * run (which has the host tree writable): it stays refused.
 */
describe("a workspace /var/run", () => {
  it("is the host's /run, its socket root still hidden, in every scope", async () => {
    const root = roots.find((candidate) => isSameOrBelow("/run", candidate))!;
    const setup = [
      "mount -t tmpfs tmpfs /run && echo host > /run/hostfile",
      `mkdir -p -m 700 ${root} && echo secret > ${root}/planted`,
    ];
    // Each scope appends a line: the next one counts it, on the host's /run.
    const out = await probeScopesAfterHostSetup(setup.join(" && "), {
      command: "/bin/sh",
      args: [
        "-c",
        `cat hostfile && echo made >> made && wc -l < made && ls -A ${root} 2>/dev/null; echo listed`,
      ],
      workspace: "/var/run",
      scopes: SCOPES,
    });
    const expected = Object.keys(SCOPES).map((name, index) => [name, `host\n${index + 1}\nlisted\n`]);
    expect(out).toEqual(Object.fromEntries(expected));
  });

  it("is refused through a link of the caller's own to /tmp", async () => {
    const workspaceDir = path.join(tempDirForTest("pc-ws-link-"), "tmp-link");
    await symlink("/tmp", workspaceDir);
    for (const matrixScope of Object.values(SCOPE_MATRIX)) {
      const scope = matrixScope as Omit<LocalProcessSandboxOptions, "workspaceDir">;
      await expect(runShellInSandbox("true", { workspaceDir, ...scope })).rejects.toMatchObject({
        code: "ERR_SANDBOX_PATH_EXPOSES_SOCKET_ROOT",
      });
    }
  });
});
