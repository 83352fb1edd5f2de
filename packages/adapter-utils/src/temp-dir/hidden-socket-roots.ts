import path from "node:path";
import { isSameOrBelow } from "../bwrap/mount-request.js";
import { realPathOf } from "../bwrap/resolve-bind-sources.js";
import { privateSocketRoots } from "./private-socket-roots.js";

/**
 * The places every sandbox hides by construction: its own `/dev` (bwrap's `--dev`), a
 * private `/tmp` and a masked or unbound `/run` (both scopes mask the real path of a link).
 */
const HIDDEN_PLACES = ["/dev", "/tmp", "/run"] as const;

/** A root left unused, and why: its base's real path (a host path, never a secret). JSON-safe, in `details.skippedRoots`. */
export type SkippedSocketRoot = {
  root: string;
  realBase: string;
  reason: string;
};

/** The roots this process uses, in order of preference, and those it skips. */
export interface SocketRootLayout {
  inUse: string[];
  skipped: SkippedSocketRoot[];
}

/**
 * Sorts `roots` by where they lie by their real path (pure over `realPath`): in a place every
 * sandbox hides, in use; elsewhere, skipped. A root's base may be a link (`/dev/shm ->
 * /run/shm` on older Debian): one that leads elsewhere (`/dev/shm -> /var/shm`) put the root
 * in the network-only scope's host tree, where the program listed other runs' proxy sockets
 * and, as a root runner's, wrote the private copies of the native binaries the host executes.
 */
export function sortSocketRoots(roots: readonly string[], realPath: (p: string) => string): SocketRootLayout {
  const places = HIDDEN_PLACES.map((place) => realPath(place));
  const layout: SocketRootLayout = { inUse: [], skipped: [] };
  for (const root of roots) {
    const realBase = realPath(path.dirname(root));
    if (places.some((place) => isSameOrBelow(place, path.join(realBase, path.basename(root))))) {
      layout.inUse.push(root);
    } else {
      const reason = `its base ${path.dirname(root)} leads to ${realBase}, outside ${HIDDEN_PLACES.join(", ")}, which a sandbox may show`;
      layout.skipped.push({ root, realBase, reason });
    }
  }
  return layout;
}

let layout: SocketRootLayout | undefined;

/** `sortSocketRoots` over this host's roots, judged once per process like the bases' spellings. */
export function privateSocketRootLayout(): SocketRootLayout {
  layout ??= sortSocketRoots(privateSocketRoots(process.getuid?.() ?? 0), realPathOf);
  return layout;
}

/**
 * The private socket roots this process creates and trusts (sockets, run directories, owner
 * records, the native copies), in order of preference: those every sandbox hides by
 * construction (`sortSocketRoots`). Masks still cover every root in every spelling.
 */
export function privateSocketRootsInUse(): string[] {
  return privateSocketRootLayout().inUse;
}
