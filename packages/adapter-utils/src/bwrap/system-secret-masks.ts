import { type HostLayout, kindOf } from "./host-layout.js";
import { isSameOrBelow, type MountRequest } from "./mount-request.js";

/**
 * The secret directories under the system paths (`SYSTEM_SECRET_PATHS`) that the workspace
 * scope hides behind an empty read-only tmpfs (pure): each one that is a directory on the
 * host, unless the caller asked for it, for a path inside it or for one above it (a managed
 * or extra path, the workspace, an alias): that is then shown as asked. A program's own
 * start-up paths are no such request.
 */
export function systemSecretMasks(input: {
  readonly layout: HostLayout;
  readonly secretPaths: readonly string[];
  readonly mounts: readonly MountRequest[];
  readonly aliases: readonly { readonly path: string }[];
}): string[] {
  const asked = [
    ...input.mounts.filter((request) => request.programDir === undefined).map((request) => request.path),
    ...input.aliases.map((alias) => alias.path),
  ];
  return input.secretPaths.filter(
    (secret) =>
      kindOf(input.layout, secret).kind === "directory" &&
      !asked.some((shown) => isSameOrBelow(shown, secret) || isSameOrBelow(secret, shown)),
  );
}
