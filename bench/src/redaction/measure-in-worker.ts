import { Worker } from "node:worker_threads";
import type { RedactorName } from "./redactors.js";

/** What one worker measures: one redactor on one input at one size. */
export interface MeasureRequest {
  readonly redactor: RedactorName;
  readonly input: string;
  readonly bytes: number;
  readonly repeats: number;
}

/** Median milliseconds per run, or null when the runs did not finish within `budgetMs`. */
export async function measureInWorker(request: MeasureRequest, budgetMs: number): Promise<number | null> {
  const worker = new Worker(new URL("./measure-worker.ts", import.meta.url), { workerData: request });
  // A backtracking redactor can spend minutes in one regex; terminating the worker interrupts it.
  const timer = setTimeout(() => void worker.terminate(), budgetMs);
  try {
    return await new Promise<number | null>((resolve, reject) => {
      worker.once("message", (ms: number) => resolve(ms));
      worker.once("error", reject);
      worker.once("exit", () => resolve(null));
    });
  } finally {
    clearTimeout(timer);
    await worker.terminate();
  }
}
