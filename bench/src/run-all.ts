import { execFile } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { BenchSuiteResult } from "./bench-result.js";
import { renderRatioChart } from "./render-chart.js";
import { type MachineFacts, renderReport } from "./render-report.js";

const run = promisify(execFile);
const benchDir = path.resolve(import.meta.dirname, "..");
const suitesDir = path.join(benchDir, "src/suites");
const resultsDir = path.join(benchDir, "results");
const only = process.argv.slice(2);

const allNames = (await readdir(suitesDir))
  .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
  .map((file) => file.replace(/\.ts$/, ""))
  .sort();
const names = allNames.filter((name) => only.length === 0 || only.includes(name));

const results: BenchSuiteResult[] = [];
for (const name of names) {
  const outFile = path.join(resultsDir, `${name}.json`);
  process.stdout.write(`bench: ${name} … `);
  const started = performance.now();
  try {
    // Each suite gets its own process (and heap), with a GC handle for memory figures.
    await run(
      process.execPath,
      ["--expose-gc", "--import", "tsx", path.join(benchDir, "src/run-suite.ts"), name, outFile],
      {
        cwd: benchDir,
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    results.push(JSON.parse(await readFile(outFile, "utf8")) as BenchSuiteResult);
    console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } catch (error) {
    console.log("FAILED");
    console.error((error as { stderr?: string }).stderr ?? error);
    process.exitCode = 1;
  }
}

// A partial run (`pnpm bench sandbox`) keeps the other suites' last results in the report.
for (const name of allNames.filter((suite) => !names.includes(suite))) {
  try {
    results.push(
      JSON.parse(await readFile(path.join(resultsDir, `${name}.json`), "utf8")) as BenchSuiteResult,
    );
  } catch {
    // Never measured on this machine: the report leaves the suite out.
  }
}
results.sort((a, b) => a.suite.localeCompare(b.suite));

const machine: MachineFacts = {
  date: new Date().toISOString().slice(0, 10),
  cpu: os.cpus()[0]?.model.trim() ?? "unknown CPU",
  cores: os.cpus().length,
  memoryGiB: Math.round(os.totalmem() / 2 ** 30),
  node: process.version,
  kernel: os.release(),
};
const chartFile = "report-ratios.svg";
await writeFile(path.join(benchDir, chartFile), renderRatioChart(results));
await writeFile(path.join(benchDir, "report.md"), renderReport(machine, results, chartFile));
console.log(`bench: wrote ${path.join(benchDir, "report.md")}`);
