/**
 * Syscall numbers the sandbox's seccomp filter names, per architecture: x86_64 from
 * `asm/unistd_64.h`, aarch64 from `asm-generic/unistd.h` (which has no iopl/ioperm).
 */
export type FilterArch = "x64" | "arm64";

/** `AUDIT_ARCH_*` from `linux/audit.h`: what `seccomp_data.arch` says for a native call. */
export const AUDIT_ARCH: Record<FilterArch, number> = { x64: 0xc000003e, arm64: 0xc00000b7 };

/** x86_64 numbers with this bit set are x32 calls, reported with the x86_64 arch value. */
export const X32_SYSCALL_BIT = 0x40000000;

export const SYSCALLS = {
  ptrace: { x64: 101, arm64: 117 },
  process_vm_readv: { x64: 310, arm64: 270 },
  process_vm_writev: { x64: 311, arm64: 271 },
  pidfd_getfd: { x64: 438, arm64: 438 },
  kcmp: { x64: 312, arm64: 272 },
  perf_event_open: { x64: 298, arm64: 241 },
  userfaultfd: { x64: 323, arm64: 282 },
  keyctl: { x64: 250, arm64: 219 },
  add_key: { x64: 248, arm64: 217 },
  request_key: { x64: 249, arm64: 218 },
  bpf: { x64: 321, arm64: 280 },
  mount: { x64: 165, arm64: 40 },
  umount2: { x64: 166, arm64: 39 },
  pivot_root: { x64: 155, arm64: 41 },
  open_tree: { x64: 428, arm64: 428 },
  move_mount: { x64: 429, arm64: 429 },
  fsopen: { x64: 430, arm64: 430 },
  fsconfig: { x64: 431, arm64: 431 },
  fsmount: { x64: 432, arm64: 432 },
  fspick: { x64: 433, arm64: 433 },
  mount_setattr: { x64: 442, arm64: 442 },
  setns: { x64: 308, arm64: 268 },
  unshare: { x64: 272, arm64: 97 },
  clone: { x64: 56, arm64: 220 },
  clone3: { x64: 435, arm64: 435 },
  io_uring_setup: { x64: 425, arm64: 425 },
  io_uring_enter: { x64: 426, arm64: 426 },
  io_uring_register: { x64: 427, arm64: 427 },
  io_setup: { x64: 206, arm64: 0 },
  mq_open: { x64: 240, arm64: 180 },
  fanotify_init: { x64: 300, arm64: 262 },
  kexec_load: { x64: 246, arm64: 104 },
  kexec_file_load: { x64: 320, arm64: 294 },
  init_module: { x64: 175, arm64: 105 },
  finit_module: { x64: 313, arm64: 273 },
  delete_module: { x64: 176, arm64: 106 },
  open_by_handle_at: { x64: 304, arm64: 265 },
  reboot: { x64: 169, arm64: 142 },
  swapon: { x64: 167, arm64: 224 },
  swapoff: { x64: 168, arm64: 225 },
  acct: { x64: 163, arm64: 89 },
  syslog: { x64: 103, arm64: 116 },
  quotactl: { x64: 179, arm64: 60 },
  ioctl: { x64: 16, arm64: 29 },
  fcntl: { x64: 72, arm64: 25 },
  socket: { x64: 41, arm64: 198 },
  socketpair: { x64: 53, arm64: 199 },
  // Calls that set a file's mode: x86_64 keeps the old path-based ones aarch64 never had.
  chmod: { x64: 90, arm64: null },
  fchmod: { x64: 91, arm64: 52 },
  fchmodat: { x64: 268, arm64: 53 },
  fchmodat2: { x64: 452, arm64: 452 },
  creat: { x64: 85, arm64: null },
  open: { x64: 2, arm64: null },
  openat: { x64: 257, arm64: 56 },
  openat2: { x64: 437, arm64: 437 },
  mknod: { x64: 133, arm64: null },
  mknodat: { x64: 259, arm64: 33 },
  iopl: { x64: 172, arm64: null },
  ioperm: { x64: 173, arm64: null },
} as const satisfies Record<string, Record<FilterArch, number | null>>;

export type SyscallName = keyof typeof SYSCALLS;
