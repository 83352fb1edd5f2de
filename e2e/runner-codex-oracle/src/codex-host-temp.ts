import { existsSync, rmSync } from "node:fs";
import path from "node:path";

/**
 * Where the host lets Codex sandbox its own shell tool with bubblewrap (the `more` scenario asks
 * for that tool), Codex keeps two per-user directories directly in `/tmp`, whatever `TMPDIR` the
 * runner hands it, and leaves them when it exits. Hosts where that sandbox cannot start never get
 * them.
 */
export function codexHostTempDirs(uid: number, base = "/tmp"): string[] {
  return [`codex-daemon-${uid}`, `codex-bwrap-synthetic-mount-targets-${uid}`].map((name) =>
    path.join(base, name),
  );
}

/**
 * Notes which of those directories exist now and returns what removes the ones that appear
 * later: the suite cleans up after the Codex it started, and never touches a directory a Codex
 * of the machine's own already had.
 */
export function removeCodexHostTempCreatedLater(uid = process.getuid?.() ?? 0, base = "/tmp"): () => void {
  const created = codexHostTempDirs(uid, base).filter((dir) => !existsSync(dir));
  return () => {
    for (const dir of created) rmSync(dir, { recursive: true, force: true });
  };
}
