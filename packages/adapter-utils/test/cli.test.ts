import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { shellQuote } from "@paperclipai/internal";
import { afterEach, describe, expect, it } from "vitest";
import { buildLocalProcessSandboxSpawnTarget } from "../src/build-spawn-target.js";
import {
  bindRepoView,
  cleanupAll,
  exec,
  inPrivateMountNamespace,
  loopbackServer,
  onCleanup,
  packageDir,
  scratchDir,
  viaRepoView,
} from "./sandbox-support.js";

afterEach(cleanupAll);

const bin = path.join(packageDir, "bin", "paperclip-sandbox.js");
const cli = (args: string[], env: NodeJS.ProcessEnv = process.env) =>
  exec(process.execPath, [bin, ...args], env);

describe("paperclip-sandbox", () => {
  it("prints its help and version", async () => {
    const help = await cli(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("paperclip-sandbox [options] -- CMD [ARGS...]");
    const version = await cli(["--version"]);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("exits 2 with ERR_SANDBOX_CLI_USAGE on a bad command line", async () => {
    const result = await cli(["--net", "public", "--", "true"]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'ERR_SANDBOX_CLI_USAGE: --net must be "deny" or "allowlist"; got "public".',
    );
  });

  it("runs a command confined to the workspace and exits with its status", async () => {
    const ws = await scratchDir();
    const outside = await scratchDir();
    await writeFile(path.join(outside, "secret"), "s");
    const result = await cli([
      "--workspace",
      ws,
      "--ro",
      outside,
      "--",
      "/bin/sh",
      "-c",
      `cat ${shellQuote(`${outside}/secret`)}; touch ${shellQuote(`${outside}/x`)} 2>/dev/null && exit 9; echo w > ${shellQuote(`${ws}/f`)}; exit 7`,
    ]);
    expect(result.stdout).toBe("s");
    expect(result.code, result.stderr).toBe(7);
  });

  it("logs each network decision with --verbose", async () => {
    const ws = await scratchDir();
    const { port } = await loopbackServer("hello");
    const script = `const h=require("node:http");const p=new URL(process.env.HTTP_PROXY);
      const get=(u)=>new Promise((r)=>h.get({host:p.hostname,port:p.port,path:u},(s)=>{s.resume();s.on("end",()=>r(s.statusCode))}));
      (async()=>{console.log(await get("http://127.0.0.1:${port}/"), await get("http://blocked.test/"))})()`;
    const result = await cli([
      "--workspace",
      ws,
      "-v",
      "--allow",
      `127.0.0.1:${port}`,
      "--",
      process.execPath,
      "-e",
      script,
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe("200 403");
    expect(result.stderr).toContain(`paperclip-sandbox: allow 127.0.0.1:${port} (allowlist)`);
    expect(result.stderr).toContain("paperclip-sandbox: deny blocked.test:80 (not_allowlisted)");
  });

  it("with /tmp as the workspace, sees other runs' proxy directories there but reaches none of their sockets", async () => {
    const ws = await scratchDir();
    const other = await buildLocalProcessSandboxSpawnTarget({
      executable: "/bin/true",
      args: [],
      cwd: ws,
      options: { workspaceDir: ws, networkScope: "allowlist", networkAllowlist: ["127.0.0.1:1"] },
    });
    onCleanup(() => other.cleanup!());
    const contract = other.args[other.args.indexOf("--") + 3]!;
    expect(contract.startsWith("/tmp/")).toBe(true);
    const probe = `
      const fs = require("node:fs");
      const net = require("node:net");
      const link = process.argv[1];
      const seen = fs.existsSync(require("node:path").dirname(link));
      net.connect(link).on("connect", () => { console.log(seen, "connected"); process.exit(0); })
        .on("error", (error) => { console.log(seen, error.code); process.exit(0); });`;
    // The /tmp socket root is masked; made for the mask, it is removed again after the run.
    const tmpRoot = `/tmp/paperclip-sandbox-sockets-${process.getuid?.() ?? 0}`;
    const rootExisted = existsSync(tmpRoot);
    const result = await cli(["--workspace", "/tmp", "--", process.execPath, "-e", probe, contract]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe("true ENOENT");
    expect(result.stderr).toBe("");
    expect(existsSync(tmpRoot)).toBe(rootExisted);
  });

  it("exits 127 with ERR_SANDBOX_COMMAND_NOT_FOUND for an unknown command", async () => {
    const result = await cli(["--", "no-such-command-pc"]);
    expect(result.code).toBe(127);
    expect(result.stderr).toContain(
      'ERR_SANDBOX_COMMAND_NOT_FOUND: Command not found in PATH: "no-such-command-pc"',
    );
  });
});

describe("paperclip-sandbox doctor", () => {
  it("passes on this host and starts real sandboxes", async () => {
    const result = await cli(["doctor"]);
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toMatch(/ok {4}bwrap: .*bubblewrap \d+\.\d+/);
    expect(result.stdout).toMatch(/ok {4}socket dir \/tmp: writable; proxy.sock path 48 bytes \(limit 107\)/);
    expect(result.stdout).toContain(
      `ok    private socket root /dev/shm/paperclip-sandbox-sockets-${process.getuid?.() ?? 0}: usable; every sandbox hides it`,
    );
    expect(result.stdout).toMatch(/ok {4}sandbox start \(allowlist: bridge \+ proxy\): started and exited 0/);
    expect(result.stdout).toContain("No problems found");
    // This host's runner is root: its network-only programs can write host files.
    expect(process.geteuid?.()).toBe(0);
    expect(result.stdout).toContain(
      "warn  root runner: running as root: a network-only program (--host-fs, or networkScope without filesystemScope) is uid 0",
    );
    // The host runs a hash-named private copy of dist/native's binary, never that file itself.
    expect(result.stdout).toMatch(
      /ok {4}bridge: native: the native bridge for linux-(x64|arm64) runs: \/dev\/shm\/paperclip-sandbox-sockets-\d+\/native-[0-9a-f]{32}\/paperclip-sandbox-bridge\n/,
    );
    expect(result.stdout).toMatch(/ok {4}seccomp filter: active \(x64: \d+ calls denied/);
    expect(result.stdout).toMatch(/ok {4}process limit: each run in its own cgroup/);
    expect(result.stdout).toContain(
      "ok    tunnel handoff: on: a CONNECT tunnel goes to the native bridge after its first 1 MiB; the host relays only that\n",
    );
  });

  it("reports which bridge a run will use and why, also when told to use Node or something invalid", async () => {
    const node = await cli(["doctor"], { ...process.env, PAPERCLIP_SANDBOX_BRIDGE: "node" });
    expect(node.code, node.stdout).toBe(0);
    expect(node.stdout).toContain(
      "info  bridge: Node: the Node bridge was asked for (PAPERCLIP_SANDBOX_BRIDGE=node)\n",
    );
    expect(node.stdout).toContain(
      "info  tunnel handoff: off: the Node bridge relays every tunnel through the host process\n",
    );
    expect(node.stdout).toMatch(/ok {4}sandbox start \(allowlist: bridge \+ proxy\): started and exited 0/);
    const invalid = await cli(["doctor"], { ...process.env, PAPERCLIP_SANDBOX_BRIDGE: "fast" });
    expect(invalid.code).toBe(1);
    expect(invalid.stdout).toContain(
      'FAIL  bridge: PAPERCLIP_SANDBOX_BRIDGE must be "auto", "native" or "node".',
    );
    expect(invalid.stdout).toContain("ERR_SANDBOX_BRIDGE_CHOICE_INVALID");
  });

  it("reports every failing socket candidate with ERR_SANDBOX_PROXY_SOCKET_DIR and the fix", async () => {
    const deep = `/tmp/${Array.from({ length: 6 }, () => "deep-temporary-directory-segment").join("/")}`;
    const shell = `${bindRepoView} && mount -t tmpfs -o mode=0755 doctor-test /tmp && mkdir -p ${deep} && mount -o remount,ro /tmp && exec ${shellQuote(process.execPath)} ${shellQuote(viaRepoView(bin))} doctor`;
    const result = await inPrivateMountNamespace(shell, {
      PATH: process.env.PATH,
      TMPDIR: deep,
    });
    const bytes = Buffer.byteLength(`${deep}/paperclip-network-sandbox-XXXXXX/proxy.sock`);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/warn {2}socket dir \/tmp: not usable: mkdtemp failed with EROFS/);
    expect(result.stdout).toMatch(
      new RegExp(
        `warn {2}socket dir ${deep}: not usable: mkdtemp failed with EROFS; proxy.sock path would be ${bytes} bytes`,
      ),
    );
    expect(result.stdout).toContain(
      "ERR_SANDBOX_PROXY_SOCKET_DIR: Unable to create a Linux-safe Paperclip sandbox proxy socket directory.",
    );
    expect(result.stdout).toContain("fix:");
    expect(result.stdout).toContain("1 problem found.");
    const json = await inPrivateMountNamespace(`${shell} --json`, {
      PATH: process.env.PATH,
      TMPDIR: deep,
    });
    const checks = JSON.parse(json.stdout) as { name: string; status: string; code: string | null }[];
    expect(checks).toContainEqual(
      expect.objectContaining({ name: "socket dir", status: "fail", code: "ERR_SANDBOX_PROXY_SOCKET_DIR" }),
    );
  });
});
