import { execFile } from "node:child_process";
import { realpathSync, rmSync } from "node:fs";
import path from "node:path";
import type { NativeBridgeProbe } from "./bridge-choice.js";
import { NATIVE_BRIDGE_VERSION_LINE } from "./native-bridge-path.js";
import { makePrivateCopy, privateCopyRoots } from "./private-native-bridge.js";

const PROBE_TIMEOUT_MS = 5_000;

/** `<binary> --version`: `null` when it answers as this package's bridge, else why not. */
function versionFailure(binary: string): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(binary, ["--version"], { timeout: PROBE_TIMEOUT_MS, encoding: "utf8" }, (error, stdout) => {
      if (!error && stdout === NATIVE_BRIDGE_VERSION_LINE) {
        resolve(null);
        return;
      }
      const failure = error as (Error & { code?: unknown; signal?: unknown }) | null;
      resolve(
        !failure
          ? `unexpected answer ${JSON.stringify(stdout.slice(0, 60))}`
          : typeof failure.code === "string"
            ? failure.code
            : failure.signal
              ? `killed by ${String(failure.signal)}`
              : `exit ${String(failure.code)}`,
      );
    });
  });
}

/**
 * Copies `<binary>` into a private root (`private-native-bridge.ts`) and runs the copy's
 * `--version` once: a binary built for another architecture or libc, a file without
 * execute permission or a root mounted `noexec` (the next root is tried) all fail here,
 * before a sandbox depends on it. The probe's path is the private copy, which is what
 * the courier runs and every sandbox binds.
 */
export async function probeNativeBridge(binary: string | null): Promise<NativeBridgeProbe> {
  const target = `${process.platform}-${process.arch}`;
  if (process.platform !== "linux") {
    return { status: "unsupported", path: binary, detail: `is Linux-only (this is ${process.platform})` };
  }
  let real: string;
  try {
    if (!binary) throw new Error("no package root");
    real = realpathSync.native(binary);
  } catch {
    return {
      status: "missing",
      path: binary,
      detail: `was not built for ${target} (no ${binary ?? "package root"}: binaries ship for linux-x64 and linux-arm64 only, and a build with PAPERCLIP_NATIVE_BUILD=skip makes none)`,
    };
  }
  let detail: string | null = null;
  let copyFailure = `cannot be copied into a private root (${privateCopyRoots().join(", ")})`;
  for (const root of privateCopyRoots()) {
    let copy: string;
    try {
      copy = makePrivateCopy(real, root).path;
    } catch (error) {
      copyFailure = `cannot be copied into ${root} (${String((error as { code?: unknown }).code ?? error)})`;
      continue;
    }
    const failure = await versionFailure(copy);
    if (failure === null) return { status: "ok", path: copy };
    // Not a bridge that runs here: its copy is not kept either.
    rmSync(path.dirname(copy), { recursive: true, force: true });
    detail = `cannot run (${copy}, copied from ${real}: ${failure})`;
  }
  // A copy that would not run says more than a root that took no copy.
  return { status: "failed", path: real, detail: detail ?? copyFailure };
}

const probes = new Map<string, Promise<NativeBridgeProbe>>();

/** The probe of a path, run once per process: a sandbox start pays for it only the first time. */
export function probeNativeBridgeOnce(binary: string | null): Promise<NativeBridgeProbe> {
  const key = binary ?? "";
  let probe = probes.get(key);
  if (!probe) {
    probe = probeNativeBridge(binary);
    probes.set(key, probe);
  }
  return probe;
}
