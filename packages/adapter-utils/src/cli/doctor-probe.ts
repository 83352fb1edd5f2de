import { mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { PaperclipError } from "@paperclipai/errors";
import type { LocalProcessSandboxOptions } from "../sandbox-options.js";
import { type RunProcessResult, runChildProcess } from "../spawn/run-child-process.js";
import type { DoctorCheck } from "./doctor-check.js";

/**
 * Runs `node -e script` in a real sandbox of a fresh workspace under `baseDir` (removed
 * afterwards): the doctor's probes ask the sandbox itself, never assume.
 */
export async function runDoctorProbe(
  baseDir: string,
  script: string,
  sandbox: Omit<LocalProcessSandboxOptions, "workspaceDir">,
): Promise<RunProcessResult> {
  const workspace = await mkdtemp(path.join(baseDir, "paperclip-doctor-"));
  try {
    return await runChildProcess("paperclip-sandbox-doctor", process.execPath, ["-e", script], {
      cwd: workspace,
      env: {},
      timeoutSec: 30,
      graceSec: 1,
      onLog: async () => {},
      localProcessSandbox: { ...sandbox, workspaceDir: workspace },
    });
  } finally {
    await rm(workspace, { recursive: true, force: true });
  }
}

/** A probe that threw: its coded error, with the registry's fixes, when it has one. */
export function failedProbe(name: string, error: unknown): DoctorCheck {
  return PaperclipError.is(error)
    ? { name, status: "fail", detail: error.message, error }
    : { name, status: "fail", detail: String(error) };
}
