import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import type { LocalProcessSandboxOptions } from "../src/sandbox-options.js";
import { privateSocketRoots } from "../src/temp-dir/private-socket-roots.js";
import { cleanupAll, loopbackServer, runShellInSandbox } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * The network-only scopes give the sandbox its own `/dev` (and so its own `/dev/shm`), where
 * a workspace on the host's `/dev/shm` was never bound back: bwrap failed the setup ("Can't
 * chdir"). It is now bound back like one under a masked `/tmp`, and nothing else of the
 * host's `/dev/shm` (a sibling, the private socket root) comes with it.
 */
describe("a network-only run whose workspace lies in /dev/shm", () => {
  const root = privateSocketRoots(process.getuid?.() ?? 0)[0]!;
  const cases: [string, Omit<LocalProcessSandboxOptions, "workspaceDir">][] = [
    ["deny", { networkScope: "deny" }],
    ["deny, capped tmpfs", { networkScope: "deny", tmpfsSizeBytes: 1 << 20 }],
    ["allowlist, native bridge", { networkScope: "allowlist", networkBridge: "native" }],
    ["allowlist, Node bridge", { networkScope: "allowlist", networkBridge: "node", tmpfsSizeBytes: 1 << 20 }],
  ];
  for (const [label, scope] of cases) {
    it(`starts, writes its workspace and sees nothing else of the host's /dev/shm (${label})`, async () => {
      const base = tempDirForTest("pc-shm-ws-", { base: "/dev/shm" });
      const ws = path.join(base, "ws");
      await mkdir(ws);
      await writeFile(path.join(base, "sibling"), "host secret\n");
      const { port } = await loopbackServer("through-the-proxy");
      const fetch =
        scope.networkScope === "allowlist"
          ? `curl -s --max-time 5 http://127.0.0.1:${port}/ || echo no-proxy`
          : "true";
      const line = [
        "echo made > result",
        `cat ${JSON.stringify(path.join(base, "sibling"))} 2>/dev/null || echo no-sibling`,
        `test -e ${JSON.stringify(root)} && echo root-shown || echo no-root`,
        fetch,
      ].join("; ");
      const result = await runShellInSandbox(line, {
        workspaceDir: ws,
        networkAllowlist: [`127.0.0.1:${port}`],
        ...scope,
      });
      expect(result.exitCode, result.stderr).toBe(0);
      const fetched = scope.networkScope === "allowlist" ? "through-the-proxy" : "";
      expect(result.stdout).toBe(`no-sibling\nno-root\n${fetched}`);
      expect(await readFile(path.join(ws, "result"), "utf8")).toBe("made\n");
    });
  }
});
