import { parentPort, workerData } from "node:worker_threads";
import { inputNamed } from "./bench-inputs.js";
import type { MeasureRequest } from "./measure-in-worker.js";
import { REDACTORS } from "./redactors.js";

const request = workerData as MeasureRequest;
const input = inputNamed(request.input);
if (!input) throw new Error(`unknown bench input ${request.input}`);
const redact = REDACTORS[request.redactor];
const text = input.build(request.bytes);
redact(input.build(16 * 1024));
const samples: number[] = [];
for (let run = 0; run < request.repeats; run += 1) {
  const started = performance.now();
  redact(text);
  samples.push(performance.now() - started);
}
samples.sort((a, b) => a - b);
parentPort?.postMessage(samples[Math.floor(samples.length / 2)]);
