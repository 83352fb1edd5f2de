import { existsSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sweepStaleProxyDirs } from "../src/temp-dir/sweep-stale-dirs.js";
import { cleanupAll, runShellInSandbox, SETTLE, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * The stale-directory sweep kills and removes on the word of an owner record. A
 * network-only sandbox sees (and may write) the host tree, so with a base
 * directory outside `/tmp` (a `TMPDIR`, `proxySocketDirCandidates`) it can reach
 * another run's per-run directory. The attacker writes a record naming a pid no
 * process can have into every run directory there; the next sweep must neither
 * kill the victim nor remove its directory.
 */
describe("owner records no sandbox can forge", () => {
  it("a forged record in a visible run directory kills no run and removes nothing", async () => {
    // Outside /tmp, so the network-only scope shows it unmasked.
    const base = tempDirForTest("pc-sbx-sweep-", { base: "/var/tmp" });
    const ws = await scratchDir();
    const scope = { workspaceDir: ws, networkScope: "deny" as const, proxySocketDirCandidates: [base] };

    const victim = runShellInSandbox(
      "touch started; while [ ! -e go ]; do sleep 0.05; done; echo survived > done",
      scope,
    );
    await vi.waitFor(
      () => expect(existsSync(path.join(ws, "started")), "the victim to start").toBe(true),
      SETTLE,
    );
    const [victimDir] = await readdir(base);

    // pid 2^22+1 is above Linux's pid_max limit, so no process can have it.
    const forge = `for dir in '${base}'/paperclip-network-sandbox-*; do printf '{"pid":4194305,"startTicks":null}\\n' > "$dir/owner.json" && echo forged; done`;
    const attacker = await runShellInSandbox(forge, scope);
    expect(attacker.exitCode).toBe(0);
    expect(attacker.stdout).toContain("forged");

    expect(await sweepStaleProxyDirs(base)).toEqual([]);
    expect(await readdir(base)).toContain(victimDir);

    await writeFile(path.join(ws, "go"), "");
    const result = await victim;
    expect({ exitCode: result.exitCode, signal: result.signal }).toEqual({ exitCode: 0, signal: null });
    expect(await readFile(path.join(ws, "done"), "utf8")).toBe("survived\n");
  });
});
