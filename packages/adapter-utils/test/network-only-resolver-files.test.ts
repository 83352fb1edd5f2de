import { existsSync } from "node:fs";
import { copyFile, cp, mkdir, readFile, readlink, rm, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { shellQuote } from "@paperclipai/internal";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { execContainerScript, inRootContainer } from "./root-container.js";
import {
  builtEntry,
  cleanupAll,
  inPrivateMountNamespace,
  scratchDir,
  viaRepoView,
} from "./sandbox-support.js";

afterEach(cleanupAll);

/**
 * The host's proxy resolver reads `/etc/hosts` and `/etc/resolv.conf` when a proxy
 * starts. A network-only sandbox of a root runner owns both (uid 0, plain
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
      const result = await inPrivateMountNamespace(shell, {
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

  /**
   * A systemd-resolved host: `/etc/resolv.conf` links into `/run`, which the scope masks,
   * so a per-file bind protected nothing there, and `/etc` itself could be renamed and
   * made again. The host is a container of the test's own (bwrap, keeping root's
   * capabilities for the sandbox inside) whose root is a scratch directory holding a copy
   * of `/etc`, a plain directory as on a real host, never the host's own.
   */
  it.each(["deny", "allowlist"] as const)(
    "a root runner's %s run can neither replace the resolver link nor rename /etc",
    async (networkScope) => {
      expect(process.getuid?.(), "the runner is root").toBe(0);
      const root = tempDirForTest("pc-resolver-root-");
      const etc = path.join(root, "etc");
      await cp("/etc", etc, { recursive: true, verbatimSymlinks: true });
      await rm(path.join(etc, "resolv.conf"), { force: true });
      await symlink("../run/systemd/resolve/stub-resolv.conf", path.join(etc, "resolv.conf"));
      await mkdir(path.join(root, "ws"));
      const hostsBefore = await readFile(path.join(etc, "hosts"), "utf8");
      const program = [
        'if (echo "203.0.113.7 api.allowed.test" >> /etc/hosts) 2>/dev/null; then echo "hosts written"; else echo "hosts refused"; fi',
        'if ln -sfn /tmp/resolv.conf /etc/resolv.conf 2>/dev/null; then echo "link replaced"; else echo "link kept"; fi',
        'if mv /etc /etc.old 2>/dev/null; then echo "etc renamed"; else echo "etc kept"; fi',
      ].join("\n");
      const script = `
        const { runChildProcess } = await import(${JSON.stringify(viaRepoView(builtEntry))});
        const result = await runChildProcess("resolver-link", "/bin/sh", ["-c", ${JSON.stringify(program)}], {
          cwd: "/ws", env: {}, timeoutSec: 20, graceSec: 1, onLog: async () => {},
          localProcessSandbox: { command: "/usr/bin/bwrap", workspaceDir: "/ws", networkScope: "${networkScope}", networkAllowlist: ["api.allowed.test"] },
        });
        console.log(JSON.stringify({ exitCode: result.exitCode, stdout: result.stdout }));`;
      // The resolver's real file lives in the container's /run, as systemd-resolved's does.
      const shell = [
        "mkdir -p /run/systemd/resolve",
        'echo "nameserver 127.0.0.53" > /run/systemd/resolve/stub-resolv.conf',
        execContainerScript,
      ].join(" && ");
      const result = await inRootContainer(root, shell, { PATH: process.env.PATH, SCRIPT: script });
      expect(result.stderr).toBe("");
      expect(JSON.parse(result.stdout)).toEqual({
        exitCode: 0,
        stdout: "hosts refused\nlink kept\netc kept\n",
      });
      expect(existsSync(path.join(root, "etc.old")), "/etc renamed").toBe(false);
      expect(await readlink(path.join(etc, "resolv.conf"))).toBe("../run/systemd/resolve/stub-resolv.conf");
      expect(await readFile(path.join(etc, "hosts"), "utf8")).toBe(hostsBefore);
    },
    60_000,
  );
});

/**
 * The caller asking for `/etc` writable bound it again over the root runner's read-only
 * `/etc`, and the resolver files with it: the host's own, which every later run's proxy
 * reads. The files are now read-only again over it; a link among them (which carries no
 * mount) makes the request refused. A private mount namespace holds copies of both.
 */
describe("a root runner's run that asks for /etc writable", () => {
  const SCOPES = {
    deny: { networkScope: "deny" },
    allowlist: { networkScope: "allowlist", networkAllowlist: ["api.allowed.test"] },
    workspace: { filesystemScope: "workspace", outboundRestorePaths: ["/etc"] },
  };
  const runWithWritableEtc = (scope: keyof typeof SCOPES, ws: string, program: string) => `
    const { runChildProcess } = await import(${JSON.stringify(builtEntry)});
    try {
      const result = await runChildProcess("etc-rw", "/bin/sh", ["-c", ${JSON.stringify(program)}], {
        cwd: ${JSON.stringify(ws)}, env: {}, timeoutSec: 20, graceSec: 1, onLog: async () => {},
        localProcessSandbox: { command: "/usr/bin/bwrap", workspaceDir: ${JSON.stringify(ws)}, ...${JSON.stringify(SCOPES[scope])},
          extraPaths: [{ path: "/etc", access: "rw" }] },
      });
      console.log(JSON.stringify({ exitCode: result.exitCode, stdout: result.stdout }));
    } catch (error) { console.log(JSON.stringify({ code: error.code })); }`;

  it.each(["deny", "allowlist"] as const)(
    "keeps the network-only scope's /etc/hosts and /etc/resolv.conf read-only (%s)",
    async (networkScope) => {
      expect(process.getuid?.(), "the runner is root").toBe(0);
      // A copy of /etc whose resolver files are plain files, whatever the host's are.
      const scratch = await scratchDir("pc-resolver-etc-rw-");
      const etc = path.join(scratch, "etc");
      await cp("/etc", etc, { recursive: true, verbatimSymlinks: true });
      const hosts = path.join(etc, "hosts");
      const resolv = path.join(etc, "resolv.conf");
      await rm(resolv, { force: true });
      await writeFile(hosts, "127.0.0.1 localhost\n");
      await writeFile(resolv, "nameserver 192.0.2.53\n");
      const before = [await readFile(hosts, "utf8"), await readFile(resolv, "utf8")];
      const program = [
        "for f in /etc/hosts /etc/resolv.conf; do",
        '  if (echo "203.0.113.7 api.allowed.test" >> $f) 2>/dev/null; then echo "$f written"; else echo "$f refused"; fi',
        "done",
        // The rest of /etc is the caller's to give: it stays writable.
        "touch /etc/pc-etc-rw-probe && rm /etc/pc-etc-rw-probe && echo etc writable",
      ].join("\n");
      const shell = `mount --bind ${shellQuote(etc)} /etc && exec ${shellQuote(process.execPath)} --input-type=module -e "$SCRIPT"`;
      const script = runWithWritableEtc(networkScope, scratch, program);
      const result = await inPrivateMountNamespace(shell, { PATH: process.env.PATH, SCRIPT: script });
      expect(result.stderr).toBe("");
      expect(JSON.parse(result.stdout)).toEqual({
        exitCode: 0,
        stdout: "/etc/hosts refused\n/etc/resolv.conf refused\netc writable\n",
      });
      expect([await readFile(hosts, "utf8"), await readFile(resolv, "utf8")]).toEqual(before);
    },
    60_000,
  );

  it.each(["deny", "allowlist", "workspace"] as const)(
    "is refused where /etc/resolv.conf is a link (%s)",
    async (scope) => {
      expect(process.getuid?.(), "the runner is root").toBe(0);
      const scratch = await scratchDir("pc-resolver-etc-link-");
      const etc = path.join(scratch, "etc");
      await cp("/etc", etc, { recursive: true, verbatimSymlinks: true });
      await rm(path.join(etc, "resolv.conf"), { force: true });
      await symlink("../run/systemd/resolve/stub-resolv.conf", path.join(etc, "resolv.conf"));
      const ws = path.join(scratch, "ws");
      await mkdir(ws);
      const program = "ln -sfn /var/tmp/evil-resolv.conf /etc/resolv.conf && echo replaced";
      const shell = `mount --bind ${shellQuote(etc)} /etc && exec ${shellQuote(process.execPath)} --input-type=module -e "$SCRIPT"`;
      const script = runWithWritableEtc(scope, ws, program);
      const result = await inPrivateMountNamespace(shell, { PATH: process.env.PATH, SCRIPT: script });
      expect(result.stderr).toBe("");
      expect(JSON.parse(result.stdout)).toEqual({ code: "ERR_SANDBOX_RESOLVER_LINK_WRITABLE" });
      expect(await readlink(path.join(etc, "resolv.conf"))).toBe("../run/systemd/resolve/stub-resolv.conf");
    },
    60_000,
  );

  /**
   * Debian's resolvconf: `/etc/resolv.conf -> /etc/resolvconf/run/resolv.conf` and
   * `/etc/resolvconf/run -> /run/resolvconf`. A writable `/etc/resolvconf` let the program
   * repoint the second link, and with it the file every later run's proxy reads.
   */
  it.each(["deny", "workspace"] as const)(
    "is refused where a link the resolver link passes through is shown writable (%s)",
    async (scope) => {
      expect(process.getuid?.(), "the runner is root").toBe(0);
      const scratch = await scratchDir("pc-resolver-chain-");
      const etc = path.join(scratch, "etc");
      await cp("/etc", etc, { recursive: true, verbatimSymlinks: true });
      await rm(path.join(etc, "resolv.conf"), { force: true });
      await mkdir(path.join(etc, "resolvconf"), { recursive: true });
      await symlink("/run/resolvconf", path.join(etc, "resolvconf", "run"));
      await symlink("/etc/resolvconf/run/resolv.conf", path.join(etc, "resolv.conf"));
      const ws = path.join(scratch, "ws");
      await mkdir(ws);
      const program = "ln -sfn /var/tmp/evil /etc/resolvconf/run && echo replaced";
      const shell = [
        "mount -t tmpfs tmpfs /run",
        "mkdir -p /run/resolvconf && echo 'nameserver 192.0.2.53' > /run/resolvconf/resolv.conf",
        `mount --bind ${shellQuote(etc)} /etc`,
        `exec ${shellQuote(process.execPath)} --input-type=module -e "$SCRIPT"`,
      ].join(" && ");
      const script = runWithWritableEtc(scope, ws, program).replace(
        'path: "/etc"',
        'path: "/etc/resolvconf"',
      );
      const result = await inPrivateMountNamespace(shell, { PATH: process.env.PATH, SCRIPT: script });
      expect(result.stderr).toBe("");
      expect(JSON.parse(result.stdout)).toEqual({ code: "ERR_SANDBOX_RESOLVER_LINK_WRITABLE" });
      expect(await readlink(path.join(etc, "resolvconf", "run"))).toBe("/run/resolvconf");
    },
    60_000,
  );
});
