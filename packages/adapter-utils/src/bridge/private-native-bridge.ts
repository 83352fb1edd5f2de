import { createHash } from "node:crypto";
import { chmodSync, lstatSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { privateSocketRootsInUse } from "../temp-dir/hidden-socket-roots.js";
import { preparePrivateRoot } from "../temp-dir/prepare-private-root.js";
import { NATIVE_BRIDGE_FILE_NAME } from "./native-bridge-path.js";

/** Where the private copy of a binary with this digest lives in one private root. */
export function privateCopyPath(root: string, sha256: string, fileName = NATIVE_BRIDGE_FILE_NAME): string {
  return path.join(root, `native-${sha256.slice(0, 32)}`, fileName);
}

function digest(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function matches(file: string, sha256: string): boolean {
  try {
    const stats = lstatSync(file);
    return stats.isFile() && stats.uid === (process.getuid?.() ?? 0) && digest(readFileSync(file)) === sha256;
  } catch {
    return false;
  }
}

/**
 * The host never executes the package's own `dist/native` file: the network-only scope
 * shows the host tree writable, so a sandbox (or a later one) could replace it. The
 * bytes are read once, hashed, and copied into `root` (a private socket root: no
 * sandbox sees it, mode 0700, this user's own); an existing copy is used only when its
 * content has that same digest, else it is written afresh (temp file, then rename).
 * The courier, every bridge and every exec shim run from a copy (named `fileName`).
 */
export function makePrivateCopy(
  source: string,
  root: string,
  fileName = NATIVE_BRIDGE_FILE_NAME,
): { path: string; sha256: string } {
  const bytes = readFileSync(source);
  const sha256 = digest(bytes);
  const target = privateCopyPath(root, sha256, fileName);
  preparePrivateRoot(root);
  preparePrivateRoot(path.dirname(target));
  if (matches(target, sha256)) return { path: target, sha256 };
  const temporary = `${target}.${process.pid}.tmp`;
  rmSync(temporary, { force: true });
  writeFileSync(temporary, bytes, { mode: 0o500, flag: "wx" });
  chmodSync(temporary, 0o500);
  renameSync(temporary, target);
  if (!matches(target, sha256))
    throw Object.assign(new Error(`${target} does not hold the copied bytes`), { code: "EBADF" });
  return { path: target, sha256 };
}

/** Every private root a copy may go to, in order of preference (the first exec-able one is kept). */
export function privateCopyRoots(): string[] {
  return privateSocketRootsInUse();
}
