import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { privateSocketRoots } from "../src/temp-dir/private-socket-roots.js";
import { cleanupAll, runShellInSandbox, scratchDir } from "./sandbox-support.js";
import { SCOPE_MATRIX } from "./scope-matrix.js";

afterEach(cleanupAll);

const inRoot = path.join(privateSocketRoots(process.getuid?.() ?? 0)[0]!, `pc-in-root-${process.pid}`);

/**
 * Every sandbox masks each private socket root after the binds: a cwd, extra or managed path
 * there was bound and then hidden, the program's writes lost without an error. Each is
 * refused before anything is created, as a workspace there is (nothing is made in the root).
 */
describe("a path in a private socket root", () => {
  for (const [name, matrixScope] of Object.entries(SCOPE_MATRIX)) {
    const scope = matrixScope as Omit<LocalProcessSandboxOptions, "workspaceDir">;
    it(`is refused as an extra or managed path (${name})`, async () => {
      const workspaceDir = scratchDir("pc-in-root-");
      // The workspace scope takes a writable path outside the workspace only with a restore mapping.
      const access = "filesystemScope" in scope ? "ro" : "rw";
      for (const option of ["extraPaths", "managedPaths"] as const) {
        const sandbox = { workspaceDir, ...scope, [option]: [{ path: inRoot, access }] };
        await expect(runShellInSandbox("true", sandbox)).rejects.toMatchObject({
          code: "ERR_SANDBOX_PATH_IN_SOCKET_ROOT",
          details: { option, path: inRoot },
        });
      }
    });
  }

  it("is refused as the network-only cwd", async () => {
    const workspaceDir = scratchDir("pc-in-root-");
    for (const matrixScope of [SCOPE_MATRIX.networkOnlyDeny, SCOPE_MATRIX.networkOnlyAllowlist]) {
      const scope = matrixScope as Omit<LocalProcessSandboxOptions, "workspaceDir">;
      await expect(
        runShellInSandbox("true", { workspaceDir, ...scope }, { cwd: inRoot }),
      ).rejects.toMatchObject({
        code: "ERR_SANDBOX_PATH_IN_SOCKET_ROOT",
        details: { option: "cwd", path: inRoot },
      });
    }
  });
});
