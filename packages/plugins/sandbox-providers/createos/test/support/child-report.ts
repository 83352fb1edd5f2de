import { spawn } from "node:child_process";
import { once } from "node:events";
import { expect, onTestFinished } from "vitest";

/**
 * Runs a test's child process (killed if the test ends first), expects it to exit 0 and returns
 * the JSON report it wrote to stdout; its stderr goes to the test's output.
 */
export async function childReport<Report>(command: string, args: readonly string[]): Promise<Report> {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"] });
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });
  let out = "";
  child.stdout.on("data", (chunk: Buffer) => {
    out += chunk.toString();
  });
  const [code] = (await once(child, "exit")) as [number | null];
  expect(code).toBe(0);
  return JSON.parse(out) as Report;
}
