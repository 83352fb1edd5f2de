import { CreateosError } from "@paperclipai/errors";

/** What a sync out may hold of the links it extracted, to follow them again once the tree is there. */
export const LINK_PATHS_BYTES = 64 * 1024 * 1024;

// V8 keeps a string and its slot in the array in about this much besides its characters.
const PER_LINK_BYTES = 32;

/** A tree with more links, or longer link paths, than a sync out holds in memory to check them. */
function beyondLinkLimit(entry: string, linkPathsBytes: number): CreateosError {
  return new CreateosError(
    "ERR_CREATEOS_SYNC_ARCHIVE_ENTRY",
    "CreateOS archive contains unsafe entries or exceeds the extraction limit.",
    { details: { entry: entry.slice(0, 200), linkPathsBytes } },
  );
}

/**
 * The paths of the symbolic links a sync out extracted, held until they are followed again on
 * the staged tree, within `limitBytes`. Each link costs the sandbox a header of 512 bytes and
 * costs the worker its path: without a bound, a stream of links with paths of 4 KiB (pax allows
 * them) grows the worker's heap as fast as the archive arrives, until it dies of it.
 */
export class ExtractedLinks {
  readonly #paths: string[] = [];
  readonly #limitBytes: number;
  #bytes = 0;

  constructor(limitBytes = LINK_PATHS_BYTES) {
    this.#limitBytes = limitBytes;
  }

  add(path: string): void {
    this.#bytes += path.length + PER_LINK_BYTES;
    if (this.#bytes > this.#limitBytes) throw beyondLinkLimit(path, this.#limitBytes);
    this.#paths.push(path);
  }

  get paths(): readonly string[] {
    return this.#paths;
  }
}
