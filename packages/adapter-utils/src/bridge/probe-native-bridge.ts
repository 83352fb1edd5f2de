import { execFile } from "node:child_process";
import { realpathSync } from "node:fs";
import type { NativeBridgeProbe } from "./bridge-choice.js";
import { NATIVE_BRIDGE_VERSION_LINE } from "./native-bridge-path.js";

const PROBE_TIMEOUT_MS = 5_000;

/**
 * Runs `<binary> --version` once: a binary built for another architecture or libc,
 * a file without execute permission or a filesystem mounted `noexec` all fail
 * here, before a sandbox depends on it. The path is resolved to its real file,
 * which is what the sandbox binds.
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
      detail: `was not built for ${target} (no ${binary ?? "package root"}; the package build had no C compiler, or no binary ships for this architecture)`,
    };
  }
  return new Promise((resolve) => {
    execFile(real, ["--version"], { timeout: PROBE_TIMEOUT_MS, encoding: "utf8" }, (error, stdout) => {
      if (!error && stdout === NATIVE_BRIDGE_VERSION_LINE) {
        resolve({ status: "ok", path: real });
        return;
      }
      const failure = error as (Error & { code?: unknown; signal?: unknown }) | null;
      const why = !failure
        ? `unexpected answer ${JSON.stringify(stdout.slice(0, 60))}`
        : typeof failure.code === "string"
          ? failure.code
          : failure.signal
            ? `killed by ${String(failure.signal)}`
            : `exit ${String(failure.code)}`;
      resolve({ status: "failed", path: real, detail: `cannot run (${real}: ${why})` });
    });
  });
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
