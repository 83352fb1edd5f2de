import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import type { BenchSuite } from "./bench-result.js";

// Runs one suite in this process and writes its result, so suites never share a heap.
const [name, outFile] = process.argv.slice(2);
if (!name || !outFile) throw new Error("usage: run-suite <suite> <out.json>");
const module = (await import(`./suites/${name}.ts`)) as { run: BenchSuite };
const result = await module.run();
await mkdir(path.dirname(outFile), { recursive: true });
await writeFile(outFile, `${JSON.stringify(result, null, 2)}\n`);
