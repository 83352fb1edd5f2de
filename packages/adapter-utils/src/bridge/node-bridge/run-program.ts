import { spawn } from "node:child_process";
import { constants } from "node:os";
import { restoreDeferredEnv } from "../deferred-env.js";
import { execvpPath } from "./execvp-path.js";
import { bridgeEnding, FORWARDED_SIGNALS, startFailureStatus, startFailureText } from "./program-ending.js";
import { STATUS_KEEPING_SHELL, statusKeepingShellArgs } from "./status-keeping-shell.js";

/** How long a re-raised signal gets to end the bridge before it exits with 128+N itself. */
const SIGNAL_FALLBACK_DELAY_MS = 100;

/**
 * Starts the program, under a shell that keeps its status, in its own process group (so a
 * signal reaches it once: from the bridge), forwards every catchable signal to that group, and ends the bridge with the
 * program's exact status. `beforeEnd` runs once the program has exited.
 */
export function runProgram(executable: string, args: readonly string[], beforeEnd: () => void): void {
  const env = restoreDeferredEnv(process.env);
  // The shell is handed a path, never a name it could take for one of its builtins.
  const program = execvpPath(executable, env);
  if ("code" in program) {
    // execvp's strerror, as the exec shim prints it.
    process.stderr.write(
      `paperclip-sandbox bridge: cannot start ${executable}: ${startFailureText(program.code)}\n`,
    );
    process.exit(startFailureStatus(program.code));
  }
  // Under a shell that reports the program's real wait status (status-keeping-shell.ts).
  const child = spawn(STATUS_KEEPING_SHELL, statusKeepingShellArgs(program.path, args), {
    stdio: "inherit",
    detached: true,
    env,
  });
  const forward = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      try {
        child.kill(signal);
      } catch {}
    }
  };
  for (const signal of FORWARDED_SIGNALS) process.on(signal, () => forward(signal));
  child.on("error", (error: NodeJS.ErrnoException) => {
    process.stderr.write(`paperclip-sandbox bridge: cannot start ${executable}: ${error.message}\n`);
    process.exit(startFailureStatus(error.code));
  });
  child.on("exit", (code, signal) => {
    beforeEnd();
    const ending = bridgeEnding(code, signal, constants.signals);
    if (ending.kind === "exit") process.exit(ending.status);
    for (const name of FORWARDED_SIGNALS) process.removeAllListeners(name);
    process.kill(process.pid, ending.signal);
    setTimeout(() => process.exit(ending.fallbackStatus), SIGNAL_FALLBACK_DELAY_MS);
  });
}
