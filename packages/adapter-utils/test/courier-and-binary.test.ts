import { existsSync, readFileSync, realpathSync, unlinkSync } from "node:fs";
import { cp, mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { shellQuote } from "@paperclipai/internal";
import { tempDirForTest } from "@paperclipai/test-support";
import { afterEach, describe, expect, it } from "vitest";
import { buildLocalProcessSandboxSpawnTarget } from "../src/build-spawn-target.js";
import { courierFailure } from "../src/spawn/spawn-failure.js";
import { courierTokenOf } from "../src/spawn-target/courier-token.js";
import { buildAttacks, echoServer, hostSink, spawnTarget } from "./attack-support.js";
import { cleanupAll, exec, onCleanup, packageDir, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/** An allowlist target with the native bridge, its courier listening; and its private directory. */
async function victimTarget(ws: string, allowedPort: number, program: string[]) {
  const target = await buildLocalProcessSandboxSpawnTarget({
    executable: program[0]!,
    args: program.slice(1),
    cwd: ws,
    options: {
      workspaceDir: ws,
      filesystemScope: "workspace",
      networkScope: "allowlist",
      networkAllowlist: [`127.0.0.1:${allowedPort}`],
      networkBridge: "native",
      networkLimits: { handoffAfterBytes: 1 },
    },
  });
  onCleanup(() => target.cleanup!());
  const proxyDir = path.dirname(target.args[target.args.indexOf("--") + 3]!);
  return { target, privateDir: path.dirname(realpathSync(path.join(proxyDir, "proxy.sock"))) };
}

describe("the courier (class 4): only its own run's bridge", () => {
  it("a stranger that reaches pass.sock first gets no host socket, and the run's own bridge still gets its courier", async () => {
    const sink = await hostSink();
    const echo = await echoServer();
    const ws = await scratchDir();
    const attacks = await buildAttacks(ws);
    const { target, privateDir } = await victimTarget(ws, echo, ["/bin/true"]);
    // Another sandbox (own pid and network namespace, no capabilities) that can see the victim's
    // private directory, as one that resolved a planted symlink could.
    const stranger = await exec("bwrap", [
      ...[
        "--dev-bind",
        "/",
        "/",
        "--unshare-net",
        "--unshare-pid",
        "--cap-drop",
        "ALL",
        "--die-with-parent",
        "--",
      ],
      ...[attacks, "steal-courier", path.join(privateDir, "pass.sock"), path.join(privateDir, "relay.sock")],
      ...[String(echo), String(sink.port)],
    ]);
    expect(stranger.stdout).toBe("courier closed\n");
    const victim = await spawnTarget(target);
    expect(victim).toEqual({ code: 0, stdout: "", stderr: "" });
    await sleep(200);
    expect(sink.hits()).toEqual({ connections: 0, bytes: "" });
  }, 30_000);

  it("a bridge told of a courier it cannot reach fails closed: the program never starts", async () => {
    const echo = await echoServer();
    const ws = await scratchDir();
    const marker = path.join(ws, "program-ran");
    const { target, privateDir } = await victimTarget(ws, echo, ["/bin/sh", "-c", `touch ${marker}`]);
    // What a stranger that took the courier's one connection leaves behind: no pass.sock.
    unlinkSync(path.join(privateDir, "pass.sock"));
    const victim = await spawnTarget(target);
    expect(victim.code).toBe(125);
    expect(victim.stderr).toContain("paperclip-sandbox bridge: ERR_SANDBOX_COURIER_UNREACHABLE: ");
    // The line carries the run's token, so the spawn helper reports it as the coded error.
    const reported = courierFailure(victim.code, victim.stderr, courierTokenOf(target));
    expect(reported?.code).toBe("ERR_SANDBOX_COURIER_UNREACHABLE");
    expect(existsSync(marker)).toBe(false);
  }, 30_000);
});

describe("the native binary (class 5): the host never runs a file a sandbox can write", () => {
  it("a network-only sandbox that replaces the package's binary gets no code run on the host or in later sandboxes", async () => {
    // A copy of the built package, so the sandbox replaces its binary and not the one other tests use.
    const cache = path.join(packageDir, "node_modules", ".cache");
    await mkdir(cache, { recursive: true });
    const installed = tempDirForTest("pc-binary-", { base: cache });
    await cp(path.join(packageDir, "dist"), path.join(installed, "dist"), { recursive: true });
    await writeFile(path.join(installed, "package.json"), '{ "name": "copied", "type": "module" }\n');
    const binary = path.join(
      installed,
      "dist",
      "native",
      `linux-${process.arch}`,
      "paperclip-sandbox-bridge",
    );
    const marker = path.join(installed, "host-ran-it");
    const ws = await scratchDir();
    const echo = await echoServer();
    const fresh = shellQuote(`${binary}.new`);
    const script = shellQuote(`#!/bin/sh\ntouch ${shellQuote(marker)}\n`);
    const replace = `printf ${script} > ${fresh} && chmod 755 ${fresh} && mv ${fresh} ${shellQuote(binary)} && echo replaced`;
    const runner = `
      const { runChildProcess } = await import(${JSON.stringify(path.join(installed, "dist", "local-process-sandbox.js"))});
      const run = (command, args, scope) => runChildProcess("binary", command, args, {
        cwd: ${JSON.stringify(ws)}, env: {}, timeoutSec: 20, graceSec: 1, onLog: async () => {},
        localProcessSandbox: { command: "/usr/bin/bwrap", workspaceDir: ${JSON.stringify(ws)}, ...scope },
      }).then((result) => ({ exitCode: result.exitCode, stdout: result.stdout }));
      // The package's directory is writable there (the host tree is, for a root runner); shown
      // explicitly, so the test holds from a checkout under /tmp, which the scope masks.
      const replaced = await run("/bin/sh", ["-c", ${JSON.stringify(replace)}], {
        networkScope: "deny", extraPaths: [{ path: ${JSON.stringify(installed)}, access: "rw" }],
      });
      const allowlist = await run("/bin/true", [], {
        filesystemScope: "workspace", networkScope: "allowlist", networkAllowlist: ["127.0.0.1:${echo}"], networkBridge: "native",
      });
      const deny = await run("/bin/true", [], { filesystemScope: "workspace", networkScope: "deny" });
      console.log(JSON.stringify({ replaced, allowlist, deny }));`;
    const result = await exec(process.execPath, ["--input-type=module", "-e", runner]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      replaced: { exitCode: 0, stdout: "replaced\n" },
      allowlist: { exitCode: 0, stdout: "" },
      deny: { exitCode: 0, stdout: "" },
    });
    // The sandbox did replace the package's file; nothing ever ran it.
    expect(readFileSync(binary, "utf8")).toContain(marker);
    expect(existsSync(marker)).toBe(false);
  }, 60_000);
});
