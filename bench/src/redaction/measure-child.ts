import { inputNamed } from "./bench-inputs.js";
import type { MeasureRequest } from "./measure-in-child.js";
import { REDACTORS } from "./redactors.js";

// Prints the median milliseconds of `repeats` runs of one redactor over one input, or the time of
// the process's first run when the request asks for a cold start.
const request = JSON.parse(process.argv[2] ?? "{}") as MeasureRequest;
const input = inputNamed(request.input);
if (!input) throw new Error(`unknown bench input ${request.input}`);
const redact = REDACTORS[request.redactor];
const text = input.build(request.bytes);
if (request.coldStart) {
  const started = performance.now();
  redact(text);
  process.stdout.write(`${performance.now() - started}\n`);
  process.exit(0);
}
// The first run over the whole input warms the JIT up; it is not counted.
redact(text);
const samples: number[] = [];
for (let run = 0; run < request.repeats; run += 1) {
  const started = performance.now();
  redact(text);
  samples.push(performance.now() - started);
}
samples.sort((a, b) => a - b);
process.stdout.write(`${samples[Math.floor(samples.length / 2)]}\n`);
