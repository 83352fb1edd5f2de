import { describe, expect, it } from "vitest";
import { seccompData as call, encode, run } from "./bpf-program.js";
import {
  ALLOWED_NETLINK_PROTOCOLS,
  ALLOWED_SOCKET_FAMILIES,
  DENIED_SYSCALLS,
  EAFNOSUPPORT,
  EINVAL,
  ENOSYS,
  EPERM,
  EPROTONOSUPPORT,
  SECCOMP_RET_ALLOW,
  SECCOMP_RET_KILL_PROCESS,
  sandboxFilterBytes,
  sandboxFilterProgram,
  UNAVAILABLE_SYSCALLS,
} from "./sandbox-filter.js";
import { AUDIT_ARCH, type FilterArch, SYSCALLS, X32_SYSCALL_BIT } from "./syscall-numbers.js";

const ERRNO = 0x00050000;
const AUDIT_ARCH_I386 = 0x40000003;
const CLONE_NEWUSER = 0x10000000;
const CLONE_THREAD_FLAGS = 0x3d0f00; // what glibc's pthread_create passes
const CLONE_NEWTIME = 0x80;

describe.each<FilterArch>(["x64", "arm64"])("the sandbox's seccomp filter on %s", (arch) => {
  const program = sandboxFilterProgram(arch);
  const native = AUDIT_ARCH[arch];
  const decide = (name: keyof typeof SYSCALLS, args?: number[]) =>
    run(program, call(native, SYSCALLS[name][arch] as number, args));

  it("denies every listed call with EPERM and the unavailable ones with ENOSYS", () => {
    for (const name of DENIED_SYSCALLS) {
      if (SYSCALLS[name][arch] === null) continue;
      expect(decide(name), name).toBe(ERRNO | EPERM);
    }
    for (const name of UNAVAILABLE_SYSCALLS) expect(decide(name), name).toBe(ERRNO | ENOSYS);
  });

  it("allows ordinary calls, threads and plain forks", () => {
    for (const nr of [0, 1, 2, 3, 9, 57, 59, 61, 62, 200, 231, 281, 439]) {
      const denied = Object.values(SYSCALLS).some((numbers) => numbers[arch] === nr);
      if (!denied) expect(run(program, call(native, nr)), String(nr)).toBe(SECCOMP_RET_ALLOW);
    }
    expect(decide("clone", [CLONE_THREAD_FLAGS])).toBe(SECCOMP_RET_ALLOW);
    expect(decide("clone", [17])).toBe(SECCOMP_RET_ALLOW); // fork(): SIGCHLD only
    expect(decide("unshare", [0x400])).toBe(SECCOMP_RET_ALLOW); // CLONE_FILES
    expect(decide("ioctl", [1, 0x5401])).toBe(SECCOMP_RET_ALLOW); // TCGETS
  });

  it("denies a new namespace through clone or unshare, and terminal injection", () => {
    expect(decide("clone", [CLONE_NEWUSER | 17])).toBe(ERRNO | EPERM);
    expect(decide("unshare", [CLONE_NEWUSER])).toBe(ERRNO | EPERM);
    expect(decide("unshare", [CLONE_NEWTIME])).toBe(ERRNO | EPERM);
    expect(decide("ioctl", [0, 0x5412])).toBe(ERRNO | EPERM);
    expect(decide("ioctl", [0, 0x541c])).toBe(ERRNO | EPERM);
  });

  it("denies the terminal changes that outlive the program: line discipline, exclusive mode, stopped output", () => {
    for (const request of [0x5423, 0x540c, 0x540a]) {
      expect(decide("ioctl", [0, request]), request.toString(16)).toBe(ERRNO | EPERM);
      // The kernel compares the command as an unsigned int: high bits hide none of them.
      expect(decide("ioctl", [0, 2 ** 32 + request]), request.toString(16)).toBe(ERRNO | EPERM);
    }
    // Reading them stays allowed: TIOCGETD, TIOCGEXCL, and TIOCNXCL, which clears exclusive mode.
    for (const request of [0x5424, 0x80045440, 0x540d]) {
      expect(decide("ioctl", [0, request]), request.toString(16)).toBe(SECCOMP_RET_ALLOW);
    }
  });

  it("denies a file lease, which stalls the host's writers of a file the program may only read", () => {
    const F_SETLEASE = 1024;
    expect(decide("fcntl", [3, F_SETLEASE, 0])).toBe(ERRNO | EPERM); // F_RDLCK
    // The kernel compares the command as an unsigned int: high bits hide nothing.
    expect(decide("fcntl", [3, 2 ** 32 + F_SETLEASE, 0])).toBe(ERRNO | EPERM);
    // F_DUPFD, F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_SETLK, F_SETLKW, F_OFD_SETLK, F_DUPFD_CLOEXEC,
    // F_GETLEASE, F_NOTIFY, F_SETPIPE_SZ, F_ADD_SEALS: what programs and their runtimes use.
    for (const command of [0, 1, 2, 3, 4, 6, 7, 37, 1030, 1025, 1026, 1031, 1033]) {
      expect(decide("fcntl", [3, command]), String(command)).toBe(SECCOMP_RET_ALLOW);
    }
  });

  it("refuses O_DIRECT through F_SETFL, which makes a shared pipe a packet pipe for its other writers", () => {
    const O_DIRECT = arch === "x64" ? 0o40000 : 0o200000;
    const O_WRONLY = 1;
    expect(decide("fcntl", [1, 4, O_WRONLY | O_DIRECT])).toBe(ERRNO | EINVAL);
    // The kernel takes the command and the flags as unsigned ints: high bits hide nothing.
    expect(decide("fcntl", [1, 2 ** 32 + 4, 2 ** 32 + O_DIRECT])).toBe(ERRNO | EINVAL);
    // O_NONBLOCK, O_APPEND and O_ASYNC are still set, and so is the other architecture's
    // O_DIRECT bit (O_DIRECTORY here, which F_SETFL ignores).
    const otherDirect = arch === "x64" ? 0o200000 : 0o40000;
    for (const flags of [O_WRONLY | 0o4000, 0o2000, 0o20000, otherDirect]) {
      expect(decide("fcntl", [1, 4, flags]), flags.toString(8)).toBe(SECCOMP_RET_ALLOW);
    }
    // F_GETFL and F_SETFD with the same bit are no F_SETFL.
    expect(decide("fcntl", [1, 3, O_DIRECT])).toBe(SECCOMP_RET_ALLOW);
    expect(decide("fcntl", [1, 2, O_DIRECT])).toBe(SECCOMP_RET_ALLOW);
  });

  it("lets socket create local, IP and netlink sockets only: no AF_VSOCK, no module-loaded family", () => {
    for (const family of [1, 2, 10]) {
      expect(decide("socket", [family, 1]), String(family)).toBe(SECCOMP_RET_ALLOW);
    }
    // AF_UNSPEC, AF_PACKET, AF_BLUETOOTH, AF_ALG, AF_VSOCK, AF_XDP, AF_MCTP, and past the kernel's AF_MAX.
    for (const family of [0, 17, 31, 38, 40, 44, 45, 46, 1024]) {
      expect(decide("socket", [family, 1]), String(family)).toBe(ERRNO | EAFNOSUPPORT);
    }
    // The kernel reads the family as an int: high bits neither hide AF_VSOCK nor spoil AF_INET.
    expect(decide("socket", [2 ** 32 + ALLOWED_SOCKET_FAMILIES.AF_INET, 1])).toBe(SECCOMP_RET_ALLOW);
    expect(decide("socket", [2 ** 32 + 40, 1])).toBe(ERRNO | EAFNOSUPPORT);
  });

  it("lets netlink open routes, socket lists and device events only", () => {
    const netlink = ALLOWED_SOCKET_FAMILIES.AF_NETLINK;
    for (const protocol of Object.values(ALLOWED_NETLINK_PROTOCOLS)) {
      expect(decide("socket", [netlink, 3, protocol]), String(protocol)).toBe(SECCOMP_RET_ALLOW);
    }
    // NETLINK_USERSOCK, NETLINK_FIREWALL, NETLINK_NFLOG, NETLINK_XFRM, NETLINK_SELINUX, NETLINK_ISCSI,
    // NETLINK_AUDIT, NETLINK_NETFILTER, NETLINK_GENERIC, NETLINK_RDMA, NETLINK_CRYPTO, and past MAX_LINKS.
    for (const protocol of [2, 3, 5, 6, 7, 8, 9, 12, 16, 20, 21, 32]) {
      expect(decide("socket", [netlink, 3, protocol]), String(protocol)).toBe(ERRNO | EPROTONOSUPPORT);
    }
    // The protocol is an int too: high bits do not hide NETLINK_GENERIC, nor spoil NETLINK_ROUTE.
    expect(decide("socket", [netlink, 3, 2 ** 32 + 16])).toBe(ERRNO | EPROTONOSUPPORT);
    expect(decide("socket", [netlink, 3, 2 ** 32])).toBe(SECCOMP_RET_ALLOW);
  });

  it("lets socketpair make AF_UNIX pairs only: other families run their kernel code there too", () => {
    expect(decide("socketpair", [1, 1])).toBe(SECCOMP_RET_ALLOW);
    expect(decide("socketpair", [2 ** 32 + 1, 1])).toBe(SECCOMP_RET_ALLOW);
    // AF_UNSPEC, AF_INET, AF_INET6, AF_NETLINK, AF_PACKET, AF_TIPC (which implements socketpair), AF_VSOCK.
    for (const family of [0, 2, 10, 16, 17, 30, 40, 2 ** 32 + 40]) {
      expect(decide("socketpair", [family, 1]), String(family)).toBe(ERRNO | EAFNOSUPPORT);
    }
  });

  it("decides every number up to 1023 as the deny lists say, on the search tree's every path", () => {
    const special = new Map<number, number>();
    for (const name of DENIED_SYSCALLS) {
      const nr = SYSCALLS[name][arch];
      if (nr !== null) special.set(nr, ERRNO | EPERM);
    }
    for (const name of UNAVAILABLE_SYSCALLS) special.set(SYSCALLS[name][arch] as number, ERRNO | ENOSYS);
    // socket and socketpair with family 0 (AF_UNSPEC), which the kernel refuses the same way.
    special.set(SYSCALLS.socket[arch], ERRNO | EAFNOSUPPORT);
    special.set(SYSCALLS.socketpair[arch], ERRNO | EAFNOSUPPORT);
    for (let nr = 0; nr < 1024; nr++) {
      expect(run(program, call(native, nr)), String(nr)).toBe(special.get(nr) ?? SECCOMP_RET_ALLOW);
    }
  });

  it("allows an ordinary call after a handful of comparisons, not one per listed call", () => {
    const listed = new Set<number | null>(Object.values(SYSCALLS).map((numbers) => numbers[arch]));
    for (const nr of [0, 1, 63, 202, 257].filter((candidate) => !listed.has(candidate))) {
      const stats = { executed: 0 };
      expect(run(program, call(native, nr), stats)).toBe(SECCOMP_RET_ALLOW);
      expect(stats.executed, String(nr)).toBeLessThanOrEqual(14);
    }
  });

  it("kills a call made under another architecture", () => {
    expect(run(program, call(AUDIT_ARCH_I386, 26))).toBe(SECCOMP_RET_KILL_PROCESS);
    const other = arch === "x64" ? AUDIT_ARCH.arm64 : AUDIT_ARCH.x64;
    expect(run(program, call(other, 0))).toBe(SECCOMP_RET_KILL_PROCESS);
  });
});

describe("the x86_64 filter", () => {
  it("kills x32 calls, which carry the x86_64 arch value", () => {
    const program = sandboxFilterProgram("x64");
    expect(run(program, call(AUDIT_ARCH.x64, X32_SYSCALL_BIT | 101))).toBe(SECCOMP_RET_KILL_PROCESS);
    expect(run(program, call(AUDIT_ARCH.x64, X32_SYSCALL_BIT))).toBe(SECCOMP_RET_KILL_PROCESS);
  });

  it("encodes struct sock_filter[] little-endian, 8 bytes an instruction", () => {
    const program = sandboxFilterProgram("x64");
    const bytes = sandboxFilterBytes("x64")!;
    expect(bytes.equals(encode(program))).toBe(true);
    expect(bytes.length).toBe(program.length * 8);
    // ld [4] (the arch) first.
    expect([...bytes.subarray(0, 8)]).toEqual([0x20, 0, 0, 0, 4, 0, 0, 0]);
  });

  it("has no table for other architectures", () => {
    expect(sandboxFilterBytes("ia32")).toBeNull();
  });
});
