import { closeSync, constants, fstatSync, openSync, readlinkSync } from "node:fs";
import { SandboxError } from "@paperclipai/errors";
import { finalBinds } from "./final-binds.js";

/**
 * What each bind of the argv must show in the sandbox, for the exec shim to check before
 * the program starts (native/exec-shim/bind-check.h): bwrap follows links again in every
 * source and destination when it mounts, after the builders judged each path by its real
 * path, so a path swapped for a link in between would be bound elsewhere, or something
 * else bound in its place.
 */

/** The variable that carries the list to the shim (bwrap's --setenv); the shim removes it. */
export const BINDS_ENV = "PAPERCLIP_SANDBOX_BINDS";

/** `O_PATH`: Node's constants lack it; the same number on x86_64 and aarch64. */
const O_PATH = (constants as Record<string, number>).O_PATH ?? 0o10000000;

/** glibc's `major`/`minor` of the device number Node reports (libuv encodes it as `makedev`). */
function deviceParts(dev: bigint): [bigint, bigint] {
  const major = ((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn);
  const minor = (dev & 0xffn) | ((dev >> 12n) & ~0xffn);
  return [major, minor];
}

function changed(source: string, now: string): SandboxError {
  return new SandboxError(
    "ERR_SANDBOX_BIND_CHANGED",
    "A sandbox bind changed between its check and its mount; the program did not run.",
    { details: { path: source, realPath: now, stage: "build" }, retryable: false },
  );
}

/**
 * The identity of what sits at the judged `source` now (a requested path or alias target,
 * bound at its real path): opened without following a link, its descriptor's name must
 * still be that path, so no component became a link since it was judged.
 */
function identityOf(source: string): string | null {
  let fd: number;
  try {
    fd = openSync(source, O_PATH | constants.O_NOFOLLOW);
  } catch {
    return null; // missing: bwrap refuses the bind itself
  }
  try {
    const now = readlinkSync(`/proc/self/fd/${fd}`);
    if (now !== source) throw changed(source, now);
    const stat = fstatSync(fd, { bigint: true });
    const [major, minor] = deviceParts(stat.dev);
    return [major, minor, stat.ino].map((part) => part.toString(16)).join(":");
  } finally {
    closeSync(fd);
  }
}

/**
 * `major:minor:inode:destination` per judged bind in sight, hex, comma-separated: what the
 * shim parses. `judged`: the sources the builders judged by their real paths (requests,
 * the workspace among them, and alias targets). The host's own sources (system files, the
 * run's private directories) are left out: no run can write them, and the host may replace
 * some by rename at any time (`/etc/resolv.conf`, `/etc/passwd`), which must not fail a run.
 */
export function bindIdentities(args: readonly string[], judged: ReadonlySet<string>): string {
  const entries: string[] = [];
  for (const bind of finalBinds(args)) {
    if (!judged.has(bind.source)) continue;
    const identity = identityOf(bind.source);
    if (identity) entries.push(`${identity}:${Buffer.from(bind.dest).toString("hex")}`);
  }
  return entries.join(",");
}
