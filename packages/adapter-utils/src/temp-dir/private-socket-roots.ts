import path from "node:path";

/**
 * Base directories of the private socket roots, in order of preference. Each is a
 * fixed path (only the uid varies), and every sandbox of this package hides it by
 * construction, whatever its scope and whatever the environment of the process
 * that built it: `/dev/shm` is replaced by bwrap's `--dev /dev`, `/tmp` is private
 * in both scopes, `/run` (and so `/run/user/<uid>`) is masked in the network-only
 * scope and never bound in the workspace scope. Binds a caller requests that
 * would show a root again are masked (`bwrap/socket-root-exposures.ts`).
 */
export function privateSocketRootBases(uid: number): string[] {
  return ["/dev/shm", "/tmp", `/run/user/${uid}`];
}

/** The directory, per user, that holds the real proxy socket directories of every run. */
export function privateSocketRootName(uid: number): string {
  return `paperclip-sandbox-sockets-${uid}`;
}

/** Every private socket root of `uid`: every sandbox masks all of them, used or not. */
export function privateSocketRoots(uid: number): string[] {
  return privateSocketRootBases(uid).map((base) => path.join(base, privateSocketRootName(uid)));
}
