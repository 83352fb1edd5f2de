// Static analysis of the native C sources: cppcheck with every check on must report nothing.
// The bridge (native/*.c) is checked once; the freestanding exec shim (native/exec-shim/) once
// per architecture it is written for, since its system calls differ by architecture (and
// any other one stops at its #error). Part of `check:package`, the test command's first step.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const common = [
  "--enable=all",
  "--std=c11",
  "--error-exitcode=1",
  "--inline-suppr",
  "--quiet",
  // The system headers are the compiler's business; cppcheck checks our code.
  "--suppress=missingIncludeSystem",
];
const runs = [
  { what: "native/*.c", args: ["-D_GNU_SOURCE", "-i", "native/exec-shim", "native/"] },
  { what: "native/exec-shim/ (x86_64)", args: ["-D__x86_64__", "native/exec-shim/"] },
  { what: "native/exec-shim/ (aarch64)", args: ["-D__aarch64__", "native/exec-shim/"] },
];
for (const { what, args } of runs) {
  const run = spawnSync("cppcheck", [...common, ...args], { cwd: packageDir, stdio: "inherit" });
  if (run.error) {
    console.error(
      `check:native: cppcheck: ${run.error.code ?? run.error.message}; run \`bash scripts/provision.sh\` (or \`apt-get install cppcheck\`)`,
    );
    process.exit(1);
  }
  if (run.status !== 0) {
    console.error(`check:native: cppcheck found problems in ${what} (above)`);
    process.exit(1);
  }
}
console.log(`check:native: cppcheck is clean over ${runs.map((run) => run.what).join(", ")}`);
