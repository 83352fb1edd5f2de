import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import path from "node:path";

export interface SpliceRelay {
  /** The loopback port the relay listens on; it forwards every connection to the target port. */
  readonly port: number;
  stop(): Promise<void>;
}

/**
 * Builds and starts `suites/splice-relay.c` (the floor of any relaying design) in `dir`,
 * forwarding to `targetPort`. `null`, with the reason, when there is no C compiler or
 * the relay does not start: the suite then leaves that reference out.
 */
export async function startSpliceRelay(
  dir: string,
  targetPort: number,
): Promise<{ relay: SpliceRelay } | { relay: null; reason: string }> {
  const source = path.join(import.meta.dirname, "suites", "splice-relay.c");
  const binary = path.join(dir, "splice-relay");
  const compiler = process.env.CC || "cc";
  const built = spawnSync(compiler, ["-O2", "-pthread", "-o", binary, source], { encoding: "utf8" });
  if (built.error || built.status !== 0) {
    return {
      relay: null,
      reason: `${compiler} could not build it: ${built.error?.message ?? built.stderr.trim()}`,
    };
  }
  const child: ChildProcess = spawn(binary, [String(targetPort)], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number | null>((resolve) => {
    let said = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      if (said.includes("\n")) resolve(Number(said.trim()));
    });
    child.once("exit", () => resolve(null));
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  };
  if (!port) {
    await stop();
    return { relay: null, reason: "it did not start" };
  }
  return { relay: { port, stop } };
}
