import { describe, expect, it } from "vitest";
import { seccompData as call, run } from "./bpf-program.js";
import { ENOSYS, EPERM, SECCOMP_RET_ALLOW, sandboxFilterProgram } from "./sandbox-filter.js";
import { AUDIT_ARCH, type FilterArch, SYSCALLS } from "./syscall-numbers.js";

const ERRNO = 0x00050000;
const DENY = ERRNO | EPERM;
const O_CREAT = 0o100;
const O_TMPFILE = 0o20200000; // __O_TMPFILE | O_DIRECTORY, as glibc passes it
const O_WRONLY = 1;
const S_IFREG = 0o100000;

describe.each<FilterArch>(["x64", "arm64"])("set-user-ID and set-group-ID modes on %s", (arch) => {
  const program = sandboxFilterProgram(arch);
  const decide = (name: keyof typeof SYSCALLS, args: number[]) => {
    const nr = SYSCALLS[name][arch];
    return nr === null ? null : run(program, call(AUDIT_ARCH[arch], nr, args));
  };
  const expectWhereItExists = (name: keyof typeof SYSCALLS, args: number[], result: number) => {
    if (SYSCALLS[name][arch] !== null) expect(decide(name, args), `${name}(${args})`).toBe(result);
  };

  it("refuses a mode with either bit wherever a call sets one, and allows every other mode", () => {
    const setters: [keyof typeof SYSCALLS, (mode: number) => number[]][] = [
      ["chmod", (mode) => [0, mode]],
      ["fchmod", (mode) => [3, mode]],
      ["creat", (mode) => [0, mode]],
      ["fchmodat", (mode) => [-100 >>> 0, 0, mode]],
      ["fchmodat2", (mode) => [-100 >>> 0, 0, mode, 0]],
      ["mknod", (mode) => [0, S_IFREG | mode, 0]],
      ["mknodat", (mode) => [-100 >>> 0, 0, S_IFREG | mode, 0]],
      ["open", (mode) => [0, O_CREAT | O_WRONLY, mode]],
      ["openat", (mode) => [-100 >>> 0, 0, O_CREAT | O_WRONLY, mode]],
      ["openat", (mode) => [-100 >>> 0, 0, O_TMPFILE | O_WRONLY, mode]],
    ];
    for (const [name, args] of setters) {
      for (const mode of [0o4755, 0o2755, 0o6777, 0o4000, 0o2000])
        expectWhereItExists(name, args(mode), DENY);
      // The high word is no way around it: the kernel reads the low one.
      expectWhereItExists(name, args(2 ** 32 + 0o4755), DENY);
      for (const mode of [0, 0o644, 0o755, 0o777, 0o1777, 2 ** 32 + 0o755])
        expectWhereItExists(name, args(mode), SECCOMP_RET_ALLOW);
    }
  });

  it("lets open pass any mode when it creates nothing (the kernel ignores the mode then)", () => {
    expectWhereItExists("open", [0, 0, 0o4755], SECCOMP_RET_ALLOW);
    expectWhereItExists("openat", [-100 >>> 0, 0, O_WRONLY, 0o6777], SECCOMP_RET_ALLOW);
  });

  it("makes openat2, whose mode the filter cannot read, unavailable", () => {
    expect(decide("openat2", [-100 >>> 0, 0, 0, 24])).toBe(ERRNO | ENOSYS);
  });
});
