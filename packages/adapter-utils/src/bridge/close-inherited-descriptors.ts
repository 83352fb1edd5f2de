import type * as fs from "node:fs";

/**
 * Closes every descriptor above stdio that has no close-on-exec flag (`/proc/self/fdinfo`
 * `flags`, octal; O_CLOEXEC is 02000000): the ones a child would inherit. The Node bridge
 * (`node-bridge/main.ts`) runs it first; it takes `fs` so a test can hand it a fake `/proc`.
 */
export function closeInheritedDescriptors(
  files: Pick<typeof fs, "readdirSync" | "readFileSync" | "closeSync">,
): void {
  let names: string[];
  try {
    names = files.readdirSync("/proc/self/fd");
  } catch {
    return;
  }
  for (const name of names) {
    const fd = Number(name);
    if (!(fd > 2)) continue;
    try {
      const flags = /^flags:\s*([0-7]+)/m.exec(files.readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"));
      if (flags && (Number.parseInt(flags[1]!, 8) & 0o2000000) === 0) files.closeSync(fd);
    } catch {
      // Gone meanwhile (the listing's own descriptor): nothing to close.
    }
  }
}
