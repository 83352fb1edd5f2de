import { execFile, spawn } from "node:child_process";
import { chmod, copyFile, readFile, stat, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { PaperclipError } from "@paperclipai/errors";
import { afterEach, describe, expect, it } from "vitest";
import { SANDBOX_BRIDGE_ENV } from "../src/bridge/bridge-choice.js";
import { selectBridge } from "../src/bridge/bridge-launch.js";
import {
  EXEC_SHIM_FILE_NAME,
  NATIVE_BRIDGE_UNDER_TEST_ENV,
  NATIVE_BRIDGE_VERSION_LINE,
  nativeBridgePath,
} from "../src/bridge/native-bridge-path.js";
import { probeNativeBridge } from "../src/bridge/probe-native-bridge.js";
import { buildLocalProcessSandboxSpawnTarget } from "../src/build-spawn-target.js";
import { INIT_PROC_DIR } from "../src/bwrap/init-process-mask.js";
import { cleanupAll, exec, onCleanup, packageDir, scratchDir } from "./sandbox-support.js";

afterEach(cleanupAll);

/** Where the sandbox shows the exec shim (src/spawn-target/program-launch.ts). */
const SHIM_IN_SANDBOX = path.join(INIT_PROC_DIR, EXEC_SHIM_FILE_NAME);
/** Where the probe copies the binary: a private socket root, named by the binary's digest. */
const PRIVATE_COPY = /\/paperclip-sandbox-sockets-\d+\/native-[0-9a-f]{32}\/paperclip-sandbox-bridge$/;

function builtBridge(): string {
  const binary = nativeBridgePath();
  if (!binary) throw new Error("no package root found for the native bridge");
  return binary;
}

interface BridgeRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the native bridge on the host (no sandbox): its exit and signal contract needs no network. */
function runBridge(args: string[]): Promise<BridgeRun> {
  return new Promise((resolve) => {
    execFile(builtBridge(), args, (error, stdout, stderr) => {
      const failure = error as (Error & { code?: unknown; signal?: NodeJS.Signals | null }) | null;
      resolve({
        code: failure ? (typeof failure.code === "number" ? failure.code : null) : 0,
        signal: failure?.signal ?? null,
        stdout,
        stderr,
      });
    });
  });
}

describe("the native bridge binary", () => {
  it("is built by the package build where the package looks for it, and answers the probe", async () => {
    const binary = builtBridge();
    // The sanitizer step of the test command points this at its ASan+UBSan build.
    expect(binary).toBe(
      process.env[NATIVE_BRIDGE_UNDER_TEST_ENV] ??
        path.join(packageDir, "dist", "native", `linux-${process.arch}`, "paperclip-sandbox-bridge"),
    );
    // The host runs a private copy of it, never the package's file (a sandbox may write there).
    expect(await probeNativeBridge(binary)).toEqual({
      status: "ok",
      path: expect.stringMatching(PRIVATE_COPY),
    });
    expect((await runBridge(["--version"])).stdout).toBe(NATIVE_BRIDGE_VERSION_LINE);
  });

  it("exits 125 and never starts the program when it cannot listen", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    onCleanup(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const port = (taken.address() as { port: number }).port;
    const ws = await scratchDir();
    const marker = path.join(ws, "started");
    const busy = await runBridge([
      `127.0.0.1:${port}`,
      "/nonexistent.sock",
      "/bin/sh",
      "-c",
      `touch ${marker}`,
    ]);
    expect(busy).toMatchObject({ code: 125 });
    expect(busy.stderr).toContain(`paperclip-sandbox bridge: cannot listen on 127.0.0.1:${port}:`);
    const invalid = await runBridge([
      "not-an-address",
      "/nonexistent.sock",
      "/bin/sh",
      "-c",
      `touch ${marker}`,
    ]);
    expect(invalid.code).toBe(125);
    await expect(import("node:fs/promises").then((fs) => fs.access(marker))).rejects.toThrow();
  });

  it("exits with the program's exact status, 127/126 when it cannot start it, and re-raises a fatal signal", async () => {
    const listen = "127.0.0.1:0";
    expect((await runBridge([listen, "/nonexistent.sock", "/bin/sh", "-c", "exit 7"])).code).toBe(7);
    const missing = await runBridge([listen, "/nonexistent.sock", "/no/such/program"]);
    expect(missing.code).toBe(127);
    expect(missing.stderr).toContain("paperclip-sandbox bridge: cannot start /no/such/program:");
    const ws = await scratchDir();
    const notExecutable = path.join(ws, "data.txt");
    await writeFile(notExecutable, "data\n");
    expect((await runBridge([listen, "/nonexistent.sock", notExecutable])).code).toBe(126);
    expect(await runBridge([listen, "/nonexistent.sock", "/bin/sh", "-c", "kill -TERM $$"])).toMatchObject({
      code: null,
      signal: "SIGTERM",
    });
  });

  it("forwards a signal to the program's process group once, and ends as the program did", async () => {
    // The trap is set before "ready" is printed, so the signal is sent only once it is in place.
    const child = spawn(builtBridge(), [
      "127.0.0.1:0",
      "/nonexistent.sock",
      "/bin/sh",
      "-c",
      'trap "echo got-usr1; exit 9" USR1; echo ready; while :; do sleep 0.05; done',
    ]);
    onCleanup(async () => {
      child.kill("SIGKILL");
    });
    let stdout = "";
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    await new Promise<void>((resolve) =>
      child.stdout.on("data", (chunk: Buffer) => {
        stdout += chunk;
        if (stdout.includes("ready\n")) resolve();
      }),
    );
    child.kill("SIGUSR1");
    expect(await exited).toBe(9);
    expect(stdout).toBe("ready\ngot-usr1\n");
  });

  it("is not dumpable while the program runs: its /proc files belong to root, not to the uid it runs as", async () => {
    // As root the owner would be root either way: the bridge then runs as nobody, from a copy
    // nobody can reach. Not dumpable, the kernel hands its /proc/<pid> to root (proc(5)).
    const asRoot = process.getuid?.() === 0;
    const uid = asRoot ? 65534 : process.getuid!();
    let binary = builtBridge();
    if (asRoot) {
      const dir = await scratchDir();
      await chmod(dir, 0o755);
      binary = path.join(dir, "paperclip-sandbox-bridge");
      await copyFile(builtBridge(), binary);
      await chmod(binary, 0o755);
    }
    const child = spawn(
      binary,
      ["127.0.0.1:0", "/nonexistent.sock", "/bin/sh", "-c", "echo ready; exec sleep 30"],
      {
        uid,
        gid: asRoot ? 65534 : process.getgid!(),
        cwd: "/",
      },
    );
    onCleanup(async () => {
      child.kill("SIGKILL");
    });
    await new Promise<void>((resolve) =>
      child.stdout.on("data", (chunk: Buffer) => chunk.includes("ready") && resolve()),
    );
    const status = await readFile(`/proc/${child.pid}/status`, "utf8");
    expect(status).toMatch(new RegExp(`^Uid:\\t${uid}\\t`, "m"));
    expect((await stat(`/proc/${child.pid}/environ`)).uid).toBe(0);
  });

  it("gives the program the variables a Node bridge would have deferred, under their own names", async () => {
    const result = await new Promise<string>((resolve, reject) => {
      execFile(
        builtBridge(),
        [
          "127.0.0.1:0",
          "/nonexistent.sock",
          "/bin/sh",
          "-c",
          // The shell's own ${VAR-default}: "unset" when the carrier did not reach the program.
          `echo "$NODE_OPTIONS|\${PAPERCLIP_SANDBOX_BRIDGE_DEFERRED_NODE_OPTIONS-unset}"`,
        ],
        { env: { PATH: process.env.PATH, PAPERCLIP_SANDBOX_BRIDGE_DEFERRED_NODE_OPTIONS: "--no-warnings" } },
        (error, stdout) => (error ? reject(error) : resolve(stdout)),
      );
    });
    expect(result).toBe("--no-warnings|unset\n");
  });
});

describe("building the native bridge", () => {
  it("without a C compiler the build fails and names what to install; the opt-out says what it gives up", async () => {
    const script = path.join(packageDir, "scripts", "build-native-bridge.mjs");
    const run = await exec(process.execPath, [script], { ...process.env, CC: "/nonexistent/cc" });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      "native bridge build failed: /nonexistent/cc: ENOENT; run `bash scripts/provision.sh`",
    );
    expect(run.stderr).toContain("apt-get install build-essential");
    const skipped = await exec(process.execPath, [script], {
      ...process.env,
      PAPERCLIP_NATIVE_BUILD: "skip",
    });
    expect(skipped.code).toBe(0);
    expect(skipped.stderr).toContain(
      "native bridge not built (PAPERCLIP_NATIVE_BUILD=skip); the sandbox will use its Node bridge.",
    );
    // The binary of the real build is left as it was.
    expect(await probeNativeBridge(builtBridge())).toEqual({
      status: "ok",
      path: expect.stringMatching(PRIVATE_COPY),
    });
  });
});

describe("choosing the bridge", () => {
  it("a file that is not a runnable bridge fails the probe, so auto falls back to Node", async () => {
    const ws = await scratchDir();
    const notElf = path.join(ws, "paperclip-sandbox-bridge");
    await writeFile(notElf, "\u007fELF but not really\n");
    await chmod(notElf, 0o755);
    const wrongAnswer = path.join(ws, "impostor");
    await writeFile(wrongAnswer, "#!/bin/sh\necho something else\n");
    await chmod(wrongAnswer, 0o755);
    expect(await probeNativeBridge(notElf)).toMatchObject({
      status: "failed",
      // execvp hands a file the kernel cannot run to /bin/sh, which fails on it.
      detail: expect.stringContaining("cannot run"),
    });
    const refused = await probeNativeBridge(wrongAnswer);
    expect(refused).toMatchObject({ status: "failed", detail: expect.stringContaining("unexpected answer") });
    // A binary that answers wrong answers wrong in every root: no root after the first whose mount
    // lets a copy run (where the real bridge's copy goes) is tried.
    const working = await probeNativeBridge(builtBridge());
    const runnableRoot = path.dirname(path.dirname(working.path!));
    expect(refused).toMatchObject({ detail: expect.stringContaining(`cannot run (${runnableRoot}/`) });
    expect(await probeNativeBridge(path.join(ws, "absent"))).toMatchObject({ status: "missing" });
  });

  it("auto uses the native bridge: its argv keeps the proxy socket third after --", async () => {
    const ws = await scratchDir();
    const target = await buildLocalProcessSandboxSpawnTarget({
      executable: "/bin/true",
      args: ["x"],
      cwd: ws,
      options: { workspaceDir: ws, networkScope: "allowlist", networkAllowlist: ["api.test"] },
    });
    onCleanup(() => target.cleanup?.() ?? Promise.resolve());
    const after = target.args.slice(target.args.indexOf("--") + 1);
    expect(after).toEqual([
      expect.stringMatching(/\/paperclip-network-sandbox-[^/]+\/paperclip-sandbox-bridge$/),
      "127.0.0.1:31337",
      expect.stringMatching(/\/proxy\.sock$/),
      // The bridge starts the program through the exec shim, which checks the binds first.
      SHIM_IN_SANDBOX,
      "/bin/true",
      "x",
    ]);
    // Bound from the private copy into the run's own directory: the package's file is never used.
    const bind = target.args.indexOf(after[0] as string);
    expect(target.args.slice(bind - 2, bind + 1)).toEqual([
      "--ro-bind",
      expect.stringMatching(PRIVATE_COPY),
      after[0],
    ]);
    expect(target.args.filter((arg) => arg.startsWith(path.dirname(builtBridge())))).toEqual([]);
  });

  it("falls back to the Node bridge when told to, by the option or by PAPERCLIP_SANDBOX_BRIDGE", async () => {
    const ws = await scratchDir();
    const build = async (networkBridge?: "node") => {
      const target = await buildLocalProcessSandboxSpawnTarget({
        executable: "/bin/true",
        args: [],
        cwd: ws,
        options: {
          workspaceDir: ws,
          networkScope: "allowlist",
          networkAllowlist: ["api.test"],
          networkBridge,
        },
      });
      onCleanup(() => target.cleanup?.() ?? Promise.resolve());
      return target.args.slice(target.args.indexOf("--") + 1);
    };
    const nodeArgv = [
      process.execPath,
      expect.stringMatching(/\/bridge\.cjs$/),
      expect.stringMatching(/\/proxy\.sock$/),
      SHIM_IN_SANDBOX,
      "/bin/true",
    ];
    expect(await build("node")).toEqual(nodeArgv);
    const saved = process.env[SANDBOX_BRIDGE_ENV];
    process.env[SANDBOX_BRIDGE_ENV] = "node";
    try {
      expect(await build()).toEqual(nodeArgv);
      expect((await selectBridge(undefined)).reason).toBe(
        "the Node bridge was asked for (PAPERCLIP_SANDBOX_BRIDGE=node)",
      );
      process.env[SANDBOX_BRIDGE_ENV] = "nonsense";
      await expect(build()).rejects.toSatisfy((error) =>
        PaperclipError.is(error, "ERR_SANDBOX_BRIDGE_CHOICE_INVALID"),
      );
    } finally {
      if (saved === undefined) delete process.env[SANDBOX_BRIDGE_ENV];
      else process.env[SANDBOX_BRIDGE_ENV] = saved;
    }
  });
});
