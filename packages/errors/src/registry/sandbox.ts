import type { RegistryTable } from "./entry.js";

/** Codes thrown by `@paperclipai/adapter-utils` (the local-process sandbox). Owned by the sandbox team. */
export const sandboxRegistry = {
  ERR_SANDBOX_PROXY_SOCKET_DIR: {
    family: "sandbox",
    title: "Unable to create a Linux-safe Paperclip sandbox proxy socket directory",
    message: "Unable to create a Linux-safe Paperclip sandbox proxy socket directory.",
    meaning:
      "The network allowlist proxy listens on a Unix socket `<dir>/proxy.sock`. Linux limits a socket path to 107 bytes (`sun_path` is 108 bytes with the NUL), so the sandbox needs a private directory with a short path. Every candidate base directory (`/tmp`, then `os.tmpdir()`, then `$XDG_RUNTIME_DIR`) failed: `mkdtemp` threw, or the socket path would have been longer than 107 bytes. `cause` holds the last failure and `details.attempts` lists every candidate with its own reason (error code, or the socket path's byte length).",
    when:
      "`/tmp` is read-only, full (ENOSPC, inodes included), missing or not writable by the runner user (EACCES), and `TMPDIR` points to a deep path (CI workspaces, nested containers) whose `paperclip-network-sandbox-XXXXXX/proxy.sock` exceeds 107 bytes, or is unwritable too. Common in hardened containers with a read-only root, CI runners with a long `TMPDIR`, and sandboxes without write access to any temp directory.",
    solutions: [
      "Read `error.details.attempts`: each candidate shows why it failed (EACCES, EROFS, ENOSPC, ENOENT, or `socketPathBytes` over 107). Fix the first candidate you control.",
      "Point `TMPDIR` at a short, writable directory owned by the runner user, for example `mkdir -m 700 /run/paperclip && export TMPDIR=/run/paperclip`.",
      "Give `/tmp` its standard mode (`chmod 1777 /tmp`) or mount a writable tmpfs there.",
      "Free space and inodes on the filesystem behind `/tmp` (`df -h /tmp; df -i /tmp`).",
      "Run `paperclip-sandbox doctor`: it checks every candidate and prints the fix for each failing one.",
    ],
    prevention:
      "Run `paperclip-sandbox doctor` when provisioning a host or image. Keep `TMPDIR` short (well under 60 bytes), and keep `/tmp` writable for the runner user. The sandbox sweeps proxy directories of dead processes on start, so stale directories do not fill `/tmp`.",
    example: `import { PaperclipError } from "@paperclipai/errors";

try {
  return await buildLocalProcessSandboxSpawnTarget(input);
} catch (error) {
  if (PaperclipError.is(error, "ERR_SANDBOX_PROXY_SOCKET_DIR")) {
    for (const attempt of error.details.attempts as { baseDir: string; reason: string }[]) {
      console.error(\`\${attempt.baseDir}: \${attempt.reason}\`);
    }
  }
  throw error;
}`,
  },
} as const satisfies RegistryTable<"SANDBOX", "sandbox">;
