// The test command's sanitizer step: builds the native bridge with ASan+UBSan (dynamic; the
// sandbox binds /usr, so its runtime libraries are there) and runs the tests that drive the
// native binary — bridge, courier, tunnel handoff — once against it.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SANITIZED_TESTS = [
  "test/native-bridge.test.ts",
  "test/courier-and-binary.test.ts",
  "test/courier-backpressure.test.ts",
  "test/courier-ipc-frame.test.ts",
  "test/tunnel-handoff.test.ts",
  "test/process-boundary.test.ts",
  "src/handoff/handoff-wire.test.ts",
];

function run(command, args, env = process.env) {
  const result = spawnSync(command, args, { cwd: packageDir, env, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

run(process.execPath, ["scripts/build-native-bridge.mjs", "--sanitize"]);
const binary = path.join(
  packageDir,
  "dist",
  "native-sanitized",
  `linux-${process.arch}`,
  "paperclip-sandbox-bridge",
);
// Extra arguments (the test command's reporters) go to vitest.
run("vitest", ["run", ...SANITIZED_TESTS, ...process.argv.slice(2)], {
  ...process.env,
  PAPERCLIP_SANDBOX_NATIVE_BRIDGE_UNDER_TEST: binary,
  // A sanitizer finding ends the binary with a status no test expects, and says where on stderr.
  ASAN_OPTIONS: "abort_on_error=0:exitcode=86:detect_leaks=1",
  UBSAN_OPTIONS: "halt_on_error=1:exitcode=86:print_stacktrace=1",
});
