import { usableNativeBinary } from "../bridge/bridge-launch.js";
import { DENIED_SYSCALLS, filterArch, UNAVAILABLE_SYSCALLS } from "../seccomp/sandbox-filter.js";
import { DEFAULT_MAX_PROCESSES, findPidsHierarchy } from "../spawn/run-cgroup.js";
import type { DoctorCheck } from "./doctor-check.js";
import { failedProbe, runDoctorProbe } from "./doctor-probe.js";

/** Exits 0 when the kernel says a seccomp filter holds the program (`Seccomp: 2`), 5 when none does. */
const SECCOMP_PROBE =
  'process.exit(/^Seccomp:\\s*2$/m.test(require("node:fs").readFileSync("/proc/self/status", "utf8")) ? 0 : 5);';

/** Whether the sandbox's seccomp filter is active: a real sandbox reads its own status. */
export async function checkSeccompFilter(bwrap: string, baseDir: string): Promise<DoctorCheck> {
  const name = "seccomp filter";
  const arch = filterArch();
  if (!arch) {
    return {
      name,
      status: "warn",
      detail: `no syscall table for ${process.arch}: programs run without a filter`,
    };
  }
  try {
    const result = await runDoctorProbe(baseDir, SECCOMP_PROBE, {
      filesystemScope: "workspace",
      networkScope: "deny",
      command: bwrap,
    });
    const summary = `${arch}: ${DENIED_SYSCALLS.length} calls denied, ${UNAVAILABLE_SYSCALLS.length} unavailable, other architectures and x32 killed`;
    if (result.exitCode === 0) return { name, status: "ok", detail: `active (${summary})` };
    return {
      name,
      status: "fail",
      detail: `not active in the sandbox (exit ${result.exitCode ?? result.signal})`,
    };
  } catch (error) {
    return failedProbe(name, error);
  }
}

/** How a run's processes are bounded and ended: the cgroup pids limit, or pid 1 alone. */
export async function checkRunLimits(): Promise<DoctorCheck> {
  const name = "process limit";
  const launcher = await usableNativeBinary();
  const hierarchy = findPidsHierarchy();
  if (launcher && hierarchy) {
    return {
      name,
      status: "ok",
      detail: `each run in its own cgroup (v${hierarchy.version}, under ${hierarchy.parent}): pids.max ${DEFAULT_MAX_PROCESSES} by default (maxProcesses), killed whole when it ends`,
    };
  }
  return {
    name,
    status: "warn",
    detail: `${launcher ? "no writable cgroup with the pids controller" : "no native binary to join a cgroup"}: no pids limit; a run is still ended whole through its pid 1`,
  };
}
