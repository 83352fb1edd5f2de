import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it } from "vitest";

/**
 * Upstream's own published test file for this module (`dist/local-process-sandbox.test.js`
 * of `@paperclipai/adapter-utils@2026.916.1`), run unchanged with real bwrap against
 * our built package: it imports `./local-process-sandbox.js` and `./server-utils.js`,
 * which are shims re-exporting from our `dist/`. Upstream's code is read from the
 * installed npm package at test time, never copied into the repository.
 */
const packageDir = path.resolve(fileURLToPath(new URL("..", import.meta.url)));
const repoRoot = path.resolve(packageDir, "../..");
const builtEntry = path.join(packageDir, "dist", "local-process-sandbox.js");
// The devDependency alias; its `exports` are import-only, so it is located on disk.
const upstreamDist = path.join(packageDir, "node_modules", "upstream-adapter-utils", "dist");

interface VitestJsonReport {
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[];
}

describe("upstream's local-process-sandbox test file", () => {
  it("passes in full against this package with real bwrap", async () => {
    expect(
      existsSync(builtEntry),
      "build the package first (pnpm --filter @paperclipai/adapter-utils build)",
    ).toBe(true);
    // Inside the package's node_modules so `vitest` resolves, and git and biome ignore it.
    const base = path.join(packageDir, "node_modules", ".cache");
    await mkdir(base, { recursive: true });
    const workDir = tempDirForTest("upstream-conformance-", { base });
    for (const name of ["local-process-sandbox.test.js", "local-process-sandbox.test.js.map"]) {
      await copyFile(path.join(upstreamDist, name), path.join(workDir, name));
    }
    await writeFile(path.join(workDir, "package.json"), '{ "type": "module" }\n');
    await writeFile(
      path.join(workDir, "local-process-sandbox.js"),
      `export * from ${JSON.stringify(builtEntry)};\n`,
    );
    await writeFile(
      path.join(workDir, "server-utils.js"),
      `export { runChildProcess } from ${JSON.stringify(builtEntry)};\n`,
    );
    await writeFile(
      path.join(workDir, "vitest.config.js"),
      'export default { test: { include: ["*.test.js"], exclude: [], testTimeout: 60000 } };\n',
    );
    const reportPath = path.join(workDir, "report.json");
    const vitest = path.join(repoRoot, "node_modules", "vitest", "vitest.mjs");
    // cwd is the repository root: upstream's build case runs `node_modules/.bin/tsc -p
    // packages/adapter-utils/tsconfig.json` there, inside a workspace-scope sandbox.
    const run = await new Promise<{ code: number | null; output: string }>((resolve) => {
      execFile(
        process.execPath,
        [
          vitest,
          "run",
          "--config",
          path.join(workDir!, "vitest.config.js"),
          "--root",
          workDir!,
          "--reporter=json",
          `--outputFile=${reportPath}`,
        ],
        {
          cwd: repoRoot,
          env: { ...process.env, PAPERCLIP_TEST_BWRAP: "/usr/bin/bwrap", PAPERCLIP_TEST_SANDBOX_BUILD: "1" },
          maxBuffer: 16 * 1024 * 1024,
        },
        (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: stdout + stderr }),
      );
    });
    const report = JSON.parse(await readFile(reportPath, "utf8")) as VitestJsonReport;
    const results = report.testResults.flatMap((file) => file.assertionResults);
    const failed = results.filter((result) => result.status === "failed");
    expect(failed.map((result) => `${result.title}: ${result.failureMessages.join("\n")}`)).toEqual([]);
    expect(run.code, run.output).toBe(0);
    // Only the non-Linux case is skipped on this platform; every bwrap case ran.
    const skipped = results.filter((result) => result.status !== "passed").map((result) => result.title);
    expect(skipped).toEqual(["rejects sandbox scopes on unsupported hosts"]);
    expect(report.numPassedTests).toBe(14);
  }, 180_000);
});
