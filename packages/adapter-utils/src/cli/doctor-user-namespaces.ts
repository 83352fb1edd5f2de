import { readFileSync } from "node:fs";
import { SandboxError } from "@paperclipai/errors";
import type { DoctorCheck } from "./doctor-check.js";

function readSysctl(file: string): string | null {
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    return null;
  }
}

/** Whether unprivileged user namespaces are open to bwrap here (sysctls of Debian, AppArmor and the kernel). */
export function checkUserNamespaces(): DoctorCheck {
  const root = process.getuid?.() === 0;
  const maxUserNs = readSysctl("/proc/sys/user/max_user_namespaces");
  const debianClone = readSysctl("/proc/sys/kernel/unprivileged_userns_clone");
  const apparmor = readSysctl("/proc/sys/kernel/apparmor_restrict_unprivileged_userns");
  const facts = [
    `max_user_namespaces=${maxUserNs ?? "n/a"}`,
    `unprivileged_userns_clone=${debianClone ?? "n/a"}`,
    `apparmor_restrict_unprivileged_userns=${apparmor ?? "n/a"}`,
  ].join(", ");
  const blocked = maxUserNs === "0" || debianClone === "0" || apparmor === "1";
  if (!blocked)
    return { name: "user namespaces", status: "ok", detail: `${root ? "running as root; " : ""}${facts}` };
  const error = new SandboxError(
    "ERR_SANDBOX_SETUP_FAILED",
    "Bubblewrap could not set up the sandbox: unprivileged user namespaces are restricted on this host",
    {
      details: {
        maxUserNs: maxUserNs ?? "n/a",
        debianClone: debianClone ?? "n/a",
        apparmor: apparmor ?? "n/a",
      },
    },
  );
  // As root bwrap needs no user namespace, so a restriction only matters for other users.
  return { name: "user namespaces", status: root ? "warn" : "fail", detail: `restricted: ${facts}`, error };
}
