// Static analysis of the native bridge's C sources (native/*.c): cppcheck with every check on
// must report nothing. Part of `check:package`, the test command's first step.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const args = [
  "--enable=all",
  "--std=c11",
  "--error-exitcode=1",
  "--inline-suppr",
  "--quiet",
  "-D_GNU_SOURCE",
  // The system headers are the compiler's business; cppcheck checks our code.
  "--suppress=missingIncludeSystem",
  "native/",
];
const run = spawnSync("cppcheck", args, { cwd: packageDir, stdio: "inherit" });
if (run.error) {
  console.error(
    `check:native: cppcheck: ${run.error.code ?? run.error.message}; run \`bash scripts/provision.sh\` (or \`apt-get install cppcheck\`)`,
  );
  process.exit(1);
}
if (run.status !== 0) {
  console.error("check:native: cppcheck found problems in native/*.c (above)");
  process.exit(1);
}
console.log("check:native: cppcheck is clean over native/*.c");
