import { copyFile, readFile } from "node:fs/promises";
import path from "node:path";
import { shellQuote } from "@paperclipai/internal";
import { afterEach, describe, expect, it } from "vitest";
import { builtEntry, cleanupAll, exec, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * The host's proxy resolver reads `/etc/hosts` (again whenever it changes) and
 * `/etc/resolv.conf`. A network-only sandbox of a root runner owns both (uid 0, plain
 * file modes), and a line of its own in `/etc/hosts` would send the allowed requests
 * for that name, of its run and of every later one, to an address it chose. The test
 * runs in a mount namespace where both are copies, so the old code's write lands there.
 */
describe("the network-only scope and the host resolver's files", () => {
  it.each(["deny", "allowlist"] as const)(
    "a %s run cannot rewrite /etc/hosts or /etc/resolv.conf",
    async (networkScope) => {
      const scratch = await scratchDir("pc-resolver-files-");
      const hosts = path.join(scratch, "hosts");
      const resolv = path.join(scratch, "resolv.conf");
      await copyFile("/etc/hosts", hosts);
      await copyFile("/etc/resolv.conf", resolv);
      const before = [await readFile(hosts, "utf8"), await readFile(resolv, "utf8")];
      const program = [
        "for f in /etc/hosts /etc/resolv.conf; do",
        '  if (echo "203.0.113.7 api.allowed.test" >> $f) 2>/dev/null; then echo "$f written"; else echo "$f refused"; fi',
        "done",
      ].join("\n");
      const script = `
        const { runChildProcess } = await import(${JSON.stringify(builtEntry)});
        const result = await runChildProcess("resolver-files", "/bin/sh", ["-c", ${JSON.stringify(program)}], {
          cwd: ${JSON.stringify(scratch)}, env: {}, timeoutSec: 20, graceSec: 1, onLog: async () => {},
          localProcessSandbox: { command: "/usr/bin/bwrap", workspaceDir: ${JSON.stringify(scratch)}, networkScope: "${networkScope}", networkAllowlist: ["api.allowed.test"] },
        });
        console.log(JSON.stringify({ exitCode: result.exitCode, stdout: result.stdout }));`;
      const shell = [
        `mount --bind ${shellQuote(hosts)} /etc/hosts`,
        `mount --bind ${shellQuote(resolv)} /etc/resolv.conf`,
        `exec ${shellQuote(process.execPath)} --input-type=module -e "$SCRIPT"`,
      ].join(" && ");
      const result = await exec("unshare", ["--mount", "--propagation", "private", "sh", "-c", shell], {
        PATH: process.env.PATH,
        SCRIPT: script,
      });
      expect(result.stderr).toBe("");
      expect(JSON.parse(result.stdout)).toEqual({
        exitCode: 0,
        stdout: "/etc/hosts refused\n/etc/resolv.conf refused\n",
      });
      expect([await readFile(hosts, "utf8"), await readFile(resolv, "utf8")]).toEqual(before);
    },
    60_000,
  );
});
