// The server's own launcher for a runner in a remote sandbox (createRemoteRunnerProcessLauncher),
// over a loopback command runner: the "sandbox" is a directory of the work directory and its
// commands are real local processes. The runner file is staged there alone, mode 0700, as the
// server stages PAPERCLIP_RUNNER_REMOTE_BINARY_PATH; the launcher then starts it detached
// (nohup setsid), adopts it through its identity marker and /proc cmdline, polls it and signals
// it with its own shell scripts. Written for this repository; it only calls the server's exports.
import { spawn } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** Runs one command of the launcher as a sandbox provider would: its exit, output and timeout. */
function executeLocally({ command, args = [], cwd, env, stdin, timeoutMs }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: env ?? process.env, stdio: ["pipe", "pipe", "pipe"] });
    const stdout = [];
    const stderr = [];
    let timedOut = false;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => {
            timedOut = true;
            child.kill("SIGKILL");
          }, timeoutMs);
    child.stdout.on("data", (chunk) => stdout.push(chunk));
    child.stderr.on("data", (chunk) => stderr.push(chunk));
    child.on("error", reject);
    child.on("close", (exitCode, signal) => {
      clearTimeout(timer);
      resolve({
        exitCode,
        signal,
        timedOut,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
      });
    });
    child.stdin.on("error", () => undefined);
    child.stdin.end(stdin ?? "");
  });
}

/**
 * The transport options that make the server launch `runnerFile` as a remote runner in
 * `sandboxRoot`, and `stagedRunner()`: the process the launcher started, once it has.
 */
export async function remoteLaunchOptions({
  serverDir,
  runnerFile,
  sandboxRoot,
  workspace,
  runnerInstanceId,
}) {
  const executor = await import(
    pathToFileURL(
      join(
        serverDir,
        "node_modules/@paperclipai/server/dist/services/native-runtime/native-session-executor.js",
      ),
    ).href
  );
  const runtime = join(sandboxRoot, ".paperclip-runtime", "paperclip-runner");
  const remoteBinary = join(runtime, "bin", "paperclip-runnerd");
  mkdirSync(join(runtime, "bin"), { recursive: true, mode: 0o700 });
  copyFileSync(runnerFile, remoteBinary);
  chmodSync(remoteBinary, 0o700);
  const stateDirectory = join(runtime, "runner");
  const processIdentityPath = join(stateDirectory, "runner-process.identity");
  const runnerProcessLauncher = executor.createRemoteRunnerProcessLauncher({
    target: {
      kind: "remote",
      transport: "sandbox",
      environmentId: "environment-loopback",
      leaseId: "lease-loopback",
      remoteCwd: workspace,
    },
    runner: { execute: executeLocally },
    remoteBinary,
    processIdentityPath,
    stateDirectory,
    diagnosticsDirectory: join(runtime, "diagnostics"),
    runnerInstanceId,
  });
  /** The process the launcher's identity marker names (none before the launch), and its argv. */
  const stagedRunner = () => {
    try {
      const pid = Number(readFileSync(processIdentityPath, "utf8").split("\n")[1]);
      return { pid, argv: readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").slice(0, -1) };
    } catch {
      return { pid: null, argv: null };
    }
  };
  return { runnerProcessLauncher, runnerBinary: runnerFile, stagedRunner };
}
