/**
 * The `exclude` patterns the sandbox's own `tar` may apply while packing a sync out, as
 * `--exclude=NAME` arguments: only names without `/` or any character a glob or `tar` reads
 * specially, which `tar` (unanchored, as GNU tar and bsdtar match by default) and the host's
 * filter (`exclude-glob.ts`: a name without `/` matches at any depth) both match as whole names
 * at any depth. The host still filters every entry itself, so a `tar` that matches less (busybox)
 * only packs more. What this spares: reading an excluded tree that is live in the sandbox, such
 * as the `.paperclip-runtime` a runner is still writing while the server restores the
 * workspace, where a file changed or removed under `tar` failed the whole pack.
 */
const LITERAL_NAME = /^[A-Za-z0-9._%+=,~@-]+$/;

export function sandboxPruneArgs(exclude: readonly string[] | undefined): string[] {
  const names = new Set<string>();
  for (const pattern of exclude ?? []) {
    const name = pattern.replace(/^(\.\/)+/, "").replace(/\/+$/, "");
    if (LITERAL_NAME.test(name) && name !== "." && name !== ".." && !name.startsWith("-")) names.add(name);
  }
  return [...names].map((name) => `--exclude=${name}`);
}
