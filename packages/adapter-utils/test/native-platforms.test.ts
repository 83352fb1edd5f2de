import { accessSync, constants } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { NATIVE_BRIDGE_FILE_NAME, NATIVE_BRIDGE_VERSION_LINE } from "../src/bridge/native-bridge-path.js";
import { exec, packageDir } from "./sandbox-support.js";

/** The architectures the package ships a binary for (scripts/build-native-bridge.mjs), by ELF machine name. */
const SHIPPED = { x64: "Advanced Micro Devices X86-64", arm64: "AArch64" } as const;

function shipped(arch: keyof typeof SHIPPED): string {
  return path.join(packageDir, "dist", "native", `linux-${arch}`, NATIVE_BRIDGE_FILE_NAME);
}

/** qemu-user from Debian (`qemu-user-static` or `qemu-user`), which `bash scripts/provision.sh` installs. */
function qemuAarch64(): string {
  for (const name of ["qemu-aarch64-static", "qemu-aarch64"]) {
    for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
      const candidate = path.join(dir, name);
      try {
        accessSync(candidate, constants.X_OK);
        return candidate;
      } catch {}
    }
  }
  throw new Error(
    "no qemu-aarch64 on PATH: run `bash scripts/provision.sh` (apt-get install qemu-user-static)",
  );
}

async function readelf(flag: string, binary: string): Promise<string> {
  const run = await exec("readelf", ["-W", flag, binary]);
  expect(run.code, run.stderr).toBe(0);
  return run.stdout;
}

describe("the shipped native binaries", () => {
  it.each(Object.keys(SHIPPED) as (keyof typeof SHIPPED)[])(
    "linux-%s is a static, hardened PIE for its architecture",
    async (arch) => {
      const binary = shipped(arch);
      expect(await readelf("-h", binary)).toContain(`Machine:                           ${SHIPPED[arch]}`);
      const segments = await readelf("-l", binary);
      expect(segments).toContain("Position-Independent Executable");
      // Static: no program interpreter, so it runs in a sandbox whatever libc the host has.
      expect(segments).not.toContain("INTERP");
      expect(segments).toContain("GNU_RELRO");
      expect(segments).toMatch(/GNU_STACK\s+(?:\S+\s+){5}RW\s/);
      expect(await readelf("-d", binary)).toMatch(/FLAGS_1\)\s+Flags: NOW PIE/);
    },
  );

  it("the linux-arm64 binary starts under qemu-user: answers the probe and runs its cgroup launcher", async () => {
    const qemu = qemuAarch64();
    const version = await exec(qemu, [shipped("arm64"), "--version"]);
    expect(version).toEqual({ code: 0, stdout: NATIVE_BRIDGE_VERSION_LINE, stderr: "" });
    // /dev/null takes the pid as a cgroup.procs file would; the launcher then becomes the command.
    const launched = await exec(qemu, [
      shipped("arm64"),
      "--cgroup",
      "/dev/null",
      "--",
      "/bin/echo",
      "launched",
    ]);
    expect(launched).toEqual({ code: 0, stdout: "launched\n", stderr: "" });
  });
});
