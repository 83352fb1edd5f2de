import { assemble, type BpfInstruction, type BpfStep, encode } from "./bpf-program.js";
import { fcntlCommandSteps } from "./fcntl-commands.js";
import { MODE_ARGUMENT, OPEN_FLAGS_ARGUMENT, setIdLabel, setIdModeSteps } from "./set-id-modes.js";
import {
  AUDIT_ARCH,
  type FilterArch,
  SYSCALLS,
  type SyscallName,
  X32_SYSCALL_BIT,
} from "./syscall-numbers.js";

/**
 * The seccomp filter every sandboxed program runs under (bwrap `--seccomp`, applied to
 * the bridge and everything it starts). It is a deny list: the program keeps every
 * ordinary syscall (node, sh, git, npm, compilers), and loses the ones that reach
 * outside its own processes — another process's memory or descriptors (bwrap's pid 1,
 * the bridge), new user namespaces that would give it capabilities again, the kernel's
 * attack surfaces an agent never needs. docs/adapter-utils/process-boundary.md lists the reasons.
 */

/** Denied with EPERM: reaching other processes (pid 1, the bridge) and undoing the sandbox. */
export const DENIED_SYSCALLS: readonly SyscallName[] = [
  // Another process's memory, descriptors, or the comparison of them.
  "ptrace",
  "process_vm_readv",
  "process_vm_writev",
  "pidfd_getfd",
  "kcmp",
  // Kernel attack surface an agent does not need (and side channels on other processes).
  "perf_event_open",
  "userfaultfd",
  "bpf",
  "keyctl",
  "add_key",
  "request_key",
  // Its unprivileged mode (FAN_REPORT_FID, Linux 5.13+) takes a group from the uid's pool
  // (`fs.fanotify.max_user_groups`, 128), which no namespace separates: a program that took
  // all of a root runner's left no host service of root a group until its run ended.
  "fanotify_init",
  // The mount table and namespaces: a sandbox that could change them could undo itself.
  "mount",
  "umount2",
  "pivot_root",
  "open_tree",
  "move_mount",
  "fsopen",
  "fsconfig",
  "fsmount",
  "fspick",
  "mount_setattr",
  "setns",
  // Privileged anyway without capabilities; denied so a capability leak is not enough.
  "kexec_load",
  "kexec_file_load",
  "init_module",
  "finit_module",
  "delete_module",
  "open_by_handle_at",
  "reboot",
  "swapon",
  "swapoff",
  "acct",
  "syslog",
  "quotactl",
  "iopl",
  "ioperm",
];

/**
 * Denied with ENOSYS, so callers take their fallback: `clone3` passes its flags in
 * memory the filter cannot read (glibc then uses `clone`, whose flags it checks), as
 * `openat2` does its mode (callers then use `openat`, whose mode it checks: set-id-modes.ts),
 * io_uring runs operations outside any syscall check (libuv falls back to its thread pool),
 * and `io_setup` reserves Linux AIO events from one host-wide pool (`fs.aio-max-nr`) no
 * namespace separates: a program that took it all failed every host process's `io_setup`
 * (databases, QEMU) until its run ended. Without a context the other AIO calls do nothing;
 * libaio's callers fall back to threads, as on a kernel without AIO. `mq_open` likewise:
 * POSIX queues are the ipc namespace's, but their bytes count against the uid's
 * `RLIMIT_MSGQUEUE` in every namespace, so a program that filled it made every mq_open of
 * the runner's uid on the host fail (`EMFILE`); the other mq calls need a queue it opened.
 */
export const UNAVAILABLE_SYSCALLS: readonly SyscallName[] = [
  "clone3",
  "openat2",
  "io_uring_setup",
  "io_uring_enter",
  "io_uring_register",
  "io_setup",
  "mq_open",
];

/** `CLONE_NEW*` bits of `clone` flags (CLONE_NEWTIME shares its bit with the exit signal there). */
export const CLONE_NAMESPACE_FLAGS = 0x7e020000;
/** The same for `unshare`, with CLONE_NEWTIME (0x80). */
export const UNSHARE_NAMESPACE_FLAGS = CLONE_NAMESPACE_FLAGS | 0x80;

/**
 * The only address families `socket` may create: local (AF_UNIX), IP (AF_INET, AF_INET6;
 * the network namespace holds them) and AF_NETLINK (interface lists, `getaddrinfo`). Every
 * other family fails with EAFNOSUPPORT, as on a kernel without it: AF_VSOCK above all, whose
 * ports and peers (the hypervisor at CID 2) no network namespace separates, so `--unshare-net`
 * would not stop it; and the rarely used families the kernel loads as modules on first use.
 * `socketpair` runs the same family code (module load, the family's create function), so it
 * is checked too, and allowed for AF_UNIX alone: no other family an agent needs implements it.
 */
export const ALLOWED_SOCKET_FAMILIES = { AF_UNIX: 1, AF_INET: 2, AF_INET6: 10, AF_NETLINK: 16 } as const;

/**
 * The netlink protocols a sandboxed `socket(AF_NETLINK, _, protocol)` may open: routes and
 * addresses (`getifaddrs`, `getaddrinfo`, `ip`), socket lists (`ss`) and device events (udev
 * clients). Every other protocol fails with EPROTONOSUPPORT, as for one the kernel lacks:
 * generic netlink (whose families load modules on request), netfilter, audit, xfrm, and the
 * protocols their modules register on first use (NETLINK_ISCSI: CVE-2021-27365).
 */
export const ALLOWED_NETLINK_PROTOCOLS = {
  NETLINK_ROUTE: 0,
  NETLINK_SOCK_DIAG: 4,
  NETLINK_KOBJECT_UEVENT: 15,
} as const;

/**
 * ioctl requests refused on every descriptor (the same numbers on x86_64 and aarch64). Two
 * push input into a terminal (TIOCSTI) or drive the console (TIOCLINUX). Three leave a
 * terminal changed after the program ends, and the CLI hands the program the caller's: a
 * line discipline (TIOCSETD; N_NULL drops every byte both ways, so the caller's terminal is
 * dead, and Node's own terminal reset at exit then aborts the CLI; the others, such as n_hdlc
 * and n_gsm, are kernel code an agent never needs), exclusive mode (TIOCEXCL: no one but root
 * opens the terminal again) and stopped output (TCXONC, whose TCOOFF nothing undoes but a
 * typed Ctrl-Q). Agents need none of them; serial-line tools (slattach, pppd) do.
 */
export const DENIED_IOCTLS = {
  TIOCSTI: 0x5412,
  TIOCLINUX: 0x541c,
  TIOCSETD: 0x5423,
  TIOCEXCL: 0x540c,
  TCXONC: 0x540a,
} as const;

export const SECCOMP_RET_KILL_PROCESS = 0x80000000;
export const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
export const EPERM = 1;
export const ENOSYS = 38;
export const EINVAL = 22;
export const EPROTONOSUPPORT = 93;
export const EAFNOSUPPORT = 97;

/** Offsets in `struct seccomp_data`: nr, arch, then 64-bit args (low word first, little-endian). */
export const SECCOMP_DATA = { nr: 0, arch: 4, arg: (index: number) => 16 + index * 8 } as const;

function errno(value: number): number {
  return SECCOMP_RET_ERRNO | value;
}

/** Where the filter sends one syscall number once it has matched it. */
interface Dispatch {
  readonly nr: number;
  readonly label: string;
}

/**
 * A balanced search over the sorted numbers (`jge` halves, `jeq` at the leaves), so an
 * ordinary call is allowed after about 7 comparisons instead of one per listed call.
 * Every leaf run ends in a jump to `allow`; nothing falls into the next subtree.
 */
function dispatch(entries: readonly Dispatch[], prefix: string): BpfStep[] {
  if (entries.length <= 4) {
    return entries.map((entry, index) => ({
      op: "jeq",
      value: entry.nr,
      whenTrue: entry.label,
      whenFalse: index === entries.length - 1 ? "allow" : null,
    }));
  }
  const middle = Math.floor(entries.length / 2);
  const upper = `${prefix}.upper`;
  return [
    { op: "jge", value: entries[middle]!.nr, whenTrue: upper, whenFalse: null },
    ...dispatch(entries.slice(0, middle), `${prefix}.lower`),
    { op: "label", name: upper },
    ...dispatch(entries.slice(middle), upper),
  ];
}

/** `jeq` the accumulator to each allowed value: a match goes to `allow`, the last miss to `refuse`. */
function allowOnly(values: readonly number[], refuse: string): BpfStep[] {
  return values.map((value, index) => ({
    op: "jeq",
    value,
    whenTrue: "allow",
    whenFalse: index === values.length - 1 ? refuse : null,
  }));
}

/** The filter for one architecture, as instructions. */
export function sandboxFilterProgram(arch: FilterArch): BpfInstruction[] {
  const entries: Dispatch[] = [];
  const route = (names: readonly SyscallName[], label: string) => {
    for (const name of names) {
      const nr: number | null = SYSCALLS[name][arch];
      if (nr !== null) entries.push({ nr, label });
    }
  };
  route(DENIED_SYSCALLS, "deny");
  route(UNAVAILABLE_SYSCALLS, "unavailable");
  route(["clone"], "clone");
  route(["unshare"], "unshare");
  route(["ioctl"], "ioctl");
  route(["fcntl"], "fcntl");
  route(["socket"], "socket");
  route(["socketpair"], "socketpair");
  for (const name of [...Object.keys(MODE_ARGUMENT), ...Object.keys(OPEN_FLAGS_ARGUMENT)] as SyscallName[])
    route([name], setIdLabel(name)!);
  entries.sort((a, b) => a.nr - b.nr);
  const steps: BpfStep[] = [
    // Another architecture's calls (i386 on x86_64, arm32 on aarch64) have other numbers: kill.
    { op: "load", offset: SECCOMP_DATA.arch },
    { op: "jeq", value: AUDIT_ARCH[arch], whenTrue: null, whenFalse: "kill" },
    { op: "load", offset: SECCOMP_DATA.nr },
  ];
  if (arch === "x64") steps.push({ op: "jge", value: X32_SYSCALL_BIT, whenTrue: "kill", whenFalse: null });
  steps.push(
    ...dispatch(entries, "nr"),
    { op: "label", name: "clone" },
    { op: "load", offset: SECCOMP_DATA.arg(0) },
    { op: "jset", value: CLONE_NAMESPACE_FLAGS, whenTrue: "deny", whenFalse: "allow" },
    { op: "label", name: "unshare" },
    { op: "load", offset: SECCOMP_DATA.arg(0) },
    { op: "jset", value: UNSHARE_NAMESPACE_FLAGS, whenTrue: "deny", whenFalse: "allow" },
    { op: "label", name: "ioctl" },
    // The request's low word: the kernel compares the command as an unsigned int.
    { op: "load", offset: SECCOMP_DATA.arg(1) },
    ...Object.values(DENIED_IOCTLS).map(
      (request, index, all): BpfStep => ({
        op: "jeq",
        value: request,
        whenTrue: "deny",
        whenFalse: index === all.length - 1 ? "allow" : null,
      }),
    ),
    { op: "label", name: "socket" },
    // The family's low word: the kernel takes it as an int (the protocol too).
    { op: "load", offset: SECCOMP_DATA.arg(0) },
    { op: "jeq", value: ALLOWED_SOCKET_FAMILIES.AF_NETLINK, whenTrue: "netlink", whenFalse: null },
    ...allowOnly(
      Object.values(ALLOWED_SOCKET_FAMILIES).filter(
        (family) => family !== ALLOWED_SOCKET_FAMILIES.AF_NETLINK,
      ),
      "nofamily",
    ),
    { op: "label", name: "netlink" },
    { op: "load", offset: SECCOMP_DATA.arg(2) },
    ...allowOnly(Object.values(ALLOWED_NETLINK_PROTOCOLS), "noprotocol"),
    { op: "label", name: "socketpair" },
    { op: "load", offset: SECCOMP_DATA.arg(0) },
    ...allowOnly([ALLOWED_SOCKET_FAMILIES.AF_UNIX], "nofamily"),
    ...fcntlCommandSteps(arch, SECCOMP_DATA.arg),
    ...setIdModeSteps(SECCOMP_DATA.arg),
    { op: "label", name: "allow" },
    { op: "return", value: SECCOMP_RET_ALLOW },
    { op: "label", name: "deny" },
    { op: "return", value: errno(EPERM) },
    { op: "label", name: "nodirect" },
    { op: "return", value: errno(EINVAL) },
    { op: "label", name: "nofamily" },
    { op: "return", value: errno(EAFNOSUPPORT) },
    { op: "label", name: "noprotocol" },
    { op: "return", value: errno(EPROTONOSUPPORT) },
    { op: "label", name: "unavailable" },
    { op: "return", value: errno(ENOSYS) },
    { op: "label", name: "kill" },
    { op: "return", value: SECCOMP_RET_KILL_PROCESS },
  );
  return assemble(steps);
}

/** This machine's filter architecture, or `null` where the package has no syscall table. */
export function filterArch(arch: string = process.arch): FilterArch | null {
  return arch === "x64" || arch === "arm64" ? arch : null;
}

const encoded = new Map<FilterArch, Buffer>();

/** The bytes bwrap's `--seccomp` reads, built once per process; `null` on an architecture without a table. */
export function sandboxFilterBytes(arch: string = process.arch): Buffer | null {
  const target = filterArch(arch);
  if (!target) return null;
  let bytes = encoded.get(target);
  if (!bytes) {
    bytes = encode(sandboxFilterProgram(target));
    encoded.set(target, bytes);
  }
  return bytes;
}
