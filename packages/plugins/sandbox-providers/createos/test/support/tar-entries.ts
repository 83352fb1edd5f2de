/**
 * Tar archives built block by block with the `tar` package's own encoders, so a test can serve
 * what no honest `tar -c` writes: pax and GNU overrides, duplicate names, links in any order.
 */
import * as tar from "tar";

/** Whole 512-byte blocks: `bytes` padded with zeros. */
function blocks(bytes: Buffer): Buffer {
  const padded = Buffer.alloc(Math.ceil(bytes.length / 512) * 512);
  bytes.copy(padded);
  return padded;
}

/** One entry: its header (type `File` unless given) and its body. */
export function tarEntry(header: Partial<tar.HeaderData>, body: string | Buffer = ""): Buffer {
  const content = Buffer.from(body);
  const encoded = new tar.Header({
    type: "File",
    mode: 0o644,
    mtime: new Date(0),
    ...header,
    size: content.length,
  });
  encoded.encode();
  return Buffer.concat([encoded.block as Buffer, blocks(content)]);
}

/** A pax extended header (`x`), or a global one (`g`), whose records apply to what follows. */
export function paxHeader(records: Partial<tar.HeaderData>, global = false): Buffer {
  return new tar.Pax({ mtime: new Date(0), ...records }, global).encode();
}

/** A GNU long-name (`L`) or long-link (`K`) entry: its body names the next entry, or its link. */
export function gnuLongEntry(kind: "NextFileHasLongPath" | "NextFileHasLongLinkpath", name: string): Buffer {
  return tarEntry({ path: "././@LongLink", type: kind }, `${name}\0`);
}

/** The entries, then the two zero blocks that end an archive. */
export function tarArchive(...entries: Buffer[]): Buffer {
  return Buffer.concat([...entries, Buffer.alloc(1024)]);
}
