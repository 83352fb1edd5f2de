import { realpathSync } from "node:fs";
import { readdir, readlink, realpath } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { CreateosError } from "@paperclipai/errors";

function escapes(link: string, operationId: string): CreateosError {
  return new CreateosError(
    "ERR_CREATEOS_SYNC_LINK_ESCAPES",
    "CreateOS does not support followSymlinks for host directory uploads when a link leaves the source directory; stage files inside the source directory or omit this option.",
    { details: { operationId: operationId.slice(0, 100), link: link.slice(0, 200) } },
  );
}

function within(root: string, target: string): boolean {
  const rel = relative(root, target);
  return rel === "" || (!isAbsolute(rel) && rel !== ".." && !rel.startsWith(`..${sep}`));
}

/**
 * With `followSymlinks`, a directory upload sends what its links point to. Links inside the
 * source directory are fine; one whose target leaves it would upload host files nobody named
 * (a secret), so it is refused before any request. `excluded` sees paths as the archive does
 * (`./a/b`); an excluded link is never read.
 */
export async function assertLinksStayInside(
  source: string,
  excluded: (path: string) => boolean,
  operationId: string,
): Promise<void> {
  const root = await realpath(source);
  const walk = async (dir: string, rel: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = `${rel}/${entry.name}`;
      if (excluded(path)) continue;
      const full = join(dir, entry.name);
      if (entry.isSymbolicLink()) {
        // A dangling link is judged by where it would point once its target appears.
        const target = await realpath(full).catch(async () => resolve(dirname(full), await readlink(full)));
        if (!within(root, target)) throw escapes(path, operationId);
      } else if (entry.isDirectory()) {
        await walk(full, path);
      }
    }
  };
  await walk(source, ".");
}

/**
 * The same rule while the archive is packed (a link can change after the check): the packer
 * opens each entry first and asks with where the opened object really is (`allows`), so what
 * it reads is what was judged; a refused entry is left out and `assertNoneRefused` then fails
 * the sync.
 */
export class PackedLinkGuard {
  readonly #root: string;
  #refused: string | undefined;

  constructor(source: string) {
    this.#root = realpathSync(source);
  }

  /** `opened` undefined (where the opened entry is could not be told) is refused too. */
  allows(path: string, opened: string | undefined): boolean {
    if (opened !== undefined && within(this.#root, opened)) return true;
    this.#refused ??= path;
    return false;
  }

  assertNoneRefused(operationId: string): void {
    if (this.#refused !== undefined) throw escapes(this.#refused, operationId);
  }
}
