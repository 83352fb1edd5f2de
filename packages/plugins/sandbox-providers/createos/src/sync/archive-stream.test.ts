import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { caught } from "@paperclipai/errors/testing";
import { tempDirForTest } from "@paperclipai/test-support";
import * as tar from "tar";
import { describe, expect, it } from "vitest";
import { exactBytes, extractArchive, plainTar } from "./archive-stream.js";

/** One regular-file entry of a tar archive: its header and its body padded to whole blocks. */
function fileEntry(path: string, content: string): Buffer {
  const body = Buffer.from(content);
  const header = new tar.Header({ path, mode: 0o644, size: body.length, type: "File", mtime: new Date(0) });
  header.encode();
  const padded = Buffer.alloc(Math.ceil(body.length / 512) * 512);
  body.copy(padded);
  return Buffer.concat([header.block as Buffer, padded]);
}

/** A link entry (no body): `SymbolicLink` or a hard `Link`. */
function linkEntry(path: string, type: "SymbolicLink" | "Link", linkpath: string): Buffer {
  const header = new tar.Header({ path, mode: 0o777, size: 0, type, linkpath, mtime: new Date(0) });
  header.encode();
  return header.block as Buffer;
}

function dirEntry(path: string): Buffer {
  const header = new tar.Header({ path, mode: 0o755, size: 0, type: "Directory", mtime: new Date(0) });
  header.encode();
  return header.block as Buffer;
}

function archive(...entries: Buffer[]): Buffer {
  return Buffer.concat([...entries, Buffer.alloc(1024)]);
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<string> {
  let text = "";
  for await (const chunk of source) text += Buffer.from(chunk).toString();
  return text;
}

describe("exactBytes", () => {
  it("relays a source of exactly the expected size", async () => {
    expect(await collect(exactBytes(Readable.from([Buffer.from("ab"), Buffer.from("cd")]), 4))).toBe("abcd");
  });

  it.each([
    ["a short", ["ab"], 4, 2],
    ["an empty", [], 4, 0],
    ["a long", ["abc", "de"], 4, 5],
  ])("fails %s source as an incomplete archive", async (_name, chunks, expected, received) => {
    const error = await caught(
      collect(exactBytes(Readable.from(chunks.map((chunk) => Buffer.from(chunk))), expected)),
      "ERR_CREATEOS_SYNC_ARCHIVE_INVALID",
    );
    expect(error.message).toBe("CreateOS sync out received an unreadable archive (incomplete).");
    expect(error.details).toEqual({ reason: "incomplete", expectedBytes: expected, receivedBytes: received });
    expect(error.retryable).toBe(true);
  });
});

describe("plainTar", () => {
  it("relays an archive whose first header arrives in pieces", async () => {
    const whole = archive(fileEntry("a.txt", "A"));
    const pieces = [whole.subarray(0, 100), whole.subarray(100, 511), whole.subarray(511)];
    const relayed = Buffer.from(await collect(plainTar(Readable.from(pieces))), "latin1");
    expect(relayed.length).toBe(whole.length);
  });

  it.each([
    ["a gzip-compressed archive", gzipSync(archive(fileEntry("a.txt", "A")))],
    ["a stream shorter than a header", Buffer.from("tiny")],
    ["an archive of zero blocks only", Buffer.alloc(1024)],
  ])("refuses %s as a malformed archive", async (_name, bytes) => {
    const error = await caught(
      collect(plainTar(Readable.from([bytes]))),
      "ERR_CREATEOS_SYNC_ARCHIVE_INVALID",
    );
    expect(error.details).toEqual({ reason: "malformed", tarCode: "TAR_BAD_ARCHIVE" });
  });
});

describe("extractArchive", () => {
  it("extracts the entries it accepts", async () => {
    const cwd = tempDirForTest("archive-stream-");
    await extractArchive(
      Readable.from([archive(fileEntry("a.txt", "A"), fileEntry("b.txt", "B"))]),
      cwd,
      (entry) => entry.path !== "b.txt",
    );
    expect(await readdir(cwd)).toEqual(["a.txt"]);
    expect(await readFile(join(cwd, "a.txt"), "utf8")).toBe("A");
  });

  it.each([
    ["an empty", Buffer.alloc(0)],
    ["a non-tar", Buffer.from("<html>not an archive</html>".repeat(40))],
  ])("reports %s stream as a malformed archive with tar's code", async (_name, bytes) => {
    const error = await caught(
      extractArchive(Readable.from([bytes]), tempDirForTest("archive-stream-"), () => true),
      "ERR_CREATEOS_SYNC_ARCHIVE_INVALID",
    );
    expect(error.details).toMatchObject({ reason: "malformed", tarCode: expect.stringMatching(/^TAR_/) });
    expect(error.retryable).toBe(false);
  });

  it("reports a source's own failure first, not tar's complaint about the cut archive", async () => {
    const cut = archive(fileEntry("a.txt", "A".repeat(2000))).subarray(0, 1024);
    const error = await caught(
      extractArchive(
        Readable.from(exactBytes(Readable.from([cut]), 4096)),
        tempDirForTest("archive-stream-"),
        () => true,
      ),
      "ERR_CREATEOS_SYNC_ARCHIVE_INVALID",
    );
    expect(error.details).toEqual({ reason: "incomplete", expectedBytes: 4096, receivedBytes: 1024 });
  });

  it("leaves the reason to the caller when it halts before an entry's body arrived", async () => {
    const cwd = tempDirForTest("archive-stream-");
    const whole = archive(fileEntry("ok.txt", "fine"), fileEntry("../evil.txt", "x".repeat(3000)));
    // The second entry's header ends the first chunk: its body would come with the next one.
    const chunks = [whole.subarray(0, 1536), whole.subarray(1536)];
    const seen: string[] = [];
    await extractArchive(Readable.from(chunks), cwd, (entry, halt) => {
      seen.push(entry.path);
      if (!entry.path.startsWith("..")) return true;
      halt();
      return false;
    });
    expect(seen).toEqual(["ok.txt", "../evil.txt"]);
    expect(await readdir(cwd)).toEqual(["ok.txt"]);
  });

  it.each([
    [
      "an entry written through a link",
      [linkEntry("a", "SymbolicLink", "."), fileEntry("a/x.txt", "x")],
      "a/x.txt",
    ],
    ["a hard link to a link", [linkEntry("up", "SymbolicLink", "."), linkEntry("h", "Link", "up")], "h"],
    ["a hard link to a directory", [dirEntry("d"), linkEntry("h", "Link", "d")], "h"],
    [
      "a link in place of a filled directory",
      [dirEntry("d"), fileEntry("d/x", "x"), linkEntry("d", "SymbolicLink", "x")],
      "d",
    ],
    ["an entry below a file", [fileEntry("f", "x"), fileEntry("f/x", "y")], "f/x"],
  ])("refuses %s as an unsafe entry, as tar does", async (_name, entries, entry) => {
    const error = await caught(
      extractArchive(Readable.from([archive(...entries)]), tempDirForTest("archive-stream-"), () => true),
      "ERR_CREATEOS_SYNC_ARCHIVE_ENTRY",
    );
    expect(error.details).toEqual({ entry });
  });
});
