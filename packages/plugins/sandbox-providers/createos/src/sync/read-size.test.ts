import { appendFile, open, truncate, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { PaperclipError } from "@paperclipai/errors";
import { caught } from "@paperclipai/errors/testing";
import { tempDirForTest } from "@paperclipai/test-support";
import { describe, expect, it, onTestFinished } from "vitest";
import { readAsOpened, readSize } from "./read-size.js";

async function text(source: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const part of source) parts.push(part);
  return Buffer.concat(parts).toString();
}

async function opened(content: string) {
  const path = join(tempDirForTest("createos-read-size-"), "data.txt");
  await writeFile(path, content);
  const handle = await open(path, "r");
  onTestFinished(() => handle.close());
  return { path, handle };
}

describe("readAsOpened", () => {
  it("reads the file as large as it was when the read started, not what a writer adds after", async () => {
    const { path, handle } = await opened("0123456789\n");
    const reader = readAsOpened(handle, "data.txt");
    const first = await reader.next();
    await appendFile(path, "appended while read\n".repeat(1000));
    const rest = await text({ [Symbol.asyncIterator]: () => reader });
    expect(Buffer.from(first.value as Uint8Array).toString() + rest).toBe("0123456789\n");
  });

  it("reads an empty file as nothing", async () => {
    const { handle } = await opened("");
    expect(await text(readAsOpened(handle, "data.txt"))).toBe("");
  });
});

describe("readSize", () => {
  it("refuses a file that ends before its size, retryable, naming the entry", async () => {
    const { path, handle } = await opened("0123456789\n");
    await truncate(path, 3);
    const error = await caught(text(readSize(handle, 11, "data.txt")));
    expect(PaperclipError.is(error, "ERR_CREATEOS_SYNC_SOURCE_CHANGED")).toBe(true);
    expect(error.details).toEqual({ entry: "data.txt" });
    expect(error.retryable).toBe(true);
  });
});
