import { execFile } from "node:child_process";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { promisify } from "node:util";
import { publishablePackages, repoRoot } from "@paperclipai/repo-checks/workspace-packages";
import { tempDirForFile } from "@paperclipai/test-support";
import { beforeAll, describe, expect, it } from "vitest";
import { typescriptBlocks } from "./readme-blocks.js";

const run = promisify(execFile);
const NPM_INSTALL_TIMEOUT_MS = 240_000;
const packageDirs = publishablePackages().map((pkg) => pkg.dir);

interface Manifest {
  name: string;
  exports: Record<string, unknown>;
  bin?: Record<string, string>;
}

const manifests: Manifest[] = [];
// Outside the workspace, so nothing resolves through pnpm's node_modules.
const workDir = tempDirForFile("paperclip-consumer-");
let consumerDir = "";

async function node(source: string, type: "module" | "commonjs"): Promise<string> {
  const file = path.join(consumerDir, type === "module" ? "probe.mjs" : "probe.cjs");
  await writeFile(file, source);
  const { stdout } = await run(process.execPath, [file], { cwd: consumerDir });
  return stdout.trim();
}

beforeAll(async () => {
  const tarballDir = path.join(workDir, "tarballs");
  consumerDir = path.join(workDir, "consumer");
  await mkdir(tarballDir);
  await mkdir(consumerDir);
  for (const dir of packageDirs) {
    manifests.push(JSON.parse(await readFile(path.join(repoRoot, dir, "package.json"), "utf8")) as Manifest);
    await run("pnpm", ["pack", "--pack-destination", tarballDir], { cwd: path.join(repoRoot, dir) });
  }
  const tarballs = (await readdir(tarballDir)).map((name) => path.join(tarballDir, name));
  expect(tarballs).toHaveLength(packageDirs.length);
  await writeFile(
    path.join(consumerDir, "package.json"),
    JSON.stringify({ name: "downstream-app", version: "1.0.0", private: true }),
  );
  // npm retries a failing registry fetch for minutes (an untrusted TLS chain looks like a hang):
  // one retry, and a kill before the hook times out, turn that into npm's own error message.
  await run(
    "npm",
    ["install", "--no-audit", "--no-fund", "--loglevel=error", "--fetch-retries=1", ...tarballs],
    { cwd: consumerDir, maxBuffer: 16 * 1024 * 1024, timeout: NPM_INSTALL_TIMEOUT_MS, killSignal: "SIGKILL" },
  );
}, NPM_INSTALL_TIMEOUT_MS + 60_000);

/**
 * The sandbox sets NODE_USE_ENV_PROXY=1 so that Node's own fetch and http use the bridge;
 * Node 22 announces the agent behind it as experimental on each Node process's stderr.
 */
function withoutEnvProxyWarning(stderr: string): string {
  return stderr
    .split("\n")
    .filter((line) => !/^\(node:\d+\) \[UNDICI-EHPA\] Warning:/.test(line))
    .filter((line) => !line.startsWith("(Use `node --trace-warnings"))
    .join("\n");
}

describe("the packed tarballs, installed with npm into a fresh project", () => {
  it("import every exports entry under ESM and under CJS", async () => {
    for (const manifest of manifests) {
      for (const subpath of Object.keys(manifest.exports)) {
        if (subpath === "./package.json") continue;
        const specifier = subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
        const viaImport = await node(
          `const m = await import(${JSON.stringify(specifier)}); console.log(Object.keys(m).length);`,
          "module",
        );
        const viaRequire = await node(
          `console.log(Object.keys(require(${JSON.stringify(specifier)})).length);`,
          "commonjs",
        );
        expect(Number(viaImport), `${specifier} (ESM)`).toBeGreaterThan(0);
        expect(Number(viaRequire), `${specifier} (CJS)`).toBeGreaterThan(0);
      }
    }
  }, 120_000);

  it("compile every README's TypeScript blocks (strict; node16 and bundler) and run them", async () => {
    // A user copies a block of the README npm shows into a file of their project: each stands alone.
    const blockDir = path.join(consumerDir, "readme-blocks");
    await mkdir(blockDir);
    const files: string[] = [];
    for (const { name } of manifests) {
      const readme = await readFile(path.join(consumerDir, "node_modules", name, "README.md"), "utf8");
      for (const [index, block] of typescriptBlocks(readme).entries()) {
        files.push(`${path.basename(name)}-${index}.mts`);
        await writeFile(path.join(blockDir, files.at(-1) as string), block);
      }
    }
    expect(files.length).toBeGreaterThanOrEqual(packageDirs.length);
    const require = createRequire(import.meta.url);
    const typeRoots = [path.dirname(path.dirname(require.resolve("@types/node/package.json")))];
    for (const [resolution, module] of [
      ["node16", "node16"],
      ["bundler", "preserve"],
    ]) {
      const compilerOptions = {
        strict: true,
        module,
        moduleResolution: resolution,
        target: "es2022",
        typeRoots,
      };
      const emit = resolution === "node16" ? { outDir: "out" } : { noEmit: true };
      const config = `tsconfig.${resolution}.json`;
      await writeFile(
        path.join(blockDir, config),
        JSON.stringify({ compilerOptions: { ...compilerOptions, types: ["node"], ...emit }, files }),
      );
      const tsc = await run(process.execPath, [require.resolve("typescript/bin/tsc"), "-p", config], {
        cwd: blockDir,
      }).catch((error: { stdout: string }) => ({ stdout: error.stdout, failed: true }));
      expect(tsc, `tsc (${resolution})`).toEqual({ stdout: "", stderr: "" });
    }
    // The blocks' temporary directories go below the test's own, even when a block fails.
    const tmp = path.join(workDir, "readme-tmp");
    await mkdir(tmp);
    for (const file of files) {
      const program = path.join(blockDir, "out", file.replace(/\.mts$/, ".mjs"));
      const outcome = await run(process.execPath, [program], {
        cwd: consumerDir,
        env: { ...process.env, TMPDIR: tmp },
      })
        .then(() => "ran")
        .catch((error: { stderr: string }) => error.stderr);
      expect(outcome, file).toBe("ran");
    }
  }, 180_000);

  it("do not expose files outside exports", async () => {
    const blocked = await node(
      `try { require("@paperclipai/errors/dist/index.cjs"); console.log("open"); } catch (e) { console.log(e.code); }`,
      "commonjs",
    );
    expect(blocked).toBe("ERR_PACKAGE_PATH_NOT_EXPORTED");
  });

  it("run every bin with --help", async () => {
    const bins = manifests.flatMap((manifest) => Object.keys(manifest.bin ?? {}));
    expect(bins.length).toBeGreaterThanOrEqual(4);
    for (const bin of bins) {
      const { stdout } = await run(path.join(consumerDir, "node_modules/.bin", bin), ["--help"], {
        cwd: consumerDir,
      });
      expect(stdout, bin).toMatch(/usage/i);
    }
  }, 60_000);

  it("run a program through adapter-utils' Node bridge, found in the installed package, from ESM and CJS", async () => {
    // The bridge is dist/node-bridge.cjs, not an exports entry: each build finds it from its own location.
    // The program's nearest ancestor that runs a bridge.cjs (the Node bridge keeps the program's
    // exit status through a shell between them), or the ancestors' scripts when none does.
    const program = `const http = require("node:http");
const fs = require("node:fs");
const scripts = [];
for (let pid = process.ppid; pid > 1 && scripts.length < 4; ) {
  scripts.push(fs.readFileSync("/proc/" + pid + "/cmdline", "utf8").split("\\0")[1]);
  pid = Number(fs.readFileSync("/proc/" + pid + "/stat", "utf8").split(") ")[1].split(" ")[1]);
}
const bridge = scripts.find((script) => /\\/bridge\\.cjs$/.test(script ?? "")) ?? scripts.join(" < ");
http.get({ host: "127.0.0.1", port: 31337, path: process.argv[1] + "/" }, (res) => {
  res.setEncoding("utf8");
  let body = "";
  res.on("data", (chunk) => (body += chunk));
  res.on("end", () => console.log(JSON.stringify({ bridge, body })));
});`;
    const probe = (load: string) => `${load}
const http = require("node:http");
const server = http.createServer((req, res) => res.end("relayed")).listen(0, "127.0.0.1", async () => {
  const origin = "http://127.0.0.1:" + server.address().port;
  const result = await runChildProcess("consumer", process.execPath, ["-e", ${JSON.stringify(program)}, origin], {
    cwd: process.cwd(), env: {}, timeoutSec: 20, graceSec: 1, onLog: async () => {},
    localProcessSandbox: {
      workspaceDir: process.cwd(), networkScope: "allowlist", networkTrustedUrls: [origin], networkBridge: "node",
    },
  });
  server.close();
  console.log(JSON.stringify({ exitCode: result.exitCode, stderr: result.stderr, ...JSON.parse(result.stdout || "{}") }));
});`;
    const viaImport = await node(
      probe(`import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const { runChildProcess } = await import("@paperclipai/adapter-utils/local-process-sandbox");`),
      "module",
    );
    const viaRequire = await node(
      probe(`const { runChildProcess } = require("@paperclipai/adapter-utils/local-process-sandbox");`),
      "commonjs",
    );
    for (const [build, output] of [
      ["ESM", viaImport],
      ["CJS", viaRequire],
    ] as const) {
      const result = JSON.parse(output) as { stderr: string };
      expect({ ...result, stderr: withoutEnvProxyWarning(result.stderr) }, build).toEqual({
        exitCode: 0,
        stderr: "",
        bridge: expect.stringMatching(/\/bridge\.cjs$/),
        body: "relayed",
      });
    }
  }, 60_000);

  it("recognise an error thrown by one package through @paperclipai/errors loaded by the consumer", async () => {
    // The consumer imports the ESM build of errors; the throwing packages are loaded through CJS.
    const verdict = await node(
      `import { createRequire } from "node:module";
import { PaperclipError, SandboxError, RunnerError } from "@paperclipai/errors";
const require = createRequire(import.meta.url);
const results = [];
try { require("@paperclipai/adapter-utils").parseLocalProcessNetworkScope("everything"); }
catch (error) { results.push(error instanceof SandboxError, PaperclipError.is(error), error.code); }
try { await require("@paperclipai/paperclip-runner/diagnostics").verifyPrivateDiagnosticsDirectory("/nonexistent/paperclip-dir"); }
catch (error) { results.push(error instanceof RunnerError, PaperclipError.is(error), typeof error.code); }
console.log(JSON.stringify(results));`,
      "module",
    );
    const [sandboxIs, sandboxBrand, sandboxCode, runnerIs, runnerBrand, runnerCode] = JSON.parse(
      verdict,
    ) as unknown[];
    expect([sandboxIs, sandboxBrand, runnerIs, runnerBrand]).toEqual([true, true, true, true]);
    expect(sandboxCode).toMatch(/^ERR_SANDBOX_/);
    expect(runnerCode).toBe("string");
  }, 30_000);
});
