import path from "node:path";
import { isSameOrBelow } from "../bwrap/mount-request.js";
import { realPathOf } from "../bwrap/resolve-bind-sources.js";
import { privateSocketRoots } from "./private-socket-roots.js";

/**
 * The places every sandbox hides by construction: its own `/dev` (bwrap's `--dev`), a
 * private `/tmp` and a masked or unbound `/run` (both scopes mask the real path of a link).
 */
const HIDDEN_PLACES = ["/dev", "/tmp", "/run"] as const;

/**
 * Which of `roots` lie, by their real path, in a place every sandbox hides (pure over
 * `realPath`). A root's base may be a link (`/dev/shm -> /run/shm` on older Debian): one that
 * leads elsewhere (`/dev/shm -> /var/shm`) put the root in the network-only scope's host tree,
 * where the program listed other runs' proxy sockets and, as a root runner's, wrote the
 * private copies of the native binaries the host executes.
 */
export function rootsInHiddenPlaces(roots: readonly string[], realPath: (p: string) => string): string[] {
  const places = HIDDEN_PLACES.map((place) => realPath(place));
  return roots.filter((root) => {
    const real = path.join(realPath(path.dirname(root)), path.basename(root));
    return places.some((place) => isSameOrBelow(place, real));
  });
}

let inUse: string[] | undefined;

/**
 * The private socket roots this process creates and trusts (sockets, run directories, owner
 * records, the native copies), in order of preference: those every sandbox hides by
 * construction (`rootsInHiddenPlaces`), judged once per process like the bases' spellings.
 * Masks still cover every root in every spelling.
 */
export function privateSocketRootsInUse(): string[] {
  inUse ??= rootsInHiddenPlaces(privateSocketRoots(process.getuid?.() ?? 0), realPathOf);
  return inUse;
}
