import { execFile } from "node:child_process";
import { realpathSync, rmSync } from "node:fs";
import path from "node:path";
import type { NativeBridgeProbe } from "./bridge-choice.js";
import {
  EXEC_SHIM_FILE_NAME,
  EXEC_SHIM_USAGE_LINE,
  NATIVE_BRIDGE_FILE_NAME,
  NATIVE_BRIDGE_VERSION_LINE,
} from "./native-bridge-path.js";
import { makePrivateCopy, privateCopyRoots } from "./private-native-bridge.js";

const PROBE_TIMEOUT_MS = 5_000;

/** A native binary the package ships: its file name, and the run that proves it works here. */
export interface NativeBinaryKind {
  readonly fileName: string;
  readonly args: readonly string[];
  readonly answer: { readonly code: number; readonly stdout: string; readonly stderr: string };
}

/** The bridge answers `--version` with the version line this package drives. */
export const NATIVE_BRIDGE_KIND: NativeBinaryKind = {
  fileName: NATIVE_BRIDGE_FILE_NAME,
  args: ["--version"],
  answer: { code: 0, stdout: NATIVE_BRIDGE_VERSION_LINE, stderr: "" },
};

/** The exec shim, given no program, says how it is used and exits 125 (it execs nothing). */
export const EXEC_SHIM_KIND: NativeBinaryKind = {
  fileName: EXEC_SHIM_FILE_NAME,
  args: [],
  answer: { code: 125, stdout: "", stderr: EXEC_SHIM_USAGE_LINE },
};

/** The probe's run of `binary`: `null` when it answers as `kind` should, else why not. */
/** The binary's real path, or `null` when it is not there (never built for this platform). */
function realPathOrNull(binary: string): string | null {
  try {
    return realpathSync.native(binary);
  } catch {
    return null;
  }
}

function answerFailure(binary: string, kind: NativeBinaryKind): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(
      binary,
      [...kind.args],
      { timeout: PROBE_TIMEOUT_MS, encoding: "utf8" },
      (error, stdout, stderr) => {
        const failure = error as (Error & { code?: unknown; signal?: unknown }) | null;
        const code = failure ? failure.code : 0;
        const { answer } = kind;
        if (code === answer.code && stdout === answer.stdout && stderr === answer.stderr) {
          resolve(null);
          return;
        }
        resolve(
          typeof code === "string"
            ? code
            : failure?.signal
              ? `killed by ${String(failure.signal)}`
              : code !== answer.code
                ? `exit ${String(code)}`
                : `unexpected answer ${JSON.stringify((stdout || stderr).slice(0, 60))}`,
        );
      },
    );
  });
}

/**
 * Copies `<binary>` into a private root (`private-native-bridge.ts`) and runs the copy
 * once as `kind` says (the bridge's `--version`, the shim without a program): a binary built for another architecture or libc, a file without
 * execute permission or a root mounted `noexec` (only then is the next root tried) all fail here,
 * before a sandbox depends on it. The probe's path is the private copy, which is what
 * the courier runs and every sandbox binds.
 */
export async function probeNativeBridge(
  binary: string | null,
  kind: NativeBinaryKind = NATIVE_BRIDGE_KIND,
): Promise<NativeBridgeProbe> {
  const target = `${process.platform}-${process.arch}`;
  if (process.platform !== "linux") {
    return { status: "unsupported", path: binary, detail: `is Linux-only (this is ${process.platform})` };
  }
  const real = binary ? realPathOrNull(binary) : null;
  if (real === null) {
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
      copy = makePrivateCopy(real, root, kind.fileName).path;
    } catch (error) {
      copyFailure = `cannot be copied into ${root} (${String((error as { code?: unknown }).code ?? error)})`;
      continue;
    }
    const failure = await answerFailure(copy, kind);
    if (failure === null) return { status: "ok", path: copy };
    // Not a binary that runs here: its copy is not kept either.
    rmSync(path.dirname(copy), { recursive: true, force: true });
    detail = `cannot run (${copy}, copied from ${real}: ${failure})`;
    // Only a root whose mount forbids running files (`noexec`: EACCES) is the root's fault; a
    // binary that ran and answered wrong, or that the kernel cannot run, fails in every root.
    if (failure !== "EACCES") break;
  }
  // A copy that would not run says more than a root that took no copy.
  return { status: "failed", path: real, detail: detail ?? copyFailure };
}

const probes = new Map<string, Promise<NativeBridgeProbe>>();

/** The probe of a path, run once per process: a sandbox start pays for it only the first time. */
export function probeNativeBridgeOnce(
  binary: string | null,
  kind: NativeBinaryKind = NATIVE_BRIDGE_KIND,
): Promise<NativeBridgeProbe> {
  const key = `${kind.fileName}:${binary ?? ""}`;
  let probe = probes.get(key);
  if (!probe) {
    probe = probeNativeBridge(binary, kind);
    probes.set(key, probe);
  }
  return probe;
}
