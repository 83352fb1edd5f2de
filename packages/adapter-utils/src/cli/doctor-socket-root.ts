import { rm } from "node:fs/promises";
import path from "node:path";
import { PaperclipError } from "@paperclipai/errors";
import { createPrivateSocketDir } from "../temp-dir/create-private-socket-dir.js";
import { privateSocketRootLayout, type SocketRootLayout } from "../temp-dir/hidden-socket-roots.js";
import type { DoctorCheck } from "./doctor-check.js";

/**
 * The allowlist scope also needs one private socket root (docs/adapter-utils/security.md);
 * this makes and removes a directory there. `layout` is this host's unless a test gives
 * one: the failure names the roots it skipped, so an empty list of attempts is no riddle.
 */
export async function checkPrivateSocketRoot(
  layout: SocketRootLayout = privateSocketRootLayout(),
): Promise<DoctorCheck> {
  try {
    const dir = createPrivateSocketDir(layout);
    await rm(dir, { recursive: true, force: true });
    return {
      name: `private socket root ${path.dirname(dir)}`,
      status: "ok",
      detail: "usable; every sandbox hides it",
    };
  } catch (error) {
    const skipped = layout.skipped.map((entry) => `; skipped ${entry.root}: ${entry.reason}`);
    return {
      name: "private socket root",
      status: "fail",
      detail: `none of /dev/shm, /tmp, /run/user/<uid> is usable${skipped.join("")}; the allowlist scope cannot start`,
      ...(error instanceof PaperclipError ? { error } : {}),
    };
  }
}
