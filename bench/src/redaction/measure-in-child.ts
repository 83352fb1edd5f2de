import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { RedactorName } from "./redactors.js";

const run = promisify(execFile);
const CHILD = fileURLToPath(new URL("./measure-child.ts", import.meta.url));

/** What one child process measures: one redactor on one input at one size. */
export interface MeasureRequest {
  readonly redactor: RedactorName;
  readonly input: string;
  readonly bytes: number;
  readonly repeats: number;
  /** Time the first run in the fresh process instead (V8 has optimised none of the code yet). */
  readonly coldStart?: boolean;
}

/**
 * Median milliseconds per run, or null when the runs did not finish within `budgetMs`: a
 * backtracking redactor can spend minutes in one regex, and only killing its process stops it.
 */
export async function measureInChild(request: MeasureRequest, budgetMs: number): Promise<number | null> {
  try {
    const { stdout } = await run(process.execPath, ["--import", "tsx", CHILD, JSON.stringify(request)], {
      timeout: budgetMs,
      killSignal: "SIGKILL",
    });
    return Number(stdout.trim());
  } catch (error) {
    if ((error as { killed?: boolean }).killed) return null;
    throw error;
  }
}
