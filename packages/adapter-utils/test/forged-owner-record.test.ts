import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { chown, mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it, vi } from "vitest";
import { sweepOwnerRegistries, sweepStaleProxyDirs } from "../src/temp-dir/sweep-stale-dirs.js";
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

  // The roots have fixed names, so another local user can make one first where this uid never
  // did (the /tmp root, while /dev/shm serves): its registry is that user's to write.
  it("a registry in a root another user made first is not read: no run is killed or removed", async () => {
    const base = tempDirForTest("pc-sbx-sweep-", { base: "/var/tmp" });
    const squatted = path.join(tempDirForTest("pc-sbx-squat-", { base: "/var/tmp" }), "root");
    await mkdir(path.join(squatted, "owners"), { recursive: true });
    const ws = await scratchDir();
    const victim = runShellInSandbox(
      "touch started; while [ ! -e go ]; do sleep 0.05; done; echo survived > done",
      {
        workspaceDir: ws,
        networkScope: "deny",
        proxySocketDirCandidates: [base],
      },
    );
    await vi.waitFor(
      () => expect(existsSync(path.join(ws, "started")), "the victim to start").toBe(true),
      SETTLE,
    );
    const victimDir = path.join(base, (await readdir(base))[0]!);
    // The record's name is the hash of the path it names, as the registry expects.
    const name = `${createHash("sha256").update(victimDir).digest("hex").slice(0, 40)}.json`;
    await writeFile(
      path.join(squatted, "owners", name),
      `${JSON.stringify({ pid: 4194305, dir: victimDir })}\n`,
    );
    // Another user's files: chown needs root, which `preconditions.ts` requires of this project.
    for (const dir of [squatted, path.join(squatted, "owners"), path.join(squatted, "owners", name)]) {
      await chown(dir, 65534, 65534);
    }

    expect(await sweepOwnerRegistries([squatted])).toEqual([]);
    expect(existsSync(victimDir)).toBe(true);
    await writeFile(path.join(ws, "go"), "");
    const result = await victim;
    expect({ exitCode: result.exitCode, signal: result.signal }).toEqual({ exitCode: 0, signal: null });
    expect(await readFile(path.join(ws, "done"), "utf8")).toBe("survived\n");
  });
});
