// Builds the native binaries as static, hardened binaries for every Linux architecture the
// package ships, into dist/native/linux-<arch>/, where the package looks for them at run
// time (src/bridge/native-bridge-path.ts):
//   paperclip-sandbox-bridge  native/*.c: the in-sandbox bridge, the host's courier, the
//                             --cgroup launchers; glibc, static-pie
//   paperclip-sandbox-exec    native/exec-shim/: the exec shim of the scopes without a
//                             bridge; freestanding (no libc), static-pie, nothing to relocate
// A missing compiler
// fails the build, naming what to install: a package without its binaries would quietly
// fall back to the slower Node bridge. PAPERCLIP_NATIVE_BUILD=skip is the documented
// opt-out for a platform that cannot build them (the runtime then uses the Node bridge).
//
//   node scripts/build-native-bridge.mjs               every shipped architecture
//   node scripts/build-native-bridge.mjs --sanitize    this machine's only, dynamic, with
//       ASan+UBSan, into dist/native-sanitized/ (the test command's sanitizer run)
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const sourceDir = path.join(packageDir, "native");
const bridgeSources = readdirSync(sourceDir)
  .filter((name) => name.endsWith(".c"))
  .sort()
  .map((name) => path.join(sourceDir, name));
const shimSources = [path.join(sourceDir, "exec-shim", "exec-shim.c")];
const expectedVersion = "paperclip-sandbox-bridge 4\n";
const INSTALL_HINT =
  "run `bash scripts/provision.sh` (or `apt-get install build-essential gcc-aarch64-linux-gnu libc6-dev-arm64-cross`), " +
  "or set PAPERCLIP_NATIVE_BUILD=skip on a platform that cannot build it (the sandbox then uses its Node bridge)";

/** Node's arch name → the GNU triple of Debian's cross compiler for it. */
const SHIPPED = { x64: "x86_64-linux-gnu", arm64: "aarch64-linux-gnu" };

const WARNINGS = [
  "-Wall",
  "-Wextra",
  "-Werror",
  "-Wformat=2",
  "-Wshadow",
  "-Wconversion",
  "-Wno-sign-conversion",
  "-Wstrict-prototypes",
  "-Wmissing-prototypes",
  "-Wvla",
  "-Wimplicit-fallthrough",
  "-Wnull-dereference",
];
const HARDENING = [
  "-O2",
  "-D_FORTIFY_SOURCE=2",
  "-fstack-protector-strong",
  "-fstack-clash-protection",
  "-fPIE",
  "-Wl,-z,relro,-z,now",
  "-Wl,-z,noexecstack",
];
/*
 * The exec shim has no libc, so nothing runs before its own _start: no stack protector (its
 * canary lives in libc's thread-local storage, which nobody sets up), and no code that
 * would need a load-time relocation (no loader applies one): no vectorised stores of
 * addresses, no calls the compiler invents (memset, memcpy). The build checks that the
 * result has no relocations at all.
 */
const FREESTANDING = [
  "-O2",
  "-ffreestanding",
  "-nostdlib",
  "-fno-stack-protector",
  "-fstack-clash-protection",
  "-fno-tree-loop-distribute-patterns",
  "-fno-tree-vectorize",
  "-fno-asynchronous-unwind-tables",
  "-fPIE",
  "-Wl,-z,relro,-z,now",
  "-Wl,-z,noexecstack",
];

function fail(message) {
  console.error(`native bridge build failed: ${message}`);
  process.exit(1);
}

function compilerFor(arch) {
  if (arch === process.arch) return process.env.CC || "cc";
  return `${SHIPPED[arch]}-gcc`;
}

function compile(compiler, flags, output, sources) {
  mkdirSync(path.dirname(output), { recursive: true });
  const run = spawnSync(compiler, [...flags, "-o", output, ...sources], { encoding: "utf8" });
  if (run.error) fail(`${compiler}: ${run.error.code ?? run.error.message}; ${INSTALL_HINT}`);
  if (run.status !== 0) fail(`${compiler} ${flags.join(" ")}:\n${run.stderr}`);
}

/** The host architecture's binary must answer the probe exactly as the package expects. */
function probe(output) {
  const run = spawnSync(output, ["--version"], { encoding: "utf8" });
  if (run.status !== 0 || run.stdout !== expectedVersion)
    fail(`${output} does not run: ${run.error?.code ?? `status ${run.status}`} ${run.stderr ?? ""}`);
}

/** The shim must become the program it is given, on this machine's architecture. */
function probeShim(output) {
  const run = spawnSync(output, ["/bin/sh", "-c", "echo started"], { encoding: "utf8" });
  if (run.status !== 0 || run.stdout !== "started\n")
    fail(
      `${output} does not start a program: ${run.error?.code ?? `status ${run.status}`} ${run.stderr ?? ""}`,
    );
}

/** A binary without a loader must not need one: any relocation would be left unapplied. */
function requireNoRelocations(output) {
  const run = spawnSync("readelf", ["-r", output], { encoding: "utf8" });
  if (run.error) fail(`readelf: ${run.error.code ?? run.error.message}; ${INSTALL_HINT}`);
  if (run.status !== 0 || !run.stdout.includes("There are no relocations in this file."))
    fail(`${output} has relocations, which nothing would apply:\n${run.stdout}${run.stderr}`);
}

if (process.env.PAPERCLIP_NATIVE_BUILD === "skip") {
  console.warn(
    "native bridge not built (PAPERCLIP_NATIVE_BUILD=skip); the sandbox will use its Node bridge.",
  );
  process.exit(0);
}
if (process.platform !== "linux") {
  console.warn(
    `native bridge not built: it is Linux-only, this is ${process.platform}; the sandbox is Linux-only too.`,
  );
  process.exit(0);
}

if (process.argv.includes("--sanitize")) {
  const output = path.join(
    packageDir,
    "dist",
    "native-sanitized",
    `linux-${process.arch}`,
    "paperclip-sandbox-bridge",
  );
  rmSync(path.dirname(output), { recursive: true, force: true });
  const sanitize = [
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=undefined",
    "-fno-omit-frame-pointer",
    "-g",
  ];
  compile(
    compilerFor(process.arch),
    ["-std=c11", ...WARNINGS, "-O1", ...sanitize, "-pthread"],
    output,
    bridgeSources,
  );
  probe(output);
  console.log(`native bridge built (ASan+UBSan, dynamic): ${path.relative(packageDir, output)}`);
  process.exit(0);
}

for (const arch of Object.keys(SHIPPED)) {
  const outputDir = path.join(packageDir, "dist", "native", `linux-${arch}`);
  const bridge = path.join(outputDir, "paperclip-sandbox-bridge");
  // Static: the binary then runs inside the sandbox whatever libc the host has.
  compile(
    compilerFor(arch),
    ["-std=c11", ...WARNINGS, ...HARDENING, "-static-pie", "-s", "-pthread"],
    bridge,
    bridgeSources,
  );
  if (arch === process.arch) probe(bridge);
  console.log(`native bridge built (static-pie, linux-${arch}): ${path.relative(packageDir, bridge)}`);
  const shim = path.join(outputDir, "paperclip-sandbox-exec");
  compile(
    compilerFor(arch),
    ["-std=c11", ...WARNINGS, ...FREESTANDING, "-static-pie", "-s"],
    shim,
    shimSources,
  );
  requireNoRelocations(shim);
  if (arch === process.arch) probeShim(shim);
  console.log(`exec shim built (freestanding static-pie, linux-${arch}): ${path.relative(packageDir, shim)}`);
}
