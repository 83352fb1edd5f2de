// Builds the native bridge (native/*.c: the in-sandbox bridge and the host's courier) for this machine into
// dist/native/<platform>-<arch>/paperclip-sandbox-bridge, where the package looks
// for it (src/bridge/native-bridge-path.ts). Without a C compiler, or when the
// result does not run, it builds nothing and says so: the package then starts
// its Node bridge instead, so a build never fails for want of a compiler.
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const sourceDir = path.join(packageDir, "native");
const sources = readdirSync(sourceDir)
  .filter((name) => name.endsWith(".c"))
  .sort()
  .map((name) => path.join(sourceDir, name));
const outputDir = path.join(packageDir, "dist", "native", `${process.platform}-${process.arch}`);
const output = path.join(outputDir, "paperclip-sandbox-bridge");
const expectedVersion = "paperclip-sandbox-bridge 3\n";

function skip(reason) {
  console.warn(`native bridge not built (${reason}); the sandbox will use its Node bridge.`);
  process.exit(0);
}

if (process.platform !== "linux") skip(`the bridge is Linux-only, this is ${process.platform}`);
const compiler = process.env.CC || "cc";
mkdirSync(outputDir, { recursive: true });
const common = ["-std=c11", "-O2", "-s", "-Wall", "-Wextra", "-pthread", "-o", output, ...sources];
// Static first: the binary then runs inside the sandbox whatever libc the host has.
let compiled = null;
for (const flags of [["-static", ...common], common]) {
  const run = spawnSync(compiler, flags, { encoding: "utf8" });
  if (run.error) skip(`${compiler}: ${run.error.code ?? run.error.message}`);
  if (run.status === 0) {
    compiled = flags.includes("-static") ? "static" : "dynamic";
    break;
  }
  console.warn(`${compiler} ${flags.join(" ")} failed:\n${run.stderr}`);
}
if (!compiled) {
  rmSync(outputDir, { recursive: true, force: true });
  skip(`${compiler} could not compile ${path.relative(packageDir, sourceDir)}`);
}
const probe = spawnSync(output, ["--version"], { encoding: "utf8" });
if (probe.status !== 0 || probe.stdout !== expectedVersion) {
  rmSync(outputDir, { recursive: true, force: true });
  skip(`the built binary does not run: ${probe.error?.code ?? `status ${probe.status}`}`);
}
console.log(`native bridge built (${compiled}): ${path.relative(packageDir, output)}`);
